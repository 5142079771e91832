/**
 * Streaming CSV for the server-side CSV jobs: a reader of RFC 4180 records in strict UTF-8 that
 * reports each record's exact bytes and byte offsets, so that a job can resume from a checkpoint,
 * and a writer that quotes only what must be quoted.
 */
package org.vfps.csv;
