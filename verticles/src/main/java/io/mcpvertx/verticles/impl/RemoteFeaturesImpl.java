package io.mcpvertx.verticles.impl;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptResult;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceResult;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.RemoteFeatures;
import io.mcpvertx.verticles.RemoteFeaturesOptions;
import io.mcpvertx.verticles.impl.cluster.ClusterMembership;
import io.mcpvertx.verticles.impl.cluster.Departures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows feature-verticle announcements and registers a proxy for each feature on the server.
 *
 * <p>Several verticles may serve the same feature (the same tool verticle deployed on two worker nodes, or a new
 * version deployed before the old one is undeployed). Calls go to the one that announced itself last, and the
 * definition listed is that one's; when it goes away, the previous one takes over, so the feature stays while any
 * of them lives. Sessions hear {@code list_changed} only when the listed definition changes or the feature goes.
 *
 * <p>On a clustered Vert.x the cluster manager's member list is read every
 * {@link RemoteFeaturesOptions#getMembershipCheckIntervalMs()}: a node that left (shut down, crashed or cut off)
 * takes its verticles' features with it, and the calls in flight to it fail at once.
 *
 * <p>State changes happen on the bridge's context only (the context {@link #attach} was called on); the proxies
 * read {@link #entries} from sessions' contexts, so it is a concurrent map of immutable values.
 */
public final class RemoteFeaturesImpl implements RemoteFeatures {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteFeaturesImpl.class);

  /** The verticles serving one kind and key, oldest announcement first, and the definition registered. */
  private record Entry(List<FeatureProvider> providers, JsonObject registered) {
    FeatureProvider active() {
      return providers.get(providers.size() - 1);
    }
  }

  private final Vertx vertx;
  private final McpServer server;
  private final RemoteFeaturesOptions options;
  private final Context context;
  private final ClusterMembership membership;
  private final Departures departures = new Departures();
  private final RemoteCalls calls;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private MessageConsumer<JsonObject> announcements;
  private MessageConsumer<JsonObject> withdrawals;
  private long membershipTimer = -1;

  private RemoteFeaturesImpl(Vertx vertx, McpServer server, RemoteFeaturesOptions options, Context context) {
    this.vertx = vertx;
    this.server = server;
    this.options = new RemoteFeaturesOptions(options);
    this.context = context;
    this.membership = ClusterMembership.of(vertx);
    this.calls = new RemoteCalls(vertx, this.options.getCallTimeoutMs(), departures);
  }

  public static Future<RemoteFeatures> attach(Vertx vertx, McpServer server, RemoteFeaturesOptions options) {
    Context context = vertx.getOrCreateContext();
    RemoteFeaturesImpl bridge = new RemoteFeaturesImpl(vertx, server, options, context);
    Promise<RemoteFeatures> attached = Promise.promise();
    context.runOnContext(v -> bridge.start().onComplete(attached));
    return attached.future();
  }

  private Future<RemoteFeatures> start() {
    EventBus bus = vertx.eventBus();
    announcements = bus.consumer(RemoteProtocol.ANNOUNCE, m -> onAnnounce(m.body()));
    withdrawals = bus.consumer(RemoteProtocol.WITHDRAW, m -> onWithdraw(m.body()));
    if (membership != null) {
      membershipTimer = vertx.setPeriodic(options.getMembershipCheckIntervalMs(), id -> checkMembership());
    }
    return Future.all(announcements.completion(), withdrawals.completion()).map(v -> {
      bus.publish(RemoteProtocol.DISCOVER, new JsonObject());
      return this;
    });
  }

  @Override
  public int size() {
    return entries.size();
  }

  @Override
  public Future<Void> close() {
    Promise<Void> closed = Promise.promise();
    context.runOnContext(v -> {
      vertx.cancelTimer(membershipTimer);
      for (String kindKey : new ArrayList<>(entries.keySet())) {
        entries.remove(kindKey);
        int sep = kindKey.indexOf(':');
        unregister(kindKey.substring(0, sep), kindKey.substring(sep + 1));
      }
      Future.all(announcements.unregister(), withdrawals.unregister()).<Void>mapEmpty().onComplete(closed);
    });
    return closed.future();
  }

  private void onAnnounce(JsonObject announcement) {
    String kind = announcement.getString("kind");
    String key = announcement.getString("key");
    String address = announcement.getString("address");
    String node = announcement.getString("node");
    JsonObject definition = announcement.getJsonObject("definition");
    if (kind == null || key == null || address == null || definition == null) {
      LOG.warn("Ignored a malformed feature announcement: " + announcement.encode());
      return;
    }
    if (departures.hasLeft(node)) {
      LOG.debug("Ignored an announcement of " + kind + " " + key + " from node " + node
          + ", which has left the cluster");
      return;
    }
    if (!valid(kind, key, definition)) {
      return;
    }
    Entry entry = entries.get(kind + ":" + key);
    List<FeatureProvider> providers = entry == null ? new ArrayList<>() : new ArrayList<>(entry.providers());
    FeatureProvider provider = new FeatureProvider(address, node, definition);
    int index = indexOf(providers, address);
    if (index >= 0) {
      // A re-announcement (a server asked on DISCOVER): it keeps its place, so the choice does not flip around.
      providers.set(index, provider);
    } else {
      providers.add(provider);
    }
    apply(kind, key, providers);
  }

  private void onWithdraw(JsonObject withdrawal) {
    String kind = withdrawal.getString("kind");
    String key = withdrawal.getString("key");
    Entry entry = entries.get(kind + ":" + key);
    int index = entry == null ? -1 : indexOf(entry.providers(), withdrawal.getString("address"));
    if (index >= 0) {
      List<FeatureProvider> providers = new ArrayList<>(entry.providers());
      providers.remove(index);
      apply(kind, key, providers);
    }
  }

  private void checkMembership() {
    Set<String> members = membership.nodes();
    if (members == null) {
      return;
    }
    Set<String> announcing = new HashSet<>();
    entries.values().forEach(entry -> entry.providers().forEach(p -> {
      if (p.node() != null) {
        announcing.add(p.node());
      }
    }));
    Departures.Changes changes = departures.check(members, announcing);
    changes.gone().forEach(this::nodeLeft);
    if (!changes.returned().isEmpty()) {
      LOG.info("Cluster nodes " + changes.returned() + " are back; asking for their features again");
      vertx.eventBus().publish(RemoteProtocol.DISCOVER, new JsonObject());
    }
  }

  private void nodeLeft(String node) {
    int removed = 0;
    for (Map.Entry<String, Entry> e : new ArrayList<>(entries.entrySet())) {
      List<FeatureProvider> providers = new ArrayList<>(e.getValue().providers());
      if (providers.removeIf(p -> node.equals(p.node()))) {
        removed++;
        int sep = e.getKey().indexOf(':');
        apply(e.getKey().substring(0, sep), e.getKey().substring(sep + 1), providers);
      }
    }
    int failed = calls.nodeLeft(node);
    LOG.atLevel(removed + failed > 0 ? Level.INFO : Level.DEBUG).log("Cluster node " + node + " left: it served "
        + removed + " of the features here, and " + failed + " calls in flight to it failed");
  }

  /** Makes {@code providers} the verticles serving {@code kind} {@code key}, and registers what changed. */
  private void apply(String kind, String key, List<FeatureProvider> providers) {
    String kindKey = kind + ":" + key;
    if (providers.isEmpty()) {
      if (entries.remove(kindKey) != null) {
        unregister(kind, key);
      }
      return;
    }
    Entry before = entries.get(kindKey);
    JsonObject definition = providers.get(providers.size() - 1).definition();
    entries.put(kindKey, new Entry(List.copyOf(providers), definition));
    if (before != null && definition.equals(before.registered())) {
      return; // another verticle with the same definition: nothing listed changed, so no list_changed either
    }
    try {
      register(kind, key, kindKey, definition);
    } catch (IllegalArgumentException e) {
      entries.remove(kindKey);
      unregister(kind, key);
      LOG.warn("Ignored an invalid " + kind + " definition for " + key + ": " + e.getMessage());
    }
  }

  /** Whether {@code definition} reads as a {@code kind}; logs why not. */
  private static boolean valid(String kind, String key, JsonObject definition) {
    try {
      switch (kind) {
        case RemoteProtocol.KIND_TOOL -> Tool.fromJson(definition);
        case RemoteProtocol.KIND_PROMPT -> Prompt.fromJson(definition);
        case RemoteProtocol.KIND_RESOURCE -> Resource.fromJson(definition);
        default -> {
          LOG.warn("Ignored an announcement of unknown kind " + kind);
          return false;
        }
      }
      return true;
    } catch (IllegalArgumentException e) {
      LOG.warn("Ignored an invalid " + kind + " definition for " + key + ": " + e.getMessage());
      return false;
    }
  }

  private void register(String kind, String key, String kindKey, JsonObject definition) {
    switch (kind) {
      case RemoteProtocol.KIND_TOOL -> server.tool(Tool.fromJson(definition), (args, ctx) ->
          call(kindKey, "tool " + key, new JsonObject().put("arguments", args), ctx).map(ToolResult::fromJson)
              // The call was made and lost: a tool error the model can see, and may retry (another node may serve it).
              .recover(failure -> failure instanceof RemoteCalls.NodeLeftException
                  ? Future.succeededFuture(ToolResult.error(failure.getMessage())) : Future.failedFuture(failure)));
      case RemoteProtocol.KIND_PROMPT -> server.prompt(Prompt.fromJson(definition), (args, ctx) -> {
        JsonObject arguments = new JsonObject();
        args.forEach(arguments::put);
        return call(kindKey, "prompt " + key, new JsonObject().put("arguments", arguments), ctx)
            .map(PromptResult::fromJson);
      });
      case RemoteProtocol.KIND_RESOURCE -> server.resource(Resource.fromJson(definition), (uri, ctx) ->
          call(kindKey, "resource " + key, new JsonObject().put("uri", uri), ctx).map(ResourceResult::fromJson));
      default -> throw new IllegalArgumentException("unknown kind " + kind);
    }
  }

  private void unregister(String kind, String key) {
    switch (kind) {
      case RemoteProtocol.KIND_TOOL -> server.removeTool(key);
      case RemoteProtocol.KIND_PROMPT -> server.removePrompt(key);
      case RemoteProtocol.KIND_RESOURCE -> server.removeResource(key);
      default -> {
      }
    }
  }

  /** Calls the verticle now chosen for {@code kindKey}; runs on the calling session's context. */
  private Future<JsonObject> call(String kindKey, String what, JsonObject payload, RequestContext ctx) {
    Entry entry = entries.get(kindKey);
    if (entry == null) {
      return Future.failedFuture(new McpException(JsonRpcErrorCodes.INTERNAL_ERROR,
          what + " is not available right now"));
    }
    // The chosen one first, then the others, newest first.
    List<FeatureProvider> candidates = new ArrayList<>(entry.providers());
    Collections.reverse(candidates);
    return calls.call(candidates, what, payload, ctx);
  }

  private static int indexOf(List<FeatureProvider> providers, String address) {
    for (int i = 0; i < providers.size(); i++) {
      if (providers.get(i).address().equals(address)) {
        return i;
      }
    }
    return -1;
  }
}
