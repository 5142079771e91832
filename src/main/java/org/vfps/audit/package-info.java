/**
 * The audit trail's tamper evidence: {@link org.vfps.audit.AuditChain} chains every audit line of a
 * process by a sequence number and a hash and writes signed checkpoints of the chain on their own
 * logger; {@link org.vfps.audit.AuditCommand} is {@code vfps audit}, which verifies collected logs
 * against both and makes checkpoint keys.
 */
package org.vfps.audit;
