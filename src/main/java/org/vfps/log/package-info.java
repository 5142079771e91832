/**
 * Log lines that a failure can repeat for every call (a lost database, a broken client), throttled
 * so that an outage writes a few lines with counts rather than one line per call. One set per
 * server, created at its start and handed to the API edges.
 */
package org.vfps.log;
