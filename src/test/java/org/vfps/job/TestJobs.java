package org.vfps.job;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.vfps.csv.CsvReader;
import org.vfps.csv.CsvRecord;
import org.vfps.objectstore.InMemoryObjectStore;

/** Jobs, rows and run states for the unit tests of a job's pieces. */
final class TestJobs {

  private TestJobs() {}

  /** A queued job with a comma as delimiter. */
  static CsvJob job(
      JobDirection direction,
      PseudonymizeMode mode,
      boolean header,
      boolean neutralize,
      ColumnMapping... mappings) {
    return new CsvJob(
        UUID.randomUUID(),
        direction,
        JobStatus.RUNNING,
        "someone",
        "in",
        null,
        null,
        ',',
        header,
        List.of(mappings),
        mode,
        neutralize,
        CsvJob.Counters.NONE,
        null,
        Instant.EPOCH,
        Instant.EPOCH);
  }

  /** The records of a CSV text with commas, as a job reads them. */
  static List<CsvRecord> records(String csv) {
    byte[] bytes = csv.getBytes(StandardCharsets.UTF_8);
    List<CsvRecord> records = new ArrayList<>();
    try (CsvReader reader =
        new CsvReader(new ByteArrayInputStream(bytes), 0, ',', CsvJobRunner.MAX_RECORD_BYTES)) {
      CsvRecord record;
      while ((record = reader.next()) != null) {
        records.add(record);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return records;
  }

  /** A first run's state of the job, its output going to a new upload in {@code store}. */
  static RunState state(CsvJob job, InMemoryObjectStore store) {
    String key = CsvJob.outputKey(job.id());
    String uploadId = store.startUpload(key);
    return new RunState(
        job,
        null,
        Checkpoint.start(CsvJob.Counters.NONE, uploadId),
        new MultipartOutput(store, key, uploadId, List.of(), 1 << 20));
  }
}
