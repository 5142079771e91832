package org.vfps.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a sign-in may send the user afterwards: a path of the admin UI on this service, so that no
 * link to the login can send a user somewhere else (no open redirect). Accepted are {@code /ui} and
 * paths under {@code /ui/}, with a query, in printable ASCII (as the browser writes a page's
 * address), without a backslash, an empty segment ({@code //}) or a dot segment ({@code .} or
 * {@code ..}, also percent-encoded), which a browser would resolve to another path.
 */
final class ReturnUrls {

  /** Where a sign-in without a return URL ends. */
  static final String HOME = "/ui/";

  private static final int MAX_LENGTH = 2_048;

  private ReturnUrls() {}

  /** The return URL if it is a local path of the UI; {@link #HOME} when null or empty. */
  static Optional<String> local(String returnUrl) {
    if (returnUrl == null || returnUrl.isEmpty()) {
      return Optional.of(HOME);
    }
    if (returnUrl.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    for (int i = 0; i < returnUrl.length(); i++) {
      char c = returnUrl.charAt(i);
      if (c <= 0x20 || c >= 0x7F || c == '\\' || c == '#') {
        return Optional.empty();
      }
    }
    int query = returnUrl.indexOf('?');
    String path = query < 0 ? returnUrl : returnUrl.substring(0, query);
    if (!(path.equals("/ui") || path.startsWith("/ui/")) || path.contains("//")) {
      return Optional.empty();
    }
    for (String segment : path.split("/", -1)) {
      String plain = segment.toLowerCase(Locale.ROOT).replace("%2e", ".");
      if (plain.equals(".") || plain.equals("..")) {
        return Optional.empty();
      }
    }
    return Optional.of(returnUrl);
  }

  /** The login address that returns to {@code returnUrl}. */
  static String login(String returnUrl) {
    return "/ui/authentication/login?returnUrl="
        + URLEncoder.encode(returnUrl, StandardCharsets.UTF_8);
  }
}
