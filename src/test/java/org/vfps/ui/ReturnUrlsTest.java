package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A sign-in returns only to paths of the admin UI. */
class ReturnUrlsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/ui",
        "/ui/",
        "/ui/namespaces",
        "/ui/namespaces/https%3A%2F%2Fexample.org%2Fids/pseudonyms",
        "/ui/namespaces/study/pseudonyms?page=2",
        "/ui?x=https://elsewhere.example",
        "/ui/namespaces/a.b/pseudonyms",
      })
  void pathsOfTheUiAreKept(String url) {
    assertThat(ReturnUrls.local(url)).contains(url);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://evil.example/ui/",
        "//evil.example/ui/",
        "/\\evil.example",
        "/ui\\..\\..\\evil",
        "\\\\evil.example",
        "/ui//evil.example",
        "/ui/../v1/namespaces",
        "/ui/%2e%2e/v1/namespaces",
        "/ui/%2E./x",
        "/ui/./namespaces",
        "/uix",
        "/v1/namespaces",
        "ui/namespaces",
        "javascript:alert(1)",
        "/ui/ namespaces",
        "/ui/\tx",
        "/ui/#x",
        "/ui/é",
      })
  void everythingElseIsRefused(String url) {
    assertThat(ReturnUrls.local(url)).isEmpty();
  }

  @Test
  void noReturnUrlMeansTheHomePage() {
    assertThat(ReturnUrls.local(null)).contains("/ui/");
    assertThat(ReturnUrls.local("")).contains("/ui/");
  }

  @Test
  void theLoginAddressCarriesTheReturnUrlEncoded() {
    assertThat(ReturnUrls.login("/ui/namespaces/a%2Fb/pseudonyms?x=1"))
        .isEqualTo(
            "/ui/authentication/login?returnUrl=%2Fui%2Fnamespaces%2Fa%252Fb%2Fpseudonyms%3Fx%3D1");
  }
}
