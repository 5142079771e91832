package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import org.vfps.access.AccessSnapshot;
import org.vfps.access.AccessStore;
import org.vfps.access.AccessToken;
import org.vfps.access.Grant;
import org.vfps.access.GranteeType;
import org.vfps.access.ServiceAccount;
import org.vfps.cache.Invalidation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Grants, service accounts and access tokens in the .NET vfps 1.22's tables, written as it writes
 * them (its column values, enum numbers and JSON), so that either service reads the other's rows.
 * Thread-safe.
 */
public final class PgAccessStore implements AccessStore {

  private final Pool pool;

  PgAccessStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * Runs a change of grants, service accounts or tokens in one transaction with its entry of the
   * cache invalidation log, appended when {@code changedSomething} says the result changed
   * something.
   */
  private <T> Future<T> logged(
      Function<SqlConnection, Future<T>> change, Predicate<T> changedSomething) {
    return pool.withTransaction(
        transaction ->
            change
                .apply(transaction)
                .compose(
                    result ->
                        changedSomething.test(result)
                            ? PgInvalidationLog.append(
                                    transaction, Invalidation.Kind.ACCESS, null, null)
                                .map(result)
                            : Future.succeededFuture(result)));
  }

  /** {@link #logged} with one statement, its rows read by {@code result}. */
  private <T> Future<T> loggedStatement(
      String sql, Tuple arguments, Function<RowSet<Row>, T> result, Predicate<T> changedSomething) {
    return logged(
        transaction -> transaction.preparedQuery(sql).execute(arguments).map(result),
        changedSomething);
  }

  /** {@link #logged} with one insert, which answers {@code inserted} and always changes. */
  private <T> Future<T> loggedInsert(String sql, Tuple arguments, T inserted) {
    return loggedStatement(sql, arguments, rows -> inserted, always -> true);
  }

  @Override
  public Future<AccessSnapshot> snapshot() {
    return pool.withTransaction(
            connection ->
                connection
                    .query(AccessQueries.GRANTS)
                    .execute()
                    .compose(
                        grants ->
                            connection
                                .query(AccessQueries.ACTIVE_TOKENS)
                                .execute()
                                .map(tokens -> new AccessSnapshot(grants(grants), tokens(tokens)))))
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<List<Grant>> grants(Optional<String> namespace) {
    Future<RowSet<Row>> rows =
        namespace.isPresent()
            ? pool.preparedQuery(AccessQueries.GRANTS_OF_NAMESPACE)
                .execute(Tuple.of(namespace.get()))
            : pool.query(AccessQueries.ALL_GRANTS).execute();
    return rows.map(PgAccessStore::grants).recover(PgAccessStore::failed);
  }

  @Override
  public Future<Grant> insertGrant(Grant grant) {
    return loggedInsert(
            AccessQueries.INSERT_GRANT,
            Tuple.of(
                    grant.id(),
                    grant.namespace(),
                    grant.granteeType().stored(),
                    grant.grantee(),
                    grant.canRead(),
                    grant.canWrite(),
                    grant.canReverseLookup())
                .addValue(time(grant.createdAt()))
                .addValue(time(grant.lastUpdatedAt())),
            grant)
        .recover(
            failure -> {
              if (PgFailures.violates(
                      failure, PgFailures.UNIQUE_VIOLATION, AccessQueries.GLOBAL_GRANTEE_INDEX)
                  || PgFailures.violates(
                      failure,
                      PgFailures.UNIQUE_VIOLATION,
                      AccessQueries.NAMESPACE_GRANTEE_INDEX)) {
                return Future.failedFuture(
                    new ServiceException(
                        ErrorCode.ALREADY_EXISTS,
                        "The grantee has a grant of "
                            + (grant.allNamespaces()
                                ? "all namespaces"
                                : "namespace '" + grant.namespace() + "'")
                            + " already; update that one."));
              }
              if (PgFailures.violates(
                  failure,
                  PgFailures.FOREIGN_KEY_VIOLATION,
                  AccessQueries.GRANT_NAMESPACE_FOREIGN_KEY)) {
                return Future.failedFuture(
                    new ServiceException(
                        ErrorCode.NOT_FOUND,
                        "Namespace '" + grant.namespace() + "' not found.",
                        Map.of("namespace", grant.namespace())));
              }
              return failed(failure);
            });
  }

  @Override
  public Future<Optional<Grant>> updateGrant(
      UUID id, boolean read, boolean write, boolean reverseLookup, Instant now) {
    return loggedStatement(
            AccessQueries.UPDATE_GRANT,
            Tuple.of(id, read, write, reverseLookup, time(now)),
            PgAccessStore::firstGrant,
            Optional::isPresent)
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<Optional<Grant>> deleteGrant(UUID id) {
    return loggedStatement(
            AccessQueries.DELETE_GRANT,
            Tuple.of(id),
            PgAccessStore::firstGrant,
            Optional::isPresent)
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<List<ServiceAccount>> serviceAccounts() {
    return pool.query(AccessQueries.SERVICE_ACCOUNTS)
        .execute()
        .map(
            rows -> {
              List<ServiceAccount> accounts = new ArrayList<>();
              for (Row row : rows) {
                accounts.add(
                    new ServiceAccount(
                        row.getString("name"),
                        row.getString("description"),
                        row.getString("created_by"),
                        instant(row, "created_at"),
                        instant(row, "last_updated_at")));
              }
              return accounts;
            })
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<ServiceAccount> insertServiceAccount(ServiceAccount account) {
    return loggedInsert(
            AccessQueries.INSERT_SERVICE_ACCOUNT,
            Tuple.of(
                account.name(),
                account.description(),
                account.createdBy(),
                time(account.createdAt()),
                time(account.lastUpdatedAt())),
            account)
        .recover(
            failure ->
                PgFailures.violates(
                        failure, PgFailures.UNIQUE_VIOLATION, AccessQueries.SERVICE_ACCOUNT_KEY)
                    ? Future.failedFuture(
                        new ServiceException(
                            ErrorCode.ALREADY_EXISTS,
                            "Service account '" + account.name() + "' already exists."))
                    : failed(failure));
  }

  @Override
  public Future<Boolean> deleteServiceAccount(String name) {
    return logged(
            connection ->
                connection
                    .preparedQuery(AccessQueries.DELETE_SERVICE_ACCOUNT_GRANTS)
                    .execute(Tuple.of(GranteeType.SERVICE_ACCOUNT.stored(), name))
                    .compose(
                        grants ->
                            connection
                                .preparedQuery(AccessQueries.DELETE_SERVICE_ACCOUNT)
                                .execute(Tuple.of(name)))
                    .map(deleted -> deleted.rowCount() == 1),
            deleted -> deleted)
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<List<AccessToken>> tokens(
      Optional<String> subject, Optional<String> serviceAccount) {
    Future<RowSet<Row>> rows;
    if (subject.isPresent()) {
      rows = pool.preparedQuery(AccessQueries.TOKENS_OF_SUBJECT).execute(Tuple.of(subject.get()));
    } else if (serviceAccount.isPresent()) {
      rows =
          pool.preparedQuery(AccessQueries.TOKENS_OF_SERVICE_ACCOUNT)
              .execute(Tuple.of(serviceAccount.get()));
    } else {
      rows = pool.query(AccessQueries.ALL_TOKENS).execute();
    }
    return rows.map(PgAccessStore::tokens).recover(PgAccessStore::failed);
  }

  @Override
  public Future<Optional<AccessToken>> token(UUID id) {
    return pool.preparedQuery(AccessQueries.TOKEN)
        .execute(Tuple.of(id))
        .map(rows -> tokens(rows).stream().findFirst())
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<AccessToken> insertToken(AccessToken token) {
    return loggedInsert(
            AccessQueries.INSERT_TOKEN,
            Tuple.tuple()
                .addValue(token.id())
                .addValue(token.type().stored())
                .addValue(token.tokenId())
                .addValue(Buffer.buffer(token.hash()))
                .addValue(token.name())
                .addValue(time(token.expiresAt()))
                .addValue(time(token.revokedAt()))
                .addValue(time(token.lastUsedAt()))
                .addValue(token.createdBy())
                .addValue(token.subject())
                .addValue(token.username())
                .addValue(token.email())
                .addValue(new JsonArray(List.copyOf(token.roles())))
                .addValue(token.serviceAccount())
                .addValue(time(token.createdAt()))
                .addValue(time(token.lastUpdatedAt())),
            token)
        .recover(
            failure ->
                PgFailures.violates(
                        failure,
                        PgFailures.FOREIGN_KEY_VIOLATION,
                        AccessQueries.TOKEN_SERVICE_ACCOUNT_FOREIGN_KEY)
                    ? Future.failedFuture(
                        new ServiceException(
                            ErrorCode.NOT_FOUND,
                            "Service account '" + token.serviceAccount() + "' not found."))
                    : failed(failure));
  }

  @Override
  public Future<Optional<AccessToken>> revokeToken(UUID id, Instant now) {
    return loggedStatement(
            AccessQueries.REVOKE_TOKEN,
            Tuple.of(id, time(now)),
            revoked -> revoked.rowCount() > 0,
            revoked -> revoked)
        .compose(revoked -> token(id))
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<Boolean> deleteToken(UUID id) {
    return loggedStatement(
            AccessQueries.DELETE_TOKEN,
            Tuple.of(id),
            deleted -> deleted.rowCount() == 1,
            deleted -> deleted)
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<Void> recordUse(Map<UUID, Instant> lastUse) {
    if (lastUse.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Tuple> batch = new ArrayList<>();
    lastUse.forEach((id, used) -> batch.add(Tuple.of(id, time(used))));
    return pool.preparedQuery(AccessQueries.RECORD_USE)
        .executeBatch(batch)
        .<Void>mapEmpty()
        .recover(PgAccessStore::failed);
  }

  @Override
  public Future<List<AccessToken>> serviceAccountTokens() {
    return pool.query(AccessQueries.SERVICE_ACCOUNT_TOKENS)
        .execute()
        .map(PgAccessStore::tokens)
        .recover(PgAccessStore::failed);
  }

  /** The grants of the rows; a row of a grantee type no release writes is left out. */
  private static List<Grant> grants(RowSet<Row> rows) {
    List<Grant> grants = new ArrayList<>();
    for (Row row : rows) {
      Optional<GranteeType> type = GranteeType.ofStored(row.getInteger("grantee_type"));
      if (type.isEmpty()) {
        continue;
      }
      grants.add(
          new Grant(
              row.getUUID("id"),
              row.getString("namespace_name"),
              type.get(),
              row.getString("grantee"),
              row.getBoolean("can_read"),
              row.getBoolean("can_write"),
              row.getBoolean("can_reverse_lookup"),
              instant(row, "created_at"),
              instant(row, "last_updated_at")));
    }
    return grants;
  }

  private static Optional<Grant> firstGrant(RowSet<Row> rows) {
    return grants(rows).stream().findFirst();
  }

  private static List<AccessToken> tokens(RowSet<Row> rows) {
    List<AccessToken> tokens = new ArrayList<>();
    for (Row row : rows) {
      tokens.add(
          new AccessToken(
              row.getUUID("id"),
              AccessToken.Type.ofStored(row.getInteger("token_type")),
              row.getString("token_id"),
              row.getBuffer("token_hash").getBytes(),
              row.getString("name"),
              instant(row, "expires_at"),
              instant(row, "revoked_at"),
              instant(row, "last_used_at"),
              row.getString("created_by"),
              row.getString("subject"),
              row.getString("username"),
              row.getString("email"),
              roles(row.getValue("roles")),
              row.getString("service_account_name"),
              instant(row, "created_at"),
              instant(row, "last_updated_at")));
    }
    return tokens;
  }

  /** The roles of the jsonb column: an array of strings; anything else holds none. */
  private static List<String> roles(Object json) {
    Object value = json;
    if (value instanceof String text) {
      try {
        value = new JsonArray(text);
      } catch (RuntimeException e) {
        return List.of();
      }
    }
    List<String> roles = new ArrayList<>();
    if (value instanceof JsonArray array) {
      for (Object role : array) {
        if (role instanceof String name) {
          roles.add(name);
        }
      }
    }
    return roles;
  }

  private static Instant instant(Row row, String column) {
    OffsetDateTime time = row.getOffsetDateTime(column);
    return time == null ? null : time.toInstant();
  }

  private static OffsetDateTime time(Instant instant) {
    return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static <T> Future<T> failed(Throwable failure) {
    return Future.failedFuture(PgFailures.translate(failure, Map.of()));
  }
}
