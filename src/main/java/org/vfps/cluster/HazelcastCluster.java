package org.vfps.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.LifecycleEvent;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.Map;
import org.vfps.config.ClusterConfig;

/**
 * Builds a clustered Vert.x on Hazelcast from {@link ClusterConfig}: members found by a fixed list
 * or a Kubernetes headless service; multicast, cloud auto-detection and phone-home off, so nothing
 * reaches outside the deployment.
 */
public final class HazelcastCluster implements ClusterMembership {

  private static final String SUBSCRIPTIONS = "__vertx.subs";
  private static final String HA_INFO = "__vertx.haInfo";
  private static final String NODE_INFO = "__vertx.nodeInfo";

  private final HazelcastClusterManager manager;

  private HazelcastCluster(HazelcastClusterManager manager) {
    this.manager = manager;
  }

  /** Vert.x options whose event bus listens where {@link ClusterConfig} says. */
  public static VertxOptions options(ClusterConfig cluster) {
    VertxOptions options = new VertxOptions();
    EventBusOptions eventBus = options.getEventBusOptions().setPort(cluster.eventBusPort());
    if (!cluster.host().isEmpty()) {
      eventBus.setHost(cluster.host());
    }
    return options;
  }

  /**
   * Joins the cluster with Vert.x from {@code builder} (made with {@link #options}); blocks until
   * this replica is a member.
   */
  public static ClusteredVertx join(ClusterConfig cluster, VertxBuilder builder) {
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcastConfig(cluster));
    Vertx vertx = builder.withClusterManager(manager).buildClustered().await();
    return new ClusteredVertx(vertx, new HazelcastCluster(manager));
  }

  /** A clustered Vert.x and its membership. */
  public record ClusteredVertx(Vertx vertx, ClusterMembership membership) {}

  /**
   * Hazelcast sized for what it carries here: the Vert.x event bus's subscriptions and a few
   * namespace events, rare and tiny, among a handful of replicas of 1 CPU. Its defaults (271
   * partitions, thread pools sized for big machines, metrics and health monitors) cost a replica
   * more memory than the service itself. Every member must use the same partition count.
   */
  private static final Map<String, String> SIZING =
      Map.ofEntries(
          Map.entry("hazelcast.partition.count", "11"),
          Map.entry("hazelcast.operation.thread.count", "1"),
          Map.entry("hazelcast.operation.generic.thread.count", "1"),
          Map.entry("hazelcast.operation.response.thread.count", "1"),
          Map.entry("hazelcast.io.thread.count", "1"),
          Map.entry("hazelcast.io.balancer.interval.seconds", "-1"),
          Map.entry("hazelcast.event.thread.count", "1"),
          Map.entry("hazelcast.socket.receive.buffer.size", "32"),
          Map.entry("hazelcast.socket.send.buffer.size", "32"),
          Map.entry("hazelcast.health.monitoring.level", "OFF"),
          Map.entry("hazelcast.slow.operation.detector.enabled", "false"));

  static Config hazelcastConfig(ClusterConfig cluster) {
    Config config = new Config();
    // what vertx-hazelcast's default-cluster.xml declares, the structures its event bus needs;
    // they keep their backup, since they must survive a member's death
    config.addMultiMapConfig(
        new MultiMapConfig(SUBSCRIPTIONS)
            .setBackupCount(1)
            .setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
    config.addMapConfig(new MapConfig(HA_INFO).setBackupCount(1));
    config.addMapConfig(new MapConfig(NODE_INFO).setBackupCount(1));
    config.setClusterName(cluster.name());
    SIZING.forEach(config::setProperty);
    config.getMetricsConfig().setEnabled(false);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    // Vert.x leaves the cluster when it closes; Hazelcast's own hook would race it
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(cluster.port()).setPortAutoIncrement(true);
    if (!cluster.host().isEmpty()) {
      network.getInterfaces().setEnabled(true).addInterface(cluster.host());
    }
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    if (!cluster.kubernetesServiceDns().isEmpty()) {
      join.getTcpIpConfig().setEnabled(false);
      join.getKubernetesConfig()
          .setEnabled(true)
          .setProperty("service-dns", cluster.kubernetesServiceDns())
          // the members behind the service listen on the configured port, not only on 5701
          .setProperty("service-port", Integer.toString(cluster.port()));
    } else {
      join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
    }
    return config;
  }

  @Override
  public String localNodeId() {
    return manager.getNodeId();
  }

  @Override
  public List<String> nodeIds() {
    return manager.getNodes();
  }

  @Override
  public void onChange(Runnable action) {
    var instance = manager.getHazelcastInstance();
    instance
        .getCluster()
        .addMembershipListener(
            new MembershipListener() {
              @Override
              public void memberAdded(MembershipEvent event) {
                action.run();
              }

              @Override
              public void memberRemoved(MembershipEvent event) {
                action.run();
              }
            });
    instance
        .getLifecycleService()
        .addLifecycleListener(
            event -> {
              if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                action.run();
              }
            });
  }
}
