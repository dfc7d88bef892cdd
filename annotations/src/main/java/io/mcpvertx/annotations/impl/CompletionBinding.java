package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpCompletion;
import io.mcpvertx.server.CompletionHandler;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.completion.Completion;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/**
 * A completion method: suggestions for one argument of a prompt or one variable of a template declared by the same
 * registration.
 */
record CompletionBinding(String prompt, String template, String argument, CompletionHandler handler, String where) {

  static CompletionBinding of(Object target, Method method, McpCompletion annotation) {
    if (annotation.prompt().isEmpty() == annotation.resourceTemplate().isEmpty()) {
      throw Where.problem(method, "a completion names either a prompt or a resource template");
    }
    StringParams params = StringParams.of(method, StringParams.Role.TYPED, null, false);
    ReturnType returns = ReturnType.of(method);
    boolean list = List.class.isAssignableFrom(returns.raw()) && returns.element() == String.class;
    if (returns.raw() != Completion.class && !list) {
      throw Where.problem(method, "a completion returns a List<String> or a Completion");
    }
    Invoker invoker = new Invoker(target, method, false, returns.async());
    CompletionHandler handler = (request, ctx) -> invoker.call(params.bind(new StringParams.Inputs(Map.of(), null,
        request, ctx)), ctx).map(CompletionBinding::convert);
    return new CompletionBinding(annotation.prompt(), annotation.resourceTemplate(), annotation.argument(), handler,
        Where.of(method));
  }

  @SuppressWarnings("unchecked")
  private static Completion convert(Object value) {
    if (value instanceof Completion completion) {
      return completion;
    }
    return Completion.of(value == null ? List.of() : (List<String>) value);
  }

  /** The feature completed, for error messages. */
  String target() {
    return prompt.isEmpty() ? "resource template " + template : "prompt " + prompt;
  }

  void registerOn(McpServer server) {
    if (prompt.isEmpty()) {
      server.resourceTemplateCompletion(template, argument, handler);
    } else {
      server.promptCompletion(prompt, argument, handler);
    }
  }
}
