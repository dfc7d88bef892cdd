package io.mcpvertx.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The cost of a hop through an instance that does not run the session:
 * {@code java -jar mcp-vertx-benchmarks.jar hop --owner URL --other URL [--requests 20000] [--warmup 20000]
 * [--tool NAME --arguments JSON]}.
 *
 * <p>Initializes a session through {@code --owner} (so that instance runs it), then sends the same
 * {@code tools/call} ({@code greet} with {@code {"name":"hop"}}, as the examples' hello and conformance servers
 * have it, or {@code --tool NAME --arguments JSON}) one at a time, alternately through the owner and through
 * {@code --other}, which routes it to the owner over the clustered event bus and carries the answer back. One
 * request at a time on one keep-alive connection per URL, so each time is a round trip's latency and nothing queues; the order within each pair
 * alternates, so neither side always runs on a cache the other warmed. Prints the percentiles of both and their
 * differences (the hop's cost), and one machine-readable {@code HOP} line.
 */
public final class HopLatency {

  private HopLatency() {
  }

  public static void main(String[] args) throws Exception {
    String owner = null;
    String other = null;
    int requests = 20_000;
    int warmup = 20_000;
    String tool = "greet";
    String arguments = "{\"name\":\"hop\"}";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--owner" -> owner = args[++i];
        case "--other" -> other = args[++i];
        case "--requests" -> requests = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--tool" -> tool = args[++i];
        case "--arguments" -> arguments = args[++i];
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (owner == null || other == null) {
      throw new IllegalArgumentException("usage: hop --owner URL --other URL [--requests N] [--warmup N]");
    }
    HttpClient viaOwner = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpClient viaOther = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    String session = initialize(viaOwner, owner);
    Caller first = new Caller(viaOwner, owner, session, tool, arguments);
    Caller second = new Caller(viaOther, other, session, tool, arguments);
    for (int i = 0; i < warmup; i++) {
      first.call();
      second.call();
    }
    long[] ownerNs = new long[requests];
    long[] otherNs = new long[requests];
    for (int i = 0; i < requests; i++) {
      if ((i & 1) == 0) {
        ownerNs[i] = first.call();
        otherNs[i] = second.call();
      } else {
        otherNs[i] = second.call();
        ownerNs[i] = first.call();
      }
    }
    Arrays.sort(ownerNs);
    Arrays.sort(otherNs);
    System.out.printf(Locale.ROOT, "%-22s %9s %9s %9s %9s%n", "tools/call through", "p50 µs", "p90 µs", "p99 µs",
        "mean µs");
    print("the owner", ownerNs);
    print("another instance", otherNs);
    System.out.printf(Locale.ROOT, "%-22s %9.1f %9.1f %9.1f %9.1f%n", "hop (difference)",
        us(pct(otherNs, 50) - pct(ownerNs, 50)), us(pct(otherNs, 90) - pct(ownerNs, 90)),
        us(pct(otherNs, 99) - pct(ownerNs, 99)), us(mean(otherNs) - mean(ownerNs)));
    System.out.printf(Locale.ROOT, "HOP requests=%d owner_p50_us=%.1f owner_p99_us=%.1f other_p50_us=%.1f "
            + "other_p99_us=%.1f hop_p50_us=%.1f hop_p99_us=%.1f%n", requests, us(pct(ownerNs, 50)),
        us(pct(ownerNs, 99)), us(pct(otherNs, 50)), us(pct(otherNs, 99)),
        us(pct(otherNs, 50) - pct(ownerNs, 50)), us(pct(otherNs, 99) - pct(ownerNs, 99)));
  }

  private static void print(String label, long[] sorted) {
    System.out.printf(Locale.ROOT, "%-22s %9.1f %9.1f %9.1f %9.1f%n", label, us(pct(sorted, 50)),
        us(pct(sorted, 90)), us(pct(sorted, 99)), us(mean(sorted)));
  }

  private static long pct(long[] sorted, int percentile) {
    int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static double mean(long[] values) {
    return Arrays.stream(values).average().orElse(0);
  }

  private static double us(double ns) {
    return ns / 1_000.0;
  }

  private static String initialize(HttpClient client, String url) throws Exception {
    HttpResponse<String> response = client.send(post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
        + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":"
        + "{\"name\":\"hop\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
    String session = response.headers().firstValue("Mcp-Session-Id")
        .orElseThrow(() -> new IllegalStateException("initialize returned no session: " + response.body()));
    HttpResponse<String> initialized = client.send(post(url, session,
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), HttpResponse.BodyHandlers.ofString());
    if (initialized.statusCode() != 202) {
      throw new IllegalStateException("notifications/initialized: " + initialized.statusCode());
    }
    return session;
  }

  private static HttpRequest post(String url, String session, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return request.build();
  }

  /** Sends tools/call requests of one session through one URL and times each. */
  private static final class Caller {
    private final HttpClient client;
    private final String url;
    private final String session;
    private final String tool;
    private final String arguments;
    private long id = 1;

    Caller(HttpClient client, String url, String session, String tool, String arguments) {
      this.client = client;
      this.url = url;
      this.session = session;
      this.tool = tool;
      this.arguments = arguments;
    }

    long call() throws Exception {
      long requestId = id++;
      HttpRequest request = post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + requestId
          + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}");
      long start = System.nanoTime();
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - start;
      if (response.statusCode() != 200 || !response.body().contains("\"id\":" + requestId)) {
        throw new IllegalStateException("tools/call through " + url + ": " + response.statusCode() + " "
            + response.body());
      }
      return took;
    }
  }
}
