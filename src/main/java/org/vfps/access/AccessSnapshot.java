package org.vfps.access;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the database says about access at one moment: every grant, indexed by grantee, and every
 * token not revoked, by token id. Immutable, so that a check reads one consistent state; looking a
 * permission up costs a map lookup per role of the caller.
 */
public final class AccessSnapshot {

  /** No grants and no tokens. */
  public static final AccessSnapshot EMPTY = new AccessSnapshot(List.of(), List.of());

  private static final int READ = 1;
  private static final int WRITE = 2;
  private static final int REVERSE_LOOKUP = 4;

  /**
   * The permissions of one grantee: on every namespace, by namespace, and on any namespace at all.
   */
  private record Granted(int everyNamespace, Map<String, Integer> byNamespace, int anywhere) {

    Granted(int everyNamespace, Map<String, Integer> byNamespace) {
      this(
          everyNamespace,
          byNamespace,
          byNamespace.values().stream().reduce(everyNamespace, (a, b) -> a | b));
    }

    int on(String namespace) {
      return everyNamespace | (namespace == null ? 0 : byNamespace.getOrDefault(namespace, 0));
    }
  }

  private final Map<GranteeType, Map<String, Granted>> grantees = new EnumMap<>(GranteeType.class);
  private final Map<String, AccessToken> tokens = new HashMap<>();

  /**
   * @param grants every grant
   * @param activeTokens the tokens not revoked (expired ones included: their expiry is checked on
   *     use)
   */
  public AccessSnapshot(List<Grant> grants, List<AccessToken> activeTokens) {
    Map<GranteeType, Map<String, int[]>> every = new EnumMap<>(GranteeType.class);
    Map<GranteeType, Map<String, Map<String, Integer>>> byNamespace =
        new EnumMap<>(GranteeType.class);
    for (Grant grant : grants) {
      int bits =
          (grant.canRead() ? READ : 0)
              | (grant.canWrite() ? WRITE : 0)
              | (grant.canReverseLookup() ? REVERSE_LOOKUP : 0);
      Map<String, int[]> everyOfType =
          every.computeIfAbsent(grant.granteeType(), type -> new HashMap<>());
      Map<String, Map<String, Integer>> byOfType =
          byNamespace.computeIfAbsent(grant.granteeType(), type -> new HashMap<>());
      everyOfType.computeIfAbsent(grant.grantee(), grantee -> new int[1]);
      Map<String, Integer> namespaces =
          byOfType.computeIfAbsent(grant.grantee(), grantee -> new HashMap<>());
      if (grant.allNamespaces()) {
        everyOfType.get(grant.grantee())[0] |= bits;
      } else {
        namespaces.merge(grant.namespace(), bits, (a, b) -> a | b);
      }
    }
    every.forEach(
        (type, ofType) -> {
          Map<String, Granted> indexed = new HashMap<>();
          ofType.forEach(
              (grantee, bits) ->
                  indexed.put(
                      grantee,
                      new Granted(bits[0], Map.copyOf(byNamespace.get(type).get(grantee)))));
          grantees.put(type, Map.copyOf(indexed));
        });
    for (AccessToken token : activeTokens) {
      tokens.put(token.tokenId(), token);
    }
  }

  /** The token not revoked with this id; null when there is none. */
  public AccessToken token(String tokenId) {
    return tokens.get(tokenId);
  }

  /**
   * Whether a grant gives the caller the permission on the namespace (never {@link
   * Permission#ADMIN}): a service-account token's caller is matched against the grants of its
   * account only, any other caller against those of its roles and its verified e-mail address.
   */
  boolean allows(Caller caller, Permission permission, String namespace) {
    int bit = bit(permission);
    return bit != 0 && (granted(caller, namespace) & bit) != 0;
  }

  /**
   * Whether a grant gives the caller any permission on any namespace: one map lookup per role of
   * the caller (and one for its e-mail address), or one for a service account.
   */
  boolean holdsAnyRight(Caller caller) {
    if (caller.serviceAccount() != null) {
      Granted granted = of(GranteeType.SERVICE_ACCOUNT, caller.serviceAccount());
      return granted != null && granted.anywhere() != 0;
    }
    Map<String, Granted> roles = grantees.get(GranteeType.ROLE);
    if (roles != null) {
      for (String role : caller.roles()) {
        Granted granted = roles.get(role);
        if (granted != null && granted.anywhere() != 0) {
          return true;
        }
      }
    }
    if (caller.email() != null) {
      Granted granted = of(GranteeType.EMAIL, caller.email());
      return granted != null && granted.anywhere() != 0;
    }
    return false;
  }

  /**
   * The namespaces where a grant gives the caller the permission: {@code *} alone when a grant of
   * every namespace does.
   */
  Set<String> namespaces(Caller caller, Permission permission) {
    int bit = bit(permission);
    Set<String> names = new TreeSet<>();
    for (Granted granted : matching(caller)) {
      if ((granted.everyNamespace() & bit) != 0) {
        return Set.of("*");
      }
      granted
          .byNamespace()
          .forEach(
              (name, bits) -> {
                if ((bits & bit) != 0) {
                  names.add(name);
                }
              });
    }
    return names;
  }

  /** The roles a grant gives the permission on the namespace (its own or every namespace's). */
  Set<String> roles(Permission permission, String namespace) {
    int bit = bit(permission);
    Set<String> roles = new TreeSet<>();
    grantees
        .getOrDefault(GranteeType.ROLE, Map.of())
        .forEach(
            (role, granted) -> {
              if ((granted.on(namespace) & bit) != 0) {
                roles.add(role);
              }
            });
    return roles;
  }

  private int granted(Caller caller, String namespace) {
    if (caller.serviceAccount() != null) {
      Granted granted = of(GranteeType.SERVICE_ACCOUNT, caller.serviceAccount());
      return granted == null ? 0 : granted.on(namespace);
    }
    int bits = 0;
    Map<String, Granted> roles = grantees.get(GranteeType.ROLE);
    if (roles != null) {
      for (String role : caller.roles()) {
        Granted granted = roles.get(role);
        if (granted != null) {
          bits |= granted.on(namespace);
        }
      }
    }
    if (caller.email() != null) {
      Granted granted = of(GranteeType.EMAIL, caller.email());
      if (granted != null) {
        bits |= granted.on(namespace);
      }
    }
    return bits;
  }

  private List<Granted> matching(Caller caller) {
    if (caller.serviceAccount() != null) {
      Granted granted = of(GranteeType.SERVICE_ACCOUNT, caller.serviceAccount());
      return granted == null ? List.of() : List.of(granted);
    }
    List<Granted> matching = new ArrayList<>();
    for (String role : caller.roles()) {
      Granted granted = of(GranteeType.ROLE, role);
      if (granted != null) {
        matching.add(granted);
      }
    }
    if (caller.email() != null) {
      Granted granted = of(GranteeType.EMAIL, caller.email());
      if (granted != null) {
        matching.add(granted);
      }
    }
    return matching;
  }

  private Granted of(GranteeType type, String grantee) {
    Map<String, Granted> ofType = grantees.get(type);
    return ofType == null ? null : ofType.get(grantee);
  }

  private static int bit(Permission permission) {
    return switch (permission) {
      case READ -> READ;
      case WRITE -> WRITE;
      case REVERSE_LOOKUP -> REVERSE_LOOKUP;
      case ADMIN -> 0;
    };
  }
}
