package io.mcpvertx.examples.hello;

import io.mcpvertx.annotations.McpArg;
import io.mcpvertx.annotations.McpPrompt;
import io.mcpvertx.annotations.McpResourceTemplate;
import io.mcpvertx.annotations.McpTool;

/**
 * {@link HelloServer}'s tool, resource template and prompt as annotated methods: the schemas and argument lists
 * come from the parameters.
 */
// tag::annotated-hello[]
public class HelloFeatures {

  @McpTool(description = "Greets someone by name")
  public String greet(@McpArg(name = "name", description = "Who to greet") String name) {
    return "Hello, " + name + "!";
  }

  @McpResourceTemplate(uriTemplate = "hello://greetings/{name}", name = "greeting", mimeType = "text/plain",
      description = "A greeting for the named person")
  public String greeting(@McpArg(name = "name") String name) {
    return "Hello, " + name + "!";
  }

  @McpPrompt(description = "Asks the model to introduce someone")
  public String introduce(@McpArg(name = "name", description = "Who to introduce") String name) {
    return "Please introduce " + name + " in one sentence.";
  }
}
// end::annotated-hello[]
