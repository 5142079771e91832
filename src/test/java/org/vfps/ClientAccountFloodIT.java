package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.auth.SecretHashing;
import org.vfps.server.VfpsServer;

/**
 * A flood of wrong Basic secrets, which anyone can send, against a client account whose right
 * secret is not confirmed yet: the right secret, presented for the first time while the flood fills
 * every slow check, is still checked and let in, from another address for the flooded account and
 * from the flood's own address for another account.
 */
class ClientAccountFloodIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  /** More wrong secrets at once than slow checks may wait. */
  private static final int FLOOD = 64;

  private static final Duration DEADLINE = Duration.ofMinutes(2);

  private static int port;

  @BeforeAll
  static void start() {
    Map<String, String> env = new HashMap<>();
    env.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    env.put("Authorization__IsEnabled", "true");
    // a right on some namespace, without which an authenticated account is refused all the same
    env.put("Authorization__AdminRoles__0", "etl");
    for (int i = 0; i < 3; i++) {
      env.put("Authorization__Clients__" + i + "__Id", account(i));
      env.put("Authorization__Clients__" + i + "__Roles__0", "etl");
      env.put(
          "Authorization__Clients__" + i + "__SecretHash",
          SecretHashing.hash(secret(i).toCharArray()).toString());
    }
    VfpsServer server = resources.own(TestService.start(env));
    port = server.httpPort();
  }

  private static String account(int i) {
    return "etl-" + i;
  }

  private static String secret(int i) {
    return "the right secret of account " + i;
  }

  private static String basic(String account, String secret) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((account + ":" + secret).getBytes(StandardCharsets.UTF_8));
  }

  /** A real HTTP client whose connections come from {@code address} (a loopback address). */
  private static HttpClient client(String address) throws Exception {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .localAddress(InetAddress.getByName(address))
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  private static CompletableFuture<HttpResponse<String>> list(
      HttpClient client, String authorization) {
    return client.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/namespaces"))
            .header("authorization", authorization)
            .timeout(DEADLINE)
            .GET()
            .build(),
        BodyHandlers.ofString());
  }

  /**
   * Sends {@link #FLOOD} wrong secrets for {@code account} at once from 127.0.0.1 and returns when
   * the first was refused as over capacity (every slow check is taken), with all of them.
   */
  private static List<CompletableFuture<HttpResponse<String>>> flood(
      HttpClient attacker, String account) throws Exception {
    CountDownLatch full = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> wrong = new ArrayList<>();
    for (int i = 0; i < FLOOD; i++) {
      wrong.add(
          list(attacker, basic(account, "guess " + UUID.randomUUID()))
              .whenComplete(
                  (response, failure) -> {
                    if (response != null && response.statusCode() == 503) {
                      full.countDown();
                    }
                  }));
    }
    assertThat(full.await(DEADLINE.toSeconds(), TimeUnit.SECONDS))
        .as("the flood fills the slow checks")
        .isTrue();
    return wrong;
  }

  private static void awaitAll(List<CompletableFuture<HttpResponse<String>>> flood) {
    CompletableFuture.allOf(flood.toArray(CompletableFuture[]::new))
        .orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS)
        .join();
    assertThat(flood)
        .allSatisfy(
            wrong -> assertThat(wrong.join().statusCode()).isIn(401, 503).isNotEqualTo(200));
  }

  @Test
  void theRightSecretOfTheFloodedAccountGetsInFromAnotherAddress() throws Exception {
    try (HttpClient attacker = client("127.0.0.1");
        HttpClient legitimate = client("127.0.0.2")) {
      List<CompletableFuture<HttpResponse<String>>> wrong = flood(attacker, account(0));

      HttpResponse<String> right =
          list(legitimate, basic(account(0), secret(0)))
              .orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS)
              .join();

      assertThat(right.statusCode()).as(right.body()).isEqualTo(200);
      awaitAll(wrong);
    }
  }

  @Test
  void theRightSecretOfAnotherAccountGetsInFromTheFloodsAddress() throws Exception {
    try (HttpClient attacker = client("127.0.0.1");
        HttpClient neighbour = client("127.0.0.1")) {
      List<CompletableFuture<HttpResponse<String>>> wrong = flood(attacker, account(1));

      HttpResponse<String> right =
          list(neighbour, basic(account(2), secret(2)))
              .orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS)
              .join();

      assertThat(right.statusCode()).as(right.body()).isEqualTo(200);
      awaitAll(wrong);
    }
  }
}
