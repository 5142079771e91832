/**
 * Log lines that a failure can repeat for every call (a lost database, a broken client), throttled
 * so that an outage writes a few lines with counts rather than one line per call. One set per
 * server, created at its start and handed to the API edges. And two logback filters for ERRORs of
 * Vert.x that are no fault of the service: a client's reset of a stream whose reply was queued, at
 * DEBUG ({@link org.vfps.log.ResetStreamTrailersFilter}), and a database connection reset before
 * PostgreSQL answered its request for TLS, also at DEBUG ({@link
 * org.vfps.log.EarlyConnectionResetFilter}).
 */
package org.vfps.log;
