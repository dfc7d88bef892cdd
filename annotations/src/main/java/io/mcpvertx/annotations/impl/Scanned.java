package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.HandlerDefinitionException;
import io.mcpvertx.annotations.McpTool;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The annotated methods of some objects, each made into a binding: the methods of each object's class and its
 * superclasses, each class's sorted by name
 * (the JVM gives them in no fixed order). Names must be unique across all of them.
 */
record Scanned(List<ToolBinding> tools) {

  private static final List<Class<? extends Annotation>> FEATURES = List.of(McpTool.class);

  static Scanned of(List<Object> handlers) {
    List<ToolBinding> tools = new ArrayList<>();
    Map<String, String> toolNames = new HashMap<>();
    for (Object handler : handlers) {
      if (handler == null) {
        throw new HandlerDefinitionException("A handler object is null");
      }
      for (Method method : methods(handler.getClass())) {
        McpTool tool = method.getAnnotation(McpTool.class);
        if (tool != null) {
          ToolBinding binding = ToolBinding.of(handler, method, tool);
          unique(method, toolNames, "tool", binding.tool().name(), binding.where());
          tools.add(binding);
        }
      }
    }
    return new Scanned(List.copyOf(tools));
  }

  private static void unique(Method method, Map<String, String> seen, String kind, String key, String where) {
    String first = seen.putIfAbsent(key, where);
    if (first != null) {
      throw Where.problem(method, "declares " + kind + " " + key + ", which " + first + " declares already");
    }
  }

  /** Annotated methods of the class and its superclasses, one feature annotation each. */
  private static List<Method> methods(Class<?> type) {
    List<Method> methods = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      Method[] declared = c.getDeclaredMethods();
      Arrays.sort(declared, Comparator.comparing(Method::getName).thenComparing(Method::toGenericString));
      for (Method method : declared) {
        if (method.isSynthetic() || method.isBridge()) {
          continue;
        }
        long features = FEATURES.stream().filter(method::isAnnotationPresent).count();
        if (features > 1) {
          throw Where.problem(method, "carries more than one feature annotation");
        }
        if (features == 1) {
          methods.add(method);
        }
      }
    }
    return methods;
  }
}
