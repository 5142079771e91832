package org.vfps.alphabet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * python-stdnum (Debian's {@code python3-stdnum}, run by the system's {@code /usr/bin/python3}),
 * the independent implementation of Luhn mod N, Damm and Verhoeff that vfps's check digits are held
 * to.
 */
public final class Stdnum {

  private static final Path PYTHON = Path.of("/usr/bin/python3");

  /** A value for stdnum to validate with the check digit of {@code kind} over {@code alphabet}. */
  public record Query(CheckDigitKind kind, String alphabet, String value) {
    String asInput() {
      String script =
          switch (kind) {
            case LUHN_MOD_N -> "luhn";
            case DAMM -> "damm";
            case VERHOEFF -> "verhoeff";
            case X_GPAS_DAMM -> "gpas_damm";
            case X_GPAS_VERHOEFF -> "gpas_verhoeff";
            case UNSPECIFIED -> throw new IllegalArgumentException("no check digit to validate");
          };
      return script + "\t" + alphabet + "\t" + value;
    }
  }

  private Stdnum() {}

  /**
   * Skips the calling test where python-stdnum is not installed; under {@code CI=true} fails it
   * instead, as the browser tests do without a browser, so that CI cannot pass without the check.
   */
  public static void assumeInstalled() throws InterruptedException {
    boolean installed = installed();
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new AssertionError(
          "CI=true needs python-stdnum for /usr/bin/python3 (apt-get install python3-stdnum)");
    }
    assumeTrue(installed, "needs python-stdnum for /usr/bin/python3 (python3-stdnum)");
  }

  /** Whether python-stdnum is installed for {@code /usr/bin/python3}. */
  private static boolean installed() throws InterruptedException {
    if (!Files.isExecutable(PYTHON)) {
      return false;
    }
    try {
      Process probe =
          new ProcessBuilder(
                  PYTHON.toString(), "-c", "import stdnum.luhn, stdnum.damm, stdnum.verhoeff")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** stdnum's verdicts on the queries, in their order (true: valid), from one python process. */
  public static List<Boolean> validate(List<Query> queries)
      throws IOException, InterruptedException {
    String script;
    try (InputStream in = Stdnum.class.getResourceAsStream("stdnum_check.py")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Process python =
        new ProcessBuilder(PYTHON.toString(), "-c", script)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    StringBuilder input = new StringBuilder();
    for (Query query : queries) {
      input.append(query.asInput()).append('\n');
    }
    // the script reads every line before it answers, so writing all first cannot block on a full
    // pipe of answers
    try (var stdin = python.getOutputStream()) {
      stdin.write(input.toString().getBytes(StandardCharsets.US_ASCII));
    }
    String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertThat(python.waitFor(60, TimeUnit.SECONDS)).as("python ends").isTrue();
    assertThat(python.exitValue()).as("python's exit status").isZero();
    List<String> verdicts = output.lines().toList();
    assertThat(verdicts).hasSameSizeAs(queries);
    return verdicts.stream().map("1"::equals).toList();
  }
}
