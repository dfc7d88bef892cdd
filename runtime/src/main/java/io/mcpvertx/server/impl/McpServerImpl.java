package io.mcpvertx.server.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.completion.CompletionHandler;
import io.mcpvertx.server.impl.FeatureRegistry.RegisteredPrompt;
import io.mcpvertx.server.impl.FeatureRegistry.RegisteredResource;
import io.mcpvertx.server.impl.FeatureRegistry.RegisteredTemplate;
import io.mcpvertx.server.impl.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptHandler;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceHandler;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.resources.ResourceTemplateHandler;
import io.mcpvertx.server.tools.BlockingToolHandler;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolHandler;
import io.mcpvertx.spi.McpStores;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Optional;

/** The default {@link McpServer}: a thread-safe registry plus the factory of session engines. */
public final class McpServerImpl implements McpServer {

  private final Vertx vertx;
  private final McpServerOptions options;
  private final JsonRpcCodec codec;
  private final FeatureRegistry registry = new FeatureRegistry();
  private final FeatureDispatcher features;
  private final BlockingRunner blockingRunner;
  private volatile Handler<McpSession> rootsChangedHandler;
  private volatile Handler<String> resourceUpdateRelay;
  private final StatelessEngine stateless;
  private final TaskEngine tasks;
  private final LegacyTasks legacyTasks;
  private final ExtensionTasks extensionTasks;
  private final McpInstance instance;
  private final McpStores stores;

  /** @param instance the deployment instance whose lease covers this server's task executions; null when alone */
  public McpServerImpl(Vertx vertx, McpServerOptions options, McpStores stores, McpInstance instance) {
    this.stores = Objects.requireNonNull(stores, "stores");
    this.instance = instance;
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.options = new McpServerOptions(options);
    this.codec = JsonRpcCodec.create(this.options.getCodecOptions());
    this.features = new FeatureDispatcher(registry, this.options.getPageSize());
    this.blockingRunner = new BlockingRunner(this.options.getBlockingExecution());
    // One engine per server: its requestState key must be the same for every request.
    this.tasks = new TaskEngine(vertx, stores.tasks(), this.options.getTaskOptions(), instance);
    this.tasks.rerunner(new FailoverReruns(tasks, registry, features, blockingRunner));
    this.legacyTasks = new LegacyTasks(tasks, registry, features, this.options.getPageSize());
    this.extensionTasks = new ExtensionTasks(tasks, registry, features);
    this.stateless = new StatelessEngine(this);
  }

  @Override
  public Future<Void> drainTasks(long timeoutMs) {
    return tasks.drain(Math.max(0, timeoutMs));
  }

  @Override
  public Optional<McpInstance> instance() {
    return Optional.ofNullable(instance);
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public McpServerOptions options() {
    return options;
  }

  @Override
  public JsonRpcCodec codec() {
    return codec;
  }

  @Override
  public McpServer tool(Tool tool, ToolHandler handler) {
    Objects.requireNonNull(handler, "handler");
    registry.putTool(new RegisteredTool(tool, handler, JsonSchemas.compile(tool.inputSchema()),
        tool.outputSchema() == null ? null : JsonSchemas.compile(tool.outputSchema())));
    return this;
  }

  @Override
  public McpServer blockingTool(Tool tool, BlockingToolHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return tool(tool, (args, ctx) -> ctx.executeBlocking(() -> handler.call(args, ctx)));
  }

  @Override
  public McpServer resource(Resource resource, ResourceHandler handler) {
    registry.putResource(new RegisteredResource(resource, Objects.requireNonNull(handler, "handler")));
    return this;
  }

  @Override
  public McpServer resourceTemplate(ResourceTemplate template, ResourceTemplateHandler handler) {
    registry.putTemplate(new RegisteredTemplate(template, new UriTemplate(template.uriTemplate()),
        Objects.requireNonNull(handler, "handler")));
    return this;
  }

  @Override
  public McpServer prompt(Prompt prompt, PromptHandler handler) {
    registry.putPrompt(new RegisteredPrompt(prompt, Objects.requireNonNull(handler, "handler")));
    return this;
  }

  @Override
  public McpServer promptCompletion(String promptName, String argument, CompletionHandler handler) {
    registry.putCompletion(FeatureRegistry.promptCompletionKey(promptName, argument),
        Objects.requireNonNull(handler, "handler"));
    return this;
  }

  @Override
  public McpServer resourceTemplateCompletion(String uriTemplate, String variable, CompletionHandler handler) {
    registry.putCompletion(FeatureRegistry.templateCompletionKey(uriTemplate, variable),
        Objects.requireNonNull(handler, "handler"));
    return this;
  }

  @Override
  public boolean removeTool(String name) {
    return registry.removeTool(name);
  }

  @Override
  public boolean removeResource(String uri) {
    return registry.removeResource(uri);
  }

  @Override
  public boolean removeResourceTemplate(String uriTemplate) {
    return registry.removeTemplate(uriTemplate);
  }

  @Override
  public boolean removePrompt(String name) {
    return registry.removePrompt(name);
  }

  @Override
  public void resourceUpdated(String uri) {
    registry.resourceUpdated(uri);
    Handler<String> relay = resourceUpdateRelay;
    if (relay != null) {
      relay.handle(uri);
    }
  }

  @Override
  public McpServerImpl resourceUpdateRelay(Handler<String> relay) {
    this.resourceUpdateRelay = relay;
    return this;
  }

  @Override
  public void resourceUpdatedElsewhere(String uri) {
    registry.resourceUpdated(uri);
  }

  @Override
  public McpSession createSession(String sessionId, MessageSink defaultSink) {
    return createSession(sessionId, defaultSink, null);
  }

  @Override
  public McpSession createSession(String sessionId, MessageSink defaultSink, Principal principal) {
    Context context = Vertx.currentContext();
    if (context == null || !context.isEventLoopContext()) {
      throw new IllegalStateException("Sessions must be created on an event-loop context (from a verticle)");
    }
    return new SessionEngine(this, Objects.requireNonNull(sessionId, "sessionId"),
        context, Objects.requireNonNull(defaultSink, "defaultSink"), principal);
  }

  @Override
  public McpSession restoreSession(io.mcpvertx.spi.sessions.SessionRecord record, MessageSink defaultSink) {
    Context context = Vertx.currentContext();
    if (context == null || !context.isEventLoopContext()) {
      throw new IllegalStateException("Sessions must be restored on an event-loop context (from a verticle)");
    }
    Principal principal = record.principal() == null ? null : Principal.fromJson(record.principal());
    SessionEngine session = new SessionEngine(this, record.sessionId(), context,
        Objects.requireNonNull(defaultSink, "defaultSink"), principal);
    session.restore(record);
    return session;
  }

  @Override
  public io.mcpvertx.server.StatelessServer stateless() {
    return stateless;
  }

  @Override
  public McpServerImpl rootsChangedHandler(Handler<McpSession> handler) {
    this.rootsChangedHandler = handler;
    return this;
  }

  /** Number of live sessions listening to this server's registry (for leak checks). */
  public int registryListeners() {
    return registry.listenerCount();
  }

  // ---- for the engines ----

  FeatureRegistry registry() {
    return registry;
  }

  FeatureDispatcher features() {
    return features;
  }

  LegacyTasks legacyTasks() {
    return legacyTasks;
  }

  ExtensionTasks extensionTasks() {
    return extensionTasks;
  }

  @Override
  public McpStores stores() {
    return stores;
  }

  BlockingRunner blockingRunner() {
    return blockingRunner;
  }

  ProtocolVersion negotiate(String requested) {
    return ProtocolVersion.negotiate(requested);
  }

  void rootsChanged(McpSession session) {
    Handler<McpSession> handler = rootsChangedHandler;
    if (handler != null) {
      handler.handle(session);
    }
  }

  /** The capabilities a session of {@code version} is offered: only what is registered. */
  JsonObject capabilities(ProtocolVersion version) {
    FeatureRegistry.Snapshot snapshot = registry.snapshot();
    JsonObject capabilities = new JsonObject().put("logging", new JsonObject());
    if (!snapshot.tools().isEmpty()) {
      capabilities.put("tools", new JsonObject().put("listChanged", true));
    }
    if (snapshot.hasResources()) {
      capabilities.put("resources", new JsonObject().put("subscribe", true).put("listChanged", true));
    }
    if (!snapshot.prompts().isEmpty()) {
      capabilities.put("prompts", new JsonObject().put("listChanged", true));
    }
    if (!snapshot.completions().isEmpty() && version.supports(ProtocolFeature.COMPLETIONS)) {
      capabilities.put("completions", new JsonObject());
    }
    if (version.supports(ProtocolFeature.TASKS)
        && snapshot.tools().values().stream().anyMatch(t -> t.tool().execution().allowsTasks())) {
      capabilities.put("tasks", LegacyTasks.capability());
    }
    return capabilities;
  }
}
