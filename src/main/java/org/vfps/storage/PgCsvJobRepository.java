package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.vfps.access.CallerId;
import org.vfps.job.ColumnMapping;
import org.vfps.job.CsvJob;
import org.vfps.job.CsvJobRepository;
import org.vfps.job.JobDirection;
import org.vfps.job.JobStatus;
import org.vfps.job.PseudonymizeMode;

/**
 * CSV jobs in the .NET vfps's {@code pseudonymization_jobs} table, their runs and checkpoints in
 * ours. Thread-safe.
 */
public final class PgCsvJobRepository implements CsvJobRepository {

  private final Pool pool;

  public PgCsvJobRepository(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Void> insert(CsvJob job, String creator) {
    Tuple row =
        Tuple.tuple()
            .addUUID(job.id())
            .addInteger(job.status().code())
            .addString(job.createdBy())
            .addString(job.inputKey())
            .addString(String.valueOf(job.delimiter()))
            .addBoolean(job.hasHeaderRow())
            .addValue(new JsonArray(mappingsJson(job.columnMappings())))
            .addOffsetDateTime(OffsetDateTime.ofInstant(job.createdAt(), ZoneOffset.UTC))
            .addInteger(job.direction().code())
            .addString(job.fileName())
            .addInteger(job.pseudonymizeMode().code());
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(CsvJobQueries.INSERT)
                    .execute(row)
                    .compose(
                        inserted ->
                            connection
                                .preparedQuery(CsvJobQueries.INSERT_RUN)
                                .execute(
                                    Tuple.of(
                                        job.id(),
                                        new JsonObject(creator),
                                        job.neutralizeFormulas()))))
        .<Void>mapEmpty()
        .recover(PgCsvJobRepository::failed);
  }

  @Override
  public Future<Optional<CsvJob>> find(UUID id) {
    return one(pool.preparedQuery(CsvJobQueries.FIND).execute(Tuple.of(id)));
  }

  @Override
  public Future<Optional<CsvJob>> find(UUID id, CallerId creator) {
    return one(
        pool.preparedQuery(CsvJobQueries.FIND_OF_CREATOR)
            .execute(Tuple.of(creator.subject(), creator.issuer().name(), id)));
  }

  @Override
  public Future<List<CsvJob>> list(Optional<CallerId> creator, int limit) {
    Future<RowSet<Row>> rows =
        creator
            .map(
                by ->
                    pool.preparedQuery(CsvJobQueries.LIST_OF_CREATOR)
                        .execute(Tuple.of(by.subject(), by.issuer().name(), limit)))
            .orElseGet(() -> pool.preparedQuery(CsvJobQueries.LIST_ALL).execute(Tuple.of(limit)));
    return rows.recover(PgCsvJobRepository::failed)
        .map(
            found -> {
              List<CsvJob> jobs = new ArrayList<>(found.size());
              found.forEach(row -> jobs.add(toJob(row)));
              return jobs;
            });
  }

  @Override
  public Future<Optional<CsvJob>> queue(UUID id, long totalBytes) {
    return one(pool.preparedQuery(CsvJobQueries.QUEUE).execute(Tuple.of(id, totalBytes)));
  }

  @Override
  public Future<Optional<CsvJob>> failAwaiting(UUID id, String errorMessage) {
    return one(pool.preparedQuery(CsvJobQueries.FAIL_AWAITING).execute(Tuple.of(id, errorMessage)));
  }

  @Override
  public Future<Optional<CsvJob>> cancel(UUID id) {
    return one(pool.preparedQuery(CsvJobQueries.CANCEL).execute(Tuple.of(id)))
        .compose(cancelled -> cancelled.isPresent() ? Future.succeededFuture(cancelled) : find(id));
  }

  @Override
  public Future<Optional<Run>> claim(String worker, Duration orphanedAfter) {
    double seconds = orphanedAfter.toMillis() / 1000.0;
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(CsvJobQueries.CLAIM)
                    .execute(Tuple.of(worker, seconds))
                    .compose(
                        claimed ->
                            claimed.size() == 0
                                ? Future.succeededFuture(Optional.<Run>empty())
                                : run(connection, claimed.iterator().next())))
        .recover(PgCsvJobRepository::failed);
  }

  private static Future<Optional<Run>> run(SqlConnection connection, Row claimed) {
    UUID id = claimed.getUUID(0);
    Future<RowSet<Row>> job =
        connection.preparedQuery(CsvJobQueries.MARK_RUNNING).execute(Tuple.of(id));
    return job.compose(
        running -> {
          if (running.size() == 0) {
            return Future.succeededFuture(Optional.<Run>empty());
          }
          CsvJob stored = toJob(running.iterator().next());
          return connection
              .preparedQuery(CsvJobQueries.PENDING_OUTPUT)
              .execute(Tuple.of(id))
              .map(
                  pending -> {
                    List<byte[]> chunks = new ArrayList<>(pending.size());
                    pending.forEach(row -> chunks.add(row.getBuffer(0).getBytes()));
                    return Optional.of(
                        new Run(
                            stored,
                            claimed.getString(1),
                            claimed.getInteger(2),
                            claimed.getString(3),
                            chunks));
                  });
        });
  }

  @Override
  public Future<Void> heartbeat(String worker, Collection<UUID> jobs) {
    return pool.preparedQuery(CsvJobQueries.HEARTBEAT)
        .execute(Tuple.of(worker, jobs.toArray(UUID[]::new)))
        .<Void>mapEmpty()
        .recover(PgCsvJobRepository::failed);
  }

  @Override
  public Future<Boolean> checkpoint(
      UUID id,
      String worker,
      String checkpoint,
      long chunk,
      byte[] pendingChunk,
      CsvJob.Counters counters) {
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(CsvJobQueries.MOVE_CHECKPOINT)
                    .execute(Tuple.of(id, worker, new JsonObject(checkpoint)))
                    .compose(
                        moved -> {
                          if (moved.rowCount() == 0) {
                            return Future.succeededFuture(false);
                          }
                          Future<RowSet<Row>> pending =
                              pendingChunk == null
                                  ? connection
                                      .preparedQuery(CsvJobQueries.DROP_PENDING)
                                      .execute(Tuple.of(id))
                                  : connection
                                      .preparedQuery(CsvJobQueries.ADD_PENDING)
                                      .execute(Tuple.of(id, chunk, Buffer.buffer(pendingChunk)));
                          return pending
                              .compose(
                                  added ->
                                      counters == null
                                          ? Future.succeededFuture()
                                          : connection
                                              .preparedQuery(CsvJobQueries.PUBLISH_COUNTERS)
                                              .execute(
                                                  Tuple.of(
                                                      id,
                                                      counters.bytesProcessed(),
                                                      counters.rowsProcessed(),
                                                      count(counters.badDataRows()),
                                                      count(counters.missingValues()),
                                                      count(counters.unresolvedValues())))
                                              .compose(
                                                  published ->
                                                      publishRunCounters(connection, id, counters)))
                              .map(true);
                        }))
        .recover(PgCsvJobRepository::failed);
  }

  @Override
  public Future<Boolean> finish(
      UUID id,
      String worker,
      JobStatus status,
      CsvJob.Counters counters,
      String outputKey,
      String errorMessage) {
    Tuple row =
        Tuple.tuple()
            .addUUID(id)
            .addString(worker)
            .addInteger(status.code())
            .addLong(counters.bytesProcessed())
            .addLong(counters.rowsProcessed())
            .addInteger(count(counters.badDataRows()))
            .addInteger(count(counters.missingValues()))
            .addInteger(count(counters.unresolvedValues()))
            .addString(outputKey)
            .addString(errorMessage);
    return pool.withTransaction(
            connection ->
                connection
                    .preparedQuery(CsvJobQueries.FINISH)
                    .execute(row)
                    .compose(
                        finished ->
                            finished.rowCount() == 0
                                ? Future.succeededFuture(false)
                                : connection
                                    .preparedQuery(CsvJobQueries.DROP_PENDING)
                                    .execute(Tuple.of(id))
                                    .compose(
                                        dropped -> publishRunCounters(connection, id, counters))
                                    .map(true)))
        .recover(PgCsvJobRepository::failed);
  }

  private static Future<RowSet<Row>> publishRunCounters(
      SqlConnection connection, UUID id, CsvJob.Counters counters) {
    return connection
        .preparedQuery(CsvJobQueries.PUBLISH_RUN_COUNTERS)
        .execute(Tuple.of(id, counters.neutralizedCells(), counters.mistypedPseudonyms()));
  }

  @Override
  public Future<Void> release(UUID id, String worker) {
    return pool.preparedQuery(CsvJobQueries.RELEASE)
        .execute(Tuple.of(id, worker))
        .<Void>mapEmpty()
        .recover(PgCsvJobRepository::failed);
  }

  @Override
  public Future<Integer> expireAbandoned(Duration expiry, String errorMessage) {
    return pool.preparedQuery(CsvJobQueries.EXPIRE_ABANDONED)
        .execute(Tuple.of(expiry.toMillis() / 1000.0, errorMessage))
        .map(RowSet::rowCount)
        .recover(PgCsvJobRepository::failed);
  }

  @Override
  public Future<Integer> markStalled(Duration threshold) {
    return pool.preparedQuery(CsvJobQueries.MARK_STALLED)
        .execute(Tuple.of(threshold.toMillis() / 1000.0))
        .map(RowSet::rowCount)
        .recover(PgCsvJobRepository::failed);
  }

  /** The .NET vfps's counter columns are {@code integer}. */
  private static int count(long value) {
    return (int) Math.min(value, Integer.MAX_VALUE);
  }

  private static Future<Optional<CsvJob>> one(Future<RowSet<Row>> rows) {
    return rows.recover(PgCsvJobRepository::failed)
        .map(
            found ->
                found.size() == 0 ? Optional.empty() : Optional.of(toJob(found.iterator().next())));
  }

  private static <T> Future<T> failed(Throwable failure) {
    return Future.failedFuture(PgFailures.translate(failure, Map.of()));
  }

  /** The .NET vfps's JSON: PascalCase names, nulls written. */
  static String mappingsJson(List<ColumnMapping> mappings) {
    JsonArray array = new JsonArray();
    for (ColumnMapping mapping : mappings) {
      array.add(
          new JsonObject()
              .put("SourceColumn", mapping.sourceColumn())
              .put("TargetColumn", mapping.targetColumn())
              .put("Namespace", mapping.namespace())
              .put("NamespaceColumn", mapping.namespaceColumn()));
    }
    return array.encode();
  }

  static List<ColumnMapping> mappings(Object stored) {
    JsonArray array =
        stored instanceof JsonArray json ? json : new JsonArray(String.valueOf(stored));
    List<ColumnMapping> mappings = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      JsonObject mapping = array.getJsonObject(i);
      mappings.add(
          new ColumnMapping(
              String.valueOf(mapping.getValue("SourceColumn", "")),
              mapping.getString("TargetColumn"),
              mapping.getString("Namespace", ""),
              mapping.getString("NamespaceColumn")));
    }
    return mappings;
  }

  private static CsvJob toJob(Row row) {
    String delimiter = row.getString("delimiter");
    return new CsvJob(
        row.getUUID("id"),
        JobDirection.of(row.getInteger("direction")),
        JobStatus.of(row.getInteger("status")),
        row.getString("created_by"),
        row.getString("input_object_key"),
        row.getString("output_object_key"),
        row.getString("original_file_name"),
        delimiter == null || delimiter.isEmpty() ? ',' : delimiter.charAt(0),
        row.getBoolean("has_header_row"),
        mappings(row.getValue("column_mappings")),
        PseudonymizeMode.of(row.getInteger("pseudonymize_mode")),
        Boolean.TRUE.equals(row.getBoolean("neutralize_formulas")),
        new CsvJob.Counters(
            row.getLong("total_bytes"),
            row.getLong("bytes_processed"),
            row.getLong("rows_processed"),
            row.getInteger("bad_data_row_count"),
            row.getInteger("missing_value_count"),
            row.getInteger("unresolved_value_count"),
            Objects.requireNonNullElse(row.getLong("neutralized_cells"), 0L),
            Objects.requireNonNullElse(row.getLong("mistyped_pseudonyms"), 0L)),
        row.getString("error_message"),
        row.getOffsetDateTime("created_at").toInstant(),
        row.getOffsetDateTime("last_updated_at").toInstant());
  }
}
