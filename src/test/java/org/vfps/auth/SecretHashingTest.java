package org.vfps.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.vfps.config.SecretHash;

/** PBKDF2 hashes of client secrets and their text form. */
class SecretHashingTest {

  @Test
  void aHashMatchesItsSecretOnly() {
    SecretHash hash = SecretHashing.hash("s3cret".toCharArray(), SecretHash.MIN_ITERATIONS);

    assertThat(SecretHashing.matches(hash, "s3cret".toCharArray())).isTrue();
    assertThat(SecretHashing.matches(hash, "s3cret ".toCharArray())).isFalse();
    assertThat(SecretHashing.matches(hash, "S3cret".toCharArray())).isFalse();
  }

  @Test
  void hashesAreSaltedAndSurviveTheirTextForm() {
    SecretHash first = SecretHashing.hash("same".toCharArray());
    SecretHash second = SecretHashing.hash("same".toCharArray(), SecretHash.MIN_ITERATIONS);

    assertThat(first.salt()).isNotEqualTo(second.salt());
    assertThat(first.hash()).isNotEqualTo(second.hash());
    assertThat(first.iterations()).isEqualTo(SecretHashing.ITERATIONS);
    assertThat(SecretHash.parse(first.toString())).isEqualTo(first);
    assertThat(first.toString()).startsWith("pbkdf2-sha256:600000:").doesNotContain("$");
  }

  @Test
  void malformedHashesAreRefusedWithoutQuotingThem() {
    String salt = "AAAAAAAAAAAAAAAAAAAAAA";
    String hash = "A".repeat(43);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SecretHash.parse("my-plain-secret"))
        .withMessageNotContaining("my-plain-secret");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SecretHash.parse("pbkdf2-sha256:1000:" + salt + ":" + hash))
        .withMessageContaining("iterations");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SecretHash.parse("pbkdf2-sha256:600000:AAAA:" + hash))
        .withMessageContaining("salt");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SecretHash.parse("pbkdf2-sha256:600000:" + salt + ":AAAA"))
        .withMessageContaining("hash");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SecretHash.parse("pbkdf2-sha256:600000:" + salt + ":%%%"))
        .withMessageContaining("base64url");
  }
}
