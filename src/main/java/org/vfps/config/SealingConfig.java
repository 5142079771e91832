package org.vfps.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Sealed originals ({@code Sealing__*}).
 *
 * @param keyFile the key file ({@code Sealing__KeyFile}); when set, every namespace created is
 *     sealed and sealed namespaces can be opened; empty: none, and a sealed namespace stops the
 *     start
 */
public record SealingConfig(Optional<Path> keyFile) {

  /** The setting's name, as errors and the docs give it. */
  public static final String KEY_FILE_SETTING = "Sealing__KeyFile";

  public SealingConfig {
    Objects.requireNonNull(keyFile, "keyFile");
  }

  /** No key file: nothing is sealed. */
  public static SealingConfig off() {
    return new SealingConfig(Optional.empty());
  }
}
