package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of an annotated method: a tool argument, a prompt argument, a template variable. Without
 * it, the argument takes the parameter's name (compile with {@code -parameters}) and is required unless its type
 * is {@code Optional} or it is annotated {@code @Nullable} (any annotation of that simple name).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface McpArg {

  /** Marks {@link #defaultValue()} as not set. */
  String NO_DEFAULT = "\u0000no default";

  /** The argument's name; the parameter's name when empty. */
  String name() default "";

  String description() default "";

  boolean required() default true;

  /**
   * The value used when the argument is absent, which makes it optional: the text itself for a {@code String} or
   * an enum, JSON for any other type ({@code "3"}, {@code "[\"a\"]"}). Also published as the schema's
   * {@code default}.
   */
  String defaultValue() default NO_DEFAULT;
}
