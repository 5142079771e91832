package org.vfps.auth;

import java.time.Instant;

/**
 * Opens and seals the admin UI's session cookies with the key the service keeps in the database, as
 * another replica would: for tests that need a session whose time is up without waiting for it.
 */
public final class TestSessions {

  private final SessionSeal seal;

  /** Uses the 32-byte key of {@code vfps_secrets} ({@code Database.uiSessionKey()}). */
  public TestSessions(byte[] key) {
    this.seal = new SessionSeal(key);
  }

  /** The session of a cookie value; fails if the value is not a session under this key. */
  public UiSession open(String cookie) {
    return seal.open(SignIn.SESSION_COOKIE, cookie)
        .flatMap(UiSession::fromJson)
        .orElseThrow(() -> new IllegalArgumentException("not a session cookie"));
  }

  /** The cookie value of a session. */
  public String seal(UiSession session) {
    return seal.seal(SignIn.SESSION_COOKIE, session.toJson());
  }

  /**
   * The cookie of the same session, expired an hour ago (beyond the clock skew), with or without
   * its refresh token.
   */
  public String expired(String cookie, boolean keepRefreshToken) {
    UiSession session = open(cookie);
    return seal(
        new UiSession(
            session.id(),
            session.subject(),
            session.name(),
            session.username(),
            session.email(),
            session.emailVerified(),
            session.roles(),
            Instant.now().minusSeconds(3_600).getEpochSecond(),
            session.endsAt(),
            session.csrfToken(),
            keepRefreshToken ? session.refreshToken() : ""));
  }

  /**
   * The cookie of the same session, with its refresh token, past its end ({@link
   * SignIn#SESSION_LIFETIME} after the sign-in) by an hour.
   */
  public String pastItsEnd(String cookie) {
    UiSession session = open(cookie);
    long hourAgo = Instant.now().minusSeconds(3_600).getEpochSecond();
    return seal(
        new UiSession(
            session.id(),
            session.subject(),
            session.name(),
            session.username(),
            session.email(),
            session.emailVerified(),
            session.roles(),
            hourAgo,
            hourAgo,
            session.csrfToken(),
            session.refreshToken()));
  }
}
