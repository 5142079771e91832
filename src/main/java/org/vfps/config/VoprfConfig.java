package org.vfps.config;

import java.net.URI;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * vfps as a client of a VOPRF server, the holder of the key of VOPRF pseudonyms ({@code Voprf__*},
 * the .NET keys, and ours for TLS, a bearer token and the call deadline). The method is on when
 * {@link #address} is set.
 *
 * @param address the server ({@code Voprf__Address}), {@code http://} or {@code https://}; empty
 *     turns the method off
 * @param publicKey the pinned public key, 32 bytes ({@code Voprf__PublicKey}, base64 or hex); empty
 *     only with {@code allowUnpinnedPublicKey}
 * @param expectedKeyId the key id every answer must carry ({@code Voprf__ExpectedKeyId}); empty
 *     accepts any
 * @param allowUnpinnedPublicKey whether a missing pinned key is fetched from the server ({@code
 *     Voprf__AllowUnpinnedPublicKey}), development only
 * @param maxBatchSize the most values in one call to the server ({@code Voprf__MaxBatchSize})
 * @param includeKeyIdInPseudonym whether each pseudonym starts with {@code <keyId>.} ({@code
 *     Voprf__IncludeKeyIdInPseudonym})
 * @param format how the output is written ({@code Voprf__Format})
 * @param length the bytes of output kept, 16 to 64 ({@code Voprf__Length})
 * @param normalization the Unicode normalization of a value before it is encoded ({@code
 *     Voprf__Normalization}); empty for none
 * @param timeout the deadline of one call to the server ({@code Voprf__Timeout}, ours)
 * @param clientCertificatePath vfps's client certificate, PEM ({@code Voprf__Tls__CertificatePath},
 *     ours), for a server that requires one; set with {@code clientKeyPath}
 * @param clientKeyPath its private key, PEM ({@code Voprf__Tls__KeyPath}, ours)
 * @param trustedCertificatesPath the certificates that vouch for the server's, PEM ({@code
 *     Voprf__Tls__TrustedCertificatesPath}, ours); empty for the JVM's trust store
 * @param bearerTokenPath a file whose content vfps sends as bearer token, read anew at each call
 *     ({@code Voprf__BearerTokenPath}, ours), for a server that authenticates with JWTs
 */
public record VoprfConfig(
    Optional<URI> address,
    Optional<PublicKeyBytes> publicKey,
    Optional<String> expectedKeyId,
    boolean allowUnpinnedPublicKey,
    int maxBatchSize,
    boolean includeKeyIdInPseudonym,
    Format format,
    int length,
    Optional<Normalizer.Form> normalization,
    Duration timeout,
    Optional<Path> clientCertificatePath,
    Optional<Path> clientKeyPath,
    Optional<Path> trustedCertificatesPath,
    Optional<Path> bearerTokenPath) {

  /** The fewest bytes of output kept. */
  public static final int MIN_LENGTH = 16;

  /** The most bytes of output kept: all of a SHA-512 digest. */
  public static final int MAX_LENGTH = 64;

  public VoprfConfig {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(publicKey, "publicKey");
    Objects.requireNonNull(expectedKeyId, "expectedKeyId");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(normalization, "normalization");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(clientCertificatePath, "clientCertificatePath");
    Objects.requireNonNull(clientKeyPath, "clientKeyPath");
    Objects.requireNonNull(trustedCertificatesPath, "trustedCertificatesPath");
    Objects.requireNonNull(bearerTokenPath, "bearerTokenPath");
    if (length < MIN_LENGTH || length > MAX_LENGTH) {
      throw new IllegalArgumentException("length must be 16-64: " + length);
    }
  }

  /** Off: no server. */
  public static VoprfConfig off() {
    return new VoprfConfig(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        false,
        128,
        true,
        Format.BASE64URL,
        MAX_LENGTH,
        Optional.of(Normalizer.Form.NFC),
        Duration.ofSeconds(5),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** Whether VOPRF namespaces make pseudonyms: a server is configured. */
  public boolean enabled() {
    return address.isPresent();
  }

  /** Whether the calls to the server use TLS. */
  public boolean tls() {
    return address.map(uri -> "https".equalsIgnoreCase(uri.getScheme())).orElse(false);
  }

  /**
   * The pseudonym length of a VOPRF namespace, which these settings fix: the encoded output,
   * without the key id, prefix or suffix (86 for 64 bytes in base64url, 128 in hex), as the .NET
   * vfps.
   */
  public int pseudonymLength() {
    return format.encodedLength(length);
  }

  /** How the kept output bytes are written. */
  public enum Format {
    /** Unpadded base64url (RFC 4648 §5), {@code Base64Url}. */
    BASE64URL("Base64Url"),
    /** Lowercase hexadecimal, {@code Hex}. */
    HEX("Hex");

    private final String dotnetName;

    Format(String dotnetName) {
      this.dotnetName = dotnetName;
    }

    /** The setting's value for this format. */
    public String dotnetName() {
      return dotnetName;
    }

    /** The characters {@code bytes} bytes take. */
    public int encodedLength(int bytes) {
      return this == HEX ? bytes * 2 : (bytes * 4 + 2) / 3;
    }
  }

  /** A pinned public key: 32 bytes, compared by content. */
  public record PublicKeyBytes(byte[] bytes) {

    public PublicKeyBytes {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof PublicKeyBytes key && java.util.Arrays.equals(bytes, key.bytes);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return HexFormat.of().formatHex(bytes);
    }
  }
}
