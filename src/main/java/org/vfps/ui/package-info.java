/**
 * The admin pages under {@code /ui}: static HTML, CSS and JavaScript modules served from the jar,
 * and the session endpoint they read. The pages act through the REST API like any other client.
 */
package org.vfps.ui;
