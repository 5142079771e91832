package org.vfps.namespace;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Creates, reads, lists and deletes namespaces with the rules of the .NET vfps 1.22, plus the
 * limits of {@link TextLimits}. Each operation checks its caller through {@link Access} first, as
 * {@link Operation} says, and fails with {@code PERMISSION_DENIED} when the caller lacks the
 * permission. Thread-safe. Futures fail with {@link ServiceException}; validation failures come
 * before any database access.
 */
public final class NamespaceService {

  /** Namespaces read per page by {@link #getAll}: at most about 0.5 MB of text. */
  static final int PAGE_SIZE = 100;

  private final NamespaceRepository repository;
  private final NamespaceEvents events;
  private final Clock clock;
  private final Access access;
  private final GenerationSupport generation;

  /**
   * A service whose new namespaces may use the methods {@code generation} lets make new pseudonyms.
   */
  public NamespaceService(
      NamespaceRepository repository,
      NamespaceEvents events,
      Clock clock,
      Access access,
      GenerationSupport generation) {
    this.repository = repository;
    this.events = events;
    this.clock = clock;
    this.access = access;
    this.generation = Objects.requireNonNull(generation, "generation");
  }

  /**
   * Validates and stores a new namespace.
   *
   * <p>Fails first with {@code PERMISSION_DENIED} unless the caller is an admin; then, in the .NET
   * vfps's order, with {@code INVALID_ARGUMENT} (blank name), {@code OUT_OF_RANGE} (length 0),
   * {@code INVALID_ARGUMENT} (unknown method) or {@code FAILED_PRECONDITION} (a method that makes
   * no new pseudonyms here, see {@link GenerationSupport}), {@code INVALID_ARGUMENT} (multiple
   * pseudonyms with VOPRF), {@code OUT_OF_RANGE} (not the method's fixed length, or above {@link
   * TextLimits#MAX_PSEUDONYM_LENGTH}), {@code INVALID_ARGUMENT} (an alphabet method's format
   * refused) or {@code OUT_OF_RANGE} (its settings make fewer than {@link
   * NamespaceCapacity#MINIMUM_DISTINCT_PSEUDONYMS} pseudonyms), {@code INVALID_ARGUMENT} (a regex
   * RE2/J refuses, a parent validation mode without a parent, the namespace as its own parent),
   * {@code NOT_FOUND} (the parent, named by the {@code namespace} metadata) and {@code
   * ALREADY_EXISTS}. Oversized or NUL-containing text is {@code INVALID_ARGUMENT} beside the check
   * of its field.
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
                        .compose(this::requireParent)
                        .compose(repository::insert)
                        .onSuccess(created -> events.created(created.name()))));
  }

  /**
   * The namespace once its parent, if it has one, is found; a parent deleted before the insert is
   * caught by the foreign key, which the repository reports as the same {@code NOT_FOUND}.
   */
  private Future<Namespace> requireParent(Namespace namespace) {
    if (namespace.parentName() == null) {
      return Future.succeededFuture(namespace);
    }
    return repository
        .find(namespace.parentName())
        .map(
            parent -> {
              if (parent.isEmpty()) {
                throw NamespaceFailures.parentNotFound(namespace.parentName());
              }
              return namespace;
            });
  }

  /**
   * Creates the namespace unless one of that name exists; yields whether it was created. The
   * service's own start-up seeding: no caller, no permission check.
   */
  public Future<Boolean> createIfAbsent(NamespaceDraft draft) {
    return Future.<Namespace>future(promise -> promise.complete(validate(draft)))
        .recover(failure -> existingOfRefusedMethod(draft, failure))
        .compose(
            namespace ->
                namespace == null
                    ? Future.succeededFuture(false)
                    : requireParent(namespace).compose(repository::insertIfAbsent))
        .onSuccess(
            created -> {
              if (created) {
                events.created(draft.name());
              }
            });
  }

  /**
   * A seed whose method makes no new pseudonyms here (SHA-256 turned off) is no error while its
   * namespace exists, since nothing is created: yields null then, else fails with {@code failure}.
   */
  private Future<Namespace> existingOfRefusedMethod(NamespaceDraft draft, Throwable failure) {
    if (!(failure instanceof ServiceException service)
        || service.code() != ErrorCode.FAILED_PRECONDITION) {
      return Future.failedFuture(failure);
    }
    return repository
        .find(draft.name())
        .compose(
            found -> found.isPresent() ? Future.succeededFuture() : Future.failedFuture(failure));
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
      return Future.failedFuture(NamespaceFailures.notFound(name));
    }
    return repository
        .find(name)
        .map(found -> found.orElseThrow(() -> NamespaceFailures.notFound(name)));
  }

  /**
   * Hands every namespace the caller may read to {@code writer}, a page of at most {@value
   * #PAGE_SIZE} at a time, in name order; the next page is read only once the writer's future for
   * the previous one has completed, so that no more than one page is held per call however many
   * namespaces there are. Pages may be empty. Fails as soon as a read or the writer fails.
   */
  public Future<Void> getAll(Caller caller, Function<List<Namespace>, Future<?>> writer) {
    Promise<Void> done = Promise.promise();
    access
        .fresh()
        .onSuccess(current -> writePagesAfter("", caller, writer, done))
        .onFailure(done::fail);
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
   * The direct children of the namespace (those whose parent it is) that the caller may read, in
   * name order. Fails with {@code NOT_FOUND} if the namespace does not exist, then with {@code
   * PERMISSION_DENIED} if the caller may not read it.
   */
  public Future<List<Namespace>> listChildren(Caller caller, String name) {
    return resolve(name)
        .compose(
            parent ->
                access
                    .check(caller, Operation.NAMESPACE_LIST_CHILDREN, parent.name())
                    .map(allowed -> parent))
        .compose(parent -> repository.findChildren(parent.name()))
        .map(
            children ->
                children.stream().filter(child -> access.canRead(caller, child.name())).toList());
  }

  /**
   * Deletes the namespace and all its pseudonyms; fails with {@code PERMISSION_DENIED} unless the
   * caller is an admin, then with {@code NOT_FOUND} if absent, then with {@code
   * FAILED_PRECONDITION} while other namespaces name it as their parent. Completes after the
   * deletion is committed and every replica has evicted the namespace from its caches.
   */
  public Future<Void> delete(Caller caller, String name) {
    Operation operation = Operation.NAMESPACE_DELETE;
    return access
        .check(caller, operation, name)
        .compose(allowed -> access.audited(caller, operation, name, null, deleteNamespace(name)));
  }

  private Future<Void> deleteNamespace(String name) {
    if (!TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)) {
      return Future.failedFuture(NamespaceFailures.notFound(name));
    }
    return repository
        .delete(name)
        .compose(
            deletion ->
                switch (deletion) {
                  case DELETED -> events.deleted(name);
                  case ABSENT -> Future.failedFuture(NamespaceFailures.notFound(name));
                  case HAS_CHILDREN ->
                      Future.failedFuture(
                          new ServiceException(
                              ErrorCode.FAILED_PRECONDITION,
                              "The namespace '"
                                  + name
                                  + "' still has child namespaces and cannot be deleted. Delete"
                                  + " its children first.",
                              Map.of("namespace", name)));
                });
  }

  /**
   * The member of an enumeration that {@code number} names ({@code fromNumber}); fails with {@code
   * INVALID_ARGUMENT}, "Unknown {@code what} {@code number}.", when it names none.
   */
  private static <T> T known(
      IntFunction<Optional<T>> fromNumber, int number, String what, Map<String, String> metadata) {
    return fromNumber
        .apply(number)
        .orElseThrow(
            () ->
                new ServiceException(
                    ErrorCode.INVALID_ARGUMENT, "Unknown " + what + " " + number + ".", metadata));
  }

  /**
   * The namespace the draft describes, checked in the .NET vfps's order (the name, the length, the
   * method, multiple pseudonyms with VOPRF, the method's fixed length, the regex, the parent
   * settings), each with its status and message, and the limits of {@link TextLimits} beside the
   * checks of the values they bound. The parent's existence is checked afterwards, in the database.
   */
  private Namespace validate(NamespaceDraft draft) {
    String name = Objects.requireNonNullElse(draft.name(), "");
    Map<String, String> metadata = Map.of("namespace", name);
    if (name.isBlank()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "A namespace name is required.", metadata);
    }
    TextLimits.check("namespace name", name, TextLimits.MAX_NAME_BYTES, metadata);
    String description = draft.description();
    String prefix = Objects.requireNonNullElse(draft.pseudonymPrefix(), "");
    String suffix = Objects.requireNonNullElse(draft.pseudonymSuffix(), "");
    if (description != null) {
      TextLimits.check("description", description, TextLimits.MAX_DESCRIPTION_BYTES, metadata);
    }
    TextLimits.check("pseudonym prefix", prefix, TextLimits.MAX_AFFIX_BYTES, metadata);
    TextLimits.check("pseudonym suffix", suffix, TextLimits.MAX_AFFIX_BYTES, metadata);
    long length = draft.pseudonymLength();
    if (length <= 0) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE, "Pseudonym length must be larger than 0.", metadata);
    }
    GenerationMethod method =
        known(
            GenerationMethod::fromNumber,
            draft.generationMethod(),
            "pseudonym generation method",
            metadata);
    if (!generation.generates(method)) {
      throw GenerationSupport.notSupported(method, metadata);
    }
    if (draft.allowsMultiplePseudonyms() && method.derivedFromOriginalValue()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The '"
              + method.dotnetName()
              + "' pseudonym generation method derives the pseudonym from the original value,"
              + " so a value has exactly one pseudonym. It cannot be combined with allowing"
              + " multiple pseudonyms per original value.",
          metadata);
    }
    OptionalInt fixedLength = generation.fixedLength(method);
    if (fixedLength.isPresent() && length != fixedLength.getAsInt()) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE,
          "The '"
              + method.dotnetName()
              + "' pseudonym generation method requires a pseudonym length of exactly "
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
    AlphabetFormat alphabetFormat = alphabetFormat(method, draft, metadata);
    String regexText = draft.originalValueValidationRegex();
    if (regexText != null) {
      TextLimits.check(
          "original value validation regex", regexText, TextLimits.MAX_REGEX_BYTES, metadata);
    }
    OriginalValueRegex regex = OriginalValueRegex.parse(regexText, metadata);
    String parentName =
        draft.parentName() == null || draft.parentName().isEmpty() ? null : draft.parentName();
    ParentValidationMode parentMode =
        known(
            ParentValidationMode::fromNumber,
            draft.parentValidationMode(),
            "parent validation mode",
            metadata);
    if (parentMode != ParentValidationMode.UNSPECIFIED && parentName == null) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "A parent validation mode requires a parent namespace to validate against.",
          metadata);
    }
    if (name.equals(parentName)) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "A namespace cannot be its own parent.", metadata);
    }
    if (parentName != null && !TextLimits.fits(parentName, TextLimits.MAX_NAME_BYTES)) {
      // no namespace can have such a name
      throw NamespaceFailures.parentNotFound(parentName);
    }
    // PostgreSQL keeps microseconds; truncating here makes the reply equal the stored row.
    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    return new Namespace(
        name,
        description,
        method,
        length,
        prefix,
        suffix,
        regex,
        draft.allowsMultiplePseudonyms(),
        parentName,
        parentMode,
        alphabetFormat,
        now,
        now);
  }

  /**
   * The alphabet method's format, or null for another method; fails with {@code INVALID_ARGUMENT}
   * when the alphabet method lacks one, another method has one, or its settings are refused.
   */
  private static AlphabetFormat alphabetFormat(
      GenerationMethod method, NamespaceDraft draft, Map<String, String> metadata) {
    AlphabetFormatDraft format = draft.alphabetFormat();
    if (method != GenerationMethod.X_SECURE_RANDOM_ALPHABET) {
      if (format != null) {
        throw new ServiceException(
            ErrorCode.INVALID_ARGUMENT,
            "A pseudonym format (x_format) belongs to the 'XSecureRandomAlphabet' pseudonym"
                + " generation method only.",
            metadata);
      }
      return null;
    }
    if (format == null) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The 'XSecureRandomAlphabet' pseudonym generation method needs a pseudonym format"
              + " (x_format) with its alphabet.",
          metadata);
    }
    CheckDigitKind checkDigit =
        known(CheckDigitKind::fromNumber, format.checkDigit(), "check digit", metadata);
    if (format.groupSize() > TextLimits.MAX_PSEUDONYM_LENGTH) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The group size must not be larger than " + TextLimits.MAX_PSEUDONYM_LENGTH + ".",
          metadata);
    }
    AlphabetFormat alphabetFormat;
    try {
      alphabetFormat =
          AlphabetFormat.of(
              format.alphabet(),
              checkDigit,
              (int) format.groupSize(),
              format.groupDelimiter(),
              (int) draft.pseudonymLength());
    } catch (IllegalArgumentException refused) {
      throw new ServiceException(ErrorCode.INVALID_ARGUMENT, refused.getMessage(), metadata);
    }
    double distinct = alphabetFormat.distinctPseudonyms();
    if (distinct < NamespaceCapacity.MINIMUM_DISTINCT_PSEUDONYMS) {
      throw new ServiceException(
          ErrorCode.OUT_OF_RANGE,
          "These settings make only "
              + NamespaceCapacity.figure(distinct)
              + " distinct pseudonyms ("
              + alphabetFormat.alphabet().size()
              + " characters, "
              + draft.pseudonymLength()
              + " drawn); at least "
              + NamespaceCapacity.figure(NamespaceCapacity.MINIMUM_DISTINCT_PSEUDONYMS)
              + " are needed, since a namespace refuses new values once it holds "
              + Math.round(NamespaceCapacity.FULL_SHARE * 100)
              + " % of them. Draw more characters (a longer pseudonym length) or use a larger"
              + " alphabet.",
          metadata);
    }
    return alphabetFormat;
  }
}
