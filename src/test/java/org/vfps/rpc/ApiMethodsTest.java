package org.vfps.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.vfps.api.v1.NamespaceServiceGrpcService;
import org.vfps.api.v1.PseudonymServiceGrpcService;
import org.vfps.api.x.access.v1.AccessServiceGrpcService;
import org.vfps.api.x.csvjobs.v1.CsvJobServiceGrpcService;
import org.vfps.api.x.withdrawal.v1.WithdrawalServiceGrpcService;
import org.vfps.http.ApiContract;

/**
 * The table of the API's methods leaves nothing out: it holds every method of the five services,
 * each once and of the kind its streaming asks, and every operation of the REST contract that
 * belongs to these services has its method, which the REST edge binds.
 */
class ApiMethodsTest {

  static final List<ServiceDescriptor> SERVICES =
      List.of(
          NamespaceServiceGrpcService.SERVICE_DESCRIPTOR,
          PseudonymServiceGrpcService.SERVICE_DESCRIPTOR,
          WithdrawalServiceGrpcService.SERVICE_DESCRIPTOR,
          AccessServiceGrpcService.SERVICE_DESCRIPTOR,
          CsvJobServiceGrpcService.SERVICE_DESCRIPTOR);

  /** The table, built on no services: its calls reach them only when they run. */
  static List<ApiMethod> table() {
    return ApiMethods.of(null, null, null, null).stream()
        .flatMap(service -> service.methods().stream())
        .toList();
  }

  static JsonObject contract() throws IOException {
    try (InputStream in =
        ApiMethodsTest.class.getClassLoader().getResourceAsStream(ApiContract.RESOURCE)) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void holdsEveryMethodOfTheFiveServicesOnce() {
    List<String> table = table().stream().map(method -> method.method().fullMethodName()).toList();
    List<String> protos =
        SERVICES.stream()
            .flatMap(service -> service.getMethods().stream())
            .map(method -> method.getService().getFullName() + "/" + method.getName())
            .toList();

    assertThat(table).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(protos);
  }

  @Test
  void eachServiceCarriesItsOwnDescriptor() {
    assertThat(ApiMethods.of(null, null, null, null))
        .allSatisfy(
            service -> {
              assertThat(service.descriptor().getFullName())
                  .isEqualTo(service.name().fullyQualifiedName());
              assertThat(service.methods())
                  .allSatisfy(
                      method ->
                          assertThat(method.method().serviceName().fullyQualifiedName())
                              .isEqualTo(service.name().fullyQualifiedName()));
            });
  }

  @Test
  void onlyTheClientStreamIsOfTheStreamKind() {
    for (ApiMethod method : table()) {
      MethodDescriptor proto = descriptor(method);
      assertThat(method instanceof ClientStreamMethod)
          .as(method.method().fullMethodName())
          .isEqualTo(proto.isClientStreaming());
    }
  }

  @Test
  void everyOperationOfTheFiveServicesInTheContractHasItsMethodAndBack() throws IOException {
    Set<String> serviceNames =
        SERVICES.stream().map(ServiceDescriptor::getName).collect(Collectors.toSet());
    Set<String> contractOperations = new TreeSet<>();
    JsonObject paths = contract().getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String verb : paths.getJsonObject(path).fieldNames()) {
        Object operation = paths.getJsonObject(path).getValue(verb);
        if (operation instanceof JsonObject op && op.containsKey("operationId")) {
          String id = op.getString("operationId");
          if (serviceNames.contains(id.split("_")[0])) {
            contractOperations.add(id);
          }
        }
      }
    }
    Set<String> routed =
        table().stream()
            .filter(method -> !(method instanceof ClientStreamMethod))
            .map(ApiMethod::operationId)
            .collect(Collectors.toCollection(TreeSet::new));

    assertThat(routed).isEqualTo(contractOperations);
  }

  private static MethodDescriptor descriptor(ApiMethod method) {
    return SERVICES.stream()
        .filter(
            service ->
                service.getFullName().equals(method.method().serviceName().fullyQualifiedName()))
        .findFirst()
        .orElseThrow()
        .findMethodByName(method.method().methodName());
  }
}
