package org.vfps.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.server.Service;
import org.vfps.access.Operation;
import org.vfps.admission.Admission;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcService;
import org.vfps.auth.Authenticator;
import org.vfps.job.CsvJobService;
import org.vfps.log.EdgeWarnings;

/** {@code vfps.x.csvjobs.v1.CsvJobService} on {@link CsvJobService}. */
final class CsvJobGrpcService {

  private CsvJobGrpcService() {}

  static Service of(
      CsvJobService jobs,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    return new UnaryService(
            CsvJobServiceGrpcService.SERVICE_NAME,
            CsvJobServiceGrpcService.SERVICE_DESCRIPTOR,
            observer,
            authenticator,
            admission,
            warnings)
        .method(
            CsvJobServiceGrpcService.CreateCsvJob,
            Operation.CSV_JOB_CREATE,
            (caller, request) ->
                Future.succeededFuture(request)
                    .compose(read -> jobs.create(caller, CsvJobMapping.toNewJob(read)))
                    .map(CsvJobMapping::toProto))
        .method(
            CsvJobServiceGrpcService.StartCsvJob,
            Operation.CSV_JOB_START,
            (caller, request) ->
                Future.succeededFuture(request)
                    .compose(read -> jobs.start(caller, CsvJobMapping.toId(read.getId())))
                    .map(CsvJobMapping::toProto))
        .method(
            CsvJobServiceGrpcService.CancelCsvJob,
            Operation.CSV_JOB_CANCEL,
            (caller, request) ->
                Future.succeededFuture(request)
                    .compose(read -> jobs.cancel(caller, CsvJobMapping.toId(read.getId())))
                    .map(CsvJobMapping::toProto))
        .method(
            CsvJobServiceGrpcService.GetCsvJob,
            Operation.CSV_JOB_GET,
            (caller, request) ->
                Future.succeededFuture(request)
                    .compose(read -> jobs.get(caller, CsvJobMapping.toId(read.getId())))
                    .map(CsvJobMapping::toProto))
        .method(
            CsvJobServiceGrpcService.ListCsvJobs,
            Operation.CSV_JOB_LIST,
            (caller, request) -> jobs.list(caller).map(CsvJobMapping::toListResponse));
  }
}
