package org.vfps.config;

import java.net.URI;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/** Reads the {@code Voprf:*} section: vfps as a client of a VOPRF server. */
final class VoprfSettings {

  private static final String SECTION = "Voprf:";

  /** The bytes of a serialized ristretto255 public key. */
  private static final int PUBLIC_KEY_BYTES = 32;

  private VoprfSettings() {}

  static VoprfConfig read(FlatSettings settings) {
    Optional<URI> address = address(settings, SECTION + "Address");
    Optional<VoprfConfig.PublicKeyBytes> publicKey = publicKey(settings, SECTION + "PublicKey");
    boolean allowUnpinned = ConfigLoader.bool(settings, SECTION + "AllowUnpinnedPublicKey");
    if (address.isPresent() && publicKey.isEmpty() && !allowUnpinned) {
      throw new ConfigException(
          FlatSettings.environmentName(SECTION + "PublicKey")
              + ": missing; the VOPRF server's public key is pinned (base64 or hex of its 32"
              + " bytes, as the server logs it at start), unless"
              + " Voprf__AllowUnpinnedPublicKey=true, for development only");
    }
    String expectedKeyId = settings.required(SECTION + "ExpectedKeyId").strip();
    if (expectedKeyId.contains(".")) {
      throw ConfigLoader.invalid(
          SECTION + "ExpectedKeyId", expectedKeyId, "contains '.', which no key id may hold");
    }
    Optional<Path> certificate =
        ConfigLoader.optionalPath(settings, SECTION + "Tls:CertificatePath");
    Optional<Path> key = ConfigLoader.optionalPath(settings, SECTION + "Tls:KeyPath");
    if (certificate.isPresent() != key.isPresent()) {
      throw new ConfigException(
          FlatSettings.environmentName(
                  SECTION + (certificate.isEmpty() ? "Tls:CertificatePath" : "Tls:KeyPath"))
              + ": missing; Voprf__Tls__CertificatePath and Voprf__Tls__KeyPath go together");
    }
    Optional<Path> trusted =
        ConfigLoader.optionalPath(settings, SECTION + "Tls:TrustedCertificatesPath");
    Optional<Path> bearerToken = ConfigLoader.optionalPath(settings, SECTION + "BearerTokenPath");
    boolean clearText = address.map(uri -> uri.getScheme().equalsIgnoreCase("http")).orElse(false);
    if (clearText) {
      refuseOverClearText(certificate, "Tls:CertificatePath");
      refuseOverClearText(trusted, "Tls:TrustedCertificatesPath");
      refuseOverClearText(bearerToken, "BearerTokenPath");
    }
    return new VoprfConfig(
        address,
        publicKey,
        expectedKeyId.isEmpty() ? Optional.empty() : Optional.of(expectedKeyId),
        allowUnpinned,
        ConfigLoader.positiveInt(settings, SECTION + "MaxBatchSize"),
        ConfigLoader.bool(settings, SECTION + "IncludeKeyIdInPseudonym"),
        format(settings, SECTION + "Format"),
        length(settings, SECTION + "Length"),
        normalization(settings, SECTION + "Normalization"),
        ConfigLoader.positiveTimeSpan(settings, SECTION + "Timeout"),
        certificate,
        key,
        trusted,
        bearerToken);
  }

  private static void refuseOverClearText(Optional<Path> setting, String key) {
    if (setting.isPresent()) {
      throw new ConfigException(
          FlatSettings.environmentName(SECTION + key)
              + ": is for TLS, but Voprf__Address is http://; use https:// (a certificate or"
              + " token over clear text protects nothing)");
    }
  }

  /** An http(s) URL of a host and port, with no path. */
  private static Optional<URI> address(FlatSettings settings, String key) {
    Optional<URI> address = ConfigLoader.httpUrl(settings, key, "https://vfps-voprf:8081");
    String path = address.map(URI::getRawPath).orElse("");
    if (!(path == null || path.isEmpty() || path.equals("/"))) {
      throw ConfigLoader.invalid(
          key, address.get().toString(), "has a path; give the host and port only");
    }
    return address;
  }

  /**
   * Base64 (standard or URL-safe, padded or not) or hex of 32 bytes; whether they are a group
   * element the VOPRF client checks as it starts.
   */
  private static Optional<VoprfConfig.PublicKeyBytes> publicKey(FlatSettings settings, String key) {
    String value = settings.required(key).strip();
    if (value.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = decode(value);
    if (bytes == null || bytes.length != PUBLIC_KEY_BYTES) {
      throw ConfigLoader.invalid(
          key, value, "is not the base64 or hex of a 32-byte ristretto255 public key");
    }
    return Optional.of(new VoprfConfig.PublicKeyBytes(bytes));
  }

  private static byte[] decode(String value) {
    if (value.length() == 2 * PUBLIC_KEY_BYTES && value.matches("[0-9a-fA-F]+")) {
      return HexFormat.of().parseHex(value);
    }
    String standard = value.replace('-', '+').replace('_', '/');
    try {
      return Base64.getDecoder().decode(standard);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static VoprfConfig.Format format(FlatSettings settings, String key) {
    String value = settings.required(key).strip();
    for (VoprfConfig.Format format : VoprfConfig.Format.values()) {
      if (format.dotnetName().equalsIgnoreCase(value)) {
        return format;
      }
    }
    throw ConfigLoader.invalid(key, value, "is not Base64Url or Hex");
  }

  private static int length(FlatSettings settings, String key) {
    String value = settings.required(key).strip();
    if (!value.matches("[0-9]{1,3}")
        || Integer.parseInt(value) < VoprfConfig.MIN_LENGTH
        || Integer.parseInt(value) > VoprfConfig.MAX_LENGTH) {
      throw ConfigLoader.invalid(key, value, "is not a byte count from 16 to 64");
    }
    return Integer.parseInt(value);
  }

  /**
   * {@code FormC}, {@code FormD}, {@code FormKC}, {@code FormKD} (.NET's names), or {@code None}.
   */
  private static Optional<Normalizer.Form> normalization(FlatSettings settings, String key) {
    String value = settings.required(key).strip();
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "formc" -> Optional.of(Normalizer.Form.NFC);
      case "formd" -> Optional.of(Normalizer.Form.NFD);
      case "formkc" -> Optional.of(Normalizer.Form.NFKC);
      case "formkd" -> Optional.of(Normalizer.Form.NFKD);
      case "none", "" -> Optional.empty();
      default ->
          throw ConfigLoader.invalid(key, value, "is not FormC, FormD, FormKC, FormKD or None");
    };
  }
}
