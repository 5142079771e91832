package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonRequestsTest {

  private static final Buffer BODY = Buffer.buffer("{\"name\": \"\u00fc\"}");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON;charset=\"UTF-8\"",
        "application/problem+json",
        "application/vnd.vfps+json; charset=utf8"
      })
  void acceptsJsonContentTypesInUtf8(String contentType) {
    assertThat(JsonRequests.problem(contentType, BODY)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/jsonx",
        "application/json+xml",
        "+json",
        ""
      })
  void rejectsOtherContentTypes(String contentType) {
    assertThat(JsonRequests.problem(contentType, BODY)).isPresent();
    assertThat(JsonRequests.problem(null, BODY)).isPresent();
  }

  @Test
  void rejectsOtherCharsets() {
    assertThat(JsonRequests.problem("application/json; charset=iso-8859-1", BODY))
        .contains("The request body must be UTF-8.");
  }

  @Test
  void rejectsBytesThatAreNotUtf8() {
    Buffer overlong = Buffer.buffer(new byte[] {'"', (byte) 0xC0, (byte) 0xAF, '"'});
    Buffer truncated = Buffer.buffer(new byte[] {'"', (byte) 0xE2, (byte) 0x82, '"'});

    assertThat(JsonRequests.problem("application/json", overlong))
        .contains("The request body is not valid UTF-8.");
    assertThat(JsonRequests.problem("application/json", truncated)).isPresent();
  }

  @Test
  void aMissingBodyIsLeftToTheContract() {
    assertThat(JsonRequests.problem("application/json", null)).isEmpty();
  }
}
