package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.Upserted;

class PgPseudonymRepositoryIT {

  private static Vertx vertx;
  private static Database database;

  @BeforeAll
  static void connect() {
    vertx = Vertx.vertx();
    database = Database.connect(vertx, TestPostgres.database());
  }

  @AfterAll
  static void close() {
    database.close();
    vertx.close().await();
  }

  private static String namespace() {
    String name = "repository-" + UUID.randomUUID();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 4, '', '', now(), now())");
    return name;
  }

  private static Supplier<String> candidates(String... values) {
    Iterator<String> iterator = List.of(values).iterator();
    return iterator::next;
  }

  @Test
  void aCandidateTakenByAnotherOriginalIsReplacedByTheNextOne() {
    String namespace = namespace();
    database.pseudonyms().upsert(namespace, "a", candidates("taken")).await();

    Pseudonym b =
        database.pseudonyms().upsert(namespace, "b", candidates("taken", "fresh")).await();

    assertThat(b.pseudonymValue()).isEqualTo("fresh");
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
  }

  @Test
  void anExistingPairKeepsItsPseudonymWhateverTheCandidate() {
    String namespace = namespace();
    Pseudonym first = database.pseudonyms().upsert(namespace, "a", candidates("one")).await();

    Pseudonym again = database.pseudonyms().upsert(namespace, "a", candidates("two")).await();

    assertThat(again).isEqualTo(first);
  }

  @Test
  void saysWhetherItInsertedThePair() {
    String namespace = namespace();

    Upserted first =
        database.pseudonyms().insertIfAbsent(namespace, "a", candidates("one")).await();
    Upserted again =
        database.pseudonyms().insertIfAbsent(namespace, "a", candidates("two")).await();

    assertThat(first.inserted()).isTrue();
    assertThat(again.inserted()).isFalse();
    assertThat(again.pseudonym()).isEqualTo(first.pseudonym());
  }

  @Test
  void findsPseudonymsByOriginalValueWithoutStoringAny() {
    String namespace = namespace();
    Pseudonym a = database.pseudonyms().upsert(namespace, "a", candidates("pa")).await();
    Pseudonym b = database.pseudonyms().upsert(namespace, "b", candidates("pb")).await();

    Map<String, Pseudonym> found =
        database.pseudonyms().findAllByOriginal(namespace, List.of("b", "unknown", "a")).await();

    assertThat(found).containsOnlyKeys("a", "b");
    assertThat(found.get("a")).isEqualTo(a);
    assertThat(found.get("b")).isEqualTo(b);
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(2);
    assertThat(
            database.pseudonyms().findAllByOriginal("no-such-" + namespace, List.of("a")).await())
        .isEmpty();
  }

  @Test
  void givesUpAsInternalWhenEveryCandidateIsTaken() {
    String namespace = namespace();
    database.pseudonyms().upsert(namespace, "a", candidates("taken")).await();

    assertThatThrownBy(() -> database.pseudonyms().upsert(namespace, "b", () -> "taken").await())
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(1);
  }

  @Test
  void upsertIntoAMissingNamespaceIsNotFound() {
    assertThatThrownBy(
            () ->
                database
                    .pseudonyms()
                    .upsert("missing-" + UUID.randomUUID(), "a", candidates("x"))
                    .await())
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }

  @Test
  void countsPseudonymsPerNamespaceLeavingOutEmptyOnes() {
    String two = namespace();
    String one = namespace();
    String empty = namespace();
    database.pseudonyms().upsert(two, "a", candidates("a1")).await();
    database.pseudonyms().upsert(two, "b", candidates("b1")).await();
    database.pseudonyms().upsert(one, "a", candidates("a1")).await();

    Map<String, Long> counts = database.pseudonymCounts().await();

    assertThat(counts).containsEntry(two, 2L).containsEntry(one, 1L).doesNotContainKey(empty);
  }

  @Test
  void reportsTheDurationOfEveryUpsertStatementRun() {
    List<Long> upserts = new CopyOnWriteArrayList<>();
    Vertx own = Vertx.vertx();
    Database timed =
        Database.connect(
            own,
            TestPostgres.database(),
            new UpsertTimer() {
              @Override
              public void single(long nanos) {
                upserts.add(nanos);
              }

              @Override
              public void batch(long nanos, int rows) {}
            });
    try {
      String namespace = namespace();
      timed.pseudonyms().upsert(namespace, "a", candidates("taken")).await();
      timed.pseudonyms().upsert(namespace, "b", candidates("taken", "fresh")).await();
    } finally {
      timed.close();
      own.close().await();
    }

    // the second create ran twice: its first candidate was taken
    assertThat(upserts).hasSize(3).allMatch(nanos -> nanos > 0);
  }
}
