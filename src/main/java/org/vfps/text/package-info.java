/**
 * The text the edges receive: a request's media type with its parameters (the charset among them),
 * and bytes and percent escapes decoded strictly, so that the REST and FHIR edges, the Basic
 * credentials and the database URL read text one way.
 */
package org.vfps.text;
