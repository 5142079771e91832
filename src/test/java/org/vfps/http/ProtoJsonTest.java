package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.google.protobuf.Timestamp;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.Meta;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteResponse;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceListResponse;
import org.vfps.api.x.formats.v1.NamespaceCapacity;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class ProtoJsonTest {

  private static final Meta META =
      Meta.newBuilder()
          .setCreatedAt(Timestamp.newBuilder().setSeconds(1_764_469_744L).setNanos(79_371_000))
          .setLastUpdatedAt(Timestamp.newBuilder().setSeconds(1_764_469_744L))
          .build();

  @Test
  void writesDefaultsEnumNamesTimestampsAndInt64AsANumber() {
    PseudonymServiceListResponse page =
        PseudonymServiceListResponse.newBuilder()
            .setNamespace("test")
            .setTotalSize(99)
            .addPseudonyms(
                Pseudonym.newBuilder()
                    .setMeta(META)
                    .setNamespace("test")
                    .setPseudonymValue("p")
                    .setSequenceNumber(3))
            .build();

    String json = ProtoJson.writeBuffer(page).toString();

    assertThat(json)
        .isEqualTo(
            "{\"namespace\":\"test\",\"totalSize\":99,\"nextPageToken\":\"\",\"pseudonyms\":[{"
                + "\"meta\":{\"createdAt\":\"2025-11-30T02:29:04.079371Z\","
                + "\"lastUpdatedAt\":\"2025-11-30T02:29:04Z\"},"
                + "\"namespace\":\"test\",\"pseudonymValue\":\"p\",\"sequenceNumber\":3}]}");
  }

  @Test
  void writesANamespaceCapacityAsTheContractDescribesIt() {
    assertThat(
            ProtoJson.write(
                NamespaceCapacity.newBuilder()
                    .setDistinctPseudonyms(Double.POSITIVE_INFINITY)
                    .setUsedPseudonyms(12)
                    .build()))
        .isEqualTo(
            new JsonObject().put("distinctPseudonyms", "Infinity").put("usedPseudonyms", 12));
    assertThat(ProtoJson.write(NamespaceCapacity.newBuilder().setDistinctPseudonyms(1e10).build()))
        .isEqualTo(new JsonObject().put("distinctPseudonyms", 1e10).put("usedPseudonyms", 0));
  }

  @Test
  void leavesUnsetOptionalFieldsOutAndWritesAnEmptyMessageAsAnEmptyObject() {
    assertThat(ProtoJson.write(PseudonymServiceListResponse.getDefaultInstance()))
        .isEqualTo(
            new JsonObject()
                .put("namespace", "")
                .put("nextPageToken", "")
                .put("pseudonyms", new io.vertx.core.json.JsonArray()));
    assertThat(
            ProtoJson.writeBuffer(NamespaceServiceDeleteResponse.getDefaultInstance()).toString())
        .isEqualTo("{}");
  }

  @Test
  void readsJsonNamesProtoNamesAndEnumsByNameOrNumber() {
    NamespaceServiceCreateRequest byJsonName =
        ProtoJson.read(
                new JsonObject()
                    .put("name", "a")
                    .put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_UUID4")
                    .put("pseudonymLength", 36)
                    .put("pseudonymPrefix", ""),
                NamespaceServiceCreateRequest.newBuilder())
            .build();
    NamespaceServiceCreateRequest byProtoName =
        ProtoJson.read(
                new JsonObject()
                    .put("name", "a")
                    .put("pseudonym_generation_method", 3)
                    .put("pseudonym_length", 36)
                    .put("pseudonym_prefix", ""),
                NamespaceServiceCreateRequest.newBuilder())
            .build();

    assertThat(byJsonName).isEqualTo(byProtoName);
    assertThat(byJsonName.getPseudonymGenerationMethod())
        .isEqualTo(PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_UUID4);
    assertThat(byJsonName.hasPseudonymPrefix()).isTrue();
    assertThat(byJsonName.hasPseudonymSuffix()).isFalse();
  }

  @Test
  void skipsUnknownFieldsAsDotnetDoes() {
    NamespaceServiceCreateRequest request =
        ProtoJson.read(
                new JsonObject()
                    .put("name", "a")
                    .put("colour", "blue")
                    .put("nested", new JsonObject()),
                NamespaceServiceCreateRequest.newBuilder())
            .build();

    assertThat(request).isEqualTo(NamespaceServiceCreateRequest.newBuilder().setName("a").build());
  }

  @Test
  void rejectsUnknownEnumNamesAndWrongValueKinds() {
    for (JsonObject bad :
        new JsonObject[] {
          new JsonObject().put("pseudonymGenerationMethod", "PSEUDONYM_GENERATION_METHOD_MD5"),
          new JsonObject().put("pseudonymLength", "many"),
          new JsonObject().put("pseudonymLength", -1),
          new JsonObject().put("name", new JsonObject()),
          new JsonObject().put("name", "a\ud800b")
        }) {
      assertThatExceptionOfType(ServiceException.class)
          .as(bad.encode())
          .isThrownBy(() -> ProtoJson.read(bad, NamespaceServiceCreateRequest.newBuilder()))
          .satisfies(e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }

  @Test
  void acceptsSurrogatePairs() {
    assertThat(
            ProtoJson.read(
                    new JsonObject().put("name", "smile \ud83d\ude00"),
                    NamespaceServiceCreateRequest.newBuilder())
                .getName())
        .isEqualTo("smile \ud83d\ude00");
  }
}
