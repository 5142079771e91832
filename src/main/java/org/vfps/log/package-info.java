/**
 * Log lines that a failure can repeat for every call (a lost database, a broken client), throttled
 * so that an outage writes a few lines with counts rather than one line per call. One set per
 * server, created at its start and handed to the API edges. And a logback filter that logs one
 * known, harmless ERROR of Vert.x at DEBUG ({@link org.vfps.log.ResetStreamTrailersFilter}).
 */
package org.vfps.log;
