package org.vfps.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.HttpTestClient;
import org.vfps.HttpTestClient.Response;
import org.vfps.TestService;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.alphabet.Stdnum;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetResponse;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.api.x.formats.v1.CheckDigit;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.server.VfpsServer;

/**
 * Namespaces of the alphabet method ({@code PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET})
 * through generated stubs and REST: the pseudonyms the service hands out validate in python-stdnum,
 * and a reverse lookup finds them with or without their group delimiters but refuses a mistyped one
 * (one character changed, two neighbours swapped) before looking it up.
 */
class AlphabetNamespaceIT {

  private static final String MISTYPED =
      "The pseudonym's check digit does not match: it was mistyped.";
  private static final int VALUES_PER_KIND = 1000;
  private static final int BATCH = 500;

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static VfpsServer server;
  private static GrpcTestClient client;
  private static HttpTestClient http;

  @BeforeAll
  static void start() {
    server = resources.own(TestService.start());
    client = resources.own(new GrpcTestClient(server.grpcPort()));
    http = resources.own(new HttpTestClient(server.httpPort()));
  }

  private static NamespaceServiceCreateRequest.Builder settings(
      int length, PseudonymFormat format) {
    return NamespaceServiceCreateRequest.newBuilder()
        .setName("alphabet-" + UUID.randomUUID())
        .setPseudonymGenerationMethod(
            PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET)
        .setPseudonymLength(length)
        .setXFormat(format);
  }

  private static PseudonymFormat format(
      String alphabet, CheckDigit checkDigit, int groupSize, String delimiter) {
    return PseudonymFormat.newBuilder()
        .setAlphabet(alphabet)
        .setCheckDigit(checkDigit)
        .setGroupSize(groupSize)
        .setGroupDelimiter(delimiter)
        .build();
  }

  /** A namespace of these settings with {@link #VALUES_PER_KIND} values; their pseudonyms. */
  private static Map<String, String> pseudonymsOfNewNamespace(
      NamespaceServiceCreateRequest settings) {
    client.ok(NamespaceServiceGrpcClient.Create, settings);
    Map<String, String> originalByPseudonym = new HashMap<>();
    for (int from = 0; from < VALUES_PER_KIND; from += BATCH) {
      List<String> originals =
          IntStream.range(from, from + BATCH).mapToObj(i -> "patient-" + i).toList();
      List<Pseudonym> created =
          client
              .ok(
                  PseudonymServiceGrpcClient.BatchCreate,
                  PseudonymServiceBatchCreateRequest.newBuilder()
                      .setNamespace(settings.getName())
                      .addAllOriginalValues(originals)
                      .build())
              .getPseudonymsList();
      created.forEach(p -> originalByPseudonym.put(p.getPseudonymValue(), p.getOriginalValue()));
    }
    assertThat(originalByPseudonym).hasSize(VALUES_PER_KIND);
    return originalByPseudonym;
  }

  private static Reply<PseudonymServiceGetResponse> get(String namespace, String pseudonym) {
    return client.call(
        PseudonymServiceGrpcClient.Get,
        PseudonymServiceGetRequest.newBuilder()
            .setNamespace(namespace)
            .setPseudonymValue(pseudonym)
            .build());
  }

  @Test
  void everyCheckDigitMakesPseudonymsThatStdnumValidatesAndCatchesTheirTypos() throws Exception {
    Stdnum.assumeInstalled();
    record Kind(CheckDigit checkDigit, CheckDigitKind kind, String alphabet, int group) {}
    List<Kind> kinds =
        List.of(
            new Kind(
                CheckDigit.CHECK_DIGIT_LUHN_MOD_N,
                CheckDigitKind.LUHN_MOD_N,
                "ACDEFGHJKLMNPQRTUVWXYZ0123456789",
                4),
            new Kind(CheckDigit.CHECK_DIGIT_LUHN_MOD_N, CheckDigitKind.LUHN_MOD_N, "0123456789", 0),
            new Kind(CheckDigit.CHECK_DIGIT_DAMM, CheckDigitKind.DAMM, "0123456789", 3),
            new Kind(CheckDigit.CHECK_DIGIT_VERHOEFF, CheckDigitKind.VERHOEFF, "0123456789", 0));
    Random random = new Random(43);
    for (Kind kind : kinds) {
      String delimiter = kind.group == 0 ? "" : "-";
      NamespaceServiceCreateRequest settings =
          settings(9, format(kind.alphabet, kind.checkDigit, kind.group, delimiter))
              .setPseudonymPrefix("psn_")
              .setPseudonymSuffix("_x")
              .build();
      Map<String, String> originalByPseudonym = pseudonymsOfNewNamespace(settings);

      List<Stdnum.Query> queries = new ArrayList<>();
      for (String pseudonym : originalByPseudonym.keySet()) {
        assertThat(pseudonym).startsWith("psn_").endsWith("_x");
        String core = pseudonym.substring(4, pseudonym.length() - 2);
        String characters = core.replace("-", "");
        assertThat(characters).as(pseudonym).hasSize(10);
        if (kind.group > 0) {
          assertThat(core).as(pseudonym).matches("(.{3,4}-)+.{1,4}");
        }
        queries.add(new Stdnum.Query(kind.kind, kind.alphabet, characters));
      }
      assertThat(Stdnum.validate(queries)).as("stdnum's verdicts on " + kind).containsOnly(true);

      String namespace = settings.getName();
      List<String> sample = originalByPseudonym.keySet().stream().limit(20).toList();
      for (String pseudonym : sample) {
        String original = originalByPseudonym.get(pseudonym);
        assertThat(get(namespace, pseudonym).body().getPseudonym().getOriginalValue())
            .isEqualTo(original);
        Reply<PseudonymServiceGetResponse> ungrouped = get(namespace, pseudonym.replace("-", ""));
        assertThat(ungrouped.status()).isEqualTo(GrpcStatus.OK);
        assertThat(ungrouped.body().getPseudonym().getPseudonymValue()).isEqualTo(pseudonym);

        String changed = changeOne(pseudonym, kind.alphabet, random);
        Reply<PseudonymServiceGetResponse> typo = get(namespace, changed);
        assertThat(typo.status()).as(changed).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
        assertThat(typo.message()).isEqualTo(MISTYPED);
        if (kind.kind != CheckDigitKind.LUHN_MOD_N) {
          String swapped = swapNeighbours(pseudonym, random);
          if (!swapped.equals(pseudonym)) {
            assertThat(get(namespace, swapped).status())
                .as(swapped)
                .isEqualTo(GrpcStatus.INVALID_ARGUMENT);
          }
        }
      }
    }
  }

  /** One character of the core (between "psn_" and "_x", delimiters aside) changed. */
  private static String changeOne(String pseudonym, String alphabet, Random random) {
    char[] chars = pseudonym.toCharArray();
    int position;
    do {
      position = 4 + random.nextInt(pseudonym.length() - 6);
    } while (chars[position] == '-');
    char replacement;
    do {
      replacement = alphabet.charAt(random.nextInt(alphabet.length()));
    } while (replacement == chars[position]);
    chars[position] = replacement;
    return new String(chars);
  }

  /** Two neighbouring characters of the core swapped (the same pseudonym where they are equal). */
  private static String swapNeighbours(String pseudonym, Random random) {
    char[] chars = pseudonym.toCharArray();
    int position;
    do {
      position = 4 + random.nextInt(pseudonym.length() - 7);
    } while (chars[position] == '-' || chars[position + 1] == '-');
    char first = chars[position];
    chars[position] = chars[position + 1];
    chars[position + 1] = first;
    return new String(chars);
  }

  @Test
  void theNamespaceCarriesItsFormatOverGrpcAndRest() {
    PseudonymFormat format = format("0123456789", CheckDigit.CHECK_DIGIT_DAMM, 4, " ");
    NamespaceServiceCreateRequest settings = settings(8, format).build();
    client.ok(NamespaceServiceGrpcClient.Create, settings);

    assertThat(
            client
                .ok(
                    NamespaceServiceGrpcClient.Get,
                    NamespaceServiceGetRequest.newBuilder().setName(settings.getName()).build())
                .getNamespace()
                .getXFormat())
        .isEqualTo(format);
    JsonObject namespace = http.get("/v1/namespaces/" + settings.getName()).json();
    assertThat(namespace.getJsonObject("namespace").getString("pseudonymGenerationMethod"))
        .isEqualTo("PSEUDONYM_GENERATION_METHOD_X_SECURE_RANDOM_ALPHABET");
    assertThat(namespace.getJsonObject("namespace").getJsonObject("xFormat"))
        .isEqualTo(
            new JsonObject()
                .put("alphabet", "0123456789")
                .put("checkDigit", "CHECK_DIGIT_DAMM")
                .put("groupSize", 4)
                .put("groupDelimiter", " "));
  }

  @Test
  void restAndBatchGetRefuseAMistypedPseudonymAndFindOneWithoutDelimiters() {
    NamespaceServiceCreateRequest settings =
        settings(6, format("0123456789", CheckDigit.CHECK_DIGIT_VERHOEFF, 2, "."))
            .setPseudonymPrefix("V")
            .build();
    Map<String, String> originalByPseudonym = pseudonymsOfNewNamespace(settings);
    String namespace = settings.getName();
    List<String> two = originalByPseudonym.keySet().stream().limit(2).toList();
    String pseudonym = two.getFirst();
    // the last digit is the check digit: a different one never matches
    char check = pseudonym.charAt(pseudonym.length() - 1);
    String mistyped =
        pseudonym.substring(0, pseudonym.length() - 1) + (char) ('0' + (check - '0' + 1) % 10);

    Response found = http.get(path(namespace, pseudonym.replace(".", "")));
    assertThat(found.status()).isEqualTo(200);
    assertThat(found.json().getJsonObject("pseudonym").getString("pseudonymValue"))
        .isEqualTo(pseudonym);
    Response typo = http.get(path(namespace, mistyped));
    assertThat(typo.status()).isEqualTo(400);
    assertThat(typo.json().getInteger("code")).isEqualTo(3);
    assertThat(typo.json().getString("message")).isEqualTo(MISTYPED);

    Reply<PseudonymServiceBatchGetResponse> batch =
        client.call(
            PseudonymServiceGrpcClient.BatchGet,
            PseudonymServiceBatchGetRequest.newBuilder()
                .setNamespace(namespace)
                .addPseudonymValues(two.get(1).replace(".", ""))
                .addPseudonymValues(mistyped)
                .build());
    assertThat(batch.status()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
    assertThat(batch.message()).isEqualTo(MISTYPED);
    assertThat(batch.trailers().get("index")).isEqualTo("1");

    PseudonymServiceBatchGetResponse both =
        client.ok(
            PseudonymServiceGrpcClient.BatchGet,
            PseudonymServiceBatchGetRequest.newBuilder()
                .setNamespace(namespace)
                .addPseudonymValues(two.get(1).replace(".", ""))
                .addPseudonymValues(pseudonym)
                .build());
    assertThat(both.getPseudonymsList())
        .extracting(Pseudonym::getOriginalValue)
        .containsExactly(originalByPseudonym.get(two.get(1)), originalByPseudonym.get(pseudonym));
  }

  private static String path(String namespace, String pseudonym) {
    return "/v1/namespaces/"
        + namespace
        + "/pseudonyms/"
        + URLEncoder.encode(pseudonym, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Test
  void settingsThatCannotMakeSuchPseudonymsAreRefused() {
    Map<NamespaceServiceCreateRequest, String> refused = new HashMap<>();
    refused.put(
        settings(8, PseudonymFormat.getDefaultInstance()).clearXFormat().build(),
        "The 'XSecureRandomAlphabet' pseudonym generation method needs a pseudonym format"
            + " (x_format) with its alphabet.");
    refused.put(
        settings(8, format("0123456789", CheckDigit.CHECK_DIGIT_UNSPECIFIED, 0, ""))
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod.PSEUDONYM_GENERATION_METHOD_FULL_RANDOM_HEX_ENCODED)
            .build(),
        "A pseudonym format (x_format) belongs to the 'XSecureRandomAlphabet' pseudonym"
            + " generation method only.");
    refused.put(
        settings(8, format("0123456789ABCDEF", CheckDigit.CHECK_DIGIT_DAMM, 0, "")).build(), null);
    refused.put(settings(8, format("0", CheckDigit.CHECK_DIGIT_UNSPECIFIED, 0, "")).build(), null);
    refused.put(
        settings(8, format("0123456789-", CheckDigit.CHECK_DIGIT_LUHN_MOD_N, 4, "-")).build(),
        "The group delimiter has '-', which is in the alphabet; it must use other characters.");
    refused.put(
        settings(8, format("0123456789", CheckDigit.CHECK_DIGIT_LUHN_MOD_N, 4, "")).build(), null);
    refused.put(
        settings(
                8,
                format("0123456789", CheckDigit.CHECK_DIGIT_UNSPECIFIED, 0, "").toBuilder()
                    .setCheckDigitValue(77)
                    .build())
            .build(),
        "Unknown check digit 77.");
    refused.forEach(
        (settings, message) -> {
          Reply<?> reply = client.call(NamespaceServiceGrpcClient.Create, settings);
          assertThat(reply.status()).as(settings.toString()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
          if (message != null) {
            assertThat(reply.message()).isEqualTo(message);
          } else {
            assertThat(reply.message()).as(settings.toString()).isNotBlank();
          }
        });
  }
}
