package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.ext.web.handler.HttpException;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.http.HttpErrors.ErrorReply;

class HttpErrorsTest {

  @ParameterizedTest
  @CsvSource({
    "INVALID_ARGUMENT, 400, 3",
    "OUT_OF_RANGE, 400, 11",
    "NOT_FOUND, 404, 5",
    "ALREADY_EXISTS, 409, 6",
    "UNAVAILABLE, 503, 14",
    "INTERNAL, 500, 13"
  })
  void mapsEveryErrorCodeToTheTranscodingStatus(ErrorCode code, int status, int grpcCode) {
    ErrorReply reply =
        HttpErrors.reply(500, new ServiceException(code, "the message", Map.of("namespace", "n")));

    assertThat(reply.httpStatus()).isEqualTo(status);
    assertThat(reply.code().code).isEqualTo(grpcCode);
    assertThat(reply.message()).isEqualTo("the message");
    assertThat(reply.body().encode())
        .isEqualTo("{\"code\":" + grpcCode + ",\"message\":\"the message\",\"details\":[]}");
  }

  @ParameterizedTest
  @CsvSource({
    "OK, 200",
    "CANCELLED, 408",
    "UNKNOWN, 500",
    "INVALID_ARGUMENT, 400",
    "DEADLINE_EXCEEDED, 504",
    "NOT_FOUND, 404",
    "ALREADY_EXISTS, 409",
    "PERMISSION_DENIED, 403",
    "RESOURCE_EXHAUSTED, 429",
    "FAILED_PRECONDITION, 400",
    "ABORTED, 409",
    "OUT_OF_RANGE, 400",
    "UNIMPLEMENTED, 501",
    "INTERNAL, 500",
    "UNAVAILABLE, 503",
    "DATA_LOSS, 500",
    "UNAUTHENTICATED, 401"
  })
  void followsTheDotnetStatusTable(GrpcStatus code, int status) {
    assertThat(HttpErrors.httpStatus(code)).isEqualTo(status);
  }

  @Test
  void mapsWhatTheRouterRejects() {
    assertThat(HttpErrors.reply(404, null))
        .extracting(ErrorReply::httpStatus, ErrorReply::code)
        .containsExactly(404, GrpcStatus.NOT_FOUND);
    assertThat(HttpErrors.reply(405, null))
        .extracting(ErrorReply::httpStatus, ErrorReply::code)
        .containsExactly(405, GrpcStatus.UNIMPLEMENTED);
    assertThat(HttpErrors.reply(413, null))
        .extracting(ErrorReply::httpStatus, ErrorReply::code)
        .containsExactly(413, GrpcStatus.RESOURCE_EXHAUSTED);
    ErrorReply invalid =
        HttpErrors.reply(400, new HttpException(400, "The value of query parameter x is invalid"));
    assertThat(invalid)
        .extracting(ErrorReply::httpStatus, ErrorReply::code, ErrorReply::message)
        .containsExactly(
            400, GrpcStatus.INVALID_ARGUMENT, "The value of query parameter x is invalid");
  }

  @Test
  void anythingUnexpectedIsInternalWithoutItsMessage() {
    ErrorReply reply = HttpErrors.reply(500, new IllegalStateException("SELECT secret FROM x"));

    assertThat(reply.httpStatus()).isEqualTo(500);
    assertThat(reply.code()).isEqualTo(GrpcStatus.INTERNAL);
    assertThat(reply.message()).doesNotContain("secret");
  }

  @Test
  void unknownFieldsAreNamedAfterTheMessageAtMostFiveAndShortened() {
    String longName = "f".repeat(100);

    assertThat(HttpErrors.unknownFieldsNamed("Bad value", List.of("nmae")))
        .isEqualTo("Bad value. The request body's field 'nmae' is unknown and was ignored.");
    assertThat(
            HttpErrors.unknownFieldsNamed(
                "Bad value.", List.of("a", "b", "c", "d", longName, "e", "g")))
        .isEqualTo(
            "Bad value. The request body's fields 'a', 'b', 'c', 'd', '"
                + "f".repeat(64)
                + "…' and 2 more are unknown and were ignored.");
  }
}
