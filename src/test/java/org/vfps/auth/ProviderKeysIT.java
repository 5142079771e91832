package org.vfps.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How often the provider's keys are fetched: a clock the test moves decides, not sleeps. */
class ProviderKeysIT {

  private final Vertx vertx = Vertx.vertx();
  private final TestOidcProvider provider = new TestOidcProvider().start();
  private final MovableClock clock = new MovableClock();
  private final AtomicInteger changes = new AtomicInteger();

  @AfterEach
  void stop() {
    vertx.close().await();
    provider.close();
  }

  private ProviderKeys keys() {
    ProviderKeys keys =
        new ProviderKeys(
            vertx,
            URI.create(provider.issuer()),
            false,
            List.of(TestOidcProvider.AUDIENCE),
            60,
            new ProviderKeys.Timing(
                Duration.ofHours(1),
                Duration.ofSeconds(10),
                Duration.ofMillis(50),
                Duration.ofMillis(200)),
            clock,
            changes::incrementAndGet);
    keys.start();
    return keys;
  }

  @Test
  void anUnknownKeyIdFetchesTheKeysAtMostOnceInTenSeconds() throws Exception {
    ProviderKeys keys = keys();
    awaitKeys(() -> keys.current() != null);
    int loaded = provider.keyRequests();

    provider.rotate();
    assertThat(keys.refreshForUnknownKey().await(1, TimeUnit.MINUTES)).isTrue();
    assertThat(provider.keyRequests()).isEqualTo(loaded + 1);

    provider.rotate();
    clock.advance(Duration.ofSeconds(9));
    assertThat(keys.refreshForUnknownKey().await(1, TimeUnit.MINUTES)).isFalse();
    assertThat(provider.keyRequests()).isEqualTo(loaded + 1);

    clock.advance(Duration.ofSeconds(1));
    assertThat(keys.refreshForUnknownKey().await(1, TimeUnit.MINUTES)).isTrue();
    assertThat(provider.keyRequests()).isEqualTo(loaded + 2);
    assertThat(changes).hasValue(3);
  }

  @Test
  void aFailedRefreshKeepsTheKeysLoadedBefore() throws Exception {
    ProviderKeys keys = keys();
    awaitKeys(() -> keys.current() != null);
    ProviderKeys.Keys before = keys.current();

    provider.stop();
    assertThat(keys.refreshForUnknownKey().await(1, TimeUnit.MINUTES)).isFalse();

    assertThat(keys.current()).isSameAs(before);
  }

  @Test
  void onlyAsymmetricSigningKeysAreKept() {
    assertThat(ProviderKeys.isAsymmetricSigningKey(json("{\"kty\":\"RSA\",\"use\":\"sig\"}")))
        .isTrue();
    assertThat(ProviderKeys.isAsymmetricSigningKey(json("{\"kty\":\"EC\",\"alg\":\"ES256\"}")))
        .isTrue();
    assertThat(ProviderKeys.isAsymmetricSigningKey(json("{\"kty\":\"oct\",\"alg\":\"HS256\"}")))
        .isFalse();
    assertThat(ProviderKeys.isAsymmetricSigningKey(json("{\"kty\":\"RSA\",\"use\":\"enc\"}")))
        .isFalse();
    assertThat(ProviderKeys.isAsymmetricSigningKey(json("{\"kty\":\"RSA\",\"alg\":\"RSA-OAEP\"}")))
        .isFalse();
  }

  private static io.vertx.core.json.JsonObject json(String text) {
    return new io.vertx.core.json.JsonObject(text);
  }

  private static void awaitKeys(java.util.function.BooleanSupplier done) {
    await("the keys are loaded").atMost(Duration.ofSeconds(30)).until(done::getAsBoolean);
  }

  /** A clock that moves only when told. */
  private static final class MovableClock extends Clock {

    private volatile Instant now = Instant.parse("2026-11-30T00:00:00Z");

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
