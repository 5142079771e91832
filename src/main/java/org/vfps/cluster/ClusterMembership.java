package org.vfps.cluster;

import java.util.List;

/** Who is in the cluster now; a replica that is not clustered is alone in it. */
public interface ClusterMembership {

  /** This replica's node id, part of the address it confirms evictions on. */
  String localNodeId();

  /** The node ids of every current member, this one included. */
  List<String> nodeIds();

  /**
   * Runs the action when members join or leave, or this replica rejoins after a split: moments
   * after which this replica may have missed events.
   */
  void onChange(Runnable action);

  /** The membership of a replica that is not clustered. */
  static ClusterMembership alone() {
    return new ClusterMembership() {
      @Override
      public String localNodeId() {
        return "local";
      }

      @Override
      public List<String> nodeIds() {
        return List.of(localNodeId());
      }

      @Override
      public void onChange(Runnable action) {}
    };
  }
}
