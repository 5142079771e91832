package org.vfps.job;

import java.util.Objects;
import java.util.Optional;
import org.vfps.objectstore.PresignedRequest;

/**
 * A job as a client sees it.
 *
 * @param upload where to upload its file: in the answer to its creation, while it awaits it
 * @param download where to download its result, once it is completed
 */
public record JobView(
    CsvJob job, Optional<PresignedRequest> upload, Optional<PresignedRequest> download) {

  public JobView {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(upload, "upload");
    Objects.requireNonNull(download, "download");
  }

  static JobView of(CsvJob job) {
    return new JobView(job, Optional.empty(), Optional.empty());
  }
}
