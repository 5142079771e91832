package org.vfps.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.vfps.api.x.csvjobs.v1.ColumnMapping;
import org.vfps.api.x.csvjobs.v1.CreateCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.CsvJob;
import org.vfps.api.x.csvjobs.v1.ListCsvJobsResponse;
import org.vfps.api.x.csvjobs.v1.PseudonymizeMode;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.job.JobDirection;
import org.vfps.job.JobView;
import org.vfps.job.NewJob;

/**
 * {@code vfps.x.csvjobs.v1} messages to and from the job model. The proto enums are the .NET vfps's
 * numbers plus one, proto3's 0 being unset.
 */
public final class CsvJobMapping {

  private CsvJobMapping() {}

  /** The job of a request's {@code id}; {@code INVALID_ARGUMENT} when it is no job id. */
  public static UUID toId(String id) {
    try {
      if (id.length() == 36) {
        return UUID.fromString(id);
      }
    } catch (IllegalArgumentException e) {
      // answered below
    }
    throw new ServiceException(ErrorCode.INVALID_ARGUMENT, "id: not a CSV job id (a UUID).");
  }

  public static NewJob toNewJob(CreateCsvJobRequest request) {
    Optional<JobDirection> direction =
        switch (request.getDirection()) {
          case CSV_JOB_DIRECTION_PSEUDONYMIZE -> Optional.of(JobDirection.PSEUDONYMIZE);
          case CSV_JOB_DIRECTION_DEPSEUDONYMIZE -> Optional.of(JobDirection.DEPSEUDONYMIZE);
          case CSV_JOB_DIRECTION_IMPORT -> Optional.of(JobDirection.IMPORT);
          case CSV_JOB_DIRECTION_EXPORT -> Optional.of(JobDirection.EXPORT);
          case CSV_JOB_DIRECTION_UNSPECIFIED -> Optional.empty();
          case UNRECOGNIZED ->
              throw new ServiceException(
                  ErrorCode.INVALID_ARGUMENT,
                  "direction: unknown value " + request.getDirectionValue() + ".");
        };
    Optional<org.vfps.job.PseudonymizeMode> mode =
        switch (request.getPseudonymizeMode()) {
          case PSEUDONYMIZE_MODE_CREATE_IF_MISSING ->
              Optional.of(org.vfps.job.PseudonymizeMode.CREATE_IF_MISSING);
          case PSEUDONYMIZE_MODE_FAIL_IF_MISSING ->
              Optional.of(org.vfps.job.PseudonymizeMode.FAIL_IF_MISSING);
          case PSEUDONYMIZE_MODE_BLANK_IF_MISSING ->
              Optional.of(org.vfps.job.PseudonymizeMode.BLANK_IF_MISSING);
          case PSEUDONYMIZE_MODE_UNSPECIFIED -> Optional.empty();
          case UNRECOGNIZED ->
              throw new ServiceException(
                  ErrorCode.INVALID_ARGUMENT,
                  "pseudonymizeMode: unknown value " + request.getPseudonymizeModeValue() + ".");
        };
    List<org.vfps.job.ColumnMapping> mappings = new ArrayList<>();
    for (ColumnMapping mapping : request.getColumnMappingsList()) {
      mappings.add(
          new org.vfps.job.ColumnMapping(
              mapping.getSourceColumn(),
              mapping.getTargetColumn().isEmpty() ? null : mapping.getTargetColumn(),
              mapping.getNamespace(),
              mapping.getNamespaceColumn().isEmpty() ? null : mapping.getNamespaceColumn()));
    }
    return new NewJob(
        direction,
        request.getDelimiter(),
        request.hasHasHeaderRow() ? Optional.of(request.getHasHeaderRow()) : Optional.empty(),
        request.getFileName(),
        mappings,
        mode,
        request.hasXNeutralizeFormulas()
            ? Optional.of(request.getXNeutralizeFormulas())
            : Optional.empty());
  }

  public static CsvJob toProto(JobView view) {
    CsvJob.Builder proto = toProto(view.job()).toBuilder();
    view.upload()
        .ifPresent(
            upload ->
                proto.setUploadUrl(upload.url().toString()).putAllUploadHeaders(upload.headers()));
    view.download().ifPresent(download -> proto.setDownloadUrl(download.url().toString()));
    return proto.build();
  }

  public static CsvJob toProto(org.vfps.job.CsvJob job) {
    CsvJob.Builder proto =
        CsvJob.newBuilder()
            .setId(job.id().toString())
            .setDirectionValue(job.direction().code() + 1)
            .setStatusValue(job.status().code() + 1)
            .setCreatedBy(job.createdBy())
            .setFileName(job.fileName() == null ? "" : job.fileName())
            .setDelimiter(String.valueOf(job.delimiter()))
            .setHasHeaderRow(job.hasHeaderRow())
            .setPseudonymizeModeValue(
                job.direction() == JobDirection.PSEUDONYMIZE
                    ? job.pseudonymizeMode().code() + 1
                    : PseudonymizeMode.PSEUDONYMIZE_MODE_UNSPECIFIED_VALUE)
            .setTotalBytes(job.counters().totalBytes())
            .setBytesProcessed(job.counters().bytesProcessed())
            .setRowsProcessed(job.counters().rowsProcessed())
            .setBadDataRowCount(job.counters().badDataRows())
            .setMissingValueCount(job.counters().missingValues())
            .setUnresolvedValueCount(job.counters().unresolvedValues())
            .setXNeutralizeFormulas(job.neutralizeFormulas())
            .setXNeutralizedCellCount(job.counters().neutralizedCells())
            .setXMistypedPseudonymCount(job.counters().mistypedPseudonyms())
            .setErrorMessage(job.errorMessage() == null ? "" : job.errorMessage())
            .setCreatedAt(ProtoMapping.timestamp(job.createdAt()))
            .setLastUpdatedAt(ProtoMapping.timestamp(job.lastUpdatedAt()));
    for (org.vfps.job.ColumnMapping mapping : job.columnMappings()) {
      proto.addColumnMappings(
          ColumnMapping.newBuilder()
              .setSourceColumn(mapping.sourceColumn())
              .setTargetColumn(mapping.targetColumn() == null ? "" : mapping.targetColumn())
              .setNamespace(mapping.namespace())
              .setNamespaceColumn(
                  mapping.namespaceColumn() == null ? "" : mapping.namespaceColumn()));
    }
    return proto.build();
  }

  public static ListCsvJobsResponse toListResponse(List<org.vfps.job.CsvJob> jobs) {
    ListCsvJobsResponse.Builder response = ListCsvJobsResponse.newBuilder();
    jobs.forEach(job -> response.addJobs(toProto(job)));
    return response.build();
  }
}
