package org.vfps;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The import rules between the packages of the service, as data: {@link PackageRulesTest} holds the
 * compiled classes to them, and {@link ArchitectureTableTest} holds the table of ARCHITECTURE.md at
 * the top of the repository to them, so that the table and the rules cannot drift apart.
 */
final class PackageRules {

  private static final Set<String> DOMAIN = Set.of("namespace", "pseudonym", "alphabet", "error");

  /**
   * The packages of the service (below {@code org.vfps}; {@code api} is the generated protobuf
   * code) and the ones each may use besides itself. {@code server}, the start-up chain, may use
   * every package and no package but the root may use it; the root package (the command line) and
   * no other uses {@code server}, and no package uses the root. The domain services call the one
   * decision point of the permission model in {@code access}, and the edges (the admin UI among
   * them) turn credentials into its caller through {@code auth}.
   */
  static final Map<String, Set<String>> MAY_USE =
      Map.ofEntries(
          Map.entry("error", Set.of()),
          // CSV jobs: the runner reaches the pseudonym service's batch methods, the object store
          // and the CSV format; storage implements their repository
          Map.entry("job", union(DOMAIN, "access", "config", "csv", "objectstore")),
          Map.entry("csv", Set.of()),
          Map.entry("objectstore", Set.of("config")),
          // the database URL's percent escapes are decoded as the edges decode theirs
          Map.entry("config", Set.of("error", "text")),
          Map.entry("alphabet", Set.of()),
          // sealed originals: the key file and the blind index and encryption of a value
          Map.entry("seal", Set.of()),
          Map.entry("namespace", Set.of("alphabet", "error", "access")),
          Map.entry("pseudonym", Set.of("namespace", "alphabet", "error", "access")),
          // the write queues are bounded, and calls' deadlines honoured, by admission control
          // it implements the access store of grants and tokens, as it does the repositories, and
          // the log of cache invalidations
          Map.entry(
              "storage", union(DOMAIN, "config", "admission", "access", "job", "cache", "seal")),
          Map.entry("cache", DOMAIN),
          Map.entry("cluster", union(DOMAIN, "cache", "config", "access")),
          // the API's methods, defined once for both edges: their messages, permissions, calls into
          // the domain services and reply mappings (a CSV job's presigned URLs are the object
          // store's records)
          Map.entry("rpc", union(DOMAIN, "api", "access", "job", "objectstore")),
          // the edges
          Map.entry(
              "grpc",
              union(
                  DOMAIN,
                  "api",
                  "rpc",
                  "config",
                  "access",
                  "auth",
                  "connection",
                  "admission",
                  "log",
                  "job")),
          // the HTTP listener binds the API's methods as the gRPC edge does, never through it, and
          // hosts the FHIR operations
          Map.entry(
              "http",
              union(
                  DOMAIN,
                  "api",
                  "rpc",
                  "fhir",
                  "job",
                  "access",
                  "auth",
                  "connection",
                  "admission",
                  "log",
                  "text")),
          Map.entry("fhir", union(DOMAIN, "access", "auth", "admission", "log", "text")),
          // the admin UI signs users in and turns their sessions into callers through auth
          Map.entry("ui", union(DOMAIN, "access", "auth", "text")),
          Map.entry("metrics", Set.of("config")),
          Map.entry("tracing", Set.of("config")),
          Map.entry("access", Set.of("error", "config", "audit")),
          // the audit trail's chain and checkpoints, and the command that verifies them
          Map.entry("audit", Set.of("config")),
          Map.entry("auth", Set.of("access", "config", "error", "text")),
          Map.entry("api", Set.of()),
          // the listeners' connection limits, shared by both edges
          Map.entry("connection", Set.of()),
          // the one place that admits work (asked by the edges and the storage) and calls'
          // deadlines
          Map.entry("admission", Set.of("error")),
          // the logging configuration (Logging__Format) and the edges' throttled warnings (a lost
          // database, malformed requests), one set per server
          Map.entry("log", Set.of("error", "config")),
          // media types and strictly decoded text, read one way by the edges and the credentials
          Map.entry("text", Set.of()),
          // keyed pseudonyms: the RFC 9497 primitives, vfps's client of a VOPRF server (a keyed
          // generator of the pseudonym package, failing as the domain fails) and the server, which
          // authenticates its callers and logs as the edges do, its audit lines escaped as
          // vfps's
          Map.entry(
              "voprf",
              Set.of("access", "api", "audit", "auth", "config", "error", "log", "pseudonym")),
          // the start-up chain wires them all
          Map.entry(
              "server",
              Set.of(
                  "access",
                  "admission",
                  "alphabet",
                  "api",
                  "audit",
                  "auth",
                  "cache",
                  "cluster",
                  "config",
                  "connection",
                  "csv",
                  "error",
                  "fhir",
                  "grpc",
                  "http",
                  "job",
                  "log",
                  "metrics",
                  "namespace",
                  "objectstore",
                  "pseudonym",
                  "rpc",
                  "seal",
                  "storage",
                  "text",
                  "tracing",
                  "ui",
                  "voprf")));

  /**
   * The packages the root package's command line may use: the start-up chain, the configuration,
   * the console's log format, the secret hashing of {@code hash-secret} and {@code audit}.
   */
  static final Set<String> ROOT_MAY_USE =
      Set.of("server", "config", "log", "auth", "voprf", "audit");

  /**
   * Packages that use the JDK alone: the alphabet method's pseudonym format (alphabets, check
   * digits, groups), which the namespaces' validation, the generators, the import and the reverse
   * lookups share.
   */
  static final Set<String> JDK_ONLY = Set.of("alphabet");

  private static Set<String> union(Set<String> packages, String... more) {
    Set<String> all = new TreeSet<>(packages);
    all.addAll(List.of(more));
    return all;
  }

  private PackageRules() {}
}
