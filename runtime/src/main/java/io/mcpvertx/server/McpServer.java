package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.impl.McpServerImpl;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.Optional;

/**
 * An MCP server: the tools, resources, prompts and completions it offers, and the factory of its sessions.
 *
 * <pre>{@code
 * McpServer server = McpServer.create(vertx, new McpServerOptions())
 *     .tool(Tool.builder("greet").description("Says hello").build(),
 *         (args, ctx) -> Future.succeededFuture(ToolResult.text("Hello!")));
 * }</pre>
 *
 * <p>Registration is thread-safe and may happen at any time; sessions that are already open get the
 * {@code list_changed} notification. Registering a name that exists replaces it.
 */
public interface McpServer {

  static McpServer create(Vertx vertx) {
    return create(vertx, new McpServerOptions());
  }

  /** A server whose stores are all in this JVM's memory ({@link McpStores#inMemory}). */
  static McpServer create(Vertx vertx, McpServerOptions options) {
    return create(vertx, options, McpStores.inMemory(vertx));
  }

  /**
   * A server keeping what outlives a request in {@code stores}: its tasks, and for its transports the events of SSE
   * streams and (shared stores) the sessions. Stores on Redis, say, are shared by every instance.
   */
  static McpServer create(Vertx vertx, McpServerOptions options, McpStores stores) {
    return new McpServerImpl(vertx, options, stores, null);
  }

  /**
   * A server that is one instance of a deployment: task handlers it runs are recorded under {@code instance}'s
   * lease, so that when this instance dies another one settles them, and this instance settles the tasks of dead
   * ones. The HTTP transport uses the same instance to own sessions. Make the instance on the stores' lease store,
   * {@code McpInstance.create(vertx, stores.leases(), instanceOptions)}; it is started and closed by the caller.
   */
  static McpServer create(Vertx vertx, McpServerOptions options, McpStores stores, McpInstance instance) {
    return new McpServerImpl(vertx, options, stores, Objects.requireNonNull(instance, "instance"));
  }

  Vertx vertx();

  McpServerOptions options();

  /** Where this server, and its transports, keep what outlives a request. */
  McpStores stores();

  /**
   * Completes when every task handler running on this server has finished and its outcome is stored, or after
   * {@code timeoutMs}, whichever comes first; never fails. It does not stop new tasks from starting: stop the
   * transport first. For a graceful shutdown: call it after the transport stopped taking requests and
   * before the {@link McpInstance} releases its lease, so tasks about to finish finish
   * here, and those still running after the deadline become orphans that other instances settle at once.
   */
  Future<Void> drainTasks(long timeoutMs);

  /** The deployment instance this server belongs to; empty for a server that stands alone. */
  Optional<McpInstance> instance();

  /** The codec every transport of this server uses, with the server's limits. */
  JsonRpcCodec codec();

  McpServer tool(Tool tool, ToolHandler handler);

  /** A tool whose handler blocks; it runs as {@link McpServerOptions#getBlockingExecution()} says. */
  McpServer blockingTool(Tool tool, BlockingToolHandler handler);

  McpServer resource(Resource resource, ResourceHandler handler);

  McpServer resourceTemplate(ResourceTemplate template, ResourceTemplateHandler handler);

  McpServer prompt(Prompt prompt, PromptHandler handler);

  /** Completions for one argument of a registered prompt. */
  McpServer promptCompletion(String promptName, String argument, CompletionHandler handler);

  /** Completions for one variable of a registered resource template. */
  McpServer resourceTemplateCompletion(String uriTemplate, String variable, CompletionHandler handler);

  boolean removeTool(String name);

  boolean removeResource(String uri);

  boolean removeResourceTemplate(String uriTemplate);

  boolean removePrompt(String name);

  /**
   * Tells every session and {@code subscriptions/listen} stream subscribed to {@code uri} that the resource changed,
   * and hands {@code uri} to the {@link #resourceUpdateRelay relay}, if one is set.
   */
  void resourceUpdated(String uri);

  /**
   * Sets where each {@link #resourceUpdated} call made on this server is also reported, on the caller's thread: a
   * relay that carries the update to the servers of the deployment's other instances (the verticles module's
   * {@code ClusterNotifications} is one). Null removes it.
   */
  McpServer resourceUpdateRelay(Handler<String> relay);

  /**
   * Tells this server's own sessions and streams subscribed to {@code uri} that the resource changed, without
   * reporting it to the relay: how a relay delivers an update that another instance reported, so that relays
   * cannot echo updates back and forth.
   */
  void resourceUpdatedElsewhere(String uri);

  /**
   * Creates a session bound to the current Vert.x context, which must exist (call it from a verticle).
   *
   * @param defaultSink where messages that belong to no request go
   */
  McpSession createSession(String sessionId, MessageSink defaultSink);

  /** Like {@link #createSession(String, MessageSink)}, for a session owned by an authenticated principal. */
  McpSession createSession(String sessionId, MessageSink defaultSink, Principal principal);

  /**
   * Rebuilds a session from its stored record (created on another instance, or before a restart): it resumes in the
   * recorded state, revision, client declaration, log level and subscriptions, owned by the recorded principal.
   * Requests that were in flight where it was served before are not resumed. Call it on an event-loop context.
   */
  McpSession restoreSession(SessionRecord record, MessageSink defaultSink);

  /** The stateless (2026-07-28) side of this server, serving the same features without sessions. */
  StatelessServer stateless();

  /**
   * Installs the observer told what this server does (requests served, sessions, tasks; see {@link McpObserver});
   * its transports report to it too. Install it before the transports start; null removes it.
   */
  McpServer observer(McpObserver observer);

  /** The installed observer; empty when none is. */
  Optional<McpObserver> observer();

  /** Called, on the session's context, when a client sends {@code notifications/roots/list_changed}. */
  McpServer rootsChangedHandler(Handler<McpSession> handler);
}
