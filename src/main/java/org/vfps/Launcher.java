package org.vfps;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The jar's {@code Main-Class}, compiled for Java 8 so that any Java can load it: on a Java older
 * than 21 it says so in one line and exits 1, otherwise it hands the arguments to {@link Main}. It
 * reaches {@code Main} only by name, since a Java 8 class may not link to a Java 21 one.
 *
 * <p>On Java 25 and newer it also keeps Netty off {@code sun.misc.Unsafe}, Netty's own default
 * there, when {@code -Dsun.misc.unsafe.memory.access=allow} (which {@code bin/vfps} gives, so that
 * the JDK does not warn about protobuf's use of it) would otherwise turn Netty's use of it on.
 * {@code -Dio.netty.noUnsafe=false} still turns it on.
 */
public final class Launcher {

  static final int REQUIRED_FEATURE = 21;

  /** The Java from which Netty leaves {@code sun.misc.Unsafe} alone unless told otherwise. */
  private static final int NETTY_SAFE_FEATURE = 25;

  private static final String NETTY_NO_UNSAFE = "io.netty.noUnsafe";

  private Launcher() {}

  public static void main(String[] args) throws Throwable {
    String version = System.getProperty("java.specification.version");
    if (feature(version) < REQUIRED_FEATURE) {
      System.err.println(
          "vfps needs Java "
              + REQUIRED_FEATURE
              + " or newer, but this is Java "
              + version
              + " ("
              + System.getProperty("java.home")
              + "): point JAVA_HOME and PATH at a JDK or JRE "
              + REQUIRED_FEATURE
              + "+.");
      System.exit(1);
    }
    if (feature(version) >= NETTY_SAFE_FEATURE && System.getProperty(NETTY_NO_UNSAFE) == null) {
      System.setProperty(NETTY_NO_UNSAFE, "true");
    }
    MethodHandle main =
        MethodHandles.publicLookup()
            .findStatic(
                Class.forName("org.vfps.Main"),
                "main",
                MethodType.methodType(void.class, String[].class));
    main.invokeExact(args);
  }

  /**
   * The feature release of a {@code java.specification.version}: {@code 1.8} is 8, {@code 17} is
   * 17; 0 when it cannot be read.
   */
  static int feature(String specificationVersion) {
    if (specificationVersion == null) {
      return 0;
    }
    String version =
        specificationVersion.startsWith("1.")
            ? specificationVersion.substring(2)
            : specificationVersion;
    int dot = version.indexOf('.');
    try {
      return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
