/**
 * The API's methods, each defined once for both edges: its request message, its permission, its
 * call into the domain and the mapping of its reply ({@link org.vfps.rpc.ApiMethods}). The gRPC
 * edge serves every method of the table, the REST edge every one the contract routes.
 */
package org.vfps.rpc;
