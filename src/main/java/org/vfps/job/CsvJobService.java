package org.vfps.job;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.config.CsvProcessingConfig;
import org.vfps.csv.CsvFormatException;
import org.vfps.csv.CsvReader;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.TextLimits;
import org.vfps.objectstore.ObjectStore;
import org.vfps.objectstore.ObjectStoreException;
import org.vfps.objectstore.PresignedRequest;

/**
 * CSV jobs for the edges: creating one (checked against its direction's permissions), starting it
 * once its file is uploaded, cancelling, reading and listing jobs. A caller sees its own jobs, an
 * admin every one; another caller's job is {@code NOT_FOUND}, as one that does not exist. A job's
 * result is handed out (a download URL of {@code CsvProcessing__DownloadUrlExpiry}) only while the
 * reader has the permission of the job's direction on each of its namespaces, checked anew at each
 * read. The jobs that reveal original values are audited when created, at each download URL and
 * when they end.
 */
public final class CsvJobService {

  /** The most jobs a list answers, newest first. */
  public static final int MAX_LISTED = 1000;

  /** The CSV jobs off: no object store. */
  static final String OFF =
      "CSV jobs are off: no object store is configured (S3__IsEnabled, S3__ServiceUrl, S3__Bucket).";

  private static final String CONTENT_TYPE = "text/csv";

  private final CsvJobRepository repository;
  private final Optional<ObjectStore> store;
  private final Access access;
  private final NamespaceService namespaces;
  private final CsvProcessingConfig config;
  private final Clock clock;
  private final Vertx vertx;
  private final Runnable queued;
  private final JobAudit audit;

  /**
   * @param store empty when CSV jobs are off
   * @param queued told when a job was queued, so that a worker of this replica looks at once
   */
  public CsvJobService(
      CsvJobRepository repository,
      Optional<ObjectStore> store,
      Access access,
      NamespaceService namespaces,
      CsvProcessingConfig config,
      Clock clock,
      Vertx vertx,
      Runnable queued) {
    this.repository = repository;
    this.store = store;
    this.access = access;
    this.namespaces = namespaces;
    this.config = config;
    this.clock = clock;
    this.vertx = vertx;
    this.queued = queued;
    this.audit = new JobAudit(access);
  }

  /** Whether jobs can be created: an object store is configured. */
  public boolean enabled() {
    return store.isPresent();
  }

  /**
   * The origin ({@code scheme://host[:port]}) clients upload files to and download results from:
   * that of the presigned URLs; empty when CSV jobs are off.
   */
  public Optional<String> transferOrigin() {
    return store.map(
        objects -> {
          java.net.URI url =
              objects.presignUpload(CsvJob.KEY_PREFIX + "origin", CONTENT_TYPE).url();
          return url.getScheme() + "://" + url.getRawAuthority();
        });
  }

  /**
   * Creates a job: awaiting its upload (answered with the upload URL), or queued at once for an
   * export. Fails with {@code FAILED_PRECONDITION} when CSV jobs are off, {@code INVALID_ARGUMENT}
   * for a request its direction cannot run, {@code PERMISSION_DENIED} without the direction's
   * permission on every mapped namespace, {@code NOT_FOUND} for an unknown namespace.
   */
  public Future<JobView> create(Caller caller, NewJob request) {
    if (store.isEmpty()) {
      return Future.failedFuture(new ServiceException(ErrorCode.FAILED_PRECONDITION, OFF));
    }
    CsvJob job;
    try {
      job = validated(caller, request);
    } catch (ServiceException e) {
      return Future.failedFuture(e);
    }
    return permitted(caller, job)
        .compose(allowed -> repository.insert(job, Creators.encode(caller)))
        .map(
            inserted -> {
              audit.created(caller, job);
              if (!job.direction().hasInput()) {
                queued.run();
                return JobView.of(job);
              }
              return new JobView(
                  job,
                  Optional.of(store.get().presignUpload(job.inputKey(), CONTENT_TYPE)),
                  Optional.empty());
            });
  }

  private CsvJob validated(Caller caller, NewJob request) {
    JobDirection direction =
        request
            .direction()
            .orElseThrow(
                () ->
                    invalid(
                        "direction: missing; CSV_JOB_DIRECTION_PSEUDONYMIZE, _DEPSEUDONYMIZE,"
                            + " _IMPORT or _EXPORT"));
    String delimiter = request.delimiter().isEmpty() ? "," : request.delimiter();
    if (!isDelimiter(delimiter)) {
      throw invalid(
          "delimiter: must be a tab or one printable ASCII character (U+0020 to U+007E) other"
              + " than the quote, a letter or a digit; got "
              + codePoints(delimiter)
              + ".");
    }
    if (request.pseudonymizeMode().isPresent() && direction != JobDirection.PSEUDONYMIZE) {
      throw invalid("pseudonymizeMode: only a pseudonymize job has one.");
    }
    if (!TextLimits.fits(request.fileName(), TextLimits.MAX_NAME_BYTES)
        || request.fileName().chars().anyMatch(Character::isISOControl)) {
      throw invalid(
          "fileName: at most "
              + TextLimits.MAX_NAME_BYTES
              + " bytes in UTF-8, without control characters.");
    }
    List<ColumnMapping> mappings = request.columnMappings();
    if (mappings.isEmpty()) {
      throw invalid("columnMappings: at least one is needed.");
    }
    boolean transfer = direction == JobDirection.IMPORT || direction == JobDirection.EXPORT;
    if (transfer && mappings.size() != 1) {
      throw invalid(
          "columnMappings: an import or export has exactly one (source column: original values,"
              + " target column: pseudonyms).");
    }
    boolean header = request.hasHeaderRow().orElse(true);
    List<ColumnMapping> checked = new ArrayList<>();
    for (int i = 0; i < mappings.size(); i++) {
      checked.add(checkMapping(mappings.get(i), i, direction, transfer, header));
    }
    UUID id = UUID.randomUUID();
    Instant now = clock.instant();
    return new CsvJob(
        id,
        direction,
        direction.hasInput() ? JobStatus.AWAITING_UPLOAD : JobStatus.QUEUED,
        caller.subject(),
        direction.hasInput() ? CsvJob.inputKey(id) : null,
        null,
        request.fileName().isEmpty() ? null : request.fileName(),
        delimiter.charAt(0),
        header,
        checked,
        request.pseudonymizeMode().orElse(PseudonymizeMode.CREATE_IF_MISSING),
        request.neutralizeFormulas().orElse(direction.writesOriginalValues()),
        CsvJob.Counters.NONE,
        null,
        now,
        now);
  }

  /**
   * Whether a job may separate fields by {@code delimiter}: a tab, or one printable ASCII character
   * other than the quote (which quotes fields), a letter or a digit (which values are made of).
   */
  static boolean isDelimiter(String delimiter) {
    if (delimiter.length() != 1) {
      return false;
    }
    char c = delimiter.charAt(0);
    return c == '\t' || (c >= 0x20 && c <= 0x7E && c != '"' && !Character.isLetterOrDigit(c));
  }

  /** The text's characters as code points, {@code U+0000}: it may hold any, line breaks too. */
  private static String codePoints(String text) {
    StringBuilder described = new StringBuilder();
    text.codePoints()
        .limit(4)
        .forEach(
            c ->
                described
                    .append(described.isEmpty() ? "" : " ")
                    .append(String.format("U+%04X", c)));
    long count = text.codePoints().count();
    return count > 4 ? described + " ... (" + count + " characters)" : described.toString();
  }

  private static ColumnMapping checkMapping(
      ColumnMapping mapping, int index, JobDirection direction, boolean transfer, boolean header) {
    // the JSON path the client wrote, and the mapping counted from 1 for a reader
    String at = "columnMappings[" + index + "] (mapping " + (index + 1) + "): ";
    if (mapping.sourceColumn().isBlank()) {
      throw invalid(at + "sourceColumn: missing.");
    }
    String target = mapping.targetColumn() == null ? "" : mapping.targetColumn();
    if (transfer && target.isBlank()) {
      throw invalid(at + "targetColumn: missing; it names the pseudonym column.");
    }
    String namespaceColumn = mapping.namespaceColumn() == null ? "" : mapping.namespaceColumn();
    if (!namespaceColumn.isEmpty() && direction != JobDirection.IMPORT) {
      throw invalid(at + "namespaceColumn: only an import reads each row's namespace.");
    }
    if (namespaceColumn.isEmpty() && mapping.namespace().isBlank()) {
      throw invalid(at + "namespace: missing.");
    }
    if (!namespaceColumn.isEmpty() && !mapping.namespace().isEmpty()) {
      throw invalid(at + "namespace: must be empty when namespaceColumn names each row's.");
    }
    if (!header && direction.hasInput()) {
      for (String column : List.of(mapping.sourceColumn(), target, namespaceColumn)) {
        if (!column.isEmpty() && !column.strip().matches("[0-9]{1,9}")) {
          throw invalid(
              at
                  + "'"
                  + column
                  + "' is no 0-based column index, which a file without a header row needs.");
        }
      }
    }
    return new ColumnMapping(
        mapping.sourceColumn(),
        target.isEmpty() ? null : target,
        mapping.namespace(),
        namespaceColumn.isEmpty() ? null : namespaceColumn);
  }

  /** The direction's permission on every namespace of the job, then that each named one exists. */
  private Future<Void> permitted(Caller caller, CsvJob job) {
    Future<Void> checked = permittedOnEach(caller, job.direction().creation(), job);
    for (String namespace : job.permissionScope()) {
      if (namespace != null) {
        checked = checked.compose(allowed -> namespaces.resolve(namespace).mapEmpty());
      }
    }
    return checked;
  }

  /**
   * The operation's permission on every namespace of the job, as the caller's grants are now: for a
   * mapping that reads each row's namespace, on every namespace (an admin or a grant of all).
   */
  private Future<Void> permittedOnEach(Caller caller, Operation operation, CsvJob job) {
    Future<Void> checked = Future.succeededFuture();
    for (String namespace : job.permissionScope()) {
      checked = checked.compose(allowed -> access.check(caller, operation, namespace));
    }
    return checked;
  }

  /**
   * Queues a job whose file is uploaded, after reading its first row (the columns must be there). A
   * job queued or running already is answered as it is. Fails with {@code FAILED_PRECONDITION} when
   * nothing was uploaded, when the job has ended, or when the file is larger than {@code
   * CsvProcessing__MaxUploadBytes} (the job then fails and the file is deleted); with {@code
   * INVALID_ARGUMENT} (the job then fails) for a file that is not UTF-8 CSV or lacks a column.
   */
  public Future<JobView> start(Caller caller, UUID id) {
    return owned(caller, id)
        .compose(
            job -> {
              if (job.status() != JobStatus.AWAITING_UPLOAD) {
                if (job.status().ended()) {
                  return Future.failedFuture(
                      new ServiceException(
                          ErrorCode.FAILED_PRECONDITION,
                          "The job has ended (" + job.status() + "); create a new one."));
                }
                return Future.succeededFuture(JobView.of(job));
              }
              return blocking(() -> checkUpload(caller, job))
                  .compose(size -> repository.queue(id, size))
                  .compose(
                      queuedJob -> {
                        queued.run();
                        return queuedJob.isPresent()
                            ? Future.succeededFuture(JobView.of(queuedJob.get()))
                            : owned(caller, id).map(JobView::of);
                      });
            });
  }

  /** The file's size, after checking its size and its first row; blocking. */
  private long checkUpload(Caller caller, CsvJob job) {
    ObjectStore objects = store.orElseThrow();
    OptionalLong size = objects.size(job.inputKey());
    if (size.isEmpty()) {
      throw new ServiceException(
          ErrorCode.FAILED_PRECONDITION,
          "No file was uploaded: PUT it to the job's upload URL first.");
    }
    if (size.getAsLong() > config.maxUploadBytes()) {
      objects.delete(job.inputKey());
      throw failAwaiting(
          caller,
          job,
          ErrorCode.FAILED_PRECONDITION,
          "The file has "
              + size.getAsLong()
              + " bytes, more than CsvProcessing__MaxUploadBytes allows ("
              + config.maxUploadBytes()
              + ").");
    }
    try (InputStream input = objects.read(job.inputKey(), 0);
        CsvReader reader =
            new CsvReader(input, 0, job.delimiter(), CsvJobRunner.MAX_RECORD_BYTES)) {
      CsvRecord first = reader.next();
      try {
        if (first != null && SeparatorLine.isFirst(first, job.delimiter())) {
          first = reader.next();
        }
        if (first == null) {
          throw new ServiceException(ErrorCode.INVALID_ARGUMENT, "The file is empty.");
        }
        CsvLayout.resolve(job, first.fields());
      } catch (ServiceException e) {
        throw failAwaiting(caller, job, e.code(), e.getMessage());
      }
    } catch (CsvFormatException e) {
      throw failAwaiting(caller, job, ErrorCode.INVALID_ARGUMENT, CsvJobRunner.formatMessage(e));
    } catch (IOException e) {
      throw new ServiceException(
          ErrorCode.UNAVAILABLE, "The uploaded file cannot be read from the object store.");
    }
    return size.getAsLong();
  }

  /**
   * Fails the awaiting job with {@code message} (it cannot run) and returns the error to answer.
   */
  private ServiceException failAwaiting(Caller caller, CsvJob job, ErrorCode code, String message) {
    Optional<CsvJob> failed =
        repository.failAwaiting(job.id(), message).toCompletionStage().toCompletableFuture().join();
    failed.ifPresent(ended -> audit.ended(caller, ended, JobStatus.FAILED, code.name(), 0));
    return new ServiceException(code, message);
  }

  /**
   * Cancels a job that has not ended; a running one stops at its next chunk. A job that has ended
   * is answered as it is.
   */
  public Future<JobView> cancel(Caller caller, UUID id) {
    return owned(caller, id)
        .compose(
            job ->
                job.status().ended()
                    ? Future.succeededFuture(JobView.of(job))
                    : repository
                        .cancel(id)
                        .map(
                            cancelled -> {
                              CsvJob now = cancelled.orElse(job);
                              if (now.status() == JobStatus.CANCELLED) {
                                audit.ended(
                                    caller,
                                    now,
                                    JobStatus.CANCELLED,
                                    JobAudit.CANCELLED,
                                    now.counters().rowsProcessed());
                              }
                              return JobView.of(now);
                            }));
  }

  /**
   * The job, with a download URL of its result once it is completed: only while the caller has the
   * permission of the job's direction on each of its namespaces (reverse lookup for a
   * de-pseudonymize job or an export, write for the others), else {@code PERMISSION_DENIED}; the
   * URL is valid for {@code CsvProcessing__DownloadUrlExpiry}.
   */
  public Future<JobView> get(Caller caller, UUID id) {
    return owned(caller, id)
        .compose(
            job -> {
              if (job.status() != JobStatus.COMPLETED
                  || job.outputKey() == null
                  || store.isEmpty()) {
                return Future.succeededFuture(JobView.of(job));
              }
              return permittedOnEach(caller, job.direction().resultRead(), job)
                  .map(
                      allowed -> {
                        PresignedRequest download =
                            store
                                .get()
                                .presignDownload(
                                    job.outputKey(), downloadName(job), config.downloadUrlExpiry());
                        audit.downloadIssued(caller, job, download);
                        return new JobView(job, Optional.empty(), Optional.of(download));
                      });
            });
  }

  /** The caller's jobs (an admin's: all), newest first, at most {@value #MAX_LISTED}. */
  public Future<List<CsvJob>> list(Caller caller) {
    return access
        .fresh()
        .compose(
            current ->
                repository.list(
                    access.isAdmin(caller) ? Optional.empty() : Optional.of(caller.id()),
                    MAX_LISTED));
  }

  /** The job, if the caller created it (by its id, not its subject alone) or is an admin. */
  private Future<CsvJob> owned(Caller caller, UUID id) {
    return access
        .fresh()
        .compose(
            current ->
                access.isAdmin(caller) ? repository.find(id) : repository.find(id, caller.id()))
        .compose(
            found ->
                found
                    .map(Future::succeededFuture)
                    .orElseGet(
                        () ->
                            Future.failedFuture(
                                new ServiceException(
                                    ErrorCode.NOT_FOUND, "No such CSV job: " + id + "."))));
  }

  /** The result's name offered to a browser: the input's name with a suffix of its direction. */
  static String downloadName(CsvJob job) {
    String suffix =
        switch (job.direction()) {
          case PSEUDONYMIZE -> "pseudonymized";
          case DEPSEUDONYMIZE -> "depseudonymized";
          case IMPORT -> "import-report";
          case EXPORT -> "export";
        };
    String name = job.fileName();
    if (name == null || name.isBlank()) {
      return job.id() + "-" + suffix + ".csv";
    }
    String stem = name.toLowerCase().endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
    return stem + "-" + suffix + ".csv";
  }

  private <T> Future<T> blocking(Callable<T> task) {
    return vertx
        .executeBlocking(task, false)
        .recover(
            failure ->
                Future.failedFuture(
                    failure instanceof ObjectStoreException e
                        ? new ServiceException(
                            e.unavailable() ? ErrorCode.UNAVAILABLE : ErrorCode.INTERNAL,
                            "The object store failed: " + e.getMessage())
                        : failure));
  }

  private static ServiceException invalid(String message) {
    return new ServiceException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
