package org.vfps.access;

import java.util.Objects;
import java.util.Set;

/**
 * Who makes a request, as the edge authenticated it: what the permission rules and the audit trail
 * need.
 *
 * @param subject the token's {@code sub}, a client account's id, or {@value #ANONYMOUS}
 * @param roles the caller's roles; unmodifiable
 * @param clientAddress the address the request came from, for the audit trail
 */
public record Caller(String subject, Set<String> roles, String clientAddress) {

  /** The subject of a caller that did not authenticate (authorization off) or has no subject. */
  public static final String ANONYMOUS = "anonymous";

  public Caller {
    Objects.requireNonNull(subject, "subject");
    roles = Set.copyOf(roles);
    Objects.requireNonNull(clientAddress, "clientAddress");
  }

  /** A caller without credentials or roles, as every caller is when authorization is off. */
  public static Caller anonymous(String clientAddress) {
    return new Caller(ANONYMOUS, Set.of(), clientAddress);
  }
}
