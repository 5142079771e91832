/**
 * The text the edges receive: a request's media type with its parameters (the charset among them),
 * and bytes decoded strictly, so that the REST and FHIR edges and the Basic credentials read text
 * one way.
 */
package org.vfps.text;
