/**
 * Tracing: the OpenTelemetry SDK as {@code Tracing__*} configures it (samplers, OTLP export over
 * the JDK's HTTP client), the Vert.x tracer that turns requests and SQL statements into spans, and
 * the spans vfps adds (gRPC call names, pseudonym generation). No span carries an original value.
 */
package org.vfps.tracing;
