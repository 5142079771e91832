package org.vfps.storage;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Upserted;

/**
 * Turns concurrent single upserts into multi-row statements. A request that arrives while fewer
 * than {@link #MAX_IN_FLIGHT} statements are in flight is sent at once; requests that arrive while
 * that many are in flight wait and then go together as the next statement ({@link
 * PseudonymQueries#UPSERT_BATCH}), so one round trip and one commit serve many requests, and no
 * timer adds latency at low load. Batches are bounded in rows and bytes, and a pair asked for twice
 * is sent once.
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

  /** At most this many requests in one statement. */
  static final int MAX_ROWS = 512;

  /** At most about this many bytes of values in one statement. */
  static final int MAX_BYTES = 1 << 20;

  /**
   * Statements in flight at once per event loop. PostgreSQL commits several side by side: on the
   * 2-core development machine 50-row batches reached 9,900 rows/s one at a time, 14,300 two at a
   * time and 21,900 four at a time.
   */
  static final int MAX_IN_FLIGHT = 4;

  private final Pool pool;
  private final SingleUpsert single;
  private final UpsertTimer timer;
  private final Coalescer<Request> coalescer;

  /** The one-request path: the single-row upsert with candidate regeneration. */
  interface SingleUpsert {
    Future<Upserted> upsert(String namespace, String originalValue, Candidates candidates);
  }

  WriteCoalescer(Pool pool, SingleUpsert single, UpsertTimer timer, Admission admission) {
    this.pool = pool;
    this.single = single;
    this.timer = timer;
    this.coalescer =
        new Coalescer<>(
            this::send,
            MAX_ROWS,
            request -> request.pair.namespace().length() + request.pair.originalValue().length(),
            MAX_BYTES,
            MAX_IN_FLIGHT,
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
  Future<Upserted> upsert(String namespace, String originalValue, Candidates candidates) {
    Request request =
        new Request(
            new Pair(namespace, originalValue),
            candidates,
            Coalescer.promise(),
            CallDeadline.current());
    if (!coalescer.submit(request)) {
      return Future.failedFuture(Admission.overloaded(Admission.Limit.QUEUED_WRITES));
    }
    return request.result.future();
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
      String namespace, List<String> originalValues, Function<String, Candidates> candidates) {
    return new Feed(namespace, originalValues, candidates).start();
  }

  /**
   * The order every statement inserts its rows in, so that two statements that share pairs take
   * their row locks in the same order and wait for each other instead of deadlocking.
   */
  private static final Comparator<Pair> LOCK_ORDER =
      Comparator.comparing(Pair::namespace).thenComparing(Pair::originalValue);

  private Future<?> send(List<Request> requests) {
    Map<Pair, List<Request>> batch = new TreeMap<>(LOCK_ORDER);
    for (Request request : requests) {
      batch.computeIfAbsent(request.pair, pair -> new ArrayList<>(1)).add(request);
    }
    return batch.size() == 1 ? sendOne(batch) : sendBatch(batch);
  }

  /** A lone request takes the single-row statement: no arrays to build or unnest. */
  private Future<Upserted> sendOne(Map<Pair, List<Request>> batch) {
    Map.Entry<Pair, List<Request>> only = batch.entrySet().iterator().next();
    Pair pair = only.getKey();
    return Future.<Upserted>succeededFuture()
        .compose(
            ignored ->
                single.upsert(
                    pair.namespace(), pair.originalValue(), only.getValue().get(0).candidates))
        .onComplete(done -> deliver(only.getValue(), done));
  }

  private Future<?> sendBatch(Map<Pair, List<Request>> batch) {
    int size = batch.size();
    String[] namespaces = new String[size];
    String[] originals = new String[size];
    String[] candidates = new String[size];
    int i = 0;
    try {
      for (Map.Entry<Pair, List<Request>> entry : batch.entrySet()) {
        namespaces[i] = entry.getKey().namespace();
        originals[i] = entry.getKey().originalValue();
        candidates[i] = entry.getValue().get(0).candidates.get();
        i++;
      }
    } catch (RuntimeException e) {
      // a generator failed: let every request find its own way, and its own failure
      batch.forEach(this::retryAlone);
      return Future.succeededFuture();
    }
    long started = System.nanoTime();
    return pool.preparedQuery(PseudonymQueries.UPSERT_BATCH)
        .execute(Tuple.of(namespaces, originals, candidates))
        .onComplete(
            done -> {
              timer.batch(System.nanoTime() - started, size);
              if (done.succeeded()) {
                complete(batch, done.result());
              } else if (PgFailures.isRejection(done.cause())
                  || PgFailures.violates(done.cause(), PgFailures.DEADLOCK_DETECTED, null)) {
                batch.forEach(this::retryAlone);
              } else {
                Throwable failure = done.cause();
                batch.forEach(
                    (pair, requests) ->
                        requests.forEach(
                            request ->
                                request.result.fail(
                                    PgFailures.translate(
                                        failure, Map.of("namespace", pair.namespace())))));
              }
            });
  }

  private void complete(Map<Pair, List<Request>> batch, RowSet<Row> rows) {
    for (Row row : rows) {
      Pair pair = new Pair(row.getString("namespace_name"), row.getString("original_value"));
      List<Request> requests = batch.remove(pair);
      if (requests == null) {
        continue;
      }
      Pseudonym stored =
          new Pseudonym(
              pair.namespace(),
              pair.originalValue(),
              row.getString("pseudonym_value"),
              row.getOffsetDateTime("created_at").toInstant(),
              row.getOffsetDateTime("last_updated_at").toInstant());
      deliver(requests, Future.succeededFuture(new Upserted(stored, row.getBoolean("inserted"))));
    }
    // pairs a concurrent insert hid from this statement's snapshot
    batch.forEach(this::retryAlone);
  }

  private void retryAlone(Pair pair, List<Request> requests) {
    Future.<Upserted>succeededFuture()
        .compose(
            ignored ->
                single.upsert(pair.namespace(), pair.originalValue(), requests.get(0).candidates))
        .onComplete(done -> deliver(requests, done));
  }

  /**
   * One outcome to every request of a pair; only the first request, the one that came first, is
   * told it inserted the pair.
   */
  private static void deliver(List<Request> requests, AsyncResult<Upserted> done) {
    for (int i = 0; i < requests.size(); i++) {
      Promise<Upserted> result = requests.get(i).result;
      if (done.failed()) {
        result.fail(done.cause());
      } else {
        result.complete(i == 0 ? done.result() : new Upserted(done.result().pseudonym(), false));
      }
    }
  }

  /** Feeds one {@link #upsertAll} call to the coalescer, chunk by chunk. */
  private final class Feed {

    private final String namespace;
    private final List<String> originalValues;
    private final Function<String, Candidates> candidates;
    private final Pseudonym[] stored;
    private final Promise<List<Pseudonym>> result = Coalescer.promise();
    // taken now: later chunks are fed from the completions of earlier ones, on other contexts
    private final CallDeadline deadline = CallDeadline.current();
    private int next;
    private int chunksOutstanding;

    Feed(String namespace, List<String> originalValues, Function<String, Candidates> candidates) {
      this.namespace = namespace;
      this.originalValues = originalValues;
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
      List<Request> requests = new ArrayList<>(to - from);
      List<Future<Upserted>> results = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        String originalValue = originalValues.get(i);
        Request request =
            new Request(
                new Pair(namespace, originalValue),
                candidates.apply(originalValue),
                Promise.promise(),
                deadline);
        requests.add(request);
        results.add(request.result.future());
      }
      chunksOutstanding++;
      if (!coalescer.submitAll(requests)) {
        chunksOutstanding--;
        result.tryFail(Admission.overloaded(Admission.Limit.QUEUED_WRITES));
        return;
      }
      Future.all(results)
          .onComplete(
              done -> {
                chunksOutstanding--;
                if (done.failed()) {
                  result.tryFail(done.cause());
                  return;
                }
                for (int i = from; i < to; i++) {
                  stored[i] = results.get(i - from).result().pseudonym();
                }
                if (result.future().isComplete()) {
                  return;
                }
                if (next < originalValues.size()) {
                  submitChunk();
                } else if (chunksOutstanding == 0) {
                  result.complete(List.of(stored));
                }
              });
    }
  }

  /** What is upserted: a namespace and an original value. */
  private record Pair(String namespace, String originalValue) {}

  private record Request(
      Pair pair, Candidates candidates, Promise<Upserted> result, CallDeadline deadline)
      implements Coalescer.Queued {

    @Override
    public void drop(ServiceException reason) {
      result.tryFail(reason);
    }
  }
}
