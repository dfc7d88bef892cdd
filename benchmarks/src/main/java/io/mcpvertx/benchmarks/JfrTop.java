package io.mcpvertx.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording of a benchmark server, so a profile reads as text in a terminal:
 * {@code java -cp mcp-vertx-benchmarks.jar JfrTop recording.jfr [requests [top [from to]]]}
 * ({@code from} and {@code to} in epoch milliseconds: only events that start in that window count).
 *
 * <p>From {@code jdk.ExecutionSample} (threads running Java code; time in native code such as socket reads and
 * writes is not in these samples): where the CPU goes by component (each sample charged to its innermost frame
 * outside the JDK, so a {@code HashMap.put} made by vertx-web counts for vertx-web), the hottest methods by self
 * time and by inclusive time. From {@code jdk.ObjectAllocationSample}: the estimated bytes allocated, per request
 * when {@code requests} is given, and the sites (innermost non-JDK frame) that allocate most. From
 * {@code jdk.GarbageCollection}: the pauses. From {@code jdk.ThreadCPULoad}: which threads used the CPU (the JIT
 * compiler threads included, which execution samples never show).
 */
public final class JfrTop {

  private JfrTop() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: JfrTop recording.jfr [requests [top [fromEpochMs toEpochMs]]]");
      System.exit(2);
    }
    long requests = args.length > 1 ? Long.parseLong(args[1]) : 0;
    int top = args.length > 2 ? Integer.parseInt(args[2]) : 25;
    // JFR.dump writes whole chunks, so a recording may hold more than the window asked for: keep only the window.
    Instant from = args.length > 4 ? Instant.ofEpochMilli(Long.parseLong(args[3])) : Instant.MIN;
    Instant to = args.length > 4 ? Instant.ofEpochMilli(Long.parseLong(args[4])) : Instant.MAX;

    Map<String, Long> self = new HashMap<>();
    Map<String, Long> inclusive = new HashMap<>();
    Map<String, Long> ours = new HashMap<>();
    Map<String, Long> components = new HashMap<>();
    Map<String, Long> stages = new HashMap<>();
    Map<String, Long> threads = new HashMap<>();
    Map<String, Long> allocationSites = new HashMap<>();
    Map<String, Long> allocationTypes = new HashMap<>();
    long samples = 0;
    long allocated = 0;
    Map<String, double[]> threadLoad = new HashMap<>();
    long compilations = 0;
    long gcCount = 0;
    Duration gcPause = Duration.ZERO;
    Instant first = null;
    Instant last = null;

    for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
      String type = event.getEventType().getName();
      if (event.getStartTime().isBefore(from) || event.getStartTime().isAfter(to)) {
        continue;
      }
      if (first == null || event.getStartTime().isBefore(first)) {
        first = event.getStartTime();
      }
      if (last == null || event.getEndTime().isAfter(last)) {
        last = event.getEndTime();
      }
      switch (type) {
        case "jdk.ExecutionSample" -> {
          RecordedStackTrace stack = event.getStackTrace();
          if (stack == null || stack.getFrames().isEmpty()) {
            continue;
          }
          samples++;
          threads.merge(threadGroup(event), 1L, Long::sum);
          List<RecordedFrame> frames = stack.getFrames();
          self.merge(name(frames.get(0)), 1L, Long::sum);
          Set<String> seen = new HashSet<>();
          for (RecordedFrame frame : frames) {
            String method = name(frame);
            if (seen.add(method)) {
              inclusive.merge(method, 1L, Long::sum);
              if (method.startsWith("io.mcpvertx.") && !method.startsWith("io.mcpvertx.benchmarks.JfrTop")) {
                ours.merge(method, 1L, Long::sum);
              }
            }
          }
          components.merge(component(frames), 1L, Long::sum);
          stages.merge(stage(frames), 1L, Long::sum);
        }
        case "jdk.ObjectAllocationSample" -> {
          long weight = event.getLong("weight");
          allocated += weight;
          RecordedStackTrace stack = event.getStackTrace();
          String site = stack == null ? "(no stack)" : innermostOutsideJdk(stack.getFrames());
          allocationSites.merge(site, weight, Long::sum);
          allocationTypes.merge(event.getClass("objectClass").getName(), weight, Long::sum);
        }
        case "jdk.ThreadCPULoad" -> {
          var thread = event.getThread("eventThread");
          String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
          double[] load = threadLoad.computeIfAbsent(name, k -> new double[3]);
          load[0] += event.getFloat("user");
          load[1] += event.getFloat("system");
          load[2]++;
        }
        case "jdk.Compilation" -> compilations++;
        case "jdk.GarbageCollection" -> {
          gcCount++;
          gcPause = gcPause.plus(event.getDuration("sumOfPauses"));
        }
        default -> {
        }
      }
    }

    Duration span = first == null ? Duration.ZERO : Duration.between(first, last);
    System.out.printf(Locale.ROOT, "recording %s: %.1f s analysed, %d execution samples, %d GCs (%.0f ms of pauses)%n",
        args[0], span.toMillis() / 1000.0, samples, gcCount, gcPause.toNanos() / 1e6);
    if (requests > 0) {
      System.out.printf(Locale.ROOT, "allocated (estimated): %.0f MB, %.0f bytes per request over %d requests%n",
          allocated / 1e6, (double) allocated / requests, requests);
    } else {
      System.out.printf(Locale.ROOT, "allocated (estimated): %.0f MB%n", allocated / 1e6);
    }
    System.out.println(compilations + " JIT compilations over the compiler's reporting threshold during the recording");
    if (!threadLoad.isEmpty()) {
      System.out.println();
      System.out.println("CPU load by thread (jdk.ThreadCPULoad, mean of its samples, % of one CPU: user + system):");
      threadLoad.entrySet().stream()
          .sorted((a, b) -> Double.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
          .limit(top)
          .forEach(e -> System.out.printf(Locale.ROOT, "  %5.1f%% (%5.1f + %5.1f)  %s%n",
              100 * (e.getValue()[0] + e.getValue()[1]) / e.getValue()[2], 100 * e.getValue()[0] / e.getValue()[2],
              100 * e.getValue()[1] / e.getValue()[2], e.getKey()));
    }
    print("samples by thread", threads, samples, top, "%");
    print("CPU by component (innermost frame outside the JDK)", components, samples, top, "%");
    print("CPU by stage of a request (innermost stage marker on the stack)", stages, samples, top, "%");
    print("hottest methods, self time", self, samples, top, "%");
    print("hottest methods, inclusive time", inclusive, samples, top, "%");
    print("hottest io.mcpvertx methods, inclusive time", ours, samples, top, "%");
    print("allocation by site (innermost frame outside the JDK)", allocationSites, allocated, top, "%");
    print("allocation by type", allocationTypes, allocated, top, "%");
  }

  private static void print(String title, Map<String, Long> counts, long total, int top, String unit) {
    System.out.println();
    System.out.println(title + ":");
    List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
    entries.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    for (int i = 0; i < Math.min(top, entries.size()); i++) {
      Map.Entry<String, Long> entry = entries.get(i);
      System.out.printf(Locale.ROOT, "  %5.1f%s  %s%n", total == 0 ? 0.0 : 100.0 * entry.getValue() / total, unit,
          entry.getKey());
    }
  }

  private static String name(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  private static boolean isJdk(String className) {
    return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
        || className.startsWith("com.sun.");
  }

  private static String innermostOutsideJdk(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      if (!isJdk(frame.getMethod().getType().getName())) {
        return name(frame);
      }
    }
    return frames.isEmpty() ? "(no frames)" : name(frames.get(0));
  }

  /**
   * Stages of a request through the server, each recognised by a method on the stack; a sample counts for the
   * innermost one, so "decode the request" is not also counted as "POST handling".
   */
  private static final String[][] STAGES = {
      {"io.mcpvertx.jsonrpc.JsonRpcCodec.encode", "JSON-RPC encode of the response (JsonObject, Jackson)"},
      {"io.mcpvertx.jsonrpc.JsonRpcCodec.decode", "JSON-RPC decode of the request (Jackson, classify)"},
      {"io.mcpvertx.server.impl.features.JsonSchemas.validate", "tool argument validation (JSON Schema)"},
      {"io.mcpvertx.server.impl.features.FeatureDispatcher.callTool", "tools/call dispatch, handler, result JSON"},
      {"io.mcpvertx.server.impl.session.SessionEngine.", "session engine: other"},
      {"io.mcpvertx.verticles.McpSessionVerticle", "session verticle: event-bus receive and send"},
      {"io.mcpvertx.verticles.http.impl.HttpEndpoint.randomId", "per-request stream id (SecureRandom)"},
      {"io.mcpvertx.verticles.http.impl.McpHttpVerticle.exchange", "hand-off to the session (event-bus send)"},
      {"io.mcpvertx.verticles.http.impl.PostExchange.writeJson", "HTTP response write (headers, end)"},
      {"io.mcpvertx.verticles.http.impl.McpHttpVerticle.route", "response routing back to the exchange"},
      {"io.mcpvertx.verticles.http.impl.RequestGuard", "Host, Origin, Accept, Content-Type checks"},
      {"io.mcpvertx.verticles.http.impl.McpHttpVerticle.sessionOf", "session lookup"},
      {"io.mcpvertx.verticles.http.impl.McpHttpVerticle.post", "POST handling: other"},
      {"io.mcpvertx.verticles.http.impl.McpHttpVerticle.guard", "guard handler: other (vertx-web next)"},
      {"io.mcpvertx.benchmarks.BenchServer", "echo handler (benchmark server)"},
      {"io.vertx.ext.web.handler.impl.BodyHandlerImpl", "vertx-web BodyHandler"},
      {"io.vertx.ext.web.", "vertx-web routing"},
      {"io.vertx.core.eventbus.", "Vert.x event bus delivery"},
      {"io.vertx.core.http.impl.Http1xServerResponse", "HTTP response write (headers, end)"},
      {"io.vertx.core.http.", "Vert.x HTTP/1.1 server (request parsing, dispatch)"},
      {"io.netty.handler.codec.http.", "Netty HTTP codec"},
  };

  private static String stage(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      String method = name(frame);
      for (String[] stage : STAGES) {
        if (method.startsWith(stage[0])) {
          return stage[1];
        }
      }
    }
    return "Netty I/O loop, Vert.x tasks and everything else";
  }

  /** The component a sample is charged to: that of its innermost frame outside the JDK. */
  private static String component(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      if (isJdk(type)) {
        continue;
      }
      if (type.startsWith("io.mcpvertx.benchmarks")) {
        return "benchmark server (the echo handler / tool)";
      }
      if (type.startsWith("io.mcpvertx.verticles.http")) {
        return "mcp-vertx: HTTP transport (io.mcpvertx.verticles.http)";
      }
      if (type.startsWith("io.mcpvertx.verticles")) {
        return "mcp-vertx: session verticle and event-bus codecs (io.mcpvertx.verticles)";
      }
      if (type.startsWith("io.mcpvertx.server.impl.features.JsonSchemas")) {
        return "mcp-vertx: argument validation glue (JsonSchemas)";
      }
      if (type.startsWith("io.mcpvertx.server")) {
        return "mcp-vertx: session engine (io.mcpvertx.server)";
      }
      if (type.startsWith("io.mcpvertx.jsonrpc")) {
        return "mcp-vertx: JSON-RPC codec (io.mcpvertx.jsonrpc)";
      }
      if (type.startsWith("io.mcpvertx")) {
        return "mcp-vertx: other";
      }
      if (type.startsWith("com.networknt")) {
        return "json-schema-validator (com.networknt)";
      }
      if (type.startsWith("com.fasterxml.jackson")) {
        return "Jackson";
      }
      if (type.startsWith("io.vertx.ext.web")) {
        return "vertx-web (Router, BodyHandler, RoutingContext)";
      }
      if (type.startsWith("io.vertx.core.eventbus")) {
        return "Vert.x event bus";
      }
      if (type.startsWith("io.vertx.core.http") || type.startsWith("io.vertx.core.net")) {
        return "Vert.x HTTP server / net";
      }
      if (type.startsWith("io.vertx.core.json")) {
        return "Vert.x JSON (JsonObject)";
      }
      if (type.startsWith("io.vertx")) {
        return "Vert.x core: other (contexts, futures, buffers)";
      }
      if (type.startsWith("io.netty.handler.codec.http")) {
        return "Netty HTTP codec";
      }
      if (type.startsWith("io.netty")) {
        return "Netty: other (event loop, channels, buffers)";
      }
      return type;
    }
    return "JDK only: " + name(frames.get(frames.size() - 1));
  }

  private static String threadGroup(RecordedEvent event) {
    var thread = event.getThread("sampledThread");
    String name = thread == null ? "?" : thread.getJavaName();
    return name == null ? "?" : name;
  }
}
