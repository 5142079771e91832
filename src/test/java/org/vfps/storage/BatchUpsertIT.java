package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;

/**
 * Many values of one call go the way single upserts go: through the event loop's write coalescer,
 * in bounded multi-row statements, and without queueing ahead of other callers.
 */
class BatchUpsertIT {

  private final Vertx vertx = Vertx.vertx();
  private final List<Integer> batches = new CopyOnWriteArrayList<>();
  private final List<Long> singles = new CopyOnWriteArrayList<>();
  private final UpsertTimer recording =
      new UpsertTimer() {
        @Override
        public void single(long nanos) {
          singles.add(nanos);
        }

        @Override
        public void batch(long nanos, int rows) {
          batches.add(rows);
        }
      };
  private final Database database = Database.connect(vertx, TestPostgres.database(), recording);
  private final PseudonymRepository repository = database.pseudonyms();

  @AfterEach
  void close() {
    database.close();
    vertx.close().await();
  }

  private static String namespace() {
    String name = "batch-" + UUID.randomUUID();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 16, '', '', now(), now())");
    return name;
  }

  private static List<String> values(String prefix, int count) {
    return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
  }

  private static Function<String, Candidates> random() {
    return value -> () -> UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** The values in turn, then the last one again and again. */
  private static Candidates candidates(String... values) {
    Iterator<String> iterator = List.of(values).iterator();
    String last = values[values.length - 1];
    return () -> iterator.hasNext() ? iterator.next() : last;
  }

  /** Runs the call on an event loop and waits for its future. */
  private <T> Future<T> onEventLoop(Supplier<Future<T>> call) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(ignored -> call.get().onComplete(done));
    Future<T> result = done.future();
    result.otherwiseEmpty().await();
    return result;
  }

  @Test
  void storesEveryValueInOrderInBoundedMultiRowStatements() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    Pseudonym existing = repository.upsert(looked, "values-7", candidates("kept")).await();
    List<String> values = values("values", 1_300);

    List<Pseudonym> stored =
        onEventLoop(() -> repository.upsertAll(looked, values, random())).result();

    assertThat(stored).extracting(Pseudonym::originalValue).containsExactlyElementsOf(values);
    assertThat(stored).allMatch(pseudonym -> pseudonym.namespace().equals(namespace));
    assertThat(stored.get(7)).isEqualTo(existing);
    assertThat(new HashSet<>(stored.stream().map(Pseudonym::pseudonymValue).toList()))
        .hasSize(values.size());
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(values.size());
    assertThat(batches).isNotEmpty().allMatch(rows -> rows <= WriteCoalescer.MAX_ROWS);
    assertThat(batches.stream().mapToInt(Integer::intValue).sum())
        .as("every value went out in a multi-row statement")
        .isEqualTo(values.size());
    assertThat(repository.upsert(looked, "values-1299", candidates("other")).await())
        .isEqualTo(stored.get(1_299));
  }

  @Test
  void offTheEventLoopTheValuesStillGoThroughTheCoalescer() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    List<String> values = values("off-loop", 600);

    List<Pseudonym> fromTestThread = repository.upsertAll(looked, values, random()).await();
    List<Pseudonym> fromBlockingTask =
        vertx
            .getOrCreateContext()
            .executeBlocking(
                () ->
                    repository
                        .upsertAll(looked, values, random())
                        .toCompletionStage()
                        .toCompletableFuture()
                        .join())
            .await();

    assertThat(fromTestThread).extracting(Pseudonym::originalValue).isEqualTo(values);
    assertThat(fromBlockingTask).isEqualTo(fromTestThread);
    assertThat(singles).as("no value went alone").isEmpty();
    assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(2 * values.size());
  }

  @Test
  void aLargeCallDoesNotQueueAheadOfASingleCallerOnTheSameEventLoop() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    // twenty statements' worth, so that waiting behind half of them would show
    List<String> values = values("large", 20 * WriteCoalescer.MAX_ROWS);
    int statements = values.size() / WriteCoalescer.MAX_ROWS;
    AtomicInteger doneBeforeSingle = new AtomicInteger(-1);
    Promise<List<Future<?>>> submitted = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            ignored -> {
              Future<List<Pseudonym>> batch = repository.upsertAll(looked, values, random());
              Future<Pseudonym> single =
                  repository
                      .upsert(looked, "single", candidates("single-pseudonym"))
                      .onComplete(done -> doneBeforeSingle.set(batches.size()));
              submitted.complete(List.of(batch, single));
            });
    List<Future<?>> calls = submitted.future().await();
    Future.all(calls).await();

    assertThat(doneBeforeSingle.get())
        .as("statements completed before the single create, of the call's %d", statements)
        .isBetween(1, statements / 2);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(values.size() + 1);
  }

  @Test
  void collidingCandidatesAreRegeneratedAsForSingleUpserts() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    repository.upsert(looked, "owner", candidates("taken")).await();
    List<String> values = values("colliding", 700);
    // every value's first candidate is taken, and the first chunk's also collide with each other
    Function<String, Candidates> collidingFirst = value -> candidates("taken", "fresh-" + value);

    List<Pseudonym> stored =
        onEventLoop(() -> repository.upsertAll(looked, values, collidingFirst)).result();

    assertThat(stored)
        .extracting(Pseudonym::pseudonymValue)
        .containsExactlyElementsOf(values.stream().map(value -> "fresh-" + value).toList());
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(values.size() + 1);
  }

  @Test
  void concurrentCallsOnSeveralEventLoopsSharingValuesAgreeWithoutDeadlocks() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    List<String> shared = values("shared", 3_000);
    List<Future<List<Pseudonym>>> calls = new ArrayList<>();
    for (int call = 0; call < 4; call++) {
      List<String> order = new ArrayList<>(shared);
      Collections.shuffle(order, new Random(call));
      Promise<List<Pseudonym>> done = Promise.promise();
      // each new context from this thread is on the next event loop, with its own coalescer
      vertx
          .getOrCreateContext()
          .runOnContext(ignored -> repository.upsertAll(looked, order, random()).onComplete(done));
      calls.add(done.future());
    }
    Future.join(calls).otherwiseEmpty().await();

    assertThat(calls).allSatisfy(call -> assertThat(call.cause()).isNull());
    Map<String, String> byOriginal = new HashMap<>();
    calls.get(0).result().forEach(p -> byOriginal.put(p.originalValue(), p.pseudonymValue()));
    assertThat(calls)
        .allSatisfy(
            call ->
                assertThat(call.result())
                    .allSatisfy(
                        p ->
                            assertThat(p.pseudonymValue())
                                .isEqualTo(byOriginal.get(p.originalValue()))));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(shared.size());
  }

  @Test
  void findsPseudonymsByValueInChunksAndLeavesOutTheMissing() {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    List<Pseudonym> stored =
        onEventLoop(() -> repository.upsertAll(looked, values("lookup", 1_500), random())).result();
    List<String> asked = new ArrayList<>();
    stored.forEach(pseudonym -> asked.add(pseudonym.pseudonymValue()));
    asked.addAll(values("missing", 700));

    Map<String, Pseudonym> found = repository.findAllByValue(namespace, asked).await();

    assertThat(asked.size()).isGreaterThan(2 * BudgetedReads.LOOKUP_CHUNK);
    assertThat(found).hasSize(stored.size());
    stored.forEach(
        pseudonym -> assertThat(found.get(pseudonym.pseudonymValue())).isEqualTo(pseudonym));
    assertThat(repository.findAllByValue("missing-" + UUID.randomUUID(), asked).await()).isEmpty();
  }
}
