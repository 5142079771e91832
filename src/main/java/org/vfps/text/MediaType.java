package org.vfps.text;

import java.util.Locale;
import java.util.Optional;

/**
 * A {@code Content-Type} header as the edges read it: the media type without parameters, lower
 * case, and a parameter's value by name.
 *
 * @param type e.g. {@code application/json}; empty for an empty header
 * @param header the header as it came
 */
public record MediaType(String type, String header) {

  /** The header's media type; {@code header} must not be null. */
  public static MediaType of(String header) {
    int semicolon = header.indexOf(';');
    return new MediaType(
        (semicolon < 0 ? header : header.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT),
        header);
  }

  /** The value of the parameter {@code name} (matched ignoring case), unquoted, if present. */
  public Optional<String> parameter(String name) {
    String[] parts = header.split(";");
    for (int i = 1; i < parts.length; i++) {
      int equals = parts[i].indexOf('=');
      if (equals > 0 && parts[i].substring(0, equals).strip().equalsIgnoreCase(name)) {
        String value = parts[i].substring(equals + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  /** The {@code charset} parameter, if present. */
  public Optional<String> charset() {
    return parameter("charset");
  }
}
