package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpPrompt;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.PromptHandler;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;

/** A prompt method with its definition; its String parameters are the prompt's arguments. */
record PromptBinding(Prompt prompt, PromptHandler handler, String where) {

  static PromptBinding of(Object target, Method method, McpPrompt annotation) {
    String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
    StringParams params = StringParams.of(method, StringParams.Role.NAMED, null, false);
    ReturnType returns = ReturnType.of(method);
    Class<?> raw = returns.raw();
    boolean messages = Collection.class.isAssignableFrom(raw) && returns.element() == PromptMessage.class;
    if (raw != PromptResult.class && raw != PromptMessage.class && raw != String.class && !messages) {
      throw Where.problem(method, "a prompt returns a PromptResult, a PromptMessage, a list of them or a String");
    }
    Invoker invoker = new Invoker(target, method, annotation.blocking(), returns.async());
    List<PromptArgument> arguments = params.named().stream().map(info -> new PromptArgument(info.name(), null,
        info.description().isEmpty() ? null : info.description(), info.required())).toList();
    Prompt prompt = new Prompt(name, annotation.title().isEmpty() ? null : annotation.title(),
        annotation.description().isEmpty() ? null : annotation.description(), arguments, null);
    PromptHandler handler = (args, ctx) -> invoker.call(params.bind(new StringParams.Inputs(args, null, null, ctx)),
        ctx).map(PromptBinding::convert);
    return new PromptBinding(prompt, handler, Where.of(method));
  }

  @SuppressWarnings("unchecked")
  private static PromptResult convert(Object value) {
    if (value instanceof PromptResult result) {
      return result;
    }
    if (value instanceof PromptMessage message) {
      return PromptResult.of(message);
    }
    if (value instanceof String text) {
      return PromptResult.of(PromptMessage.user(text));
    }
    if (value instanceof Collection<?> messages) {
      return new PromptResult(null, List.copyOf((Collection<PromptMessage>) messages));
    }
    throw new IllegalStateException("A prompt method returned null");
  }

  void registerOn(McpServer server) {
    server.prompt(prompt, handler);
  }
}
