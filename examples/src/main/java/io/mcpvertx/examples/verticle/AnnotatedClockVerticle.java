package io.mcpvertx.examples.verticle;

import io.mcpvertx.annotations.AnnotatedVerticle;
import io.mcpvertx.annotations.McpArg;
import io.mcpvertx.annotations.McpTool;
import io.mcpvertx.annotations.ToolFailure;
import io.mcpvertx.annotations.ToolHints;
import io.mcpvertx.verticles.RemoteFeatures;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * {@link ClockToolVerticle} written with annotations: deployed on any node, its tool is offered by every server that
 * follows announcements with {@link RemoteFeatures}.
 */
// tag::annotated-clock[]
public class AnnotatedClockVerticle extends AnnotatedVerticle {

  @McpTool(name = "clock", title = "Clock", description = "The current date and time in a time zone")
  @ToolHints(readOnly = true, destructive = false, idempotent = true, openWorld = false)
  public String now(@McpArg(name = "zone", description = "An IANA zone, e.g. Europe/Paris", defaultValue = "UTC")
      String zone) {
    if (!ZoneId.getAvailableZoneIds().contains(zone) && !zone.equals("UTC")) {
      throw new ToolFailure("Unknown time zone: " + zone);
    }
    return ZonedDateTime.now(ZoneId.of(zone)).toString();
  }
}
// end::annotated-clock[]
