package org.vfps.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.vfps.ClassResources;
import org.vfps.HttpTestClient;
import org.vfps.SealedService;

/**
 * The admin UI's reverse lookup of a sealed namespace, in Chromium against the real service with
 * {@code Sealing__KeyFile} set: the namespace page shows the original value of a pseudonym, while
 * the table and the log hold none.
 */
@Browser.Required
class SealedUiIT {

  @RegisterExtension static final SealedService sealed = new SealedService();
  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static HttpTestClient http;
  private static Browser browser;

  @BeforeAll
  static void start() {
    http = resources.own(new HttpTestClient(sealed.server().httpPort()));
    browser = resources.own(new Browser(sealed.server().httpPort()));
  }

  @Test
  void theLookupShowsTheOriginalValueOfASealedPseudonym() {
    String namespace = "sealed-ui-" + UUID.randomUUID().toString().substring(0, 8);
    HttpTestClient.Response created =
        http.postJson(
            "/v1/namespaces",
            new JsonObject().put("name", namespace).put("pseudonymLength", 16).encode());
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String original = sealed.original("Jane Doe");
    HttpTestClient.Response pseudonym =
        http.postJson(
            "/v1/namespaces/" + namespace + "/pseudonyms",
            new JsonObject().put("originalValue", original).encode());
    assertThat(pseudonym.status()).as(pseudonym.body()).isEqualTo(200);
    String value = pseudonym.json().getJsonObject("pseudonym").getString("pseudonymValue");

    browser.open(Browser.namespacePath(namespace));
    browser.visible("#lookupValue").sendKeys(value, Keys.ENTER);

    assertThat(browser.visible("#lookupResult code").getText()).isEqualTo(original);
    sealed.assertOriginalsHidden();
  }
}
