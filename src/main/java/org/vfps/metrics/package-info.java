/**
 * Metrics: the Prometheus registry and the Vert.x meters on it (HTTP servers, the PostgreSQL pool,
 * the event bus, JVM and process), the meters vfps defines ({@code vfps_*}, gRPC calls), and the
 * verticle that serves them on {@code MetricsPort}. No meter is labelled with an original value.
 */
package org.vfps.metrics;
