package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.config.ConnectionSettings;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceRepository;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;

/** The write coalescer keeps every promise of the single upsert while batching. */
class WriteCoalescerIT {

  private final Vertx vertx = Vertx.vertx();
  private final List<Integer> batches = new CopyOnWriteArrayList<>();
  private final UpsertTimer recording =
      new UpsertTimer() {
        @Override
        public void single(long nanos) {}

        @Override
        public void batch(long nanos, int rows) {
          batches.add(rows);
        }
      };

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private static String namespace() {
    String name = "coalescer-" + UUID.randomUUID();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 16, '', '', now(), now())");
    return name;
  }

  /** The values in turn, then the last one again and again. */
  private static Candidates candidates(String... values) {
    Iterator<String> iterator = List.of(values).iterator();
    String last = values[values.length - 1];
    return () -> iterator.hasNext() ? iterator.next() : last;
  }

  private static Candidates random() {
    return () -> UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** Submits the upserts in one turn of one event loop, so all but the first wait as a batch. */
  private static <T> List<Future<T>> onOneEventLoop(
      Context context, List<Supplier<Future<T>>> upserts) {
    Promise<List<Future<T>>> submitted = Promise.promise();
    context.runOnContext(
        ignored -> submitted.complete(upserts.stream().map(Supplier::get).toList()));
    List<Future<T>> futures = submitted.future().await();
    Future.join(futures).otherwiseEmpty().await();
    return futures;
  }

  @Test
  void overlappingConcurrentCreatesStoreOneRowPerValueAndAgree() {
    Database database = Database.connect(vertx, TestPostgres.database(), recording);
    PseudonymRepository repository = database.pseudonyms();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    List<Future<Pseudonym>> all = new ArrayList<>();
    for (int loop = 0; loop < 4; loop++) {
      Context context = vertx.getOrCreateContext();
      List<Supplier<Future<Pseudonym>>> upserts = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String original = "value-" + (i % 40);
        upserts.add(() -> repository.upsert(looked, original, random()));
      }
      all.addAll(onOneEventLoop(context, upserts));
    }

    assertThat(all).allMatch(Future::succeeded);
    assertThat(
            all.stream()
                .map(Future::result)
                .collect(Collectors.groupingBy(Pseudonym::originalValue))
                .values())
        .hasSize(40)
        .allSatisfy(
            same -> assertThat(same.stream().map(Pseudonym::pseudonymValue).distinct()).hasSize(1));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(40);
    assertThat(batches).as("requests went out in multi-row statements").isNotEmpty();
    assertThat(batches).allMatch(rows -> rows <= 40);
    database.close();
  }

  @Test
  void ofTheRequestsForOneNewPairExactlyOneIsToldItInsertedIt() {
    Database database = Database.connect(vertx, TestPostgres.database(), recording);
    PseudonymRepository repository = database.pseudonyms();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    repository.upsert(looked, "known", random()).await();
    List<Future<Upserted>> all = new ArrayList<>();
    for (int loop = 0; loop < 4; loop++) {
      List<Supplier<Future<Upserted>>> upserts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        String original = i % 5 == 0 ? "known" : "value-" + (i % 20);
        upserts.add(() -> repository.insertIfAbsent(looked, original, random()));
      }
      all.addAll(onOneEventLoop(vertx.getOrCreateContext(), upserts));
    }

    assertThat(all).allMatch(Future::succeeded);
    var insertsByValue =
        all.stream()
            .map(Future::result)
            .collect(
                Collectors.groupingBy(
                    upserted -> upserted.pseudonym().originalValue(),
                    Collectors.filtering(Upserted::inserted, Collectors.counting())));
    assertThat(insertsByValue).hasSize(17).containsEntry("known", 0L);
    insertsByValue.remove("known");
    assertThat(insertsByValue.values()).containsOnly(1L);
    assertThat(batches).as("requests went out in multi-row statements").isNotEmpty();
    database.close();
  }

  @Test
  void aBatchTheDatabaseRejectsFailsOnlyTheRequestsAtFault() {
    Database database = Database.connect(vertx, TestPostgres.database(), recording);
    PseudonymRepository repository = database.pseudonyms();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    repository.upsert(looked, "owner", candidates("taken")).await();
    // a namespace deleted since its caller looked it up; written once before, so that the sealing
    // view has read it since its creation and the request takes no detour to read it again
    Namespace missing = TestPostgres.storedNamespace(namespace());
    repository.upsert(missing, "before", candidates("p-before")).await();
    TestPostgres.execute(
        TestPostgres.database(), "DELETE FROM namespaces WHERE name = '" + missing.name() + "'");

    // the first request goes alone; the four after it wait and go as one batch
    List<Supplier<Future<Pseudonym>>> upserts = new ArrayList<>();
    upserts.add(() -> repository.upsert(looked, "first", candidates("p-first")));
    upserts.add(() -> repository.upsert(looked, "a", candidates("p-a")));
    upserts.add(() -> repository.upsert(missing, "b", candidates("p-b")));
    upserts.add(() -> repository.upsert(looked, "c", candidates("taken", "p-c")));
    upserts.add(() -> repository.upsert(looked, "d", candidates("p-d")));
    List<Future<Pseudonym>> results = onOneEventLoop(vertx.getOrCreateContext(), upserts);
    List<Future<Pseudonym>> batch = results.subList(1, results.size());

    assertThat(batches).containsExactly(4);
    assertThat(results.get(0).result().pseudonymValue()).isEqualTo("p-first");
    assertThat(batch.get(0).result().pseudonymValue()).isEqualTo("p-a");
    assertThat(batch.get(1).cause())
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    assertThat(batch.get(2).result().pseudonymValue()).isEqualTo("p-c");
    assertThat(batch.get(3).result().pseudonymValue()).isEqualTo("p-d");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1 + 1 + 3);
    database.close();
  }

  @Test
  void requestsWaitForTheStatementInFlightUntilEnoughWaitToGoBesideIt() {
    Database database = Database.connect(vertx, TestPostgres.database(), recording);
    PseudonymRepository repository = database.pseudonyms();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);

    // one alone; then the next SIDE_BY_SIDE go beside it as soon as they wait, and so do the
    // SIDE_BY_SIDE after them; the last three wait for the small statement in flight
    int count = 1 + 2 * WriteCoalescer.SIDE_BY_SIDE + 3;
    List<Supplier<Future<Pseudonym>>> upserts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String original = "value-" + i;
      upserts.add(() -> repository.upsert(looked, original, random()));
    }
    List<Future<Pseudonym>> results = onOneEventLoop(vertx.getOrCreateContext(), upserts);

    assertThat(results).allMatch(Future::succeeded);
    // the lone first request takes the single-row statement, which records no batch
    assertThat(batches)
        .containsExactlyInAnyOrder(WriteCoalescer.SIDE_BY_SIDE, WriteCoalescer.SIDE_BY_SIDE, 3);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(count);
    database.close();
  }

  @Test
  void nothingIsAcknowledgedBeforeCommitAndALostConnectionFailsAsUnavailable() throws Exception {
    ConnectionSettings direct = TestPostgres.database();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    try (TcpProxy proxy = new TcpProxy(direct.host(), direct.port());
        Connection locker =
            DriverManager.getConnection(
                "jdbc:postgresql://%s:%d/%s"
                    .formatted(direct.host(), direct.port(), direct.database()),
                direct.user(),
                direct.password())) {
      ConnectionSettings viaProxy =
          new ConnectionSettings(
              "127.0.0.1",
              proxy.port(),
              direct.database(),
              direct.user(),
              direct.password(),
              4,
              Duration.ofSeconds(2),
              direct.sslMode(),
              "vfps-coalescer-it");
      Database database = Database.connect(vertx, viaProxy, recording);
      PseudonymRepository repository = database.pseudonyms();
      repository.upsert(looked, "warm-up", random()).await();

      locker.setAutoCommit(false);
      try (Statement statement = locker.createStatement()) {
        statement.execute("LOCK TABLE pseudonyms IN EXCLUSIVE MODE");
      }
      Context context = vertx.getOrCreateContext();
      Promise<List<Future<Pseudonym>>> submitted = Promise.promise();
      context.runOnContext(
          ignored -> {
            List<Future<Pseudonym>> futures = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
              futures.add(repository.upsert(looked, "blocked-" + i, random()));
            }
            submitted.complete(futures);
          });
      List<Future<Pseudonym>> blocked = submitted.future().await();
      awaitStatementWaitingForLock();
      assertThat(blocked)
          .as("nothing acknowledged while uncommitted")
          .noneMatch(Future::isComplete);

      proxy.cut();
      Future.join(blocked).otherwiseEmpty().await();
      assertThat(blocked)
          .allSatisfy(
              future ->
                  assertThat(future.cause())
                      .isInstanceOfSatisfying(
                          ServiceException.class,
                          e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE)));
      locker.rollback();

      proxy.open();
      await("an upsert that succeeds once the database is back")
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                Future<Pseudonym> after = repository.upsert(looked, "after", random());
                Future.join(List.of(after)).otherwiseEmpty().await();
                return after;
              },
              Future::succeeded);
      database.close();
    }
  }

  @Test
  void coalescedNamespaceLookupsAnswerEachLookupWithItsOwnNamespace() {
    Database database = Database.connect(vertx, TestPostgres.database());
    NamespaceRepository namespaces = database.namespaces();
    String first = namespace();
    String second = namespace();
    String missing = "missing-" + UUID.randomUUID();
    Context context = vertx.getOrCreateContext();
    Promise<List<Future<Optional<Namespace>>>> submitted = Promise.promise();
    context.runOnContext(
        ignored -> {
          List<Future<Optional<Namespace>>> lookups = new ArrayList<>();
          for (int i = 0; i < 60; i++) {
            lookups.add(namespaces.find(List.of(first, second, missing).get(i % 3)));
          }
          submitted.complete(lookups);
        });
    List<Future<Optional<Namespace>>> lookups = submitted.future().await();
    Future.join(lookups).await();

    for (int i = 0; i < 60; i++) {
      Optional<Namespace> found = lookups.get(i).result();
      switch (i % 3) {
        case 0 -> assertThat(found).map(Namespace::name).contains(first);
        case 1 -> assertThat(found).map(Namespace::name).contains(second);
        default -> assertThat(found).isEmpty();
      }
    }
    database.close();
  }

  @Test
  void upsertsBeyondTheQueueBoundAreRefusedAtOnce() {
    List<Admission.Limit> refused = new CopyOnWriteArrayList<>();
    Admission admission = new Admission(Integer.MAX_VALUE, 1, Long.MAX_VALUE, refused::add);
    Database database = Database.connect(vertx, TestPostgres.database(), recording, admission);
    PseudonymRepository repository = database.pseudonyms();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);

    // the first request goes at once, one more waits for it, and then the queue is full
    List<Supplier<Future<Pseudonym>>> upserts = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      String original = "admitted-" + i;
      upserts.add(() -> repository.upsert(looked, original, random()));
    }
    upserts.add(() -> repository.upsert(looked, "refused", random()));
    upserts.add(
        () ->
            repository
                .upsertAll(looked, List.of("refused-a", "refused-b"), value -> random())
                .map(stored -> stored.get(0)));
    List<Future<Pseudonym>> results = onOneEventLoop(vertx.getOrCreateContext(), upserts);

    assertThat(results.subList(0, 2)).allMatch(Future::succeeded);
    assertThat(results.subList(2, results.size()))
        .allSatisfy(
            result ->
                assertThat(result.cause())
                    .isInstanceOfSatisfying(
                        ServiceException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED)));
    assertThat(refused).containsOnly(Admission.Limit.QUEUED_WRITES).hasSize(2);
    assertThat(admission.queuedWrites()).isZero();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
    database.close();
  }

  @Test
  void workOfACallWhoseDeadlinePassedOrWhoseClientLeftIsNeverSent() {
    Database database = Database.connect(vertx, TestPostgres.database());
    PseudonymRepository repository = database.pseudonyms();
    NamespaceRepository namespaces = database.namespaces();
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    ContextInternal loop = (ContextInternal) vertx.getOrCreateContext();
    ContextInternal late = loop.duplicate();
    ContextInternal left = loop.duplicate();
    ContextInternal inTime = loop.duplicate();
    Promise<List<Future<?>>> submitted = Promise.promise();
    loop.runOnContext(
        ignored -> {
          List<Future<?>> calls = new ArrayList<>();
          late.dispatch(
              () -> {
                CallDeadline.begin(late, System.nanoTime(), 0);
                calls.add(repository.upsert(looked, "late", random()));
                calls.add(repository.upsertAll(looked, List.of("late-a"), value -> random()));
                calls.add(namespaces.find(namespace));
              });
          left.dispatch(
              () -> {
                CallDeadline.begin(left, System.nanoTime(), -1).abandon();
                calls.add(repository.upsert(looked, "left", random()));
              });
          inTime.dispatch(
              () -> {
                CallDeadline.begin(inTime, System.nanoTime(), TimeUnit.MINUTES.toNanos(1));
                calls.add(repository.upsert(looked, "in-time", random()));
              });
          submitted.complete(calls);
        });
    List<Future<?>> calls = submitted.future().await();
    Future.join(calls).otherwiseEmpty().await();

    assertThat(calls.subList(0, 4))
        .allSatisfy(
            call ->
                assertThat(call.cause())
                    .isInstanceOfSatisfying(
                        ServiceException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED)));
    assertThat(calls.get(4).succeeded()).isTrue();
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
    database.close();
  }

  @Test
  void aCoalescedRequestsCallerGoesOnOnItsOwnContext() {
    Database database = Database.connect(vertx, TestPostgres.database());
    NamespaceRepository namespaces = database.namespaces();
    String namespace = namespace();
    ContextInternal loop = (ContextInternal) vertx.getOrCreateContext();
    Promise<List<Future<Boolean>>> submitted = Promise.promise();
    loop.runOnContext(
        ignored -> {
          // the first lookup goes alone; the others complete with a later statement, in the
          // callback of another call's
          List<Future<Boolean>> ownContext = new ArrayList<>();
          for (int i = 0; i < 8; i++) {
            ContextInternal call = loop.duplicate();
            call.dispatch(
                () ->
                    ownContext.add(
                        namespaces.find(namespace).map(found -> Vertx.currentContext() == call)));
          }
          submitted.complete(ownContext);
        });

    assertThat(Future.all(submitted.future().await()).await().<Boolean>list()).containsOnly(true);
    database.close();
  }

  private static void awaitStatementWaitingForLock() {
    await("the upsert reaching the lock")
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                TestPostgres.queryLong(
                    TestPostgres.database(),
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
                        + " AND wait_event_type = 'Lock'",
                    "vfps-coalescer-it"),
            waiting -> waiting > 0);
  }
}
