package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.namespace.TextLimits;

/**
 * Pairs in bulk, as a site moving between pseudonym services moves them: importing pairs another
 * system made, and exporting a namespace's pairs with their original values. For CSV jobs.
 */
public final class PseudonymTransfer {

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final Access access;

  public PseudonymTransfer(
      NamespaceService namespaces, PseudonymRepository repository, Access access) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.access = access;
  }

  /**
   * Imports the pairs into the namespace, overwriting nothing, and says what became of each, in
   * order: {@link ImportStatus#INVALID_ORIGINAL_VALUE} for a value Create would refuse, {@link
   * ImportStatus#INVALID_PSEUDONYM_VALUE}, {@link ImportStatus#PSEUDONYM_OUTSIDE_ALPHABET} or
   * {@link ImportStatus#PSEUDONYM_CHECK_DIGIT_MISMATCH} for a pseudonym that does not fit the
   * namespace's {@link PseudonymFormat format} (a pseudonym that fits is stored as the namespace's
   * generator writes it: with its group delimiters), {@link ImportStatus#PARENT_VALUE_MISSING} for
   * a value the namespace's parent lacks under {@link ParentValidationMode#ENSURE_EXISTS}, else
   * what {@link PseudonymRepository#importPairs} says. A pair refused is not stored. Fails with
   * {@code PERMISSION_DENIED} without write access, then {@code NOT_FOUND} for an unknown
   * namespace; the future completes after the imported rows are committed.
   */
  public Future<List<ImportStatus>> importPairs(
      Caller caller, String namespaceName, List<ImportedPair> pairs) {
    return access
        .check(caller, Operation.CSV_JOB_IMPORT, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(namespace -> importValid(namespace, pairs));
  }

  private Future<List<ImportStatus>> importValid(Namespace namespace, List<ImportedPair> pairs) {
    ImportStatus[] statuses = new ImportStatus[pairs.size()];
    ImportedPair[] storable = new ImportedPair[pairs.size()];
    Set<String> originals = new LinkedHashSet<>();
    for (int i = 0; i < pairs.size(); i++) {
      ImportedPair pair = pairs.get(i);
      if (!PseudonymService.isStorable(pair.originalValue())
          || !namespace.matches(pair.originalValue())) {
        statuses[i] = ImportStatus.INVALID_ORIGINAL_VALUE;
      } else if (!storablePseudonym(pair.pseudonymValue())) {
        statuses[i] = ImportStatus.INVALID_PSEUDONYM_VALUE;
      } else {
        PseudonymFormat.Imported imported =
            PseudonymFormat.toImport(namespace, pair.pseudonymValue());
        if (imported.refusal() != null) {
          statuses[i] = imported.refusal();
        } else {
          storable[i] = new ImportedPair(pair.originalValue(), imported.stored());
          originals.add(pair.originalValue());
        }
      }
    }
    Future<Set<String>> inParent =
        namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS
                && !originals.isEmpty()
            ? repository.existingPseudonymValues(namespace.parentName(), List.copyOf(originals))
            : Future.succeededFuture(originals);
    return inParent.compose(
        present -> {
          List<ImportedPair> stored = new ArrayList<>();
          for (int i = 0; i < pairs.size(); i++) {
            if (statuses[i] == null && !present.contains(pairs.get(i).originalValue())) {
              statuses[i] = ImportStatus.PARENT_VALUE_MISSING;
            } else if (statuses[i] == null) {
              stored.add(storable[i]);
            }
          }
          Future<List<ImportStatus>> imported =
              stored.isEmpty()
                  ? Future.succeededFuture(List.of())
                  : repository.importPairs(namespace, namespace.allowsMultiplePseudonyms(), stored);
          return imported.map(
              outcomes -> {
                int next = 0;
                for (int i = 0; i < statuses.length; i++) {
                  if (statuses[i] == null) {
                    statuses[i] = outcomes.get(next++);
                  }
                }
                return Arrays.asList(statuses);
              });
        });
  }

  private static boolean storablePseudonym(String value) {
    return !value.isBlank()
        && value.indexOf('\0') < 0
        && TextLimits.fits(value, (int) TextLimits.MAX_PSEUDONYM_LENGTH * 4);
  }

  /**
   * A page of the namespace's pairs with their original values, in List's order (newest first),
   * from after {@code after}: {@code limit} rows or fewer, of which anonymized ones (consent
   * withdrawn) are left out. Fails with {@code PERMISSION_DENIED} without reverse-lookup access,
   * then {@code NOT_FOUND} for an unknown namespace.
   */
  public Future<ExportPage> exportPage(
      Caller caller, String namespaceName, Optional<ListCursor> after, int limit) {
    return access
        .check(caller, Operation.CSV_JOB_EXPORT, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(namespace -> repository.uncached().list(namespace.name(), limit, after))
        .map(
            rows -> {
              List<Pseudonym> pairs = new ArrayList<>(rows.size());
              for (PseudonymRepository.PageRow row : rows) {
                // the cursor holds the stored key: blank when anonymized, a blind index when sealed
                if (!AnonymizedOriginals.is(row.cursor().originalValue())) {
                  pairs.add(row.pseudonym().withOriginalValue(row.originalValue().get()));
                }
              }
              Optional<ListCursor> next =
                  rows.size() < limit ? Optional.empty() : Optional.of(rows.getLast().cursor());
              return new ExportPage(pairs, next);
            });
  }

  /**
   * Exported pairs and where the next page starts.
   *
   * @param next empty after the last page
   */
  public record ExportPage(List<Pseudonym> pairs, Optional<ListCursor> next) {

    public ExportPage {
      pairs = List.copyOf(pairs);
    }
  }
}
