/**
 * CSV jobs: files in the object store that workers on any replica pseudonymize, de-pseudonymize or
 * import, and namespaces they export. The job model and its lifecycle, {@link
 * org.vfps.job.CsvJobService} for the edges, the runner that turns a file into its result through
 * the pseudonym service's batch methods, and the workers that claim queued jobs from the database,
 * heartbeat them and resume them from their last checkpoint.
 */
package org.vfps.job;
