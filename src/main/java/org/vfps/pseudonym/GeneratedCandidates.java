package org.vfps.pseudonym;

import java.util.Map;
import java.util.function.Function;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.Namespace;

/**
 * The candidates offered to the repository for a value's pseudonym: prefix + a core of the
 * namespace's generator + suffix, drawn anew at every {@link Candidates#get()}; or the one
 * pseudonym a method derives from the value. Thread-safe.
 */
final class GeneratedCandidates {

  private final Function<GenerationMethod, PseudonymGenerator> generators;
  private final GenerationSupport generation;

  /**
   * @param generators each method's generator, thread-safe
   * @param generation the methods that make new pseudonyms here
   */
  GeneratedCandidates(
      Function<GenerationMethod, PseudonymGenerator> generators, GenerationSupport generation) {
    this.generators = generators;
    this.generation = generation;
  }

  /**
   * Each value's candidates: prefix + a new generated core + suffix at every call, as many distinct
   * ones as the namespace's method and length allow.
   */
  Function<String, Candidates> of(Namespace namespace) {
    if (namespace.alphabetFormat() != null) {
      return ofFormat(namespace, namespace.alphabetFormat());
    }
    PseudonymGenerator generator = generators.apply(namespace.generationMethod());
    int length = (int) namespace.pseudonymLength();
    double distinct = PseudonymGenerators.distinctPseudonyms(namespace);
    return originalValue ->
        new Candidates() {
          @Override
          public String get() {
            return namespace.pseudonymPrefix()
                + generator.generate(originalValue, length)
                + namespace.pseudonymSuffix();
          }

          @Override
          public double distinct() {
            return distinct;
          }
        };
  }

  /** The candidates of an alphabet namespace: prefix + a core its format draws + suffix. */
  private static Function<String, Candidates> ofFormat(Namespace namespace, AlphabetFormat format) {
    double distinct = PseudonymGenerators.distinctPseudonyms(namespace);
    Candidates candidates =
        new Candidates() {
          @Override
          public String get() {
            return namespace.pseudonymPrefix() + format.generate() + namespace.pseudonymSuffix();
          }

          @Override
          public double distinct() {
            return distinct;
          }
        };
    return originalValue -> candidates;
  }

  /**
   * The value's candidates for a new sequence number; fails as {@link #first} and with {@code
   * FAILED_PRECONDITION} where the method makes no new pseudonyms here.
   */
  Candidates forNewSequence(Namespace namespace, String originalValue) {
    if (!generation.generates(namespace.generationMethod())) {
      throw GenerationSupport.notSupported(
          namespace.generationMethod(), Map.of("namespace", namespace.name()));
    }
    Candidates candidates = of(namespace).apply(originalValue);
    return firstThen(first(namespace, candidates), candidates);
  }

  /**
   * The value's first candidate; fails with {@code INVALID_ARGUMENT} if the namespace's length does
   * not suit its method, which only a row written around the validation (e.g. by the .NET service)
   * can hold.
   */
  static String first(Namespace namespace, Candidates candidates) {
    try {
      return candidates.get();
    } catch (IllegalArgumentException e) {
      throw PseudonymFailures.lengthUnsuitable(namespace.name());
    }
  }

  /** {@code first}, then the rest of {@code next}. */
  static Candidates firstThen(String first, Candidates next) {
    return new Candidates() {
      private boolean used;

      @Override
      public String get() {
        if (used) {
          return next.get();
        }
        used = true;
        return first;
      }

      @Override
      public double distinct() {
        return next.distinct();
      }
    };
  }

  /** The one candidate of a derived pseudonym. */
  static Candidates only(String pseudonym) {
    return new Candidates() {
      @Override
      public String get() {
        return pseudonym;
      }

      @Override
      public double distinct() {
        return 1;
      }
    };
  }
}
