/**
 * Admission control: the one place that decides whether a replica takes on more work (a bound on
 * requests in flight, on values waiting for the database and on bytes of replies built in memory,
 * beyond which work is refused at once) and whether work for a call is still worth starting (its
 * deadline has not passed and its client has not left). The API edges and the storage ask; none of
 * them decides on its own.
 */
package org.vfps.admission;
