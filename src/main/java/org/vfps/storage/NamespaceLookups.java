package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.vfps.admission.CallDeadline;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;

/**
 * Coalesces namespace lookups like {@link WriteCoalescer} coalesces upserts: every Create first
 * looks its namespace up, so under load the lookups that arrive while one is in flight go together
 * as one {@code name = ANY($1)} statement. Each lookup's statement starts after the lookup arrived,
 * so it sees every change committed before. A lookup whose call's deadline passes while it waits is
 * failed with {@code DEADLINE_EXCEEDED} and never sent.
 *
 * <p>Not thread-safe: one instance serves one event loop, and is used only on its thread.
 */
final class NamespaceLookups {

  private static final int MAX_NAMES = 256;

  private final Pool pool;
  private final NamespaceRows rows;
  private final Coalescer<Lookup> coalescer =
      new Coalescer<>(
          this::send,
          MAX_NAMES,
          lookup -> 1,
          MAX_NAMES,
          WriteCoalescer.MAX_IN_FLIGHT,
          WriteCoalescer.SIDE_BY_SIDE,
          // as many as there are calls in flight, which admission bounds
          Coalescer.QueueBound.NONE);

  NamespaceLookups(Pool pool, NamespaceRows rows) {
    this.pool = pool;
    this.rows = rows;
  }

  Future<Optional<Namespace>> find(String name) {
    Lookup lookup = new Lookup(name, Coalescer.promise(), CallDeadline.current());
    coalescer.submit(lookup);
    return lookup.result.future();
  }

  private Future<?> send(List<Lookup> lookups) {
    Map<String, List<Lookup>> byName = new HashMap<>();
    for (Lookup lookup : lookups) {
      byName.computeIfAbsent(lookup.name, name -> new ArrayList<>(1)).add(lookup);
    }
    Future<Map<String, Namespace>> found =
        byName.size() == 1
            ? pool.preparedQuery(NamespaceQueries.FIND)
                .execute(Tuple.of(lookups.get(0).name))
                .map(this::byName)
            : pool.preparedQuery(NamespaceQueries.FIND_ANY)
                .execute(Tuple.of(byName.keySet().toArray(String[]::new)))
                .map(this::byName);
    return found.onComplete(
        done ->
            byName.forEach(
                (name, waiting) -> {
                  for (Lookup lookup : waiting) {
                    if (done.succeeded()) {
                      lookup.result.complete(Optional.ofNullable(done.result().get(name)));
                    } else {
                      lookup.result.fail(
                          PgFailures.translate(done.cause(), Map.of("namespace", name)));
                    }
                  }
                }));
  }

  private Map<String, Namespace> byName(Iterable<Row> found) {
    Map<String, Namespace> namespaces = new HashMap<>();
    for (Row row : found) {
      Namespace namespace = rows.toNamespace(row);
      namespaces.put(namespace.name(), namespace);
    }
    return namespaces;
  }

  private record Lookup(String name, Promise<Optional<Namespace>> result, CallDeadline deadline)
      implements Coalescer.Queued {

    @Override
    public void drop(ServiceException reason) {
      result.tryFail(reason);
    }
  }
}
