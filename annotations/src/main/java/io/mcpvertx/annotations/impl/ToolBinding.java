package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpTool;
import io.mcpvertx.annotations.ToolHints;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.TaskSupport;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolAnnotations;
import io.mcpvertx.server.tools.ToolExecution;
import java.lang.reflect.Method;

/** A tool method with its definition: what {@code @McpTool} and the method's types declare. */
record ToolBinding(Tool tool, ToolMethod handler, boolean blocking, String where) {

  static ToolBinding of(Object target, Method method, McpTool annotation) {
    String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
    if (annotation.description().isBlank()) {
      throw Where.problem(method, "tool " + name + " has no description; the model chooses tools by it");
    }
    ToolParams params = ToolParams.of(method);
    ToolReturn returns = ToolReturn.of(method);
    Invoker invoker = new Invoker(target, method, annotation.blocking(), returns.async());
    Tool tool;
    try {
      tool = Tool.builder(name)
          .title(annotation.title().isEmpty() ? null : annotation.title())
          .description(annotation.description())
          .inputSchema(params.inputSchema())
          .outputSchema(returns.outputSchema())
          .annotations(hints(method.getAnnotation(ToolHints.class)))
          .execution(execution(method, annotation))
          .build();
    } catch (IllegalArgumentException e) {
      throw Where.problem(method, e.getMessage());
    }
    SchemaCheck.compiles(method, "input schema", tool.inputSchema());
    if (tool.outputSchema() != null) {
      SchemaCheck.compiles(method, "output schema", tool.outputSchema());
    }
    return new ToolBinding(tool, new ToolMethod(name, invoker, params, returns), annotation.blocking(),
        Where.of(method));
  }

  private static ToolAnnotations hints(ToolHints hints) {
    return hints == null ? null : new ToolAnnotations(null, hints.readOnly(), hints.destructive(), hints.idempotent(),
        hints.openWorld());
  }

  private static ToolExecution execution(Method method, McpTool annotation) {
    TaskSupport support = annotation.taskSupport();
    if (support == TaskSupport.FORBIDDEN) {
      if (annotation.taskAfterMs() != 0 || annotation.rerunOnFailover()) {
        throw Where.problem(method, "taskAfterMs and rerunOnFailover need a taskSupport other than FORBIDDEN");
      }
      return ToolExecution.DIRECT;
    }
    if (annotation.taskAfterMs() < 0) {
      throw Where.problem(method, "taskAfterMs must not be negative");
    }
    return ToolExecution.taskAfter(support, annotation.taskAfterMs())
        .withRerunOnFailover(annotation.rerunOnFailover());
  }

  /** Registers the tool on {@code server}: blocking methods through {@link McpServer#blockingTool}. */
  void registerOn(McpServer server) {
    if (blocking) {
      server.blockingTool(tool, handler::callBlocking);
    } else {
      server.tool(tool, handler);
    }
  }
}
