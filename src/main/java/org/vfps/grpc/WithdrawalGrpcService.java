package org.vfps.grpc;

import io.vertx.grpc.server.Service;
import org.vfps.admission.Admission;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcService;
import org.vfps.auth.Authenticator;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.Withdrawal;

/**
 * {@code vfps.x.withdrawal.v1.WithdrawalService} on the withdrawals of {@link PseudonymService}.
 */
final class WithdrawalGrpcService {

  private WithdrawalGrpcService() {}

  static Service of(
      PseudonymService pseudonyms,
      CallObserver observer,
      Authenticator authenticator,
      Admission admission,
      EdgeWarnings warnings) {
    return new UnaryService(
            WithdrawalServiceGrpcService.SERVICE_NAME,
            WithdrawalServiceGrpcService.SERVICE_DESCRIPTOR,
            observer,
            authenticator,
            admission,
            warnings)
        .method(
            WithdrawalServiceGrpcService.DeletePseudonyms,
            Withdrawal.DELETE.single(),
            (caller, request) ->
                pseudonyms
                    .withdraw(
                        caller,
                        Withdrawal.DELETE,
                        request.getNamespace(),
                        request.getOriginalValue())
                    .map(
                        deleted ->
                            WithdrawalMapping.toDeleteResponse(request.getNamespace(), deleted)))
        .method(
            WithdrawalServiceGrpcService.AnonymizeOriginal,
            Withdrawal.ANONYMIZE.single(),
            (caller, request) ->
                pseudonyms
                    .withdraw(
                        caller,
                        Withdrawal.ANONYMIZE,
                        request.getNamespace(),
                        request.getOriginalValue())
                    .map(
                        kept ->
                            WithdrawalMapping.toAnonymizeResponse(request.getNamespace(), kept)))
        .method(
            WithdrawalServiceGrpcService.BatchDeletePseudonyms,
            Withdrawal.DELETE.batch(),
            (caller, request) ->
                pseudonyms
                    .withdrawAll(
                        caller,
                        Withdrawal.DELETE,
                        request.getNamespace(),
                        request.getOriginalValuesList())
                    .map(
                        withdrawn ->
                            WithdrawalMapping.toBatchDeleteResponse(
                                request.getNamespace(), withdrawn)))
        .method(
            WithdrawalServiceGrpcService.BatchAnonymizeOriginals,
            Withdrawal.ANONYMIZE.batch(),
            (caller, request) ->
                pseudonyms
                    .withdrawAll(
                        caller,
                        Withdrawal.ANONYMIZE,
                        request.getNamespace(),
                        request.getOriginalValuesList())
                    .map(
                        withdrawn ->
                            WithdrawalMapping.toBatchAnonymizeResponse(
                                request.getNamespace(), withdrawn)));
  }
}
