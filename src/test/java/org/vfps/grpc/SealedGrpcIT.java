package org.vfps.grpc;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.grpc.common.GrpcStatus;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.SealedService;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.v1.PseudonymServiceListRequest;
import org.vfps.api.v1.PseudonymServiceListResponse;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.BatchAnonymizeOriginalsRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.WithdrawalOutcome;
import org.vfps.api.x.withdrawal.v1.WithdrawalResult;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcClient;

/**
 * A sealed namespace over gRPC, created through the API with {@code Sealing__KeyFile} set: every
 * pseudonym method and withdrawal answers as in a plain namespace (a list pages through the
 * pseudonyms, without originals, as it always does), while the table and the log hold none of the
 * original values.
 */
class SealedGrpcIT {

  @RegisterExtension static final SealedService sealed = new SealedService();
  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static GrpcTestClient grpc;

  @BeforeAll
  static void connect() {
    grpc = resources.own(new GrpcTestClient(sealed.server().grpcPort()));
  }

  private static Pseudonym create(String namespace, String original) {
    return grpc.ok(PseudonymServiceGrpcClient.Create, createRequest(namespace, original))
        .getPseudonym();
  }

  private static PseudonymServiceCreateRequest createRequest(String namespace, String original) {
    return PseudonymServiceCreateRequest.newBuilder()
        .setNamespace(namespace)
        .setOriginalValue(original)
        .build();
  }

  private static GrpcTestClient.Reply<?> get(String namespace, String pseudonym) {
    return grpc.call(
        PseudonymServiceGrpcClient.Get,
        PseudonymServiceGetRequest.newBuilder()
            .setNamespace(namespace)
            .setPseudonymValue(pseudonym)
            .build());
  }

  @Test
  void everyPseudonymMethodAnswersTheOriginalsWhileTheTableHoldsNone() {
    String namespace = grpc.createNamespace("sealed-grpc-");
    String anna = sealed.original("anna");
    String ben = sealed.original("ben");
    String carl = sealed.original("carl");
    String dora = sealed.original("dora");
    String emil = sealed.original("emil");

    Pseudonym first = create(namespace, anna);
    assertThat(first.getOriginalValue()).isEqualTo(anna);
    assertThat(create(namespace, anna).getPseudonymValue()).isEqualTo(first.getPseudonymValue());

    Pseudonym found =
        grpc.ok(
                PseudonymServiceGrpcClient.Get,
                PseudonymServiceGetRequest.newBuilder()
                    .setNamespace(namespace)
                    .setPseudonymValue(first.getPseudonymValue())
                    .build())
            .getPseudonym();
    assertThat(found.getOriginalValue()).isEqualTo(anna);
    Pseudonym resolved =
        grpc.ok(
                PseudonymServiceGrpcClient.Resolve,
                PseudonymServiceResolveRequest.newBuilder()
                    .setNamespace(namespace)
                    .setOriginalValue(anna)
                    .build())
            .getPseudonym();
    assertThat(resolved.getPseudonymValue()).isEqualTo(first.getPseudonymValue());

    List<Pseudonym> batch =
        grpc.ok(
                PseudonymServiceGrpcClient.BatchCreate,
                PseudonymServiceBatchCreateRequest.newBuilder()
                    .setNamespace(namespace)
                    .addAllOriginalValues(List.of(ben, carl, anna))
                    .build())
            .getPseudonymsList();
    assertThat(batch).extracting(Pseudonym::getOriginalValue).containsExactly(ben, carl, anna);
    assertThat(batch.get(2).getPseudonymValue()).isEqualTo(first.getPseudonymValue());
    assertThat(
            grpc.ok(
                    PseudonymServiceGrpcClient.BatchGet,
                    PseudonymServiceBatchGetRequest.newBuilder()
                        .setNamespace(namespace)
                        .addPseudonymValues(batch.get(1).getPseudonymValue())
                        .addPseudonymValues(batch.get(0).getPseudonymValue())
                        .build())
                .getPseudonymsList())
        .extracting(Pseudonym::getOriginalValue)
        .containsExactly(carl, ben);

    GrpcTestClient.StreamReply<PseudonymServiceCreateResponse> streamed =
        grpc.stream(
            PseudonymServiceGrpcClient.CreateStream,
            List.of(
                createRequest(namespace, dora),
                createRequest(namespace, emil),
                createRequest(namespace, dora),
                createRequest(namespace, ben)),
            Map.of());
    assertThat(streamed.status()).as(streamed.message()).isEqualTo(GrpcStatus.OK);
    List<Pseudonym> streamedPseudonyms =
        streamed.bodies().stream().map(PseudonymServiceCreateResponse::getPseudonym).toList();
    assertThat(streamedPseudonyms)
        .extracting(Pseudonym::getOriginalValue)
        .containsExactly(dora, emil, dora, ben);
    assertThat(streamedPseudonyms.get(2).getPseudonymValue())
        .isEqualTo(streamedPseudonyms.get(0).getPseudonymValue());
    assertThat(streamedPseudonyms.get(3).getPseudonymValue())
        .isEqualTo(batch.get(0).getPseudonymValue());

    List<String> listed = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    String token = "";
    do {
      PseudonymServiceListResponse page =
          grpc.ok(
              PseudonymServiceGrpcClient.List,
              PseudonymServiceListRequest.newBuilder()
                  .setNamespace(namespace)
                  .setPageSize(2)
                  .setPageToken(token)
                  .build());
      for (Pseudonym listedPseudonym : page.getPseudonymsList()) {
        assertThat(listedPseudonym.hasOriginalValue()).as("a listed original").isFalse();
        listed.add(listedPseudonym.getPseudonymValue());
      }
      token = page.getNextPageToken();
      tokens.add(token);
    } while (!token.isEmpty());
    assertThat(listed)
        .containsExactlyInAnyOrder(
            first.getPseudonymValue(),
            batch.get(0).getPseudonymValue(),
            batch.get(1).getPseudonymValue(),
            streamedPseudonyms.get(0).getPseudonymValue(),
            streamedPseudonyms.get(1).getPseudonymValue());
    assertThat(tokens).hasSizeGreaterThanOrEqualTo(3);
    for (String pageToken : tokens) {
      String decoded = new String(Base64.getUrlDecoder().decode(pageToken), ISO_8859_1);
      for (String original : List.of(anna, ben, carl, dora, emil)) {
        assertThat(pageToken).doesNotContain(original);
        assertThat(decoded).doesNotContain(original);
      }
    }

    sealed.assertOriginalsHidden();
  }

  @Test
  void withdrawalFindsSealedValuesAndLeavesNothingToReveal() {
    String namespace = grpc.createNamespace("sealed-withdraw-");
    String deleted = sealed.original("deleted");
    String anonymized = sealed.original("anonymized");
    String batchDeleted = sealed.original("batch-deleted");
    String batchAnonymized = sealed.original("batch-anonymized");
    String kept = sealed.original("kept");
    Pseudonym deletedPseudonym = create(namespace, deleted);
    Pseudonym anonymizedPseudonym = create(namespace, anonymized);
    Pseudonym batchDeletedPseudonym = create(namespace, batchDeleted);
    Pseudonym batchAnonymizedPseudonym = create(namespace, batchAnonymized);
    Pseudonym keptPseudonym = create(namespace, kept);

    assertThat(
            grpc.ok(
                    WithdrawalServiceGrpcClient.DeletePseudonyms,
                    DeletePseudonymsRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue(deleted)
                        .build())
                .getPseudonymsList())
        .extracting(Pseudonym::getPseudonymValue)
        .containsExactly(deletedPseudonym.getPseudonymValue());
    assertThat(
            grpc.ok(
                    WithdrawalServiceGrpcClient.AnonymizeOriginal,
                    AnonymizeOriginalRequest.newBuilder()
                        .setNamespace(namespace)
                        .setOriginalValue(anonymized)
                        .build())
                .getPseudonymsList())
        .extracting(Pseudonym::getPseudonymValue)
        .containsExactly(anonymizedPseudonym.getPseudonymValue());
    assertThat(
            grpc.ok(
                    WithdrawalServiceGrpcClient.BatchDeletePseudonyms,
                    BatchDeletePseudonymsRequest.newBuilder()
                        .setNamespace(namespace)
                        .addOriginalValues(batchDeleted)
                        .addOriginalValues(deleted)
                        .build())
                .getResultsList())
        .extracting(WithdrawalResult::getOutcome)
        .containsExactly(
            WithdrawalOutcome.WITHDRAWAL_OUTCOME_DELETED,
            WithdrawalOutcome.WITHDRAWAL_OUTCOME_NOT_FOUND);
    assertThat(
            grpc.ok(
                    WithdrawalServiceGrpcClient.BatchAnonymizeOriginals,
                    BatchAnonymizeOriginalsRequest.newBuilder()
                        .setNamespace(namespace)
                        .addOriginalValues(batchAnonymized)
                        .build())
                .getResultsList())
        .extracting(WithdrawalResult::getOutcome)
        .containsExactly(WithdrawalOutcome.WITHDRAWAL_OUTCOME_ANONYMIZED);

    assertThat(get(namespace, deletedPseudonym.getPseudonymValue()).status())
        .isEqualTo(GrpcStatus.NOT_FOUND);
    assertThat(get(namespace, batchDeletedPseudonym.getPseudonymValue()).status())
        .isEqualTo(GrpcStatus.NOT_FOUND);
    for (Pseudonym withdrawn : List.of(anonymizedPseudonym, batchAnonymizedPseudonym)) {
      GrpcTestClient.Reply<?> lookup = get(namespace, withdrawn.getPseudonymValue());
      assertThat(lookup.status()).isEqualTo(GrpcStatus.NOT_FOUND);
      assertThat(lookup.message()).contains("withdrawn");
    }
    assertThat(get(namespace, keptPseudonym.getPseudonymValue()).status()).isEqualTo(GrpcStatus.OK);
    // a withdrawn value is a new one to Create
    assertThat(create(namespace, deleted).getPseudonymValue())
        .isNotEqualTo(deletedPseudonym.getPseudonymValue());
    assertThat(create(namespace, anonymized).getPseudonymValue())
        .isNotEqualTo(anonymizedPseudonym.getPseudonymValue());
    assertThat(create(namespace, kept).getPseudonymValue())
        .isEqualTo(keptPseudonym.getPseudonymValue());

    sealed.assertOriginalsHidden();
  }
}
