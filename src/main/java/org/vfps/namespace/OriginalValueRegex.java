package org.vfps.namespace;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Map;
import java.util.Objects;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * A namespace's original value validation regex, compiled once, when the namespace is read or
 * created. Immutable and thread-safe.
 *
 * <p>The dialect is RE2's (RE2/J), not .NET's: matching takes time linear in the value's length
 * whatever the pattern, so no stored pattern can make a create backtrack for seconds (the .NET vfps
 * bounds each match by a 500 ms timeout instead). Accepted: literals, {@code .}, classes ({@code
 * [a-z]}, {@code [^0-9]}, {@code [[:alpha:]]}, {@code \p{L}}, {@code \p{Nd}}), alternation, groups
 * (also {@code (?:...)} and named {@code (?<name>...)}), the greedy and lazy quantifiers {@code * +
 * ? {n} {n,} {n,m}} (counts up to 1000), anchors {@code ^ $ \A \z \b \B} and flags {@code (?i) (?m)
 * (?s)}. Refused, when the namespace is created: backreferences, lookahead, lookbehind, atomic
 * groups, possessive quantifiers, and patterns whose counted repetitions expand to more than
 * {@value #MAX_ELEMENTS} elements.
 *
 * <p>Unlike .NET, {@code \d}, {@code \w}, {@code \s} and {@code \b} are ASCII only ({@code \d} is
 * {@code [0-9]}, {@code \w} is {@code [0-9A-Za-z_]}): an identifier pattern does not let Arabic or
 * Devanagari digits through. Use {@code \p{Nd}} or {@code \p{L}} for Unicode classes. Without
 * {@code (?m)}, {@code $} matches only at the end of the value (.NET's also before a final line
 * break). Matching is case-sensitive and unanchored, as .NET's {@code Regex.IsMatch}: a match
 * anywhere in the value counts, so a pattern that must cover the whole value says {@code ^...$}.
 */
public final class OriginalValueRegex {

  /** No regex (the column is NULL): every value passes. */
  public static final OriginalValueRegex NONE = new OriginalValueRegex(null, null, null);

  /** The most elements a pattern may expand to (see {@link RegexScan}). */
  public static final int MAX_ELEMENTS = 2000;

  private static final String RE2 =
      "this service matches RE2 syntax, in time linear in the value's length";

  private final String text;
  private final Pattern pattern;
  private final String unusable;

  private OriginalValueRegex(String text, Pattern pattern, String unusable) {
    this.text = text;
    this.pattern = pattern;
    this.unusable = unusable;
  }

  /**
   * The regex of a namespace to create: {@code null} or {@code ""} validates nothing. Fails with
   * {@code INVALID_ARGUMENT} in the .NET vfps's words, naming the pattern and why RE2/J refuses it.
   */
  public static OriginalValueRegex parse(String text, Map<String, String> metadata) {
    if (text == null || text.isEmpty()) {
      return text == null ? NONE : new OriginalValueRegex(text, null, null);
    }
    OriginalValueRegex regex = stored(text);
    if (regex.unusable != null) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The original value validation regex '"
              + text
              + "' is not a valid regular expression: "
              + regex.unusable
              + ".",
          metadata);
    }
    return regex;
  }

  /**
   * The regex of a stored namespace; never fails. A pattern this service cannot compile (one the
   * .NET vfps stored: a backreference, a lookahead) is kept as text, for Get to show, and {@link
   * #matches} refuses every value of the namespace.
   */
  public static OriginalValueRegex stored(String text) {
    if (text == null || text.isEmpty()) {
      return text == null ? NONE : new OriginalValueRegex(text, null, null);
    }
    RegexScan.Result scan = RegexScan.of(text);
    if (scan.unsupported() != null) {
      return new OriginalValueRegex(text, null, scan.unsupported() + " (" + RE2 + ")");
    }
    if (scan.elements() > MAX_ELEMENTS) {
      return new OriginalValueRegex(
          text, null, "its counted repetitions expand to more than " + MAX_ELEMENTS + " elements");
    }
    try {
      return new OriginalValueRegex(text, Pattern.compile(text), null);
    } catch (PatternSyntaxException e) {
      return new OriginalValueRegex(text, null, e.getDescription() + ": `" + e.getPattern() + "`");
    }
  }

  /** The pattern as stored; null when the column is NULL. */
  public String text() {
    return text;
  }

  /** Whether the regex checks anything: false for none and for {@code ""}. */
  public boolean validates() {
    return pattern != null || unusable != null;
  }

  /**
   * Whether the original value passes: true when nothing is checked, else whether the pattern
   * matches anywhere in it. Fails with {@code FAILED_PRECONDITION} for a stored pattern this
   * service cannot compile.
   */
  public boolean matches(String originalValue, Map<String, String> metadata) {
    if (unusable != null) {
      throw new ServiceException(
          ErrorCode.FAILED_PRECONDITION,
          "The namespace's original value validation regex cannot be used by this service: "
              + unusable
              + ". Re-create the namespace with a pattern in RE2 syntax.",
          metadata);
    }
    return pattern == null || pattern.matcher(originalValue).find();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OriginalValueRegex regex && Objects.equals(text, regex.text);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(text);
  }

  @Override
  public String toString() {
    return text == null ? "none" : "/" + text + "/";
  }
}
