package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vfps.cache.Invalidation;
import org.vfps.pseudonym.AnonymizedOriginals;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Withdrawal;

/**
 * Withdrawals of original values in the {@code pseudonyms} table: their rows deleted or anonymized,
 * each chunk of values in one transaction with its entry of the cache invalidation log.
 * Thread-safe.
 */
final class PgWithdrawals {

  private final Pool pool;

  PgWithdrawals(Pool pool) {
    this.pool = pool;
  }

  /**
   * One statement per {@value BudgetedReads#LOOKUP_CHUNK} values, one after the other, each
   * committed on its own; a statement that lost a deadlock to a concurrent write is sent again.
   * Anonymizing gives every value a new {@link AnonymizedOriginals} value for all its rows. See
   * {@link org.vfps.pseudonym.PseudonymRepository#withdraw}.
   */
  Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal) {
    Map<String, List<Pseudonym>> withdrawn = new HashMap<>();
    return withdrawChunks(namespace, originalValues, withdrawal, withdrawn, 0)
        .map(
            done -> {
              withdrawn.replaceAll(
                  (value, pseudonyms) ->
                      pseudonyms.stream()
                          .sorted(Comparator.comparingLong(Pseudonym::sequenceNumber))
                          .toList());
              return Collections.unmodifiableMap(withdrawn);
            });
  }

  private Future<Void> withdrawChunks(
      String namespace,
      List<String> originalValues,
      Withdrawal withdrawal,
      Map<String, List<Pseudonym>> withdrawn,
      int from) {
    if (from >= originalValues.size()) {
      return Future.succeededFuture();
    }
    String[] chunk =
        originalValues
            .subList(from, Math.min(from + BudgetedReads.LOOKUP_CHUNK, originalValues.size()))
            .toArray(String[]::new);
    Tuple arguments = Tuple.tuple().addString(namespace).addArrayOfString(chunk);
    String query = PseudonymQueries.DELETE_ORIGINALS;
    if (withdrawal == Withdrawal.ANONYMIZE) {
      String[] anonymized = new String[chunk.length];
      Arrays.setAll(anonymized, i -> AnonymizedOriginals.next());
      arguments.addArrayOfString(anonymized);
      query = PseudonymQueries.ANONYMIZE_ORIGINALS;
    }
    return withdrawChunk(query, arguments, namespace, 1)
        .compose(
            rows -> {
              for (Row row : rows) {
                String originalValue = row.getString("original_value");
                Pseudonym pseudonym =
                    new Pseudonym(
                        namespace,
                        null,
                        row.getString("pseudonym_value"),
                        row.getOffsetDateTime("created_at").toInstant(),
                        row.getOffsetDateTime("last_updated_at").toInstant(),
                        row.getLong("sequence_number"),
                        withdrawal == Withdrawal.ANONYMIZE);
                withdrawn.computeIfAbsent(originalValue, value -> new ArrayList<>()).add(pseudonym);
              }
              return withdrawChunks(
                  namespace,
                  originalValues,
                  withdrawal,
                  withdrawn,
                  from + BudgetedReads.LOOKUP_CHUNK);
            });
  }

  /**
   * One transaction: the chunk's statement and, when it withdrew pseudonyms, their entry of the
   * cache invalidation log.
   */
  private Future<RowSet<Row>> withdrawChunk(
      String query, Tuple arguments, String namespace, int attempt) {
    return pool.withTransaction(
            transaction ->
                transaction
                    .preparedQuery(query)
                    .execute(arguments)
                    .compose(
                        rows -> {
                          if (rows.size() == 0) {
                            return Future.succeededFuture(rows);
                          }
                          List<String> pseudonymValues = new ArrayList<>(rows.size());
                          rows.forEach(
                              row -> pseudonymValues.add(row.getString("pseudonym_value")));
                          return PgInvalidationLog.append(
                                  transaction,
                                  Invalidation.Kind.PSEUDONYMS,
                                  namespace,
                                  pseudonymValues)
                              .map(rows);
                        }))
        .recover(
            failure ->
                PgFailures.violates(failure, PgFailures.DEADLOCK_DETECTED, null)
                        && attempt < PseudonymUpsert.UPSERT_ATTEMPTS
                    ? withdrawChunk(query, arguments, namespace, attempt + 1)
                    : PseudonymRows.failed(failure, namespace));
  }
}
