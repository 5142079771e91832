/**
 * The clustered event bus (Hazelcast): forming the cluster, its membership, namespace events across
 * replicas and the verticle that evicts caches when they arrive.
 */
package org.vfps.cluster;
