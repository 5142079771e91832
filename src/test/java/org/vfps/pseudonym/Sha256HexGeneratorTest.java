package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class Sha256HexGeneratorTest {

  private final PseudonymGenerator generator = new Sha256HexGenerator();

  @Test
  void sha256OfTestMatchesKnownVector() {
    assertThat(generator.generate("test", 64))
        .isEqualTo("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08");
  }

  @Test
  void sha256OfValueWithZwjEmojiHashesUtf8Bytes() {
    String value = "longer Value with an Emoji \uD83D\uDC77\u200D\u2642\uFE0F";

    assertThat(generator.generate(value, 64))
        .isEqualTo("74B63BF6DC88DB9A3E54DC7EB2691749F50A3E6F04DC5D1F5EFE54D70EE21759");
  }

  @Test
  void sameValueAlwaysGivesSameHash() {
    assertThat(generator.generate("same", 64)).isEqualTo(generator.generate("same", 64));
  }

  @Test
  void rejectsAnyLengthOtherThan64() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> generator.generate("test", 32))
        .withMessageContaining("64");
    assertThatIllegalArgumentException().isThrownBy(() -> generator.generate("test", 0));
  }
}
