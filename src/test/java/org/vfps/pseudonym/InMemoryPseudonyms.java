package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;

/**
 * Pseudonyms in a list, with the unique rules of the {@code pseudonyms} table (one pseudonym value
 * per namespace, one row per value and sequence number); enough for the service's contract with its
 * repository. Each row is created a microsecond after the one before, so that pages are ordered.
 * Counts the statements a lookup of values would send, for tests of what reaches the repository.
 */
final class InMemoryPseudonyms implements PseudonymRepository {

  private final List<Pseudonym> rows = new ArrayList<>();
  private final Instant start = Instant.parse("2026-01-01T00:00:00Z");
  private int lookups;

  /** How many lookups of many values were asked. */
  synchronized int lookups() {
    return lookups;
  }

  /** Every stored row, in creation order. */
  synchronized List<Pseudonym> rows() {
    return List.copyOf(rows);
  }

  @Override
  public synchronized Future<Upserted> insertIfAbsent(
      Namespace namespace, String originalValue, Candidates candidates) {
    Optional<Pseudonym> stored = row(namespace.name(), originalValue, 0);
    if (stored.isPresent()) {
      return Future.succeededFuture(new Upserted(stored.get(), false));
    }
    String candidate = candidates.get();
    while (byValue(namespace.name(), candidate).isPresent()) {
      if (candidates.distinct() <= 1) {
        return Future.failedFuture(
            new ServiceException(ErrorCode.FAILED_PRECONDITION, "held by another row", Map.of()));
      }
      candidate = candidates.get();
    }
    return Future.succeededFuture(new Upserted(add(namespace, originalValue, candidate, 0), true));
  }

  @Override
  public synchronized Future<List<Pseudonym>> upsertAll(
      Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates) {
    List<Pseudonym> stored = new ArrayList<>();
    for (String value : originalValues) {
      Future<Upserted> one = insertIfAbsent(namespace, value, candidates.apply(value));
      if (one.failed()) {
        return Future.failedFuture(one.cause());
      }
      stored.add(one.result().pseudonym());
    }
    return Future.succeededFuture(List.copyOf(stored));
  }

  @Override
  public synchronized Future<Optional<Pseudonym>> findByValue(
      String namespace, String pseudonymValue) {
    return Future.succeededFuture(byValue(namespace, pseudonymValue));
  }

  @Override
  public synchronized Future<Map<String, Pseudonym>> findAllByValue(
      String namespace, List<String> pseudonymValues) {
    lookups++;
    Map<String, Pseudonym> found = new HashMap<>();
    pseudonymValues.forEach(
        value -> byValue(namespace, value).ifPresent(row -> found.put(value, row)));
    return Future.succeededFuture(found);
  }

  @Override
  public synchronized Future<List<PageRow>> list(
      String namespace, int limit, Optional<ListCursor> after) {
    return Future.succeededFuture(
        rows.stream()
            .filter(row -> row.namespace().equals(namespace))
            .filter(row -> after.isEmpty() || row.createdAt().isBefore(after.get().createdAt()))
            .sorted(Comparator.comparing(Pseudonym::createdAt).reversed())
            .limit(limit)
            .map(
                row ->
                    new PageRow(
                        withoutOriginal(row, false),
                        new ListCursor(row.createdAt(), row.originalValue(), row.sequenceNumber()),
                        row::originalValue))
            .toList());
  }

  @Override
  public synchronized Future<Long> count(String namespace) {
    return Future.succeededFuture(
        rows.stream().filter(row -> row.namespace().equals(namespace)).count());
  }

  @Override
  public synchronized Future<Map<String, Pseudonym>> findAllByOriginal(
      String namespace, List<String> originalValues) {
    lookups++;
    Map<String, Pseudonym> found = new HashMap<>();
    originalValues.forEach(
        value -> row(namespace, value, 0).ifPresent(row -> found.put(value, row)));
    return Future.succeededFuture(found);
  }

  @Override
  public synchronized Future<List<Pseudonym>> findAllOfOriginal(
      String namespace, String originalValue) {
    return Future.succeededFuture(allOf(namespace, originalValue));
  }

  @Override
  public synchronized Future<List<Pseudonym>> growTo(
      Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates) {
    List<Pseudonym> stored = allOf(namespace.name(), originalValue);
    if (stored.size() >= count) {
      return Future.succeededFuture(stored);
    }
    Candidates next = candidates.get();
    for (long sequence = stored.size(); sequence < count; sequence++) {
      String candidate = next.get();
      while (byValue(namespace.name(), candidate).isPresent()) {
        candidate = next.get();
      }
      add(namespace, originalValue, candidate, sequence);
    }
    return Future.succeededFuture(allOf(namespace.name(), originalValue));
  }

  @Override
  public synchronized Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal) {
    Map<String, List<Pseudonym>> withdrawn = new LinkedHashMap<>();
    for (String value : originalValues) {
      List<Pseudonym> of = allOf(namespace, value);
      if (of.isEmpty()) {
        continue;
      }
      rows.removeAll(of);
      String anonymized = AnonymizedOriginals.next();
      List<Pseudonym> answered = new ArrayList<>();
      for (Pseudonym row : of) {
        boolean kept = withdrawal == Withdrawal.ANONYMIZE;
        if (kept) {
          rows.add(
              new Pseudonym(
                  namespace,
                  anonymized,
                  row.pseudonymValue(),
                  row.createdAt(),
                  row.lastUpdatedAt(),
                  row.sequenceNumber()));
        }
        answered.add(withoutOriginal(row, kept));
      }
      withdrawn.put(value, List.copyOf(answered));
    }
    return Future.succeededFuture(withdrawn);
  }

  @Override
  public Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs) {
    throw new UnsupportedOperationException("imports are tested against PostgreSQL");
  }

  @Override
  public synchronized Future<Set<String>> existingPseudonymValues(
      String namespace, List<String> values) {
    Set<String> existing = new HashSet<>();
    values.forEach(value -> byValue(namespace, value).ifPresent(row -> existing.add(value)));
    return Future.succeededFuture(existing);
  }

  private Pseudonym add(Namespace namespace, String originalValue, String value, long sequence) {
    Instant at = start.plus(rows.size(), ChronoUnit.MICROS);
    Pseudonym row = new Pseudonym(namespace.name(), originalValue, value, at, at, sequence);
    rows.add(row);
    return row;
  }

  private Optional<Pseudonym> row(String namespace, String originalValue, long sequence) {
    return rows.stream()
        .filter(row -> row.namespace().equals(namespace))
        .filter(row -> originalValue.equals(row.originalValue()))
        .filter(row -> row.sequenceNumber() == sequence)
        .findFirst()
        .map(InMemoryPseudonyms::asStored);
  }

  private Optional<Pseudonym> byValue(String namespace, String pseudonymValue) {
    return rows.stream()
        .filter(row -> row.namespace().equals(namespace))
        .filter(row -> row.pseudonymValue().equals(pseudonymValue))
        .findFirst()
        .map(InMemoryPseudonyms::asStored);
  }

  private List<Pseudonym> allOf(String namespace, String originalValue) {
    return rows.stream()
        .filter(row -> row.namespace().equals(namespace))
        .filter(row -> originalValue.equals(row.originalValue()))
        .sorted(Comparator.comparingLong(Pseudonym::sequenceNumber))
        .toList();
  }

  /** A row as the table's reads answer it: withdrawn, without original value, if anonymized. */
  private static Pseudonym asStored(Pseudonym row) {
    return AnonymizedOriginals.is(row.originalValue()) ? withoutOriginal(row, true) : row;
  }

  /** The row without its original value, as lists and withdrawals answer it. */
  private static Pseudonym withoutOriginal(Pseudonym row, boolean withdrawn) {
    return new Pseudonym(
        row.namespace(),
        null,
        row.pseudonymValue(),
        row.createdAt(),
        row.lastUpdatedAt(),
        row.sequenceNumber(),
        withdrawn);
  }
}
