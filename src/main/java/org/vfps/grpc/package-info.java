/**
 * The gRPC edge on port 8081: the verticle, the binding of the API's methods ({@code org.vfps.rpc})
 * to the server, the status mapping of failures, health and reflection.
 */
package org.vfps.grpc;
