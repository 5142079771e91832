package org.vfps.access;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The grants, service accounts and access tokens in the .NET vfps 1.22's tables. Failures are
 * {@code ServiceException}s: {@code UNAVAILABLE} when the database cannot be reached, the codes
 * named below for rows the database refuses. Thread-safe.
 */
public interface AccessStore {

  /** Every grant and every token not revoked, read in one transaction. */
  Future<AccessSnapshot> snapshot();

  /** Every grant, or those naming this namespace (not those of every namespace), oldest first. */
  Future<List<Grant>> grants(Optional<String> namespace);

  /**
   * Stores a new grant; fails with {@code ALREADY_EXISTS} when the scope and grantee have one, and
   * with {@code NOT_FOUND} when its namespace does not exist.
   */
  Future<Grant> insertGrant(Grant grant);

  /** Sets a grant's permissions; empty when there is no such grant. */
  Future<Optional<Grant>> updateGrant(
      UUID id, boolean read, boolean write, boolean reverseLookup, Instant now);

  /** Deletes a grant; empty when there was none, else the grant deleted. */
  Future<Optional<Grant>> deleteGrant(UUID id);

  /** Every service account, by name. */
  Future<List<ServiceAccount>> serviceAccounts();

  /** Stores a new service account; fails with {@code ALREADY_EXISTS} when the name is taken. */
  Future<ServiceAccount> insertServiceAccount(ServiceAccount account);

  /**
   * Deletes the account's grants, then the account, whose tokens the foreign key deletes, in one
   * transaction; false when there was no such account.
   */
  Future<Boolean> deleteServiceAccount(String name);

  /**
   * Tokens, newest first: every one ({@code subject} and {@code serviceAccount} both empty), a
   * person's personal ones, or a service account's.
   */
  Future<List<AccessToken>> tokens(Optional<String> subject, Optional<String> serviceAccount);

  /** The token with this row id; empty when there is none. */
  Future<Optional<AccessToken>> token(UUID id);

  /** Stores a new token; fails with {@code NOT_FOUND} when its service account does not exist. */
  Future<AccessToken> insertToken(AccessToken token);

  /** Marks the token revoked at {@code now} unless it is already; empty when there is none. */
  Future<Optional<AccessToken>> revokeToken(UUID id, Instant now);

  /** Deletes the token; false when there was none. */
  Future<Boolean> deleteToken(UUID id);

  /**
   * Writes the tokens' last use, each only where it is later than the stored one; {@code
   * last_updated_at} is left as it is, as the .NET vfps leaves it.
   */
  Future<Void> recordUse(Map<UUID, Instant> lastUse);

  /** Every service-account token not revoked, expired ones included, for the expiry gauge. */
  Future<List<AccessToken>> serviceAccountTokens();
}
