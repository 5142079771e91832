package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.HttpTestClient;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.alphabet.AlphabetPreset;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.formats.v1.CheckDigit;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.csv.CsvReader;
import org.vfps.objectstore.TestObjectStore;
import org.vfps.server.VfpsServer;

/**
 * A file shaped as gPAS's web UI exports two domains (docs/coming-from-gpas.md: semicolons, the
 * German header "Originalwert;Pseudonym;Domäne", one row per pair) imported through a real CSV job
 * against a real S3 server and database, into the namespaces its domains map to: the rows that fit
 * are stored (one typed without its group delimiters in the grouped form), and each row that does
 * not fit is reported with its reason and not stored.
 */
class GpasExportImportIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static HttpTestClient http;
  private static GrpcTestClient grpc;
  private static CsvJobClient jobs;

  @BeforeAll
  static void start() {
    Map<String, String> environment = new HashMap<>(TestObjectStore.environment());
    environment.put("ConnectionStrings__PostgreSQL", TestPostgres.uri());
    server = resources.own(TestService.start(environment));
    http = resources.own(new HttpTestClient(server.httpPort()));
    grpc = resources.own(new GrpcTestClient(server.grpcPort()));
    jobs = new CsvJobClient(http);
  }

  /**
   * A namespace of the alphabet method, as the docs' mapping table makes it from a domain; over
   * gRPC, since the REST contract does not have the method yet.
   */
  private static String namespace(
      String domain, int length, String prefix, PseudonymFormat format) {
    String name = domain + "-" + UUID.randomUUID();
    grpc.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET)
            .setPseudonymLength(length)
            .setPseudonymPrefix(prefix)
            .setXFormat(format)
            .build());
    return name;
  }

  private static PseudonymFormat gpasDammOverNumbers() {
    return PseudonymFormat.newBuilder()
        .setAlphabet(AlphabetPreset.NUMBERS.symbols())
        .setCheckDigit(CheckDigit.CHECK_DIGIT_X_GPAS_DAMM)
        .build();
  }

  @Test
  void aGpasExportImportsWithPerRowReasonsAndStoresOnlyThePseudonymsThatFit() throws Exception {
    // Numbers, gPAS's Damm, PSN_LENGTH 8, PSN_PREFIX "P-"
    String damm = namespace("gpas-damm", 8, "P-", gpasDammOverNumbers());
    // Hex, no check digit, PSN_LENGTH 9, USE_LAST_CHAR_AS_DELIMITER_AFTER_X_CHARS 4: "F" groups
    String grouped =
        namespace(
            "gpas-hex",
            8,
            "",
            PseudonymFormat.newBuilder()
                .setAlphabet("0123456789ABCDE")
                .setGroupSize(4)
                .setGroupDelimiter("F")
                .build());
    String file =
        String.join(
                "\r\n",
                "Originalwert;Pseudonym;Domäne",
                // gPAS's Damm of 12345678 is 7, of 87654321 it is 6
                "patient-1;P-123456787;" + damm,
                "patient-2;P-876543216;" + damm,
                // the standard Damm's check digit of 12345678
                "patient-3;P-123456786;" + damm,
                "patient-4;P-1234567A7;" + damm,
                "patient-5;P-12345677;" + damm,
                "patient-6;0123F4567;" + grouped,
                "patient-7;89ABCDE0;" + grouped,
                "patient-8;0123-4567;" + grouped,
                "patient-9;0123F456;" + grouped,
                "Müller, Anna;CDE0F1234;" + grouped)
            + "\r\n";

    JsonObject done =
        run(
            CsvJobClient.request(
                "IMPORT",
                Map.of("delimiter", ";"),
                new JsonObject()
                    .put("sourceColumn", "Originalwert")
                    .put("targetColumn", "Pseudonym")
                    .put("namespaceColumn", "Domäne")),
            file);

    List<List<String>> report = rows(CsvJobClient.download(done));
    assertThat(report.getFirst()).containsExactly("Originalwert", "Pseudonym", "Domäne", "status");
    assertThat(report.stream().skip(1).map(row -> row.getFirst() + " " + row.getLast()))
        .containsExactly(
            "patient-1 Imported",
            "patient-2 Imported",
            "patient-3 PseudonymCheckDigitMismatch",
            "patient-4 PseudonymOutsideAlphabet",
            "patient-5 InvalidPseudonymValue",
            "patient-6 Imported",
            "patient-7 Imported",
            "patient-8 PseudonymOutsideAlphabet",
            "patient-9 InvalidPseudonymValue",
            "Müller, Anna Imported");
    // the report is the file as it was read, the ungrouped pseudonym too
    assertThat(report.get(7).get(1)).isEqualTo("89ABCDE0");
    assertThat(done.getLong("rowsProcessed")).isEqualTo(10);

    assertThat(TestPostgres.pseudonymCount(damm)).isEqualTo(2);
    assertThat(TestPostgres.pseudonymCount(grouped)).isEqualTo(3);
    assertThat(originalOf(damm, "P-123456787")).isEqualTo("patient-1");
    assertThat(originalOf(damm, "P-876543216")).isEqualTo("patient-2");
    assertThat(originalOf(grouped, "0123F4567")).isEqualTo("patient-6");
    assertThat(originalOf(grouped, "CDE0F1234")).isEqualTo("Müller, Anna");
    // stored in the grouped form, as the namespace writes its own
    assertThat(stored(grouped, "patient-7", "89ABFCDE0")).isTrue();
    assertThat(originalOf(grouped, "89ABCDE0")).as("found as typed").isEqualTo("patient-7");
    for (String refused : List.of("patient-3", "patient-4", "patient-5")) {
      assertThat(storedFor(damm, refused)).as(refused).isZero();
    }
    assertThat(storedFor(grouped, "patient-8") + storedFor(grouped, "patient-9")).isZero();
  }

  /** gPAS's earlier CSV files start with a spreadsheet's separator line, which is no header. */
  @Test
  void aFirstLineSepIsSkippedAndCopiedAndOneNamingAnotherDelimiterIsRefusedAtStart()
      throws Exception {
    String damm = namespace("gpas-sep", 8, "P-", gpasDammOverNumbers());
    JsonObject request =
        CsvJobClient.request(
            "IMPORT",
            Map.of("delimiter", ";"),
            CsvJobClient.mapping("Original value", "Pseudonym", damm));

    JsonObject done =
        run(request, "sep=;\r\nOriginal value;Pseudonym\r\npatient-1;P-123456787\r\n");

    assertThat(CsvJobClient.download(done))
        .isEqualTo(
            "sep=;\r\nOriginal value;Pseudonym;status\r\npatient-1;P-123456787;Imported\r\n");
    assertThat(originalOf(damm, "P-123456787")).isEqualTo("patient-1");

    JsonObject job = jobs.create(request);
    assertThat(
            CsvJobClient.upload(
                job,
                "sep=,\nOriginal value,Pseudonym\npatient-2,P-876543216\n"
                    .getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(200);
    HttpTestClient.Response refused = jobs.start(job.getString("id"));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.json().getString("message"))
        .isEqualTo(
            "The file's first line 'sep=,' names another delimiter than the job's ';': create the"
                + " job with the file's delimiter.");
    assertThat(storedFor(damm, "patient-2")).isZero();
  }

  @Test
  void aNamespaceOfGpassDammHandsOutPseudonymsGpassDammValidates() {
    String damm = namespace("gpas-new", 8, "P-", gpasDammOverNumbers());
    assertThat(
            grpc.ok(
                    NamespaceServiceGrpcClient.Get,
                    NamespaceServiceGetRequest.newBuilder().setName(damm).build())
                .getNamespace()
                .getXFormat()
                .getCheckDigit())
        .isEqualTo(CheckDigit.CHECK_DIGIT_X_GPAS_DAMM);

    List<Pseudonym> created =
        grpc.ok(
                PseudonymServiceGrpcClient.BatchCreate,
                PseudonymServiceBatchCreateRequest.newBuilder()
                    .setNamespace(damm)
                    .addAllOriginalValues(
                        IntStream.range(0, 200).mapToObj(i -> "new-" + i).toList())
                    .build())
            .getPseudonymsList();
    var gpasDamm = CheckDigitKind.X_GPAS_DAMM.over(AlphabetPreset.NUMBERS.alphabet()).orElseThrow();
    assertThat(created).hasSize(200);
    for (Pseudonym pseudonym : created) {
      String value = pseudonym.getPseudonymValue();
      assertThat(value).matches("P-[0-9]{9}");
      assertThat(gpasDamm.isValid(value.substring(2))).as(value).isTrue();
    }
  }

  @Test
  void gpassDammOverAnAlphabetOfOtherThanTenCharactersIsRefusedSayingSo() {
    GrpcTestClient.Reply<?> refused =
        grpc.call(
            NamespaceServiceGrpcClient.Create,
            NamespaceServiceCreateRequest.newBuilder()
                .setName("gpas-nine-" + UUID.randomUUID())
                .setPseudonymGenerationMethod(
                    PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET)
                .setPseudonymLength(8)
                .setXFormat(
                    PseudonymFormat.newBuilder()
                        .setAlphabet(AlphabetPreset.NUMBERS_WITHOUT_ZERO.symbols())
                        .setCheckDigit(CheckDigit.CHECK_DIGIT_X_GPAS_VERHOEFF))
                .build());

    assertThat(refused.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(refused.message())
        .isEqualTo(
            "CHECK_DIGIT_X_GPAS_VERHOEFF works on alphabets of ten characters only; this one has"
                + " 9.");
  }

  private static JsonObject run(JsonObject request, String file) {
    JsonObject started = jobs.submit(request, file.getBytes(StandardCharsets.UTF_8));
    return jobs.awaitEnd(started.getString("id"), TIMEOUT);
  }

  private static String originalOf(String namespace, String pseudonym) {
    HttpTestClient.Response found =
        http.get("/v1/namespaces/" + namespace + "/pseudonyms/" + pseudonym);
    assertThat(found.status()).as(found.body()).isEqualTo(200);
    return found.json().getJsonObject("pseudonym").getString("originalValue");
  }

  /** How many pseudonyms the database holds for the original value, of any form. */
  private static long storedFor(String namespace, String originalValue) {
    return TestPostgres.queryLong(
        TestPostgres.database(),
        "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND original_value = ?",
        namespace,
        originalValue);
  }

  /** Whether the database holds exactly this pair, the pseudonym in exactly this form. */
  private static boolean stored(String namespace, String originalValue, String pseudonym) {
    return TestPostgres.queryLong(
            TestPostgres.database(),
            "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND original_value = ?"
                + " AND pseudonym_value = ?",
            namespace,
            originalValue,
            pseudonym)
        == 1;
  }

  private static List<List<String>> rows(String csv) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (CsvReader reader =
        new CsvReader(
            new java.io.ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)),
            0,
            ';',
            1 << 20)) {
      for (var record = reader.next(); record != null; record = reader.next()) {
        rows.add(record.fields());
      }
    }
    return rows;
  }
}
