package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
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
 * against its slow hash (PBKDF2) once, on one worker thread, and from then on by a fast digest
 * (SHA-256 of the account's salt and the secret) compared in constant time. Concurrent first checks
 * of the same secret share one slow check; at most {@link #MAX_SLOW_CHECKS} slow checks wait at a
 * time, further ones are answered {@code UNAVAILABLE} at once, so wrong secrets cannot queue
 * unbounded work. Thread-safe.
 */
final class ClientAccounts {

  /** The most slow checks running or waiting at a time. */
  static final int MAX_SLOW_CHECKS = 16;

  private final Map<String, Account> accounts = new HashMap<>();
  private final WorkerExecutor worker;
  private final Map<String, Future<Boolean>> checking = new HashMap<>();

  ClientAccounts(Vertx vertx, List<ClientAccount> configured) {
    for (ClientAccount account : configured) {
      accounts.put(account.id(), new Account(account));
    }
    this.worker = vertx.createSharedWorkerExecutor("vfps-secret-checks", 1);
  }

  boolean isEmpty() {
    return accounts.isEmpty();
  }

  /**
   * The account of the Basic credentials ({@code credentials} is what follows {@code Basic });
   * fails with {@code UNAUTHENTICATED} when they are malformed, name no account or hold the wrong
   * secret.
   */
  Future<Identity> check(String credentials) {
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
    Account account = accounts.get(decoded.substring(0, colon));
    String secret = decoded.substring(colon + 1);
    if (account == null || secret.isEmpty()) {
      return Future.failedFuture(invalid());
    }
    byte[] digest = account.digest(secret);
    if (account.isVerified(digest)) {
      return Future.succeededFuture(account.identity);
    }
    return slowCheck(account, secret, digest)
        .compose(
            matches -> {
              if (!matches) {
                return Future.failedFuture(invalid());
              }
              account.verified(digest);
              return Future.succeededFuture(account.identity);
            });
  }

  private Future<Boolean> slowCheck(Account account, String secret, byte[] digest) {
    String key = account.identity.id().subject() + ":" + Base64.getEncoder().encodeToString(digest);
    synchronized (checking) {
      Future<Boolean> running = checking.get(key);
      if (running != null) {
        return running;
      }
      if (checking.size() >= MAX_SLOW_CHECKS) {
        return Future.failedFuture(
            new ServiceException(
                ErrorCode.UNAVAILABLE,
                "Too many client credentials are being checked; try again shortly."));
      }
      Future<Boolean> started =
          worker
              .executeBlocking(() -> account.matches(secret), false)
              .andThen(
                  done -> {
                    synchronized (checking) {
                      checking.remove(key);
                    }
                  });
      if (!started.isComplete()) {
        checking.put(key, started);
      }
      return started;
    }
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
