package org.vfps.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The proxies in front of the service whose {@code X-Forwarded-Proto} and {@code X-Forwarded-Host}
 * headers count ({@code Http__TrustedProxies}): IP addresses and CIDR ranges. A request from any
 * other address is taken as the client's own words, so its forwarding headers are ignored. None by
 * default.
 *
 * @param ranges the trusted ranges; an address is a range of its full length; unmodifiable
 */
public record TrustedProxies(List<Range> ranges) {

  /** No proxy is trusted. */
  public static final TrustedProxies NONE = new TrustedProxies(List.of());

  private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  /**
   * What an IPv6 literal is made of: a colon, and a hex digit or colon first, which {@link
   * InetAddress#getByName} parses as a literal or refuses, never looks up.
   */
  private static final Pattern IPV6_CHARACTERS =
      Pattern.compile("(?=.*:)[0-9A-Fa-f:][0-9A-Fa-f:.]*");

  /**
   * A network: the addresses whose first {@code prefixLength} bits are those of {@code network}.
   *
   * @param network the network's address, with no bit set past the prefix
   */
  public record Range(InetAddress network, int prefixLength) {

    public Range {
      Objects.requireNonNull(network, "network");
      if (prefixLength < 0 || prefixLength > network.getAddress().length * 8) {
        throw new IllegalArgumentException("prefix length out of range: " + prefixLength);
      }
    }

    boolean contains(byte[] address) {
      byte[] bytes = network.getAddress();
      if (address.length != bytes.length) {
        return false;
      }
      for (int bit = 0; bit < prefixLength; bit += 8) {
        int mask = 0xff << Math.max(0, 8 - (prefixLength - bit)) & 0xff;
        if ((address[bit / 8] & mask) != (bytes[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return network.getHostAddress() + "/" + prefixLength;
    }
  }

  public TrustedProxies {
    ranges = List.copyOf(ranges);
  }

  /**
   * The ranges of a comma-separated list of IP addresses ({@code 10.0.0.7}, {@code ::1}) and CIDR
   * ranges ({@code 10.0.0.0/8}, {@code fd00::/8}); blank for none. Host names are refused: the
   * proxies are known by their addresses, never looked up.
   *
   * @throws IllegalArgumentException naming the entry that is none of these
   */
  public static TrustedProxies parse(String list) {
    List<Range> ranges = new ArrayList<>();
    for (String entry : list.split(",", -1)) {
      String text = entry.strip();
      if (!text.isEmpty()) {
        ranges.add(range(text));
      }
    }
    return new TrustedProxies(ranges);
  }

  private static Range range(String entry) {
    int slash = entry.indexOf('/');
    byte[] address = address(slash < 0 ? entry : entry.substring(0, slash));
    if (address == null) {
      throw new IllegalArgumentException(
          "'"
              + entry
              + "' is not an IP address or CIDR range (e.g. 10.0.0.7, 10.0.0.0/8, fd00::/8)");
    }
    int bits = address.length * 8;
    if (slash < 0) {
      return new Range(network(address), bits);
    }
    String prefixText = entry.substring(slash + 1);
    if (!prefixText.matches("[0-9]{1,3}") || Integer.parseInt(prefixText) > bits) {
      throw new IllegalArgumentException(
          "'" + entry + "' has no prefix length of 0 to " + bits + " after its '/'");
    }
    int prefixLength = Integer.parseInt(prefixText);
    for (int bit = prefixLength; bit < bits; bit++) {
      if ((address[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
        throw new IllegalArgumentException(
            "'" + entry + "' has bits set past its prefix (the range is written with zeros there)");
      }
    }
    return new Range(network(address), prefixLength);
  }

  /**
   * The bytes of an IP address literal: 4 for IPv4 (dotted decimal) and for an IPv4-mapped IPv6
   * address, 16 for IPv6; null for anything else. Nothing is looked up.
   */
  private static byte[] address(String literal) {
    if (IPV4.matcher(literal).matches()) {
      String[] parts = literal.split("\\.");
      byte[] bytes = new byte[4];
      for (int i = 0; i < 4; i++) {
        int part = Integer.parseInt(parts[i]);
        if (part > 255) {
          return null;
        }
        bytes[i] = (byte) part;
      }
      return bytes;
    }
    if (!IPV6_CHARACTERS.matcher(literal).matches()) {
      return null;
    }
    try {
      return InetAddress.getByName(literal).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static InetAddress network(byte[] address) {
    try {
      return InetAddress.getByAddress(address);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("an address of 4 or 16 bytes is valid", e);
    }
  }

  /**
   * Whether {@code address}, a peer's IP address as text, is a trusted proxy; false for anything
   * else (a name, an empty text).
   */
  public boolean trusts(String address) {
    if (ranges.isEmpty() || address == null || address.isEmpty()) {
      return false;
    }
    byte[] bytes = address(address);
    if (bytes == null) {
      return false;
    }
    for (Range range : ranges) {
      if (range.contains(bytes)) {
        return true;
      }
    }
    return false;
  }
}
