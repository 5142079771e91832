/**
 * The HTTP edge on port 8080: the API's methods ({@code org.vfps.rpc}) on the REST routes of their
 * {@code google.api.http} rules, bound and validated from the OpenAPI contract, protobuf JSON, the
 * error body, the probes and the API docs; the FHIR operations are mounted here too.
 */
package org.vfps.http;
