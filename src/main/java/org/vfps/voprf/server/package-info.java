/**
 * The VOPRF server, {@code java -jar vfps.jar voprf-server}: one key, gRPC {@code
 * vfps.voprf.v1.VoprfService} and {@code grpc.health.v1.Health}, with its own start-up; it shares
 * nothing with vfps's database, cluster or HTTP listener. Hardened by default: TLS, client
 * certificates or JWTs, a rate limit, an audit line per evaluation.
 */
package org.vfps.voprf.server;
