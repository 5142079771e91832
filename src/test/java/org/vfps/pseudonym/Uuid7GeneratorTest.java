package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class Uuid7GeneratorTest {

  private final PseudonymGenerator generator = new Uuid7Generator();

  @Test
  void generatesLowerCaseCanonicalVersion7Uuid() {
    String value = generator.generate("test", 36);

    assertThat(value)
        .hasSize(36)
        .matches("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    UUID uuid = UUID.fromString(value);
    assertThat(uuid.version()).isEqualTo(7);
    assertThat(uuid.variant()).isEqualTo(2);
  }

  @Test
  void timestampIsCurrentUnixMillis() {
    long before = System.currentTimeMillis();
    long millis = timestampOf(generator.generate("test", 36));
    long after = System.currentTimeMillis();

    assertThat(millis).isBetween(before, after);
    assertThat(Math.abs(millis - System.currentTimeMillis()))
        .isLessThan(Duration.ofSeconds(5).toMillis());
  }

  @Test
  void uuidFromALaterMillisecondSortsAfterAnEarlierOne() {
    String earlier = generator.generate("test", 36);
    long earlierMillis = timestampOf(earlier);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.currentTimeMillis() <= earlierMillis && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }

    String later = generator.generate("test", 36);

    assertThat(timestampOf(later)).isGreaterThan(earlierMillis);
    assertThat(later).isGreaterThan(earlier);
    assertThat(UUID.fromString(later)).isGreaterThan(UUID.fromString(earlier));
  }

  @Test
  void twoCallsGiveDifferentUuids() {
    assertThat(generator.generate("test", 36)).isNotEqualTo(generator.generate("test", 36));
  }

  @Test
  void rejectsAnyLengthOtherThan36() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> generator.generate("test", 64))
        .withMessageContaining("36");
  }

  private static long timestampOf(String value) {
    return UUID.fromString(value).getMostSignificantBits() >>> 16;
  }
}
