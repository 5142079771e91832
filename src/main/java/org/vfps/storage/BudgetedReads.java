package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.ReplyBytes;
import org.vfps.pseudonym.Pseudonym;

/**
 * The lookups of pseudonyms for a reply: each pseudonym found is reserved in the call's {@link
 * ReplyBytes} before more are read, and a lookup of many values sends no further chunk once the
 * call's {@link CallDeadline} has passed. Both are the call's own, found where the edge put them
 * when the lookup starts, on the call's context. Thread-safe.
 */
final class BudgetedReads {

  /** At most this many values in one statement of the lookups of many values. */
  static final int LOOKUP_CHUNK = 500;

  private final Pool pool;
  private final StoredOriginals originals;

  BudgetedReads(Pool pool, StoredOriginals originals) {
    this.pool = pool;
    this.originals = originals;
  }

  /** The pseudonym with that value, its bytes reserved in the call's {@link ReplyBytes}. */
  Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
    ReplyBytes bytes = ReplyBytes.current();
    return pool.preparedQuery(PseudonymQueries.FIND_BY_VALUE)
        .execute(Tuple.of(namespace, pseudonymValue))
        .recover(failure -> PseudonymRows.failed(failure, namespace))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Optional.empty());
              }
              Row row = rows.iterator().next();
              Pseudonym found =
                  PseudonymRows.toPseudonym(
                      namespace,
                      originals.original(namespace, row),
                      pseudonymValue,
                      row,
                      row.getLong("sequence_number"));
              return bytes
                  .reserve(PseudonymRows.replyBytes(found))
                  .map(reserved -> Optional.of(found));
            });
  }

  /**
   * The pseudonyms the {@code query} finds for the {@code values}, by original value or by
   * pseudonym value: one statement per {@value #LOOKUP_CHUNK} values, one after the other, each
   * chunk's pseudonyms reserved in the call's {@link ReplyBytes} before the next chunk is read, so
   * that a lookup of many values is refused ({@code OVERLOADED}) once it outgrows the budget rather
   * than held whole. No chunk is sent once the call's {@link CallDeadline} has passed.
   */
  Future<Map<String, Pseudonym>> findAllIn(
      String namespace, List<String> values, String query, boolean byOriginal) {
    Map<String, Pseudonym> found = new HashMap<>();
    Lookup lookup =
        new Lookup(
            namespace,
            values,
            query,
            byOriginal,
            found,
            ReplyBytes.current(),
            CallDeadline.current());
    return readChunks(lookup, 0).map(done -> Collections.unmodifiableMap(found));
  }

  /** A lookup of many values for one call, and what it found so far. */
  private record Lookup(
      String namespace,
      List<String> values,
      String query,
      boolean byOriginal,
      Map<String, Pseudonym> found,
      ReplyBytes bytes,
      CallDeadline deadline) {}

  /** Reads the chunks of the lookup from {@code from} on, one after the other. */
  private Future<Void> readChunks(Lookup lookup, int from) {
    if (from >= lookup.values().size()) {
      return Future.succeededFuture();
    }
    if (from > 0 && lookup.deadline().passed()) {
      return Future.failedFuture(CallDeadline.exceeded());
    }
    String[] chunk =
        lookup
            .values()
            .subList(from, Math.min(from + LOOKUP_CHUNK, lookup.values().size()))
            .toArray(String[]::new);
    return pool.preparedQuery(lookup.query())
        .execute(Tuple.tuple().addString(lookup.namespace()).addArrayOfString(chunk))
        .recover(failure -> PseudonymRows.failed(failure, lookup.namespace()))
        .compose(
            rows -> {
              long size = 0;
              for (Row row : rows) {
                Pseudonym pseudonym =
                    PseudonymRows.toPseudonym(
                        lookup.namespace(),
                        lookup.byOriginal()
                            ? row.getString("original_value")
                            : originals.original(lookup.namespace(), row),
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number"));
                lookup
                    .found()
                    .put(
                        lookup.byOriginal()
                            ? pseudonym.originalValue()
                            : pseudonym.pseudonymValue(),
                        pseudonym);
                size += PseudonymRows.replyBytes(pseudonym);
              }
              return lookup.bytes().reserve(size);
            })
        .compose(reserved -> readChunks(lookup, from + LOOKUP_CHUNK));
  }
}
