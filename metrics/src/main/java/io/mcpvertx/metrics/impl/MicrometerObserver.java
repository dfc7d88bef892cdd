package io.mcpvertx.metrics.impl;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.spi.tasks.TaskStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's events as Micrometer meters. Meters are made on first use and kept by their labels, whose values
 * come from bounded sets (methods of the protocol, registered tools, JSON-RPC codes, revisions, task states), so the
 * maps stay small. Thread-safe: called on every event loop at once.
 */
final class MicrometerObserver implements McpObserver {

  /** The buckets the OpenTelemetry MCP conventions give {@code mcp.server.operation.duration}, in seconds. */
  static final Duration[] OPERATION_BUCKETS = seconds(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300);
  /** {@code mcp.server.session.duration}: sessions last from seconds to days. */
  private static final Duration[] SESSION_BUCKETS = seconds(1, 10, 60, 300, 1_800, 3_600, 14_400, 86_400);

  /** Methods a client may send us, in every revision; any other is counted as {@link #OTHER}. */
  private static final Set<String> METHODS = Set.of("initialize", "ping", "logging/setLevel", "tools/list",
      "tools/call", "resources/list", "resources/templates/list", "resources/read", "resources/subscribe",
      "resources/unsubscribe", "prompts/list", "prompts/get", "completion/complete", "tasks/get", "tasks/result",
      "tasks/list", "tasks/cancel", "tasks/update", "server/discover", "subscriptions/listen");
  /** The label value of a label that does not apply (Prometheus reads an empty value as an absent label). */
  private static final String NONE = "";

  private final MeterRegistry registry;
  private final ConcurrentMap<OperationKey, Timer> operations = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Counter> sessionsCreated = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Timer> sessionDurations = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Counter> tasks = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Counter> authRejections = new ConcurrentHashMap<>();
  private final AtomicLong sessionsActive = new AtomicLong();
  private final AtomicLong streamsActive = new AtomicLong();
  private final Counter sessionsRestored;
  private final Counter sessionsExpired;
  private final Counter orphansRerun;
  private final Counter orphansFailed;

  private record OperationKey(String method, String tool, ProtocolVersion version, String errorType) {
  }

  MicrometerObserver(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("mcp.server.sessions.active", sessionsActive, AtomicLong::get)
        .description("2025 sessions running on this instance").register(registry);
    Gauge.builder("mcp.server.sse.streams.active", streamsActive, AtomicLong::get)
        .description("SSE streams open to clients on this instance").register(registry);
    sessionsRestored = Counter.builder("mcp.server.sessions.restored")
        .description("Sessions rebuilt here from their stored record (created elsewhere, or before a restart)")
        .register(registry);
    sessionsExpired = Counter.builder("mcp.server.sessions.expired")
        .description("Sessions ended by their idle timeout").register(registry);
    orphansRerun = orphans("rerun");
    orphansFailed = orphans("failed");
  }

  private Counter orphans(String outcome) {
    return Counter.builder("mcp.server.task.orphans.settled").tag("outcome", outcome)
        .description("Tasks of dead instances settled by this one").register(registry);
  }

  @Override
  public void requestServed(String method, String tool, ProtocolVersion version, String errorType,
      long durationNanos) {
    OperationKey key = new OperationKey(method, tool, version, errorType);
    Timer timer = operations.get(key);
    if (timer == null) {
      timer = operations.computeIfAbsent(key, this::operationTimer);
    }
    timer.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  private Timer operationTimer(OperationKey key) {
    return Timer.builder("mcp.server.operation.duration")
        .description("MCP requests as the server sees them, from their arrival to their answer")
        .tag("mcp.method.name", METHODS.contains(key.method()) ? key.method() : OTHER)
        .tag("gen_ai.tool.name", key.tool() == null ? NONE : key.tool())
        .tag("error.type", key.errorType() == null ? NONE : key.errorType())
        .tag("mcp.protocol.version", key.version() == null ? NONE : key.version().id())
        .serviceLevelObjectives(OPERATION_BUCKETS)
        .register(registry);
  }

  @Override
  public void sessionStarted(boolean restored) {
    sessionsActive.incrementAndGet();
    if (restored) {
      sessionsRestored.increment();
    }
  }

  @Override
  public void sessionInitialized(ProtocolVersion version) {
    sessionsCreated.computeIfAbsent(version.id(), id -> Counter.builder("mcp.server.sessions.initialized")
        .description("Sessions that completed initialize, by revision").tag("mcp.protocol.version", id)
        .register(registry)).increment();
  }

  @Override
  public void sessionClosed(ProtocolVersion version, long durationNanos) {
    sessionsActive.decrementAndGet();
    String id = version == null ? NONE : version.id();
    sessionDurations.computeIfAbsent(id, v -> Timer.builder("mcp.server.session.duration")
        .description("How long sessions ran on this instance, counted when they end here")
        .tag("mcp.protocol.version", v).serviceLevelObjectives(SESSION_BUCKETS).register(registry))
        .record(durationNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void sessionExpired() {
    sessionsExpired.increment();
  }

  @Override
  public void taskCreated(String wire) {
    task(wire, "created");
  }

  @Override
  public void taskSettled(String wire, TaskStatus status) {
    task(wire, status.name().toLowerCase(Locale.ROOT));
  }

  @Override
  public void taskExpired(String wire) {
    task(wire, "expired");
  }

  private void task(String wire, String state) {
    String w = WIRE_2025_11_25.equals(wire) || WIRE_EXTENSION.equals(wire) ? wire : OTHER;
    tasks.computeIfAbsent(w + ' ' + state, k -> Counter.builder("mcp.server.tasks")
        .description("Task transitions on this instance: created, completed, failed, cancelled, expired")
        .tag("state", state).tag("wire", w).register(registry)).increment();
  }

  @Override
  public void orphanSettled(boolean rerun) {
    (rerun ? orphansRerun : orphansFailed).increment();
  }

  @Override
  public void streamOpened() {
    streamsActive.incrementAndGet();
  }

  @Override
  public void streamClosed() {
    streamsActive.decrementAndGet();
  }

  @Override
  public void authRejected(String reason) {
    authRejections.computeIfAbsent(reason, r -> Counter.builder("mcp.server.auth.rejections")
        .description("Requests refused by authorization, by reason").tag("reason", r).register(registry))
        .increment();
  }

  private static Duration[] seconds(double... values) {
    Duration[] durations = new Duration[values.length];
    for (int i = 0; i < values.length; i++) {
      durations[i] = Duration.ofNanos((long) (values[i] * 1_000_000_000L));
    }
    return durations;
  }
}
