package org.vfps.namespace;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Creates, reads and deletes namespaces with the rules of the .NET vfps, plus the limits of {@link
 * TextLimits}. Thread-safe. Futures fail with {@link ServiceException}; validation failures are
 * thrown before any database access.
 */
public final class NamespaceService {

  static final String NOT_FOUND_MESSAGE = "The requested pseudonym namespace does not exist.";

  private final NamespaceRepository repository;
  private final Clock clock;
  private final NamespaceEvents events;

  public NamespaceService(NamespaceRepository repository, Clock clock) {
    this(repository, clock, NamespaceEvents.NONE);
  }

  /** A service that reports every namespace it creates or deletes to {@code events}. */
  public NamespaceService(NamespaceRepository repository, Clock clock, NamespaceEvents events) {
    this.repository = repository;
    this.clock = clock;
    this.events = events;
  }

  /**
   * Validates and stores a new namespace.
   *
   * <p>Fails with {@code INVALID_ARGUMENT} (blank or oversized text, unknown method), {@code
   * OUT_OF_RANGE} (length 0, above {@link TextLimits#MAX_PSEUDONYM_LENGTH}, or not the fixed length
   * of the method) or {@code ALREADY_EXISTS}.
   */
  public Future<Namespace> create(NamespaceDraft draft) {
    return Future.<Namespace>future(promise -> promise.complete(validate(draft)))
        .compose(repository::insert)
        .onSuccess(created -> events.created(created.name()));
  }

  /** Creates the namespace unless one of that name exists; yields whether it was created. */
  public Future<Boolean> createIfAbsent(NamespaceDraft draft) {
    return Future.<Namespace>future(promise -> promise.complete(validate(draft)))
        .compose(
            namespace ->
                repository
                    .insertIfAbsent(namespace)
                    .onSuccess(
                        created -> {
                          if (created) {
                            events.created(namespace.name());
                          }
                        }));
  }

  /** The namespace of that name; fails with {@code NOT_FOUND} if there is none. */
  public Future<Namespace> get(String name) {
    if (!TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)) {
      return Future.failedFuture(notFound(name));
    }
    return repository.find(name).map(found -> found.orElseThrow(() -> notFound(name)));
  }

  /** Every namespace, in no particular order. */
  public Future<List<Namespace>> getAll() {
    return repository.findAll();
  }

  /** Deletes the namespace and all its pseudonyms; fails with {@code NOT_FOUND} if absent. */
  public Future<Void> delete(String name) {
    if (!TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)) {
      return Future.failedFuture(notFound(name));
    }
    return repository
        .delete(name)
        .map(
            existed -> {
              if (!existed) {
                throw notFound(name);
              }
              events.deleted(name);
              return null;
            });
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
