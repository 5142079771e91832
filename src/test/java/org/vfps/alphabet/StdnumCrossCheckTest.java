package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * vfps's check digits against an independent implementation, python-stdnum (Debian's {@code
 * python3-stdnum}, run by the system's {@code /usr/bin/python3}): a thousand values of each kind
 * that vfps makes validate there, and each of them with one character changed, or (for Damm and
 * Verhoeff) two different neighbours swapped, is refused by vfps and by stdnum alike; only the
 * changes Luhn mod N cannot see over an alphabet of odd size are accepted, by both. Skipped when
 * the package is not installed.
 */
class StdnumCrossCheckTest {

  private static final int VALUES_PER_KIND = 1000;

  /** A kind of check digit with the alphabet it runs over, as the script names it. */
  private record Case(String script, CheckDigit checkDigit) {}

  /**
   * A value for both implementations to judge, and whether it is a typo a check digit must catch (a
   * typo in Luhn's blind spot of odd alphabets is not, and must be accepted by both alike).
   */
  private record Line(Case checkCase, String value, boolean caught) {
    String asInput() {
      return checkCase.script + "\t" + checkCase.checkDigit.alphabet().symbols() + "\t" + value;
    }

    Stdnum.Query asQuery() {
      return new Stdnum.Query(
          checkCase.checkDigit.kind(), checkCase.checkDigit.alphabet().symbols(), value);
    }
  }

  @Test
  void valuesVfpsMakesValidateInStdnumAndTheirTyposAreRefusedByBoth() throws Exception {
    Stdnum.assumeInstalled();
    Random random = new Random(43);
    List<Line> valid = new ArrayList<>();
    List<Line> typos = new ArrayList<>();
    for (Case checkCase : cases()) {
      CheckDigit check = checkCase.checkDigit;
      for (int i = 0; i < VALUES_PER_KIND; i++) {
        String drawn = check.alphabet().draw(1 + random.nextInt(16), random);
        String value = drawn + check.compute(drawn);
        valid.add(new Line(checkCase, value, false));
        typos.add(changeOne(checkCase, value, random));
        if (check.kind() != CheckDigitKind.LUHN_MOD_N) {
          swapNeighbours(value, random)
              .ifPresent(swapped -> typos.add(new Line(checkCase, swapped, true)));
        }
      }
    }

    List<String> validVerdicts = stdnum(valid);
    List<String> typoVerdicts = stdnum(typos);

    for (int i = 0; i < valid.size(); i++) {
      Line line = valid.get(i);
      assertThat(validVerdicts.get(i)).as("stdnum's verdict on %s", line.asInput()).isEqualTo("1");
      assertThat(line.checkCase.checkDigit.isValid(line.value))
          .as("vfps's verdict on %s", line.asInput())
          .isTrue();
    }
    for (int i = 0; i < typos.size(); i++) {
      Line typo = typos.get(i);
      assertThat(typo.checkCase.checkDigit.isValid(typo.value))
          .as("vfps's verdict on %s", typo.asInput())
          .isEqualTo(!typo.caught);
      assertThat(typoVerdicts.get(i))
          .as("stdnum's verdict on %s", typo.asInput())
          .isEqualTo(typo.caught ? "0" : "1");
    }
    assertThat(valid).hasSize(VALUES_PER_KIND * cases().size());
    assertThat(typos.stream().filter(Line::caught).count())
        .as("typos caught")
        .isGreaterThan(valid.size() + VALUES_PER_KIND);
    // the odd alphabets (9 and 31 characters, the custom one of 63) reach Luhn's blind spot, so the
    // verdicts above are compared there too
    long blind = typos.stream().filter(typo -> !typo.caught).count();
    assertThat(blind).as("typos in Luhn's blind spot").isPositive();
  }

  /** Luhn mod N over the ten digits, gPAS's ready sets and a custom alphabet; Damm; Verhoeff. */
  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (String alphabet :
        List.of(
            AlphabetPreset.NUMBERS.symbols(),
            AlphabetPreset.NUMBERS_WITHOUT_ZERO.symbols(),
            AlphabetPreset.HEX.symbols(),
            AlphabetPreset.SYMBOL_31.symbols(),
            AlphabetPreset.SYMBOL_32.symbols(),
            "abcdef",
            "01",
            "!#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`ab")) {
      cases.add(
          new Case("luhn", CheckDigitKind.LUHN_MOD_N.over(Alphabet.of(alphabet)).orElseThrow()));
    }
    Alphabet digits = AlphabetPreset.NUMBERS.alphabet();
    cases.add(new Case("damm", CheckDigitKind.DAMM.over(digits).orElseThrow()));
    cases.add(new Case("verhoeff", CheckDigitKind.VERHOEFF.over(digits).orElseThrow()));
    return cases;
  }

  /** {@code value} with one character changed to another of the alphabet. */
  private static Line changeOne(Case checkCase, String value, Random random) {
    Alphabet alphabet = checkCase.checkDigit.alphabet();
    int position = random.nextInt(value.length());
    int original = alphabet.indexOf(value.charAt(position));
    int replacement;
    do {
      replacement = random.nextInt(alphabet.size());
    } while (replacement == original);
    String changed =
        value.substring(0, position) + alphabet.symbol(replacement) + value.substring(position + 1);
    return new Line(
        checkCase, changed, !inLuhnsBlindSpot(checkCase, value, position, original, replacement));
  }

  /**
   * Whether Luhn mod N misses this change: over an alphabet of odd size N, doubling a value and
   * adding its base-N digits gives some pairs of values the same result (v and v + (N - 1) / 2 for
   * v from 1), so exchanging them in a doubled position (an odd distance from the check digit)
   * leaves the sum alone. For even N no two values double alike.
   */
  private static boolean inLuhnsBlindSpot(
      Case checkCase, String value, int position, int original, int replacement) {
    int n = checkCase.checkDigit.alphabet().size();
    boolean doubled = (value.length() - 1 - position) % 2 == 1;
    return checkCase.checkDigit.kind() == CheckDigitKind.LUHN_MOD_N
        && doubled
        && (2 * original) / n + (2 * original) % n == (2 * replacement) / n + (2 * replacement) % n;
  }

  private static Optional<String> swapNeighbours(String value, Random random) {
    int position = random.nextInt(value.length() - 1);
    char[] chars = value.toCharArray();
    if (chars[position] == chars[position + 1]) {
      return Optional.empty();
    }
    chars[position] = value.charAt(position + 1);
    chars[position + 1] = value.charAt(position);
    return Optional.of(new String(chars));
  }

  /** stdnum's verdicts on the lines, in their order: "1" valid, "0" refused. */
  private static List<String> stdnum(List<Line> lines) throws IOException, InterruptedException {
    return Stdnum.validate(lines.stream().map(Line::asQuery).toList()).stream()
        .map(valid -> valid ? "1" : "0")
        .toList();
  }
}
