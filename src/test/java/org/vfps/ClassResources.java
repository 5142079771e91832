package org.vfps;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Owns what a test class starts for all its tests: register it as a static
 * {@code @RegisterExtension} field, hand each resource to {@link #own} as it is made, and it is
 * closed after the class, the last made first. Only what was made is closed, so a start that an
 * assumption aborts or a failure interrupts closes exactly what it got to, and the first failure
 * stays the one reported. {@link #perTest()}, registered as a non-static field, closes what each
 * test made after that test instead (JUnit runs no class-level callback of a non-static field), so
 * that no service a test started, job workers included, outlives it into the next test.
 */
public final class ClassResources implements AfterAllCallback, AfterEachCallback {

  /** How to close a resource that is not {@link AutoCloseable}. */
  @FunctionalInterface
  public interface Closer<T> {
    void close(T resource) throws Exception;
  }

  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final boolean perTest;

  public ClassResources() {
    this(false);
  }

  private ClassResources(boolean perTest) {
    this.perTest = perTest;
  }

  /** Resources closed after each test, for a non-static {@code @RegisterExtension} field. */
  public static ClassResources perTest() {
    return new ClassResources(true);
  }

  /** Closes the resource after the class's tests; returns it. */
  public synchronized <T extends AutoCloseable> T own(T resource) {
    owned.push(resource);
    return resource;
  }

  /** Closes the resource the given way after the class's tests; returns it. */
  public synchronized <T> T own(T resource, Closer<? super T> closer) {
    owned.push(() -> closer.close(resource));
    return resource;
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (perTest) {
      closeAll();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    closeAll();
  }

  private void closeAll() throws Exception {
    Exception failure = null;
    for (AutoCloseable resource = next(); resource != null; resource = next()) {
      try {
        resource.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private synchronized AutoCloseable next() {
    return owned.poll();
  }
}
