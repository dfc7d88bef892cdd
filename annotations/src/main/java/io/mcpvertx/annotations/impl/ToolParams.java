package io.mcpvertx.annotations.impl;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcpvertx.annotations.McpArg;
import io.mcpvertx.server.RequestContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters of a tool method: each is a JSON argument (see {@link JsonArgument}) or the injected
 * {@link RequestContext}; together they give the tool's input schema.
 */
final class ToolParams {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final JsonArgument[] arguments; // null at the index of the RequestContext
  private final JsonObject inputSchema;

  private ToolParams(JsonArgument[] arguments, JsonObject inputSchema) {
    this.arguments = arguments;
    this.inputSchema = inputSchema;
  }

  static ToolParams of(Method method) {
    Parameter[] parameters = method.getParameters();
    JsonArgument[] arguments = new JsonArgument[parameters.length];
    TypeSchemas.Shared shared = new TypeSchemas.Shared();
    Map<String, ObjectNode> properties = new LinkedHashMap<>();
    Map<String, ParamInfo> infos = new LinkedHashMap<>();
    Map<String, JsonNode> defaults = new LinkedHashMap<>();
    ArrayNode required = NODES.arrayNode();
    for (int i = 0; i < parameters.length; i++) {
      Parameter parameter = parameters[i];
      if (parameter.getType() == RequestContext.class) {
        continue;
      }
      ParamInfo info = ParamInfo.of(method, parameter);
      if (properties.containsKey(info.name())) {
        throw Where.problem(method, "two parameters take the argument name '" + info.name() + "'");
      }
      JavaType type = JsonMapping.MAPPER.getTypeFactory().constructType(info.valueType());
      JsonNode defaultValue = null;
      if (info.defaultText() != null) {
        try {
          defaultValue = JsonArgument.parseDefault(info.defaultText(), type);
        } catch (Exception e) {
          throw Where.problem(method, "the default of '" + info.name() + "' is not a " + type.getRawClass()
              .getSimpleName() + ": " + info.defaultText());
        }
      }
      arguments[i] = new JsonArgument(info.name(), type, info.optional(), defaultValue);
      properties.put(info.name(), schemaOf(type.getRawClass(), info, shared));
      infos.put(info.name(), info);
      if (defaultValue != null) {
        defaults.put(info.name(), defaultValue);
      }
      if (info.required()) {
        required.add(info.name());
      }
    }
    ObjectNode definitions = shared.definitions();
    ObjectNode schema = NODES.objectNode().put("type", "object");
    ObjectNode props = schema.putObject("properties");
    properties.forEach((name, node) -> {
      ParamInfo info = infos.get(name);
      if (!info.description().isEmpty()) {
        node.put("description", info.description());
      }
      if (defaults.containsKey(name)) {
        node.set("default", defaults.get(name));
      }
      props.set(name, node);
    });
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    if (!definitions.isEmpty()) {
      schema.set(TypeSchemas.DEFS, definitions);
    }
    return new ToolParams(arguments, JsonMapping.toJsonObject(schema));
  }

  private static ObjectNode schemaOf(Class<?> raw, ParamInfo info, TypeSchemas.Shared shared) {
    if (raw == JsonObject.class) {
      return NODES.objectNode().put("type", "object");
    }
    if (raw == JsonArray.class) {
      return NODES.objectNode().put("type", "array");
    }
    return shared.reference(info.valueType());
  }

  JsonObject inputSchema() {
    return inputSchema;
  }

  Object[] bind(JsonObject args, RequestContext ctx) {
    Object[] values = new Object[arguments.length];
    for (int i = 0; i < values.length; i++) {
      JsonArgument argument = arguments[i];
      values[i] = argument == null ? ctx : argument.bind(args);
    }
    return values;
  }
}
