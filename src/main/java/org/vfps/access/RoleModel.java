package org.vfps.access;

import java.util.List;
import java.util.Objects;

/**
 * The role model as configured, for people to read (the admin UI's Access control page): the admin
 * roles and the namespace rules in their order. Decisions go through {@link Permissions}, never
 * through this.
 *
 * @param adminRoles roles that may do everything; unmodifiable
 * @param rules the per-namespace grants; unmodifiable
 */
public record RoleModel(List<String> adminRoles, List<Rule> rules) {

  /** No admin roles and no rules. */
  public static final RoleModel EMPTY = new RoleModel(List.of(), List.of());

  public RoleModel {
    adminRoles = List.copyOf(adminRoles);
    rules = List.copyOf(rules);
  }

  /**
   * One namespace rule, or what the rules together grant on one namespace.
   *
   * @param namespace a namespace name, or {@code *} for every namespace
   * @param readRoles roles that may read
   * @param writeRoles roles that may create pseudonyms
   * @param reverseLookupRoles roles that may look original values up
   */
  public record Rule(
      String namespace,
      List<String> readRoles,
      List<String> writeRoles,
      List<String> reverseLookupRoles) {

    public Rule {
      Objects.requireNonNull(namespace, "namespace");
      readRoles = List.copyOf(readRoles);
      writeRoles = List.copyOf(writeRoles);
      reverseLookupRoles = List.copyOf(reverseLookupRoles);
    }
  }
}
