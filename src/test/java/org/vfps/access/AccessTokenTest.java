package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The token text of the .NET vfps, and its "expires soon" marker. */
class AccessTokenTest {

  @Test
  void aGeneratedTokenHasTheDotnetShapeAndParsesBack() {
    AccessTokenSecret secret = AccessTokenSecret.generate(AccessToken.Type.SERVICE_ACCOUNT);

    assertThat(secret.text()).matches("vfps_sat_[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}");
    assertThat(AccessTokenSecret.parse(secret.text())).contains(secret);
    assertThat(secret.matches(secret.hash())).isTrue();
    assertThat(secret.toString()).doesNotContain(secret.secret());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "vfps_pat_",
        "vfps_pat_.abc",
        "vfps_pat_abc.",
        "vfps_pat_abc",
        "vfps_x_a.b",
        "vfps_sat_a.b.c",
        "pat_a.b"
      })
  void malformedTokensDoNotParse(String text) {
    assertThat(AccessTokenSecret.parse(text)).isEmpty();
  }

  @Test
  void theDotDividesAtItsFirstOccurrenceAndTheTypeComesFromThePrefix() {
    assertThat(AccessTokenSecret.parse("vfps_pat_id_with_underscores.secret-part"))
        .contains(
            new AccessTokenSecret(AccessToken.Type.PERSONAL, "id_with_underscores", "secret-part"));
  }

  private static AccessToken token(Instant created, Instant expires, Instant revoked) {
    return new AccessToken(
        UUID.randomUUID(),
        AccessToken.Type.PERSONAL,
        "id",
        new byte[32],
        "name",
        expires,
        revoked,
        null,
        "me",
        "me",
        null,
        null,
        List.of(),
        null,
        created,
        created);
  }

  @Test
  void expiresSoonWithinTheWarningButNeverMoreThanAQuarterOfItsLifetime() {
    Instant created = Instant.parse("2026-01-01T00:00:00Z");
    Duration warning = Duration.ofDays(14);
    AccessToken ninetyDays = token(created, created.plus(Duration.ofDays(90)), null);
    AccessToken fourDays = token(created, created.plus(Duration.ofDays(4)), null);

    assertThat(ninetyDays.expiresSoonAt(created.plus(Duration.ofDays(75)), warning)).isFalse();
    assertThat(ninetyDays.expiresSoonAt(created.plus(Duration.ofDays(77)), warning)).isTrue();
    // a quarter of four days is one day
    assertThat(fourDays.expiresSoonAt(created.plus(Duration.ofHours(71)), warning)).isFalse();
    assertThat(fourDays.expiresSoonAt(created.plus(Duration.ofHours(73)), warning)).isTrue();
    // not when expired, revoked, or the warning is off
    assertThat(fourDays.expiresSoonAt(created.plus(Duration.ofDays(5)), warning)).isFalse();
    assertThat(
            token(created, created.plus(Duration.ofDays(4)), created.plus(Duration.ofHours(1)))
                .expiresSoonAt(created.plus(Duration.ofHours(73)), warning))
        .isFalse();
    assertThat(fourDays.expiresSoonAt(created.plus(Duration.ofHours(73)), Duration.ZERO)).isFalse();
  }
}
