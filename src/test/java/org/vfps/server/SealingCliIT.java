package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.TestPostgres;
import org.vfps.admission.Admission;
import org.vfps.config.ConfigLoader;
import org.vfps.config.ConnectionSettings;
import org.vfps.config.VfpsConfig;
import org.vfps.namespace.Namespace;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingKeyFile;
import org.vfps.seal.SealingKeys;
import org.vfps.storage.Database;
import org.vfps.storage.UpsertTimer;

/**
 * {@code vfps sealing ...} as an operator runs it: the key file it writes, the rotation of its data
 * key with the re-encryption of a real database's sealed values, and the refusals of bad usage.
 */
class SealingCliIT {

  @TempDir Path directory;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final SealingCli cli =
      new SealingCli(
          new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));

  private String output() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String errors() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void newKeyWritesAnOwnerOnlyFileAndRefusesToOverwriteOne() throws Exception {
    Path file = directory.resolve("sealing.json");
    assertThat(cli.newKey(List.of("new-key", "--out", file.toString()))).isZero();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(SealingKeys.read(file).currentVersion()).isEqualTo(1);
    assertThat(output()).contains("Sealing__KeyFile");

    byte[] before = Files.readAllBytes(file);
    assertThat(cli.newKey(List.of("new-key", "--out", file.toString()))).isEqualTo(2);
    assertThat(errors()).contains("exists");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(cli.newKey(List.of("new-key"))).isEqualTo(2);
  }

  @Test
  void rotateInPlaceReencryptsEverySealedValueUnderTheNewVersion() throws Exception {
    Path file = directory.resolve("sealing.json");
    SealingKeys keys = SealingKeys.generate();
    keys.write(file);
    ConnectionSettings settings = TestPostgres.freshDatabase();
    org.vfps.storage.Migrations.migrate(settings);
    String name = "cli-" + UUID.randomUUID();
    TestPostgres.execute(
        settings,
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 16, '', '', now(), now())",
        "INSERT INTO vfps_namespace_sealing"
            + " (namespace_name, writes_sealed, reads_plain, index_key_check) VALUES ('"
            + name
            + "', true, false, '\\x"
            + HexFormat.of().formatHex(new Sealer(keys).keyCheck())
            + "')");
    Namespace namespace = TestPostgres.storedNamespace(settings, name);
    Vertx vertx = Vertx.vertx();
    try (Database database =
        Database.connect(
            vertx, settings, UpsertTimer.NONE, Admission.unbounded(), SealingKeyFile.open(file))) {
      for (int i = 0; i < 30; i++) {
        database
            .pseudonyms()
            .upsert(namespace, "value-" + i, () -> UUID.randomUUID().toString())
            .await();
      }
    } finally {
      vertx.close().await();
    }
    VfpsConfig config = config(settings, file);

    assertThat(cli.run(List.of("rotate"), config)).as(errors()).isZero();
    assertThat(SealingKeys.read(file).currentVersion()).isEqualTo(2);
    assertThat(output()).contains("done (30 values)");
    assertThat(
            TestPostgres.queryLong(
                settings,
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?"
                    + " AND substring(x_sealed_original_value FROM 2 FOR 4) = '\\x00000002'::bytea",
                name))
        .isEqualTo(30);

    Path next = directory.resolve("next.json");
    assertThat(cli.run(List.of("rotate", "--out", next.toString()), config)).isZero();
    assertThat(SealingKeys.read(next).currentVersion()).isEqualTo(3);
    assertThat(SealingKeys.read(file).currentVersion()).isEqualTo(2);
    assertThat(output()).contains("re-encrypt");
  }

  @Test
  void badUsageAndAMissingKeyFileSettingAreRefused() throws Exception {
    ConnectionSettings settings = TestPostgres.database();
    Path file = directory.resolve("sealing.json");
    SealingKeys.generate().write(file);
    assertThat(cli.run(List.of("seal"), config(settings, file))).isEqualTo(2);
    assertThat(cli.run(List.of("polish"), config(settings, file))).isEqualTo(2);
    assertThat(errors()).contains("usage: vfps sealing");
    VfpsConfig withoutKey =
        ConfigLoader.load(Map.of("ConnectionStrings__PostgreSQL", TestPostgres.uri(settings)));
    assertThat(cli.run(List.of("re-encrypt"), withoutKey)).isEqualTo(2);
    assertThat(errors()).contains("set Sealing__KeyFile");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
    assertThat(cli.run(List.of("re-encrypt"), config(settings, file))).isEqualTo(2);
    assertThat(errors()).contains("Sealing__KeyFile").contains("others than its owner");
  }

  private static VfpsConfig config(ConnectionSettings settings, Path keyFile) {
    return ConfigLoader.load(
        Map.of(
            "ConnectionStrings__PostgreSQL",
            TestPostgres.uri(settings),
            "Sealing__KeyFile",
            keyFile.toString()));
  }
}
