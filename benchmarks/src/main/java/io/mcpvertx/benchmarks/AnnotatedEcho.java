package io.mcpvertx.benchmarks;

import io.mcpvertx.annotations.McpArg;
import io.mcpvertx.annotations.McpTool;

/**
 * {@link BenchServer#echoTool()} as an annotated method: the same name, description and input schema, so that
 * {@link SessionBenchmark} with {@code handlers=annotated} measures what the annotated path adds.
 */
public class AnnotatedEcho {

  @McpTool(name = "echo", description = "Returns its text argument")
  public String echo(@McpArg(name = "text") String text) {
    return text;
  }
}
