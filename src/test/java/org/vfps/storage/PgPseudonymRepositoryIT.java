package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;

@ExtendWith(VertxExtension.class)
class PgPseudonymRepositoryIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static Vertx vertx;
  private static Database database;
  private static PseudonymRepository pseudonyms;

  @BeforeAll
  static void connect(Vertx shared) {
    vertx = shared;
    database = resources.own(Database.connect(vertx, TestPostgres.database()));
    pseudonyms = database.pseudonyms();
  }

  private static String namespace() {
    String name = "repository-" + UUID.randomUUID();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 4, '', '', now(), now())");
    return name;
  }

  private static Candidates candidates(String... values) {
    Iterator<String> iterator = List.of(values).iterator();
    return iterator::next;
  }

  /** The stored count, read over JDBC on a worker thread: a second opinion on the repository. */
  private static Future<Long> storedCount(String namespace) {
    return vertx.executeBlocking(() -> TestPostgres.pseudonymCount(namespace));
  }

  @Test
  void aCandidateTakenByAnotherOriginalIsReplacedByTheNextOne(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    pseudonyms
        .upsert(looked, "a", candidates("taken"))
        .compose(a -> pseudonyms.upsert(looked, "b", candidates("taken", "fresh")))
        .compose(
            b -> {
              test.verify(() -> assertThat(b.pseudonymValue()).isEqualTo("fresh"));
              return storedCount(namespace);
            })
        .onComplete(
            test.succeeding(
                count ->
                    test.verify(
                        () -> {
                          assertThat(count).isEqualTo(2);
                          test.completeNow();
                        })));
  }

  /**
   * A replica may run against the schema before V4 while a rolling upgrade migrates, where the
   * unique index on pseudonym values has its earlier name: a taken candidate is still a collision.
   */
  @Test
  void aCandidateTakenIsReplacedOnTheSchemaBeforeVersion4Too(VertxTestContext test) {
    ConnectionSettings before = TestPostgres.freshDatabase();
    Migrations.migrate(before);
    TestPostgres.execute(
        before,
        "ALTER INDEX ix_pseudonyms_namespace_name_pseudonym_value"
            + " RENAME TO ux_pseudonyms_namespace_name_pseudonym_value",
        "CREATE INDEX ix_pseudonyms_namespace_name_pseudonym_value"
            + " ON pseudonyms (namespace_name, pseudonym_value)",
        "INSERT INTO namespaces VALUES ('v3', '', 5, 4, '', '', now(), now())");
    Database v3 = Database.connect(vertx, before);
    v3.pseudonyms()
        .upsert(TestPostgres.storedNamespace(before, "v3"), "a", candidates("taken"))
        .compose(
            a ->
                v3.pseudonyms()
                    .upsert(
                        TestPostgres.storedNamespace(before, "v3"),
                        "b",
                        candidates("taken", "fresh")))
        .andThen(done -> v3.close())
        .onComplete(
            test.succeeding(
                b ->
                    test.verify(
                        () -> {
                          assertThat(b.pseudonymValue()).isEqualTo("fresh");
                          test.completeNow();
                        })));
  }

  @Test
  void anExistingPairKeepsItsPseudonymWhateverTheCandidate(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    pseudonyms
        .upsert(looked, "a", candidates("one"))
        .compose(
            first ->
                pseudonyms
                    .upsert(looked, "a", candidates("two"))
                    .onComplete(
                        test.succeeding(
                            again ->
                                test.verify(
                                    () -> {
                                      assertThat(again).isEqualTo(first);
                                      test.completeNow();
                                    }))));
  }

  @Test
  void saysWhetherItInsertedThePair(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    pseudonyms
        .insertIfAbsent(looked, "a", candidates("one"))
        .compose(
            first ->
                pseudonyms
                    .insertIfAbsent(looked, "a", candidates("two"))
                    .map(again -> List.of(first, again)))
        .onComplete(
            test.succeeding(
                both ->
                    test.verify(
                        () -> {
                          assertThat(both.get(0).inserted()).isTrue();
                          assertThat(both.get(1).inserted()).isFalse();
                          assertThat(both.get(1).pseudonym()).isEqualTo(both.get(0).pseudonym());
                          test.completeNow();
                        })));
  }

  @Test
  void findsPseudonymsByOriginalValueWithoutStoringAny(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    Future<Pseudonym> a = pseudonyms.upsert(looked, "a", candidates("pa"));
    Future<Pseudonym> b = pseudonyms.upsert(looked, "b", candidates("pb"));
    Future.all(a, b)
        .compose(stored -> pseudonyms.findAllByOriginal(namespace, List.of("b", "unknown", "a")))
        .compose(
            found -> {
              test.verify(
                  () -> {
                    assertThat(found).containsOnlyKeys("a", "b");
                    assertThat(found.get("a")).isEqualTo(a.result());
                    assertThat(found.get("b")).isEqualTo(b.result());
                  });
              return pseudonyms.findAllByOriginal("no-such-" + namespace, List.of("a"));
            })
        .compose(
            inUnknownNamespace -> {
              test.verify(() -> assertThat(inUnknownNamespace).isEmpty());
              return storedCount(namespace);
            })
        .onComplete(
            test.succeeding(
                count ->
                    test.verify(
                        () -> {
                          assertThat(count).isEqualTo(2);
                          test.completeNow();
                        })));
  }

  /**
   * A namespace of the .NET service may hold several pseudonyms of one original value, numbered
   * from 0: the pseudonym of the value is the first, found or upserted, alone or in a batch, while
   * each of them is found by its value.
   */
  @Test
  void thePseudonymOfAnOriginalValueWithSeveralIsItsFirst(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO pseudonyms (namespace_name, original_value, sequence_number, pseudonym_value,"
            + " created_at, last_updated_at) VALUES"
            + " ('"
            + namespace
            + "', 'a', 2, 'third', now(), now()),"
            + " ('"
            + namespace
            + "', 'a', 0, 'first', now(), now()),"
            + " ('"
            + namespace
            + "', 'a', 1, 'second', now(), now())");
    Future<Upserted> single = pseudonyms.insertIfAbsent(looked, "a", candidates("new"));
    Future<List<Pseudonym>> batch =
        pseudonyms.upsertAll(looked, List.of("b", "a"), value -> candidates("new-" + value));
    Future<Map<String, Pseudonym>> byOriginal =
        pseudonyms.findAllByOriginal(namespace, List.of("a"));
    Future<Map<String, Pseudonym>> byValue =
        pseudonyms.findAllByValue(namespace, List.of("third", "second"));
    Future.all(single, batch, byOriginal, byValue)
        .onComplete(
            test.succeeding(
                done ->
                    test.verify(
                        () -> {
                          assertThat(single.result().inserted()).isFalse();
                          assertThat(single.result().pseudonym().pseudonymValue())
                              .isEqualTo("first");
                          assertThat(batch.result())
                              .extracting(Pseudonym::pseudonymValue)
                              .containsExactly("new-b", "first");
                          assertThat(byOriginal.result().get("a").pseudonymValue())
                              .isEqualTo("first");
                          assertThat(byValue.result().values())
                              .extracting(Pseudonym::originalValue)
                              .containsExactly("a", "a");
                          assertThat(
                                  TestPostgres.queryLong(
                                      TestPostgres.database(),
                                      "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?",
                                      namespace))
                              .isEqualTo(4);
                          test.completeNow();
                        })));
  }

  /**
   * Pseudonyms of one time and original value are listed by their sequence numbers, newest first,
   * and a page that ends between two of them goes on with the next.
   */
  @Test
  void listsPseudonymsOfOneTimeAndOriginalValueBySequenceNumber(VertxTestContext test) {
    String namespace = namespace();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO pseudonyms (namespace_name, original_value, sequence_number, pseudonym_value,"
            + " created_at, last_updated_at) SELECT '"
            + namespace
            + "', 'a', n, 'p' || n, '2026-09-24T09:00:00Z', '2026-09-24T09:00:00Z'"
            + " FROM generate_series(0, 3) n");
    List<String> listed = new CopyOnWriteArrayList<>();
    pseudonyms
        .list(namespace, 3, Optional.empty())
        .compose(
            first -> {
              first.forEach(row -> listed.add(row.pseudonym().pseudonymValue()));
              return pseudonyms.list(namespace, 3, Optional.of(first.getLast().cursor()));
            })
        .onComplete(
            test.succeeding(
                second ->
                    test.verify(
                        () -> {
                          second.forEach(row -> listed.add(row.pseudonym().pseudonymValue()));
                          assertThat(listed).containsExactly("p3", "p2", "p1", "p0");
                          assertThat(second.getFirst().cursor().sequenceNumber()).isZero();
                          test.completeNow();
                        })));
  }

  @Test
  void givesUpAsInternalWhenEveryCandidateIsTaken(VertxTestContext test) {
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    pseudonyms
        .upsert(looked, "a", candidates("taken"))
        .compose(a -> pseudonyms.upsert(looked, "b", () -> "taken"))
        .onComplete(
            test.failing(
                failure ->
                    test.verify(
                        () ->
                            assertThat(failure)
                                .isInstanceOfSatisfying(
                                    ServiceException.class,
                                    e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL)))))
        .transform(failed -> storedCount(namespace))
        .onComplete(
            test.succeeding(
                count ->
                    test.verify(
                        () -> {
                          assertThat(count).isEqualTo(1);
                          test.completeNow();
                        })));
  }

  @Test
  void upsertIntoADeletedNamespaceIsNotFound(VertxTestContext test) {
    String name = namespace();
    Namespace deleted = TestPostgres.storedNamespace(name);
    TestPostgres.execute(
        TestPostgres.database(), "DELETE FROM namespaces WHERE name = '" + name + "'");
    pseudonyms
        .upsert(deleted, "a", candidates("x"))
        .onComplete(
            test.failing(
                failure ->
                    test.verify(
                        () -> {
                          assertThat(failure)
                              .isInstanceOfSatisfying(
                                  ServiceException.class,
                                  e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
                          test.completeNow();
                        })));
  }

  /**
   * Every write is bound to the namespace as its caller looked it up: one deleted and created again
   * under its name meanwhile is another namespace, and gets none of the writes.
   */
  @Test
  void writesForANamespaceCreatedAgainUnderItsNameAreNotFoundAndStoreNothing() {
    String name = namespace();
    Namespace looked = TestPostgres.storedNamespace(name);
    TestPostgres.execute(
        TestPostgres.database(),
        "DELETE FROM namespaces WHERE name = '" + name + "'",
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 4, '', '', now(), now())");

    List<Future<?>> writes =
        List.of(
            pseudonyms.upsert(looked, "single", candidates("s")),
            database
                .pseudonyms()
                .upsertAll(looked, List.of("a", "b"), value -> () -> value + UUID.randomUUID()),
            pseudonyms.growTo(looked, "grown", 2, () -> candidates("g1", "g2")),
            pseudonyms.importPairs(
                looked, false, List.of(new org.vfps.pseudonym.ImportedPair("i", "imported"))));
    for (Future<?> write : writes) {
      assertThatThrownBy(write::await)
          .isInstanceOfSatisfying(
              ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
    assertThat(TestPostgres.pseudonymCount(name)).isZero();
  }

  @Test
  void countsPseudonymsPerNamespaceLeavingOutEmptyOnes(VertxTestContext test) {
    String two = namespace();
    String one = namespace();
    String empty = namespace();
    Future.all(
            pseudonyms.upsert(TestPostgres.storedNamespace(two), "a", candidates("a1")),
            pseudonyms.upsert(TestPostgres.storedNamespace(two), "b", candidates("b1")),
            pseudonyms.upsert(TestPostgres.storedNamespace(one), "a", candidates("a1")))
        .compose(stored -> database.pseudonymCounts())
        .onComplete(
            test.succeeding(
                counts ->
                    test.verify(
                        () -> {
                          assertThat(counts)
                              .containsEntry(two, 2L)
                              .containsEntry(one, 1L)
                              .doesNotContainKey(empty);
                          test.completeNow();
                        })));
  }

  @Test
  void reportsTheDurationOfEveryUpsertStatementRun(VertxTestContext test) {
    List<Long> upserts = new CopyOnWriteArrayList<>();
    Database timed =
        Database.connect(
            vertx,
            TestPostgres.database(),
            new UpsertTimer() {
              @Override
              public void single(long nanos) {
                upserts.add(nanos);
              }

              @Override
              public void batch(long nanos, int rows) {}
            });
    String namespace = namespace();
    Namespace looked = TestPostgres.storedNamespace(namespace);
    timed
        .pseudonyms()
        .upsert(looked, "a", candidates("taken"))
        .compose(a -> timed.pseudonyms().upsert(looked, "b", candidates("taken", "fresh")))
        .andThen(done -> timed.close())
        .onComplete(
            test.succeeding(
                b ->
                    test.verify(
                        () -> {
                          // the second create ran twice: its first candidate was taken
                          assertThat(upserts).hasSize(3).allMatch(nanos -> nanos > 0);
                          test.completeNow();
                        })));
  }
}
