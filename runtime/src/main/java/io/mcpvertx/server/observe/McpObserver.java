package io.mcpvertx.server.observe;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.spi.tasks.TaskStatus;

/**
 * What a server tells an observer after the fact: requests served, sessions started and ended, tasks created and
 * settled, streams opened, authorization refused. Metrics are built on it (the metrics module's Micrometer
 * implementation is one); every method does nothing by default, so an observer implements only what it counts.
 *
 * <p>Installed once with {@code McpServer.observer(observer)}, before the server's transports start. A server without
 * one pays a single field check per event and allocates nothing for it.
 *
 * <p>Threading: methods are called on the event loop (or worker) where the event happened, often many at once on
 * different threads. They must not block, must be thread-safe and should be cheap: they run on the request path.
 * An exception thrown from one is the observer's bug; the server does not catch it.
 *
 * <p>Labels are bounded by construction: no session id, task id, request id or argument value is ever passed.
 * Method names are passed as received and may be anything a client sent; observers fold unknown ones themselves
 * ({@link #OTHER} is the conventional value). Tool names are passed only for tools registered on the server when
 * the call ends; any other name arrives as {@link #OTHER}.
 */
public interface McpObserver {

  /** The value standing for any name outside a known set (OpenTelemetry's {@code _OTHER}). */
  String OTHER = "_OTHER";

  /** The {@code errorType} of a {@code tools/call} whose result has {@code isError: true}. */
  String TOOL_ERROR = "tool_error";

  /** The {@code wire} of tasks of the 2025-11-25 revision's {@code tasks/*} methods. */
  String WIRE_2025_11_25 = "2025-11-25";

  /** The {@code wire} of tasks of the 2026-07-28 tasks extension. */
  String WIRE_EXTENSION = "extension";

  /**
   * A client request was answered (or refused, or abandoned because the client cancelled it).
   *
   * @param method the JSON-RPC method as the client sent it
   * @param tool for {@code tools/call}: the registered tool's name, or {@link #OTHER}; null for other methods
   * @param version the protocol revision the request was served under; null before a session's initialize
   * @param errorType null when it succeeded; the JSON-RPC error code as a string ({@code "-32602"}) when it
   *     failed; {@link #TOOL_ERROR} when a tool answered with {@code isError}
   * @param durationNanos from the request reaching the engine to its answer being handed to the transport
   */
  default void requestServed(String method, String tool, ProtocolVersion version, String errorType,
      long durationNanos) {
  }

  /** A 2025 session started here: created for a new client ({@code restored} false) or rebuilt from its record. */
  default void sessionStarted(boolean restored) {
  }

  /** A 2025 session completed {@code initialize} under {@code version}. */
  default void sessionInitialized(ProtocolVersion version) {
  }

  /**
   * A 2025 session started here ended here (deleted, expired, moved away, or the server closing).
   *
   * @param version its revision; null if it never initialized
   * @param durationNanos how long it ran here
   */
  default void sessionClosed(ProtocolVersion version, long durationNanos) {
  }

  /** A session was ended by its idle timeout (followed by its {@link #sessionClosed}). */
  default void sessionExpired() {
  }

  /** A task was created; {@code wire} is {@link #WIRE_2025_11_25} or {@link #WIRE_EXTENSION}. */
  default void taskCreated(String wire) {
  }

  /**
   * A task run here reached a terminal status: {@code COMPLETED} or {@code FAILED} when its handler's outcome was
   * stored, {@code CANCELLED} when cancelled here. {@code wire} is null when the task was cancelled by a request
   * that does not know it (it is the same for both wires).
   */
  default void taskSettled(String wire, TaskStatus status) {
  }

  /** A task run here outlived its time to live: its handler was told to stop. */
  default void taskExpired(String wire) {
  }

  /** A task of a dead instance was settled here: run again ({@code rerun}) or failed. */
  default void orphanSettled(boolean rerun) {
  }

  /** An SSE stream was opened to a client (a GET stream, or a POST answered as a stream). */
  default void streamOpened() {
  }

  /** An SSE stream opened earlier was closed (by either side). */
  default void streamClosed() {
  }

  /**
   * A request was refused by authorization; {@code reason} is one of a small fixed set: {@code missing_token},
   * {@code invalid_token}, {@code invalid_request} (a malformed credential), {@code insufficient_scope},
   * {@code auth_server_unavailable}.
   */
  default void authRejected(String reason) {
  }
}
