package org.vfps.config;

import java.util.List;
import java.util.Objects;

/**
 * The whole configuration of vfps, as {@link ConfigLoader} loads it once at start-up.
 *
 * @param initNamespaces the namespaces to create at start-up ({@code Init__v1__Namespaces}), in
 *     index order; unmodifiable
 * @param metrics the service's own meters ({@code Metrics__*})
 * @param tracing OpenTelemetry tracing ({@code Tracing__*})
 * @param logging the log format ({@code Logging__*})
 * @param tls TLS of the gRPC and HTTP listeners ({@code Kestrel__Certificates__Default__*})
 * @param authorization who may call what ({@code Authorization__*})
 * @param batch the batch calls ({@code Pseudonymization__Batch__*})
 * @param generation the generation methods offered ({@code Pseudonymization__Sha256__*})
 * @param connections how the listeners treat their connections ({@code Http__*Timeout}, {@code
 *     Grpc__*})
 * @param admission the bounds of the replica's work in flight ({@code Admission__*})
 * @param s3 the object store of CSV jobs ({@code S3__*})
 * @param csvProcessing how this replica runs CSV jobs ({@code CsvProcessing__*})
 * @param voprf the VOPRF server of keyed pseudonyms ({@code Voprf__*})
 * @param sealing sealed originals ({@code Sealing__*})
 */
public record VfpsConfig(
    DatabaseConfig database,
    ServerConfig server,
    CachingConfig caching,
    List<NamespaceSeed> initNamespaces,
    ClusterConfig cluster,
    MetricsConfig metrics,
    TracingConfig tracing,
    LoggingConfig logging,
    TlsConfig tls,
    AuthorizationConfig authorization,
    BatchConfig batch,
    GenerationConfig generation,
    ConnectionConfig connections,
    AdmissionConfig admission,
    S3Config s3,
    CsvProcessingConfig csvProcessing,
    VoprfConfig voprf,
    SealingConfig sealing) {

  public VfpsConfig {
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(caching, "caching");
    initNamespaces = List.copyOf(initNamespaces);
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(tracing, "tracing");
    Objects.requireNonNull(logging, "logging");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(authorization, "authorization");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(connections, "connections");
    Objects.requireNonNull(admission, "admission");
    Objects.requireNonNull(s3, "s3");
    Objects.requireNonNull(csvProcessing, "csvProcessing");
    Objects.requireNonNull(voprf, "voprf");
    Objects.requireNonNull(sealing, "sealing");
  }
}
