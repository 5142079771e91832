package org.vfps.fhir;

import io.vertx.core.Future;
import java.util.Map;
import java.util.Optional;
import org.vfps.access.Caller;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.TextLimits;
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

  /** Runs the call: creates, finds, looks up or withdraws. */
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
   * whose pair exists or that would fail (permission, namespace), or of a withdrawal that would
   * fail (permission, namespace, a value without pseudonyms); empty for a create that would store a
   * new pair and for a withdrawal that would withdraw. A transaction checks every entry this way
   * before it stores or withdraws any.
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
    if (call.kind() != PseudonymCall.Kind.CREATE) {
      return run(caller, call).map(Optional::of);
    }
    return find(caller, call)
        .otherwise(failure -> Optional.of(call.reply().failure(failure, warnings)));
  }

  /**
   * The answer for a create or a withdrawal whose original value the domain would refuse (blank,
   * too long, NUL), found without calling it; empty for every other call. A transaction checks its
   * entries this way before anything else.
   */
  Optional<Answer> validate(PseudonymCall call) {
    if (call.kind() != PseudonymCall.Kind.CREATE && call.kind().withdrawal().isEmpty()) {
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
}
