package org.vfps.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SealingKeyFileTest {

  @TempDir Path directory;

  @Test
  void aNewKeyFileIsReadableByItsOwnerAlone() throws Exception {
    Path file = directory.resolve("keys.json");
    SealingKeys.generate().write(file);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(SealingKeys.read(file).currentVersion()).isEqualTo(1);
  }

  @Test
  void aKeyFileOthersMayReadIsRefused() throws Exception {
    Path file = directory.resolve("keys.json");
    SealingKeys.generate().write(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    assertThatThrownBy(() -> SealingKeys.read(file))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("others than its owner")
        .hasMessageContaining("chmod 600");
  }

  @Test
  void aMissingOrMalformedKeyFileIsRefused() throws Exception {
    assertThatThrownBy(() -> SealingKeys.read(directory.resolve("absent.json")))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("does not exist");
    Path file = ownerOnly("{\"format\": \"vfps-sealing-keys/1\", \"indexSecret\": \"c2hvcnQ=\"}");
    assertThatThrownBy(() -> SealingKeys.read(file))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("indexSecret does not hold 32 bytes");
    Path notJson = ownerOnly("not json");
    assertThatThrownBy(() -> SealingKeys.read(notJson))
        .isInstanceOf(SealingException.class)
        .hasMessageContaining("not JSON");
  }

  @Test
  void aRotatedFileIsTakenWhenItChangesAndABrokenOneKeepsTheKeysReadBefore() throws Exception {
    Path file = directory.resolve("keys.json");
    SealingKeys keys = SealingKeys.generate();
    keys.write(file);
    SealingKeyFile inUse = SealingKeyFile.open(file);
    assertThat(inUse.reloadIfChanged().keys().currentVersion()).isEqualTo(1);

    keys.withNewDataKey().write(file);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    assertThat(inUse.reloadIfChanged().keys().currentVersion()).isEqualTo(2);

    Files.writeString(file, "{ half written");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
    assertThat(inUse.reloadIfChanged().keys().currentVersion()).isEqualTo(2);
  }

  private Path ownerOnly(String text) throws IOException {
    Path file = Files.createTempFile(directory, "keys", ".json");
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
