package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.admission.Admission;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceFailures;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;
import org.vfps.pseudonym.Withdrawal;

/**
 * Pseudonyms in the {@code pseudonyms} table. Thread-safe. Creates go through {@link
 * EventLoopCoalescers} (and {@link PseudonymUpsert} with its {@link Collisions} policy), lookups
 * for replies through {@link BudgetedReads}, withdrawals through {@link PgWithdrawals}, imports
 * through {@link PgImports}; the rest, which reads or writes a namespace's rows by value, is here.
 */
public final class PgPseudonymRepository implements PseudonymRepository {

  /** The most statements that {@link #growTo} sends for one call. */
  static final int GROW_ROUNDS = 10;

  private final Pool pool;
  private final PseudonymUpsert single;
  private final EventLoopCoalescers coalescers;
  private final BudgetedReads reads;
  private final PgWithdrawals withdrawals;
  private final PgImports imports;
  private final StoredOriginals originals;

  /** How often a write is tried again after the namespace's form changed under it. */
  private static final int FORM_ATTEMPTS = 3;

  PgPseudonymRepository(
      Vertx vertx, Pool pool, UpsertTimer timer, Admission admission, StoredOriginals originals) {
    this.pool = pool;
    this.originals = originals;
    this.single = new PseudonymUpsert(pool, timer, this::count);
    this.coalescers = new EventLoopCoalescers(vertx, pool, single, timer, admission);
    this.reads = new BudgetedReads(pool, originals);
    this.withdrawals = new PgWithdrawals(pool);
    this.imports = new PgImports(pool);
  }

  /**
   * See {@link EventLoopCoalescers#upsert}; in a namespace that holds rows of both forms, the
   * single-row {@link PseudonymUpsert#upsertInTransition}.
   */
  @Override
  public Future<Upserted> insertIfAbsent(
      Namespace namespace, String originalValue, Candidates candidates) {
    SealingStates.Sealing known = originals.states().known(namespace.name(), namespace.createdAt());
    if (known != null && known.form() == SealingForm.PLAIN) {
      return coalescers.upsert(namespace, originalValue, null, candidates);
    }
    if (known != null) {
      // the view at hand serves: no future for the form
      StoredOriginals.Write write;
      try {
        write = originals.write(namespace.name(), originalValue, known);
      } catch (ServiceException refused) {
        return Future.failedFuture(refused);
      }
      return insertAs(namespace, originalValue, write, candidates, 1);
    }
    return originals
        .write(namespace.name(), namespace.createdAt(), originalValue)
        .compose(write -> insertAs(namespace, originalValue, write, candidates, 1));
  }

  private Future<Upserted> insertAs(
      Namespace namespace,
      String originalValue,
      StoredOriginals.Write write,
      Candidates candidates,
      int attempt) {
    if (write.form() == SealingForm.PLAIN) {
      return coalescers.upsert(namespace, write.key(), null, candidates);
    }
    Future<Upserted> stored =
        write.otherKey() != null
            ? single.upsertInTransition(namespace, write, candidates)
            : coalescers.upsert(namespace, write.key(), write.sealed(), candidates);
    return stored
        .map(
            upserted ->
                new Upserted(
                    upserted.pseudonym().withOriginalValue(originalValue), upserted.inserted()))
        .recover(
            failure ->
                failure == PseudonymUpsert.STALE_FORM && attempt < FORM_ATTEMPTS
                    ? originals
                        .states()
                        .reload()
                        .compose(
                            reloaded ->
                                originals.write(
                                    namespace.name(), namespace.createdAt(), originalValue))
                        .compose(
                            again ->
                                insertAs(namespace, originalValue, again, candidates, attempt + 1))
                    : Future.failedFuture(failure));
  }

  /**
   * See {@link EventLoopCoalescers#upsertAll}; in a namespace that holds rows of both forms, value
   * by value as {@link #insertIfAbsent}.
   */
  @Override
  public Future<List<Pseudonym>> upsertAll(
      Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates) {
    return originals
        .sealing(namespace.name(), namespace.createdAt())
        .compose(
            sealing -> {
              if (sealing.form() == SealingForm.PLAIN) {
                return coalescers.upsertAll(namespace, originalValues, value -> null, candidates);
              }
              if (sealing.inTransition()) {
                List<Future<Pseudonym>> each = new ArrayList<>(originalValues.size());
                for (String value : originalValues) {
                  each.add(
                      insertIfAbsent(namespace, value, candidates.apply(value))
                          .map(Upserted::pseudonym));
                }
                return Future.all(each).map(all -> all.<Pseudonym>list());
              }
              Map<String, StoredOriginals.Write> writes = HashMap.newHashMap(originalValues.size());
              Map<String, String> originalOfKey = HashMap.newHashMap(originalValues.size());
              List<String> keys = new ArrayList<>(originalValues.size());
              for (String value : originalValues) {
                StoredOriginals.Write write = originals.write(namespace.name(), value, sealing);
                writes.put(write.key(), write);
                originalOfKey.put(write.key(), value);
                keys.add(write.key());
              }
              return coalescers
                  .upsertAll(
                      namespace,
                      keys,
                      key -> writes.get(key).sealed(),
                      key -> candidates.apply(originalOfKey.get(key)))
                  .map(
                      stored ->
                          stored.stream()
                              .map(
                                  pseudonym ->
                                      pseudonym.withOriginalValue(
                                          originalOfKey.get(pseudonym.originalValue())))
                              .toList());
            });
  }

  /** See {@link BudgetedReads#findByValue}. */
  @Override
  public Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
    return reads.findByValue(namespace, pseudonymValue);
  }

  /** See {@link BudgetedReads#findAllIn}. */
  @Override
  public Future<Map<String, Pseudonym>> findAllByValue(
      String namespace, List<String> pseudonymValues) {
    return reads.findAllIn(namespace, pseudonymValues, PseudonymQueries.FIND_ALL_BY_VALUE, false);
  }

  /** See {@link BudgetedReads#findAllIn}, by the keys {@link StoredOriginals} gives. */
  @Override
  public Future<Map<String, Pseudonym>> findAllByOriginal(
      String namespace, List<String> originalValues) {
    return originals
        .lookup(namespace, originalValues)
        .compose(
            lookup ->
                reads
                    .findAllIn(
                        namespace,
                        List.of(lookup.keys()),
                        PseudonymQueries.FIND_ALL_BY_ORIGINAL,
                        true)
                    .map(lookup::byOriginal));
  }

  @Override
  public Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after) {
    Future<RowSet<Row>> rows =
        after
            .map(
                cursor ->
                    pool.preparedQuery(PseudonymQueries.NEXT_PAGE)
                        .execute(
                            Tuple.of(
                                namespace,
                                OffsetDateTime.ofInstant(cursor.createdAt(), ZoneOffset.UTC),
                                cursor.originalValue(),
                                cursor.sequenceNumber(),
                                limit)))
            .orElseGet(
                () ->
                    pool.preparedQuery(PseudonymQueries.FIRST_PAGE)
                        .execute(Tuple.of(namespace, limit)));
    return rows.recover(failure -> PseudonymRows.failed(failure, namespace))
        .map(
            page -> {
              List<PageRow> result = new ArrayList<>(page.size());
              for (Row row : page) {
                Pseudonym pseudonym =
                    PseudonymRows.toPseudonym(
                        namespace,
                        null,
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number"));
                result.add(
                    new PageRow(
                        pseudonym,
                        new ListCursor(
                            pseudonym.createdAt(),
                            row.getString("original_value"),
                            row.getLong("sequence_number")),
                        () -> originals.original(namespace, row)));
              }
              return result;
            });
  }

  @Override
  public Future<Long> count(String namespace) {
    return pool.preparedQuery(PseudonymQueries.COUNT)
        .execute(Tuple.of(namespace))
        .recover(failure -> PseudonymRows.failed(failure, namespace))
        .map(rows -> rows.iterator().next().getLong(0));
  }

  /**
   * The number of pseudonyms of every namespace that has any; namespaces without pseudonyms are
   * absent. Counts every row, so it is meant for a periodic gauge, not for requests.
   */
  public Future<Map<String, Long>> countByNamespace() {
    return pool.preparedQuery(PseudonymQueries.COUNT_BY_NAMESPACE)
        .execute()
        .recover(failure -> Future.failedFuture(PgFailures.translate(failure, Map.of())))
        .map(
            rows -> {
              Map<String, Long> counts = new HashMap<>();
              rows.forEach(row -> counts.put(row.getString(0), row.getLong(1)));
              return Collections.unmodifiableMap(counts);
            });
  }

  /** Reads every pseudonym of the original value, by sequence number. */
  @Override
  public Future<List<Pseudonym>> findAllOfOriginal(String namespace, String originalValue) {
    return originals
        .lookup(namespace, List.of(originalValue))
        .compose(
            lookup ->
                pool.preparedQuery(PseudonymQueries.FIND_ALL_OF_ORIGINAL)
                    .execute(Tuple.tuple().addString(namespace).addArrayOfString(lookup.keys())))
        .recover(failure -> PseudonymRows.failed(failure, namespace))
        .map(
            rows -> {
              List<Pseudonym> found = new ArrayList<>(rows.size());
              for (Row row : rows) {
                found.add(
                    PseudonymRows.toPseudonym(
                        namespace,
                        originalValue,
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number")));
              }
              return Collections.unmodifiableList(found);
            });
  }

  /**
   * Reads the value's pseudonyms; while it has fewer than {@code count}, stores candidates for the
   * sequence numbers missing below {@code count} in one statement and reads again. Candidates that
   * met a concurrent call's rows or another value's pseudonym are skipped by the statement and
   * replaced in the next round, at most {@value #GROW_ROUNDS} rounds: each of them is a fresh draw
   * among many, so that more mean a full namespace ({@code RESOURCE_EXHAUSTED}, as {@link
   * Collisions} judges it from a count) or else a bug, {@code INTERNAL}.
   */
  @Override
  public Future<List<Pseudonym>> growTo(
      Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates) {
    return grow(namespace, originalValue, count, candidates, null, 0);
  }

  private Future<List<Pseudonym>> grow(
      Namespace namespace,
      String originalValue,
      int count,
      Supplier<Candidates> supplier,
      Candidates candidates,
      int round) {
    return findAllOfOriginal(namespace.name(), originalValue)
        .compose(
            stored -> {
              if (stored.size() >= count) {
                return Future.succeededFuture(stored);
              }
              Candidates next = candidates != null ? candidates : supplier.get();
              if (round >= GROW_ROUNDS) {
                Collisions collisions = new Collisions();
                return count(namespace.name())
                    .compose(
                        taken -> {
                          collisions.counted(taken, next.distinct());
                          return Future.failedFuture(collisions.exhausted(namespace.name(), null));
                        });
              }
              Set<Long> taken = new HashSet<>();
              Set<String> values = new HashSet<>();
              for (Pseudonym pseudonym : stored) {
                taken.add(pseudonym.sequenceNumber());
                values.add(pseudonym.pseudonymValue());
              }
              List<String> pseudonymValues = new ArrayList<>();
              List<Long> sequenceNumbers = new ArrayList<>();
              for (long sequence = 0; sequenceNumbers.size() < count - stored.size(); sequence++) {
                if (taken.contains(sequence)) {
                  continue;
                }
                String candidate = next.get();
                // a deterministic method can give no second value: the namespace refuses that
                for (int tries = 0;
                    !values.add(candidate) && tries < Collisions.MAX_COLLISIONS;
                    tries++) {
                  candidate = next.get();
                }
                pseudonymValues.add(candidate);
                sequenceNumbers.add(sequence);
              }
              return originals
                  .write(namespace.name(), namespace.createdAt(), originalValue)
                  .compose(
                      write ->
                          insertSequenceNumbers(namespace, write, pseudonymValues, sequenceNumbers)
                              .recover(
                                  failure ->
                                      PgFailures.violates(
                                              failure, PgFailures.FOREIGN_KEY_VIOLATION, null)
                                          ? Future.failedFuture(
                                              NamespaceFailures.notFound(namespace.name()))
                                          : PseudonymRows.failed(failure, namespace.name()))
                              .compose(
                                  inserted -> {
                                    Row row = inserted.iterator().next();
                                    if (row.getBoolean("present")) {
                                      return grow(
                                          namespace,
                                          originalValue,
                                          count,
                                          supplier,
                                          next,
                                          round + 1);
                                    }
                                    if (write.otherKey() != null && row.getBoolean("stale")) {
                                      // the form changed since it was read: read it again
                                      return originals
                                          .states()
                                          .reload()
                                          .compose(
                                              reloaded ->
                                                  grow(
                                                      namespace,
                                                      originalValue,
                                                      count,
                                                      supplier,
                                                      next,
                                                      round + 1));
                                    }
                                    return Future.failedFuture(
                                        NamespaceFailures.notFound(namespace.name()));
                                  }));
            });
  }

  /**
   * Stores candidates for the sequence numbers of one value in the form {@code write} says: in a
   * namespace being sealed or unsealed, guarded against the other form ({@link
   * PseudonymQueries#INSERT_SEQUENCE_NUMBERS_IN_TRANSITION}).
   */
  private Future<RowSet<Row>> insertSequenceNumbers(
      Namespace namespace,
      StoredOriginals.Write write,
      List<String> pseudonymValues,
      List<Long> sequenceNumbers) {
    Tuple tuple =
        Tuple.of(
            namespace.name(),
            write.key(),
            pseudonymValues.toArray(String[]::new),
            sequenceNumbers.toArray(Long[]::new),
            PseudonymRows.createdAt(namespace),
            write.sealed());
    if (write.otherKey() == null) {
      return pool.preparedQuery(PseudonymQueries.INSERT_SEQUENCE_NUMBERS).execute(tuple);
    }
    return pool.preparedQuery(PseudonymQueries.INSERT_SEQUENCE_NUMBERS_IN_TRANSITION)
        .execute(
            tuple
                .addString(write.otherKey())
                .addBoolean(write.sealed() != null)
                .addBuffer(Buffer.buffer(write.indexKeyCheck())));
  }

  /** See {@link PgWithdrawals#withdraw}. */
  @Override
  public Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal) {
    return originals
        .lookup(namespace, originalValues)
        .compose(
            lookup ->
                withdrawals
                    .withdraw(namespace, List.of(lookup.keys()), withdrawal)
                    .map(
                        byKey -> {
                          Map<String, List<Pseudonym>> byOriginal =
                              HashMap.newHashMap(byKey.size());
                          byKey.forEach(
                              (key, pseudonyms) ->
                                  byOriginal
                                      .computeIfAbsent(
                                          lookup.original(key), value -> new ArrayList<>())
                                      .addAll(pseudonyms));
                          return Map.copyOf(byOriginal);
                        }));
  }

  /**
   * See {@link PgImports#importPairs}; a sealed namespace's pairs are stored sealed. A namespace
   * being sealed or unsealed takes no import until that is done ({@code UNAVAILABLE}).
   */
  @Override
  public Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs) {
    return originals
        .sealing(namespace.name(), namespace.createdAt())
        .compose(
            sealing -> {
              if (sealing.form() == SealingForm.PLAIN) {
                return imports.importPairs(namespace, multiple, pairs, key -> null);
              }
              if (sealing.inTransition()) {
                return Future.failedFuture(
                    new ServiceException(
                        ErrorCode.UNAVAILABLE,
                        "Namespace '"
                            + namespace.name()
                            + "' is being sealed or unsealed; import once that is done.",
                        PseudonymRows.metadata(namespace.name())));
              }
              Map<String, Buffer> sealed = HashMap.newHashMap(pairs.size());
              List<ImportedPair> stored = new ArrayList<>(pairs.size());
              for (ImportedPair pair : pairs) {
                StoredOriginals.Write write =
                    originals.write(namespace.name(), pair.originalValue(), sealing);
                sealed.put(write.key(), write.sealed());
                stored.add(new ImportedPair(write.key(), pair.pseudonymValue()));
              }
              return imports.importPairs(namespace, multiple, stored, sealed::get);
            });
  }

  @Override
  public Future<Set<String>> existingPseudonymValues(String namespace, List<String> values) {
    return pool.preparedQuery(PseudonymQueries.EXISTING_PSEUDONYM_VALUES)
        .execute(Tuple.tuple().addString(namespace).addArrayOfString(values.toArray(String[]::new)))
        .recover(failure -> PseudonymRows.failed(failure, namespace))
        .map(
            rows -> {
              Set<String> existing = new HashSet<>();
              rows.forEach(row -> existing.add(row.getString(0)));
              return Collections.unmodifiableSet(existing);
            });
  }

  /**
   * The namespace's time of creation as the database keeps it (see {@link
   * PseudonymRows#createdAt}), bound by the multi-row upsert of {@link WriteCoalescer}.
   */
  static OffsetDateTime createdAt(Namespace namespace) {
    return PseudonymRows.createdAt(namespace);
  }
}
