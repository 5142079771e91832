package org.vfps.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.access.CallerId;

/**
 * A user signed in to the admin UI, as the session cookie carries it: which sign-in it is, who
 * (from the ID token), its roles (from the access token, checked as the API checks bearer tokens),
 * until when, the CSRF token bound to the sign-in, and the provider's refresh token.
 *
 * @param id a random text that names the sign-in, the same for the whole sign-in (renewals
 *     included); a sign-out ends it by this name on every replica
 * @param subject the user's {@code sub}, of the ID token (and of the access token, where it has
 *     one)
 * @param name the ID token's {@code name}; empty when absent
 * @param username the ID token's {@code preferred_username}; empty when absent
 * @param email the ID token's {@code email}; empty when absent
 * @param emailVerified whether the ID token says the address is verified ({@code email_verified}),
 *     without which no e-mail grant matches
 * @param roles the access token's roles; unmodifiable
 * @param expiresAt the access token's {@code exp}, in seconds since the epoch, or {@code endsAt}
 *     when that is sooner
 * @param endsAt the second (since the epoch) after which the session is not renewed: {@link
 *     SignIn#SESSION_LIFETIME} after the sign-in
 * @param csrfToken a random text, the same for the whole sign-in
 * @param refreshToken the provider's refresh token; empty when it gave none
 */
public record UiSession(
    String id,
    String subject,
    String name,
    String username,
    String email,
    boolean emailVerified,
    Set<String> roles,
    long expiresAt,
    long endsAt,
    String csrfToken,
    String refreshToken) {

  /** 2: with the sign-in's id and end; a cookie of version 1 is no session (sign in again). */
  private static final int VERSION = 2;

  public UiSession {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(email, "email");
    roles = Set.copyOf(roles);
    Objects.requireNonNull(csrfToken, "csrfToken");
    Objects.requireNonNull(refreshToken, "refreshToken");
  }

  /** The caller of an API request this session authenticates. */
  public Caller caller(String clientAddress) {
    return new Caller(
        CallerId.sub(subject),
        roles,
        clientAddress,
        Caller.Credential.PROVIDER_TOKEN,
        emailVerified && !email.isEmpty() ? email.toLowerCase(Locale.ROOT) : null,
        username.isEmpty() ? null : username,
        null,
        null);
  }

  /** Whether {@code token} is this session's CSRF token; compared in constant time. */
  public boolean csrfTokenIs(String token) {
    return token != null
        && MessageDigest.isEqual(
            csrfToken.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * This session with the fields of a refresh, expiring no later than its end; the sign-in, who it
   * is and the CSRF token stay.
   */
  UiSession refreshed(Set<String> roles, long expiresAt, String refreshToken) {
    return new UiSession(
        id,
        subject,
        name,
        username,
        email,
        emailVerified,
        roles,
        Math.min(expiresAt, endsAt),
        endsAt,
        csrfToken,
        refreshToken);
  }

  /** This session without its refresh token (for a cookie that would be too large with it). */
  UiSession withoutRefreshToken() {
    return new UiSession(
        id, subject, name, username, email, emailVerified, roles, expiresAt, endsAt, csrfToken, "");
  }

  JsonObject toJson() {
    return new JsonObject()
        .put("v", VERSION)
        .put("id", id)
        .put("sub", subject)
        .put("name", name)
        .put("user", username)
        .put("email", email)
        .put("ev", emailVerified)
        .put("roles", new JsonArray(roles.stream().sorted().toList()))
        .put("exp", expiresAt)
        .put("end", endsAt)
        .put("csrf", csrfToken)
        .put("rt", refreshToken);
  }

  /** The session of {@link #toJson()}'s object; empty for an object of another version. */
  static Optional<UiSession> fromJson(JsonObject json) {
    if (!Integer.valueOf(VERSION).equals(json.getValue("v"))) {
      return Optional.empty();
    }
    Set<String> roles = new HashSet<>();
    for (Object role : json.getJsonArray("roles")) {
      roles.add((String) role);
    }
    return Optional.of(
        new UiSession(
            json.getString("id"),
            json.getString("sub"),
            json.getString("name"),
            json.getString("user"),
            json.getString("email"),
            json.getBoolean("ev", false),
            roles,
            json.getLong("exp"),
            json.getLong("end"),
            json.getString("csrf"),
            json.getString("rt")));
  }
}
