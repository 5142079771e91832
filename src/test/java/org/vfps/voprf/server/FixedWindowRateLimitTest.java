package org.vfps.voprf.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FixedWindowRateLimitTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final FixedWindowRateLimit limit =
      new FixedWindowRateLimit(2, Duration.ofSeconds(10), now::get);

  @Test
  void refusesThePermitsOverTheWindowsCountUntilTheNextWindow() {
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isFalse();

    now.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
    assertThat(limit.tryAcquire()).isFalse();

    now.addAndGet(1);
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isFalse();
  }

  @Test
  void theWindowsStayAlignedAfterAQuietSpell() {
    limit.tryAcquire();
    // 3.5 windows later: the fourth window, which ends 5 s from now
    now.addAndGet(Duration.ofSeconds(35).toNanos());
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isTrue();
    assertThat(limit.tryAcquire()).isFalse();

    now.addAndGet(Duration.ofSeconds(5).toNanos());
    assertThat(limit.tryAcquire()).isTrue();
  }
}
