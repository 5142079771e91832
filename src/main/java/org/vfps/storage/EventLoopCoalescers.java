package org.vfps.storage;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.sqlclient.Pool;
import java.util.List;
import java.util.function.Function;
import org.vfps.admission.Admission;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Upserted;

/**
 * One {@link WriteCoalescer} per event loop, each used on its own loop only, and the hop onto an
 * event loop of the upserts that arrive elsewhere. Thread-safe.
 */
final class EventLoopCoalescers {

  private final VertxInternal vertx;
  private final PseudonymUpsert single;
  private final ThreadLocal<WriteCoalescer> coalescers;

  EventLoopCoalescers(
      Vertx vertx, Pool pool, PseudonymUpsert single, UpsertTimer timer, Admission admission) {
    this.vertx = (VertxInternal) vertx;
    this.single = single;
    this.coalescers =
        ThreadLocal.withInitial(() -> new WriteCoalescer(pool, single, timer, admission));
  }

  /**
   * On an event loop, the upsert joins that loop's {@link WriteCoalescer}; elsewhere it runs on its
   * own.
   */
  Future<Upserted> upsert(Namespace namespace, String key, Buffer sealed, Candidates candidates) {
    return Context.isOnEventLoopThread()
        ? coalescers.get().upsert(namespace, key, sealed, candidates)
        : single.upsert(namespace, key, sealed, candidates);
  }

  /**
   * Through an event loop's {@link WriteCoalescer}, always: off an event loop (a blocking task, a
   * test's thread) the call moves onto one, and its future completes there.
   */
  Future<List<Pseudonym>> upsertAll(
      Namespace namespace,
      List<String> keys,
      Function<String, Buffer> sealed,
      Function<String, Candidates> candidates) {
    if (Context.isOnEventLoopThread()) {
      return coalescers.get().upsertAll(namespace, keys, sealed, candidates);
    }
    Context current = Vertx.currentContext();
    Context loop =
        current != null && current.isEventLoopContext() ? current : vertx.createEventLoopContext();
    Promise<List<Pseudonym>> stored = Promise.promise();
    loop.runOnContext(
        ignored ->
            coalescers.get().upsertAll(namespace, keys, sealed, candidates).onComplete(stored));
    return stored.future();
  }
}
