package io.mcpvertx.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method the reader of one concrete resource. A {@code String} parameter receives the URI read, a
 * {@link io.mcpvertx.server.RequestContext} parameter the request's context. It returns a {@code ResourceResult},
 * a {@code ResourceContents}, a list of them, a {@code String} (text of {@link #mimeType()}) or a {@code byte[]}
 * (a blob), or a {@code Future} of one of these.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpResource {

  String uri();

  /** The resource's name; the method's name when empty. */
  String name() default "";

  String title() default "";

  String description() default "";

  /** The MIME type listed, and given to text and blob values; none when empty. */
  String mimeType() default "";

  /** The method blocks: it runs off the event loop. Such a method returns its value, not a Future. */
  boolean blocking() default false;
}
