/**
 * PostgreSQL: the repositories and their SQL, failure translation, the Flyway migrations and the
 * embedded development database. Nothing outside this package sees the pg client or JDBC.
 */
package org.vfps.storage;
