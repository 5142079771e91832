package org.vfps.pseudonym;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Base64url without padding of a host-name hash prefix, the uptime in milliseconds and {@code
 * length} random bytes, as the .NET vfps does.
 */
final class SecureRandomBase64UrlGenerator implements PseudonymGenerator {

  static final int HEADER_BYTES = 8;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final byte[] hostHash = new byte[4];

  SecureRandomBase64UrlGenerator(String hostName) {
    byte[] digest = Sha256HexGenerator.sha256(hostName.getBytes(StandardCharsets.UTF_8));
    System.arraycopy(digest, 0, hostHash, 0, hostHash.length);
  }

  static SecureRandomBase64UrlGenerator forLocalHost() {
    return new SecureRandomBase64UrlGenerator(localHostName());
  }

  /** The host name the header hashes, like .NET's {@code Environment.MachineName}. */
  static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      // containers often cannot resolve their own name; the kernel's name is still in HOSTNAME
      String fromEnvironment = System.getenv("HOSTNAME");
      return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
    }
  }

  @Override
  public String generate(String originalValue, int length) {
    LengthChecks.requirePositive(length);
    byte[] bytes = new byte[HEADER_BYTES + length];
    // filling the header with random bytes too keeps it to one array; they are overwritten next
    ThreadLocalSecureRandom.nextBytes(bytes);
    System.arraycopy(hostHash, 0, bytes, 0, hostHash.length);
    // on Linux nanoTime counts from boot, like .NET's Environment.TickCount
    int tick = (int) (System.nanoTime() / 1_000_000L);
    bytes[4] = (byte) tick;
    bytes[5] = (byte) (tick >>> 8);
    bytes[6] = (byte) (tick >>> 16);
    bytes[7] = (byte) (tick >>> 24);
    return ENCODER.encodeToString(bytes);
  }
}
