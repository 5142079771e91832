package org.vfps.namespace;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Creates, reads and deletes namespaces with the rules of the .NET vfps, plus the limits of {@link
 * TextLimits}. Each operation checks its caller through {@link Access} first, as {@link Operation}
 * says, and fails with {@code PERMISSION_DENIED} when the caller lacks the permission. Thread-safe.
 * Futures fail with {@link ServiceException}; validation failures come before any database access.
 */
public final class NamespaceService {

  /** Namespaces read per page by {@link #getAll}: at most about 0.5 MB of text. */
  static final int PAGE_SIZE = 100;

  static final String NOT_FOUND_MESSAGE = "The requested pseudonym namespace does not exist.";

  private final NamespaceRepository repository;
  private final NamespaceEvents events;
  private final Clock clock;
  private final Access access;

  public NamespaceService(
      NamespaceRepository repository, NamespaceEvents events, Clock clock, Access access) {
    this.repository = repository;
    this.events = events;
    this.clock = clock;
    this.access = access;
  }

  /**
   * Validates and stores a new namespace.
   *
   * <p>Fails with {@code INVALID_ARGUMENT} (blank or oversized text, unknown method), {@code
   * OUT_OF_RANGE} (length 0, above {@link TextLimits#MAX_PSEUDONYM_LENGTH}, or not the fixed length
   * of the method) or {@code ALREADY_EXISTS}; first with {@code PERMISSION_DENIED} unless the
   * caller is an admin.
   */
  public Future<Namespace> create(Caller caller, NamespaceDraft draft) {
    Operation operation = Operation.NAMESPACE_CREATE;
    return access
        .check(caller, operation, draft.name())
        .compose(
            allowed ->
                access.audited(
                    caller,
                    operation,
                    draft.name(),
                    null,
                    Future.<Namespace>future(promise -> promise.complete(validate(draft)))
                        .compose(repository::insert)
                        .onSuccess(created -> events.created(created.name()))));
  }

  /**
   * Creates the namespace unless one of that name exists; yields whether it was created. The
   * service's own start-up seeding: no caller, no permission check.
   */
  public Future<Boolean> createIfAbsent(NamespaceDraft draft) {
    return Future.<Namespace>future(promise -> promise.complete(validate(draft)))
        .compose(repository::insertIfAbsent)
        .onSuccess(
            created -> {
              if (created) {
                events.created(draft.name());
              }
            });
  }

  /**
   * The namespace of that name; fails with {@code NOT_FOUND} if there is none, then with {@code
   * PERMISSION_DENIED} if the caller may not read it.
   */
  public Future<Namespace> get(Caller caller, String name) {
    return resolve(name)
        .compose(
            found ->
                access.check(caller, Operation.NAMESPACE_GET, found.name()).map(allowed -> found));
  }

  /**
   * The namespace of that name, without a permission check: for the other domain services, which
   * check their caller themselves. Fails with {@code NOT_FOUND} if there is none.
   */
  public Future<Namespace> resolve(String name) {
    if (!TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)) {
      return Future.failedFuture(notFound(name));
    }
    return repository.find(name).map(found -> found.orElseThrow(() -> notFound(name)));
  }

  /**
   * Hands every namespace the caller may read to {@code writer}, a page of at most {@value
   * #PAGE_SIZE} at a time, in name order; the next page is read only once the writer's future for
   * the previous one has completed, so that no more than one page is held per call however many
   * namespaces there are. Pages may be empty. Fails as soon as a read or the writer fails.
   */
  public Future<Void> getAll(Caller caller, Function<List<Namespace>, Future<?>> writer) {
    Promise<Void> done = Promise.promise();
    writePagesAfter("", caller, writer, done);
    return done.future();
  }

  /**
   * Reads and writes one page, then the next one from a fresh future: a chain composed page after
   * page would keep every page reachable until the last one is written.
   */
  private void writePagesAfter(
      String after,
      Caller caller,
      Function<List<Namespace>, Future<?>> writer,
      Promise<Void> done) {
    repository
        .findPage(after, PAGE_SIZE)
        .compose(
            page -> {
              String next = page.size() < PAGE_SIZE ? null : page.getLast().name();
              List<Namespace> readable =
                  page.stream()
                      .filter(namespace -> access.canRead(caller, namespace.name()))
                      .toList();
              return writer.apply(readable).map(written -> next);
            })
        .onFailure(done::fail)
        .onSuccess(
            next -> {
              if (next == null) {
                done.complete();
              } else {
                writePagesAfter(next, caller, writer, done);
              }
            });
  }

  /**
   * Deletes the namespace and all its pseudonyms; fails with {@code PERMISSION_DENIED} unless the
   * caller is an admin, then with {@code NOT_FOUND} if absent. Completes after the deletion is
   * committed and every replica has evicted the namespace from its caches.
   */
  public Future<Void> delete(Caller caller, String name) {
    Operation operation = Operation.NAMESPACE_DELETE;
    return access
        .check(caller, operation, name)
        .compose(allowed -> access.audited(caller, operation, name, null, deleteNamespace(name)));
  }

  private Future<Void> deleteNamespace(String name) {
    if (!TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)) {
      return Future.failedFuture(notFound(name));
    }
    return repository
        .delete(name)
        .compose(existed -> existed ? events.deleted(name) : Future.failedFuture(notFound(name)));
  }

  /** The failure for a namespace that does not exist, with its name as metadata. */
  public static ServiceException notFound(String name) {
    return new ServiceException(ErrorCode.NOT_FOUND, NOT_FOUND_MESSAGE, Map.of("namespace", name));
  }

  private Namespace validate(NamespaceDraft draft) {
    String name = Objects.requireNonNullElse(draft.name(), "");
    Map<String, String> metadata = Map.of("namespace", name);
    if (name.isBlank()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "The namespace name must not be blank.", metadata);
    }
    TextLimits.check("namespace name", name, TextLimits.MAX_NAME_BYTES, metadata);
    String description = Objects.requireNonNullElse(draft.description(), "");
    String prefix = Objects.requireNonNullElse(draft.pseudonymPrefix(), "");
    String suffix = Objects.requireNonNullElse(draft.pseudonymSuffix(), "");
    TextLimits.check("description", description, TextLimits.MAX_DESCRIPTION_BYTES, metadata);
    TextLimits.check("pseudonym prefix", prefix, TextLimits.MAX_AFFIX_BYTES, metadata);
    TextLimits.check("pseudonym suffix", suffix, TextLimits.MAX_AFFIX_BYTES, metadata);
    GenerationMethod method =
        GenerationMethod.fromNumber(draft.generationMethod())
            .orElseThrow(
                () ->
                    new ServiceException(
                        ErrorCode.INVALID_ARGUMENT,
                        "Unknown pseudonym generation method " + draft.generationMethod() + ".",
                        metadata));
    long length = draft.pseudonymLength();
    if (length <= 0) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE, "Pseudonym length must be larger than 0.", metadata);
    }
    OptionalInt fixedLength = method.fixedLength();
    if (fixedLength.isPresent() && length != fixedLength.getAsInt()) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE,
          "The pseudonym generation method "
              + method.dotnetName()
              + " requires a pseudonym length of exactly "
              + fixedLength.getAsInt()
              + ".",
          metadata);
    }
    if (length > TextLimits.MAX_PSEUDONYM_LENGTH) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE,
          "Pseudonym length must not be larger than " + TextLimits.MAX_PSEUDONYM_LENGTH + ".",
          metadata);
    }
    // PostgreSQL keeps microseconds; truncating here makes the reply equal the stored row.
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    return new Namespace(name, description, method, length, prefix, suffix, now, now);
  }
}
