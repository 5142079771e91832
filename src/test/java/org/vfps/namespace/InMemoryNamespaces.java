package org.vfps.namespace;

import io.vertx.core.Future;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Namespaces in a map, with the parent rule of the foreign key; enough for the service's contract
 * with its repository.
 */
public final class InMemoryNamespaces implements NamespaceRepository {

  private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();

  @Override
  public Future<Namespace> insert(Namespace namespace) {
    if (namespace.parentName() != null && !namespaces.containsKey(namespace.parentName())) {
      return Future.failedFuture(NamespaceFailures.parentNotFound(namespace.parentName()));
    }
    if (namespaces.putIfAbsent(namespace.name(), namespace) != null) {
      return Future.failedFuture(
          new ServiceException(ErrorCode.ALREADY_EXISTS, "exists", Map.of()));
    }
    return Future.succeededFuture(namespace);
  }

  @Override
  public Future<Boolean> insertIfAbsent(Namespace namespace) {
    return Future.succeededFuture(namespaces.putIfAbsent(namespace.name(), namespace) == null);
  }

  @Override
  public Future<Optional<Namespace>> find(String name) {
    return Future.succeededFuture(Optional.ofNullable(namespaces.get(name)));
  }

  @Override
  public Future<List<Namespace>> findPage(String after, int limit) {
    return Future.succeededFuture(
        namespaces.values().stream()
            .filter(namespace -> namespace.name().compareTo(after) > 0)
            .sorted(Comparator.comparing(Namespace::name))
            .limit(limit)
            .toList());
  }

  @Override
  public Future<List<Namespace>> findChildren(String parentName) {
    return Future.succeededFuture(
        namespaces.values().stream()
            .filter(namespace -> parentName.equals(namespace.parentName()))
            .sorted(Comparator.comparing(Namespace::name))
            .toList());
  }

  @Override
  public Future<Deletion> delete(String name) {
    if (!namespaces.containsKey(name)) {
      return Future.succeededFuture(Deletion.ABSENT);
    }
    if (namespaces.values().stream().anyMatch(child -> name.equals(child.parentName()))) {
      return Future.succeededFuture(Deletion.HAS_CHILDREN);
    }
    namespaces.remove(name);
    return Future.succeededFuture(Deletion.DELETED);
  }
}
