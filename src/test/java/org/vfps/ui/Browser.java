package org.vfps.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The system's headless Chromium, driven through its chromedriver ({@code apt-get install chromium
 * chromium-driver}), with a fresh profile; nothing is downloaded. Waits have generous deadlines:
 * they end as soon as the page is ready.
 */
final class Browser implements AutoCloseable {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  // Selenium warns through java.util.logging that it has no DevTools protocol of this Chromium's
  // version; the tests use none. Held here: java.util.logging keeps its loggers weakly.
  private static final java.util.logging.Logger DEVTOOLS = quiet("org.openqa.selenium.devtools");
  static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

  private final Path profile;
  private final ChromeDriver driver;
  private final String base;

  // test settings, so that a build can prove the skip on a machine that has the browser
  private static final Path CHROMIUM =
      Path.of(System.getProperty("vfps.test.chromium", "/usr/bin/chromium"));
  private static final Path CHROMEDRIVER =
      Path.of(System.getProperty("vfps.test.chromedriver", "/usr/bin/chromedriver"));

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    logger.setLevel(java.util.logging.Level.SEVERE);
    return logger;
  }

  private static final String MISSING =
      "The admin UI's browser tests need chromium and chromium-driver"
          + " (apt-get install chromium chromium-driver)";

  /**
   * Marks a test class that drives the browser: tagged {@code browser}, and skipped, each of its
   * tests reported as such, where Chromium or its driver is not installed (at the paths of {@code
   * -Dvfps.test.chromium} and {@code -Dvfps.test.chromedriver}, by default Debian's), except in CI
   * ({@code CI=true}), where a missing browser fails the tests rather than hiding them.
   */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @Tag("browser")
  @ExtendWith(Installed.class)
  @interface Required {}

  /** Disables the tests of a {@link Required} class where the browser is missing, outside CI. */
  static final class Installed implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return installed() || inCi()
          ? ConditionEvaluationResult.enabled("the browser is installed, or CI requires it")
          : ConditionEvaluationResult.disabled(MISSING);
    }
  }

  private static boolean installed() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  private static boolean inCi() {
    return "true".equals(System.getenv("CI"));
  }

  /** Skips the rest of the calling test where the browser is missing, except in CI. */
  static void assumeInstalled() {
    if (!installed() && !inCi()) {
      Assumptions.abort(MISSING);
    }
  }

  Browser(int httpPort) {
    if (!installed()) {
      throw new IllegalStateException(
          MISSING + "; looked for " + CHROMIUM + " and " + CHROMEDRIVER);
    }
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

  /** Opens an absolute address (another service, the identity provider). */
  void go(String url) {
    driver.get(url);
  }

  /** The path and query of the current page, when it is one of the service's; else its address. */
  String currentPath() {
    String url = driver.getCurrentUrl();
    return url.startsWith(base + "/") ? url.substring(base.length()) : url;
  }

  /** The browser's cookies of every site, as Chromium reports them (name, value, httpOnly, ...). */
  @SuppressWarnings("unchecked")
  List<Map<String, Object>> cookies() {
    return (List<Map<String, Object>>)
        driver.executeCdpCommand("Network.getAllCookies", Map.of()).get("cookies");
  }

  /** The value of the cookie of that name, if the browser has one. */
  java.util.Optional<String> cookie(String name) {
    return cookies().stream()
        .filter(cookie -> name.equals(cookie.get("name")))
        .map(cookie -> (String) cookie.get("value"))
        .findFirst();
  }

  /** Sets an HttpOnly, SameSite=Lax cookie for the service's host on every path. */
  void setCookie(String name, String value) {
    driver.executeCdpCommand(
        "Network.setCookie",
        Map.of(
            "name",
            name,
            "value",
            value,
            "url",
            base + "/",
            "path",
            "/",
            "httpOnly",
            true,
            "sameSite",
            "Lax"));
  }

  /** Forgets every cookie: the next page starts signed out. */
  void clearCookies() {
    driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
  }

  /** The address of a namespace's page in the UI. */
  static String namespacePath(String name) {
    return "/ui/namespaces/"
        + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20")
        + "/pseudonyms";
  }

  /** Opens the namespaces page and waits for its create form and its table (or its empty note). */
  void openNamespaces() {
    open("/ui/namespaces");
    visible("#create-namespace");
    until(d -> !findAll("#namespaces, .table-area .empty").isEmpty());
  }

  /** The select element, to choose an option as a user would. */
  Select select(String css) {
    return new Select(find(css));
  }

  /** Replaces the field's text as a user would, so that every change fires its input event. */
  void type(String css, String text) {
    WebElement input = find(css);
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
    if (!text.isEmpty()) {
      input.sendKeys(text);
    }
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
              WebElement element =
                  ExpectedConditions.elementToBeClickable(By.cssSelector(css)).apply(driver);
              if (element == null) {
                return false;
              }
              element.click();
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

  /**
   * Downloads as a user would, by clicking the link, into a new directory below {@code dir}, and
   * returns the text of the file once it is complete.
   */
  String download(String css, Path dir) {
    try {
      Path downloads = Files.createTempDirectory(dir, "downloads");
      downloadTo(downloads);
      WebElement link = find(css);
      Path downloaded = downloads.resolve(link.getAttribute("download"));
      link.click();
      until(d -> Files.exists(downloaded) && !hasPartialDownloads(downloads));
      return Files.readString(downloaded, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean hasPartialDownloads(Path downloads) {
    try (Stream<Path> files = Files.list(downloads)) {
      return files.anyMatch(file -> file.toString().endsWith(".crdownload"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  /**
   * What is wrong with the page as it is shown: text below the WCAG AA contrast minimum, and what
   * the browser logged as a warning or worse since the last call (a blocked script or style).
   */
  List<String> problems(String name) {
    List<String> problems = new ArrayList<>();
    @SuppressWarnings("unchecked")
    Map<String, Object> contrast = (Map<String, Object>) script(contrastCheck());
    if (((Number) contrast.get("checked")).intValue() <= 10) {
      problems.add(name + ": the contrast check saw almost no text");
    }
    for (Object failure : (List<?>) contrast.get("failures")) {
      problems.add(name + ": contrast " + failure);
    }
    for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
      if (entry.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
        problems.add(name + ": " + entry.getMessage());
      }
    }
    return problems;
  }

  private static String contrastCheck() {
    try (InputStream in = Browser.class.getResourceAsStream("/ui-contrast.js")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
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
