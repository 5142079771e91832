/**
 * The one typed configuration tree of vfps, loaded once at start-up: the defaults in {@code
 * conf/appsettings.json}, then environment variables with the .NET names ({@code :} written as
 * {@code __}). Nothing outside this package reads environment variables.
 */
package org.vfps.config;
