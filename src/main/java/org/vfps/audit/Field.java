package org.vfps.audit;

/** A key-value pair of an audit line, its value as the log shows it. */
record Field(String key, String value) {}
