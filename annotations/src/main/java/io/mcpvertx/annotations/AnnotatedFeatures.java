package io.mcpvertx.annotations;

import io.mcpvertx.annotations.impl.AnnotatedFeaturesImpl;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import java.util.List;

/**
 * The features declared by the annotated methods of one or more objects, with their definitions and schemas
 * made, ready to be registered on a server.
 *
 * <pre>{@code
 * AnnotatedFeatures.register(server, new WeatherTools(client));
 * }</pre>
 *
 * <p>Everything is checked when the features are made: a duplicate name, a parameter or return type that cannot
 * be bound or described, a schema that does not compile, a tool without a description, a completion of an unknown
 * prompt. Each fails with a {@link HandlerDefinitionException} naming the class and the method.
 */
public interface AnnotatedFeatures {

  /** Reads the annotated methods of {@code handlers}. */
  static AnnotatedFeatures of(Object... handlers) {
    return AnnotatedFeaturesImpl.scan(List.of(handlers));
  }

  /** Reads the annotated methods of {@code handlers} and registers them on {@code server}. */
  static AnnotatedFeatures register(McpServer server, Object... handlers) {
    return of(handlers).registerOn(server);
  }

  /** The tools, as clients will see them. */
  List<Tool> tools();

  List<Prompt> prompts();

  List<Resource> resources();

  List<ResourceTemplate> resourceTemplates();

  /** Registers every feature on {@code server} (a name the server has already is replaced, as the server does). */
  AnnotatedFeatures registerOn(McpServer server);

  /** Removes from {@code server} every tool, prompt, resource and template these methods declare. */
  void removeFrom(McpServer server);
}
