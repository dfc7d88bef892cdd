package io.mcpvertx.server.impl.features;

import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.CompletionHandler;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.completion.CompletionRequest;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredPrompt;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredResource;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTemplate;
import io.mcpvertx.server.impl.features.FeatureRegistry.RegisteredTool;
import io.mcpvertx.server.impl.features.FeatureRegistry.Snapshot;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The feature methods (tools, resources, prompts, completion), independent of sessions and transports: each takes
 * the request params and a {@link RequestContext} and yields the result object. The session engine and the
 * stateless engine both serve through it.
 */
public final class FeatureDispatcher {

  private final FeatureRegistry registry;
  private final int pageSize;

  public FeatureDispatcher(FeatureRegistry registry, int pageSize) {
    this.registry = registry;
    this.pageSize = pageSize;
  }

  public Future<JsonObject> listTools(JsonObject params, ProtocolVersion version) {
    return page(new ArrayList<>(registry.snapshot().tools().values()), params, "tools",
        t -> t.tool().toJson(version));
  }

  public Future<JsonObject> listResources(JsonObject params, ProtocolVersion version) {
    return page(new ArrayList<>(registry.snapshot().resources().values()), params, "resources",
        r -> r.resource().toJson(version));
  }

  public Future<JsonObject> listResourceTemplates(JsonObject params, ProtocolVersion version) {
    return page(new ArrayList<>(registry.snapshot().templates().values()), params, "resourceTemplates",
        t -> t.template().toJson(version));
  }

  public Future<JsonObject> listPrompts(JsonObject params, ProtocolVersion version) {
    return page(new ArrayList<>(registry.snapshot().prompts().values()), params, "prompts",
        p -> p.prompt().toJson(version));
  }

  public Future<JsonObject> callTool(JsonObject params, RequestContext ctx) {
    String name = requireString(params, "name");
    RegisteredTool tool = registry.snapshot().tools().get(name);
    if (tool == null) {
      throw McpException.invalidParams("Unknown tool: " + name);
    }
    return callTool(tool, params, ctx);
  }

  /** A {@code tools/call} of a tool the caller has already looked up by {@code params.name}. */
  public Future<JsonObject> callTool(RegisteredTool tool, JsonObject params, RequestContext ctx) {
    String name = tool.tool().name();
    Object rawArgs = params.getValue("arguments");
    if (rawArgs != null && !(rawArgs instanceof JsonObject)) {
      throw McpException.invalidParams("Invalid params: \"arguments\" must be an object");
    }
    JsonObject arguments = rawArgs == null ? new JsonObject() : (JsonObject) rawArgs;
    ProtocolVersion version = ctx.protocolVersion();
    List<String> violations = JsonSchemas.validate(tool.input(), arguments);
    if (!violations.isEmpty()) {
      String message = "Invalid arguments for tool " + name + ": " + String.join("; ", violations);
      if (version.supports(ProtocolFeature.INPUT_VALIDATION_AS_TOOL_ERROR)) {
        return Future.succeededFuture(ToolResult.error(message).toJson(version));
      }
      throw new McpException(JsonRpcErrorCodes.INVALID_PARAMS, message,
          new JsonObject().put("errors", new JsonArray(violations)));
    }
   return invoke(() -> tool.handler().call(arguments, ctx)).map(result -> {
      if (result == null) {
        throw McpException.internal("Internal error: tool " + name + " returned no result");
      }
      if (tool.output() != null && !result.isError()) {
        if (result.structuredContent() == null) {
          throw McpException.internal("Internal error: tool " + name
              + " declares an outputSchema but returned no structuredContent");
        }
        List<String> outputViolations = JsonSchemas.validate(tool.output(), result.structuredContent());
        if (!outputViolations.isEmpty()) {
          throw new McpException(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error: tool " + name
              + " returned structuredContent that does not match its outputSchema",
              new JsonObject().put("errors", new JsonArray(outputViolations)));
        }
      }
      return result.toJson(version);
    });
  }

  public Future<JsonObject> readResource(JsonObject params, RequestContext ctx) {
    String uri = requireString(params, "uri");
    Snapshot snapshot = registry.snapshot();
    RegisteredResource resource = snapshot.resources().get(uri);
    if (resource != null) {
     return invoke(() -> resource.handler().read(uri, ctx)).map(r -> requireResult(r, uri, ctx).toJson());
    }
    for (RegisteredTemplate template : snapshot.templates().values()) {
      Map<String, String> variables = template.matcher().match(uri);
      if (variables != null) {
       return invoke(() -> template.handler().read(uri, variables, ctx))
            .map(r -> requireResult(r, uri, ctx).toJson());
      }
    }
    throw resourceNotFound(uri, ctx.protocolVersion());
  }

  /** -32002 in the 2025 revisions; 2026-07-28 reports it as invalid params (SEP-2164). Both name the URI. */
  static McpException resourceNotFound(String uri, ProtocolVersion version) {
    int code = version.supports(ProtocolFeature.STATELESS) ? JsonRpcErrorCodes.INVALID_PARAMS
        : JsonRpcErrorCodes.RESOURCE_NOT_FOUND;
    return new McpException(code, "Resource not found: " + uri, new JsonObject().put("uri", uri));
  }

  private static <T> T requireResult(T result, String uri, RequestContext ctx) {
    if (result == null) {
      throw resourceNotFound(uri, ctx.protocolVersion());
    }
    return result;
  }

  public Future<JsonObject> getPrompt(JsonObject params, RequestContext ctx) {
    String name = requireString(params, "name");
    RegisteredPrompt prompt = registry.snapshot().prompts().get(name);
    if (prompt == null) {
      throw McpException.invalidParams("Unknown prompt: " + name);
    }
    Map<String, String> arguments = stringMap(params.getValue("arguments"), "arguments");
    List<String> missing = new ArrayList<>();
    for (PromptArgument argument : prompt.prompt().arguments()) {
      if (argument.required() && !arguments.containsKey(argument.name())) {
        missing.add(argument.name());
      }
    }
    if (!missing.isEmpty()) {
      throw McpException.invalidParams("Missing required argument" + (missing.size() > 1 ? "s" : "") + " for prompt "
          + name + ": " + String.join(", ", missing));
    }
   return invoke(() -> prompt.handler().get(arguments, ctx)).map(result -> {
      if (result == null) {
        throw McpException.internal("Internal error: prompt " + name + " returned no result");
      }
      return result.toJson(ctx.protocolVersion());
    });
  }

  public Future<JsonObject> complete(JsonObject params, RequestContext ctx) {
    if (!(params.getValue("ref") instanceof JsonObject ref)) {
      throw McpException.invalidParams("Invalid params: \"ref\" must be an object");
    }
    if (!(params.getValue("argument") instanceof JsonObject argument)) {
      throw McpException.invalidParams("Invalid params: \"argument\" must be an object");
    }
    String argName = requireString(argument, "name");
    Object rawValue = argument.getValue("value");
    if (!(rawValue instanceof String value)) {
      throw McpException.invalidParams("Invalid params: \"argument.value\" must be a string");
    }
    Snapshot snapshot = registry.snapshot();
    String key;
    String type = ref.getString("type", "");
    if (type.equals("ref/prompt")) {
      String promptName = requireString(ref, "name");
      if (!snapshot.prompts().containsKey(promptName)) {
        throw McpException.invalidParams("Unknown prompt: " + promptName);
      }
      key = FeatureRegistry.promptCompletionKey(promptName, argName);
    } else if (type.equals("ref/resource")) {
      String uri = requireString(ref, "uri");
      if (!snapshot.templates().containsKey(uri) && !snapshot.resources().containsKey(uri)) {
        throw McpException.invalidParams("Unknown resource template: " + uri);
      }
      key = FeatureRegistry.templateCompletionKey(uri, argName);
    } else {
      throw McpException.invalidParams("Invalid params: ref.type must be ref/prompt or ref/resource");
    }
    CompletionHandler handler = snapshot.completions().get(key);
    if (handler == null) {
      return Future.succeededFuture(Completion.of(List.of()).toJson());
    }
    Map<String, String> context = Map.of();
    if (ctx.protocolVersion().supports(ProtocolFeature.COMPLETION_CONTEXT)
        && params.getValue("context") instanceof JsonObject contextJson) {
      context = stringMap(contextJson.getValue("arguments"), "context.arguments");
    }
    CompletionRequest request = new CompletionRequest(argName, value, context);
   return invoke(() -> handler.complete(request, ctx)).map(c -> (c == null ? Completion.of(List.of()) : c).toJson());
  }

  /** Runs a user handler, turning a thrown exception or a null future into a failed future. */
  public static <T> Future<T> invoke(Supplier<Future<T>> call) {
    try {
      Future<T> future = call.get();
      return future == null ? Future.failedFuture(McpException.internal("Internal error: handler returned no future"))
          : future;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private <T> Future<JsonObject> page(List<T> all, JsonObject params, String member, Function<T, JsonObject> toJson) {
    Object cursor = params.getValue("cursor");
    if (cursor != null && !(cursor instanceof String)) {
      throw McpException.invalidParams("Invalid cursor");
    }
    Cursors.Page<T> page = Cursors.page(all, (String) cursor, pageSize);
    JsonArray items = new JsonArray(new ArrayList<>(page.items().size()));
    for (T item : page.items()) {
      items.add(toJson.apply(item));
    }
    JsonObject result = new JsonObject().put(member, items);
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return Future.succeededFuture(result);
  }

  private static String requireString(JsonObject params, String member) {
    if (!(params.getValue(member) instanceof String value) || value.isEmpty()) {
      throw McpException.invalidParams("Invalid params: \"" + member + "\" must be a non-empty string");
    }
    return value;
  }

  private static Map<String, String> stringMap(Object raw, String member) {
    if (raw == null) {
      return Map.of();
    }
    if (!(raw instanceof JsonObject json)) {
      throw McpException.invalidParams("Invalid params: \"" + member + "\" must be an object");
    }
    Map<String, String> map = new HashMap<>();
    for (Map.Entry<String, Object> entry : json) {
      if (!(entry.getValue() instanceof String s)) {
        throw McpException.invalidParams("Invalid params: " + member + "." + entry.getKey() + " must be a string");
      }
      map.put(entry.getKey(), s);
    }
    return map;
  }
}
