package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method a prompt. Its {@code String} (or {@code Optional<String>}) parameters are the prompt's arguments
 * (see {@link McpArg}); a {@link io.mcpvertx.server.RequestContext} parameter is injected. It returns a
 * {@code PromptResult}, a {@code PromptMessage}, a list of them, or a {@code String} (one user message), or a
 * {@code Future} of one of these. A failure answers {@code prompts/get} with an error: an
 * {@link io.mcpvertx.protocol.McpException}'s own, any other a generic internal error.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpPrompt {

  /** The prompt's name; the method's name when empty. */
  String name() default "";

  String title() default "";

  String description() default "";

  /** The method blocks: it runs off the event loop. Such a method returns its value, not a Future. */
  boolean blocking() default false;
}
