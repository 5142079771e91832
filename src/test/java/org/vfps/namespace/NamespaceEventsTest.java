package org.vfps.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** NamespaceService reports committed creations and deletions, and nothing else. */
class NamespaceEventsTest {

  private final InMemoryNamespaces repository = new InMemoryNamespaces();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final NamespaceService service =
      new NamespaceService(
          repository,
          new NamespaceEvents() {
            @Override
            public void created(String name) {
              events.add("created " + name);
            }

            @Override
            public Future<Void> deleted(String name) {
              events.add("deleted " + name);
              return Future.succeededFuture();
            }
          },
          Clock.systemUTC(),
          Access.open(new Audit(() -> "")),
          GenerationSupport.DEFAULT);
  private final Caller caller = Caller.anonymous("127.0.0.1");

  private static NamespaceDraft draft(String name) {
    return new NamespaceDraft(name, "", 1, 16, null, null);
  }

  @Test
  void createAndDeleteAreReported() {
    service.create(caller, draft("a")).await();
    service.delete(caller, "a").await();

    assertThat(events).containsExactly("created a", "deleted a");
  }

  @Test
  void createIfAbsentReportsOnlyWhatItCreated() {
    service.createIfAbsent(draft("a")).await();
    service.createIfAbsent(draft("a")).await();

    assertThat(events).containsExactly("created a");
  }

  @Test
  void failedOrRejectedChangesAreNotReported() {
    service.create(caller, draft("a")).await();
    events.clear();

    assertThatThrownBy(() -> service.create(caller, draft("a")).await())
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
    assertThatThrownBy(() -> service.create(caller, draft(" ")).await())
        .isInstanceOf(ServiceException.class);
    assertThatThrownBy(() -> service.delete(caller, "missing").await())
        .isInstanceOf(ServiceException.class);
    assertThat(events).isEmpty();
  }
}
