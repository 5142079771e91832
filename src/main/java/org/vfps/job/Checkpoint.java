package org.vfps.job;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.vfps.pseudonym.ListCursor;

/**
 * Where a job resumes: everything its output up to the last chunk depends on, so that a worker that
 * takes over writes the same file an uninterrupted run writes.
 *
 * @param inputOffset the input byte where the next record starts
 * @param counters the counters after the last chunk
 * @param uploadId the output's multipart upload
 * @param partETags the parts uploaded so far, part 1 first; the chunks after them are the job's
 *     pending output
 * @param nextChunk the number of the next chunk of pending output
 * @param exportCursor where an export's next page starts; empty before its first page
 */
public record Checkpoint(
    long inputOffset,
    CsvJob.Counters counters,
    String uploadId,
    List<String> partETags,
    long nextChunk,
    Optional<ListCursor> exportCursor) {

  public Checkpoint {
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(uploadId, "uploadId");
    partETags = List.copyOf(partETags);
    Objects.requireNonNull(exportCursor, "exportCursor");
  }

  /** The checkpoint of a job that has written nothing yet into the upload. */
  static Checkpoint start(CsvJob.Counters counters, String uploadId) {
    return new Checkpoint(0, counters, uploadId, List.of(), 0, Optional.empty());
  }

  String encode() {
    JsonObject counted =
        new JsonObject()
            .put("totalBytes", counters.totalBytes())
            .put("bytesProcessed", counters.bytesProcessed())
            .put("rowsProcessed", counters.rowsProcessed())
            .put("badDataRows", counters.badDataRows())
            .put("missingValues", counters.missingValues())
            .put("unresolvedValues", counters.unresolvedValues())
            .put("neutralizedCells", counters.neutralizedCells())
            .put("mistypedPseudonyms", counters.mistypedPseudonyms());
    JsonObject json =
        new JsonObject()
            .put("inputOffset", inputOffset)
            .put("counters", counted)
            .put("uploadId", uploadId)
            .put("partETags", new JsonArray(new ArrayList<Object>(partETags)))
            .put("nextChunk", nextChunk);
    exportCursor.ifPresent(
        cursor ->
            json.put(
                "exportCursor",
                new JsonObject()
                    .put("createdAt", cursor.createdAt().toString())
                    .put("originalValue", cursor.originalValue())
                    .put("sequenceNumber", cursor.sequenceNumber())));
    return json.encode();
  }

  static Checkpoint decode(String encoded) {
    JsonObject json = new JsonObject(encoded);
    JsonObject counted = json.getJsonObject("counters");
    List<String> parts = new ArrayList<>();
    json.getJsonArray("partETags").forEach(part -> parts.add((String) part));
    JsonObject cursor = json.getJsonObject("exportCursor");
    return new Checkpoint(
        json.getLong("inputOffset"),
        new CsvJob.Counters(
            counted.getLong("totalBytes"),
            counted.getLong("bytesProcessed"),
            counted.getLong("rowsProcessed"),
            counted.getLong("badDataRows"),
            counted.getLong("missingValues"),
            counted.getLong("unresolvedValues"),
            // a checkpoint of a job created before cells were neutralized has no count
            counted.getLong("neutralizedCells", 0L),
            // nor one written before mistyped pseudonyms were counted
            counted.getLong("mistypedPseudonyms", 0L)),
        json.getString("uploadId"),
        parts,
        json.getLong("nextChunk"),
        cursor == null
            ? Optional.empty()
            : Optional.of(
                new ListCursor(
                    Instant.parse(cursor.getString("createdAt")),
                    cursor.getString("originalValue"),
                    cursor.getLong("sequenceNumber"))));
  }
}
