/**
 * Who may do what: the {@link org.vfps.access.Caller}, the permission rules of the .NET service's
 * role model (admins, per-namespace read, write and reverse-lookup grants), the one decision point
 * {@link org.vfps.access.Access} the domain services call, and the audit trail on the logger named
 * {@value org.vfps.access.Audit#LOGGER}.
 */
package org.vfps.access;
