package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.ClassResources;
import org.vfps.TestService;
import org.vfps.server.VfpsServer;

/**
 * The CSV page's reading and streaming in Chromium: the incremental parser split at every place,
 * and a real file chosen in the file input, streamed through the page's pipeline with a lookup that
 * stands in for the service, so that what is sent and what comes out can be checked exactly.
 */
@Browser.Required
class CsvPageIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static Browser browser;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    browser = resources.own(new Browser(server.httpPort()));
  }

  private static void openCsvPage() {
    browser.open("/ui/csv");
    browser.visible("#csv-form");
  }

  @Test
  void theParserReadsTheSameRowsWhereverTheTextIsSplit() {
    openCsvPage();
    String input =
        "name,note,id\r\n"
            + "\"Doe, Jane\",\"said \"\"hi\"\"\nthen left\",1\r\n"
            + ",,\r\n"
            + "plain,\"\",3\r\n"
            + "\r\n"
            + "\"x\"\"\",y,\"multi\r\nline\"";

    @SuppressWarnings("unchecked")
    Map<String, Object> result =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const [input, done] = arguments;
                import('/ui/assets/csv.js').then(({CsvParser}) => {
                  const parse = (pieces) => {
                    const parser = new CsvParser(',');
                    const rows = [];
                    for (const piece of pieces) rows.push(...parser.push(piece));
                    rows.push(...parser.finish());
                    return JSON.stringify([rows, parser.lineBreak, parser.malformedRows]);
                  };
                  const whole = parse([input]);
                  let splits = 0;
                  const failures = [];
                  for (let i = 0; i <= input.length; i++) {
                    for (let j = i; j <= input.length; j++) {
                      splits++;
                      if (parse([input.slice(0, i), input.slice(i, j), input.slice(j)]) !== whole) {
                        failures.push([i, j]);
                      }
                    }
                  }
                  done({whole, splits, failures: failures.slice(0, 5),
                        byCharacter: parse([...input]) === whole});
                }, (e) => done({error: String(e)}));
                """,
                input);

    assertThat(result.get("error")).isNull();
    JsonArray whole = new JsonArray((String) result.get("whole"));
    assertThat(whole.getJsonArray(0))
        .isEqualTo(
            new JsonArray(
                List.of(
                    List.of("name", "note", "id"),
                    List.of("Doe, Jane", "said \"hi\"\nthen left", "1"),
                    List.of("", "", ""),
                    List.of("plain", "", "3"),
                    List.of(""),
                    List.of("x\"", "y", "multi\r\nline"))));
    assertThat(whole.getString(1)).isEqualTo("\r\n");
    assertThat(whole.getInteger(2)).isZero();
    assertThat((Long) result.get("splits"))
        .isEqualTo((input.length() + 1L) * (input.length() + 2L) / 2);
    assertThat((List<?>) result.get("failures")).isEmpty();
    assertThat(result.get("byCharacter")).isEqualTo(true);
  }

  @Test
  void strayQuotesAreKeptAndCounted() {
    openCsvPage();
    Object result =
        browser.asyncScript(
            """
            const done = arguments[0];
            import('/ui/assets/csv.js').then(({CsvParser}) => {
              const parser = new CsvParser(';');
              const rows = parser.push('a;se"cret;c\\n"quoted"tail;b\\nfine;"x";y\\n');
              done(JSON.stringify([rows, parser.malformedRows]));
            });
            """);
    assertThat(new JsonArray((String) result))
        .isEqualTo(
            new JsonArray(
                List.of(
                    List.of(
                        List.of("a", "se\"cret", "c"),
                        List.of("quotedtail", "b"),
                        List.of("fine", "x", "y")),
                    2)));
  }

  @Test
  void aChosenFileIsStreamedInBoundedBatchesSendingOnlyTheChosenColumns(@TempDir Path dir)
      throws IOException {
    // semicolon-separated, CRLF, a BOM, quoted fields with delimiters, quotes and line breaks
    // everywhere (so that the browser's read pieces split them), blanks and placeholders
    StringBuilder csv = new StringBuilder("\uFEFFid;name;code\r\n");
    List<List<String>> rows = new ArrayList<>();
    int count = 30_000;
    for (int i = 0; i < count; i++) {
      String id = i % 97 == 0 ? "" : i % 101 == 0 ? " na " : i % 103 == 0 ? "NULL" : "id-" + i;
      String name = "Name; \"" + i + "\"\r\nsecond line " + "x".repeat(i % 13);
      String code = i % 89 == 0 ? "   " : "code " + (i % 500);
      if (i == 7) {
        name = "se\"cret";
      }
      rows.add(List.of(id, name, code));
      // row 7 unquoted as it is: a stray quote, which the page keeps and counts
      csv.append(i == 7 ? String.join(";", id, name, code) : Csv.row(List.of(id, name, code), ';'))
          .append("\r\n");
    }
    Path file = dir.resolve("patients.csv");
    Files.writeString(file, csv, StandardCharsets.UTF_8);
    assertThat(Files.size(file)).isGreaterThan(1_000_000);

    openCsvPage();
    browser.click("#source-file");
    browser.visible("#csvFileInput").sendKeys(file.toAbsolutePath().toString());

    // the preview: the delimiter guessed, the header's names offered
    browser.textContaining("#columns", "code");
    assertThat(browser.find("#delimiter").getAttribute("value")).isEqualTo(";");
    assertThat(browser.find("#column-0-action").getAttribute("aria-label")).contains("id");
    assertThat(browser.find("#preview").getText()).contains("Name; \"0\"");

    @SuppressWarnings("unchecked")
    Map<String, Object> result =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const done = arguments[0];
                (async () => {
                  const {processCsv, MAX_VALUES_PER_CALL} = await import('/ui/assets/batch.js');
                  const file = document.getElementById('csvFileInput').files[0];
                  const sent = new Set();
                  let calls = 0, largestCall = 0, largestBody = 0;
                  const lookup = async (namespace, values) => {
                    calls++;
                    largestCall = Math.max(largestCall, values.length);
                    const body = new TextEncoder().encode(JSON.stringify({originalValues: values}));
                    largestBody = Math.max(largestBody, body.length);
                    values.forEach((v) => sent.add(namespace + '|' + v));
                    return new Map(values.map((v) => [v, namespace + ':' + v]));
                  };
                  const outcome = await processCsv(file, {
                    delimiter: document.getElementById('delimiter').value,
                    hasHeader: true,
                    placeholders: ['NA', 'null'],
                    maxRequestBytes: 64 * 1024,
                    mappings: [
                      {column: 0, newColumn: '', namespace: 'ids'},
                      {column: 2, newColumn: 'code_pseudonym', namespace: 'codes'},
                    ],
                  }, lookup);
                  const head = new Uint8Array(await outcome.blob.slice(0, 3).arrayBuffer());
                  done({
                    text: await outcome.blob.text(),
                    bom: head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf,
                    rows: outcome.rows, kept: outcome.kept, sent: outcome.sent,
                    malformed: outcome.malformed, calls, largestCall, largestBody,
                    limit: MAX_VALUES_PER_CALL, sentValues: [...sent],
                  });
                })().catch((e) => done({error: String(e)}));
                """);

    assertThat(result.get("error")).isNull();
    Set<String> placeholders = Set.of("na", "null");
    StringBuilder expected = new StringBuilder("id;name;code;code_pseudonym\r\n");
    Set<String> expectedSent = new HashSet<>();
    int kept = 0;
    for (List<String> row : rows) {
      String id = row.get(0);
      String code = row.get(2);
      boolean idMissing = missing(id, placeholders);
      boolean codeMissing = missing(code, placeholders);
      kept += (idMissing ? 1 : 0) + (codeMissing ? 1 : 0);
      if (!idMissing) {
        expectedSent.add("ids|" + id);
      }
      if (!codeMissing) {
        expectedSent.add("codes|" + code);
      }
      expected
          .append(
              Csv.row(
                  List.of(
                      idMissing ? id : "ids:" + id,
                      row.get(1),
                      code,
                      codeMissing ? code : "codes:" + code),
                  ';'))
          .append("\r\n");
    }
    assertThat(result.get("text")).isEqualTo(expected.toString());
    assertThat(result.get("bom")).isEqualTo(true);
    assertThat(((Number) result.get("rows")).intValue()).isEqualTo(count);
    assertThat(((Number) result.get("kept")).intValue()).isEqualTo(kept).isPositive();
    assertThat(((Number) result.get("malformed")).intValue()).isEqualTo(1);
    assertThat(new HashSet<>((List<?>) result.get("sentValues"))).isEqualTo(expectedSent);
    // distinct values per call, within the count limit and half the body limit given
    assertThat(((Number) result.get("largestCall")).intValue())
        .isLessThanOrEqualTo(((Number) result.get("limit")).intValue());
    assertThat(((Number) result.get("largestBody")).intValue()).isLessThanOrEqualTo(32 * 1024);
    assertThat(((Number) result.get("calls")).intValue()).isGreaterThan(count / 1000);
  }

  private static boolean missing(String value, Set<String> placeholders) {
    String trimmed = value.strip();
    return trimmed.isEmpty() || placeholders.contains(trimmed.toLowerCase(Locale.ROOT));
  }

  @Test
  void revealingKeepsUnknownPseudonymsAndCountsThem() {
    openCsvPage();
    @SuppressWarnings("unchecked")
    Map<String, Object> result =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const done = arguments[0];
                (async () => {
                  const {processCsv, revealer} = await import('/ui/assets/batch.js');
                  const known = new Map([['p1', 'a'], ['p2', 'b'], ['p4', 'd']]);
                  let calls = 0;
                  // as BatchGet answers: 404 naming the first unknown one by its position; the
                  // other kind of 404 names none (the page then splits the batch)
                  const batchGet = async (namespace, values) => {
                    calls++;
                    const at = values.findIndex((v) => !known.has(v));
                    if (at >= 0) {
                      const error = new Error(values[at] === 'p3'
                          ? `The pseudonym ${at + 1} of ${values.length} does not exist in the`
                              + ` namespace '${namespace}'.`
                          : 'The requested pseudonym does not exist in the namespace.');
                      error.notFound = true;
                      throw error;
                    }
                    return values.map((v) => ({pseudonymValue: v, originalValue: known.get(v)}));
                  };
                  const source = new Blob(['p1\\np2\\np3\\nNA\\np4\\nzz\\n\\np1\\n']);
                  const outcome = await processCsv(source, {
                    delimiter: ',', hasHeader: false, placeholders: ['NA'],
                    mappings: [{column: 0, newColumn: '', namespace: 'n'}],
                  }, revealer(batchGet, async () => true));
                  done({text: await outcome.blob.text(), unknown: outcome.unknown,
                        kept: outcome.kept, calls});
                })().catch((e) => done({error: String(e)}));
                """);
    assertThat(result.get("error")).isNull();
    assertThat(result.get("text")).isEqualTo("a\nb\np3\nNA\nd\nzz\n\na\n");
    assertThat(((Number) result.get("unknown")).intValue()).isEqualTo(2);
    assertThat(((Number) result.get("kept")).intValue()).isEqualTo(2);
  }

  @Test
  void distinctValuesAreCountedOverTheWholeRunAndTheRunsTimeIsReturned() {
    openCsvPage();
    @SuppressWarnings("unchecked")
    Map<String, Object> result =
        (Map<String, Object>)
            browser.asyncScript(
                """
                const done = arguments[0];
                (async () => {
                  const {processCsv, pseudonymizer} = await import('/ui/assets/batch.js');
                  let asked = 0;
                  const batchCreate = async (namespace, values) => {
                    asked += values.length;
                    return values.map((v) => ({pseudonymValue: 'p-' + v}));
                  };
                  // 3,000 distinct values, each on two rows far apart: in different calls
                  const lines = [];
                  for (let round = 0; round < 2; round++) {
                    for (let i = 0; i < 3000; i++) {
                      lines.push('v' + i);
                    }
                  }
                  const outcome = await processCsv(new Blob([lines.join('\\n') + '\\n']), {
                    delimiter: ',', hasHeader: false,
                    mappings: [{column: 0, newColumn: '', namespace: 'n'}],
                  }, pseudonymizer(batchCreate));
                  done({sent: outcome.sent, asked, rows: outcome.rows, seconds: outcome.seconds});
                })().catch((e) => done({error: String(e)}));
                """);
    assertThat(result.get("error")).isNull();
    assertThat(((Number) result.get("rows")).intValue()).isEqualTo(6_000);
    // each value went out twice, but is one distinct value
    assertThat(((Number) result.get("asked")).intValue()).isEqualTo(6_000);
    assertThat(((Number) result.get("sent")).intValue()).isEqualTo(3_000);
    assertThat(((Number) result.get("seconds")).doubleValue()).isPositive();
  }

  /** Runs processCsv in skip or stop mode with a BatchCreate that refuses values starting "bad". */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> refusing(boolean skip) {
    return (Map<String, Object>)
        browser.asyncScript(
            """
            const [skip, done] = arguments;
            (async () => {
              const {processCsv, pseudonymizer} = await import('/ui/assets/batch.js');
              // as the service refuses: the whole call, naming the first bad value's position
              // from 1; the value "bad-quiet" by none, so that the page must halve the call
              const batchCreate = async (namespace, values) => {
                const bad = values.findIndex((v) => v.startsWith('bad'));
                if (bad >= 0) {
                  const error = new Error(values[bad] === 'bad-quiet'
                      ? 'The original value is too long.'
                      : `The original value ${bad + 1} of ${values.length} does not match the required pattern '^ok'.`);
                  error.status = 400;
                  throw error;
                }
                return values.map((v) => ({pseudonymValue: 'p-' + v}));
              };
              const source = new Blob(['id,x\\nok1,a\\nbad1,b\\n,c\\nbad-quiet,d\\nok2,e\\nbad1,f\\nok1,g\\n']);
              try {
                const outcome = await processCsv(source, {
                  delimiter: ',', hasHeader: true, skipRefused: skip,
                  mappings: [{column: 0, newColumn: '', namespace: 'n'}],
                }, pseudonymizer(batchCreate));
                done({text: await outcome.blob.text(), refused: outcome.refused,
                      refusals: outcome.refusals, sent: outcome.sent});
              } catch (e) {
                done({stopped: e.message});
              }
            })().catch((e) => done({error: String(e)}));
            """,
            skip);
  }

  @Test
  void inSkipModeRefusedValuesAreLeftEmptyAndReportedByRowAndTheOthersAreMade() {
    openCsvPage();
    Map<String, Object> result = refusing(true);
    assertThat(result.get("error")).isNull();
    assertThat(result.get("stopped")).isNull();
    assertThat(result.get("text")).isEqualTo("id,x\np-ok1,a\n,b\n,c\n,d\np-ok2,e\n,f\np-ok1,g\n");
    assertThat(((Number) result.get("refused")).intValue()).isEqualTo(3);
    // rows of the input from 1, the header being row 1; the service's position is gone
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> refusals = (List<Map<String, Object>>) result.get("refusals");
    assertThat(refusals)
        .extracting(r -> ((Number) r.get("row")).intValue(), r -> r.get("reason"))
        .containsExactly(
            tuple(3, "The original value does not match the required pattern '^ok'."),
            tuple(5, "The original value is too long."),
            tuple(7, "The original value does not match the required pattern '^ok'."));
    assertThat(((Number) result.get("sent")).intValue()).isEqualTo(4);
  }

  @Test
  void inStopModeTheFirstRefusedValueStopsTheRunNamingItsRow() {
    openCsvPage();
    Map<String, Object> result = refusing(false);
    assertThat(result.get("error")).isNull();
    assertThat(result.get("stopped"))
        .isEqualTo("Row 3: The original value does not match the required pattern '^ok'.");
  }

  @Test
  void thePageSaysWhatIsMissingBeforeSendingAnything() {
    openCsvPage();
    browser.click("#start");
    browser.textContaining("#csv-message", "Paste values or choose a file first");

    browser.find("#pasteInput").sendKeys("one\ntwo\n");
    browser.visible("#column-0-action");
    browser.script(
        "const a = document.getElementById('column-0-action');"
            + "a.value = 'keep'; a.dispatchEvent(new Event('change'));");
    browser.click("#start");
    browser.textContaining("#csv-message", "Choose at least one column");
  }

  /** CSV text as the page writes it: fields quoted only when they need it. */
  static final class Csv {
    private Csv() {}

    static String row(List<String> fields, char delimiter) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          line.append(delimiter);
        }
        String field = fields.get(i);
        if (field.indexOf(delimiter) >= 0
            || field.contains("\"")
            || field.contains("\n")
            || field.contains("\r")) {
          line.append('"').append(field.replace("\"", "\"\"")).append('"');
        } else {
          line.append(field);
        }
      }
      return line.toString();
    }
  }
}
