package io.mcpvertx.annotations;

import io.mcpvertx.server.tools.TaskSupport;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method a tool. Its parameters are the tool's arguments (see {@link McpArg}), except a
 * {@link io.mcpvertx.server.RequestContext}, which is injected; the input schema is generated from their types.
 *
 * <p>The method may return {@code ToolResult} (sent as it is), a {@code String} (one text block), a content block
 * or a list of them, {@code void}, a record or bean (sent as {@code structuredContent}, with an {@code outputSchema}
 * generated from its type and the same JSON as text for older clients), or any other value (its JSON as text); or a
 * {@code Future} of any of these. A thrown or failed {@link io.mcpvertx.protocol.McpException} becomes a JSON-RPC
 * error; a {@link ToolFailure} an {@code isError} result with its message; any other exception an {@code isError}
 * result with a generic message (the exception goes to the log).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpTool {

  /** The tool's name; the method's name when empty. */
  String name() default "";

  String title() default "";

  /** What the tool does, for the model; a tool without one is refused at registration. */
  String description();

  /**
   * The method blocks (JDBC, file I/O, a synchronous client): it runs off the event loop, as the server's
   * {@code blockingExecution} says (worker or virtual thread). Such a method returns its value, not a Future.
   */
  boolean blocking() default false;

  /** Whether calls may, must or must not run as tasks. */
  TaskSupport taskSupport() default TaskSupport.FORBIDDEN;

  /**
   * Over the tasks extension, a call becomes a task only if it is still running after this many milliseconds; 0
   * makes every eligible call a task at once. Needs a {@link #taskSupport()} other than forbidden.
   */
  long taskAfterMs() default 0;

  /** A task of this tool whose instance died is run again elsewhere: only for methods safe to run twice. */
  boolean rerunOnFailover() default false;
}
