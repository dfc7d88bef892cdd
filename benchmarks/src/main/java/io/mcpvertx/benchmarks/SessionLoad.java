package io.mcpvertx.benchmarks;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load driver for whole 2025 sessions over Streamable HTTP, for any server that speaks the protocol (ours and the
 * peers): {@code java -cp mcp-vertx-benchmarks.jar io.mcpvertx.benchmarks.SessionLoad churn|idle [options]}.
 *
 * <ul>
 *   <li>{@code churn}: {@code --clients} loops, each making sessions one after the other: {@code initialize},
 *       {@code notifications/initialized}, one {@code tools/call echo}, {@code DELETE}. Prints sessions/s over the
 *       measured window (after {@code --warmup} seconds; or until {@code --sessions} sessions), and the errors.
 *       Every answer is checked.</li>
 *   <li>{@code idle}: opens {@code --count} sessions (initialized, then left alone), with {@code --streams} also a
 *       standalone GET stream each, prints {@code READY} and holds them until it is killed; whoever runs it then
 *       weighs the server's heap.</li>
 * </ul>
 *
 * <p>Answers may come as JSON or as an event stream (the first {@code data:} line is read), so servers in either
 * response mode can be driven.
 */
public final class SessionLoad {

  private static final String PROTOCOL = "2025-11-25";

  private final Vertx vertx;
  private final HttpClient http;
  private final URI url;
  private final String arg;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong sessions = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private volatile boolean running = true;

  private SessionLoad(Vertx vertx, URI url, String arg, int connections) {
    this.vertx = vertx;
    this.url = url;
    this.arg = arg;
    this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(5_000),
        new PoolOptions().setHttp1MaxSize(connections));
  }

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "";
    URI url = URI.create("http://127.0.0.1:8080/mcp");
    int clients = 32;
    int count = 10_000;
    int warmup = 10;
    int duration = 20;
    boolean streams = false;
    long total = 0;
    String arg = "text";
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--url" -> url = URI.create(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--count" -> count = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--duration" -> duration = Integer.parseInt(args[++i]);
        case "--streams" -> streams = true;
        case "--sessions" -> total = Long.parseLong(args[++i]);
        case "--arg" -> arg = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    switch (mode) {
      case "churn" -> new SessionLoad(vertx, url, arg, clients).churn(clients, warmup, duration, total);
      case "idle" -> new SessionLoad(vertx, url, arg, streams ? count + clients : clients)
          .idle(count, clients, streams);
      default -> {
        System.err.println("usage: SessionLoad churn|idle [--url URL] [--clients 32] [--count 10000] [--streams]"
            + " [--warmup 10] [--duration 20 | --sessions N] [--arg text]");
        System.exit(2);
      }
    }
    vertx.close();
  }

  /** Sessions for {@code duration} seconds after {@code warmup}, or until {@code total} of them when positive. */
  private void churn(int clients, int warmup, int duration, long total) throws InterruptedException {
    for (int i = 0; i < clients; i++) {
      vertx.runOnContext(v -> loop());
    }
    Thread.sleep(warmup * 1000L);
    long s0 = sessions.get();
    long e0 = errors.get();
    long t0 = System.nanoTime();
    if (total > 0) {
      while (sessions.get() - s0 < total) {
        Thread.sleep(200);
      }
    } else {
      Thread.sleep(duration * 1000L);
    }
    long done = sessions.get() - s0;
    long failed = errors.get() - e0;
    double seconds = (System.nanoTime() - t0) / 1e9;
    running = false;
    System.out.printf("SESSIONS_PER_S %.0f%nSESSIONS %d%nERRORS %d%n", done / seconds, done, failed);
  }

  private void loop() {
    if (!running) {
      return;
    }
    oneSession().onComplete(ar -> {
      if (ar.succeeded()) {
        sessions.incrementAndGet();
      } else if (errors.incrementAndGet() <= 5) {
        System.err.println("session failed: " + ar.cause());
      }
      loop();
    });
  }

  private Future<Void> oneSession() {
    return open().compose(session -> post(session, toolCall()).compose(result -> {
      JsonObject content = result.getJsonObject("result", new JsonObject()).getJsonArray("content").getJsonObject(0);
      if (!"hi".equals(content.getString("text"))) {
        return Future.failedFuture("tools/call answered " + result.encode());
      }
      return send(HttpMethod.DELETE, session, null).compose(r -> r.body().compose(b -> r.statusCode() < 300
          ? Future.succeededFuture() : Future.failedFuture("DELETE answered " + r.statusCode())));
    }));
  }

  /** initialize and notifications/initialized: the session id. */
  private Future<String> open() {
    JsonObject initialize = request("initialize", new JsonObject()
        .put("protocolVersion", PROTOCOL)
        .put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "session-load").put("version", "1.0.0")));
    return send(HttpMethod.POST, null, initialize).compose(response -> {
      String session = response.getHeader("Mcp-Session-Id");
      return answer(response).compose(json -> {
        if (session == null || json.getJsonObject("result") == null) {
          return Future.failedFuture("initialize answered " + json.encode());
        }
        JsonObject initialized = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized");
        return send(HttpMethod.POST, session, initialized).compose(r -> r.body().compose(b -> r.statusCode() == 202
            ? Future.succeededFuture(session) : Future.failedFuture("initialized answered " + r.statusCode())));
      });
    });
  }

  private JsonObject toolCall() {
    return request("tools/call", new JsonObject().put("name", "echo").put("arguments", new JsonObject().put(arg, "hi")));
  }

  private JsonObject request(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method)
        .put("params", params);
  }

  private Future<JsonObject> post(String session, JsonObject body) {
    return send(HttpMethod.POST, session, body).compose(SessionLoad::answer);
  }

  private Future<HttpClientResponse> send(HttpMethod method, String session, JsonObject body) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Accept", "application/json, text/event-stream")
        .add("Content-Type", "application/json");
    if (session != null) {
      headers.add("Mcp-Session-Id", session).add("MCP-Protocol-Version", PROTOCOL);
    }
    RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(url.toString())
        .setHeaders(headers).setTimeout(10_000);
    return http.request(options).compose(request -> body == null ? request.send() : request.send(body.toBuffer()));
  }

  /** The JSON-RPC message of a response: the body, or the first event's data of an event stream. */
  private static Future<JsonObject> answer(HttpClientResponse response) {
    return response.body().compose(body -> {
      if (response.statusCode() != 200) {
        return Future.failedFuture("HTTP " + response.statusCode() + ": " + body);
      }
      String type = response.getHeader("Content-Type");
      if (type != null && type.startsWith("text/event-stream")) {
        for (String line : body.toString().split("\n")) {
          if (line.startsWith("data:") && line.length() > 6) {
            return Future.succeededFuture(new JsonObject(line.substring(5).trim()));
          }
        }
        return Future.failedFuture("an event stream without a message");
      }
      return Future.succeededFuture(new JsonObject(body));
    });
  }

  private void idle(int count, int concurrency, boolean streams) throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(1);
    List<String> opened = new ArrayList<>();
    vertx.runOnContext(v -> openMany(count, concurrency, streams, opened).onComplete(ar -> {
      if (ar.failed()) {
        System.err.println("opening sessions failed: " + ar.cause());
        System.exit(1);
      }
      ready.countDown();
    }));
    ready.await();
    System.out.println("READY " + opened.size() + (streams ? " sessions with a GET stream each" : " sessions"));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private Future<Void> openMany(int count, int concurrency, boolean streams, List<String> opened) {
    Promise<Void> all = Promise.promise();
    AtomicLong started = new AtomicLong();
    AtomicLong finished = new AtomicLong();
    Runnable[] next = new Runnable[1];
    next[0] = () -> {
      if (started.incrementAndGet() > count) {
        return;
      }
      open().compose(session -> streams ? stream(session).map(session) : Future.succeededFuture(session))
          .onComplete(ar -> {
            if (ar.failed()) {
              all.tryFail(ar.cause());
              return;
            }
            opened.add(ar.result());
            if (finished.incrementAndGet() == count) {
              all.tryComplete();
            } else {
              next[0].run();
            }
          });
    };
    for (int i = 0; i < concurrency; i++) {
      next[0].run();
    }
    return all.future();
  }

  /** A standalone GET stream, left open: resolved once the server has answered it with an event stream. */
  private Future<Void> stream(String session) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Accept", "text/event-stream")
        .add("Mcp-Session-Id", session)
        .add("MCP-Protocol-Version", PROTOCOL);
    return http.request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url.toString())
            .setHeaders(headers))
        .compose(request -> request.send())
        .compose(response -> response.statusCode() == 200 ? Future.<Void>succeededFuture()
            : Future.failedFuture("GET answered " + response.statusCode()));
  }
}
