package org.vfps.access;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The one decision point the domain services call: whether a caller may run an operation on a
 * namespace, with every denial written to the audit trail and counted, and the audited operations'
 * outcomes written to it. Thread-safe.
 */
public final class Access {

  /** Counts denied calls; called on the request's context, must not block or throw. */
  @FunctionalInterface
  public interface DeniedCalls {

    /** Counts nothing. */
    DeniedCalls NONE = operation -> {};

    void denied(Operation operation);
  }

  private final Permissions permissions;
  private final Audit audit;
  private final DeniedCalls deniedCalls;

  public Access(Permissions permissions, Audit audit, DeniedCalls deniedCalls) {
    this.permissions = Objects.requireNonNull(permissions, "permissions");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.deniedCalls = Objects.requireNonNull(deniedCalls, "deniedCalls");
  }

  /** Authorization off: every caller may do everything; audited operations are still written. */
  public static Access open(Audit audit) {
    return new Access(Permissions.EVERYONE, audit, DeniedCalls.NONE);
  }

  /**
   * Succeeds when the caller has every permission {@code operation} needs on the namespace; else
   * fails with {@code PERMISSION_DENIED}, written to the audit trail and counted; the namespace
   * operations' messages are the .NET vfps's.
   */
  public Future<Void> check(Caller caller, Operation operation, String namespace) {
    if (operation.permissions().isEmpty()) {
      return Future.succeededFuture();
    }
    Future<Void> fresh = permissions.fresh();
    return fresh.succeeded()
        ? decide(caller, operation, namespace)
        : fresh.compose(current -> decide(caller, operation, namespace));
  }

  /**
   * The caller, when it may try {@code operation} at all: it holds some right ({@link
   * Permissions#holdsAnyRight}), or the operation needs none ({@link Operation#needsAnyRight});
   * else fails with {@code PERMISSION_DENIED}, written to the audit trail and counted. The
   * authenticator asks right after authentication, before the call takes a place in admission
   * control, so that callers without any right can never fill a replica. Answered from current
   * grants, as {@link #check} is: at once while the kept ones are current, else once they are read
   * again, so that a right granted or taken a moment ago counts and both checks say the same.
   */
  public Future<Caller> entitled(Caller caller, Operation operation) {
    if (!operation.needsAnyRight()) {
      return Future.succeededFuture(caller);
    }
    Future<Void> fresh = permissions.fresh();
    return fresh.succeeded()
        ? holdingAnyRight(caller, operation)
        : fresh.compose(current -> holdingAnyRight(caller, operation));
  }

  private Future<Caller> holdingAnyRight(Caller caller, Operation operation) {
    return permissions.holdsAnyRight(caller)
        ? Future.succeededFuture(caller)
        : deny(
            caller,
            operation,
            "The caller has no right on any namespace: no admin role, and no role, e-mail address"
                + " or service account that may read, write or look up.");
  }

  /**
   * Completes once {@link #canRead} answers from current grants; fails {@code UNAVAILABLE} when
   * they cannot be read.
   */
  public Future<Void> fresh() {
    return permissions.fresh();
  }

  private Future<Void> decide(Caller caller, Operation operation, String namespace) {
    for (Permission permission : operation.permissions()) {
      if (!permissions.allows(caller, permission, namespace)) {
        audit.denied(caller, operation, namespace);
        deniedCalls.denied(operation);
        return Future.failedFuture(
            new ServiceException(
                ErrorCode.PERMISSION_DENIED,
                deniedMessage(operation, permission, namespace),
                namespace == null ? Map.of() : Map.of("namespace", namespace)));
      }
    }
    return Future.succeededFuture();
  }

  /** Whether the caller is an admin (never a service-account token's caller). */
  public boolean isAdmin(Caller caller) {
    return permissions.allows(caller, Permission.ADMIN, null);
  }

  /**
   * Fails with {@code PERMISSION_DENIED} and {@code message}, written to the audit trail and
   * counted: for the checks the services make themselves (whose token it is, how the caller
   * authenticated).
   */
  public <T> Future<T> deny(Caller caller, Operation operation, String message) {
    audit.denied(caller, operation, null);
    deniedCalls.denied(operation);
    return Future.failedFuture(new ServiceException(ErrorCode.PERMISSION_DENIED, message));
  }

  /** Whether the caller may read the namespace (what {@code GetAll} shows). */
  public boolean canRead(Caller caller, String namespace) {
    return permissions.allows(caller, Permission.READ, namespace);
  }

  /**
   * Writes the outcome of an audited operation to the audit trail when {@code outcome} completes,
   * and returns it.
   *
   * @param pseudonym the pseudonym of a reverse lookup; null for other operations
   */
  public <T> Future<T> audited(
      Caller caller, Operation operation, String namespace, String pseudonym, Future<T> outcome) {
    return outcome.andThen(
        done ->
            audit.completed(
                caller, operation, namespace, pseudonym, done.succeeded() ? null : done.cause()));
  }

  /**
   * Writes the reverse lookups of {@code pseudonyms} to the audit trail when {@code outcome}, their
   * results in that order, completes, a line per pseudonym or one for the call (see {@link
   * Audit#lookups}): each result's outcome as {@code outcomeOf} names it ({@value Audit#OK} for a
   * pseudonym found, {@code WITHDRAWN}, {@code NOT_FOUND}, or the code of a value refused on its
   * own, such as {@code INVALID_ARGUMENT}), the failure's code for each when the lookups failed.
   * Returns {@code outcome}.
   */
  public <T> Future<List<T>> auditedLookups(
      Caller caller,
      Operation operation,
      String namespace,
      List<String> pseudonyms,
      Future<List<T>> outcome,
      Function<T, String> outcomeOf) {
    return outcome.andThen(
        done -> {
          String failed = done.succeeded() ? null : Audit.outcome(done.cause());
          List<String> outcomes = new ArrayList<>(pseudonyms.size());
          for (int i = 0; i < pseudonyms.size(); i++) {
            outcomes.add(failed != null ? failed : outcomeOf.apply(done.result().get(i)));
          }
          audit.lookups(caller, operation, namespace, pseudonyms, outcomes, failed);
        });
  }

  /**
   * Writes the lines of a withdrawal to the audit trail when {@code outcome} completes: for each
   * original value (never named), a line {@code OK} per pseudonym it had, or one {@code NOT_FOUND}
   * line when it had none; one line with the failure's code when the withdrawal failed. When some
   * replicas did not confirm dropping the pseudonyms from their caches, each line names them
   * ({@code unconfirmed}).
   *
   * @param outcome the pseudonyms withdrawn of each original value
   * @param unconfirmed the replicas that did not confirm; completes with {@code outcome}
   */
  public void auditedWithdrawals(
      Caller caller,
      Operation operation,
      String namespace,
      Future<List<List<String>>> outcome,
      Future<Set<String>> unconfirmed) {
    outcome.onComplete(
        done -> {
          if (done.failed()) {
            audit.completed(caller, operation, namespace, null, done.cause());
            return;
          }
          Map<String, String> more =
              unconfirmed.succeeded() && !unconfirmed.result().isEmpty()
                  ? Map.of("unconfirmed", String.join(",", unconfirmed.result()))
                  : Map.of();
          for (List<String> pseudonyms : done.result()) {
            if (pseudonyms.isEmpty()) {
              audit.completed(caller, operation, namespace, null, ErrorCode.NOT_FOUND.name(), more);
            }
            for (String pseudonym : pseudonyms) {
              audit.completed(caller, operation, namespace, pseudonym, Audit.OK, more);
            }
          }
        });
  }

  /**
   * Writes an event of a CSV job to the audit trail (its creation, a download URL of its result
   * issued, its end): one line per namespace of the job, a line without a namespace for null (every
   * namespace).
   *
   * @param outcome {@value Audit#OK}, or the error code, or how the job ended
   * @param what the job's id, its direction and what the event adds, in that order; never a value
   *     of its files
   */
  public void auditJob(
      Caller caller,
      Operation operation,
      Collection<String> namespaces,
      String outcome,
      Map<String, String> what) {
    for (String namespace : namespaces) {
      audit.job(caller, operation, namespace, outcome, what);
    }
  }

  /** The audit trail, for the edges to write calls without valid credentials. */
  public Audit audit() {
    return audit;
  }

  /** The namespace operations answer in the .NET vfps 1.22's words, the others in ours. */
  private static String deniedMessage(
      Operation operation, Permission permission, String namespace) {
    return switch (operation) {
      case NAMESPACE_CREATE -> "Creating a namespace requires admin access.";
      case NAMESPACE_DELETE -> "Deleting a namespace requires admin access.";
      case NAMESPACE_GET, NAMESPACE_LIST_CHILDREN ->
          "Read access to namespace '" + namespace + "' is required.";
      case PSEUDONYM_DELETE,
          PSEUDONYM_BATCH_DELETE,
          PSEUDONYM_ANONYMIZE,
          PSEUDONYM_BATCH_ANONYMIZE ->
          "Withdrawing original values needs both the write and the reverse-lookup permission of"
              + " the namespace: the caller may not "
              + describe(permission)
              + ".";
      default ->
          operation.rpcName().startsWith("AccessService/")
              ? "Managing access grants and service accounts requires admin access."
              : "The caller may not " + describe(permission) + ".";
    };
  }

  private static String describe(Permission permission) {
    return switch (permission) {
      case ADMIN -> "administer namespaces";
      case READ -> "read this namespace";
      case WRITE -> "create pseudonyms in this namespace";
      case REVERSE_LOOKUP -> "look up original values in this namespace";
    };
  }
}
