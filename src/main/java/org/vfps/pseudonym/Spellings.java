package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.Namespace;

/**
 * Which spellings of an original value a namespace's method takes for one value: a keyed ({@link
 * GenerationMethod#VOPRF}) namespace normalizes values (NFC) before it derives their pseudonyms, so
 * "José" composed and decomposed are one value, stored in the spelling that came first; every other
 * method takes each spelling as a value of its own. Lookups and withdrawals find a value through
 * here under the spelling that is stored. Thread-safe.
 */
final class Spellings {

  private final PseudonymRepository repository;
  private final KeyedGenerator keyed;
  private final GenerationSupport generation;

  Spellings(PseudonymRepository repository, KeyedGenerator keyed, GenerationSupport generation) {
    this.repository = repository;
    this.keyed = keyed;
    this.generation = generation;
  }

  /**
   * What {@code byValue} finds for the distinct values, each also under the spelling of it that is
   * stored where that is another one the namespace's method takes for the same value (see {@link
   * #storedSpellings}): {@code byValue} is asked again for those spellings only.
   */
  <T> Future<Map<String, T>> inAnySpelling(
      Namespace namespace,
      List<String> distinct,
      Function<List<String>, Future<Map<String, T>>> byValue) {
    return byValue
        .apply(distinct)
        .compose(
            direct ->
                storedSpellings(namespace, missingFrom(direct, distinct))
                    .compose(
                        spellings ->
                            spellings.isEmpty()
                                ? Future.succeededFuture(direct)
                                : byValue
                                    .apply(List.copyOf(Set.copyOf(spellings.values())))
                                    .map(other -> merged(direct, spellings, other))));
  }

  /** The values of {@code distinct} that {@code found} has nothing for. */
  private static List<String> missingFrom(Map<String, ?> found, List<String> distinct) {
    return distinct.stream().filter(value -> !found.containsKey(value)).toList();
  }

  /**
   * {@code direct}, and for each value of {@code spellings} what {@code other} has for its stored
   * spelling.
   */
  private static <T> Map<String, T> merged(
      Map<String, T> direct, Map<String, String> spellings, Map<String, T> other) {
    Map<String, T> all = new HashMap<>(direct);
    spellings.forEach(
        (value, stored) -> {
          T found = other.get(stored);
          if (found != null) {
            all.put(value, found);
          }
        });
    return all;
  }

  /**
   * The stored spelling of each of {@code values} that has no row of its own while a row holds the
   * value in a spelling the namespace's method takes for the same value. Empty for the methods that
   * take each spelling as a value of its own, and for values without such a row. For a keyed
   * namespace it asks the key's holder for the values' pseudonyms, and fails as a Create would when
   * it cannot.
   */
  private Future<Map<String, String>> storedSpellings(Namespace namespace, List<String> values) {
    if (namespace.generationMethod() != GenerationMethod.VOPRF || values.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    requireKeyedLength(namespace);
    return keyed
        .derive(values)
        .compose(
            cores -> {
              Map<String, String> valueOfPseudonym = new HashMap<>(values.size() * 2);
              for (int i = 0; i < values.size(); i++) {
                valueOfPseudonym.put(pseudonymOf(namespace, cores.get(i)), values.get(i));
              }
              return repository
                  .findAllByValue(namespace.name(), List.copyOf(valueOfPseudonym.keySet()))
                  .map(
                      rows -> {
                        Map<String, String> spellings = new HashMap<>();
                        rows.forEach(
                            (pseudonym, row) -> {
                              String value = valueOfPseudonym.get(pseudonym);
                              String stored = row.originalValue();
                              if (stored != null
                                  && !stored.equals(value)
                                  && keyed.sameInput(value, stored)) {
                                spellings.put(value, stored);
                              }
                            });
                        return spellings;
                      });
            });
  }

  /**
   * Whether the two values derive one pseudonym by the namespace's method: SHA-256 hashes the
   * value's bytes as they are (as the .NET vfps does), the VOPRF client normalizes first.
   */
  boolean sameInput(Namespace namespace, String a, String b) {
    return namespace.generationMethod() == GenerationMethod.VOPRF
        ? keyed.sameInput(a, b)
        : a.equals(b);
  }

  /**
   * Fails with {@code INVALID_ARGUMENT} if the keyed namespace's length is not the one the VOPRF
   * settings fix: a namespace written by another service, or settings changed since, whose new
   * pseudonyms would not be the namespace's kind.
   */
  void requireKeyedLength(Namespace namespace) {
    OptionalInt fixed = generation.fixedLength(namespace.generationMethod());
    if (fixed.isEmpty() || namespace.pseudonymLength() != fixed.getAsInt()) {
      throw PseudonymFailures.lengthUnsuitable(namespace.name());
    }
  }

  /** A derived core as the namespace's pseudonym: prefix + core + suffix. */
  static String pseudonymOf(Namespace namespace, String core) {
    return namespace.pseudonymPrefix() + core + namespace.pseudonymSuffix();
  }
}
