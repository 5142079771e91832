package org.vfps.server;

import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.cluster.ClusterMembership;
import org.vfps.cluster.HazelcastCluster;
import org.vfps.config.ClusterConfig;
import org.vfps.tracing.Tracing;

/** Vert.x, clustered or alone; a replica alone is its own single member. */
record VertxRuntime(Vertx vertx, ClusterMembership membership) {

  // the server's logger: operators find the start's lines under that name
  private static final Logger LOG = LoggerFactory.getLogger(VfpsServer.class);
  private static final long CLOSE_TIMEOUT_SECONDS = 30;

  /** Vert.x with the meters and the tracer, clustered when configured. */
  static VertxRuntime start(
      ClusterConfig cluster, MeterHooks meters, Tracing tracing, Teardown teardown) {
    VertxBuilder builder = Vertx.builder();
    tracing.vertxTracerFactory().ifPresent(builder::withTracer);
    if (!cluster.enabled()) {
      Vertx vertx = meters.instrument(builder, new VertxOptions()).build();
      teardown.add("Vert.x", vertx, VertxRuntime::close);
      return new VertxRuntime(vertx, ClusterMembership.alone());
    }
    HazelcastCluster.ClusteredVertx clustered =
        joinCluster(cluster, meters.instrument(builder, HazelcastCluster.options(cluster)));
    teardown.add("Vert.x", clustered.vertx(), VertxRuntime::close);
    return new VertxRuntime(clustered.vertx(), clustered.membership());
  }

  private static HazelcastCluster.ClusteredVertx joinCluster(
      ClusterConfig cluster, VertxBuilder builder) {
    long started = System.nanoTime();
    try {
      HazelcastCluster.ClusteredVertx clustered = HazelcastCluster.join(cluster, builder);
      LOG.info(
          "Joined cluster '{}' in {} ms ({} members)",
          cluster.name(),
          (System.nanoTime() - started) / 1_000_000,
          clustered.membership().nodeIds().size());
      return clustered;
    } catch (RuntimeException e) {
      throw new StartupException("Joining cluster '" + cluster.name() + "' failed: " + e, e);
    }
  }

  /** Closes Vert.x, bounded, so that a failed start always comes to its exit. */
  private static void close(Vertx vertx) {
    vertx.close().timeout(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS).await();
  }
}
