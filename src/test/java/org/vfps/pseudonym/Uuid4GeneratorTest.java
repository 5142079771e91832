package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class Uuid4GeneratorTest {

  private final PseudonymGenerator generator = new Uuid4Generator();

  @Test
  void generatesLowerCaseCanonicalVersion4Uuid() {
    String value = generator.generate("test", 36);

    assertThat(value)
        .hasSize(36)
        .matches("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    UUID uuid = UUID.fromString(value);
    assertThat(uuid.version()).isEqualTo(4);
    assertThat(uuid.variant()).isEqualTo(2);
    assertThat(uuid.toString()).isEqualTo(value);
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
}
