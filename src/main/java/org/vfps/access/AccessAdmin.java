package org.vfps.access;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.vfps.config.AuthorizationConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Managing who may do what: the database grants, the service accounts and the access tokens. Grants
 * and service accounts are for admins; a person of the OIDC provider (a caller named by {@code
 * sub}) manages their own personal tokens, an admin every token; no call made with an access token
 * creates one. Every change is written to the audit trail (never a secret) and, once committed,
 * reaches every replica's copy before the call completes. Thread-safe.
 */
public final class AccessAdmin {

  /** The longest grantee, role or e-mail address. */
  static final int MAX_GRANTEE_LENGTH = 256;

  /** Longer than any namespace name can be (256 UTF-8 bytes). */
  static final int MAX_NAMESPACE_LENGTH = 256;

  /** The longest token name, as in the .NET vfps. */
  static final int MAX_TOKEN_NAME_LENGTH = 128;

  /** The longest service-account description. */
  static final int MAX_DESCRIPTION_LENGTH = 1024;

  /** One {@code @} with text on either side and no whitespace: what an address needs to be. */
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");

  private final AccessStore store;
  private final AccessSnapshots snapshots;
  private final AccessEvents events;
  private final Access access;
  private final AuthorizationConfig.AccessTokens tokens;
  private final Clock clock;

  public AccessAdmin(
      AccessStore store,
      AccessSnapshots snapshots,
      AccessEvents events,
      Access access,
      AuthorizationConfig.AccessTokens tokens,
      Clock clock) {
    this.store = store;
    this.snapshots = snapshots;
    this.events = events;
    this.access = access;
    this.tokens = tokens;
    this.clock = clock;
  }

  /** What a new grant names and allows. */
  public record GrantRequest(
      String namespace,
      boolean allNamespaces,
      GranteeType granteeType,
      String grantee,
      boolean canRead,
      boolean canWrite,
      boolean canReverseLookup) {}

  // grants

  public Future<List<Grant>> listGrants(Caller caller, String namespace) {
    return access
        .check(caller, Operation.ACCESS_LIST_GRANTS, null)
        .compose(allowed -> storable("namespace", namespace, MAX_NAMESPACE_LENGTH))
        .compose(
            allowed ->
                store.grants(namespace.isEmpty() ? Optional.empty() : Optional.of(namespace)));
  }

  /**
   * Stores a grant: {@code INVALID_ARGUMENT} for a request that names no or both scopes, no grantee
   * type, a blank grantee, an e-mail that is no address, or no permission; {@code NOT_FOUND} for a
   * namespace or service account that does not exist; {@code ALREADY_EXISTS} when the grantee has a
   * grant of that scope.
   */
  public Future<Grant> createGrant(Caller caller, GrantRequest request) {
    Operation operation = Operation.ACCESS_CREATE_GRANT;
    return access
        .check(caller, operation, null)
        .compose(allowed -> validGrant(request))
        .compose(
            grant ->
                changed(
                    caller,
                    operation,
                    grantFields(grant),
                    serviceAccountExists(grant).compose(exists -> store.insertGrant(grant))));
  }

  /** Sets a grant's permissions; {@code NOT_FOUND} for an unknown id. */
  public Future<Grant> updateGrant(
      Caller caller, String id, boolean read, boolean write, boolean reverseLookup) {
    Operation operation = Operation.ACCESS_UPDATE_GRANT;
    return access
        .check(caller, operation, null)
        .compose(allowed -> uuid(id, "grant"))
        .compose(
            uuid -> {
              Map<String, String> fields = new LinkedHashMap<>();
              fields.put("grant", uuid.toString());
              fields.put("can_read", Boolean.toString(read));
              fields.put("can_write", Boolean.toString(write));
              fields.put("can_reverse_lookup", Boolean.toString(reverseLookup));
              return changed(
                  caller,
                  operation,
                  fields,
                  store
                      .updateGrant(uuid, read, write, reverseLookup, now())
                      .compose(updated -> found(updated, "Grant '" + id + "' not found.")));
            });
  }

  public Future<Void> deleteGrant(Caller caller, String id) {
    Operation operation = Operation.ACCESS_DELETE_GRANT;
    return access
        .check(caller, operation, null)
        .compose(allowed -> uuid(id, "grant"))
        .compose(
            uuid ->
                changed(
                    caller,
                    operation,
                    Map.of("grant", uuid.toString()),
                    store
                        .deleteGrant(uuid)
                        .compose(deleted -> found(deleted, "Grant '" + id + "' not found."))
                        .mapEmpty()));
  }

  // service accounts

  public Future<List<ServiceAccount>> listServiceAccounts(Caller caller) {
    return access
        .check(caller, Operation.ACCESS_LIST_SERVICE_ACCOUNTS, null)
        .compose(allowed -> store.serviceAccounts());
  }

  /**
   * Stores a service account whose name (trimmed, lower-cased) matches {@link ServiceAccount#NAME};
   * {@code ALREADY_EXISTS} when it is taken.
   */
  public Future<ServiceAccount> createServiceAccount(
      Caller caller, String name, String description) {
    Operation operation = Operation.ACCESS_CREATE_SERVICE_ACCOUNT;
    String normalized = name.strip().toLowerCase(Locale.ROOT);
    return access
        .check(caller, operation, null)
        .compose(
            allowed -> {
              if (!ServiceAccount.NAME.matcher(normalized).matches()) {
                return invalid(
                    "name must be 2 to 64 lower case letters, digits and hyphens, starting and"
                        + " ending with a letter or digit.");
              }
              if (description.length() > MAX_DESCRIPTION_LENGTH) {
                return invalid(
                    "description must be at most " + MAX_DESCRIPTION_LENGTH + " characters.");
              }
              if (description.indexOf('\0') >= 0) {
                return invalid("description must not contain NUL characters.");
              }
              Instant now = now();
              String text = description.strip();
              return changed(
                  caller,
                  operation,
                  Map.of("service_account", normalized),
                  store.insertServiceAccount(
                      new ServiceAccount(
                          normalized, text.isEmpty() ? null : text, caller.subject(), now, now)));
            });
  }

  /** Deletes the account with its grants and tokens; {@code NOT_FOUND} for an unknown name. */
  public Future<Void> deleteServiceAccount(Caller caller, String name) {
    Operation operation = Operation.ACCESS_DELETE_SERVICE_ACCOUNT;
    String normalized = name.strip().toLowerCase(Locale.ROOT);
    return access
        .check(caller, operation, null)
        .compose(
            allowed ->
                changed(
                    caller,
                    operation,
                    Map.of("service_account", normalized),
                    // a name no account can have names none
                    (ServiceAccount.NAME.matcher(normalized).matches()
                            ? store.deleteServiceAccount(normalized)
                            : Future.succeededFuture(false))
                        .compose(
                            deleted ->
                                deleted
                                    ? Future.succeededFuture()
                                    : notFound(
                                        "Service account '" + normalized + "' not found."))));
  }

  // tokens

  /**
   * The caller's personal tokens; with {@code all} or a service account, which only admins may ask
   * for, every token or that account's.
   */
  public Future<List<AccessToken>> listTokens(Caller caller, boolean all, String serviceAccount) {
    Operation operation = Operation.ACCESS_LIST_TOKENS;
    return tokensEnabled()
        .compose(
            enabled -> {
              if (!all && serviceAccount.isEmpty()) {
                // only people of the provider own personal tokens (see AccessToken#actsAs)
                return caller.id().issuer() == CallerId.Issuer.PROVIDER_SUB
                    ? store.tokens(Optional.of(caller.subject()), Optional.empty())
                    : Future.succeededFuture(List.of());
              }
              if (!access.isAdmin(caller)) {
                return access.deny(
                    caller, operation, "Only admins may list other callers' access tokens.");
              }
              String account = serviceAccount.strip().toLowerCase(Locale.ROOT);
              if (!account.isEmpty() && !ServiceAccount.NAME.matcher(account).matches()) {
                return Future.succeededFuture(List.of());
              }
              return store.tokens(
                  Optional.empty(), account.isEmpty() ? Optional.empty() : Optional.of(account));
            });
  }

  /** A token and its text, which is shown once. */
  public record CreatedToken(AccessToken token, AccessTokenSecret secret) {}

  /**
   * A personal token of the caller (a person signed in with the OIDC provider), or an admin's token
   * for a service account; never for a caller authenticated by an access token.
   *
   * @param lifetimeDays days until it expires; 0 for the default lifetime
   */
  public Future<CreatedToken> createToken(
      Caller caller, String name, String serviceAccount, int lifetimeDays) {
    Operation operation = Operation.ACCESS_CREATE_TOKEN;
    String account = serviceAccount.strip().toLowerCase(Locale.ROOT);
    return tokensEnabled()
        .compose(
            enabled -> {
              if (caller.byAccessToken()) {
                return access.deny(
                    caller,
                    operation,
                    "No access token can create an access token; use the sign-in of a person.");
              }
              if (account.isEmpty() && caller.id().issuer() != CallerId.Issuer.PROVIDER_SUB) {
                return access.deny(
                    caller,
                    operation,
                    "Personal access tokens are for people signed in with the OIDC provider (a"
                        + " token with a subject, sub).");
              }
              if (!account.isEmpty() && !access.isAdmin(caller)) {
                return access.deny(
                    caller, operation, "Only admins may create tokens of service accounts.");
              }
              if (!account.isEmpty() && !ServiceAccount.NAME.matcher(account).matches()) {
                return notFound("Service account '" + account + "' not found.");
              }
              String label = name.strip();
              if (label.isEmpty()) {
                return invalid("name must not be empty.");
              }
              if (label.indexOf('\0') >= 0) {
                return invalid("name must not contain NUL characters.");
              }
              if (label.length() > MAX_TOKEN_NAME_LENGTH) {
                return invalid("name must be at most " + MAX_TOKEN_NAME_LENGTH + " characters.");
              }
              Duration lifetime;
              if (lifetimeDays < 0) {
                return invalid("lifetime_days must not be negative.");
              } else if (lifetimeDays == 0) {
                lifetime = tokens.defaultLifetime();
              } else {
                lifetime = Duration.ofDays(lifetimeDays);
              }
              if (!tokens.maximumLifetime().isZero()
                  && lifetime.compareTo(tokens.maximumLifetime()) > 0) {
                return invalid(
                    "lifetime_days must be at most "
                        + tokens.maximumLifetime().toDays()
                        + " (Authorization__AccessTokens__MaximumLifetime).");
              }
              AccessTokenSecret secret =
                  AccessTokenSecret.generate(
                      account.isEmpty()
                          ? AccessToken.Type.PERSONAL
                          : AccessToken.Type.SERVICE_ACCOUNT);
              Instant now = now();
              AccessToken token =
                  new AccessToken(
                      UUID.randomUUID(),
                      secret.type(),
                      secret.tokenId(),
                      secret.hash(),
                      label,
                      now.plus(lifetime),
                      null,
                      null,
                      caller.subject(),
                      account.isEmpty() ? caller.subject() : null,
                      account.isEmpty() ? caller.username() : null,
                      account.isEmpty() ? caller.email() : null,
                      account.isEmpty() ? List.copyOf(caller.roles()) : List.of(),
                      account.isEmpty() ? null : account,
                      now,
                      now);
              return changed(
                  caller,
                  operation,
                  tokenFields(token),
                  store.insertToken(token).map(stored -> new CreatedToken(stored, secret)));
            });
  }

  /** Revokes a token: its owner or an admin; {@code NOT_FOUND} for an unknown id. */
  public Future<AccessToken> revokeToken(Caller caller, String id) {
    return changedOwnedToken(
        caller,
        Operation.ACCESS_REVOKE_TOKEN,
        id,
        token ->
            store
                .revokeToken(token.id(), now())
                .compose(revoked -> found(revoked, "Access token '" + id + "' not found.")));
  }

  /** Deletes a token: its owner or an admin; {@code NOT_FOUND} for an unknown id. */
  public Future<Void> deleteToken(Caller caller, String id) {
    return changedOwnedToken(
        caller,
        Operation.ACCESS_DELETE_TOKEN,
        id,
        token ->
            store
                .deleteToken(token.id())
                .compose(
                    deleted ->
                        deleted
                            ? Future.<Void>succeededFuture()
                            : notFound("Access token '" + id + "' not found.")));
  }

  /** Whether the token is marked "expires soon" now. */
  public boolean expiresSoon(AccessToken token) {
    return token.expiresSoonAt(clock.instant(), tokens.expiryWarningPeriod());
  }

  /**
   * Runs {@link #changed} on a token the caller may change ({@link #ownedToken}), the audit line
   * naming the token.
   */
  private <T> Future<T> changedOwnedToken(
      Caller caller, Operation operation, String id, Function<AccessToken, Future<T>> change) {
    return ownedToken(caller, operation, id)
        .compose(token -> changed(caller, operation, tokenFields(token), change.apply(token)));
  }

  private Future<AccessToken> ownedToken(Caller caller, Operation operation, String id) {
    return tokensEnabled()
        .compose(enabled -> uuid(id, "access token"))
        .compose(store::token)
        .compose(found -> found(found, "Access token '" + id + "' not found."))
        .compose(
            token -> {
              boolean owner =
                  token.type() == AccessToken.Type.PERSONAL
                      && token.actsAs().filter(caller.id()::equals).isPresent();
              if (owner || access.isAdmin(caller)) {
                return Future.succeededFuture(token);
              }
              // the same words as for a token that does not exist: ids of others' tokens stay
              // secret
              return access
                  .deny(caller, operation, "Access token '" + id + "' not found.")
                  .transform(
                      denied ->
                          Future.failedFuture(
                              new ServiceException(
                                  ErrorCode.NOT_FOUND, "Access token '" + id + "' not found.")));
            });
  }

  private Future<Void> tokensEnabled() {
    return tokens.enabled()
        ? Future.succeededFuture()
        : Future.failedFuture(
            new ServiceException(
                ErrorCode.FAILED_PRECONDITION,
                "Access tokens are not enabled (Authorization__AccessTokens__IsEnabled)."));
  }

  /**
   * Runs a change: once {@code change} is committed, drops this replica's copy and tells every
   * other replica, then completes; writes the audit line either way.
   */
  private <T> Future<T> changed(
      Caller caller, Operation operation, Map<String, String> what, Future<T> change) {
    return change
        .compose(
            done -> {
              snapshots.invalidate();
              return events.changed().map(done);
            })
        .andThen(
            done ->
                access
                    .audit()
                    .changed(caller, operation, done.failed() ? done.cause() : null, what));
  }

  private Future<Grant> validGrant(GrantRequest request) {
    boolean named = request.namespace() != null && !request.namespace().isEmpty();
    if (named == request.allNamespaces()) {
      return invalid("Exactly one of namespace and all_namespaces must be set.");
    }
    if (request.granteeType() == null) {
      return invalid(
          "grantee_type must be GRANTEE_TYPE_ROLE, GRANTEE_TYPE_EMAIL or"
              + " GRANTEE_TYPE_SERVICE_ACCOUNT.");
    }
    String grantee = request.grantee() == null ? "" : request.grantee().strip();
    if (request.granteeType() != GranteeType.ROLE) {
      grantee = grantee.toLowerCase(Locale.ROOT);
    }
    if (grantee.isEmpty()) {
      return invalid("grantee must not be empty.");
    }
    if (grantee.length() > MAX_GRANTEE_LENGTH) {
      return invalid("grantee must be at most " + MAX_GRANTEE_LENGTH + " characters.");
    }
    if (grantee.indexOf('\0') >= 0) {
      return invalid("grantee must not contain NUL characters.");
    }
    if (named
        && (request.namespace().indexOf('\0') >= 0
            || request.namespace().length() > MAX_NAMESPACE_LENGTH)) {
      // no namespace can have such a name
      return notFound("Namespace '" + request.namespace() + "' not found.");
    }
    if (request.granteeType() == GranteeType.EMAIL && !EMAIL.matcher(grantee).matches()) {
      return invalid("grantee is not an e-mail address.");
    }
    if (request.granteeType() == GranteeType.SERVICE_ACCOUNT
        && !ServiceAccount.NAME.matcher(grantee).matches()) {
      return invalid("grantee is not a service account's name.");
    }
    if (!request.canRead() && !request.canWrite() && !request.canReverseLookup()) {
      return invalid("A grant needs at least one of can_read, can_write and can_reverse_lookup.");
    }
    Instant now = now();
    return Future.succeededFuture(
        new Grant(
            UUID.randomUUID(),
            named ? request.namespace() : null,
            request.granteeType(),
            grantee,
            request.canRead(),
            request.canWrite(),
            request.canReverseLookup(),
            now,
            now));
  }

  /** A service-account grant names an account that exists. */
  private Future<Void> serviceAccountExists(Grant grant) {
    if (grant.granteeType() != GranteeType.SERVICE_ACCOUNT) {
      return Future.succeededFuture();
    }
    return store
        .serviceAccounts()
        .compose(
            accounts ->
                accounts.stream().anyMatch(account -> account.name().equals(grant.grantee()))
                    ? Future.succeededFuture()
                    : notFound("Service account '" + grant.grantee() + "' not found."));
  }

  /** Fails with {@code INVALID_ARGUMENT} for text no row can hold (NUL, or too long). */
  private static Future<Void> storable(String field, String value, int maxLength) {
    if (value.indexOf('\0') >= 0) {
      return invalid(field + " must not contain NUL characters.");
    }
    if (value.length() > maxLength) {
      return invalid(field + " must be at most " + maxLength + " characters.");
    }
    return Future.succeededFuture();
  }

  private static Map<String, String> grantFields(Grant grant) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("grant", grant.id().toString());
    fields.put("namespace", grant.allNamespaces() ? "*" : grant.namespace());
    fields.put("grantee_type", grant.granteeType().name());
    fields.put("grantee", grant.grantee());
    fields.put("can_read", Boolean.toString(grant.canRead()));
    fields.put("can_write", Boolean.toString(grant.canWrite()));
    fields.put("can_reverse_lookup", Boolean.toString(grant.canReverseLookup()));
    return fields;
  }

  private static Map<String, String> tokenFields(AccessToken token) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("token_id", token.tokenId());
    fields.put("token_type", token.type().name());
    if (token.serviceAccount() != null) {
      fields.put("service_account", token.serviceAccount());
    } else if (token.subject() != null) {
      fields.put("owner", token.subject());
    }
    return fields;
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static Future<UUID> uuid(String id, String what) {
    try {
      if (id.length() != 36) {
        throw new IllegalArgumentException(id);
      }
      return Future.succeededFuture(UUID.fromString(id));
    } catch (IllegalArgumentException e) {
      return invalid("'" + id + "' is not the id of a " + what + " (a UUID).");
    }
  }

  private static <T> Future<T> found(Optional<T> found, String message) {
    return found.map(Future::succeededFuture).orElseGet(() -> notFound(message));
  }

  private static <T> Future<T> invalid(String message) {
    return Future.failedFuture(new ServiceException(ErrorCode.INVALID_ARGUMENT, message));
  }

  private static <T> Future<T> notFound(String message) {
    return Future.failedFuture(new ServiceException(ErrorCode.NOT_FOUND, message));
  }
}
