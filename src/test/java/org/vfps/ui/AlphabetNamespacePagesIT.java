package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.TestService;
import org.vfps.alphabet.Alphabet;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.alphabet.AlphabetPreset;
import org.vfps.alphabet.CheckDigit;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.server.VfpsServer;

/**
 * The alphabet method ({@code PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET}) in Chromium,
 * against the real service and PostgreSQL: the create form's format fields with gPAS's presets, its
 * live example checked against the service's own check digits ({@code org.vfps.alphabet}), the
 * capacity as the page writes it against exact arithmetic, and a namespace's page with its format,
 * a pseudonym and the refusal of a mistyped one.
 */
@Browser.Required
class AlphabetNamespacePagesIT {

  private static final String ALPHABET_METHOD =
      "PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET";
  private static final String DIGITS = AlphabetPreset.NUMBERS.symbols();

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() {
    VfpsServer server = resources.own(TestService.start());
    http = resources.own(new HttpTestClient(server.httpPort()));
    browser = resources.own(new Browser(server.httpPort()));
  }

  @BeforeEach
  void lightScheme() {
    browser.colorScheme("light");
  }

  @Test
  void theExampleFollowsTheSettingsWithTheServicesCheckDigit() {
    browser.openNamespaces();
    assertThat(browser.find("#format-fields").isDisplayed()).isFalse();

    browser.select("#method").selectByValue(ALPHABET_METHOD);
    assertThat(browser.visible("#format-fields").getText()).contains("Pseudonym format");
    assertThat(browser.select("#method").getFirstSelectedOption().getText())
        .isEqualTo("Alphabet with check digit");
    // gPAS's first set and the strongest check digit for it, no groups
    assertThat(browser.select("#alphabet-preset").getFirstSelectedOption().getText())
        .isEqualTo("Numbers (0123456789)");
    assertThat(browser.find("#alphabet").getDomProperty("value")).isEqualTo(DIGITS);
    assertThat(selected("#check-digit")).isEqualTo("CHECK_DIGIT_DAMM");
    browser.type("#length", "9");
    String damm = example();
    assertThat(damm).matches("[0-9]{10}");
    assertFits(damm, DIGITS, CheckDigitKind.DAMM, 0, "", 9);
    assertThat(browser.find("#format-capacity").getText()).contains("10^9 ≈ 1.0 billion");
    assertThat(browser.find("#format-example-note").getText())
        .contains("Damm check digit of the 9 drawn");

    // the same drawn characters under each check digit, each with its own
    browser.select("#check-digit").selectByValue("CHECK_DIGIT_VERHOEFF");
    String verhoeff = example();
    assertThat(verhoeff).startsWith(damm.substring(0, 9)).hasSize(10);
    assertFits(verhoeff, DIGITS, CheckDigitKind.VERHOEFF, 0, "", 9);
    browser.select("#check-digit").selectByValue("CHECK_DIGIT_LUHN_MOD_N");
    assertFits(example(), DIGITS, CheckDigitKind.LUHN_MOD_N, 0, "", 9);
    browser.select("#check-digit").selectByValue("CHECK_DIGIT_UNSPECIFIED");
    assertThat(example()).isEqualTo(damm.substring(0, 9));
    browser.select("#check-digit").selectByValue("CHECK_DIGIT_DAMM");

    // groups, prefix and suffix go around it; the Length hint counts what they add
    assertThat(browser.find("#group-delimiter").isEnabled()).isFalse();
    browser.type("#group-size", "3");
    assertThat(browser.find("#group-delimiter").isEnabled()).isTrue();
    browser.type("#prefix", "p-");
    browser.type("#suffix", "/x");
    String grouped = example();
    assertThat(grouped).matches("p-[0-9]{3}-[0-9]{3}-[0-9]{3}-[0-9]/x");
    assertFits(core(grouped, "p-", "/x"), DIGITS, CheckDigitKind.DAMM, 3, "-", 9);
    assertThat(grouped.replace("-", "")).contains(damm);
    assertThat(browser.find("#length-hint").getText())
        .contains("a length of 9 makes 13 characters between prefix and suffix");

    // another of gPAS's sets: Damm and Verhoeff step aside for Luhn mod N
    browser.select("#alphabet-preset").selectByValue("SYMBOL_31");
    assertThat(browser.find("#alphabet").getDomProperty("value"))
        .isEqualTo(AlphabetPreset.SYMBOL_31.symbols());
    assertThat(browser.find("#check-digit option[value='CHECK_DIGIT_DAMM']").isEnabled()).isFalse();
    assertThat(browser.find("#check-digit option[value='CHECK_DIGIT_VERHOEFF']").isEnabled())
        .isFalse();
    assertThat(selected("#check-digit")).isEqualTo("CHECK_DIGIT_LUHN_MOD_N");
    assertThat(browser.find("#check-digit-hint").getText())
        .contains("Luhn mod N is chosen, since Damm works on the ten digits only");
    assertFits(
        core(example(), "p-", "/x"),
        AlphabetPreset.SYMBOL_31.symbols(),
        CheckDigitKind.LUHN_MOD_N,
        3,
        "-",
        9);
    assertThat(browser.find("#format-capacity").getText()).contains("31^9 ≈ 26.4 trillion");

    // a custom alphabet, and settings the service would refuse, said at once
    browser.type("#alphabet", "ABC");
    assertThat(selected("#alphabet-preset")).isEqualTo("CUSTOM");
    assertThat(browser.find("#format-capacity").getText()).contains("3^9 = 19,683");
    assertFits(core(example(), "p-", "/x"), "ABC", CheckDigitKind.LUHN_MOD_N, 3, "-", 9);
    browser.type("#group-delimiter", "A");
    assertThat(browser.visible("#format-problem").getText())
        .contains("The group delimiter has 'A', which is in the alphabet");
    assertThat(example()).isEqualTo("–");
    browser.type("#group-delimiter", " ");
    assertThat(browser.find("#format-problem").isDisplayed()).isFalse();
    assertThat(example()).matches("p-[ABC]{3} [ABC]{3} [ABC]{3} [ABC]/x");
    browser.type("#alphabet", "ABCA");
    assertThat(browser.visible("#format-problem").getText()).contains("'A' twice");

    // back to the ten digits: all four are offered again
    browser.select("#alphabet-preset").selectByValue("NUMBERS");
    assertThat(browser.find("#check-digit option[value='CHECK_DIGIT_DAMM']").isEnabled()).isTrue();
    assertThat(browser.find("#format-problem").isDisplayed()).isFalse();
  }

  @Test
  void createsAnAlphabetNamespaceWhosePseudonymsCarryTheirCheckDigit() {
    String name = uniqueName("alphabet");
    browser.openNamespaces();
    browser.find("#name").sendKeys(name);
    browser.select("#method").selectByValue(ALPHABET_METHOD);
    browser.type("#length", "9");
    browser.type("#prefix", "p-");
    browser.type("#group-size", "3");
    browser.type("#group-delimiter", "-");
    browser.select("#check-digit").selectByValue("CHECK_DIGIT_VERHOEFF");
    browser.click("#create-namespace button[type=submit]");

    assertThat(browser.textContaining("#create-message", "created")).contains("'" + name + "'");
    JsonObject stored = namespace(name);
    assertThat(stored.getString("pseudonymGenerationMethod")).isEqualTo(ALPHABET_METHOD);
    assertThat(stored.getInteger("pseudonymLength")).isEqualTo(9);
    assertThat(stored.getJsonObject("xFormat"))
        .isEqualTo(
            new JsonObject()
                .put("alphabet", DIGITS)
                .put("checkDigit", "CHECK_DIGIT_VERHOEFF")
                .put("groupSize", 3)
                .put("groupDelimiter", "-"));
    assertThat(browser.textContaining("tr[data-namespace='" + name + "']", "Alphabet"))
        .contains("Alphabet with check digit");

    browser.open(Browser.namespacePath(name));
    assertThat(browser.textContaining("#fact-alphabet", DIGITS)).contains("(Numbers)");
    assertThat(browser.find("#fact-check-digit").getText()).isEqualTo("Verhoeff");
    assertThat(browser.find("#fact-groups").getText()).isEqualTo("3 characters each, delimiter -");

    browser.visible("#originalValue").sendKeys("patient 1", Keys.ENTER);
    String pseudonym = browser.visible("#pseudonymizeResult code").getText();
    assertThat(pseudonym).matches("p-[0-9]{3}-[0-9]{3}-[0-9]{3}-[0-9]");
    String characters = pseudonym.substring(2).replace("-", "");
    assertThat(checkDigit(CheckDigitKind.VERHOEFF, DIGITS).isValid(characters)).isTrue();

    // typed without its delimiters, it is found
    browser.find("#lookupValue").sendKeys("p-" + characters, Keys.ENTER);
    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo("patient 1");
    // one digit mistyped: the service's refusal, as it words it
    String mistyped = "p-" + changedFirstDigit(characters);
    browser.type("#lookupValue", mistyped);
    browser.find("#lookupValue").sendKeys(Keys.ENTER);
    assertThat(browser.textContaining("#lookup-message", "mistyped"))
        .isEqualTo("The pseudonym's check digit does not match: it was mistyped.");
    assertThat(browser.find("#lookup-message").getAttribute("role")).isEqualTo("alert");
  }

  @Test
  void theCapacityIsShownWhenTheServiceGivesIt() {
    String name = createAlphabetNamespace(uniqueName("capacity"), DIGITS, "CHECK_DIGIT_DAMM", 8);
    http.postJson(
        "/v1/namespaces/" + encode(name) + "/pseudonyms",
        new JsonObject().put("originalValue", "patient 2").encode());
    JsonObject capacity = namespace(name).getJsonObject("xCapacity");
    browser.open(Browser.namespacePath(name));
    browser.textContaining("#fact-check-digit", "Damm");
    if (capacity == null) {
      // a service that does not count its capacity: the page shows none
      assertThat(browser.findAll("#fact-capacity")).isEmpty();
    } else {
      // ten digits drawn 8 times
      assertThat(capacity.getDouble("distinctPseudonyms")).isEqualTo(1e8);
      assertThat(browser.find("#fact-capacity").getText())
          .isEqualTo(capacity.getLong("usedPseudonyms") + " used of 100.0 million");
    }
    // a namespace of another method has no format
    String other = uniqueName("other");
    assertThat(
            http.postJson(
                    "/v1/namespaces",
                    new JsonObject()
                        .put("name", other)
                        .put(
                            "pseudonymGenerationMethod",
                            "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED")
                        .put("pseudonymLength", 12)
                        .encode())
                .status())
        .isEqualTo(200);
    browser.open(Browser.namespacePath(other));
    browser.textContaining("#fact-multiple", "One");
    assertThat(browser.findAll("#fact-alphabet, #fact-check-digit, #fact-groups")).isEmpty();
  }

  @Test
  void aFormatTheServiceRefusesIsShownWithItsMessage() {
    String name = uniqueName("refused");
    browser.openNamespaces();
    browser.find("#name").sendKeys(name);
    browser.select("#method").selectByValue(ALPHABET_METHOD);
    browser.select("#alphabet-preset").selectByValue("CUSTOM");
    browser.type("#alphabet", "AAB");
    browser.click("#create-namespace button[type=submit]");

    assertThat(browser.textContaining("#create-message", "twice"))
        .contains("The alphabet has 'A' twice");
    assertThat(browser.find("#create-message").getAttribute("role")).isEqualTo("alert");
    assertThat(http.get("/v1/namespaces/" + encode(name)).status()).isEqualTo(404);
  }

  @Test
  void thePagesCheckDigitsAreTheServices() {
    browser.openNamespaces();
    @SuppressWarnings("unchecked")
    Map<String, Object> page =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const [alphabets, done] = arguments;
                import('/ui/assets/alphabet.js').then((a) => {
                  const samples = [];
                  for (const symbols of alphabets) {
                    const gpas = ['CHECK_DIGIT_X_GPAS_DAMM', 'CHECK_DIGIT_X_GPAS_VERHOEFF'];
                    const kinds = symbols === a.DECIMAL_DIGITS
                        ? ['CHECK_DIGIT_LUHN_MOD_N', 'CHECK_DIGIT_DAMM', 'CHECK_DIGIT_VERHOEFF',
                           ...gpas]
                        : [...symbols].length === 10
                          ? ['CHECK_DIGIT_LUHN_MOD_N', ...gpas]
                          : ['CHECK_DIGIT_LUHN_MOD_N'];
                    for (const kind of kinds) {
                      for (let i = 0; i < 300; i++) {
                        const length = 1 + (i % 24);
                        const draws = crypto.getRandomValues(new Uint32Array(length));
                        const drawn = Array.from(draws, (d) => symbols[d % symbols.length]).join('');
                        samples.push([kind, symbols, drawn, a.checkDigitOf(kind, symbols, drawn)]);
                      }
                    }
                  }
                  done({
                    samples,
                    presets: a.ALPHABET_PRESETS.map((p) => [p.name, p.symbols]),
                    kinds: a.CHECK_DIGITS.map((k) => k.name),
                  });
                });
                """,
                alphabets());
    // gPAS's sets and the API's check digits, as the service has them
    List<List<String>> presets = new ArrayList<>();
    for (AlphabetPreset preset : AlphabetPreset.values()) {
      presets.add(List.of(preset.name(), preset.symbols()));
    }
    assertThat(page.get("presets")).isEqualTo(presets);
    assertThat(page.get("kinds"))
        .isEqualTo(
            List.of(CheckDigitKind.values()).stream().map(CheckDigitKind::protoName).toList());

    @SuppressWarnings("unchecked")
    List<List<String>> samples = (List<List<String>>) page.get("samples");
    // the digits with five kinds, ten letters with Luhn and gPAS's two, the others with Luhn only
    assertThat(samples).hasSize(300 * (5 + 3 + alphabets().size() - 2));
    for (List<String> sample : samples) {
      CheckDigitKind kind = CheckDigitKind.parse(sample.get(0)).orElseThrow();
      String drawn = sample.get(2);
      assertThat(sample.get(3))
          .as("%s over %s of %s", kind, sample.get(1), drawn)
          .isEqualTo(String.valueOf(checkDigit(kind, sample.get(1)).compute(drawn)));
    }
  }

  @Test
  void theCapacityIsWrittenReadablyAndRight() {
    browser.openNamespaces();
    @SuppressWarnings("unchecked")
    List<String> written =
        (List<String>)
            browser.asyncScript(
                """
                const done = arguments[0];
                import('/ui/assets/alphabet.js').then(({capacityText}) => {
                  const texts = [];
                  for (let size = 2; size <= 64; size++) {
                    for (let length = 1; length <= 64; length++) {
                      texts.push(capacityText(size, length));
                    }
                  }
                  done(texts);
                });
                """);
    assertThat(written)
        .contains(
            "10^9 ≈ 1.0 billion",
            "9^4 = 6,561",
            "31^9 ≈ 26.4 trillion",
            "36^13 ≈ 170.6 quintillion",
            "64^64 ≈ 3.9 × 10^115");
    // every figure within the rounding of its one decimal of the exact power
    Pattern text =
        Pattern.compile(
            "(\\d+)\\^(\\d+) (?:= ([\\d,]+)|≈ ([\\d.]+) (?:(million|billion|trillion|quadrillion"
                + "|quintillion)|× 10\\^(\\d+)))");
    Map<String, Integer> words =
        Map.of("million", 6, "billion", 9, "trillion", 12, "quadrillion", 15, "quintillion", 18);
    for (String capacity : written) {
      Matcher parts = text.matcher(capacity);
      assertThat(parts.matches()).as(capacity).isTrue();
      BigInteger exact =
          BigInteger.valueOf(Long.parseLong(parts.group(1))).pow(Integer.parseInt(parts.group(2)));
      if (parts.group(3) != null) {
        assertThat(new BigInteger(parts.group(3).replace(",", ""))).as(capacity).isEqualTo(exact);
        continue;
      }
      int scale =
          parts.group(5) != null ? words.get(parts.group(5)) : Integer.parseInt(parts.group(6));
      BigDecimal shown = new BigDecimal(parts.group(4)).scaleByPowerOfTen(scale);
      BigDecimal halfStep = BigDecimal.ONE.scaleByPowerOfTen(scale - 1).divide(BigDecimal.TWO);
      assertThat(new BigDecimal(exact).subtract(shown).abs())
          .as(capacity)
          .isLessThanOrEqualTo(halfStep.multiply(new BigDecimal("1.001"), MathContext.DECIMAL64));
      assertThat(shown.compareTo(BigDecimal.ONE.scaleByPowerOfTen(scale)))
          .as("%s has a figure of 1.0 or more", capacity)
          .isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void theFormatControlsMeetTheContrastMinimumInBothSchemes() {
    String name = createAlphabetNamespace(uniqueName("contrast"), DIGITS, "CHECK_DIGIT_DAMM", 8);
    List<String> problems = new ArrayList<>();
    for (String scheme : List.of("light", "dark")) {
      browser.colorScheme(scheme);
      browser.openNamespaces();
      browser.select("#method").selectByValue(ALPHABET_METHOD);
      browser.type("#group-size", "4");
      browser.type("#prefix", "p-");
      browser.textContaining("#format-capacity", "Capacity");
      problems.addAll(browser.problems("format-" + scheme));
      browser.type("#alphabet", "AAB");
      browser.visible("#format-problem");
      problems.addAll(browser.problems("format-problem-" + scheme));

      browser.open(Browser.namespacePath(name));
      browser.textContaining("#fact-check-digit", "Damm");
      problems.addAll(browser.problems("namespace-" + scheme));
    }
    assertThat(problems).isEmpty();
  }

  /** The alphabets the check digits are compared over: gPAS's, and custom ones of 2, 10 and 64. */
  private static List<String> alphabets() {
    List<String> alphabets = new ArrayList<>();
    for (AlphabetPreset preset : AlphabetPreset.values()) {
      alphabets.add(preset.symbols());
    }
    alphabets.add("xy");
    // ten characters that are not the digits: gPAS's variants work over them too
    alphabets.add("ABCDEFGHJK");
    StringBuilder wide = new StringBuilder();
    for (char c = '!'; wide.length() < 64; c++) {
      wide.append(c);
    }
    alphabets.add(wide.toString());
    return alphabets;
  }

  private static CheckDigit checkDigit(CheckDigitKind kind, String alphabet) {
    return kind.over(Alphabet.of(alphabet)).orElseThrow();
  }

  private static void assertFits(
      String core,
      String alphabet,
      CheckDigitKind kind,
      int groupSize,
      String delimiter,
      int length) {
    assertThat(AlphabetFormat.of(alphabet, kind, groupSize, delimiter, length).verdict(core))
        .as("%s as %s over %s", core, kind, alphabet)
        .isEqualTo(AlphabetFormat.Verdict.FITS);
  }

  private static String core(String pseudonym, String prefix, String suffix) {
    assertThat(pseudonym).startsWith(prefix).endsWith(suffix);
    return pseudonym.substring(prefix.length(), pseudonym.length() - suffix.length());
  }

  private static String changedFirstDigit(String characters) {
    char first = characters.charAt(0);
    return (char) ('0' + (first - '0' + 1) % 10) + characters.substring(1);
  }

  /** The form's example pseudonym as shown. */
  private static String example() {
    return browser.find("#format-example").getText();
  }

  private static String createAlphabetNamespace(
      String name, String alphabet, String checkDigit, int length) {
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject()
                .put("name", name)
                .put("pseudonymGenerationMethod", ALPHABET_METHOD)
                .put("pseudonymLength", length)
                .put(
                    "xFormat",
                    new JsonObject().put("alphabet", alphabet).put("checkDigit", checkDigit))
                .encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static JsonObject namespace(String name) {
    HttpTestClient.Response got = http.get("/v1/namespaces/" + encode(name));
    assertThat(got.status()).as(got.body()).isEqualTo(200);
    return got.json().getJsonObject("namespace");
  }

  private static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String encode(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String selected(String css) {
    return browser.select(css).getFirstSelectedOption().getAttribute("value");
  }
}
