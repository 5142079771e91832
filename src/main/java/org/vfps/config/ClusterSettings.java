package org.vfps.config;

import static org.vfps.config.ConfigLoader.bool;
import static org.vfps.config.ConfigLoader.invalid;
import static org.vfps.config.ConfigLoader.port;
import static org.vfps.config.ConfigLoader.positiveTimeSpan;

import java.util.ArrayList;
import java.util.List;

/** The cluster's section ({@code Cluster:*}): its name, members, ports and eviction timeout. */
final class ClusterSettings {

  private ClusterSettings() {}

  static ClusterConfig cluster(FlatSettings settings) {
    String name = settings.required("Cluster:Name").strip();
    if (name.isEmpty()) {
      throw new ConfigException(
          FlatSettings.environmentName("Cluster:Name") + ": must not be blank");
    }
    String membersKey = "Cluster:Members";
    List<String> members = new ArrayList<>();
    for (String member : settings.required(membersKey).split(",")) {
      String address = member.strip();
      if (address.isEmpty()) {
        continue;
      }
      if (!address.matches("[^:\\s]+(:[0-9]{1,5})?")) {
        throw invalid(membersKey, address, "is not a host or host:port");
      }
      members.add(address);
    }
    return new ClusterConfig(
        bool(settings, "Cluster:IsEnabled"),
        name,
        port(settings, "Cluster:Port"),
        members,
        settings.required("Cluster:Kubernetes:ServiceDns").strip(),
        settings.required("Cluster:Host").strip(),
        port(settings, "Cluster:EventBus:Port"),
        positiveTimeSpan(settings, "Cluster:EvictionTimeout"));
  }
}
