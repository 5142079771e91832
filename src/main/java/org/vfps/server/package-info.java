/**
 * The running service: the start-up chain that builds the database, the services and the verticles
 * and the shutdown that drains them, the wiring of metrics and tracing into the hooks of the other
 * packages, the AOT training run, and what the build is (its version and git revision).
 */
package org.vfps.server;
