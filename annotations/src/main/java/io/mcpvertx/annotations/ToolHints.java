package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The behaviour hints of an {@link McpTool} method (the spec's tool annotations). Clients cannot verify them; the
 * defaults are the spec's. Without this annotation the tool declares none.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ToolHints {

  boolean readOnly() default false;

  boolean destructive() default true;

  boolean idempotent() default false;

  boolean openWorld() default true;
}
