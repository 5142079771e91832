package org.vfps.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.grpc.common.GrpcStatus;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.admission.Admission;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.rpc.FailureStatus;

/**
 * The one failure mapping of the REST edge: a {@link ServiceException}, a request the router or the
 * contract rejected, or an unexpected throwable becomes an HTTP status and the body {@code {"code":
 * <gRPC status code>, "message": "...", "details": []}}, with the gRPC-to-HTTP status table of the
 * .NET transcoding; an overloaded replica's refusal ({@code OVERLOADED}) is a 503 with code 8
 * ({@code RESOURCE_EXHAUSTED}) and {@code Retry-After}. Requests that failed {@code UNAVAILABLE}
 * and malformed ones are logged through the server's {@link EdgeWarnings}.
 */
final class HttpErrors {

  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  /** The most unknown body fields a message names. */
  private static final int MAX_NAMED_FIELDS = 5;

  /**
   * What a failed request is answered with.
   *
   * @param retryAfterSeconds the {@code Retry-After} header's value; 0 for none
   */
  record ErrorReply(int httpStatus, GrpcStatus code, String message, int retryAfterSeconds) {

    ErrorReply(int httpStatus, GrpcStatus code, String message) {
      this(httpStatus, code, message, 0);
    }

    JsonObject body() {
      return new JsonObject()
          .put("code", code.code)
          .put("message", message)
          .put("details", new JsonArray());
    }
  }

  private final EdgeWarnings warnings;
  private final BodyFields bodyFields;

  /**
   * @param bodyFields the fields each operation's body knows: a request that fails for a cause a
   *     misspelt field may explain (400, 404, 409) has the unknown ones named in its message
   */
  HttpErrors(EdgeWarnings warnings, BodyFields bodyFields) {
    this.warnings = warnings;
    this.bodyFields = bodyFields;
  }

  /** The router's failure handler and its 404 and 405 handler. */
  void handle(RoutingContext rc) {
    if (RequestAdmission.answered(rc)) {
      return;
    }
    ErrorReply reply = withUnknownFields(reply(rc.statusCode(), rc.failure()), rc);
    log(rc, reply);
    if (rc.response().headWritten()) {
      rc.response().reset();
      return;
    }
    Authentication.challenge(reply.httpStatus(), rc.request(), rc.response());
    send(rc.response(), reply);
  }

  /**
   * Answers a request whose path holds a percent sign not followed by two hex digits, or whose
   * query string does not decode, which the router cannot even match; returns whether it did.
   */
  boolean rejectMalformedUri(HttpServerRequest request) {
    String problem = null;
    String path = request.path();
    for (int i = path.indexOf('%'); i >= 0 && problem == null; i = path.indexOf('%', i + 1)) {
      if (i + 2 >= path.length() || !isHex(path.charAt(i + 1)) || !isHex(path.charAt(i + 2))) {
        problem = "The path holds a malformed percent escape.";
      }
    }
    if (problem == null) {
      try {
        request.params();
      } catch (IllegalArgumentException e) {
        problem = "The query string holds a malformed percent escape.";
      }
    }
    if (problem == null) {
      return false;
    }
    warnings.malformed("HTTP request (" + request.method() + ")", problem);
    send(request.response(), new ErrorReply(400, GrpcStatus.INVALID_ARGUMENT, problem));
    return true;
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static void send(HttpServerResponse response, ErrorReply reply) {
    if (reply.retryAfterSeconds() > 0) {
      response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(reply.retryAfterSeconds()));
    }
    response
        .setStatusCode(reply.httpStatus())
        .putHeader(HttpHeaders.CONTENT_TYPE, RestRoutes.JSON)
        .end(reply.body().toBuffer());
  }

  /**
   * Maps a failure; {@code statusCode} is the router's (404 no route, 405 wrong method, 413 body
   * too large, 400 rejected by the contract), used when {@code failure} is not a {@link
   * ServiceException}.
   */
  static ErrorReply reply(int statusCode, Throwable failure) {
    if (failure instanceof ServiceException service) {
      GrpcStatus code = FailureStatus.of(service);
      if (service.code() == ErrorCode.OVERLOADED) {
        return new ErrorReply(503, code, service.getMessage(), Admission.RETRY_AFTER_SECONDS);
      }
      return new ErrorReply(httpStatus(code), code, service.getMessage());
    }
    int status = failure instanceof HttpException http ? http.getStatusCode() : statusCode;
    return switch (status) {
      case 400 -> new ErrorReply(400, GrpcStatus.INVALID_ARGUMENT, badRequestMessage(failure));
      case 404 -> new ErrorReply(404, GrpcStatus.NOT_FOUND, "No resource has this path.");
      case 405 ->
          new ErrorReply(405, GrpcStatus.UNIMPLEMENTED, "The path does not allow this method.");
      case 413 ->
          new ErrorReply(
              413,
              GrpcStatus.RESOURCE_EXHAUSTED,
              "The request body is larger than the limit (Http__MaxRequestBodyBytes).");
      default ->
          status >= 400 && status < 500
              ? new ErrorReply(status, GrpcStatus.INVALID_ARGUMENT, "The request is not valid.")
              : new ErrorReply(500, GrpcStatus.INTERNAL, "Internal error.");
    };
  }

  /**
   * The reply, its message naming the request body's fields the operation does not know (which were
   * ignored), where the failure is one a misspelt field may cause.
   */
  private ErrorReply withUnknownFields(ErrorReply reply, RoutingContext rc) {
    int status = reply.httpStatus();
    if (status != 400 && status != 404 && status != 409) {
      return reply;
    }
    String operation = rc.get(RestRoutes.OPERATION_KEY);
    if (operation == null || rc.body() == null) {
      return reply;
    }
    List<String> unknown = bodyFields.unknown(operation, rc.body().buffer());
    if (unknown.isEmpty()) {
      return reply;
    }
    return new ErrorReply(
        status,
        reply.code(),
        unknownFieldsNamed(reply.message(), unknown),
        reply.retryAfterSeconds());
  }

  /** The message, followed by a sentence naming the unknown fields (at most five). */
  static String unknownFieldsNamed(String message, List<String> unknown) {
    List<String> named =
        unknown.stream()
            .limit(MAX_NAMED_FIELDS)
            .map(name -> "'" + (name.length() > 64 ? name.substring(0, 64) + "…" : name) + "'")
            .toList();
    String more =
        unknown.size() > MAX_NAMED_FIELDS
            ? " and " + (unknown.size() - MAX_NAMED_FIELDS) + " more"
            : "";
    return message
        + (message.endsWith(".") ? " " : ". ")
        + (unknown.size() == 1 ? "The request body's field " : "The request body's fields ")
        + String.join(", ", named)
        + more
        + (unknown.size() == 1 ? " is unknown and was ignored." : " are unknown and were ignored.");
  }

  /** The HTTP status of a gRPC status, as the .NET JSON transcoding maps it. */
  static int httpStatus(GrpcStatus code) {
    return switch (code) {
      case OK -> 200;
      case CANCELLED -> 408;
      case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> 400;
      case DEADLINE_EXCEEDED -> 504;
      case NOT_FOUND -> 404;
      case ALREADY_EXISTS, ABORTED -> 409;
      case PERMISSION_DENIED -> 403;
      case RESOURCE_EXHAUSTED -> 429;
      case UNIMPLEMENTED -> 501;
      case UNAVAILABLE -> 503;
      case UNAUTHENTICATED -> 401;
      case UNKNOWN, INTERNAL, DATA_LOSS -> 500;
    };
  }

  /** The contract validator's message says which parameter or body part is wrong. */
  private static String badRequestMessage(Throwable failure) {
    if (failure instanceof HttpException http && http.getPayload() != null) {
      return http.getPayload();
    }
    return "The request is not valid.";
  }

  /**
   * Logs by operation, not by path: a path is the client's text, and a careless client may have put
   * an original value into one.
   */
  private void log(RoutingContext rc, ErrorReply reply) {
    String operation = rc.get(RestRoutes.OPERATION_KEY);
    String request =
        rc.request().method() + " " + (operation == null ? "(no operation)" : operation);
    if (rc.failure() instanceof ServiceException || reply.code() == GrpcStatus.INTERNAL) {
      warnings.failed(LOG, request, rc.failure());
    } else {
      // what the router or the contract refused
      warnings.rejected(LOG, request, reply.httpStatus() + " " + reply.code());
    }
  }
}
