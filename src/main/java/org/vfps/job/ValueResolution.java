package org.vfps.job;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.vfps.access.Caller;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.ReverseLookup;

/**
 * What the values of a chunk of a pseudonymize or de-pseudonymize job become: each distinct value
 * of each namespace goes to the pseudonym service's batch methods (as {@code BatchCreate} sends
 * them, at most {@link PseudonymService#maxBatchSize()} at once), by the job's direction and mode.
 * The calls are sent from the worker thread and run on the event loop.
 */
final class ValueResolution {

  private final PseudonymService pseudonyms;
  private final EventLoopCalls calls;
  private final Cells cells;

  /**
   * What a namespace made of a chunk's distinct values.
   *
   * @param values what each value became; a value the namespace could not answer is absent
   * @param mistyped the values of a de-pseudonymize job that the namespace's check digit refuses
   *     (they are absent from {@code values}); empty for the other directions
   */
  record Answers(Map<String, String> values, Set<String> mistyped) {}

  /** The calls of a chunk under way: by namespace, what its distinct values become. */
  record Resolving(Map<String, CompletableFuture<Answers>> byNamespace) {

    /**
     * By namespace, what its values became, waited for on this (worker) thread. A failed call's
     * failure is rethrown as it was.
     */
    Map<String, Answers> await() {
      Map<String, Answers> resolved = new HashMap<>();
      byNamespace.forEach(
          (namespace, answers) -> resolved.put(namespace, EventLoopCalls.join(answers)));
      return resolved;
    }
  }

  ValueResolution(PseudonymService pseudonyms, EventLoopCalls calls, Cells cells) {
    this.pseudonyms = pseudonyms;
    this.calls = calls;
    this.cells = cells;
  }

  /**
   * Sends the calls that resolve the chunk's distinct values, one batch call per namespace.
   *
   * @param rowsBefore the data rows (the header row not counted) before the chunk's first
   */
  Resolving send(RunState state, CsvLayout layout, List<CsvRecord> records, long rowsBefore) {
    Map<String, Set<String>> wanted = new LinkedHashMap<>();
    for (CsvRecord record : records) {
      if (record.malformed()) {
        continue;
      }
      for (CsvLayout.Column column : layout.columns()) {
        String cell = Cells.cell(record.fields(), column.source());
        if (!cells.missing(cell)) {
          wanted
              .computeIfAbsent(column.mapping().namespace(), ns -> new LinkedHashSet<>())
              .add(cell);
        }
      }
    }
    Map<String, CompletableFuture<Answers>> resolution = new HashMap<>();
    wanted.forEach(
        (namespace, values) ->
            resolution.put(
                namespace,
                resolve(state, namespace, List.copyOf(values), records, layout, rowsBefore)));
    return new Resolving(resolution);
  }

  /**
   * What each distinct value of a namespace becomes, once the calls sent here return: absent for
   * one the namespace cannot answer.
   */
  private CompletableFuture<Answers> resolve(
      RunState state,
      String namespace,
      List<String> values,
      List<CsvRecord> records,
      CsvLayout layout,
      long rowsBefore) {
    Caller creator = state.creator;
    List<CompletableFuture<Answers>> parts = new ArrayList<>();
    for (int from = 0; from < values.size(); from += pseudonyms.maxBatchSize()) {
      List<String> part =
          values.subList(from, Math.min(values.size(), from + pseudonyms.maxBatchSize()));
      if (state.job.direction() == JobDirection.DEPSEUDONYMIZE) {
        parts.add(
            calls.submit(
                () ->
                    pseudonyms
                        .lookupAll(creator, namespace, part)
                        .map(found -> revealed(part, found))));
      } else if (state.job.pseudonymizeMode() == PseudonymizeMode.CREATE_IF_MISSING) {
        long rowBefore = RowNumbers.before(state.job, rowsBefore);
        parts.add(
            calls.submit(
                () ->
                    pseudonyms
                        .createAll(creator, namespace, part)
                        .recover(
                            failure ->
                                Future.failedFuture(
                                    failure instanceof ServiceException e
                                        ? RefusedValues.located(
                                            e, part, records, layout, rowBefore, namespace)
                                        : failure))
                        .map(created -> created(part, created))));
      } else {
        parts.add(
            calls.submit(
                () ->
                    pseudonyms.findAll(creator, namespace, part).map(found -> known(part, found))));
      }
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, String> result = new HashMap<>(values.size() * 2);
              Set<String> mistyped = new HashSet<>();
              parts.forEach(
                  part -> {
                    result.putAll(part.join().values());
                    mistyped.addAll(part.join().mistyped());
                  });
              return new Answers(result, mistyped);
            });
  }

  /**
   * The original value of each pseudonym found and not withdrawn, by the value as the file holds it
   * (which may lack the pseudonym's group delimiters); a mistyped one (refused) has none and is
   * among the mistyped.
   */
  private static Answers revealed(List<String> values, List<ReverseLookup> found) {
    Map<String, String> revealed = new HashMap<>();
    Set<String> mistyped = new HashSet<>();
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      ReverseLookup lookup = found.get(i);
      if (lookup.refusal() != null) {
        mistyped.add(value);
      }
      lookup
          .found()
          .filter(known -> !known.withdrawn())
          .ifPresent(known -> revealed.put(value, known.originalValue()));
    }
    return new Answers(revealed, mistyped);
  }

  /** The pseudonym of each value, created or found, by value. */
  private static Answers created(List<String> values, List<Pseudonym> created) {
    Map<String, String> result = new HashMap<>(values.size() * 2);
    for (int i = 0; i < values.size(); i++) {
      result.put(values.get(i), created.get(i).pseudonymValue());
    }
    return new Answers(result, Set.of());
  }

  /** The pseudonym of each value that has one, by value. */
  private static Answers known(List<String> values, List<Optional<Pseudonym>> found) {
    Map<String, String> known = new HashMap<>();
    for (int i = 0; i < values.size(); i++) {
      int index = i;
      found.get(i).ifPresent(pseudonym -> known.put(values.get(index), pseudonym.pseudonymValue()));
    }
    return new Answers(known, Set.of());
  }
}
