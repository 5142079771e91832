package org.vfps.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * The pages the sign-in answers with when it cannot go on: the UI's header, style and theme, the
 * problem in words, and a way on. Every text is escaped.
 */
final class SignInPages {

  private SignInPages() {}

  /**
   * Ends the request with a page.
   *
   * @param link where the button leads (a local path)
   * @param linkText the button's text
   */
  static void send(
      RoutingContext rc, int status, String title, String message, String link, String linkText) {
    String page =
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <title>%1$s · vfps</title>
          <link rel="icon" href="/ui/assets/icon.svg" type="image/svg+xml">
          <link rel="stylesheet" href="/ui/assets/app.css">
          <script src="/ui/assets/theme.js"></script>
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/ui/"><img src="/ui/assets/icon.svg" alt="" width="28" height="28"> vfps</a>
          </header>
          <main id="main">
            <h1>%1$s</h1>
            <p class="message error" role="alert" id="sign-in-problem">%2$s</p>
            <p><a class="button primary" href="%3$s">%4$s</a></p>
          </main>
        </body>
        </html>
        """
            .formatted(escape(title), escape(message), escape(link), escape(linkText));
    rc.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
        .end(page);
  }

  static String escape(String text) {
    StringBuilder escaped = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> escaped.append("&amp;");
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '"' -> escaped.append("&quot;");
        case '\'' -> escaped.append("&#39;");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
