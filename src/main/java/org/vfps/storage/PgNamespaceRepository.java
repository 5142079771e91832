package org.vfps.storage;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.cache.Invalidation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceFailures;
import org.vfps.namespace.NamespaceRepository;

/** Namespaces in the {@code namespaces} table. Thread-safe. */
public final class PgNamespaceRepository implements NamespaceRepository {

  private final Pool pool;
  private final NamespaceRows rows = new NamespaceRows();
  private final ThreadLocal<NamespaceLookups> lookups;

  private final byte[] sealingKeyCheck;

  /**
   * @param sealingKeyCheck the check value of the index key that seals the namespaces it creates
   *     ({@code Sealing__KeyFile}), or null: they are plain
   */
  public PgNamespaceRepository(Pool pool, byte[] sealingKeyCheck) {
    this.pool = pool;
    this.sealingKeyCheck = sealingKeyCheck;
    this.lookups = ThreadLocal.withInitial(() -> new NamespaceLookups(pool, rows));
  }

  @Override
  public Future<Namespace> insert(Namespace namespace) {
    return inserted(NamespaceQueries.INSERT, namespace)
        .<Namespace>map(inserted -> namespace)
        .recover(failure -> Future.failedFuture(insertFailure(failure, namespace)));
  }

  @Override
  public Future<Boolean> insertIfAbsent(Namespace namespace) {
    return inserted(NamespaceQueries.INSERT_IF_ABSENT, namespace)
        .recover(failure -> Future.failedFuture(insertFailure(failure, namespace)));
  }

  /**
   * Runs the insert in a transaction that first holds the inserts of pseudonyms back ({@link
   * NamespaceQueries#HOLD_PSEUDONYM_WRITES}); yields whether it inserted the row.
   */
  private Future<Boolean> inserted(String insert, Namespace namespace) {
    return pool.withTransaction(
        transaction ->
            transaction
                .query(NamespaceQueries.HOLD_PSEUDONYM_WRITES)
                .execute()
                .compose(held -> transaction.preparedQuery(insert).execute(toTuple(namespace)))
                .compose(
                    rows ->
                        rows.rowCount() == 1 && namespace.alphabetFormat() != null
                            ? transaction
                                .preparedQuery(NamespaceQueries.INSERT_FORMAT)
                                .execute(formatTuple(namespace))
                            : Future.succeededFuture(rows))
                .compose(
                    rows ->
                        rows.rowCount() == 1 && sealingKeyCheck != null
                            ? transaction
                                .preparedQuery(NamespaceQueries.INSERT_SEALED)
                                .execute(Tuple.of(namespace.name(), Buffer.buffer(sealingKeyCheck)))
                            : Future.succeededFuture(rows))
                .map(rows -> rows.rowCount() == 1));
  }

  private static Tuple formatTuple(Namespace namespace) {
    AlphabetFormat format = namespace.alphabetFormat();
    return Tuple.of(
        namespace.name(),
        format.alphabet().symbols(),
        format.checkDigitKind().number(),
        format.grouping().size(),
        format.grouping().delimiter());
  }

  /** A taken name, a parent deleted since it was looked up, or a failure of the database. */
  private static ServiceException insertFailure(Throwable failure, Namespace namespace) {
    if (PgFailures.violates(failure, PgFailures.UNIQUE_VIOLATION, "pk_namespaces")) {
      return alreadyExists(namespace.name());
    }
    if (PgFailures.violates(
        failure, PgFailures.FOREIGN_KEY_VIOLATION, NamespaceQueries.PARENT_FOREIGN_KEY)) {
      return NamespaceFailures.parentNotFound(namespace.parentName());
    }
    return PgFailures.translate(failure, metadata(namespace.name()));
  }

  /** On an event loop, the lookup joins that loop's {@link NamespaceLookups}. */
  @Override
  public Future<Optional<Namespace>> find(String name) {
    if (Context.isOnEventLoopThread()) {
      return lookups.get().find(name);
    }
    return pool.preparedQuery(NamespaceQueries.FIND)
        .execute(Tuple.of(name))
        .recover(failure -> failed(failure, name))
        .map(
            found ->
                found.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.toNamespace(found.iterator().next())));
  }

  @Override
  public Future<List<Namespace>> findPage(String after, int limit) {
    return pool.preparedQuery(NamespaceQueries.FIND_PAGE)
        .execute(Tuple.of(after, limit))
        .recover(failure -> failed(failure, null))
        .map(this::toNamespaces);
  }

  @Override
  public Future<List<Namespace>> findChildren(String parentName) {
    return pool.preparedQuery(NamespaceQueries.FIND_CHILDREN)
        .execute(Tuple.of(parentName))
        .recover(failure -> failed(failure, parentName))
        .map(this::toNamespaces);
  }

  private List<Namespace> toNamespaces(RowSet<Row> found) {
    List<Namespace> namespaces = new ArrayList<>(found.size());
    found.forEach(row -> namespaces.add(rows.toNamespace(row)));
    return List.copyOf(namespaces);
  }

  /**
   * One transaction: the delete (its pseudonyms and grants go with it by the foreign keys' cascade)
   * and, when it deleted a namespace, the entry of the cache invalidation log.
   */
  @Override
  public Future<Deletion> delete(String name) {
    return pool.withTransaction(
            transaction ->
                transaction
                    .preparedQuery(NamespaceQueries.DELETE)
                    .execute(Tuple.of(name))
                    .compose(
                        deleted ->
                            deleted.rowCount() == 0
                                ? Future.succeededFuture(Deletion.ABSENT)
                                : PgInvalidationLog.append(
                                        transaction, Invalidation.Kind.NAMESPACE, name, null)
                                    .map(Deletion.DELETED)))
        .recover(
            failure ->
                PgFailures.violates(
                        failure,
                        PgFailures.FOREIGN_KEY_VIOLATION,
                        NamespaceQueries.PARENT_FOREIGN_KEY)
                    ? Future.succeededFuture(Deletion.HAS_CHILDREN)
                    : failed(failure, name));
  }

  private static Tuple toTuple(Namespace namespace) {
    return Tuple.from(
        new Object[] {
          namespace.name(),
          namespace.description(),
          namespace.generationMethod().number(),
          namespace.pseudonymLength(),
          namespace.pseudonymPrefix(),
          namespace.pseudonymSuffix(),
          namespace.originalValueRegex().text(),
          namespace.allowsMultiplePseudonyms(),
          namespace.parentName(),
          namespace.parentValidationMode().number(),
          OffsetDateTime.ofInstant(namespace.createdAt(), ZoneOffset.UTC),
          OffsetDateTime.ofInstant(namespace.lastUpdatedAt(), ZoneOffset.UTC)
        });
  }

  private static ServiceException alreadyExists(String name) {
    return new ServiceException(
        ErrorCode.ALREADY_EXISTS,
        "A namespace named '"
            + name
            + "' already exists. Namespaces are immutable: delete it and create it again to"
            + " change its settings.",
        metadata(name));
  }

  private static <T> Future<T> failed(Throwable failure, String name) {
    return Future.failedFuture(PgFailures.translate(failure, metadata(name)));
  }

  private static Map<String, String> metadata(String name) {
    return name == null ? Map.of() : Map.of("namespace", name);
  }
}
