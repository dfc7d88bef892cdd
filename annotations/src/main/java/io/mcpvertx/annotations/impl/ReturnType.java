package io.mcpvertx.annotations.impl;

import io.vertx.core.Future;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;

/**
 * A method's return type, seen through {@code Future}: {@code async} says the method returns a Future, and
 * {@code value} is the type of what it yields.
 */
record ReturnType(boolean async, Type value, Class<?> raw) {

  static ReturnType of(Method method) {
    Type type = method.getGenericReturnType();
    boolean async = method.getReturnType() == Future.class;
    if (async) {
      if (!(type instanceof ParameterizedType generic)) {
        throw Where.problem(method, "returns a raw Future: say what it yields");
      }
      type = generic.getActualTypeArguments()[0];
    }
    if (type instanceof TypeVariable<?> || type instanceof WildcardType) {
      throw Where.problem(method, "returns " + type.getTypeName() + ", which has no concrete type");
    }
    return new ReturnType(async, type, rawOf(type));
  }

  static Class<?> rawOf(Type type) {
    return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
  }

  /** The type argument of a parameterized type such as {@code List<X>}, or null. */
  Class<?> element() {
    if (value instanceof ParameterizedType p && p.getActualTypeArguments().length == 1) {
      Type element = p.getActualTypeArguments()[0];
      if (element instanceof WildcardType wildcard) {
        element = wildcard.getUpperBounds()[0];
      }
      return element instanceof Class<?> || element instanceof ParameterizedType ? rawOf(element) : null;
    }
    return null;
  }

  boolean isVoid() {
    return raw == void.class || raw == Void.class;
  }
}
