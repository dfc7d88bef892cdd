package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.HandlerDefinitionException;
import io.mcpvertx.annotations.McpCompletion;
import io.mcpvertx.annotations.McpPrompt;
import io.mcpvertx.annotations.McpResource;
import io.mcpvertx.annotations.McpResourceTemplate;
import io.mcpvertx.annotations.McpTool;
import io.mcpvertx.server.prompts.PromptArgument;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The annotated methods of some objects, each made into a binding: the methods of each object's class and its
 * superclasses, each class's sorted by name (the JVM gives them in no fixed order). Names, URIs and URI templates
 * must be unique across all of them, and each completion must complete an argument they declare.
 */
record Scanned(List<ToolBinding> tools, List<PromptBinding> prompts, List<ResourceBinding> resources,
    List<TemplateBinding> templates, List<CompletionBinding> completions) {

  private static final List<Class<? extends Annotation>> FEATURES = List.of(McpTool.class, McpPrompt.class,
      McpResource.class, McpResourceTemplate.class, McpCompletion.class);

  static Scanned of(List<Object> handlers) {
    Scanned scanned = new Scanned(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
        new ArrayList<>());
    Map<String, String> seen = new HashMap<>();
    Map<CompletionBinding, Method> completions = new HashMap<>();
    for (Object handler : handlers) {
      if (handler == null) {
        throw new HandlerDefinitionException("A handler object is null");
      }
      for (Method method : methods(handler.getClass())) {
        scanned.add(handler, method, seen, completions);
      }
    }
    completions.forEach(scanned::checkTarget);
    return new Scanned(List.copyOf(scanned.tools), List.copyOf(scanned.prompts), List.copyOf(scanned.resources),
        List.copyOf(scanned.templates), List.copyOf(scanned.completions));
  }

  private void add(Object handler, Method method, Map<String, String> seen, Map<CompletionBinding, Method> pending) {
    McpTool tool = method.getAnnotation(McpTool.class);
    McpPrompt prompt = method.getAnnotation(McpPrompt.class);
    McpResource resource = method.getAnnotation(McpResource.class);
    McpResourceTemplate template = method.getAnnotation(McpResourceTemplate.class);
    if (tool != null) {
      ToolBinding binding = ToolBinding.of(handler, method, tool);
      unique(method, seen, "tool " + binding.tool().name(), binding.where());
      tools.add(binding);
    } else if (prompt != null) {
      PromptBinding binding = PromptBinding.of(handler, method, prompt);
      unique(method, seen, "prompt " + binding.prompt().name(), binding.where());
      prompts.add(binding);
    } else if (resource != null) {
      ResourceBinding binding = ResourceBinding.of(handler, method, resource);
      unique(method, seen, "resource " + binding.resource().uri(), binding.where());
      resources.add(binding);
    } else if (template != null) {
      TemplateBinding binding = TemplateBinding.of(handler, method, template);
      unique(method, seen, "resource template " + binding.template().uriTemplate(), binding.where());
      templates.add(binding);
    } else {
      CompletionBinding binding = CompletionBinding.of(handler, method, method.getAnnotation(McpCompletion.class));
      unique(method, seen, "completion of " + binding.target() + " argument " + binding.argument(), binding.where());
      completions.add(binding);
      pending.put(binding, method);
    }
  }

  private void checkTarget(CompletionBinding completion, Method method) {
    boolean known;
    if (completion.prompt().isEmpty()) {
      known = templates.stream().filter(t -> t.template().uriTemplate().equals(completion.template()))
          .anyMatch(t -> t.variables().contains(completion.argument()));
    } else {
      Optional<PromptBinding> prompt = prompts.stream().filter(p -> p.prompt().name().equals(completion.prompt()))
          .findFirst();
      known = prompt.isPresent() && prompt.get().prompt().arguments().stream().map(PromptArgument::name)
          .anyMatch(completion.argument()::equals);
    }
    if (!known) {
      throw Where.problem(method, "completes argument " + completion.argument() + " of " + completion.target()
          + ", which no method of this registration declares");
    }
  }

  private static void unique(Method method, Map<String, String> seen, String what, String where) {
    String first = seen.putIfAbsent(what, where);
    if (first != null) {
      throw Where.problem(method, "declares " + what + ", which " + first + " declares already");
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
