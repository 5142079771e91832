package org.vfps.seal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a sealed namespace stores of an original value, and the value again from it.
 *
 * <ul>
 *   <li>The <b>blind index</b> ({@link #blindIndex}): HMAC-SHA256 of the namespace and the value
 *       under the index key, base64url: equal for equal pairs, so the table's own key finds a
 *       value, and nothing of the value without the key.
 *   <li>The <b>sealed value</b> ({@link #seal}): the value under AES-256-GCM with the newest data
 *       key, a random nonce, and the namespace and blind index as associated data, so that a sealed
 *       value copied to another row does not open there. Its bytes: a format byte ({@value
 *       #FORMAT}), the data key's version (4 bytes), the nonce (12) and the ciphertext with its
 *       tag.
 * </ul>
 *
 * Thread-safe.
 */
public final class Sealer {

  static final byte FORMAT = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final int HEADER_BYTES = 1 + 4 + NONCE_BYTES;
  private static final byte[] INDEX_KEY_LABEL =
      "vfps sealed originals: blind index key".getBytes(StandardCharsets.UTF_8);

  private static final byte[] KEY_CHECK_LABEL =
      "vfps sealed originals: key check".getBytes(StandardCharsets.UTF_8);

  /**
   * The nonces' source, one generator per thread: the default one shares a lock between all
   * threads. A nonce need only never repeat under a key; 96 random bits do that.
   */
  private static final ThreadLocal<SecureRandom> NONCES =
      ThreadLocal.withInitial(
          () -> {
            try {
              return SecureRandom.getInstance("DRBG");
            } catch (GeneralSecurityException e) {
              return new SecureRandom();
            }
          });

  private final SealingKeys keys;
  private final Map<Integer, IndexKey> indexKeys;
  private final IndexKey currentIndexKey;
  private final ThreadLocal<Cipher> cipher;
  private final Map<Integer, SecretKeySpec> dataKeySpecs;

  /** An index key: its version, its check value, and a MAC under it for each thread. */
  private record IndexKey(int version, byte[] check, ThreadLocal<Mac> mac) {

    static IndexKey derive(int version, byte[] secret) {
      SecretKeySpec key = new SecretKeySpec(deriveIndexKey(secret), "HmacSHA256");
      return new IndexKey(
          version,
          newMac(key).doFinal(KEY_CHECK_LABEL),
          ThreadLocal.withInitial(() -> newMac(key)));
    }
  }

  public Sealer(SealingKeys keys) {
    this.keys = keys;
    Map<Integer, IndexKey> derived = new TreeMap<>();
    keys.indexSecrets()
        .forEach((version, secret) -> derived.put(version, IndexKey.derive(version, secret)));
    this.indexKeys = Collections.unmodifiableMap(derived);
    this.currentIndexKey = derived.get(keys.currentIndexVersion());
    Map<Integer, SecretKeySpec> specs = new TreeMap<>();
    keys.versions()
        .forEach(version -> specs.put(version, new SecretKeySpec(keys.dataKey(version), "AES")));
    this.dataKeySpecs = Collections.unmodifiableMap(specs);
    this.cipher =
        ThreadLocal.withInitial(
            () -> {
              try {
                return Cipher.getInstance("AES/GCM/NoPadding");
              } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES/GCM is missing from this JDK", e);
              }
            });
  }

  /**
   * The check value of the newest index key: HMAC-SHA256 of a fixed label under it, which tells
   * whether two key files hold the same index key without telling the key.
   */
  public byte[] keyCheck() {
    return currentIndexKey.check.clone();
  }

  /** The check value of the index key of that version, which the key file must hold. */
  public byte[] keyCheck(int indexVersion) {
    return indexKey(indexVersion).check.clone();
  }

  /** The version of the index key of that check value, if the key file holds it. */
  public OptionalInt indexVersionOf(byte[] check) {
    for (IndexKey key : indexKeys.values()) {
      if (Arrays.equals(key.check, check)) {
        return OptionalInt.of(key.version);
      }
    }
    return OptionalInt.empty();
  }

  /** The version of the newest index key, which indexes the namespaces sealed from now on. */
  public int currentIndexVersion() {
    return currentIndexKey.version;
  }

  private IndexKey indexKey(int version) {
    IndexKey key = indexKeys.get(version);
    if (key == null) {
      throw new IllegalArgumentException("the key file holds no index key version " + version);
    }
    return key;
  }

  private static Mac newMac(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  /** The keys this sealer uses. */
  public SealingKeys keys() {
    return keys;
  }

  /** The index key: HMAC-SHA256 of a fixed label under the file's index secret. */
  private static byte[] deriveIndexKey(byte[] secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(INDEX_KEY_LABEL);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  /**
   * The blind index of the value in the namespace under the newest index key: 43 characters of
   * base64url, never blank, the same for the same pair under the same key.
   */
  public String blindIndex(String namespace, String originalValue) {
    return blindIndex(currentIndexKey.version, namespace, originalValue);
  }

  /** The blind index of the value in the namespace under the index key of that version. */
  public String blindIndex(int indexVersion, String namespace, String originalValue) {
    Mac mac = indexKey(indexVersion).mac.get();
    byte[] name = namespace.getBytes(StandardCharsets.UTF_8);
    mac.update(ByteBuffer.allocate(4).putInt(name.length).array());
    mac.update(name);
    mac.update(originalValue.getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal());
  }

  /** The value sealed under the newest data key, bound to its namespace and blind index. */
  public byte[] seal(String namespace, String blindIndex, String originalValue) {
    int version = keys.currentVersion();
    byte[] nonce = new byte[NONCE_BYTES];
    NONCES.get().nextBytes(nonce);
    byte[] plain = originalValue.getBytes(StandardCharsets.UTF_8);
    try {
      Cipher aead = cipher.get();
      aead.init(
          Cipher.ENCRYPT_MODE, dataKeySpecs.get(version), new GCMParameterSpec(TAG_BITS, nonce));
      aead.updateAAD(associatedData(namespace, blindIndex));
      ByteBuffer sealed = ByteBuffer.allocate(HEADER_BYTES + aead.getOutputSize(plain.length));
      sealed.put(FORMAT).putInt(version).put(nonce);
      aead.doFinal(ByteBuffer.wrap(plain), sealed);
      return sealed.array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM failed to seal", e);
    }
  }

  /**
   * The original value of a sealed value.
   *
   * @throws SealingException when its data key version is not in the key file, or it was not sealed
   *     for this namespace and blind index (altered, or copied from another row)
   */
  public String open(String namespace, String blindIndex, byte[] sealed) throws SealingException {
    int version = version(sealed);
    byte[] key = keys.dataKey(version);
    if (key == null) {
      throw new SealingException(
          "the value is sealed under data key version "
              + version
              + ", which the key file does not hold");
    }
    try {
      Cipher aead = cipher.get();
      aead.init(
          Cipher.DECRYPT_MODE,
          dataKeySpecs.get(version),
          new GCMParameterSpec(TAG_BITS, sealed, 5, NONCE_BYTES));
      aead.updateAAD(associatedData(namespace, blindIndex));
      byte[] plain = aead.doFinal(sealed, HEADER_BYTES, sealed.length - HEADER_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (AEADBadTagException e) {
      throw new SealingException("the sealed value does not open: it was altered or moved");
    } catch (GeneralSecurityException e) {
      throw new SealingException("the sealed value does not open", e);
    }
  }

  /**
   * The version of the data key a sealed value is sealed under.
   *
   * @throws SealingException when the bytes are no sealed value of this format
   */
  public static int version(byte[] sealed) throws SealingException {
    if (sealed == null || sealed.length < HEADER_BYTES + TAG_BITS / 8 || sealed[0] != FORMAT) {
      throw new SealingException("the stored bytes are no sealed value of this service");
    }
    return ByteBuffer.wrap(sealed, 1, 4).getInt();
  }

  private static byte[] associatedData(String namespace, String blindIndex) {
    byte[] name = namespace.getBytes(StandardCharsets.UTF_8);
    byte[] index = blindIndex.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + name.length + index.length)
        .putInt(name.length)
        .put(name)
        .put(index)
        .array();
  }
}
