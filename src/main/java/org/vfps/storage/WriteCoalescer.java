package org.vfps.storage;

import io.vertx.core.AsyncResult;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Upserted;

/**
 * Turns concurrent single upserts into multi-row statements. A request that arrives while no small
 * statement is in flight is sent at once; requests that arrive while one is wait and then go
 * together as the next statement ({@link PseudonymQueries#UPSERT_BATCH}), so one round trip and one
 * commit serve many requests, and no timer adds latency at low load. Statements of at least {@link
 * #SIDE_BY_SIDE} requests go beside the others, up to {@link #MAX_IN_FLIGHT}. Batches are bounded
 * in rows and bytes, and a pair asked for twice is sent once.
 *
 * <p>A batch that the database rejects (a namespace deleted meanwhile, a candidate that collides
 * with another value's pseudonym, a deadlock with a statement of another event loop that shares a
 * candidate) is retried one request at a time, so that only the requests at fault fail, each with
 * its own status; a batch that cannot reach the database fails all its requests with {@code
 * UNAVAILABLE}. Every future completes after its row is committed.
 *
 * <p>The values waiting for a statement count against the replica's {@link
 * Admission#tryQueueWrites(int) bound}: a request that does not fit is refused at once with {@code
 * OVERLOADED}. A request whose call's deadline passes while it waits, or whose client leaves, is
 * failed with {@code DEADLINE_EXCEEDED} and never sent.
 *
 * <p>Not thread-safe: one instance serves one event loop, and is used only on its thread.
 */
final class WriteCoalescer {

  /**
   * At most this many requests in one statement: large enough that a {@code BatchCreate} of 1,000
   * values is one statement and one commit, which costs PostgreSQL less CPU per value than two
   * halves (docs/benchmarks.md, "The write coalescer").
   */
  static final int MAX_ROWS = 1024;

  /** At most about this many bytes of values in one statement. */
  static final int MAX_BYTES = 1 << 20;

  /**
   * Statements in flight at once per event loop. PostgreSQL commits several side by side, so large
   * statements that go together finish sooner than one after another (docs/benchmarks.md, "The
   * write coalescer").
   */
  static final int MAX_IN_FLIGHT = 4;

  /**
   * One statement of fewer requests than this is in flight at a time; the next small one waits for
   * it and carries everything that arrived meanwhile. Larger ones go beside it. Small statements
   * sent as soon as a slot is free carry few rows each, and every one pays its own round trip and
   * commit; waiting for the one in flight makes them larger and the CPU per create of PostgreSQL
   * and of the service smaller (docs/benchmarks.md, "The write coalescer"). A {@code BatchCreate}
   * chunk is larger and goes at once.
   */
  static final int SIDE_BY_SIDE = 64;

  // the columns of PseudonymQueries.UPSERT_BATCH
  private static final int NAMESPACE = 0;
  private static final int ORIGINAL_VALUE = 1;
  private static final int PSEUDONYM_VALUE = 2;
  private static final int CREATED_AT = 3;
  private static final int LAST_UPDATED_AT = 4;
  private static final int INSERTED = 5;

  private final Pool pool;
  private final SingleUpsert single;
  private final UpsertTimer timer;
  private final Coalescer<Request> coalescer;

  /** The one-request path: the single-row upsert with candidate regeneration. */
  interface SingleUpsert {
    /**
     * @param key the stored original value ({@link StoredOriginals})
     * @param sealed the sealed value of a sealed row, or null
     */
    Future<Upserted> upsert(Namespace namespace, String key, Buffer sealed, Candidates candidates);
  }

  WriteCoalescer(Pool pool, SingleUpsert single, UpsertTimer timer, Admission admission) {
    this.pool = pool;
    this.single = single;
    this.timer = timer;
    this.coalescer =
        new Coalescer<>(
            this::send,
            MAX_ROWS,
            request ->
                request.pair.namespace().name().length() + request.pair.originalValue().length(),
            MAX_BYTES,
            MAX_IN_FLIGHT,
            SIDE_BY_SIDE,
            new Coalescer.QueueBound() {
              @Override
              public boolean tryAdd(int count) {
                return admission.tryQueueWrites(count);
              }

              @Override
              public void removed(int count) {
                admission.writesDequeued(count);
              }
            });
  }

  /**
   * The stored pseudonym of the pair; of the requests for one new pair that share a statement, the
   * first is told it inserted it.
   */
  Future<Upserted> upsert(Namespace namespace, String key, Buffer sealed, Candidates candidates) {
    Promise<Upserted> result = Coalescer.promise();
    Request request =
        new Request(new Pair(namespace, key, sealed), candidates, result, CallDeadline.current());
    if (!coalescer.submit(request)) {
      return Future.failedFuture(Admission.overloaded(Admission.Limit.QUEUED_WRITES));
    }
    return result.future();
  }

  /**
   * The stored pseudonyms of many distinct original values of one namespace, in their order, each
   * upserted as {@link #upsert} upserts one. The values join the queue a chunk of {@link #MAX_ROWS}
   * at a time, with at most {@link #MAX_IN_FLIGHT} chunks of the call queued or in flight, and the
   * next chunk when one completes: the call keeps every statement slot busy, yet a request that
   * arrives meanwhile waits behind at most those chunks, never behind the whole call. A chunk that
   * does not fit in the queue fails the call with {@code OVERLOADED}. After a failure no further
   * chunk joins; the future fails with the first failure.
   */
  Future<List<Pseudonym>> upsertAll(
      Namespace namespace,
      List<String> keys,
      Function<String, Buffer> sealed,
      Function<String, Candidates> candidates) {
    return new Feed(namespace, keys, sealed, candidates).start();
  }

  /**
   * The order every statement inserts its rows in, so that two statements that share pairs take
   * their row locks in the same order and wait for each other instead of deadlocking.
   */
  private static final Comparator<Request> LOCK_ORDER =
      (a, b) -> {
        int byNamespace = a.pair.namespace().name().compareTo(b.pair.namespace().name());
        return byNamespace != 0
            ? byNamespace
            : a.pair.originalValue().compareTo(b.pair.originalValue());
      };

  private Future<?> send(List<Request> requests) {
    // a stable sort: the requests of one pair stay in their order of arrival
    Request[] sorted = requests.toArray(Request[]::new);
    Arrays.sort(sorted, LOCK_ORDER);
    List<Group> batch = new ArrayList<>(sorted.length);
    Group last = null;
    for (Request request : sorted) {
      if (last == null || !last.pair.equals(request.pair)) {
        last = new Group(request.pair, request);
        batch.add(last);
      } else {
        last.add(request);
      }
    }
    return batch.size() == 1 ? sendOne(batch.get(0)) : sendBatch(batch);
  }

  /** A lone pair takes the single-row statement: no arrays to build or unnest. */
  private Future<Upserted> sendOne(Group only) {
    return Future.<Upserted>succeededFuture()
        .compose(
            ignored ->
                single.upsert(
                    only.pair.namespace(),
                    only.pair.originalValue(),
                    only.pair.sealed(),
                    only.first.candidates))
        .onComplete(only::deliver);
  }

  private Future<?> sendBatch(List<Group> batch) {
    // each namespace once, with the time of creation its callers looked up; a name that came with
    // two (deleted and created again between their lookups) goes to the single upserts, which bind
    // each request to its own
    Map<String, Namespace> bound = new LinkedHashMap<>();
    Set<String> ambiguous = new HashSet<>();
    for (Group group : batch) {
      Namespace namespace = group.pair.namespace();
      Namespace seen = bound.putIfAbsent(namespace.name(), namespace);
      if (seen != null && !seen.createdAt().equals(namespace.createdAt())) {
        ambiguous.add(namespace.name());
      }
    }
    List<Group> sent = batch;
    if (!ambiguous.isEmpty()) {
      sent = new ArrayList<>(batch.size());
      for (Group group : batch) {
        if (ambiguous.contains(group.pair.namespace().name())) {
          retryAlone(group);
        } else {
          sent.add(group);
        }
      }
      ambiguous.forEach(bound::remove);
      if (sent.isEmpty()) {
        return Future.succeededFuture();
      }
    }
    int size = sent.size();
    String[] namespaces = new String[size];
    String[] originals = new String[size];
    String[] candidates = new String[size];
    Buffer[] sealed = new Buffer[size];
    List<Group> statement = sent;
    try {
      for (int i = 0; i < size; i++) {
        Group group = statement.get(i);
        namespaces[i] = group.pair.namespace().name();
        originals[i] = group.pair.originalValue();
        sealed[i] = group.pair.sealed();
        candidates[i] = group.first.candidates.get();
      }
    } catch (RuntimeException e) {
      // a generator failed: let every request find its own way, and its own failure
      statement.forEach(this::retryAlone);
      return Future.succeededFuture();
    }
    String[] names = bound.keySet().toArray(String[]::new);
    OffsetDateTime[] createdAt =
        bound.values().stream()
            .map(PgPseudonymRepository::createdAt)
            .toArray(OffsetDateTime[]::new);
    long started = System.nanoTime();
    return pool.preparedQuery(PseudonymQueries.UPSERT_BATCH)
        .execute(Tuple.of(namespaces, originals, candidates, names, createdAt, sealed))
        .onComplete(
            done -> {
              timer.batch(System.nanoTime() - started, size);
              if (done.succeeded()) {
                complete(statement, bound, done.result());
              } else if (PgFailures.isRejection(done.cause())
                  || PgFailures.violates(done.cause(), PgFailures.DEADLOCK_DETECTED, null)) {
                statement.forEach(this::retryAlone);
              } else {
                Throwable failure = done.cause();
                statement.forEach(
                    group ->
                        group.deliver(
                            Future.failedFuture(
                                PgFailures.translate(
                                    failure, Map.of("namespace", group.pair.namespace().name())))));
              }
            });
  }

  /**
   * Delivers each pair its row; {@code bound} gives the one namespace each name stands for in the
   * statement.
   */
  private void complete(List<Group> batch, Map<String, Namespace> bound, RowSet<Row> rows) {
    Map<Pair, Group> waiting = HashMap.newHashMap(batch.size());
    batch.forEach(group -> waiting.put(group.pair, group));
    for (Row row : rows) {
      Group group =
          waiting.remove(
              new Pair(bound.get(row.getString(NAMESPACE)), row.getString(ORIGINAL_VALUE), null));
      if (group == null) {
        continue;
      }
      Pseudonym stored =
          new Pseudonym(
              group.pair.namespace().name(),
              group.pair.originalValue(),
              row.getString(PSEUDONYM_VALUE),
              row.getOffsetDateTime(CREATED_AT).toInstant(),
              row.getOffsetDateTime(LAST_UPDATED_AT).toInstant(),
              0);
      group.deliver(Future.succeededFuture(new Upserted(stored, row.getBoolean(INSERTED))));
    }
    // pairs a concurrent insert hid from this statement's snapshot, or whose namespace is gone
    waiting.values().forEach(this::retryAlone);
  }

  /** A pair the batch statement did not answer takes the single-row statement on its own. */
  private void retryAlone(Group group) {
    sendOne(group);
  }

  /** Feeds one {@link #upsertAll} call to the coalescer, chunk by chunk. */
  private final class Feed {

    private final Namespace namespace;
    private final List<String> originalValues;
    private final Function<String, Buffer> sealed;
    private final Function<String, Candidates> candidates;
    private final Pseudonym[] stored;
    private final Promise<List<Pseudonym>> result = Coalescer.promise();
    // taken now: later chunks are fed from the completions of earlier ones, on other contexts
    private final CallDeadline deadline = CallDeadline.current();
    private int next;
    private int chunksOutstanding;

    Feed(
        Namespace namespace,
        List<String> originalValues,
        Function<String, Buffer> sealed,
        Function<String, Candidates> candidates) {
      this.namespace = namespace;
      this.originalValues = originalValues;
      this.sealed = sealed;
      this.candidates = candidates;
      this.stored = new Pseudonym[originalValues.size()];
    }

    Future<List<Pseudonym>> start() {
      if (originalValues.isEmpty()) {
        return Future.succeededFuture(List.of());
      }
      for (int i = 0;
          i < MAX_IN_FLIGHT && next < originalValues.size() && !result.future().isComplete();
          i++) {
        submitChunk();
      }
      return result.future();
    }

    private void submitChunk() {
      int from = next;
      int to = Math.min(from + MAX_ROWS, originalValues.size());
      next = to;
      Chunk chunk = new Chunk(to - from);
      List<Request> requests = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        int index = i;
        String originalValue = originalValues.get(i);
        requests.add(
            new Request(
                new Pair(namespace, originalValue, sealed.apply(originalValue)),
                candidates.apply(originalValue),
                (upserted, failure) -> chunk.done(index, upserted, failure),
                deadline));
      }
      chunksOutstanding++;
      if (!coalescer.submitAll(requests)) {
        chunksOutstanding--;
        result.tryFail(Admission.overloaded(Admission.Limit.QUEUED_WRITES));
      }
    }

    /**
     * The values of one chunk still awaited: each value's outcome lands here, with no future of its
     * own, and the last one feeds the next chunk or completes the call.
     */
    private final class Chunk {

      private int awaited;

      Chunk(int size) {
        this.awaited = size;
      }

      void done(int index, Upserted upserted, Throwable failure) {
        if (failure != null) {
          result.tryFail(failure);
        } else {
          stored[index] = upserted.pseudonym();
        }
        if (--awaited > 0) {
          return;
        }
        chunksOutstanding--;
        if (result.future().isComplete()) {
          return;
        }
        if (next < originalValues.size()) {
          submitChunk();
        } else if (chunksOutstanding == 0) {
          result.complete(List.of(stored));
        }
      }
    }
  }

  /**
   * What is upserted: a namespace as its caller looked it up and an original value as it is stored
   * ({@link StoredOriginals}: the value, or its blind index with its {@code sealed} value, which is
   * not compared). Two incarnations of one name (one deleted, one created later) are two
   * namespaces; other fields of the namespace are not compared.
   */
  private record Pair(Namespace namespace, String originalValue, Buffer sealed) {

    @Override
    public boolean equals(Object other) {
      return other instanceof Pair pair
          && originalValue.equals(pair.originalValue)
          && namespace.name().equals(pair.namespace.name())
          && namespace.createdAt().equals(pair.namespace.createdAt());
    }

    @Override
    public int hashCode() {
      return 31 * namespace.name().hashCode() + originalValue.hashCode();
    }
  }

  /** One upsert waiting for its statement; its outcome goes to {@code result}, exactly once. */
  private record Request(
      Pair pair, Candidates candidates, Completable<Upserted> result, CallDeadline deadline)
      implements Coalescer.Queued {

    @Override
    public void drop(ServiceException reason) {
      result.fail(reason);
    }
  }

  /** The requests for one pair in one statement, in their order of arrival. */
  private static final class Group {

    private final Pair pair;
    private final Request first;
    private List<Request> more;

    Group(Pair pair, Request first) {
      this.pair = pair;
      this.first = first;
    }

    void add(Request request) {
      if (more == null) {
        more = new ArrayList<>(1);
      }
      more.add(request);
    }

    /**
     * One outcome to every request; only the first request, the one that came first, is told it
     * inserted the pair.
     */
    void deliver(AsyncResult<Upserted> done) {
      first.result.complete(done.result(), done.cause());
      if (more != null) {
        Upserted found = done.succeeded() ? new Upserted(done.result().pseudonym(), false) : null;
        more.forEach(request -> request.result.complete(found, done.cause()));
      }
    }
  }
}
