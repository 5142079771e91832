package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetRequest;
import org.vfps.api.v1.PseudonymServiceGrpcClient;
import org.vfps.config.ConnectionSettings;
import org.vfps.server.StartupException;
import org.vfps.server.VfpsServer;

/**
 * The start with {@code Sealing__KeyFile}: a key file that others may read, that is missing or that
 * is no key file stops it, naming the setting and never the keys; and a database holding a sealed
 * namespace stops a start without the setting, while one with the key file serves its values again.
 */
class SealedStartupIT {

  @RegisterExtension final LogCapture log = LogCapture.of(org.slf4j.Logger.ROOT_LOGGER_NAME);

  private static Map<String, String> withKeyFile(String database, Path keyFile) {
    return Map.of(
        "ConnectionStrings__PostgreSQL", database, "Sealing__KeyFile", keyFile.toString());
  }

  private static void assertRefused(Map<String, String> settings, String why) {
    assertThatThrownBy(() -> TestService.start(settings))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("Sealing__KeyFile")
        .hasMessageContaining(why);
  }

  @Test
  void aKeyFileOthersMayReadStopsTheStartNamingTheSettingAndTheMode(@TempDir Path directory)
      throws IOException {
    Path keyFile = SealedService.writeKeyFile(directory);
    JsonObject keys = new JsonObject(Files.readString(keyFile));

    Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r-----"));
    assertRefused(withKeyFile(TestPostgres.uri(), keyFile), "rw-r-----");
    Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw----r--"));
    assertRefused(withKeyFile(TestPostgres.uri(), keyFile), "rw----r--");

    String secret = keys.getJsonArray("indexSecrets").getJsonObject(0).getString("secret");
    String dataKey = keys.getJsonArray("dataKeys").getJsonObject(0).getString("key");
    for (ILoggingEvent event : log.atLeast(Level.TRACE)) {
      assertThat(event.getFormattedMessage()).doesNotContain(secret).doesNotContain(dataKey);
    }
  }

  @Test
  void aMissingKeyFileStopsTheStartNamingTheSetting(@TempDir Path directory) {
    assertRefused(
        withKeyFile(TestPostgres.uri(), directory.resolve("absent.json")), "does not exist");
  }

  @Test
  void aFileThatIsNoKeyFileStopsTheStartNamingTheSetting(@TempDir Path directory)
      throws IOException {
    Path notJson = directory.resolve("not-json.json");
    Files.writeString(notJson, "indexSecret=abc\n");
    Path shortKey = directory.resolve("short-key.json");
    Files.writeString(
        shortKey,
        new JsonObject(Files.readString(SealedService.writeKeyFile(directory)))
            .put(
                "indexSecrets",
                new io.vertx.core.json.JsonArray()
                    .add(new JsonObject().put("version", 1).put("secret", "c2hvcnQ=")))
            .encode());
    for (Path file : new Path[] {notJson, shortKey}) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    assertRefused(withKeyFile(TestPostgres.uri(), notJson), "not JSON");
    assertRefused(withKeyFile(TestPostgres.uri(), shortKey), "secret does not hold 32 bytes");
  }

  @Test
  void aDatabaseWithASealedNamespaceStopsAStartWithoutTheKeyFile(@TempDir Path directory) {
    ConnectionSettings database = TestPostgres.freshDatabase();
    String uri = TestPostgres.uri(database);
    Path keyFile = SealedService.writeKeyFile(directory);
    Map<String, String> sealing =
        Map.of(
            "ConnectionStrings__PostgreSQL",
            uri,
            "ForceRunDatabaseMigrations",
            "true",
            "Sealing__KeyFile",
            keyFile.toString());
    String namespace;
    String pseudonym;
    try (VfpsServer server = TestService.start(sealing);
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      namespace = client.createNamespace("sealed-start-");
      pseudonym =
          client
              .ok(
                  PseudonymServiceGrpcClient.Create,
                  PseudonymServiceCreateRequest.newBuilder()
                      .setNamespace(namespace)
                      .setOriginalValue("kept-sealed")
                      .build())
              .getPseudonym()
              .getPseudonymValue();
    }

    assertThat(log.atLeast(Level.INFO))
        .extracting(ILoggingEvent::getFormattedMessage)
        .contains(
            "Sealing__KeyFile "
                + keyFile
                + ": data key versions [1], sealing with 1; index key 1 for new namespaces")
        .anySatisfy(line -> assertThat(line).contains("started in").endsWith(", sealing on"));

    assertThatThrownBy(() -> TestService.start(Map.of("ConnectionStrings__PostgreSQL", uri)))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("sealed namespaces")
        .hasMessageContaining("Sealing__KeyFile");

    try (VfpsServer server = TestService.start(sealing);
        GrpcTestClient client = new GrpcTestClient(server.grpcPort())) {
      assertThat(
              client
                  .ok(
                      PseudonymServiceGrpcClient.Get,
                      PseudonymServiceGetRequest.newBuilder()
                          .setNamespace(namespace)
                          .setPseudonymValue(pseudonym)
                          .build())
                  .getPseudonym()
                  .getOriginalValue())
          .isEqualTo("kept-sealed");
    }
  }
}
