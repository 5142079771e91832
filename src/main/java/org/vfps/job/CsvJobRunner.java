package org.vfps.job;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.config.CsvProcessingConfig;
import org.vfps.csv.CsvFormatException;
import org.vfps.csv.CsvReader;
import org.vfps.csv.CsvRecord;
import org.vfps.csv.CsvWriter;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.objectstore.ObjectStore;
import org.vfps.objectstore.ObjectStoreException;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.PseudonymTransfer;

/**
 * Runs one claimed job on the calling thread (a worker's, never an event loop), chunk by chunk:
 * each chunk of {@code CsvProcessing__PseudonymizeBatchSize} rows reaches the pseudonym service's
 * batch methods (one call per namespace), as {@code BatchCreate} does, and its output becomes a
 * checkpoint: pending output in the database, or, once enough has gathered, a part of the output's
 * multipart upload. A worker that takes the job over resumes after the last checkpoint and writes
 * the same bytes an uninterrupted run writes. A job that neutralizes formulas writes each cell a
 * spreadsheet would run quoted after a single quote, and a malformed row as one such cell.
 */
final class CsvJobRunner {

  /** The longest row a job reads; longer is an error (often an unclosed quote). */
  static final int MAX_RECORD_BYTES = 1 << 20;

  /** The .NET vfps's error message of a job that failed for a reason of ours. */
  static final String PROCESSING_FAILED = "Processing failed - see server logs for details.";

  /**
   * Chunks whose calls are under way at once (but for an import): enough that the database works on
   * the next ones while a chunk is written and checkpointed.
   */
  static final int PIPELINE_DEPTH = 3;

  /** Rows per page of an export, as the .NET vfps pages. */
  static final int EXPORT_PAGE = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(CsvJobRunner.class);
  private static final String DEFAULT_LINE_BREAK = "\r\n";

  /** How a run ended. */
  enum Outcome {
    /** Completed or failed. */
    ENDED,
    /** The job was cancelled or taken over: this worker no longer holds it. */
    LOST,
    /** Given back because the replica stops: any worker may resume it at once. */
    RELEASED,
    /** Paused by a failure that may pass (database or object store away). */
    PAUSED
  }

  private final CsvJobRepository repository;
  private final ObjectStore store;
  private final PseudonymService pseudonyms;
  private final PseudonymTransfer transfer;
  private final CsvProcessingConfig config;
  private final String worker;
  private final JobPhases phases;
  private final JobAudit audit;
  private final Context context;

  CsvJobRunner(
      CsvJobRepository repository,
      ObjectStore store,
      PseudonymService pseudonyms,
      PseudonymTransfer transfer,
      CsvProcessingConfig config,
      Vertx vertx,
      String worker,
      JobPhases phases,
      JobAudit audit) {
    this.phases = phases;
    this.audit = audit;
    this.repository = repository;
    this.store = store;
    this.pseudonyms = pseudonyms;
    this.transfer = transfer;
    this.config = config;
    this.worker = worker;
    this.context = vertx.getOrCreateContext();
  }

  /** Runs the job until it ends, is lost, pauses, or {@code stopping} says to give it back. */
  Outcome run(CsvJobRepository.Run claimed, BooleanSupplier stopping) {
    CsvJob job = claimed.job();
    Caller creator = null;
    State state = null;
    try {
      creator = Creators.decode(claimed.creator());
      state = state(claimed, creator);
      LOG.info(
          "CSV job {} ({}) runs on worker {}, attempt {}{}",
          job.id(),
          job.direction(),
          worker,
          claimed.attempt(),
          claimed.checkpoint() == null
              ? ""
              : ", resuming after row " + state.counters.rowsProcessed());
      boolean finished =
          job.direction() == JobDirection.EXPORT
              ? export(state, stopping)
              : transform(state, stopping);
      if (!finished) {
        return state.outcome;
      }
      return complete(state);
    } catch (Lost e) {
      return Outcome.LOST;
    } catch (JobFailure e) {
      return fail(job, state, creator, ErrorCode.FAILED_PRECONDITION, e.getMessage());
    } catch (CsvFormatException e) {
      return fail(job, state, creator, ErrorCode.INVALID_ARGUMENT, formatMessage(e));
    } catch (ServiceException e) {
      if (e.code() == ErrorCode.UNAVAILABLE || e.code() == ErrorCode.OVERLOADED) {
        return paused(job, e.getMessage());
      }
      return fail(job, state, creator, e.code(), e.getMessage());
    } catch (ObjectStoreException e) {
      if (e.unavailable()) {
        return paused(job, e.getMessage());
      }
      LOG.error("CSV job {} failed in the object store: {}", job.id(), e.getMessage());
      return fail(job, state, creator, ErrorCode.INTERNAL, PROCESSING_FAILED);
    } catch (IOException e) {
      return paused(job, "the input could not be read (" + e.getClass().getSimpleName() + ")");
    } catch (Interrupted e) {
      return Outcome.PAUSED;
    } catch (RuntimeException e) {
      LOG.error("CSV job {} failed", job.id(), e);
      return fail(job, state, creator, ErrorCode.INTERNAL, PROCESSING_FAILED);
    }
  }

  /** The run's state: from the checkpoint, or a new upload on the first run. */
  private State state(CsvJobRepository.Run claimed, Caller creator) {
    CsvJob job = claimed.job();
    if (claimed.checkpoint() != null) {
      State state =
          new State(
              job, creator, Checkpoint.decode(claimed.checkpoint()), config.checkpointBytes());
      claimed.pendingOutput().forEach(state.output::append);
      return state;
    }
    String uploadId = store.startUpload(CsvJob.outputKey(job.id()));
    CsvJob.Counters counters = new CsvJob.Counters(job.counters().totalBytes(), 0, 0, 0, 0, 0, 0);
    State state =
        new State(job, creator, Checkpoint.start(counters, uploadId), config.checkpointBytes());
    if (!await(
        () ->
            repository.checkpoint(
                job.id(), worker, state.checkpoint().encode(), 0, null, counters))) {
      store.abortUpload(CsvJob.outputKey(job.id()), uploadId);
      throw new Lost();
    }
    return state;
  }

  // ---- pseudonymize, de-pseudonymize, import: the uploaded file, row by row

  private boolean transform(State state, BooleanSupplier stopping) throws IOException {
    CsvJob job = state.job;
    Optional<Long> size = optional(store.size(job.inputKey()));
    if (size.isEmpty() || size.get() != job.counters().totalBytes()) {
      throw new JobFailure("The uploaded file changed or disappeared after the job started.");
    }
    CsvRecord first;
    try (InputStream input = store.read(job.inputKey(), 0);
        CsvReader reader = new CsvReader(input, 0, job.delimiter(), MAX_RECORD_BYTES)) {
      first = reader.next();
    }
    if (first == null) {
      throw new JobFailure("The file is empty.");
    }
    CsvLayout layout = CsvLayout.resolve(job, first.fields());
    state.lineBreak = first.lineBreak().isEmpty() ? DEFAULT_LINE_BREAK : first.lineBreak();
    long offset = state.offset;
    StringBuilder text = new StringBuilder();
    if (state.nothingWritten()) {
      if (job.hasHeaderRow()) {
        write(state, text, layout.header());
        offset = first.endOffset();
      } else {
        offset = 0;
      }
    }
    try (InputStream input = store.read(job.inputKey(), offset);
        CsvReader reader = new CsvReader(input, offset, job.delimiter(), MAX_RECORD_BYTES)) {
      // an import decides each pair against the pairs before it: one chunk at a time
      int depth = job.direction() == JobDirection.IMPORT ? 1 : PIPELINE_DEPTH;
      Deque<Chunk> window = new ArrayDeque<>();
      long rowsRead = state.counters.rowsProcessed();
      boolean end = false;
      while (true) {
        if (stopping.getAsBoolean()) {
          return release(state);
        }
        while (!end && window.size() < depth) {
          long reading = System.nanoTime();
          List<CsvRecord> records = new ArrayList<>(config.batchSize());
          CsvRecord record;
          while (records.size() < config.batchSize() && (record = reader.next()) != null) {
            records.add(record);
          }
          took(job, JobPhases.Phase.READ_INPUT, reading);
          end = records.size() < config.batchSize();
          if (!records.isEmpty()) {
            window.add(
                new Chunk(
                    records,
                    rowsRead,
                    job.direction() == JobDirection.IMPORT
                        ? null
                        : prepare(state, layout, records, rowsRead)));
            rowsRead += records.size();
          }
        }
        Chunk chunk = window.poll();
        if (chunk == null) {
          // a file of a header row only: its output is that row
          return text.isEmpty() || commit(state, text, offset, state.cursor);
        }
        long writing = System.nanoTime();
        long waited =
            job.direction() == JobDirection.IMPORT
                ? importRows(state, layout, chunk.records(), text)
                : transformRows(state, layout, chunk, text);
        phases.took(
            job.direction(), JobPhases.Phase.WRITE_OUTPUT, System.nanoTime() - writing - waited);
        offset = chunk.records().getLast().endOffset();
        if (!commit(state, text, offset, state.cursor)) {
          return false;
        }
        text.setLength(0);
        if (end && window.isEmpty()) {
          return true;
        }
      }
    }
  }

  /**
   * Rows read and, but for an import, the calls that resolve their values, already sent: while a
   * chunk is written and checkpointed, the calls of the next ones are under way.
   *
   * @param firstRow the rows of the file before this chunk's
   * @param resolution what each distinct value of each namespace becomes, once the calls return
   */
  private record Chunk(
      List<CsvRecord> records,
      long firstRow,
      Map<String, CompletableFuture<Map<String, String>>> resolution) {}

  /** Sends the calls that resolve the chunk's distinct values, one batch call per namespace. */
  private Map<String, CompletableFuture<Map<String, String>>> prepare(
      State state, CsvLayout layout, List<CsvRecord> records, long firstRow) {
    Map<String, Set<String>> wanted = new LinkedHashMap<>();
    for (CsvRecord record : records) {
      if (record.malformed()) {
        continue;
      }
      for (CsvLayout.Column column : layout.columns()) {
        String cell = cell(record.fields(), column.source());
        if (!missing(cell)) {
          wanted
              .computeIfAbsent(column.mapping().namespace(), ns -> new LinkedHashSet<>())
              .add(cell);
        }
      }
    }
    Map<String, CompletableFuture<Map<String, String>>> resolution = new HashMap<>();
    wanted.forEach(
        (namespace, values) ->
            resolution.put(
                namespace,
                resolve(state, namespace, List.copyOf(values), records, layout, firstRow)));
    return resolution;
  }

  /** Writes the chunk's rows; returns the nanoseconds it waited for their resolution. */
  private long transformRows(State state, CsvLayout layout, Chunk chunk, StringBuilder text) {
    CsvJob job = state.job;
    List<CsvRecord> records = chunk.records();
    Map<String, Map<String, String>> replaced = new HashMap<>();
    long waiting = System.nanoTime();
    chunk.resolution().forEach((namespace, values) -> replaced.put(namespace, join(values)));
    long waited = took(job, JobPhases.Phase.RESOLVE_DATABASE, waiting);
    // rows as a spreadsheet numbers the file's lines: the header row, if any, is row 1
    long row = chunk.firstRow() + headerRows(job);
    for (CsvRecord record : records) {
      row++;
      if (record.malformed()) {
        writeMalformed(state, text, record);
        continue;
      }
      List<String> fields = widened(record.fields(), layout.width());
      long missingCells = 0;
      long unresolved = 0;
      for (CsvLayout.Column column : layout.columns()) {
        String cell = cell(record.fields(), column.source());
        if (missing(cell)) {
          missingCells++;
          fields.set(column.target(), cell == null ? "" : cell);
          continue;
        }
        String value = replaced.get(column.mapping().namespace()).get(cell);
        if (value == null) {
          if (job.direction() == JobDirection.PSEUDONYMIZE) {
            if (job.pseudonymizeMode() == PseudonymizeMode.FAIL_IF_MISSING) {
              throw new JobFailure(
                  "Row "
                      + row
                      + ", column '"
                      + column.mapping().sourceColumn()
                      + "': the value has no pseudonym in namespace '"
                      + column.mapping().namespace()
                      + "', and the job fails then (PSEUDONYMIZE_MODE_FAIL_IF_MISSING).");
            }
            unresolved++;
            value = "";
          } else {
            value = cell;
          }
        }
        fields.set(column.target(), value);
      }
      write(state, text, fields);
      state.count(0, missingCells, unresolved);
    }
    state.rows(records.size());
    return waited;
  }

  /**
   * What each distinct value of a namespace becomes, once the calls sent here return: absent for
   * one the namespace cannot answer.
   */
  private CompletableFuture<Map<String, String>> resolve(
      State state,
      String namespace,
      List<String> values,
      List<CsvRecord> records,
      CsvLayout layout,
      long firstRow) {
    Caller creator = state.creator;
    List<CompletableFuture<Map<String, String>>> parts = new ArrayList<>();
    for (int from = 0; from < values.size(); from += pseudonyms.maxBatchSize()) {
      List<String> part =
          values.subList(from, Math.min(values.size(), from + pseudonyms.maxBatchSize()));
      if (state.job.direction() == JobDirection.DEPSEUDONYMIZE) {
        parts.add(
            submit(
                () ->
                    pseudonyms
                        .lookupAll(creator, namespace, part)
                        .map(
                            found -> {
                              Map<String, String> revealed = new HashMap<>();
                              for (Optional<Pseudonym> pseudonym : found) {
                                pseudonym
                                    .filter(known -> !known.withdrawn())
                                    .ifPresent(
                                        known ->
                                            revealed.put(
                                                known.pseudonymValue(), known.originalValue()));
                              }
                              return revealed;
                            })));
      } else if (state.job.pseudonymizeMode() == PseudonymizeMode.CREATE_IF_MISSING) {
        parts.add(
            submit(
                () ->
                    pseudonyms
                        .createAll(creator, namespace, part)
                        .recover(
                            failure ->
                                Future.failedFuture(
                                    failure instanceof ServiceException e
                                        ? refused(
                                            e,
                                            part,
                                            records,
                                            layout,
                                            firstRow + headerRows(state.job),
                                            namespace)
                                        : failure))
                        .map(created -> byValue(part, created, Pseudonym::pseudonymValue))));
      } else {
        parts.add(
            submit(
                () ->
                    pseudonyms
                        .findAll(creator, namespace, part)
                        .map(
                            found -> {
                              Map<String, String> known = new HashMap<>();
                              for (int i = 0; i < part.size(); i++) {
                                int index = i;
                                found
                                    .get(i)
                                    .ifPresent(
                                        pseudonym ->
                                            known.put(part.get(index), pseudonym.pseudonymValue()));
                              }
                              return known;
                            })));
      }
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, String> result = new HashMap<>(values.size() * 2);
              parts.forEach(part -> result.putAll(part.join()));
              return result;
            });
  }

  private static <T> Map<String, String> byValue(
      List<String> values, List<T> answers, Function<T, String> value) {
    Map<String, String> result = new HashMap<>(values.size() * 2);
    for (int i = 0; i < values.size(); i++) {
      result.put(values.get(i), value.apply(answers.get(i)));
    }
    return result;
  }

  /** The rows before the data: a failure names a row as a spreadsheet numbers the file's lines. */
  private static int headerRows(CsvJob job) {
    return job.hasHeaderRow() ? 1 : 0;
  }

  /**
   * A value Create refused, as a failure that names its row (counted as {@link #headerRows} says)
   * and column instead of the position in the batch; other failures as they are.
   *
   * @param firstRow the row before the chunk's first, the header row included
   */
  private static ServiceException refused(
      ServiceException e,
      List<String> part,
      List<CsvRecord> records,
      CsvLayout layout,
      long firstRow,
      String namespace) {
    String index = e.metadata().get("index");
    if (index == null || !index.matches("[0-9]+") || Integer.parseInt(index) >= part.size()) {
      return e;
    }
    String value = part.get(Integer.parseInt(index));
    long row = firstRow;
    for (CsvRecord record : records) {
      row++;
      if (record.malformed()) {
        continue;
      }
      for (CsvLayout.Column column : layout.columns()) {
        if (column.mapping().namespace().equals(namespace)
            && value.equals(cell(record.fields(), column.source()))) {
          // the row names the value: its position in the call ("value 3 of 500") would only
          // confuse
          String message =
              e.getMessage()
                  .replace(" " + (Integer.parseInt(index) + 1) + " of " + part.size(), "");
          return new ServiceException(
              e.code(),
              "Row " + row + ", column '" + column.mapping().sourceColumn() + "': " + message);
        }
      }
    }
    return e;
  }

  /** Imports the chunk's pairs and writes its report; returns the nanoseconds of the imports. */
  private long importRows(
      State state, CsvLayout layout, List<CsvRecord> records, StringBuilder text) {
    CsvJob job = state.job;
    CsvLayout.Column column = layout.columns().getFirst();
    ImportStatus[] statuses = new ImportStatus[records.size()];
    Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      CsvRecord record = records.get(i);
      if (record.malformed()) {
        continue;
      }
      String original = cell(record.fields(), column.source());
      String pseudonym = cell(record.fields(), column.target());
      String namespace =
          column.namespaceField() < 0
              ? column.mapping().namespace()
              : cell(record.fields(), column.namespaceField());
      if (missing(original) || missing(pseudonym) || missing(namespace)) {
        statuses[i] = ImportStatus.MISSING_VALUE;
        state.count(0, 1, 0);
      } else {
        byNamespace.computeIfAbsent(namespace.strip(), ns -> new ArrayList<>()).add(i);
      }
    }
    Caller creator = state.creator;
    long waiting = System.nanoTime();
    for (Map.Entry<String, List<Integer>> entry : byNamespace.entrySet()) {
      List<ImportedPair> pairs =
          entry.getValue().stream()
              .map(
                  i ->
                      new ImportedPair(
                          cell(records.get(i).fields(), column.source()),
                          cell(records.get(i).fields(), column.target())))
              .toList();
      List<ImportStatus> outcome;
      try {
        outcome = await(() -> transfer.importPairs(creator, entry.getKey(), pairs));
      } catch (ServiceException e) {
        if (e.code() != ErrorCode.NOT_FOUND) {
          throw e;
        }
        outcome = Collections.nCopies(pairs.size(), ImportStatus.UNKNOWN_NAMESPACE);
      }
      for (int j = 0; j < pairs.size(); j++) {
        statuses[entry.getValue().get(j)] = outcome.get(j);
      }
    }
    long waited = took(state.job, JobPhases.Phase.RESOLVE_DATABASE, waiting);
    for (int i = 0; i < records.size(); i++) {
      CsvRecord record = records.get(i);
      if (record.malformed()) {
        writeMalformed(state, text, record);
        continue;
      }
      List<String> fields = new ArrayList<>(record.fields());
      fields.add(statuses[i].label());
      write(state, text, fields);
    }
    state.rows(records.size());
    return waited;
  }

  // ---- export: the namespace's pairs, page by page

  private boolean export(State state, BooleanSupplier stopping) {
    CsvJob job = state.job;
    ColumnMapping mapping = job.columnMappings().getFirst();
    state.lineBreak = DEFAULT_LINE_BREAK;
    StringBuilder text = new StringBuilder();
    if (state.nothingWritten() && job.hasHeaderRow()) {
      write(state, text, List.of(mapping.sourceColumn(), mapping.targetColumn()));
    }
    Caller creator = state.creator;
    boolean more = true;
    while (more) {
      if (stopping.getAsBoolean()) {
        return release(state);
      }
      Optional<ListCursor> after = state.cursor;
      long waiting = System.nanoTime();
      PseudonymTransfer.ExportPage page =
          await(() -> transfer.exportPage(creator, mapping.namespace(), after, EXPORT_PAGE));
      took(job, JobPhases.Phase.RESOLVE_DATABASE, waiting);
      for (Pseudonym pair : page.pairs()) {
        write(state, text, List.of(pair.originalValue(), pair.pseudonymValue()));
      }
      state.rows(page.pairs().size());
      more = page.next().isPresent();
      if (!commit(state, text, 0, page.next())) {
        return false;
      }
      text.setLength(0);
    }
    return true;
  }

  /** Writes a row, neutralized when the job asks, and counts the cells it neutralized. */
  private static void write(State state, StringBuilder text, List<String> fields) {
    state.neutralized(
        CsvWriter.append(
            text, fields, state.job.delimiter(), state.lineBreak, state.job.neutralizeFormulas()));
  }

  /**
   * Writes a malformed row as it was read and counts it. A job that neutralizes writes the row's
   * text as one cell instead: a spreadsheet would split it into cells that no one checked.
   */
  private static void writeMalformed(State state, StringBuilder text, CsvRecord record) {
    if (state.job.neutralizeFormulas()) {
      write(state, text, List.of(record.raw()));
    } else {
      CsvWriter.appendRaw(text, record.raw(), state.lineBreak);
    }
    state.count(1, 0, 0);
  }

  // ---- checkpoints and the end

  /** The chunk's output as the job's next checkpoint; false when the job was lost. */
  private boolean commit(
      State state, StringBuilder text, long offset, Optional<ListCursor> cursor) {
    byte[] chunk = text.toString().getBytes(StandardCharsets.UTF_8);
    state.output.append(chunk);
    state.offset = offset;
    state.cursor = cursor;
    state.counters = state.counters.withBytesProcessed(offset);
    byte[] pending = chunk;
    long number = state.nextChunk;
    if (state.output.size() >= config.checkpointBytes()) {
      long uploading = System.nanoTime();
      state.parts.add(
          store.uploadPart(
              CsvJob.outputKey(state.job.id()),
              state.uploadId,
              state.parts.size() + 1,
              state.output.bytes(),
              state.output.size()));
      state.output.clear();
      took(state.job, JobPhases.Phase.WRITE_OUTPUT, uploading);
      pending = null;
    } else {
      state.nextChunk++;
    }
    CsvJob.Counters published =
        state.publishDue(config.progressUpdateInterval().toNanos()) ? state.counters : null;
    String checkpoint = state.checkpoint().encode();
    byte[] added = pending;
    long reporting = System.nanoTime();
    boolean held =
        await(
            () ->
                repository.checkpoint(
                    state.job.id(), worker, checkpoint, number, added, published));
    took(state.job, JobPhases.Phase.REPORT_PROGRESS, reporting);
    if (!held) {
      lost(state);
      state.outcome = Outcome.LOST;
    }
    return held;
  }

  private Outcome complete(State state) {
    CsvJob job = state.job;
    String key = CsvJob.outputKey(job.id());
    if (state.output.size() > 0 || state.parts.isEmpty()) {
      state.parts.add(
          store.uploadPart(
              key,
              state.uploadId,
              state.parts.size() + 1,
              state.output.bytes(),
              state.output.size()));
    }
    try {
      store.completeUpload(key, state.uploadId, state.parts);
    } catch (ObjectStoreException e) {
      // completed by an earlier attempt that stopped before it could say so
      if (e.unavailable() || store.size(key).isEmpty()) {
        throw e;
      }
    }
    boolean held =
        await(
            () ->
                repository.finish(
                    job.id(), worker, JobStatus.COMPLETED, state.counters, key, null));
    if (!held) {
      store.delete(key);
      return Outcome.LOST;
    }
    dropInput(job);
    audit.ended(state.creator, job, JobStatus.COMPLETED, Audit.OK, state.counters.rowsProcessed());
    LOG.info(
        "CSV job {} completed: {} rows, {} malformed, {} missing, {} unresolved, {} neutralized",
        job.id(),
        state.counters.rowsProcessed(),
        state.counters.badDataRows(),
        state.counters.missingValues(),
        state.counters.unresolvedValues(),
        state.counters.neutralizedCells());
    return Outcome.ENDED;
  }

  /**
   * Fails the job with {@code message}; {@code code} is the failure's kind for the audit trail.
   *
   * @param state null when the run failed before it had one
   * @param creator null when the run failed before it read its creator
   */
  private Outcome fail(CsvJob job, State state, Caller creator, ErrorCode code, String message) {
    LOG.warn("CSV job {} failed: {}", job.id(), message);
    if (state != null) {
      abort(state);
    }
    CsvJob.Counters counters = state == null ? job.counters() : state.counters;
    try {
      if (await(
          () -> repository.finish(job.id(), worker, JobStatus.FAILED, counters, null, message))) {
        dropInput(job);
        if (creator != null) {
          audit.ended(creator, job, JobStatus.FAILED, code.name(), counters.rowsProcessed());
        }
      }
    } catch (ServiceException | Interrupted e) {
      LOG.warn("CSV job {} could not be marked failed: {}", job.id(), e.getMessage());
    }
    return Outcome.ENDED;
  }

  private Outcome paused(CsvJob job, String reason) {
    LOG.warn(
        "CSV job {} paused: {}; a worker resumes it from its checkpoint after"
            + " CsvProcessing__OrphanedJobRecoveryDelay",
        job.id(),
        reason);
    return Outcome.PAUSED;
  }

  private boolean release(State state) {
    await(() -> repository.release(state.job.id(), worker));
    LOG.info(
        "CSV job {} given back at row {}: this replica stops",
        state.job.id(),
        state.counters.rowsProcessed());
    state.outcome = Outcome.RELEASED;
    return false;
  }

  /** A cancelled job's upload is dropped; a taken-over one's belongs to the new worker. */
  private void lost(State state) {
    try {
      Optional<CsvJob> now = await(() -> repository.find(state.job.id()));
      if (now.isPresent() && now.get().status() == JobStatus.CANCELLED) {
        abort(state);
        LOG.info("CSV job {} cancelled", state.job.id());
      } else {
        LOG.info("CSV job {} was taken over by another worker", state.job.id());
      }
    } catch (ServiceException | Interrupted e) {
      LOG.info("CSV job {} is no longer this worker's", state.job.id());
    }
  }

  /**
   * Deletes the uploaded file of a job that ended: it holds the values the job read (original
   * values, for a pseudonymize job), which no one needs once the result is written.
   */
  private void dropInput(CsvJob job) {
    if (job.inputKey() == null) {
      return;
    }
    try {
      store.delete(job.inputKey());
    } catch (ObjectStoreException e) {
      LOG.warn(
          "CSV job {}: its uploaded file could not be deleted ({}); the bucket's lifecycle rule"
              + " expires it",
          job.id(),
          e.getMessage());
    }
  }

  private void abort(State state) {
    try {
      store.abortUpload(CsvJob.outputKey(state.job.id()), state.uploadId);
    } catch (ObjectStoreException e) {
      LOG.warn(
          "CSV job {}: its output upload could not be aborted: {}", state.job.id(), e.getMessage());
    }
  }

  // ---- helpers

  /** Adds the time since {@code since} to the phase; returns it. */
  private long took(CsvJob job, JobPhases.Phase phase, long since) {
    long nanos = System.nanoTime() - since;
    phases.took(job.direction(), phase, nanos);
    return nanos;
  }

  private boolean missing(String cell) {
    if (cell == null || cell.isBlank()) {
      return true;
    }
    String stripped = cell.strip();
    for (String placeholder : config.missingValuePlaceholders()) {
      if (placeholder.equalsIgnoreCase(stripped)) {
        return true;
      }
    }
    return false;
  }

  private static String cell(List<String> fields, int index) {
    return index < fields.size() ? fields.get(index) : null;
  }

  private static List<String> widened(List<String> fields, int width) {
    List<String> copy = new ArrayList<>(Math.max(width, fields.size()));
    copy.addAll(fields);
    while (copy.size() < width) {
      copy.add("");
    }
    return copy;
  }

  private static Optional<Long> optional(java.util.OptionalLong value) {
    return value.isPresent() ? Optional.of(value.getAsLong()) : Optional.empty();
  }

  static String formatMessage(CsvFormatException e) {
    return e.getMessage();
  }

  /** The future's result, waited for on this (worker) thread; the call runs on an event loop. */
  private <T> T await(Supplier<Future<T>> call) {
    return join(submit(call));
  }

  /** Sends the call on the runner's event loop; its result arrives there. */
  private <T> CompletableFuture<T> submit(Supplier<Future<T>> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    context.runOnContext(
        ignored -> {
          try {
            call.get()
                .onComplete(
                    done -> {
                      if (done.succeeded()) {
                        result.complete(done.result());
                      } else {
                        result.completeExceptionally(done.cause());
                      }
                    });
          } catch (RuntimeException e) {
            result.completeExceptionally(e);
          }
        });
    return result;
  }

  /** The result, waited for on this thread; a failure is rethrown as it was. */
  private static <T> T join(CompletableFuture<T> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Interrupted();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof java.util.concurrent.CompletionException
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** A job that cannot complete, with a message for its creator that names no value. */
  private static final class JobFailure extends RuntimeException {
    JobFailure(String message) {
      super(message, null, false, false);
    }
  }

  /** The worker's thread was interrupted: its replica stops at once. */
  private static final class Interrupted extends RuntimeException {
    Interrupted() {
      super("interrupted", null, false, false);
    }
  }

  /** The job was lost before it began. */
  private static final class Lost extends RuntimeException {
    Lost() {
      super(null, null, false, false);
    }
  }

  /** What a run has done, from its checkpoint on. */
  private static final class State {
    final CsvJob job;
    final Caller creator;
    final String uploadId;
    final List<String> parts;
    final Output output;
    long offset;
    long nextChunk;
    Optional<ListCursor> cursor;
    CsvJob.Counters counters;
    String lineBreak = DEFAULT_LINE_BREAK;
    Outcome outcome = Outcome.ENDED;
    private long lastPublished = System.nanoTime();

    State(CsvJob job, Caller creator, Checkpoint checkpoint, int partBytes) {
      this.job = job;
      this.output = new Output(partBytes);
      this.creator = creator;
      this.uploadId = checkpoint.uploadId();
      this.parts = new ArrayList<>(checkpoint.partETags());
      this.offset = checkpoint.inputOffset();
      this.nextChunk = checkpoint.nextChunk();
      this.cursor = checkpoint.exportCursor();
      this.counters = checkpoint.counters();
    }

    boolean nothingWritten() {
      return parts.isEmpty() && nextChunk == 0 && output.size() == 0;
    }

    Checkpoint checkpoint() {
      return new Checkpoint(offset, counters, uploadId, parts, nextChunk, cursor);
    }

    void count(long bad, long missing, long unresolved) {
      counters =
          new CsvJob.Counters(
              counters.totalBytes(),
              counters.bytesProcessed(),
              counters.rowsProcessed(),
              counters.badDataRows() + bad,
              counters.missingValues() + missing,
              counters.unresolvedValues() + unresolved,
              counters.neutralizedCells());
    }

    void rows(int processed) {
      counters =
          new CsvJob.Counters(
              counters.totalBytes(),
              counters.bytesProcessed(),
              counters.rowsProcessed() + processed,
              counters.badDataRows(),
              counters.missingValues(),
              counters.unresolvedValues(),
              counters.neutralizedCells());
    }

    void neutralized(int cells) {
      if (cells > 0) {
        counters =
            new CsvJob.Counters(
                counters.totalBytes(),
                counters.bytesProcessed(),
                counters.rowsProcessed(),
                counters.badDataRows(),
                counters.missingValues(),
                counters.unresolvedValues(),
                counters.neutralizedCells() + cells);
      }
    }

    boolean publishDue(long intervalNanos) {
      long now = System.nanoTime();
      if (now - lastPublished >= intervalNanos || output.size() == 0) {
        lastPublished = now;
        return true;
      }
      return false;
    }
  }

  /**
   * The output since the last uploaded part: it grows by doubling up to about a part's size, so a
   * job holds little more than {@code CsvProcessing__CheckpointBytes} and a chunk.
   */
  private static final class Output {
    private final int partBytes;
    private byte[] bytes = new byte[64 * 1024];
    private int size;

    Output(int partBytes) {
      this.partBytes = partBytes;
    }

    void append(byte[] chunk) {
      if (size + chunk.length > bytes.length) {
        int doubled = (int) Math.min((long) bytes.length * 2, partBytes + (long) 64 * 1024);
        bytes = Arrays.copyOf(bytes, Math.max(doubled, size + chunk.length));
      }
      System.arraycopy(chunk, 0, bytes, size, chunk.length);
      size += chunk.length;
    }

    byte[] bytes() {
      return bytes;
    }

    int size() {
      return size;
    }

    void clear() {
      size = 0;
    }
  }
}
