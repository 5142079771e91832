package org.vfps.seal;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The keys of sealed originals, as a key file holds them: the index secrets by version, from which
 * the keys of the blind index are derived (the newest indexes the namespaces sealed from now on),
 * and the data keys by version, the newest of which seals new values. The file is JSON, readable by
 * its owner alone:
 *
 * <pre>{"format": "vfps-sealing-keys/1",
 *  "indexSecrets": [{"version": 1, "secret": "base64"}, ...],
 *  "dataKeys": [{"version": 1, "key": "base64"}, ...]}</pre>
 *
 * <p>A file with a single {@code "indexSecret": "base64"} instead holds it as version 1. An
 * instance is immutable; {@link #withNewDataKey()} and {@link #withNewIndexSecret()} make the next
 * version.
 */
public final class SealingKeys {

  /** The value of the file's {@code format}. */
  public static final String FORMAT = "vfps-sealing-keys/1";

  /** The bytes of the index secret and of each data key (AES-256). */
  static final int KEY_BYTES = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final Set<PosixFilePermission> GROUP_OR_WORLD =
      Set.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private final Map<Integer, byte[]> indexSecrets;
  private final Map<Integer, byte[]> dataKeys;
  private final int currentVersion;
  private final int currentIndexVersion;

  private SealingKeys(Map<Integer, byte[]> indexSecrets, Map<Integer, byte[]> dataKeys) {
    TreeMap<Integer, byte[]> sortedSecrets = new TreeMap<>(indexSecrets);
    TreeMap<Integer, byte[]> sorted = new TreeMap<>(dataKeys);
    this.indexSecrets = Collections.unmodifiableMap(sortedSecrets);
    this.dataKeys = Collections.unmodifiableMap(sorted);
    this.currentVersion = sorted.lastKey();
    this.currentIndexVersion = sortedSecrets.lastKey();
  }

  /** New keys: a random index secret and data key, each version 1. */
  public static SealingKeys generate() {
    return new SealingKeys(Map.of(1, random()), Map.of(1, random()));
  }

  /** These keys with a new random data key, one version above the newest, to seal from now on. */
  public SealingKeys withNewDataKey() {
    Map<Integer, byte[]> keys = new TreeMap<>(dataKeys);
    keys.put(currentVersion() + 1, random());
    return new SealingKeys(indexSecrets, keys);
  }

  /**
   * These keys with a new random index secret, one version above the newest, to index the
   * namespaces sealed or re-indexed from now on.
   */
  public SealingKeys withNewIndexSecret() {
    Map<Integer, byte[]> secrets = new TreeMap<>(indexSecrets);
    secrets.put(currentIndexVersion + 1, random());
    return new SealingKeys(secrets, dataKeys);
  }

  /** The version of the index secret that indexes the namespaces sealed from now on: the newest. */
  public int currentIndexVersion() {
    return currentIndexVersion;
  }

  /** The index secrets by version, oldest first. */
  Map<Integer, byte[]> indexSecrets() {
    return indexSecrets;
  }

  /** The version of the data key that seals new values: the newest. */
  public int currentVersion() {
    return currentVersion;
  }

  /** The versions of the data keys, oldest first. */
  public Set<Integer> versions() {
    return dataKeys.keySet();
  }

  /** The data key of the version, or null when the file has none of it. */
  byte[] dataKey(int version) {
    return dataKeys.get(version);
  }

  /**
   * Reads a key file.
   *
   * @throws SealingException when it is missing, unreadable, readable or writable by its group or
   *     others, or not a key file of this format
   */
  public static SealingKeys read(Path file) throws SealingException {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (!Collections.disjoint(permissions, GROUP_OR_WORLD)) {
        throw new SealingException(
            file
                + " may be read or written by others than its owner (mode "
                + PosixFilePermissions.toString(permissions)
                + "): make it owner-only, e.g. chmod 600");
      }
    } catch (NoSuchFileException e) {
      throw new SealingException(file + " does not exist");
    } catch (UnsupportedOperationException e) {
      // a file system without POSIX modes: nothing to check
    } catch (IOException e) {
      throw new SealingException(file + " cannot be read: " + e.getMessage());
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (AccessDeniedException e) {
      throw new SealingException(file + " cannot be read: permission denied");
    } catch (IOException e) {
      throw new SealingException(file + " cannot be read: " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  static SealingKeys parse(String text, String source) throws SealingException {
    try {
      JsonObject json = new JsonObject(text);
      if (!FORMAT.equals(json.getValue("format"))) {
        throw malformed(source, "its format is not \"" + FORMAT + "\"");
      }
      Map<Integer, byte[]> secrets;
      if (json.containsKey("indexSecrets") && json.containsKey("indexSecret")) {
        throw malformed(source, "it has both indexSecret and indexSecrets");
      }
      if (json.containsKey("indexSecrets")) {
        secrets = versioned(json.getValue("indexSecrets"), "indexSecrets", "secret", source);
      } else {
        secrets = Map.of(1, key(json.getValue("indexSecret"), source, "indexSecret"));
      }
      return new SealingKeys(
          secrets, versioned(json.getValue("dataKeys"), "dataKeys", "key", source));
    } catch (DecodeException | ClassCastException e) {
      throw malformed(source, "it is not JSON");
    }
  }

  /** A list of {@code {"version": n, field: "base64"}}, by version. */
  private static Map<Integer, byte[]> versioned(
      Object listed, String name, String field, String source) throws SealingException {
    if (!(listed instanceof JsonArray array) || array.isEmpty()) {
      throw malformed(source, "it has no " + name);
    }
    Map<Integer, byte[]> keys = new TreeMap<>();
    for (Object entry : array) {
      if (!(entry instanceof JsonObject key)
          || !(key.getValue("version") instanceof Integer version)
          || version < 1) {
        throw malformed(source, "an entry of " + name + " has no version of 1 or more");
      }
      if (keys.put(version, key(key.getValue(field), source, field)) != null) {
        throw malformed(source, name + " holds version " + version + " twice");
      }
    }
    return keys;
  }

  private static byte[] key(Object value, String source, String field) throws SealingException {
    if (!(value instanceof String text)) {
      throw malformed(source, field + " is missing");
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw malformed(source, field + " is not base64");
    }
    if (key.length != KEY_BYTES) {
      throw malformed(source, field + " does not hold " + KEY_BYTES + " bytes");
    }
    return key;
  }

  private static SealingException malformed(String source, String why) {
    return new SealingException(source + " is not a vfps sealing key file: " + why);
  }

  /**
   * Writes the keys to {@code file}, readable and writable by its owner alone, replacing it
   * atomically where the file system can.
   */
  public void write(Path file) throws IOException {
    String text =
        new JsonObject()
                .put("format", FORMAT)
                .put("indexSecrets", listed(indexSecrets, "secret"))
                .put("dataKeys", listed(dataKeys, "key"))
                .encodePrettily()
            + "\n";
    Path directory = file.toAbsolutePath().getParent();
    Path temporary =
        Files.createTempFile(
            directory,
            ".vfps-sealing-",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static JsonArray listed(Map<Integer, byte[]> keys, String field) {
    JsonArray list = new JsonArray();
    keys.forEach(
        (version, key) ->
            list.add(
                new JsonObject()
                    .put("version", version)
                    .put(field, Base64.getEncoder().encodeToString(key))));
    return list;
  }

  private static byte[] random() {
    byte[] key = new byte[KEY_BYTES];
    RANDOM.nextBytes(key);
    return key;
  }
}
