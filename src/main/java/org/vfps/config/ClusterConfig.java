package org.vfps.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The clustered event bus that keeps the caches of replicas coherent ({@code Cluster__*}).
 *
 * @param enabled whether to join the cluster ({@code Cluster__IsEnabled})
 * @param name the cluster name replicas of one deployment share ({@code Cluster__Name})
 * @param port the member port; the next free one is taken when it is in use ({@code Cluster__Port})
 * @param members {@code host:port} addresses of members to join ({@code Cluster__Members},
 *     comma-separated); unmodifiable
 * @param kubernetesServiceDns the DNS name of a headless service whose addresses are the members
 *     ({@code Cluster__Kubernetes__ServiceDns}); empty when not in Kubernetes
 * @param host the address this replica binds and announces ({@code Cluster__Host}); empty to let
 *     Hazelcast choose
 * @param eventBusPort the event bus port, 0 for any free one ({@code Cluster__EventBus__Port})
 * @param evictionTimeout how long a namespace delete waits for every member to confirm that it
 *     evicted the namespace ({@code Cluster__EvictionTimeout})
 */
public record ClusterConfig(
    boolean enabled,
    String name,
    int port,
    List<String> members,
    String kubernetesServiceDns,
    String host,
    int eventBusPort,
    Duration evictionTimeout) {

  public ClusterConfig {
    Objects.requireNonNull(name, "name");
    members = List.copyOf(members);
    Objects.requireNonNull(kubernetesServiceDns, "kubernetesServiceDns");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(evictionTimeout, "evictionTimeout");
  }
}
