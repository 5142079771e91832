/**
 * The gRPC edge on port 8081: the verticle, the bindings of {@code NamespaceService} and {@code
 * PseudonymService}, proto mapping, status mapping, health and reflection.
 */
package org.vfps.grpc;
