package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcTimeoutTest {

  @Test
  void readsEveryUnitToTheNanosecond() {
    assertThat(GrpcTimeout.nanos("1n")).isEqualTo(1);
    assertThat(GrpcTimeout.nanos("250u")).isEqualTo(250_000);
    assertThat(GrpcTimeout.nanos("20m")).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    assertThat(GrpcTimeout.nanos("19999m")).isEqualTo(TimeUnit.MILLISECONDS.toNanos(19_999));
    assertThat(GrpcTimeout.nanos("10S")).isEqualTo(TimeUnit.SECONDS.toNanos(10));
    assertThat(GrpcTimeout.nanos("2M")).isEqualTo(TimeUnit.MINUTES.toNanos(2));
    assertThat(GrpcTimeout.nanos("1H")).isEqualTo(TimeUnit.HOURS.toNanos(1));
    assertThat(GrpcTimeout.nanos("0n")).isZero();
  }

  @Test
  void capsAnEnormousTimeoutSoThatADeadlineCannotOverflow() {
    long nanos = GrpcTimeout.nanos("99999999H");

    assertThat(nanos).isPositive();
    assertThat(System.nanoTime() + nanos).isGreaterThan(System.nanoTime());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "S", "10", "10s", "1.5S", "-1S", "123456789S", " 1S", "1 S"})
  void anythingElseIsNoTimeout(String header) {
    assertThat(GrpcTimeout.nanos(header)).isEqualTo(-1);
  }

  @Test
  void noHeaderIsNoTimeout() {
    assertThat(GrpcTimeout.nanos(null)).isEqualTo(-1);
  }
}
