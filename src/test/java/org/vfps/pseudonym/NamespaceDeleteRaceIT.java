package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.GrpcTestClient;
import org.vfps.GrpcTestClient.Reply;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceDeleteRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.api.v1.PseudonymGenerationMethod;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * A namespace deleted and created again under the same name while writes to it are under way: no
 * write lands in the namespace created after it began (none of its pseudonyms has the old
 * namespace's format), and a write answered as failed left nothing in the table. With the caches
 * off, so that only the statements can keep it.
 */
class NamespaceDeleteRaceIT {

  private static final int CYCLES = 15;
  private static final int BATCHES = 6;
  private static final int SINGLES = 20;
  private static final int VALUES = 50;

  private static VfpsServer server;
  private static GrpcTestClient client;

  @BeforeAll
  static void start() {
    server = TestService.start();
    client = new GrpcTestClient(server.grpcPort());
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static void createNamespace(String name, String prefix) {
    client.ok(
        NamespaceServiceGrpcClient.Create,
        NamespaceServiceCreateRequest.newBuilder()
            .setName(name)
            .setPseudonymGenerationMethod(
                PseudonymGenerationMethod
                    .PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED)
            .setPseudonymLength(16)
            .setPseudonymPrefix(prefix)
            .build());
  }

  /** The table's rows of the namespace: original value to pseudonym. */
  private static Map<String, String> stored(String namespace) throws SQLException {
    Map<String, String> rows = new HashMap<>();
    try (Connection connection = TestPostgres.connect(TestPostgres.database());
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT original_value, pseudonym_value FROM pseudonyms WHERE namespace_name = ?")) {
      select.setString(1, namespace);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          rows.put(result.getString(1), result.getString(2));
        }
      }
    }
    return rows;
  }

  /** A write of some values and its answer. */
  private record Write(List<String> values, Future<? extends Reply<?>> answer) {}

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aWriteNeverLandsInANamespaceCreatedAfterItBegan(boolean batches) throws SQLException {
    int failed = 0;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      String namespace = "race-" + UUID.randomUUID();
      createNamespace(namespace, "old-");
      List<Write> writes = new ArrayList<>();
      if (batches) {
        for (int batch = 0; batch < BATCHES; batch++) {
          String tag = "b" + batch + "-";
          List<String> values = IntStream.range(0, VALUES).mapToObj(i -> tag + i).toList();
          writes.add(
              new Write(
                  values,
                  client.callAsync(
                      PseudonymServiceGrpcClient.BatchCreate,
                      PseudonymServiceBatchCreateRequest.newBuilder()
                          .setNamespace(namespace)
                          .addAllOriginalValues(values)
                          .build())));
        }
      } else {
        for (int single = 0; single < SINGLES; single++) {
          String value = "s" + single;
          writes.add(
              new Write(
                  List.of(value),
                  client.callAsync(
                      PseudonymServiceGrpcClient.Create,
                      PseudonymServiceCreateRequest.newBuilder()
                          .setNamespace(namespace)
                          .setOriginalValue(value)
                          .build())));
        }
      }
      client.ok(
          NamespaceServiceGrpcClient.Delete,
          NamespaceServiceDeleteRequest.newBuilder().setName(namespace).build());
      createNamespace(namespace, "new-");
      Future.join(writes.stream().map(Write::answer).toList()).await();

      Map<String, String> rows = stored(namespace);
      assertThat(rows.values())
          .as("pseudonyms in the namespace created again, cycle %d", cycle)
          .allSatisfy(pseudonym -> assertThat(pseudonym).startsWith("new-"));
      for (Write write : writes) {
        Reply<?> answer = write.answer().result();
        if (answer.status() != GrpcStatus.OK) {
          failed++;
          assertThat(answer.status()).isEqualTo(GrpcStatus.NOT_FOUND);
          assertThat(rows.keySet())
              .as("values of a write answered %s", answer.status())
              .doesNotContainAnyElementsOf(write.values());
        }
      }
    }
    // the race was run: some writes met the deleted namespace
    assertThat(failed).isPositive();
  }
}
