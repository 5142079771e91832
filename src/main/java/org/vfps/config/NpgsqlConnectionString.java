package org.vfps.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.vfps.config.ConnectionSettings.SslMode;
import org.vfps.text.StrictDecoding;

/**
 * Parses a PostgreSQL connection string as the .NET vfps takes it: the Npgsql keyword form ({@code
 * Host=db;Port=5432;Database=vfps;Username=u;Password=p}) or a {@code postgresql://} URI. Values
 * the string leaves out come from {@code PGHOST}, {@code PGPORT}, {@code PGDATABASE}, {@code
 * PGUSER} and {@code PGPASSWORD}, as Npgsql does. Error messages never contain the password or the
 * string itself.
 */
final class NpgsqlConnectionString {

  /** Npgsql's upper bound of {@code Timeout}, in seconds. */
  static final int MAX_TIMEOUT_SECONDS = 1024;

  static final int DEFAULT_PORT = 5432;
  static final int DEFAULT_MAX_POOL_SIZE = 32;
  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(15);
  static final SslMode DEFAULT_SSL_MODE = SslMode.PREFER;

  private static final String PORT_RANGE =
      " is not a port number (1-" + ServerConfig.MAX_PORT + ")";

  /**
   * The settings, and the keywords that were accepted but have no effect here.
   *
   * @param ignoredKeywords keyword names as written (never values), each once, in order
   */
  record Parsed(ConnectionSettings settings, List<String> ignoredKeywords) {

    Parsed {
      ignoredKeywords = List.copyOf(ignoredKeywords);
    }
  }

  private NpgsqlConnectionString() {}

  /**
   * Parses {@code text}, taking fallbacks from {@code environment}.
   *
   * @throws IllegalArgumentException when the string is malformed or a value is invalid; the
   *     message names the keyword, never the password or the string
   */
  static Parsed parse(String text, Map<String, String> environment) {
    String trimmed = text.strip();
    String lower = trimmed.toLowerCase(Locale.ROOT);
    Fields fields;
    if (lower.startsWith("postgresql://")) {
      fields = parseUri(trimmed.substring("postgresql://".length()));
    } else if (lower.startsWith("postgres://")) {
      fields = parseUri(trimmed.substring("postgres://".length()));
    } else {
      fields = parseKeywords(trimmed);
    }
    return new Parsed(fields.settings(environment), new ArrayList<>(fields.ignored));
  }

  private static Fields parseKeywords(String text) {
    Fields fields = new Fields(false);
    int length = text.length();
    int i = 0;
    while (i < length) {
      char c = text.charAt(i);
      if (c == ';' || Character.isWhitespace(c)) {
        i++;
        continue;
      }
      int equals = text.indexOf('=', i);
      int semicolon = text.indexOf(';', i);
      if (equals < 0 || (semicolon >= 0 && semicolon < equals)) {
        throw new IllegalArgumentException("a segment has no '=' (keyword=value expected)");
      }
      String keyword = text.substring(i, equals).strip();
      if (keyword.isEmpty()) {
        throw new IllegalArgumentException("a segment has no keyword before '='");
      }
      i = equals + 1;
      while (i < length && text.charAt(i) != ';' && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      String value;
      if (i < length && (text.charAt(i) == '\'' || text.charAt(i) == '"')) {
        char quote = text.charAt(i);
        StringBuilder quoted = new StringBuilder();
        boolean closed = false;
        i++;
        while (i < length) {
          char ch = text.charAt(i);
          i++;
          if (ch != quote) {
            quoted.append(ch);
          } else if (i < length && text.charAt(i) == quote) {
            quoted.append(quote);
            i++;
          } else {
            closed = true;
            break;
          }
        }
        if (!closed) {
          throw new IllegalArgumentException(keyword + ": the quoted value has no closing quote");
        }
        while (i < length && Character.isWhitespace(text.charAt(i))) {
          i++;
        }
        if (i < length && text.charAt(i) != ';') {
          throw new IllegalArgumentException(keyword + ": text follows the quoted value");
        }
        value = quoted.toString();
      } else {
        int end = semicolon < 0 ? length : semicolon;
        value = text.substring(i, end).strip();
        i = end;
      }
      fields.apply(keyword, value);
    }
    return fields;
  }

  /** Parses what follows the scheme: {@code [user[:password]@]host[:port][,...][/db][?params]}. */
  private static Fields parseUri(String rest) {
    Fields fields = new Fields(true);
    // like libpq: user information ends at the first '@' before any '/'
    int at = -1;
    for (int i = 0; i < rest.length() && rest.charAt(i) != '/'; i++) {
      if (rest.charAt(i) == '@') {
        at = i;
        break;
      }
    }
    String afterUser = rest;
    if (at >= 0) {
      String userInfo = rest.substring(0, at);
      int colon = userInfo.indexOf(':');
      if (colon < 0) {
        fields.user = emptyToNull(decode(userInfo, "user name"));
      } else {
        fields.user = emptyToNull(decode(userInfo.substring(0, colon), "user name"));
        String password = decode(userInfo.substring(colon + 1), "password");
        fields.password = password.isEmpty() ? null : password;
      }
      afterUser = rest.substring(at + 1);
    }
    int hostEnd = indexOfAny(afterUser, "/?");
    String hosts = afterUser.substring(0, hostEnd);
    if (!hosts.isEmpty()) {
      fields.applyHost(decode(hosts, "host"));
    }
    String afterHost = afterUser.substring(hostEnd);
    String query = "";
    int question = afterHost.indexOf('?');
    if (question >= 0) {
      query = afterHost.substring(question + 1);
      afterHost = afterHost.substring(0, question);
    }
    if (afterHost.startsWith("/")) {
      fields.database = emptyToNull(decode(afterHost.substring(1), "database name"));
    }
    for (String parameter : query.split("&", -1)) {
      if (parameter.isEmpty()) {
        continue;
      }
      int equals = parameter.indexOf('=');
      String name = decode(equals < 0 ? parameter : parameter.substring(0, equals), "parameter");
      String value = equals < 0 ? "" : decode(parameter.substring(equals + 1), name);
      fields.applyUriParameter(name, value);
    }
    return fields;
  }

  private static int indexOfAny(String text, String characters) {
    for (int i = 0; i < text.length(); i++) {
      if (characters.indexOf(text.charAt(i)) >= 0) {
        return i;
      }
    }
    return text.length();
  }

  /** Percent-decodes UTF-8; unlike form decoding, {@code +} stays a plus sign. */
  private static String decode(String text, String what) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    byte[] bytes =
        StrictDecoding.percentDecodedBytes(text)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the " + what + " in the URI has an invalid percent escape"));
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String emptyToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  private static String environment(Map<String, String> environment, String name) {
    return emptyToNull(environment.get(name));
  }

  private static int integer(String value, int min, int max, String problem) {
    String digits = value.strip();
    if (!digits.matches("[+-]?[0-9]{1,10}")) {
      throw new IllegalArgumentException(problem);
    }
    long number = Long.parseLong(digits);
    if (number < min || number > max) {
      throw new IllegalArgumentException(problem);
    }
    return (int) number;
  }

  private static SslMode sslMode(String value, String problem) {
    String normalized = value.strip().toLowerCase(Locale.ROOT).replaceAll("[-_\\s]", "");
    return switch (normalized) {
      case "disable" -> SslMode.DISABLE;
      case "allow" -> SslMode.ALLOW;
      case "prefer" -> SslMode.PREFER;
      case "require" -> SslMode.REQUIRE;
      case "verifyca" -> SslMode.VERIFY_CA;
      case "verifyfull" -> SslMode.VERIFY_FULL;
      default -> throw new IllegalArgumentException(problem);
    };
  }

  /** The values one connection string sets; {@code null} where it says nothing. */
  private static final class Fields {

    private final boolean uri;
    private final Set<String> ignored = new LinkedHashSet<>();
    private String host;
    private Integer hostPort;
    private Integer port;
    private String database;
    private String user;
    private String password;
    private Integer maxPoolSize;
    private Duration connectTimeout;
    private SslMode sslMode;
    private String applicationName;

    Fields(boolean uri) {
      this.uri = uri;
    }

    /** How an error names a value: the keyword and value, or only the URI part (no value). */
    private String describe(String label, String value) {
      return uri ? "the URI's " + label : label + " '" + value + "'";
    }

    void apply(String keyword, String value) {
      String normalized = keyword.toLowerCase(Locale.ROOT).replaceAll("\\s", "");
      String given = emptyToNull(value);
      switch (normalized) {
        case "host", "server" -> {
          host = null;
          hostPort = null;
          if (given != null) {
            applyHost(given);
          }
        }
        case "port" -> port = given == null ? null : port("Port", given);
        case "database", "db" -> database = given;
        case "username", "userid", "user" -> user = given;
        case "password", "pwd" -> password = value.isEmpty() ? null : value;
        case "maximumpoolsize", "maxpoolsize" ->
            maxPoolSize = given == null ? null : maxPoolSize("Maximum Pool Size", given);
        case "timeout", "connecttimeout" ->
            connectTimeout = given == null ? null : timeout("Timeout", given);
        case "sslmode" -> sslMode = given == null ? null : sslMode("SSL Mode", given);
        case "applicationname" -> applicationName = given;
        default -> ignored.add(keyword);
      }
    }

    void applyUriParameter(String name, String value) {
      String given = emptyToNull(value);
      switch (name) {
        case "host" -> {
          if (given != null) {
            applyHost(given);
          }
        }
        case "port" -> port = given == null ? port : port("port", given);
        case "dbname" -> database = given == null ? database : given;
        case "user" -> user = given == null ? user : given;
        case "password" -> password = value.isEmpty() ? password : value;
        case "sslmode" -> sslMode = given == null ? sslMode : sslMode("sslmode", given);
        case "application_name" -> applicationName = given;
        case "connect_timeout" ->
            connectTimeout = given == null ? connectTimeout : timeout("connect_timeout", given);
        default -> ignored.add(name);
      }
    }

    /**
     * Takes the first of comma-separated hosts, each {@code host}, {@code host:port} or {@code
     * [v6]:port}.
     */
    void applyHost(String hosts) {
      String first = hosts.split(",", -1)[0].strip();
      if (first.isEmpty()) {
        throw new IllegalArgumentException(
            (uri ? "the URI's host" : "Host") + ": the first host is empty");
      }
      String portText = null;
      if (first.startsWith("[")) {
        int close = first.indexOf(']');
        if (close < 0) {
          throw new IllegalArgumentException(
              (uri ? "the URI's host" : "Host") + ": an IPv6 address lacks its closing ']'");
        }
        String after = first.substring(close + 1);
        if (after.startsWith(":")) {
          portText = after.substring(1);
        } else if (!after.isEmpty()) {
          throw new IllegalArgumentException(
              (uri ? "the URI's host" : "Host") + ": unexpected text after the IPv6 address");
        }
        host = first.substring(1, close);
      } else {
        int colon = first.indexOf(':');
        // more than one colon: a bare IPv6 address without a port
        if (colon >= 0 && colon == first.lastIndexOf(':')) {
          portText = first.substring(colon + 1);
          host = first.substring(0, colon).strip();
        } else {
          host = first;
        }
      }
      if (host.isEmpty()) {
        throw new IllegalArgumentException(
            (uri ? "the URI's host" : "Host") + ": the first host has no name");
      }
      hostPort = portText == null ? null : port(uri ? "host port" : "Host port", portText);
    }

    private int port(String label, String value) {
      return integer(value, 1, ServerConfig.MAX_PORT, describe(label, value) + PORT_RANGE);
    }

    private int maxPoolSize(String label, String value) {
      return integer(
          value, 1, Integer.MAX_VALUE, describe(label, value) + " is not a positive integer");
    }

    private Duration timeout(String label, String value) {
      String problem =
          describe(label, value) + " is not a number of seconds (0-" + MAX_TIMEOUT_SECONDS + ")";
      return Duration.ofSeconds(integer(value, 0, MAX_TIMEOUT_SECONDS, problem));
    }

    private SslMode sslMode(String label, String value) {
      return NpgsqlConnectionString.sslMode(
          value,
          describe(label, value)
              + " is not one of Disable, Allow, Prefer, Require, VerifyCA, VerifyFull");
    }

    ConnectionSettings settings(Map<String, String> env) {
      String resolvedUser = user;
      if (resolvedUser == null) {
        resolvedUser = environment(env, "PGUSER");
      }
      if (resolvedUser == null) {
        resolvedUser = emptyToNull(System.getProperty("user.name"));
      }
      if (resolvedUser == null) {
        throw new IllegalArgumentException("no user name: set Username or PGUSER");
      }
      String resolvedPassword = password != null ? password : env.get("PGPASSWORD");
      if (resolvedPassword != null && resolvedPassword.isEmpty()) {
        resolvedPassword = null;
      }
      String resolvedHost = host;
      if (resolvedHost == null) {
        resolvedHost = environment(env, "PGHOST");
      }
      if (resolvedHost == null) {
        resolvedHost = "localhost";
      }
      int resolvedPort = DEFAULT_PORT;
      if (hostPort != null) {
        resolvedPort = hostPort;
      } else if (port != null) {
        resolvedPort = port;
      } else if (environment(env, "PGPORT") != null) {
        String fromEnvironment = env.get("PGPORT");
        resolvedPort =
            integer(
                fromEnvironment,
                1,
                ServerConfig.MAX_PORT,
                "PGPORT '" + fromEnvironment + "'" + PORT_RANGE);
      }
      String resolvedDatabase = database;
      if (resolvedDatabase == null) {
        resolvedDatabase = environment(env, "PGDATABASE");
      }
      if (resolvedDatabase == null) {
        resolvedDatabase = resolvedUser;
      }
      return new ConnectionSettings(
          resolvedHost,
          resolvedPort,
          resolvedDatabase,
          resolvedUser,
          resolvedPassword,
          maxPoolSize == null ? DEFAULT_MAX_POOL_SIZE : maxPoolSize,
          connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout,
          sslMode == null ? DEFAULT_SSL_MODE : sslMode,
          applicationName);
    }
  }
}
