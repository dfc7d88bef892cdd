package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method the reader of the resources an RFC 6570 URI template names, such as {@code file:///logs/{date}}.
 * Its {@code String} (or {@code Optional<String>}) parameters receive the template's variables by name (see
 * {@link McpArg}); a {@code String} parameter named {@code uri} that is no variable receives the URI read; a
 * {@link io.mcpvertx.server.RequestContext} parameter is injected. Return types are those of {@link McpResource}.
 * Fail with an {@link io.mcpvertx.protocol.McpException} to say that no such resource exists.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpResourceTemplate {

  String uriTemplate();

  /** The template's name; the method's name when empty. */
  String name() default "";

  String title() default "";

  String description() default "";

  String mimeType() default "";

  /** The method blocks: it runs off the event loop. Such a method returns its value, not a Future. */
  boolean blocking() default false;
}
