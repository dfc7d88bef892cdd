package io.mcpvertx.server.impl;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.server.BlockingToolHandler;
import io.mcpvertx.server.CompletionHandler;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.Principal;
import io.mcpvertx.server.PromptHandler;
import io.mcpvertx.server.ResourceHandler;
import io.mcpvertx.server.ResourceTemplateHandler;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.ToolHandler;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.server.impl.features.BlockingRunner;
import io.mcpvertx.server.impl.features.Capabilities;
import io.mcpvertx.server.impl.features.FeatureDispatcher;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredPrompt;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredResource;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTemplate;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.impl.features.FeatureRegistry;
import io.mcpvertx.server.impl.features.JsonSchemas;
import io.mcpvertx.server.impl.features.UriTemplate;
import io.mcpvertx.server.impl.observe.ObserverSlot;
import io.mcpvertx.server.impl.session.Sessions;
import io.mcpvertx.server.impl.stateless.StatelessEngine;
import io.mcpvertx.server.impl.tasks.FailoverReruns;
import io.mcpvertx.server.impl.tasks.TaskEngine;
import io.mcpvertx.server.observe.McpObserver;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/** The default {@link McpServer}: a thread-safe registry plus the factory of session engines. */
public final class McpServerImpl implements McpServer {

  private final Vertx vertx;
  private final McpServerOptions options;
  private final JsonRpcCodec codec;
  private final FeatureRegistry registry = new FeatureRegistry();
  private final FeatureDispatcher features;
  private final BlockingRunner blockingRunner;
  private volatile Handler<McpSession> rootsChangedHandler;
  private final ObserverSlot observers = new ObserverSlot();
  private volatile Handler<String> resourceUpdateRelay;
  private final TaskEngine tasks;
  private final Sessions sessions;
  private final StatelessEngine stateless;
  private final McpInstance instance;
  private final McpStores stores;

  /** @param instance the deployment instance whose lease covers this server's task executions; null when alone */
  public McpServerImpl(Vertx vertx, McpServerOptions options, McpStores stores, McpInstance instance) {
    this(vertx, options, stores, instance, System::currentTimeMillis);
  }

  /** @param statelessClock what dates {@code requestState} expiry (a seam for tests) */
  public McpServerImpl(Vertx vertx, McpServerOptions options, McpStores stores, McpInstance instance,
      LongSupplier statelessClock) {
    this.stores = Objects.requireNonNull(stores, "stores");
    this.instance = instance;
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.options = new McpServerOptions(options);
    this.codec = JsonRpcCodec.create(this.options.getCodecOptions());
    this.features = new FeatureDispatcher(registry, this.options.getPageSize());
    this.blockingRunner = new BlockingRunner(this.options.getBlockingExecution());
    // One engine per server: its requestState key must be the same for every request.
    this.tasks = new TaskEngine(vertx, stores.tasks(), this.options.getTaskOptions(), instance, observers);
    this.tasks.rerunner(new FailoverReruns(tasks, registry, features, blockingRunner));
    Capabilities capabilities = new Capabilities(registry);
    this.sessions = new Sessions(vertx, this.options, registry, features, capabilities, blockingRunner, tasks,
        () -> rootsChangedHandler, observers);
    this.stateless = new StatelessEngine(vertx, this.options, registry, features, capabilities, blockingRunner, tasks,
        statelessClock, observers);
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
    return sessions.create(sessionId, context, defaultSink, principal);
  }

  @Override
  public McpSession restoreSession(SessionRecord record, MessageSink defaultSink) {
    Context context = Vertx.currentContext();
    if (context == null || !context.isEventLoopContext()) {
      throw new IllegalStateException("Sessions must be restored on an event-loop context (from a verticle)");
    }
    return sessions.restore(record, context, defaultSink);
  }

  @Override
  public McpServer observer(McpObserver observer) {
    observers.set(observer);
    return this;
  }

  @Override
  public Optional<McpObserver> observer() {
    return Optional.ofNullable(observers.get());
  }

  @Override
  public StatelessServer stateless() {
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

  @Override
  public McpStores stores() {
    return stores;
  }
}
