package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.WireFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.OriginalValueRegex;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.rpc.ProtoMapping;

/**
 * A GetAll encoded page by page is the response with every namespace, in protobuf and in JSON, and
 * it counts each byte it holds twice.
 */
class NamespaceListPayloadTest {

  private static final List<List<Namespace>> PAGES =
      List.of(page(0, 3), page(3, 1), List.of(), page(4, 2));

  @Test
  void theProtobufPagesAreTheResponseWithAllNamespaces() throws Exception {
    NamespaceListPayload payload = new NamespaceListPayload(WireFormat.PROTOBUF);
    long counted = 0;
    for (List<Namespace> page : PAGES) {
      counted += payload.append(page);
    }
    Buffer encoded = payload.finish();

    assertThat(NamespaceServiceGetAllResponse.parseFrom(encoded.getBytes())).isEqualTo(whole());
    assertThat(counted).isEqualTo(2L * encoded.length());
  }

  @Test
  void theJsonPagesAreTheResponseWithAllNamespaces() throws Exception {
    NamespaceListPayload payload = new NamespaceListPayload(WireFormat.JSON);
    long counted = 0;
    for (List<Namespace> page : PAGES) {
      counted += payload.append(page);
    }
    String encoded = payload.finish().toString();

    NamespaceServiceGetAllResponse.Builder parsed = NamespaceServiceGetAllResponse.newBuilder();
    JsonFormat.parser().merge(encoded, parsed);
    assertThat(parsed.build()).isEqualTo(whole());
    // the framing ({"namespaces":[ and ]}) is not counted, the namespaces are, twice
    assertThat(counted).isEqualTo(2L * (encoded.length() - "{\"namespaces\":[]}".length()));
  }

  @Test
  void noNamespaceIsAnEmptyResponse() throws Exception {
    assertThat(new NamespaceListPayload(WireFormat.PROTOBUF).finish().length()).isZero();
    assertThat(new NamespaceListPayload(WireFormat.JSON).finish().toString())
        .isEqualTo("{\"namespaces\":[]}");
  }

  private static NamespaceServiceGetAllResponse whole() {
    List<org.vfps.api.v1.Namespace> all = new ArrayList<>();
    PAGES.forEach(page -> page.forEach(namespace -> all.add(ProtoMapping.toProto(namespace))));
    return NamespaceServiceGetAllResponse.newBuilder().addAllNamespaces(all).build();
  }

  private static List<Namespace> page(int first, int size) {
    return IntStream.range(first, first + size)
        .mapToObj(
            i ->
                new Namespace(
                    "namespace-" + i,
                    i % 2 == 0 ? "the namespace numbered " + i : null,
                    GenerationMethod.SECURE_RANDOM_BASE64URL_ENCODED,
                    16 + i,
                    i % 3 == 0 ? "p" + i + "-" : "",
                    "",
                    OriginalValueRegex.NONE,
                    false,
                    null,
                    ParentValidationMode.UNSPECIFIED,
                    null,
                    Instant.ofEpochSecond(1_700_000_000L + i),
                    Instant.ofEpochSecond(1_800_000_000L + i)))
        .toList();
  }
}
