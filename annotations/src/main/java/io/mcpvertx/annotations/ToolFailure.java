package io.mcpvertx.annotations;

/**
 * Thrown (or failed with) by an {@link McpTool} method to report a failure the model should read: the call is
 * answered with an {@code isError} result carrying this message. Unlike other exceptions, whose messages may hold
 * internals and so never reach the client, this message is meant for it.
 */
public class ToolFailure extends RuntimeException {

  public ToolFailure(String message) {
    super(message, null, false, false);
  }
}
