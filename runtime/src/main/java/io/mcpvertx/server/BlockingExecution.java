package io.mcpvertx.server;

/** Where handlers that declare they block are run. */
public enum BlockingExecution {
  /** Vert.x's worker pool. Works on every JDK. */
  WORKER,
  /**
   * One virtual thread per call on JDK 21 and later; on older JDKs the server logs it once and uses
   * {@link #WORKER}.
   */
  VIRTUAL_THREAD
}
