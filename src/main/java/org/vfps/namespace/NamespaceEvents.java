package org.vfps.namespace;

/**
 * Tells the rest of the service that a namespace came or went, after the change is committed. The
 * service publishes these on the event bus ({@link #CREATED_ADDRESS}, {@link #DELETED_ADDRESS}),
 * with the namespace name as a {@code String} body, for the verticles that keep state per namespace
 * (caches, the pseudonym count gauges). Implementations must not block and must not throw.
 */
public interface NamespaceEvents {

  /** The event bus address of namespace creations. */
  String CREATED_ADDRESS = "vfps.namespace.created";

  /** The event bus address of namespace deletions. */
  String DELETED_ADDRESS = "vfps.namespace.deleted";

  /** Events that go nowhere. */
  NamespaceEvents NONE =
      new NamespaceEvents() {
        @Override
        public void created(String name) {}

        @Override
        public void deleted(String name) {}
      };

  /** The namespace {@code name} was created. */
  void created(String name);

  /** The namespace {@code name} and its pseudonyms were deleted. */
  void deleted(String name);
}
