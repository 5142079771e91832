package org.vfps;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;

/**
 * A real HTTP/1.1 client (the JDK's) for the tests, over HTTP or HTTPS, blocking, one response per
 * call.
 */
public final class HttpTestClient implements AutoCloseable {

  private final HttpClient client;
  private final int port;
  private final String base;

  public HttpTestClient(int port) {
    this.port = port;
    this.base = "http://127.0.0.1:" + port;
    this.client = builder().build();
  }

  /** A client speaking HTTPS with {@code tls} (which says whom it trusts). */
  public HttpTestClient(int port, SSLContext tls) {
    this.port = port;
    this.base = "https://127.0.0.1:" + port;
    this.client = builder().sslContext(tls).build();
  }

  private static HttpClient.Builder builder() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5));
  }

  /** What the server answered. */
  public record Response(int status, HttpHeaders headers, String body) {

    public JsonObject json() {
      return new JsonObject(body);
    }

    public String contentType() {
      return headers.firstValue("content-type").orElse(null);
    }
  }

  public Response get(String path) {
    return send(request(path).GET());
  }

  public Response delete(String path) {
    return send(request(path).DELETE());
  }

  /** A POST with {@code application/json} and the UTF-8 text. */
  public Response postJson(String path, String json) {
    return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  /** A POST with the bytes as a fixed-length body; {@code contentType} may be null. */
  public Response post(String path, String contentType, byte[] body) {
    return post(path, contentType, BodyPublishers.ofByteArray(body));
  }

  /** A POST with the bytes sent in chunks, with no length announced. */
  public Response postChunked(String path, String contentType, byte[] body) {
    return post(
        path, contentType, BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));
  }

  /**
   * A GET of a request target sent byte for byte over a socket, for targets {@link URI} refuses (a
   * malformed percent escape); reads a response with a {@code content-length}.
   */
  public Response rawGet(String target) {
    return raw("GET", target, Map.of(), null);
  }

  /**
   * A request whose target is sent byte for byte over a socket, as no {@link URI} would write it
   * ({@code //v1/...}, {@code /./v1/...}, {@code /x/../v1/...}), with these headers and, unless it
   * is null, a JSON body; reads a response with a {@code content-length}.
   */
  public Response raw(String method, String target, Map<String, String> headers, String json) {
    byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
    StringBuilder head =
        new StringBuilder(method)
            .append(' ')
            .append(target)
            .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    if (json != null) {
      head.append("Content-Type: application/json\r\nContent-Length: ")
          .append(body.length)
          .append("\r\n");
    }
    head.append("\r\n");
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().write(body);
      String[] headAndBody =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
              .split("\r\n\r\n", 2);
      String[] lines = headAndBody[0].split("\r\n");
      Map<String, List<String>> answered = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        answered
            .computeIfAbsent(lines[i].substring(0, colon).strip(), name -> new ArrayList<>())
            .add(lines[i].substring(colon + 1).strip());
      }
      return new Response(
          Integer.parseInt(lines[0].split(" ")[1]),
          HttpHeaders.of(answered, (name, value) -> true),
          headAndBody.length > 1 ? headAndBody[1] : "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A request of any method, e.g. {@code PUT}, without a body. */
  public Response method(String method, String path) {
    return send(request(path).method(method, BodyPublishers.noBody()));
  }

  /**
   * A request of any method with these headers (e.g. {@code Authorization}) and, unless it is null,
   * a JSON body.
   */
  public Response send(String method, String path, Map<String, String> headers, String json) {
    HttpRequest.Builder request =
        request(path)
            .method(
                method,
                json == null
                    ? BodyPublishers.noBody()
                    : BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    headers.forEach(request::header);
    return send(request);
  }

  private Response post(String path, String contentType, BodyPublisher body) {
    HttpRequest.Builder request = request(path).POST(body);
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request);
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
  }

  private Response send(HttpRequest.Builder request) {
    try {
      var response = client.send(request.build(), BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Response(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
