package org.vfps.auth;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.LogCapture;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** The order and the places of slow secret checks, with checks that run when the test says. */
class SlowChecksTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @RegisterExtension final LogCapture vertxLog = LogCapture.of("io.vertx");

  private final Vertx vertx = Vertx.vertx();
  private final SlowChecks checks = new SlowChecks(vertx);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<String> ran = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    release.countDown();
    vertx.close().await();
  }

  /** A check of a secret named {@code key}, which waits for {@link #release} and then matches. */
  private Future<Boolean> check(String account, String address, String key) {
    return checks.check(
        account,
        address,
        key,
        () -> {
          release.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
          ran.add(key);
          return true;
        });
  }

  private static boolean refused(Future<Boolean> check) {
    return check.failed()
        && check.cause() instanceof ServiceException e
        && e.code() == ErrorCode.UNAVAILABLE;
  }

  private static void await(Future<?> check) {
    check.otherwiseEmpty().timeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).await();
  }

  /** Checks still waiting when Vert.x closes end quietly: a closed worker is no error of ours. */
  @Test
  void checksWaitingWhenVertxClosesEndWithoutAnError() {
    check("a", "first address", "first");
    check("b", "second address", "second");
    check("c", "third address", "third");

    Future<Void> closed = vertx.close();
    release.countDown();
    closed.await();

    assertThat(vertxLog.atLeast(Level.ERROR)).isEmpty();
  }

  @Test
  void aFloodHoldsOnlyThePlacesNobodyElseAsksFor() {
    Future<Boolean> running = check("a", "attacker", "first");
    List<Future<Boolean>> flood = new ArrayList<>();
    for (int i = 0; i < SlowChecks.MAX_WAITING; i++) {
      flood.add(check("a", "attacker", "wrong " + i));
    }
    Future<Boolean> oneTooMany = check("a", "attacker", "one too many");
    Future<Boolean> sameAccount = check("a", "legitimate", "right");
    Future<Boolean> otherAccount = check("b", "attacker", "b's right");

    await(oneTooMany);
    assertThat(refused(oneTooMany)).as("its own queue is the longest").isTrue();
    // the two newest of the flood gave their places
    await(flood.get(SlowChecks.MAX_WAITING - 1));
    await(flood.get(SlowChecks.MAX_WAITING - 2));
    assertThat(refused(flood.get(SlowChecks.MAX_WAITING - 1))).isTrue();
    assertThat(refused(flood.get(SlowChecks.MAX_WAITING - 2))).isTrue();
    release.countDown();
    for (Future<Boolean> check : List.of(running, sameAccount, otherAccount, flood.get(0))) {
      await(check);
      assertThat(check.result()).isTrue();
    }
    // in turn: account a and b alternate, and within a the two addresses
    assertThat(ran).startsWith("first", "wrong 0", "b's right", "right");
  }

  @Test
  void checksOfOneSecretShareOneCheck() {
    AtomicInteger runs = new AtomicInteger();
    List<Future<Boolean>> same = new ArrayList<>();
    for (int i = 0; i < 3 * SlowChecks.MAX_WAITING; i++) {
      same.add(
          checks.check(
              "a",
              "address " + i,
              "the same secret",
              () -> {
                release.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                runs.incrementAndGet();
                return false;
              }));
    }
    release.countDown();
    for (Future<Boolean> check : same) {
      await(check);
      assertThat(check.result()).isFalse();
    }
    assertThat(runs).hasValue(1);
  }
}
