package org.vfps.namespace;

import java.util.Locale;

/**
 * How many pseudonyms a namespace's settings can make and how many it holds, and the two rules on
 * them: a namespace of the alphabet method must be able to make at least {@value
 * #MINIMUM_DISTINCT_PSEUDONYMS} pseudonyms, and a namespace that holds {@link #FULL_SHARE} of its
 * pseudonyms is full, so that a new value never needs more than a few candidates before it is
 * stored or refused.
 *
 * @param distinctPseudonyms the distinct pseudonyms the settings make; 1 for a method that derives
 *     the pseudonym from the value, infinite where it exceeds a double
 * @param usedPseudonyms the pseudonyms the namespace holds, of every value and sequence number
 */
public record NamespaceCapacity(double distinctPseudonyms, long usedPseudonyms) {

  /**
   * The fewest pseudonyms an alphabet namespace's settings may make: below that, a namespace is
   * full after a few thousand values, which is a mistake in its settings rather than a plan.
   */
  public static final double MINIMUM_DISTINCT_PSEUDONYMS = 10_000;

  /**
   * The share of its pseudonyms at which a namespace is full. Below it, a candidate is taken with a
   * probability of at least 1 − {@code FULL_SHARE}, so a new value needs 10 candidates on average
   * at worst (each one round trip to the database).
   */
  public static final double FULL_SHARE = 0.9;

  /**
   * Whether the namespace refuses new values: it holds {@link #FULL_SHARE} of its pseudonyms or
   * more. Never for a method that derives the pseudonym from the value, whose capacity is that of
   * the values.
   */
  public boolean full() {
    return distinctPseudonyms > 1 && usedPseudonyms >= FULL_SHARE * distinctPseudonyms;
  }

  /**
   * A count of pseudonyms as a message says it: {@code 10,000} below 10^15, {@code 1.21e+24} from
   * there on, and "infinitely many" where it exceeds a double.
   */
  public static String figure(double count) {
    if (Double.isInfinite(count)) {
      return "infinitely many";
    }
    if (count < 1e15) {
      return String.format(Locale.ROOT, "%,.0f", count);
    }
    return String.format(Locale.ROOT, "%.3g", count);
  }
}
