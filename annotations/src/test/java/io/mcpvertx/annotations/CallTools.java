package io.mcpvertx.annotations;

import io.mcpvertx.annotations.Shapes.Place;
import io.mcpvertx.annotations.Shapes.Unit;
import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/** Tools of every return type and failure kind the call tests drive. */
public class CallTools {

  /** What a structured tool returns. */
  public record Weather(Place place, Unit unit, double temperature, List<String> warnings) {
  }

  @McpTool(description = "Structured weather for a place")
  public Weather weather(Place place, @McpArg(defaultValue = "CELSIUS") Unit unit, Optional<Integer> offset) {
    return new Weather(place, unit, 21.5 + offset.orElse(0), List.of("wind"));
  }

  @McpTool(name = "greet", title = "Greeter", description = "Says hello")
  public String hello(@McpArg(description = "Who to greet") String name) {
    return "Hello, " + name + "!";
  }

  @McpTool(description = "Answers later")
  public Future<String> later(String text, RequestContext ctx) {
    return ctx.vertx().timer(1).map(t -> text.toUpperCase());
  }

  @McpTool(description = "Returns nothing")
  public void nothing() {
  }

  @McpTool(description = "Returns a result as it is")
  public ToolResult result() {
    return ToolResult.text("as is").withMeta(new JsonObject().put("kept", true));
  }

  @McpTool(description = "Returns two content blocks")
  public List<Content> blocks() {
    return List.of(Content.text("one"), Content.text("two"));
  }

  @McpTool(description = "Returns a number")
  public int count(List<String> items) {
    return items.size();
  }

  @McpTool(description = "Sees its request")
  public String context(RequestContext ctx) {
    return ctx.protocolVersion().id();
  }

  @McpTool(description = "Fails with a protocol error")
  public String protocolError() {
    throw McpException.invalidParams("no such city");
  }

  @McpTool(description = "Fails its future with a protocol error")
  public Future<String> failedFuture() {
    return Future.failedFuture(McpException.invalidParams("no such city either"));
  }

  @McpTool(description = "Fails for the model to read")
  public String toolFailure() {
    throw new ToolFailure("The station is offline; try another one.");
  }

  @McpTool(description = "Fails with a bug")
  public String bug() {
    throw new IllegalStateException("secret internal detail");
  }

  @McpTool(description = "Says where it runs", blocking = true)
  public String whereBlocking() {
    return Context.isOnEventLoopThread() ? "event-loop" : "off-loop";
  }

  @McpTool(description = "Says where it runs")
  public String whereDirect() {
    return Context.isOnEventLoopThread() ? "event-loop" : "off-loop";
  }

  @McpTool(description = "Fails off the loop", blocking = true)
  public String blockingBug() throws Exception {
    throw new java.io.IOException("disk detail");
  }
}
