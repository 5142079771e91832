package org.vfps.fhir;

import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.vfps.access.Caller;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.TextLimits;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.Withdrawal;

/**
 * Runs {@link PseudonymCall}s through the domain service with the caller, so that permissions,
 * audit lines and error codes are those of gRPC and REST. Every future succeeds: a failure is an
 * {@link Answer} worded by the call's {@link CallReply}.
 */
final class PseudonymCalls {

  private final PseudonymService pseudonyms;
  private final EdgeWarnings warnings;

  PseudonymCalls(PseudonymService pseudonyms, EdgeWarnings warnings) {
    this.pseudonyms = pseudonyms;
    this.warnings = warnings;
  }

  /** Runs the call: creates, adds, finds, looks up or withdraws. */
  Future<Answer> run(Caller caller, PseudonymCall call) {
    CallReply reply = call.reply();
    Future<Answer> answer =
        switch (call.kind()) {
          case CREATE ->
              Future.<Void>succeededFuture()
                  .compose(ignored -> pseudonyms.upsert(caller, call.namespace(), call.value()))
                  .map(
                      upserted ->
                          new Answer(
                              200,
                              reply.success(upserted.pseudonym()),
                              upserted.inserted() && reply.createdIs201()));
          case FIND -> find(caller, call).map(found -> found.orElseGet(reply::unknownValue));
          case FIND_ALL ->
              stored(caller, call)
                  .map(
                      found ->
                          found.isEmpty()
                              ? reply.unknownValue()
                              : Answer.ok(reply.successes(found)));
          case ADD -> add(caller, call);
          case RESOLVE ->
              Future.<Void>succeededFuture()
                  .compose(
                      ignored -> pseudonyms.resolveStored(caller, call.namespace(), call.value()))
                  .map(
                      found ->
                          found.isEmpty()
                              ? reply.unknownValue()
                              : Answer.ok(reply.success(found.getFirst())));
          case REVERSE_LOOKUP ->
              Future.<Void>succeededFuture()
                  .compose(ignored -> pseudonyms.lookup(caller, call.namespace(), call.value()))
                  .map(
                      found ->
                          found
                              .map(pseudonym -> Answer.ok(reply.success(pseudonym)))
                              .orElseGet(reply::unknownValue));
          case DELETE, ANONYMIZE ->
              Future.<Void>succeededFuture()
                  .compose(
                      ignored ->
                          pseudonyms.withdrawStored(
                              caller,
                              call.kind().withdrawal().orElseThrow(),
                              call.namespace(),
                              call.value()))
                  .map(withdrawn -> withdrawn.isEmpty() ? reply.unknownValue() : reply.withdrawn());
        };
    return answer.otherwise(failure -> reply.failure(failure, warnings));
  }

  /**
   * What the call would answer, without storing anything: the answer of a lookup, or of a create
   * whose pair exists or that would fail (permission, namespace), of an add that would fail
   * (permission, namespace, more than {@link PseudonymService#MAX_COUNT} pseudonyms), or of a
   * withdrawal that would fail (permission, namespace, a value without pseudonyms); empty for a
   * create that would store a new pair, for an add that would store, and for a withdrawal that
   * would withdraw. An add that the namespace refuses because it allows one pseudonym per value is
   * found only when it runs. A transaction checks every entry this way before it stores or
   * withdraws any.
   */
  Future<Optional<Answer>> check(Caller caller, PseudonymCall call) {
    Optional<Withdrawal> withdrawal = call.kind().withdrawal();
    if (withdrawal.isPresent()) {
      return Future.<Void>succeededFuture()
          .compose(
              ignored ->
                  pseudonyms.checkWithdrawal(
                      caller, withdrawal.get(), call.namespace(), call.value()))
          .map(
              stored ->
                  stored ? Optional.<Answer>empty() : Optional.of(call.reply().unknownValue()))
          .otherwise(failure -> Optional.of(call.reply().failure(failure, warnings)));
    }
    if (call.kind() == PseudonymCall.Kind.ADD) {
      return stored(caller, call)
          .map(
              found -> {
                requireRoomFor(call, found.size());
                return Optional.<Answer>empty();
              })
          .otherwise(failure -> Optional.of(call.reply().failure(failure, warnings)));
    }
    if (call.kind() != PseudonymCall.Kind.CREATE) {
      return run(caller, call).map(Optional::of);
    }
    return find(caller, call)
        .otherwise(failure -> Optional.of(call.reply().failure(failure, warnings)));
  }

  /**
   * The answer for a create, an add or a withdrawal whose original value the domain would refuse
   * (blank, too long, NUL), found without calling it; empty for every other call. A transaction
   * checks its entries this way before anything else.
   */
  Optional<Answer> validate(PseudonymCall call) {
    if (call.kind() != PseudonymCall.Kind.CREATE
        && call.kind() != PseudonymCall.Kind.ADD
        && call.kind().withdrawal().isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> metadata = Map.of("namespace", call.namespace());
    try {
      if (call.value().isBlank()) {
        throw new ServiceException(
            ErrorCode.INVALID_ARGUMENT, "The original value must not be blank.", metadata);
      }
      TextLimits.check(
          "original value", call.value(), TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
      return Optional.empty();
    } catch (ServiceException invalid) {
      return Optional.of(call.reply().failure(invalid, warnings));
    }
  }

  /** The answer for the pair if it exists, empty if not; fails as the domain's find fails. */
  private Future<Optional<Answer>> find(Caller caller, PseudonymCall call) {
    return Future.<Void>succeededFuture()
        .compose(ignored -> pseudonyms.find(caller, call.namespace(), call.value()))
        .map(found -> found.map(pseudonym -> Answer.ok(call.reply().success(pseudonym))));
  }

  /** Every stored pseudonym of the call's original value, by sequence number; may be empty. */
  private Future<List<Pseudonym>> stored(Caller caller, PseudonymCall call) {
    return Future.<Void>succeededFuture()
        .compose(ignored -> pseudonyms.resolveStored(caller, call.namespace(), call.value()));
  }

  /**
   * Grows the original value's pseudonyms by the call's count, through the domain's counted create
   * (its permission, limits and refusals), and answers the new ones. The count is relative to what
   * the value had when this call read it, so two adds for the same value at the same moment may
   * both be answered the same new pseudonyms (the domain grows a value to a number of pseudonyms,
   * idempotently, and has no "this many more").
   */
  private Future<Answer> add(Caller caller, PseudonymCall call) {
    return stored(caller, call)
        .compose(
            before -> {
              requireRoomFor(call, before.size());
              Set<String> old =
                  before.stream().map(Pseudonym::pseudonymValue).collect(Collectors.toSet());
              return pseudonyms
                  .createCounted(
                      caller,
                      call.namespace(),
                      call.value(),
                      OptionalLong.of((long) before.size() + call.count()))
                  .map(
                      grown ->
                          new Answer(
                              200,
                              call.reply()
                                  .successes(
                                      grown.stream()
                                          .filter(made -> !old.contains(made.pseudonymValue()))
                                          .limit(call.count())
                                          .toList()),
                              call.reply().createdIs201()));
            });
  }

  /**
   * Refuses, as the domain refuses a count over its limit ({@code INVALID_ARGUMENT}), an add that
   * would give the value more than {@link PseudonymService#MAX_COUNT} pseudonyms.
   */
  private static void requireRoomFor(PseudonymCall call, int stored) {
    if ((long) stored + call.count() > PseudonymService.MAX_COUNT) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "count must be at most "
              + (PseudonymService.MAX_COUNT - stored)
              + " here: the original value has "
              + stored
              + " pseudonyms, and a value has at most "
              + PseudonymService.MAX_COUNT
              + ".",
          Map.of("namespace", call.namespace()));
    }
  }
}
