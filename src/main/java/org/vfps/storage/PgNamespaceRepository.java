package org.vfps.storage;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceRepository;

/** Namespaces in the {@code namespaces} table. Thread-safe. */
public final class PgNamespaceRepository implements NamespaceRepository {

  private final Pool pool;
  private final ThreadLocal<NamespaceLookups> lookups;

  public PgNamespaceRepository(Pool pool) {
    this.pool = pool;
    this.lookups = ThreadLocal.withInitial(() -> new NamespaceLookups(pool));
  }

  @Override
  public Future<Namespace> insert(Namespace namespace) {
    return pool.preparedQuery(NamespaceQueries.INSERT)
        .execute(toTuple(namespace))
        .<Namespace>map(rows -> namespace)
        .recover(
            failure ->
                Future.failedFuture(
                    PgFailures.violates(failure, PgFailures.UNIQUE_VIOLATION, "pk_namespaces")
                        ? alreadyExists(namespace.name())
                        : PgFailures.translate(failure, metadata(namespace.name()))));
  }

  @Override
  public Future<Boolean> insertIfAbsent(Namespace namespace) {
    return pool.preparedQuery(NamespaceQueries.INSERT_IF_ABSENT)
        .execute(toTuple(namespace))
        .map(rows -> rows.rowCount() == 1)
        .recover(failure -> failed(failure, namespace.name()));
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
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(toNamespace(rows.iterator().next())));
  }

  @Override
  public Future<List<Namespace>> findPage(String after, int limit) {
    return pool.preparedQuery(NamespaceQueries.FIND_PAGE)
        .execute(Tuple.of(after, limit))
        .recover(failure -> failed(failure, null))
        .map(
            rows -> {
              List<Namespace> namespaces = new java.util.ArrayList<>(rows.size());
              rows.forEach(row -> namespaces.add(toNamespace(row)));
              return List.copyOf(namespaces);
            });
  }

  @Override
  public Future<Boolean> delete(String name) {
    return pool.preparedQuery(NamespaceQueries.DELETE)
        .execute(Tuple.of(name))
        .map(rows -> rows.rowCount() > 0)
        .recover(failure -> failed(failure, name));
  }

  private static Tuple toTuple(Namespace namespace) {
    return Tuple.of(
        namespace.name(),
        namespace.description(),
        namespace.generationMethod().number(),
        namespace.pseudonymLength(),
        namespace.pseudonymPrefix(),
        namespace.pseudonymSuffix(),
        OffsetDateTime.ofInstant(namespace.createdAt(), ZoneOffset.UTC),
        OffsetDateTime.ofInstant(namespace.lastUpdatedAt(), ZoneOffset.UTC));
  }

  /** Maps a row; NULL description, prefix and suffix (left by the .NET service) read as "". */
  static Namespace toNamespace(Row row) {
    String name = row.getString("name");
    int methodNumber = row.getInteger("pseudonym_generation_method");
    GenerationMethod method =
        GenerationMethod.fromNumber(methodNumber)
            .orElseThrow(
                () ->
                    new ServiceException(
                        ErrorCode.INTERNAL,
                        "The namespace has a generation method this version does not know.",
                        metadata(name)));
    return new Namespace(
        name,
        Objects.requireNonNullElse(row.getString("description"), ""),
        method,
        row.getLong("pseudonym_length"),
        Objects.requireNonNullElse(row.getString("pseudonym_prefix"), ""),
        Objects.requireNonNullElse(row.getString("pseudonym_suffix"), ""),
        row.getOffsetDateTime("created_at").toInstant(),
        row.getOffsetDateTime("last_updated_at").toInstant());
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
