package io.mcpvertx.server.impl.observe;

import io.mcpvertx.server.observe.McpObserver;

/**
 * Where a server's engines find its observer: one slot per server, shared by its sessions, stateless engine and
 * task engine, read at each event. Null when none is installed, so that the check on the request path is one field
 * read, and nothing is computed (no clock read, no label) for an observer that is not there.
 */
public final class ObserverSlot {

  private volatile McpObserver observer;

  /** The installed observer, or null. */
  public McpObserver get() {
    return observer;
  }

  public void set(McpObserver observer) {
    this.observer = observer;
  }
}
