package io.mcpvertx.examples;

import io.mcpvertx.examples.hello.HelloServer;
import io.mcpvertx.examples.verticle.ClockServer;
import io.mcpvertx.examples.conformance.ConformanceFixtures;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.vertx.core.Vertx;
import java.util.Arrays;

/**
 * Entry point of the examples jar: {@code java -jar mcp-vertx-examples.jar [hello|clock|conformance]} serves the
 * chosen example over stdio (hello by default).
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] args) {
    String example = args.length == 0 ? "hello" : args[0];
    String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
    switch (example) {
      case "hello" -> HelloServer.main(rest);
      case "clock" -> ClockServer.main(rest);
      case "conformance" -> {
        Vertx vertx = Vertx.vertx();
        StdioServer.create(vertx, ConformanceFixtures.create(vertx)).serve().onComplete(done -> vertx.close());
      }
      default -> {
        System.err.println("Unknown example '" + example + "'; choose hello, clock or conformance");
        System.exit(2);
      }
    }
  }
}
