package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.json.schema.common.dsl.SchemaType;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.RequestUtils;
import io.vertx.openapi.validation.ValidatableRequest;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Hands REST requests to the contract's validator, after the checks the .NET transcoding makes
 * before it parses a body: a JSON content type ({@code application/json} or any {@code +json}),
 * UTF-8, and text that is valid UTF-8. A request failing them is {@code INVALID_ARGUMENT}. Needs
 * the body read by a {@code BodyHandler}.
 */
final class JsonRequests implements RequestExtractor {

  private static final String JSON = "application/json";

  @Override
  public Future<ValidatableRequest> extractValidatableRequest(
      RoutingContext rc, Operation operation) {
    rc.put(RestRoutes.OPERATION_KEY, operation.getOperationId());
    Buffer body = rc.body().buffer();
    if (operation.getRequestBody() != null) {
      Optional<String> problem = problem(rc.request().getHeader(HttpHeaders.CONTENT_TYPE), body);
      if (problem.isPresent()) {
        return Future.failedFuture(new ServiceException(ErrorCode.INVALID_ARGUMENT, problem.get()));
      }
    }
    return RequestUtils.extract(rc.request(), operation, () -> Future.succeededFuture(body))
        .map(
            extracted ->
                new Extracted(
                    extracted,
                    // the validator knows only the media type the contract names
                    operation.getRequestBody() == null ? extracted.getContentType() : JSON,
                    asText(extracted.getPathParameters(), operation, Location.PATH, rc::pathParam),
                    asText(
                        extracted.getQuery(),
                        operation,
                        Location.QUERY,
                        name -> rc.queryParams().get(name))));
  }

  /**
   * The parameters of {@code extracted}, with those of type string replaced by the text the router
   * decoded, JSON-quoted. The validator reads every parameter value as JSON first, so unquoted a
   * namespace named {@code -1} would be a number, and one holding a backslash, a quote or a control
   * character would not decode at all; and it decodes a query value a second time.
   *
   * @param decoded the router's value of a parameter by name, or null when absent
   */
  private static Map<String, RequestParameter> asText(
      Map<String, RequestParameter> extracted,
      Operation operation,
      Location in,
      Function<String, String> decoded) {
    Map<String, RequestParameter> parameters = new HashMap<>(extracted);
    for (Parameter parameter : operation.getParameters()) {
      if (parameter.getIn() == in && parameter.getSchemaType() == SchemaType.STRING) {
        String value = decoded.apply(parameter.getName());
        if (value != null) {
          String quoted = Json.encode(value);
          parameters.put(parameter.getName(), () -> quoted);
        }
      }
    }
    return parameters;
  }

  /**
   * What is wrong with a JSON request body, if anything.
   *
   * @param contentType the header, may be null
   * @param body may be null when the request has none
   */
  static Optional<String> problem(String contentType, Buffer body) {
    if (!isJson(contentType)) {
      return Optional.of(
          "The request body must be JSON (Content-Type application/json), not "
              + (contentType == null ? "absent" : "'" + mediaType(contentType) + "'")
              + ".");
    }
    String charset = parameter(contentType, "charset");
    if (charset != null
        && !charset.equalsIgnoreCase("utf-8")
        && !charset.equalsIgnoreCase("utf8")) {
      return Optional.of("The request body must be UTF-8.");
    }
    if (body != null && !isUtf8(body)) {
      return Optional.of("The request body is not valid UTF-8.");
    }
    return Optional.empty();
  }

  /** {@code application/json} or any {@code type/subtype+json}, whatever the parameters. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = mediaType(contentType);
    int slash = type.indexOf('/');
    return type.equals("application/json")
        || (slash > 0 && type.endsWith("+json") && type.indexOf('/', slash + 1) < 0);
  }

  /** The media type without parameters, lower case. */
  static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .strip()
        .toLowerCase(Locale.ROOT);
  }

  /** The value of a media type parameter, unquoted, or null. */
  static String parameter(String contentType, String name) {
    String[] parts = contentType.split(";");
    for (int i = 1; i < parts.length; i++) {
      int equals = parts[i].indexOf('=');
      if (equals > 0 && parts[i].substring(0, equals).strip().equalsIgnoreCase(name)) {
        String value = parts[i].substring(equals + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        return value;
      }
    }
    return null;
  }

  private static boolean isUtf8(Buffer body) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body.getBytes()));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** The extracted request with the content type and parameters the validator is to see. */
  private record Extracted(
      ValidatableRequest request,
      String contentType,
      Map<String, RequestParameter> pathParameters,
      Map<String, RequestParameter> query)
      implements ValidatableRequest {

    @Override
    public String getContentType() {
      return contentType;
    }

    @Override
    public Map<String, RequestParameter> getCookies() {
      return request.getCookies();
    }

    @Override
    public Map<String, RequestParameter> getPathParameters() {
      return pathParameters;
    }

    @Override
    public Map<String, RequestParameter> getQuery() {
      return query;
    }

    @Override
    public Map<String, RequestParameter> getHeaders() {
      return request.getHeaders();
    }

    @Override
    public RequestParameter getBody() {
      return request.getBody();
    }
  }
}
