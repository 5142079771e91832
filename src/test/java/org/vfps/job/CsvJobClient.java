package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.vfps.HttpTestClient;

/**
 * A client of CSV jobs as a script would be one: the REST API, and plain HTTP straight to S3 with
 * the presigned URLs.
 */
final class CsvJobClient {

  static final Set<String> ENDED =
      Set.of("CSV_JOB_STATUS_COMPLETED", "CSV_JOB_STATUS_FAILED", "CSV_JOB_STATUS_CANCELLED");

  private static final HttpClient S3 =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final HttpTestClient http;

  CsvJobClient(HttpTestClient http) {
    this.http = http;
  }

  /** Creates the job; fails the test unless the service answers 200. */
  JsonObject create(JsonObject request) {
    HttpTestClient.Response created = http.postJson("/v1/csv-jobs", request.encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json();
  }

  /** Creates the value's pseudonym over REST; its pseudonym value. */
  String createPseudonym(String namespace, String originalValue) {
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", originalValue).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().getJsonObject("pseudonym").getString("pseudonymValue");
  }

  /** Uploads the file with the job's presigned URL and headers; returns S3's status. */
  static int upload(JsonObject job, byte[] file) {
    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(job.getString("uploadUrl")))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(file));
    JsonObject headers = job.getJsonObject("uploadHeaders");
    headers.forEach(header -> put.header(header.getKey(), (String) header.getValue()));
    try {
      return S3.send(put.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      throw new AssertionError("the upload failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  HttpTestClient.Response start(String id) {
    return http.postJson("/v1/csv-jobs/" + id + ":start", "{}");
  }

  /** Creates, uploads and starts a job; the started job. */
  JsonObject submit(JsonObject request, byte[] file) {
    JsonObject job = create(request);
    assertThat(upload(job, file)).isEqualTo(200);
    HttpTestClient.Response started = start(job.getString("id"));
    assertThat(started.status()).as(started.body()).isEqualTo(200);
    return started.json();
  }

  JsonObject get(String id) {
    HttpTestClient.Response job = http.get("/v1/csv-jobs/" + id);
    assertThat(job.status()).as(job.body()).isEqualTo(200);
    return job.json();
  }

  /** The job once it has ended, waiting at most {@code timeout}. */
  JsonObject awaitEnd(String id, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      JsonObject job = get(id);
      if (ENDED.contains(job.getString("status"))) {
        return job;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("the job did not end in " + timeout + ": " + job.encode());
      }
      sleep(100);
    }
  }

  /** The result of a completed job, downloaded with its presigned URL. */
  static String download(JsonObject job) {
    assertThat(job.getString("status")).as(job.encode()).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    try {
      HttpResponse<String> result =
          S3.send(
              HttpRequest.newBuilder(URI.create(job.getString("downloadUrl"))).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(result.statusCode()).isEqualTo(200);
      return result.body();
    } catch (IOException e) {
      throw new AssertionError("the download failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static JsonObject mapping(String source, String target, String namespace) {
    JsonObject mapping = new JsonObject().put("sourceColumn", source).put("namespace", namespace);
    if (target != null) {
      mapping.put("targetColumn", target);
    }
    return mapping;
  }

  static JsonObject request(String direction, Map<String, Object> fields, JsonObject... mappings) {
    JsonObject request = new JsonObject().put("direction", "CSV_JOB_DIRECTION_" + direction);
    fields.forEach(request::put);
    io.vertx.core.json.JsonArray array = new io.vertx.core.json.JsonArray();
    for (JsonObject mapping : mappings) {
      array.add(mapping);
    }
    return request.put("columnMappings", array);
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
