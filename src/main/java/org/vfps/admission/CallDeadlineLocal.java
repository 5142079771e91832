package org.vfps.admission;

import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.spi.VertxServiceProvider;
import io.vertx.core.spi.context.storage.ContextLocal;

/**
 * Registers the context local that holds a call's {@link CallDeadline}. Vert.x sizes the locals of
 * its contexts when an instance is built, so the local must exist before: Vert.x loads this
 * provider (listed in {@code META-INF/services}) before it builds any instance.
 */
public final class CallDeadlineLocal implements VertxServiceProvider {

  static final ContextLocal<CallDeadline> KEY = ContextLocal.registerLocal(CallDeadline.class);

  @Override
  public void init(VertxBootstrap builder) {
    // registering the local, above, is all
  }
}
