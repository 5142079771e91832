package org.vfps.access;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A row of {@code access_tokens}: a personal or service-account token, its secret's SHA-256 and its
 * life. The secret itself is never stored.
 *
 * @param tokenId the public part of the token, unique and case-sensitive
 * @param hash SHA-256 of the secret's UTF-8 bytes; never leaves the service
 * @param subject the owner's {@code sub} (personal tokens); null for service-account tokens
 * @param username the owner's user name; null when unknown
 * @param email the owner's verified, lower-cased e-mail address; null when none
 * @param roles the roles a personal token acts with; unmodifiable
 * @param serviceAccount the account of a service-account token; null for personal tokens
 * @param revokedAt null while not revoked
 * @param lastUsedAt null while never used (or not yet written back)
 */
public record AccessToken(
    UUID id,
    Type type,
    String tokenId,
    byte[] hash,
    String name,
    Instant expiresAt,
    Instant revokedAt,
    Instant lastUsedAt,
    String createdBy,
    String subject,
    String username,
    String email,
    List<String> roles,
    String serviceAccount,
    Instant createdAt,
    Instant lastUpdatedAt) {

  /** The two kinds of token, with the numbers of {@code access_tokens.token_type}. */
  public enum Type {
    PERSONAL(0, "vfps_pat_"),
    SERVICE_ACCOUNT(1, "vfps_sat_");

    private final int stored;
    private final String prefix;

    Type(int stored, String prefix) {
      this.stored = stored;
      this.prefix = prefix;
    }

    public int stored() {
      return stored;
    }

    /** What the token's text starts with. */
    public String prefix() {
      return prefix;
    }

    /** The type of a stored number; service account for any number other than 0's. */
    public static Type ofStored(int stored) {
      return stored == PERSONAL.stored ? PERSONAL : SERVICE_ACCOUNT;
    }
  }

  public AccessToken {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(tokenId, "tokenId");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(createdBy, "createdBy");
    roles = List.copyOf(roles);
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  /**
   * Who the token acts as: for a personal token its owner, a person of the OIDC provider (the table
   * keeps the owner's {@code sub} only, as the .NET vfps does, so the issuer is the provider
   * configured now); for a token of a service account that account. Empty for a token without
   * either: a personal one whose subject is missing or {@value Caller#ANONYMOUS} (vfps once wrote
   * that for every caller without {@code sub}, so it stands for nobody in particular).
   */
  public Optional<CallerId> actsAs() {
    if (serviceAccount != null) {
      return Optional.of(CallerId.serviceAccount(serviceAccount));
    }
    return type != Type.PERSONAL
            || subject == null
            || subject.isEmpty()
            || subject.equals(Caller.ANONYMOUS)
        ? Optional.empty()
        : Optional.of(CallerId.sub(subject));
  }

  /** Not revoked and not expired at {@code now}. */
  public boolean activeAt(Instant now) {
    return revokedAt == null && expiresAt.isAfter(now);
  }

  /**
   * The .NET vfps's "expires soon": active, and at most {@code warning} (but never more than a
   * quarter of the token's lifetime) from its expiry. A zero or negative warning marks nothing.
   */
  public boolean expiresSoonAt(Instant now, Duration warning) {
    if (warning.isNegative() || warning.isZero() || !activeAt(now)) {
      return false;
    }
    Duration quarter = Duration.between(createdAt, expiresAt).dividedBy(4);
    Duration window = warning.compareTo(quarter) < 0 ? warning : quarter;
    return Duration.between(now, expiresAt).compareTo(window) <= 0;
  }
}
