/**
 * Limits on the connections of the HTTP and gRPC listeners: how long a new connection may take to
 * send a complete request head, how long a connection may stay without requests, how old it may
 * grow, and keepalive pings that find dead peers. Both API verticles hold their connections to
 * them.
 */
package org.vfps.connection;
