package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpArg;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * What a method parameter declares as an argument: its name, the type of its value ({@code T} for an
 * {@code Optional<T>}), whether it is required, its description and default.
 *
 * @param defaultText the default as written, or null for none
 */
record ParamInfo(String name, Type valueType, boolean optional, boolean required, String description,
    String defaultText) {

  static ParamInfo of(Method method, Parameter parameter) {
    McpArg arg = parameter.getAnnotation(McpArg.class);
    String name;
    if (arg != null && !arg.name().isEmpty()) {
      name = arg.name();
    } else if (parameter.isNamePresent()) {
      name = parameter.getName();
    } else {
      throw Where.problem(method, "parameter " + parameter.getName() + " has no name: compile with -parameters or "
          + "name it with @McpArg(name = ...)");
    }
    boolean optional = parameter.getType() == Optional.class;
    Type valueType = parameter.getParameterizedType();
    if (optional) {
      if (!(valueType instanceof ParameterizedType generic)) {
        throw Where.problem(method, "parameter '" + name + "' is a raw Optional: say what it holds");
      }
      valueType = generic.getActualTypeArguments()[0];
    }
    checkBindable(method, name, valueType);
    String defaultText = arg != null && !McpArg.NO_DEFAULT.equals(arg.defaultValue()) ? arg.defaultValue() : null;
    boolean nullable = TypeSchemas.hasNullable(parameter.getAnnotations())
        || TypeSchemas.hasNullable(parameter.getAnnotatedType().getAnnotations());
    boolean required = !optional && !nullable && defaultText == null && (arg == null || arg.required());
    if (!required && defaultText == null && parameter.getType().isPrimitive()) {
      throw Where.problem(method, "primitive parameter '" + name + "' is optional but has no default: give it one, "
          + "or use the boxed type or an Optional");
    }
    return new ParamInfo(name, valueType, optional, required, arg == null ? "" : arg.description(), defaultText);
  }

  /** Refuses what Jackson cannot build from JSON: type variables, wildcards, Object, other interfaces. */
  private static void checkBindable(Method method, String name, Type type) {
    if (type instanceof TypeVariable<?> || type instanceof WildcardType) {
      throw Where.problem(method, "parameter '" + name + "' has no concrete type (" + type.getTypeName() + ")");
    }
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (raw.isArray() || raw.isPrimitive() || raw.isEnum() || raw == JsonObject.class || raw == JsonArray.class
        || Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw)
        || Number.class.isAssignableFrom(raw)) {
      return;
    }
    if (raw == Object.class || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      throw Where.problem(method, "parameter '" + name + "' of type " + type.getTypeName()
          + " cannot be bound from JSON: use a record, a bean, an enum, a collection or a plain value");
    }
  }
}
