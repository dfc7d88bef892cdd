package com.example.starter;

import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.mcpvertx.verticles.McpToolVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/** A tool written as a verticle: deploy it on any node of the event bus and every attached server offers it. */
public class UpperCaseToolVerticle extends McpToolVerticle {

  @Override
  protected Tool tool() {
    return Tool.builder("upper_case")
        .description("Turns a text into capitals")
        .inputSchema(new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("text", new JsonObject().put("type", "string")))
            .put("required", new JsonArray().add("text")))
        .build();
  }

  @Override
  protected Future<ToolResult> call(JsonObject arguments, RequestContext ctx) {
    return Future.succeededFuture(ToolResult.text(arguments.getString("text").toUpperCase(Locale.ROOT)));
  }
}
