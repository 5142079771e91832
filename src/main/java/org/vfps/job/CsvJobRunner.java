package org.vfps.job;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 *
 * <p>The rows of each direction are written by {@link ValueReplacement} (pseudonymize,
 * de-pseudonymize, their values resolved by {@link ValueResolution}) and {@link PairImport}; the
 * chunks read ahead by {@link ChunkWindow}; the output gathered by {@link MultipartOutput}; the run
 * ended by {@link JobEnding}.
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
  private final PseudonymTransfer transfer;
  private final CsvProcessingConfig config;
  private final String worker;
  private final JobPhases phases;
  private final EventLoopCalls calls;
  private final ValueResolution resolution;
  private final ValueReplacement replacement;
  private final PairImport pairImport;
  private final JobEnding ending;

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
    this.repository = repository;
    this.store = store;
    this.transfer = transfer;
    this.config = config;
    this.worker = worker;
    this.calls = new EventLoopCalls(vertx.getOrCreateContext());
    Cells cells = new Cells(config.missingValuePlaceholders());
    this.resolution = new ValueResolution(pseudonyms, calls, cells);
    this.replacement = new ValueReplacement(cells);
    this.pairImport = new PairImport(cells);
    this.ending = new JobEnding(repository, store, worker, audit, calls);
  }

  /** Runs the job until it ends, is lost, pauses, or {@code stopping} says to give it back. */
  Outcome run(CsvJobRepository.Run claimed, BooleanSupplier stopping) {
    CsvJob job = claimed.job();
    Caller creator = null;
    RunState state = null;
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
      return ending.complete(state);
    } catch (Lost e) {
      return Outcome.LOST;
    } catch (JobFailure e) {
      return ending.fail(job, state, creator, ErrorCode.FAILED_PRECONDITION, e.getMessage());
    } catch (CsvFormatException e) {
      return ending.fail(job, state, creator, ErrorCode.INVALID_ARGUMENT, formatMessage(e));
    } catch (ServiceException e) {
      if (e.code() == ErrorCode.UNAVAILABLE || e.code() == ErrorCode.OVERLOADED) {
        return ending.paused(job, e.getMessage());
      }
      return ending.fail(job, state, creator, e.code(), e.getMessage());
    } catch (ObjectStoreException e) {
      if (e.unavailable()) {
        return ending.paused(job, e.getMessage());
      }
      LOG.error("CSV job {} failed in the object store: {}", job.id(), e.getMessage());
      return ending.fail(job, state, creator, ErrorCode.INTERNAL, PROCESSING_FAILED);
    } catch (IOException e) {
      return ending.paused(
          job, "the input could not be read (" + e.getClass().getSimpleName() + ")");
    } catch (EventLoopCalls.Interrupted e) {
      return Outcome.PAUSED;
    } catch (RuntimeException e) {
      LOG.error("CSV job {} failed", job.id(), e);
      return ending.fail(job, state, creator, ErrorCode.INTERNAL, PROCESSING_FAILED);
    }
  }

  /** The run's state: from the checkpoint, or a new upload on the first run. */
  private RunState state(CsvJobRepository.Run claimed, Caller creator) {
    CsvJob job = claimed.job();
    String key = CsvJob.outputKey(job.id());
    if (claimed.checkpoint() != null) {
      Checkpoint checkpoint = Checkpoint.decode(claimed.checkpoint());
      RunState state =
          new RunState(
              job,
              creator,
              checkpoint,
              new MultipartOutput(
                  store,
                  key,
                  checkpoint.uploadId(),
                  checkpoint.partETags(),
                  config.checkpointBytes()));
      claimed.pendingOutput().forEach(state.output::append);
      return state;
    }
    String uploadId = store.startUpload(key);
    CsvJob.Counters counters =
        new CsvJob.Counters(job.counters().totalBytes(), 0, 0, 0, 0, 0, 0, 0);
    Checkpoint start = Checkpoint.start(counters, uploadId);
    RunState state =
        new RunState(
            job,
            creator,
            start,
            new MultipartOutput(store, key, uploadId, List.of(), config.checkpointBytes()));
    if (!calls.await(
        () -> repository.checkpoint(job.id(), worker, start.encode(), 0, null, counters))) {
      store.abortUpload(key, uploadId);
      throw new Lost();
    }
    return state;
  }

  // ---- pseudonymize, de-pseudonymize, import: the uploaded file, row by row

  private boolean transform(RunState state, BooleanSupplier stopping) throws IOException {
    CsvJob job = state.job;
    OptionalLong size = store.size(job.inputKey());
    if (size.isEmpty() || size.getAsLong() != job.counters().totalBytes()) {
      throw new JobFailure("The uploaded file changed or disappeared after the job started.");
    }
    CsvRecord separatorLine = null;
    CsvRecord first;
    try (InputStream input = store.read(job.inputKey(), 0);
        CsvReader reader = new CsvReader(input, 0, job.delimiter(), MAX_RECORD_BYTES)) {
      first = reader.next();
      if (first != null && SeparatorLine.isFirst(first, job.delimiter())) {
        separatorLine = first;
        first = reader.next();
      }
    }
    if (first == null) {
      throw new JobFailure("The file is empty.");
    }
    CsvLayout layout = CsvLayout.resolve(job, first.fields());
    state.lineBreak = first.lineBreak().isEmpty() ? RunState.DEFAULT_LINE_BREAK : first.lineBreak();
    long offset = state.offset;
    StringBuilder text = new StringBuilder();
    if (state.nothingWritten()) {
      if (separatorLine != null) {
        CsvWriter.appendRaw(text, separatorLine.raw(), state.lineBreak);
      }
      if (job.hasHeaderRow()) {
        state.write(text, layout.header());
        offset = first.endOffset();
      } else {
        offset = first.startOffset();
      }
    }
    boolean importing = job.direction() == JobDirection.IMPORT;
    try (InputStream input = store.read(job.inputKey(), offset);
        CsvReader reader = new CsvReader(input, offset, job.delimiter(), MAX_RECORD_BYTES)) {
      ChunkWindow<ValueResolution.Resolving> window =
          new ChunkWindow<>(
              reader::next,
              config.batchSize(),
              // an import decides each pair against the pairs before it: one chunk at a time
              importing ? 1 : PIPELINE_DEPTH,
              state.counters.rowsProcessed(),
              (records, rowsBefore) ->
                  importing ? null : resolution.send(state, layout, records, rowsBefore),
              reading -> took(job, JobPhases.Phase.READ_INPUT, reading));
      while (true) {
        if (stopping.getAsBoolean()) {
          return ending.release(state);
        }
        ChunkWindow.Chunk<ValueResolution.Resolving> chunk = window.next();
        if (chunk == null) {
          // a file of a header row only: its output is that row
          return text.isEmpty() || commit(state, text, offset, state.cursor);
        }
        long writing = System.nanoTime();
        long waited =
            importing
                ? importRows(state, layout, chunk, text)
                : replace(state, layout, chunk, text);
        phases.took(
            job.direction(), JobPhases.Phase.WRITE_OUTPUT, System.nanoTime() - writing - waited);
        offset = chunk.records().getLast().endOffset();
        if (!commit(state, text, offset, state.cursor)) {
          return false;
        }
        text.setLength(0);
        if (window.drained()) {
          return true;
        }
      }
    }
  }

  /** Writes the chunk's rows; returns the nanoseconds it waited for their resolution. */
  private long replace(
      RunState state,
      CsvLayout layout,
      ChunkWindow.Chunk<ValueResolution.Resolving> chunk,
      StringBuilder text) {
    long waiting = System.nanoTime();
    Map<String, ValueResolution.Answers> replaced = chunk.prepared().await();
    long waited = took(state.job, JobPhases.Phase.RESOLVE_DATABASE, waiting);
    replacement.write(state, layout, chunk.records(), chunk.firstRow(), replaced, text);
    return waited;
  }

  /** Imports the chunk's pairs and writes its report; returns the nanoseconds of the imports. */
  private long importRows(
      RunState state, CsvLayout layout, ChunkWindow.Chunk<?> chunk, StringBuilder text) {
    Caller creator = state.creator;
    long waited =
        pairImport.write(
            state,
            layout,
            chunk.records(),
            (namespace, pairs) ->
                calls.await(() -> transfer.importPairs(creator, namespace, pairs)),
            text);
    phases.took(state.job.direction(), JobPhases.Phase.RESOLVE_DATABASE, waited);
    return waited;
  }

  // ---- export: the namespace's pairs, page by page

  private boolean export(RunState state, BooleanSupplier stopping) {
    CsvJob job = state.job;
    ColumnMapping mapping = job.columnMappings().getFirst();
    state.lineBreak = RunState.DEFAULT_LINE_BREAK;
    StringBuilder text = new StringBuilder();
    if (state.nothingWritten() && job.hasHeaderRow()) {
      state.write(text, List.of(mapping.sourceColumn(), mapping.targetColumn()));
    }
    Caller creator = state.creator;
    boolean more = true;
    while (more) {
      if (stopping.getAsBoolean()) {
        return ending.release(state);
      }
      Optional<ListCursor> after = state.cursor;
      long waiting = System.nanoTime();
      PseudonymTransfer.ExportPage page =
          calls.await(() -> transfer.exportPage(creator, mapping.namespace(), after, EXPORT_PAGE));
      took(job, JobPhases.Phase.RESOLVE_DATABASE, waiting);
      for (Pseudonym pair : page.pairs()) {
        state.write(text, List.of(pair.originalValue(), pair.pseudonymValue()));
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

  // ---- checkpoints

  /** The chunk's output as the job's next checkpoint; false when the job was lost. */
  private boolean commit(
      RunState state, StringBuilder text, long offset, Optional<ListCursor> cursor) {
    byte[] chunk = text.toString().getBytes(StandardCharsets.UTF_8);
    state.output.append(chunk);
    state.offset = offset;
    state.cursor = cursor;
    state.counters = state.counters.withBytesProcessed(offset);
    byte[] pending = chunk;
    long number = state.nextChunk;
    if (state.output.partDue()) {
      long uploading = System.nanoTime();
      state.output.uploadPart();
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
        calls.await(
            () ->
                repository.checkpoint(
                    state.job.id(), worker, checkpoint, number, added, published));
    took(state.job, JobPhases.Phase.REPORT_PROGRESS, reporting);
    if (!held) {
      ending.lost(state);
      state.outcome = Outcome.LOST;
    }
    return held;
  }

  /** Adds the time since {@code since} to the phase; returns it. */
  private long took(CsvJob job, JobPhases.Phase phase, long since) {
    long nanos = System.nanoTime() - since;
    phases.took(job.direction(), phase, nanos);
    return nanos;
  }

  static String formatMessage(CsvFormatException e) {
    return e.getMessage();
  }

  /** The job was lost before it began. */
  private static final class Lost extends RuntimeException {
    Lost() {
      super(null, null, false, false);
    }
  }
}
