package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/**
 * The HTTP client that talks to the OIDC provider: JSON documents fetched (discovery, keys) and
 * forms posted (token and pushed authorization requests). Every request has a timeout; the client
 * ends with Vert.x. Thread-safe.
 */
final class ProviderClient {

  /** Each request's timeout, and the connect timeout. */
  static final long REQUEST_TIMEOUT_MILLIS = 10_000;

  /** What the provider answered to a form: its status and its JSON body. */
  record Reply(int status, JsonObject body) {}

  private final HttpClient client;

  ProviderClient(Vertx vertx) {
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setConnectTimeout((int) REQUEST_TIMEOUT_MILLIS)
                .setVerifyHost(true));
  }

  /** The JSON object at {@code uri}; fails unless the answer is 200 with a JSON object. */
  Future<JsonObject> getJson(URI uri) {
    return send(request(HttpMethod.GET, uri), null)
        .compose(
            response ->
                response.status() == 200
                    ? json(uri, response.body())
                    : Future.failedFuture(
                        new IllegalStateException(uri + " answered " + response.status())));
  }

  /**
   * Posts the form, with {@code authorization} as the header unless it is null; any status is an
   * answer, a body that is not a JSON object is a failure.
   */
  Future<Reply> postForm(URI uri, MultiMap form, String authorization) {
    RequestOptions request =
        request(HttpMethod.POST, uri)
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded");
    if (authorization != null) {
      request.putHeader(HttpHeaders.AUTHORIZATION, authorization);
    }
    return send(request, Buffer.buffer(encode(form)))
        .compose(
            response -> json(uri, response.body()).map(json -> new Reply(response.status(), json)));
  }

  /** The form's fields as {@code application/x-www-form-urlencoded} text. */
  static String encode(MultiMap form) {
    StringJoiner text = new StringJoiner("&");
    form.forEach(
        field -> text.add(formEncode(field.getKey()) + "=" + formEncode(field.getValue())));
    return text.toString();
  }

  static String formEncode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static RequestOptions request(HttpMethod method, URI uri) {
    return new RequestOptions()
        .setMethod(method)
        .setAbsoluteURI(uri.toString())
        .setTimeout(REQUEST_TIMEOUT_MILLIS)
        .putHeader(HttpHeaders.ACCEPT, "application/json");
  }

  private record Raw(int status, Buffer body) {}

  private Future<Raw> send(RequestOptions options, Buffer body) {
    return client
        .request(options)
        .compose(request -> body == null ? request.send() : request.send(body))
        .compose(response -> response.body().map(text -> new Raw(response.statusCode(), text)));
  }

  private static Future<JsonObject> json(URI uri, Buffer body) {
    try {
      return Future.succeededFuture(new JsonObject(body));
    } catch (RuntimeException e) {
      return Future.failedFuture(
          new IllegalStateException(uri + " did not answer with a JSON object"));
    }
  }
}
