package org.vfps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The packaged jar's service started as a process of its own, for the ITs that need the jar. */
final class ServiceProcess {

  private ServiceProcess() {}

  /**
   * Starts {@code builder}, whose output goes to {@code log}, hands the process to {@code
   * resources} (stopped after the test class), and returns once the service logged its start line.
   *
   * @throws AssertionError with the log when the process ends, or does not start within a minute
   */
  static Process startAndAwait(ClassResources resources, ProcessBuilder builder, Path log)
      throws Exception {
    Process service =
        resources.own(
            builder.start(),
            process -> {
              process.destroy();
              process.waitFor(10, TimeUnit.SECONDS);
              process.destroyForcibly();
            });
    for (int attempt = 0; attempt < 600 && service.isAlive(); attempt++) {
      if (Files.readString(log).contains(" started in ")) {
        return service;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError("the service did not start: " + Files.readString(log));
  }
}
