package org.vfps.namespace;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;

/**
 * Where namespaces are stored. Futures fail with {@link org.vfps.error.ServiceException}: {@code
 * UNAVAILABLE} while the database cannot be reached, {@code INTERNAL} otherwise.
 */
public interface NamespaceRepository {

  /**
   * Stores a new namespace; fails with {@code ALREADY_EXISTS} if the name is taken, with {@code
   * NOT_FOUND} ({@link NamespaceFailures#parentNotFound}) if its parent does not exist.
   */
  Future<Namespace> insert(Namespace namespace);

  /** Stores the namespace unless one of that name exists; yields whether it was stored. */
  Future<Boolean> insertIfAbsent(Namespace namespace);

  Future<Optional<Namespace>> find(String name);

  /**
   * At most {@code limit} namespaces whose names sort after {@code after} (in PostgreSQL's text
   * order), in that order; {@code ""} starts at the first.
   */
  Future<List<Namespace>> findPage(String after, int limit);

  /**
   * The namespaces whose parent is {@code parentName} (not their children), in PostgreSQL's text
   * order of their names.
   */
  Future<List<Namespace>> findChildren(String parentName);

  /** What a {@link #delete} did. */
  enum Deletion {
    /** The namespace and, by cascade, its pseudonyms are gone. */
    DELETED,
    /** There was no such namespace. */
    ABSENT,
    /** Other namespaces name it as their parent: nothing was deleted. */
    HAS_CHILDREN
  }

  /** Deletes the namespace and, by cascade, its pseudonyms, unless it has children. */
  Future<Deletion> delete(String name);
}
