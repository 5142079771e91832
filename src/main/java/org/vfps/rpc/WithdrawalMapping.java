package org.vfps.rpc;

import java.util.List;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalResponse;
import org.vfps.api.x.withdrawal.v1.BatchAnonymizeOriginalsResponse;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsResponse;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsResponse;
import org.vfps.api.x.withdrawal.v1.WithdrawalOutcome;
import org.vfps.api.x.withdrawal.v1.WithdrawalResult;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Withdrawal;

/**
 * The answers of {@code vfps.x.withdrawal.v1.WithdrawalService}, built once for both edges (gRPC
 * and REST).
 */
public final class WithdrawalMapping {

  private WithdrawalMapping() {}

  public static DeletePseudonymsResponse toDeleteResponse(
      String namespace, List<Pseudonym> deleted) {
    return DeletePseudonymsResponse.newBuilder()
        .setNamespace(namespace)
        .addAllPseudonyms(ProtoMapping.toProtos(deleted))
        .build();
  }

  public static AnonymizeOriginalResponse toAnonymizeResponse(
      String namespace, List<Pseudonym> kept) {
    return AnonymizeOriginalResponse.newBuilder()
        .setNamespace(namespace)
        .addAllPseudonyms(ProtoMapping.toProtos(kept))
        .build();
  }

  public static BatchDeletePseudonymsResponse toBatchDeleteResponse(
      String namespace, List<List<Pseudonym>> withdrawn) {
    return BatchDeletePseudonymsResponse.newBuilder()
        .setNamespace(namespace)
        .addAllResults(toResults(Withdrawal.DELETE, withdrawn))
        .build();
  }

  public static BatchAnonymizeOriginalsResponse toBatchAnonymizeResponse(
      String namespace, List<List<Pseudonym>> withdrawn) {
    return BatchAnonymizeOriginalsResponse.newBuilder()
        .setNamespace(namespace)
        .addAllResults(toResults(Withdrawal.ANONYMIZE, withdrawn))
        .build();
  }

  /** One result per value: its pseudonyms, or not found when it had none. */
  private static List<WithdrawalResult> toResults(
      Withdrawal withdrawal, List<List<Pseudonym>> withdrawn) {
    WithdrawalOutcome done =
        withdrawal == Withdrawal.DELETE
            ? WithdrawalOutcome.WITHDRAWAL_OUTCOME_DELETED
            : WithdrawalOutcome.WITHDRAWAL_OUTCOME_ANONYMIZED;
    return withdrawn.stream()
        .map(
            pseudonyms ->
                WithdrawalResult.newBuilder()
                    .setOutcome(
                        pseudonyms.isEmpty()
                            ? WithdrawalOutcome.WITHDRAWAL_OUTCOME_NOT_FOUND
                            : done)
                    .addAllPseudonyms(ProtoMapping.toProtos(pseudonyms))
                    .build())
        .toList();
  }
}
