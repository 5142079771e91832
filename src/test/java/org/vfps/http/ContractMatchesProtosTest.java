package org.vfps.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.AnnotationsProto;
import com.google.api.HttpRule;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.Namespace;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.api.v1.ParentValidationMode;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.api.x.access.v1.AccessServiceGrpcService;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcService;
import org.vfps.api.x.formats.v1.CheckDigit;
import org.vfps.api.x.formats.v1.NamespaceCapacity;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcService;

/**
 * The REST contract and the protos' {@code google.api.http} rules cannot drift apart: every rule
 * has its operation (method, path, body) in the contract, and every REST operation of the contract
 * has its rule.
 */
class ContractMatchesProtosTest {

  private static final List<ServiceDescriptor> SERVICES =
      List.of(
          NamespaceServiceGrpcService.SERVICE_DESCRIPTOR,
          PseudonymServiceGrpcService.SERVICE_DESCRIPTOR,
          WithdrawalServiceGrpcService.SERVICE_DESCRIPTOR,
          AccessServiceGrpcService.SERVICE_DESCRIPTOR,
          CsvJobServiceGrpcService.SERVICE_DESCRIPTOR);

  /** An HTTP rule or a contract operation: method, path template, and whether it takes a body. */
  record Route(String method, String path, boolean body, String operationId) {}

  private static JsonObject contract() throws IOException {
    try (InputStream in =
        ContractMatchesProtosTest.class
            .getClassLoader()
            .getResourceAsStream(ApiContract.RESOURCE)) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static Set<Route> rules() {
    Set<Route> rules = new TreeSet<>(Comparator.comparing(Route::toString));
    for (ServiceDescriptor service : SERVICES) {
      for (MethodDescriptor method : service.getMethods()) {
        if (method.isClientStreaming()) {
          continue;
        }
        HttpRule rule = method.getOptions().getExtension(AnnotationsProto.http);
        String path =
            switch (rule.getPatternCase()) {
              case GET -> rule.getGet();
              case POST -> rule.getPost();
              case PUT -> rule.getPut();
              case DELETE -> rule.getDelete();
              case PATCH -> rule.getPatch();
              default -> throw new AssertionError(method.getFullName() + " has no HTTP rule");
            };
        rules.add(
            new Route(
                rule.getPatternCase().name(),
                path,
                !rule.getBody().isEmpty(),
                service.getName() + "_" + method.getName()));
      }
    }
    return rules;
  }

  private static Set<Route> restOperations() throws IOException {
    Set<Route> operations = new TreeSet<>(Comparator.comparing(Route::toString));
    JsonObject paths = contract().getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      if (path.equals("/v1/fhir")
          || path.startsWith("/v1/fhir/")
          || path.startsWith("/ttp-fhir/")) {
        continue;
      }
      JsonObject item = paths.getJsonObject(path);
      for (String method : List.of("get", "post", "put", "delete", "patch")) {
        JsonObject operation = item.getJsonObject(method);
        if (operation != null) {
          operations.add(
              new Route(
                  method.toUpperCase(Locale.ROOT),
                  path,
                  operation.containsKey("requestBody"),
                  operation.getString("operationId")));
        }
      }
    }
    return operations;
  }

  @Test
  void everyHttpRuleHasItsOperationInTheContractAndNoOperationLacksARule() throws IOException {
    Set<Route> rules = rules();

    assertThat(rules).hasSize(31);
    assertThat(restOperations()).containsExactlyElementsOf(rules);
  }

  @Test
  void theEnumSchemasNameEveryValueOfTheirProtoEnumAndNoOther() throws IOException {
    JsonObject schemas = contract().getJsonObject("components").getJsonObject("schemas");
    for (EnumDescriptor protoEnum :
        List.of(
            PseudonymGenerationMethod.getDescriptor(),
            ParentValidationMode.getDescriptor(),
            CheckDigit.getDescriptor())) {
      List<String> names =
          protoEnum.getValues().stream().map(EnumValueDescriptor::getName).toList();
      List<Object> numbers =
          protoEnum.getValues().stream().map(value -> (Object) value.getNumber()).toList();

      assertThat(schemas.getJsonObject(protoEnum.getName()).getJsonArray("enum").getList())
          .as(protoEnum.getName())
          .containsExactlyElementsOf(names);
      List<Object> input = new ArrayList<>(names);
      input.addAll(numbers);
      input.add(null);
      assertThat(
              schemas.getJsonObject(protoEnum.getName() + "Input").getJsonArray("enum").getList())
          .as(protoEnum.getName() + "Input")
          .containsExactlyElementsOf(input);
    }
  }

  @Test
  void theNamespaceSchemasHaveEveryFieldOfTheirMessages() throws IOException {
    JsonObject schemas = contract().getJsonObject("components").getJsonObject("schemas");

    Set<String> namespace =
        schemas.getJsonObject("Namespace").getJsonObject("properties").fieldNames();
    assertThat(namespace)
        .containsExactlyInAnyOrderElementsOf(jsonNames(Namespace.getDescriptor(), false));
    Set<String> create =
        schemas
            .getJsonObject("NamespaceServiceCreateRequest")
            .getJsonObject("properties")
            .fieldNames();
    assertThat(create)
        .containsExactlyInAnyOrderElementsOf(
            jsonNames(NamespaceServiceCreateRequest.getDescriptor(), true));
    assertThat(schemas.getJsonObject("PseudonymFormat").getJsonObject("properties").fieldNames())
        .containsExactlyInAnyOrderElementsOf(jsonNames(PseudonymFormat.getDescriptor(), false));
    assertThat(
            schemas.getJsonObject("PseudonymFormatInput").getJsonObject("properties").fieldNames())
        .containsExactlyInAnyOrderElementsOf(jsonNames(PseudonymFormat.getDescriptor(), true));
    assertThat(schemas.getJsonObject("NamespaceCapacity").getJsonObject("properties").fieldNames())
        .containsExactlyInAnyOrderElementsOf(jsonNames(NamespaceCapacity.getDescriptor(), false));
  }

  /** The JSON names of the message's fields, and their proto names too if asked. */
  private static Set<String> jsonNames(Descriptor message, boolean protoNames) {
    Set<String> names = new TreeSet<>();
    for (FieldDescriptor field : message.getFields()) {
      names.add(field.getJsonName());
      if (protoNames) {
        names.add(field.getName());
      }
    }
    return names;
  }

  @Test
  void streamingMethodsHaveNoHttpRuleSinceTheyCannotBeTranscoded() {
    MethodDescriptor createStream =
        PseudonymServiceGrpcService.SERVICE_DESCRIPTOR.findMethodByName("CreateStream");

    assertThat(createStream.isClientStreaming()).isTrue();
    assertThat(createStream.getOptions().hasExtension(AnnotationsProto.http)).isFalse();
  }

  @Test
  void customMethodPathsMatchAsWritten() {
    String regex =
        CustomMethodRoutes.literalPathRegex("/v1/namespaces/{namespace}/pseudonyms:batchGet");

    assertThat("/v1/namespaces/a.b/pseudonyms:batchGet").matches(regex);
    assertThat("/v1/namespaces/a/pseudonyms:batchCreate").doesNotMatch(regex);
    assertThat("/v1/namespaces/a/pseudonymsXbatchGet").doesNotMatch(regex);
    assertThat("/v1/namespaces/a/b/pseudonyms:batchGet").doesNotMatch(regex);
  }

  @Test
  void everyPathVariableIsAPathParameterOfTheContract() throws IOException {
    JsonObject paths = contract().getJsonObject("paths");
    for (Route rule : rules()) {
      JsonObject item = paths.getJsonObject(rule.path());
      Set<String> declared = new TreeSet<>();
      item.getJsonArray("parameters", new JsonArray())
          .forEach(parameter -> declared.add(((JsonObject) parameter).getString("name")));
      Set<String> variables = new TreeSet<>();
      Matcher matcher = Pattern.compile("\\{([^}]+)}").matcher(rule.path());
      while (matcher.find()) {
        variables.add(matcher.group(1));
      }
      assertThat(declared).as(rule.path()).isEqualTo(variables);
    }
  }

  @Test
  void theFhirOperationsAreInTheContract() throws IOException {
    JsonObject paths = contract().getJsonObject("paths");

    for (String path :
        List.of(
            "/v1/fhir",
            "/v1/fhir/$create-pseudonym",
            "/v1/fhir/$pseudonymize",
            "/v1/fhir/$get-pseudonym",
            "/v1/fhir/$pseudonymize-multiple",
            "/v1/fhir/$de-pseudonymize",
            "/v1/fhir/$delete-pseudonym",
            "/v1/fhir/$anonymize-original",
            "/ttp-fhir/fhir/gpas/$deletePseudonyms",
            "/ttp-fhir/fhir/gpas/$anonymizeOriginals")) {
      assertThat(paths.getJsonObject(path).getJsonObject("post")).as(path).isNotNull();
    }
    assertThat(paths.getJsonObject("/v1/fhir/metadata").getJsonObject("get")).isNotNull();
  }
}
