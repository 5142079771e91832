package org.vfps.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What this build of vfps is: the version of its pom and the git revision it was built from. The
 * one place the service reads them from; {@code vfps --version}, the start-up line, the admin UI,
 * the OpenAPI document's {@code info}, the {@code vfps_build_info} metric and the tracer's {@code
 * service.version} all show these values.
 *
 * @param version the release version, e.g. {@code 1.0.0}; {@value #DEV} when the classes were not
 *     built by Maven
 * @param revision the abbreviated git commit, e.g. {@code 4bd8d3c}; {@value #UNKNOWN} when the
 *     build had neither a git work tree nor {@code -Dvfps.revision}
 */
public record BuildInfo(String version, String revision) {

  /** The revision of a build that did not know it. */
  public static final String UNKNOWN = "unknown";

  /** The version of classes Maven did not build (an IDE's), whose resource is left unfilled. */
  public static final String DEV = "dev";

  /** The class path resource, beside this class, that the build fills in. */
  static final String RESOURCE = "build.properties";

  private static final Pattern REVISION = Pattern.compile("[0-9a-f]{7,40}");

  private static final BuildInfo CURRENT = read();

  public BuildInfo {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(revision, "revision");
  }

  /** This build's version and revision. */
  public static BuildInfo current() {
    return CURRENT;
  }

  /**
   * The values as the build wrote them, each checked: a value the build left unfilled (a Maven
   * property it did not know, {@code ${...}}) or missing reads {@value #DEV} or {@value #UNKNOWN};
   * a revision that is not 7 to 40 lower-case hex digits reads {@value #UNKNOWN}.
   */
  static BuildInfo of(String version, String revision) {
    boolean versionKnown = version != null && !version.isBlank() && !version.contains("${");
    boolean revisionKnown = revision != null && REVISION.matcher(revision).matches();
    return new BuildInfo(versionKnown ? version.strip() : DEV, revisionKnown ? revision : UNKNOWN);
  }

  /** What {@code vfps --version} prints after the name: {@code 1.0.0 (revision 4bd8d3c)}. */
  public String describe() {
    return version + " (revision " + revision + ")";
  }

  private static BuildInfo read() {
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return of(null, null);
      }
      Properties properties = new Properties();
      properties.load(in);
      return of(properties.getProperty("version"), properties.getProperty("revision"));
    } catch (IOException e) {
      throw new UncheckedIOException("The jar's " + RESOURCE + " cannot be read", e);
    }
  }
}
