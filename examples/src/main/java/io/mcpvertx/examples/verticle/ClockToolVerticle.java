package io.mcpvertx.examples.verticle;

import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolAnnotations;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.McpToolVerticle;
import io.mcpvertx.verticles.RemoteFeatures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * A tool written as a verticle. It can be deployed on any node; servers that follow announcements with
 * {@link RemoteFeatures} expose it.
 */
public class ClockToolVerticle extends McpToolVerticle {

  @Override
  protected Tool tool() {
    return Tool.builder("clock")
        .title("Clock")
        .description("The current date and time in a time zone")
        .inputSchema(new JsonObject().put("type", "object").put("properties", new JsonObject()
            .put("zone", new JsonObject().put("type", "string").put("description", "An IANA zone, e.g. Europe/Paris"))))
        .annotations(ToolAnnotations.readOnly())
        .build();
  }

  @Override
  protected Future<ToolResult> call(JsonObject arguments, RequestContext ctx) {
    String zone = arguments.getString("zone", "UTC");
    if (!ZoneId.getAvailableZoneIds().contains(zone) && !zone.equals("UTC")) {
      return Future.succeededFuture(ToolResult.error("Unknown time zone: " + zone));
    }
    return Future.succeededFuture(ToolResult.text(ZonedDateTime.now(ZoneId.of(zone)).toString()));
  }
}
