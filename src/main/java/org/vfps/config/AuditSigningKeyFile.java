package org.vfps.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * The private key that signs the audit trail's checkpoints ({@code Audit__SigningKeyFile}): an
 * Ed25519 key in a PKCS#8 PEM file ({@code -----BEGIN PRIVATE KEY-----}) that only its owner may
 * read. Whatever is wrong with the file stops the start, naming the setting.
 */
public final class AuditSigningKeyFile {

  /** The setting, in environment variable form. */
  public static final String SETTING = "Audit__SigningKeyFile";

  private static final int MAX_FILE_BYTES = 64 * 1024;

  private static final Set<PosixFilePermission> NOT_THE_OWNERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  private AuditSigningKeyFile() {}

  /**
   * The key of the file.
   *
   * @throws ConfigException naming {@value #SETTING} when the file is missing, unreadable, readable
   *     or writable by its group or others, or not an Ed25519 private key in PKCS#8 PEM
   */
  static PrivateKey read(Path path) {
    checkOwnerOnly(path);
    byte[] bytes;
    try (InputStream in = Files.newInputStream(path)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw unusable(path, "does not exist");
    } catch (AccessDeniedException e) {
      throw unusable(path, "cannot be read (permission denied)");
    } catch (IOException e) {
      throw unusable(path, "cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw unusable(path, "is larger than 64 KiB: not a key file");
    }
    byte[] der = pemContents(new String(bytes, StandardCharsets.US_ASCII), "PRIVATE KEY");
    if (der == null) {
      throw malformed(path);
    }
    try {
      return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw malformed(path);
    }
  }

  private static void checkOwnerOnly(Path path) {
    if (!Files.exists(path)) {
      throw unusable(path, "does not exist");
    }
    if (!Files.isRegularFile(path)) {
      throw unusable(path, "is not a file");
    }
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(path);
    } catch (UnsupportedOperationException e) {
      // a file system without POSIX permissions: its access rules are the operator's
      return;
    } catch (IOException e) {
      throw unusable(path, "cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    if (permissions.stream().anyMatch(NOT_THE_OWNERS::contains)) {
      throw unusable(
          path,
          "may be read or written by others than its owner; make it owner-only (chmod 600, or"
              + " defaultMode 0400 of a Kubernetes Secret)");
    }
  }

  /**
   * The DER bytes between {@code -----BEGIN <label>-----} and {@code -----END <label>-----}, or
   * null when the text holds no such block or its contents are not base64.
   */
  public static byte[] pemContents(String text, String label) {
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int from = text.indexOf(begin);
    int to = from < 0 ? -1 : text.indexOf(end, from + begin.length());
    if (to < 0) {
      return null;
    }
    try {
      return Base64.getDecoder()
          .decode(text.substring(from + begin.length(), to).replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static ConfigException malformed(Path path) {
    return unusable(
        path,
        "is not an Ed25519 private key in PKCS#8 PEM (make one with: java -jar vfps.jar audit"
            + " new-key --out FILE)");
  }

  private static ConfigException unusable(Path path, String problem) {
    return new ConfigException(SETTING + ": " + path + " " + problem);
  }
}
