package org.vfps.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM that the AOT training run starts beside its own, with the same class path: what runs there
 * is not recorded in the cache. (A JVM started with an AOT cache loads every class the cache holds,
 * so the cache must hold only what the service itself uses.)
 */
final class ChildJvm {

  private ChildJvm() {}

  /**
   * Starts {@code mainClass} with {@code args}; its output and errors are this JVM's.
   *
   * @param mainClass the class's name, so that this JVM need not load it
   */
  static Process start(String mainClass, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // as bin/vfps starts the jar: no JDK warning about sun.misc.Unsafe
                "-Dsun.misc.unsafe.memory.access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }
}
