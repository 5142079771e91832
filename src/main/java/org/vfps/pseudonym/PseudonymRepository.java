package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.namespace.Namespace;

/**
 * Where pseudonyms are stored. Futures fail with {@link org.vfps.error.ServiceException}: {@code
 * UNAVAILABLE} while the database cannot be reached, {@code INTERNAL} otherwise.
 */
public interface PseudonymRepository {

  /**
   * Returns the stored pseudonym of (namespace, original value), storing a candidate first if there
   * is none. Idempotent: every call for the same pair yields the same stored row, also under
   * concurrency. A candidate already used by another original value of the namespace is replaced by
   * the next one from {@code candidates}, until the namespace is (almost) full. The future
   * completes only after the row is committed. The row is bound to {@code namespace} as the caller
   * looked it up: it fails with {@code NOT_FOUND}, and stores nothing, if that namespace does not
   * exist any more (deleted meanwhile, even if created again under its name); with {@code
   * RESOURCE_EXHAUSTED} if it has no free pseudonym left; and with {@code FAILED_PRECONDITION} if
   * {@code candidates} has only one ({@link Candidates#distinct()} 1, a method that derives the
   * pseudonym from the value) and another row holds it: the caller, who knows the method, looks
   * that row up to say what it means.
   */
  default Future<Pseudonym> upsert(
      Namespace namespace, String originalValue, Candidates candidates) {
    return insertIfAbsent(namespace, originalValue, candidates).map(Upserted::pseudonym);
  }

  /**
   * {@link #upsert}, saying whether this call inserted the pair: exactly one of the calls that race
   * for a new pair does, whether they share a statement, a cache load or nothing.
   */
  Future<Upserted> insertIfAbsent(Namespace namespace, String originalValue, Candidates candidates);

  /**
   * The stored pseudonyms of many distinct original values of one namespace, in their order, each
   * as {@link #upsert} stores one: through the same statements, with the same idempotency,
   * candidate regeneration and commit before the future completes. {@code candidates} gives each
   * value's candidates. Values may be stored in several statements; when the future fails (as
   * {@link #insertIfAbsent} fails), some of them may be stored (as a retry would store them), but
   * never in a namespace other than {@code namespace} as the caller looked it up: one deleted
   * meanwhile takes them with it.
   */
  Future<List<Pseudonym>> upsertAll(
      Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates);

  /** The pseudonym with that value in the namespace, with its original value. */
  Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue);

  /**
   * The pseudonyms among the distinct {@code pseudonymValues} in the namespace, with their original
   * values, by pseudonym value; values that are no pseudonym of the namespace are absent.
   */
  Future<Map<String, Pseudonym>> findAllByValue(String namespace, List<String> pseudonymValues);

  /**
   * Up to {@code limit} pseudonyms of the namespace after {@code after} (from the start when
   * empty), newest first; the pseudonyms without original values, each row with its own (see {@link
   * PageRow}).
   */
  Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after);

  /** How many pseudonyms the namespace has. */
  Future<Long> count(String namespace);

  /**
   * The stored pseudonyms of the distinct {@code originalValues} in the namespace, by original
   * value, without storing any (the forward lookup); values without a pseudonym are absent.
   */
  Future<Map<String, Pseudonym>> findAllByOriginal(String namespace, List<String> originalValues);

  /** Every stored pseudonym of the original value, by sequence number; empty when it has none. */
  Future<List<Pseudonym>> findAllOfOriginal(String namespace, String originalValue);

  /**
   * The original value's pseudonyms, grown to at least {@code count}, by sequence number: the
   * sequence numbers that are missing below {@code count} are stored, each with a candidate
   * distinct from every pseudonym of the namespace, until the value has {@code count}; a value that
   * has as many or more is returned as it is. {@code candidates} is asked only when something is to
   * be stored, and may fail then. Concurrent calls for the same value, on any replica, end with the
   * same stored set; the future completes after it is committed. Fails as {@link #upsert}.
   */
  Future<List<Pseudonym>> growTo(
      Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates);

  /**
   * Withdraws the distinct original values of the namespace as {@code withdrawal} says: deletes
   * every row of each, or gives all rows of each one new {@link AnonymizedOriginals anonymized}
   * value. Returns the pseudonyms each value had, by sequence number, without original values;
   * values that had none are absent. Each value's rows change together, committed before the future
   * completes; when it fails, some values may be withdrawn (as a retry would withdraw them). Caches
   * are not told: the caller tells {@link WithdrawalEvents}.
   */
  Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal);

  /**
   * Stores the pairs that conflict with no stored one, and says what became of each, in order:
   * {@link ImportStatus#IMPORTED}, {@link ImportStatus#ALREADY_PRESENT}, {@link
   * ImportStatus#ORIGINAL_VALUE_CONFLICT} (only where {@code multiple} is false; else the pair is
   * stored under the value's next sequence number) or {@link
   * ImportStatus#PSEUDONYM_VALUE_CONFLICT}. Nothing stored is changed; a pair given twice is stored
   * once. The values are valid (the caller checked them); the future completes after the rows are
   * committed.
   *
   * @param multiple whether the namespace allows several pseudonyms per original value
   */
  Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs);

  /** Which of the distinct {@code values} are pseudonym values of the namespace. */
  Future<Set<String>> existingPseudonymValues(String namespace, List<String> values);

  /**
   * This repository without any cache in front of it: the one for namespaces that allow several
   * pseudonyms per value, whose pseudonyms are never cached.
   */
  default PseudonymRepository uncached() {
    return this;
  }

  /**
   * Where the namespace's pseudonyms are stored: past any cache ({@link #uncached()}) when its
   * values may have several pseudonyms, as the .NET vfps caches single-pseudonym namespaces only.
   */
  default PseudonymRepository storeFor(Namespace namespace) {
    return namespace.allowsMultiplePseudonyms() ? uncached() : this;
  }

  /**
   * A list row: the pseudonym to return (without its original value), the cursor that points after
   * it, and the row's original value for an export, read only when asked: opened when the row is
   * sealed (a List, which answers no original value, opens none), the stored (blank) value when it
   * is anonymized.
   */
  record PageRow(Pseudonym pseudonym, ListCursor cursor, Supplier<String> originalValue) {}
}
