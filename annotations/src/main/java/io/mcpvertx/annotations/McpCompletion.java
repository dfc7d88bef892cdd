package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method suggest values for one argument of a prompt, or one variable of a resource template, declared by
 * the same registration. A {@code String} parameter receives what the user has typed so far, a
 * {@code CompletionRequest} parameter the whole request (with the values already chosen for other arguments), a
 * {@link io.mcpvertx.server.RequestContext} parameter the context. It returns a {@code List<String>} or a
 * {@code Completion}, or a {@code Future} of one. It must not block.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpCompletion {

  /** The prompt whose argument is completed; empty when {@link #resourceTemplate()} is set. */
  String prompt() default "";

  /** The URI template whose variable is completed; empty when {@link #prompt()} is set. */
  String resourceTemplate() default "";

  /** The argument or variable completed. */
  String argument();
}
