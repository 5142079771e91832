package org.vfps.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The system's headless Chromium, driven through its chromedriver ({@code apt-get install chromium
 * chromium-driver}), with a fresh profile; nothing is downloaded. Waits have generous deadlines:
 * they end as soon as the page is ready.
 */
final class Browser implements AutoCloseable {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

  private final Path profile;
  private final ChromeDriver driver;
  private final String base;

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  /**
   * Skips the calling test class where Chromium is not installed, except in CI ({@code CI=true}),
   * where a missing browser fails the tests rather than hiding them.
   */
  static void assumeInstalled() {
    boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!installed && !"true".equals(System.getenv("CI"))) {
      Assumptions.abort(
          "The admin UI's browser tests need chromium and chromium-driver"
              + " (apt-get install chromium chromium-driver)");
    }
  }

  Browser(int httpPort) {
    this.base = "http://127.0.0.1:" + httpPort;
    try {
      this.profile = Files.createTempDirectory("vfps-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(CHROMIUM.toFile())
            .addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1280,900",
                "--user-data-dir=" + profile);
    // the console, so that tests see blocked scripts and failed requests
    options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    this.driver = new ChromeDriver(service, options);
  }

  WebDriver driver() {
    return driver;
  }

  /** Opens a path of the service, e.g. {@code /ui/namespaces}. */
  void open(String path) {
    driver.get(base + path);
  }

  String currentPath() {
    String url = driver.getCurrentUrl();
    return url.substring(base.length());
  }

  WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  List<WebElement> findAll(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /**
   * Clicks the element once it is clickable, finding it again while the page re-renders it (a stale
   * element): a table refreshed after an action replaces its rows.
   */
  void click(String css) {
    await()
        .ignoring(StaleElementReferenceException.class)
        .until(
            driver -> {
              ExpectedConditions.elementToBeClickable(By.cssSelector(css)).apply(driver).click();
              return true;
            });
  }

  /** Waits for an element to be visible and returns it. */
  WebElement visible(String css) {
    return await().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
  }

  /** Waits until the element's text contains the text, and returns the whole text. */
  String textContaining(String css, String text) {
    await().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
    return find(css).getText();
  }

  <T> T until(Function<WebDriver, T> condition) {
    return await().until(condition);
  }

  WebDriverWait await() {
    return new WebDriverWait(driver, DEADLINE, Duration.ofMillis(50));
  }

  Object script(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Runs a script whose last argument is the callback it calls with its result. */
  Object asyncScript(String script, Object... args) {
    driver.manage().timeouts().scriptTimeout(Duration.ofMinutes(2));
    return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
  }

  /** Emulates the system's colour scheme: "light" or "dark". */
  void colorScheme(String scheme) {
    driver.executeCdpCommand(
        "Emulation.setEmulatedMedia",
        Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
  }

  /** Lets downloads go into the directory, without asking. */
  void downloadTo(Path directory) {
    driver.executeCdpCommand(
        "Browser.setDownloadBehavior",
        Map.of("behavior", "allow", "downloadPath", directory.toAbsolutePath().toString()));
  }

  /** Saves a screenshot of the whole page under target/ui-screenshots. */
  Path screenshot(String name) {
    Map<String, Object> shot =
        driver.executeCdpCommand(
            "Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, Base64.getDecoder().decode((String) shot.get("data")));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        // a temp directory left behind is harmless
      }
    }
  }
}
