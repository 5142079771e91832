package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.namespace.NamespaceService;

/**
 * Lists a namespace's pseudonyms a page at a time, newest first, each page after the one its {@link
 * PageTokens page token} points behind. The contract is {@link PseudonymService#list}'s.
 * Thread-safe.
 */
final class PseudonymListing {

  /** The page size when a client asks for none. */
  static final int DEFAULT_PAGE_SIZE = 25;

  /** The largest page served; larger requests are served this many. */
  static final int MAX_PAGE_SIZE = 1000;

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final Access access;
  private final PageTokens pageTokens;

  PseudonymListing(
      NamespaceService namespaces,
      PseudonymRepository repository,
      Access access,
      PageTokens pageTokens) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.access = access;
    this.pageTokens = pageTokens;
  }

  /** See {@link PseudonymService#list}. */
  Future<PseudonymPage> list(
      Caller caller,
      String namespaceName,
      int pageSize,
      String pageToken,
      boolean includeTotalSize) {
    int limit = pageSize <= 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
    return namespaces
        .resolve(namespaceName)
        .compose(
            namespace ->
                access
                    .check(caller, Operation.PSEUDONYM_LIST, namespace.name())
                    .map(allowed -> namespace))
        .compose(
            namespace -> {
              Optional<ListCursor> after =
                  pageToken == null || pageToken.isEmpty()
                      ? Optional.empty()
                      : Optional.of(pageTokens.decode(namespace.name(), pageToken));
              Future<List<PseudonymRepository.PageRow>> rows =
                  repository.list(namespace.name(), limit + 1, after);
              Future<OptionalLong> total =
                  includeTotalSize
                      ? repository.count(namespace.name()).map(OptionalLong::of)
                      : Future.succeededFuture(OptionalLong.empty());
              return Future.all(rows, total)
                  .map(done -> toPage(namespace.name(), limit, rows.result(), total.result()));
            });
  }

  private PseudonymPage toPage(
      String namespace, int limit, List<PseudonymRepository.PageRow> rows, OptionalLong total) {
    boolean more = rows.size() > limit;
    List<PseudonymRepository.PageRow> page = more ? rows.subList(0, limit) : rows;
    String next = more ? pageTokens.encode(namespace, page.get(limit - 1).cursor()) : "";
    return new PseudonymPage(
        namespace, page.stream().map(PseudonymRepository.PageRow::pseudonym).toList(), next, total);
  }
}
