package org.vfps.namespace;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A look at a regex's text before RE2/J compiles it: the constructs RE2 lacks, named so that the
 * refusal can say why, and an upper bound of the size of the compiled program. RE2/J expands a
 * counted repetition ({@code x{1000}}) into that many copies and sets no bound of its own, so
 * {@code ((a{1000}){1000}){1000}} would exhaust the heap while it compiles.
 *
 * <p>The bound counts elements: each literal, class, escape and empty group is 1, a group is the
 * sum of its contents, and {@code {n}}, {@code {n,m}} and {@code {n,}} multiply what they repeat by
 * n, m and n + 1. It never counts less than RE2/J expands; text that RE2/J will reject anyway is
 * counted somehow and left to RE2/J to refuse.
 */
final class RegexScan {

  /** Counts above this are not told apart. */
  private static final long SATURATED = 1L << 40;

  /** Repetition counts have at most this many digits (RE2/J accepts up to 1000). */
  private static final int MAX_COUNT_DIGITS = 7;

  /**
   * What the scan found.
   *
   * @param elements the bound of the compiled size, saturating at 2^40
   * @param unsupported why the pattern cannot be matched by RE2, or null if nothing RE2 lacks was
   *     seen
   */
  record Result(long elements, String unsupported) {}

  private final String pattern;
  private final Deque<long[]> enclosing = new ArrayDeque<>();
  private long sum;
  private long last;
  private int at;

  private RegexScan(String pattern) {
    this.pattern = pattern;
  }

  static Result of(String pattern) {
    return new RegexScan(pattern).scan();
  }

  private Result scan() {
    while (at < pattern.length()) {
      char c = pattern.charAt(at);
      String unsupported =
          switch (c) {
            case '\\' -> escape();
            case '[' -> {
              skipClass();
              atom(1);
              yield null;
            }
            case '(' -> openGroup();
            case ')' -> {
              closeGroup();
              yield null;
            }
            case '|' -> {
              last = 0;
              at++;
              yield null;
            }
            case '{' -> {
              repetition();
              yield null;
            }
            default -> {
              // *, + and ? keep the size of what they repeat
              if (c != '*' && c != '+' && c != '?') {
                atom(1);
              }
              at += Character.charCount(pattern.codePointAt(at));
              yield null;
            }
          };
      if (unsupported != null) {
        return new Result(sum, unsupported);
      }
    }
    while (!enclosing.isEmpty()) {
      closeGroup();
    }
    return new Result(sum, null);
  }

  private String escape() {
    if (at + 1 >= pattern.length()) {
      atom(1);
      at++;
      return null;
    }
    char next = pattern.charAt(at + 1);
    if (next >= '1' && next <= '9' || next == 'k' || next == 'g') {
      return "backreferences such as `\\" + next + "` are not supported";
    }
    if (next == 'Q') {
      int end = pattern.indexOf("\\E", at + 2);
      int quotedEnd = end < 0 ? pattern.length() : end;
      atom(Math.max(1, quotedEnd - (at + 2)));
      at = end < 0 ? pattern.length() : end + 2;
      return null;
    }
    if ((next == 'p' || next == 'P' || next == 'x')
        && at + 2 < pattern.length()
        && pattern.charAt(at + 2) == '{') {
      int close = pattern.indexOf('}', at + 3);
      at = close < 0 ? pattern.length() : close + 1;
    } else {
      at += 2;
    }
    atom(1);
    return null;
  }

  /** Moves past a character class, {@code [^]...]} and {@code [[:alpha:]]} included. */
  private void skipClass() {
    int i = at + 1;
    if (i < pattern.length() && pattern.charAt(i) == '^') {
      i++;
    }
    if (i < pattern.length() && pattern.charAt(i) == ']') {
      i++;
    }
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (pattern.startsWith("[:", i) && pattern.indexOf(":]", i + 2) >= 0) {
        i = pattern.indexOf(":]", i + 2) + 2;
      } else if (c == ']') {
        at = i + 1;
        return;
      } else {
        i++;
      }
    }
    at = pattern.length();
  }

  private String openGroup() {
    for (String lookaround : new String[] {"(?=", "(?!", "(?<=", "(?<!"}) {
      if (pattern.startsWith(lookaround, at)) {
        return "lookahead and lookbehind such as `" + lookaround + "` are not supported";
      }
    }
    if (pattern.startsWith("(?>", at)) {
      return "atomic groups `(?>` are not supported";
    }
    if (pattern.startsWith("(?P=", at)) {
      return "backreferences such as `(?P=` are not supported";
    }
    enclosing.push(new long[] {sum, last});
    sum = 0;
    last = 0;
    at++;
    if (at < pattern.length() && pattern.charAt(at) == '?') {
      // flags and names, as in (?i), (?i:, (?:, (?P<name> and (?<name>
      while (at < pattern.length() && ":)>".indexOf(pattern.charAt(at)) < 0) {
        at++;
      }
      if (at < pattern.length() && pattern.charAt(at) != ')') {
        at++;
      }
    }
    return null;
  }

  private void closeGroup() {
    at++;
    if (enclosing.isEmpty()) {
      atom(1);
      return;
    }
    long inner = Math.max(sum, 1);
    long[] outer = enclosing.pop();
    sum = outer[0];
    last = outer[1];
    atom(inner);
  }

  /** {@code {n}}, {@code {n,}} or {@code {n,m}}; any other brace is a literal. */
  private void repetition() {
    int close = pattern.indexOf('}', at);
    String inside = close < 0 ? "" : pattern.substring(at + 1, close);
    int comma = inside.indexOf(',');
    String low = comma < 0 ? inside : inside.substring(0, comma);
    String high = comma < 0 ? low : inside.substring(comma + 1);
    if (!isCount(low) || !(isCount(high) || comma >= 0 && high.isEmpty())) {
      atom(1);
      at++;
      return;
    }
    long factor = high.isEmpty() ? Long.parseLong(low) + 1 : Long.parseLong(high);
    long repeated = saturate(last * Math.max(factor, 1));
    sum = saturate(sum - last + repeated);
    last = repeated;
    at = close + 1;
  }

  private static boolean isCount(String text) {
    return !text.isEmpty()
        && text.length() <= MAX_COUNT_DIGITS
        && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private void atom(long elements) {
    last = saturate(elements);
    sum = saturate(sum + last);
  }

  private static long saturate(long count) {
    return Math.min(count, SATURATED);
  }
}
