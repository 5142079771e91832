package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceFailures;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;

/**
 * Imports of given pairs into the {@code pseudonyms} table, each decided by {@link ImportDecisions}
 * against the rows it meets. See {@link org.vfps.pseudonym.PseudonymRepository#importPairs}.
 * Thread-safe.
 */
final class PgImports {

  /** How often an import decides a pair again that met a row stored while it was decided. */
  private static final int MAX_IMPORT_ATTEMPTS = 3;

  private final Pool pool;

  PgImports(Pool pool) {
    this.pool = pool;
  }

  /**
   * Two statements: a read of the rows the pairs meet, then one insert of the pairs that meet none
   * (a pair given twice, or two pairs sharing a value, are decided in order against the rows
   * decided before them). A pair the insert skips met a row stored meanwhile: it is decided again,
   * against a new read, a few times at most.
   */
  Future<List<ImportStatus>> importPairs(
      Namespace namespace,
      boolean multiple,
      List<ImportedPair> pairs,
      Function<String, Buffer> sealed) {
    return importPairs(namespace, multiple, pairs, sealed, 1);
  }

  /**
   * @param pairs the pairs with their original values as they are stored ({@link StoredOriginals})
   * @param sealed the sealed value of each stored original value of a sealed namespace, else null
   */
  private Future<List<ImportStatus>> importPairs(
      Namespace namespace,
      boolean multiple,
      List<ImportedPair> pairs,
      Function<String, Buffer> sealed,
      int attempt) {
    String[] originals = pairs.stream().map(ImportedPair::originalValue).toArray(String[]::new);
    String[] values = pairs.stream().map(ImportedPair::pseudonymValue).toArray(String[]::new);
    return pool.preparedQuery(PseudonymQueries.IMPORT_EXISTING)
        .execute(
            Tuple.tuple()
                .addString(namespace.name())
                .addArrayOfString(originals)
                .addArrayOfString(values))
        .recover(failure -> PseudonymRows.failed(failure, namespace.name()))
        .compose(
            rows -> {
              ImportDecisions decisions = new ImportDecisions(multiple);
              rows.forEach(
                  row ->
                      decisions.stored(
                          row.getString("original_value"),
                          row.getString("pseudonym_value"),
                          row.getLong("sequence_number")));
              List<ImportStatus> statuses = new ArrayList<>(pairs.size());
              List<Integer> inserted = new ArrayList<>();
              List<Long> sequences = new ArrayList<>();
              for (int i = 0; i < pairs.size(); i++) {
                ImportedPair pair = pairs.get(i);
                ImportStatus status = decisions.decide(pair);
                statuses.add(status);
                if (status == ImportStatus.IMPORTED) {
                  inserted.add(i);
                  sequences.add(decisions.sequenceOf(pair));
                }
              }
              if (inserted.isEmpty()) {
                return Future.succeededFuture(statuses);
              }
              return insertImported(namespace, pairs, inserted, sequences, sealed)
                  .compose(
                      stored -> {
                        List<ImportedPair> raced = new ArrayList<>();
                        List<Integer> racedAt = new ArrayList<>();
                        for (int index : inserted) {
                          if (!stored.contains(pairs.get(index))) {
                            raced.add(pairs.get(index));
                            racedAt.add(index);
                          }
                        }
                        if (raced.isEmpty()) {
                          return Future.succeededFuture(statuses);
                        }
                        if (attempt >= MAX_IMPORT_ATTEMPTS) {
                          return Future.failedFuture(
                              new ServiceException(
                                  ErrorCode.UNAVAILABLE,
                                  "Concurrent writes to the namespace kept an import from"
                                      + " completing; retry it.",
                                  PseudonymRows.metadata(namespace.name())));
                        }
                        return importPairs(namespace, multiple, raced, sealed, attempt + 1)
                            .map(
                                again -> {
                                  for (int j = 0; j < racedAt.size(); j++) {
                                    statuses.set(racedAt.get(j), again.get(j));
                                  }
                                  return statuses;
                                });
                      });
            });
  }

  private Future<Set<ImportedPair>> insertImported(
      Namespace namespace,
      List<ImportedPair> pairs,
      List<Integer> inserted,
      List<Long> sequences,
      Function<String, Buffer> sealed) {
    Buffer[] sealedValues = new Buffer[inserted.size()];
    String[] originals = new String[inserted.size()];
    String[] values = new String[inserted.size()];
    Long[] numbers = sequences.toArray(Long[]::new);
    for (int j = 0; j < inserted.size(); j++) {
      originals[j] = pairs.get(inserted.get(j)).originalValue();
      sealedValues[j] = sealed.apply(originals[j]);
      values[j] = pairs.get(inserted.get(j)).pseudonymValue();
    }
    return pool.preparedQuery(PseudonymQueries.IMPORT_PAIRS)
        .execute(
            Tuple.tuple()
                .addString(namespace.name())
                .addArrayOfString(originals)
                .addArrayOfString(values)
                .addArrayOfLong(numbers)
                .addValue(PseudonymRows.createdAt(namespace))
                .addArrayOfBuffer(sealedValues))
        .recover(failure -> PseudonymRows.failed(failure, namespace.name()))
        .compose(
            rows -> {
              Set<ImportedPair> stored = new HashSet<>();
              for (Row row : rows) {
                if (row.getString("original_value") == null) {
                  // the namespace looked up is gone, perhaps created again under its name
                  return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
                }
                stored.add(
                    new ImportedPair(
                        row.getString("original_value"), row.getString("pseudonym_value")));
              }
              return Future.succeededFuture(stored);
            });
  }
}
