/**
 * The FHIR R4 edge: {@code $create-pseudonym} and {@code metadata} on HAPI FHIR structures, with
 * failures as {@code OperationOutcome}s. Independent of the HTTP library; the HTTP verticle mounts
 * it.
 */
package org.vfps.fhir;
