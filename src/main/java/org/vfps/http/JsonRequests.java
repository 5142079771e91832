package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.json.schema.common.dsl.SchemaType;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.contract.Path;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatableRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.text.MediaType;
import org.vfps.text.StrictDecoding;

/**
 * Hands REST requests to the contract's validator, after the checks the .NET transcoding makes
 * before it parses a body: a JSON content type ({@code application/json} or any {@code +json}),
 * UTF-8, and text that is valid UTF-8. A request failing them is {@code INVALID_ARGUMENT}. Needs
 * the body read by a {@code BodyHandler}.
 *
 * <p>The parameters are the router's, decoded once. Vert.x's own extraction ({@code RequestUtils})
 * percent-decodes query values a second time, so that {@code ?page_token=100%25} failed with an
 * exception (a 500) and {@code ?page_size=%2531} became 1; it also reads path and query parameters
 * only. So the contract may hold only path and query parameters, of a primitive type, which the
 * constructor checks.
 */
final class JsonRequests implements RequestExtractor {

  private static final String JSON = "application/json";

  /** Fails if the contract has a parameter this extractor cannot take from a request. */
  JsonRequests(OpenAPIContract contract) {
    for (Path path : contract.getPaths()) {
      for (Operation operation : path.getOperations()) {
        for (Parameter parameter : operation.getParameters()) {
          if ((parameter.getIn() != Location.PATH && parameter.getIn() != Location.QUERY)
              || parameter.getSchemaType() == SchemaType.ARRAY
              || parameter.getSchemaType() == SchemaType.OBJECT) {
            throw new IllegalStateException(
                "The contract's parameter "
                    + parameter.getName()
                    + " of "
                    + operation.getOperationId()
                    + " is not a primitive in the path or the query.");
          }
        }
      }
    }
  }

  @Override
  public Future<ValidatableRequest> extractValidatableRequest(
      RoutingContext rc, Operation operation) {
    rc.put(RestRoutes.OPERATION_KEY, operation.getOperationId());
    Buffer body = rc.body().buffer();
    String contentType = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
    // an operation whose body is optional (starting a CSV job) may come without one
    boolean withoutOptionalBody =
        operation.getRequestBody() != null
            && !operation.getRequestBody().isRequired()
            && contentType == null
            && (body == null || body.length() == 0);
    if (operation.getRequestBody() != null && !withoutOptionalBody) {
      Optional<String> problem = problem(contentType, body);
      if (problem.isPresent()) {
        return Future.failedFuture(new ServiceException(ErrorCode.INVALID_ARGUMENT, problem.get()));
      }
    }
    Map<String, RequestParameter> path = new HashMap<>();
    Map<String, RequestParameter> query = new HashMap<>();
    for (Parameter parameter : operation.getParameters()) {
      String name = parameter.getName();
      if (parameter.getIn() == Location.PATH) {
        path.put(name, asValidatorReads(parameter, rc.pathParam(name)));
      } else {
        query.put(name, asValidatorReads(parameter, rc.queryParams().get(name)));
      }
    }
    return Future.succeededFuture(
        new Extracted(
            path,
            query,
            () -> body,
            // the validator knows only the media type the contract names
            operation.getRequestBody() == null || withoutOptionalBody ? null : JSON));
  }

  /**
   * A parameter's decoded text as the validator is to read it. The validator reads every value as
   * JSON first, so a string is JSON-quoted: unquoted, a namespace named {@code -1} would be a
   * number, and one holding a backslash, a quote or a control character would not decode at all.
   *
   * @param decoded the router's value, null when absent
   */
  private static RequestParameter asValidatorReads(Parameter parameter, String decoded) {
    if (decoded == null) {
      return () -> null;
    }
    String text = parameter.getSchemaType() == SchemaType.STRING ? Json.encode(decoded) : decoded;
    return () -> text;
  }

  /**
   * What is wrong with a JSON request body, if anything.
   *
   * @param contentType the header, may be null
   * @param body may be null when the request has none
   */
  static Optional<String> problem(String contentType, Buffer body) {
    if (contentType == null) {
      return Optional.of(
          "The request body must be JSON (Content-Type application/json), not absent.");
    }
    MediaType media = MediaType.of(contentType);
    if (!isJson(media)) {
      return Optional.of(
          "The request body must be JSON (Content-Type application/json), not '"
              + media.type()
              + "'.");
    }
    if (media
        .charset()
        .filter(charset -> !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8"))
        .isPresent()) {
      return Optional.of("The request body must be UTF-8.");
    }
    if (body != null && StrictDecoding.decode(body.getBytes(), StandardCharsets.UTF_8).isEmpty()) {
      return Optional.of("The request body is not valid UTF-8.");
    }
    return Optional.empty();
  }

  /** {@code application/json} or any {@code type/subtype+json}, whatever the parameters. */
  private static boolean isJson(MediaType media) {
    String type = media.type();
    int slash = type.indexOf('/');
    return type.equals("application/json")
        || (slash > 0 && type.endsWith("+json") && type.indexOf('/', slash + 1) < 0);
  }

  /** A request as the validator is to see it: no cookies nor headers in the contract. */
  private record Extracted(
      Map<String, RequestParameter> pathParameters,
      Map<String, RequestParameter> query,
      RequestParameter body,
      String contentType)
      implements ValidatableRequest {

    @Override
    public String getContentType() {
      return contentType;
    }

    @Override
    public Map<String, RequestParameter> getCookies() {
      return Map.of();
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
      return Map.of();
    }

    @Override
    public RequestParameter getBody() {
      return body;
    }
  }
}
