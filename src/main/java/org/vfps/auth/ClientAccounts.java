package org.vfps.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.vfps.config.AuthorizationConfig.ClientAccount;
import org.vfps.config.SecretHash;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.text.StrictDecoding;

/**
 * Checks {@code Authorization: Basic} credentials against the client accounts. A secret is checked
 * against its slow hash (PBKDF2) once, by {@link SlowChecks}, which share one worker thread fairly
 * between accounts and client addresses, and from then on by a fast digest (SHA-256 of the
 * account's salt and the secret) compared in constant time. A refused digest is remembered too (at
 * most {@link #MAX_REFUSED}), so that a wrong secret sent again costs no slow check. Thread-safe.
 */
final class ClientAccounts {

  /** The most refused digests remembered. */
  static final int MAX_REFUSED = 4096;

  private final Map<String, Account> accounts = new HashMap<>();
  private final SlowChecks slowChecks;
  private final Cache<String, Boolean> refused =
      Caffeine.newBuilder().maximumSize(MAX_REFUSED).build();

  ClientAccounts(Vertx vertx, List<ClientAccount> configured) {
    for (ClientAccount account : configured) {
      accounts.put(account.id(), new Account(account));
    }
    this.slowChecks = new SlowChecks(vertx);
  }

  boolean isEmpty() {
    return accounts.isEmpty();
  }

  /**
   * The account of the Basic credentials ({@code credentials} is what follows {@code Basic });
   * fails with {@code UNAUTHENTICATED} when they are malformed, name no account or hold the wrong
   * secret, and with {@code UNAVAILABLE} when a secret not checked yet finds no place to wait.
   *
   * @param clientAddress where the request came from, whose checks wait in a queue of their own
   */
  Future<Identity> check(String credentials, String clientAddress) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(credentials.strip());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(invalid());
    }
    Optional<String> text = StrictDecoding.decode(bytes, StandardCharsets.UTF_8);
    if (text.isEmpty()) {
      return Future.failedFuture(invalid());
    }
    String decoded = text.get();
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return Future.failedFuture(invalid());
    }
    String id = decoded.substring(0, colon);
    Account account = accounts.get(id);
    String secret = decoded.substring(colon + 1);
    if (account == null || secret.isEmpty()) {
      return Future.failedFuture(invalid());
    }
    byte[] digest = account.digest(secret);
    if (account.isVerified(digest)) {
      return Future.succeededFuture(account.identity);
    }
    String key = id + ":" + Base64.getEncoder().encodeToString(digest);
    if (refused.getIfPresent(key) != null) {
      return Future.failedFuture(invalid());
    }
    return slowChecks
        .check(id, clientAddress, key, () -> account.matches(secret))
        .compose(
            matches -> {
              if (!matches) {
                refused.put(key, Boolean.TRUE);
                return Future.failedFuture(invalid());
              }
              account.verified(digest);
              return Future.succeededFuture(account.identity);
            });
  }

  private static ServiceException invalid() {
    // the same words whatever was wrong, so that they do not tell which client ids exist
    return new ServiceException(ErrorCode.UNAUTHENTICATED, "The Basic credentials are not valid.");
  }

  /** An account and the digest of its secret once a slow check confirmed it. */
  private static final class Account {

    private final Identity identity;
    private final SecretHash hash;
    private final byte[] salt;
    private volatile byte[] verifiedDigest;

    Account(ClientAccount account) {
      this.identity = Identity.clientAccount(account.id(), Set.copyOf(account.roles()));
      this.hash = account.secretHash();
      this.salt = hash.salt();
    }

    byte[] digest(String secret) {
      try {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        sha256.update(salt);
        return sha256.digest(secret.getBytes(StandardCharsets.UTF_8));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JDK has SHA-256", e);
      }
    }

    boolean isVerified(byte[] digest) {
      byte[] verified = verifiedDigest;
      return verified != null && MessageDigest.isEqual(verified, digest);
    }

    void verified(byte[] digest) {
      verifiedDigest = digest;
    }

    boolean matches(String secret) {
      char[] chars = secret.toCharArray();
      try {
        return SecretHashing.matches(hash, chars);
      } finally {
        Arrays.fill(chars, '\0');
      }
    }
  }
}
