package org.vfps.auth;

import java.util.Set;

/**
 * Who valid credentials belong to, whatever the request: a token's subject and roles, or a client
 * account's id and roles.
 */
record Identity(String subject, Set<String> roles) {

  Identity {
    roles = Set.copyOf(roles);
  }
}
