package io.mcpvertx.benchmarks;

import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.impl.SessionPlacement;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What it costs a transport to hand a request to its session verticle and get the answer back: {@code ping}s from
 * a verticle standing in for the HTTP verticle, {@value #BATCH} per invocation so the JMH thread's own wake-up is
 * spread thin. Run on demand: {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar jmh HandOff}.
 *
 * <ul>
 *   <li>{@code path=deliver, loop=same}: {@link SessionVerticle#deliver} to a session on the transport's event loop
 *       (how an HTTP verticle now reaches the sessions it made).</li>
 *   <li>{@code path=deliver, loop=other}: the same to a session on another event loop (a thread hop each way).</li>
 *   <li>{@code path=bus}: over the event bus to the session's address, answers to a consumer of the transport (how
 *       every request went before, and how requests for sessions of other instances still go).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class HandOffBenchmark {

  static final int BATCH = 1000;

  @Param({"deliver", "bus"})
  public String path;

  @Param({"same", "other"})
  public String loop;

  private Vertx vertx;
  private Transport transport;

  /** The HTTP verticle's stand-in: sends pings and counts the answers, on its own event loop. */
  static final class Transport extends VerticleBase {

    SessionVerticle session;
    String sessionId;
    final String replies = "bench.replies";
    private int waiting;
    private CompletableFuture<Void> done;
    private long ids;
    private final MessageSink sink = new MessageSink() {
      @Override
      public void send(JsonRpcMessage message) {
        answered();
      }
    };

    @Override
    public Future<?> start() {
      return vertx.eventBus().consumer(replies, m -> answered()).completion();
    }

    Thread thread() {
      CompletableFuture<Thread> thread = new CompletableFuture<>();
      context.runOnContext(v -> thread.complete(Thread.currentThread()));
      return thread.join();
    }

    Future<Void> open(McpServer server, Thread wanted) {
      Promise<Void> opened = Promise.promise();
      context.runOnContext(v -> {
        sessionId = "bench-" + System.nanoTime();
        session = new SessionVerticle(server, sessionId, "bench.nowhere", null);
        SessionPlacement.deploy(vertx, session, wanted).onComplete(ar -> {
          if (ar.failed()) {
            opened.fail(ar.cause());
            return;
          }
          Promise<Void> initialized = Promise.promise();
          session.deliver(new JsonRpcRequest(JsonRpcId.of(0), "initialize", new JsonObject()
              .put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
              .put("clientInfo", new JsonObject().put("name", "bench").put("version", "1"))),
              message -> initialized.tryComplete(), null);
          initialized.future().onComplete(x -> {
            session.deliver(new JsonRpcNotification("notifications/initialized", null), null, null);
            opened.complete();
          });
        });
      });
      return opened.future();
    }

    CompletableFuture<Void> pings(boolean bus) {
      CompletableFuture<Void> finished = new CompletableFuture<>();
      context.runOnContext(v -> {
        done = finished;
        waiting = BATCH;
        DeliveryOptions options = new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, replies);
        for (int i = 0; i < BATCH; i++) {
          JsonRpcRequest ping = new JsonRpcRequest(JsonRpcId.of(++ids), "ping", null);
          if (bus) {
            vertx.eventBus().send(McpEventBus.sessionAddress(sessionId), ping, options);
          } else {
            session.deliver(ping, sink, null);
          }
        }
      });
      return finished;
    }

    /** Called on the session's context (deliver) or on this verticle's (bus): either way one thread at a time. */
    private void answered() {
      context.runOnContext(v -> {
        if (--waiting == 0) {
          done.complete(null);
        }
      });
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    McpEventBus.registerCodecs(vertx);
    McpServer server = McpServer.create(vertx);
    transport = new Transport();
    vertx.deployVerticle(transport).toCompletionStage().toCompletableFuture().get();
    Thread wanted = transport.thread();
    if (loop.equals("other")) {
      // Deployments take the event loops in turn: of two verticles deployed next, one lands on the other loop.
      Thread other = wanted;
      while (other == wanted) {
        other = landing();
      }
      wanted = other;
    }
    transport.open(server, wanted).toCompletionStage().toCompletableFuture().get();
  }

  /** The thread of the event loop an empty verticle deployed now gets. */
  private Thread landing() throws Exception {
    CompletableFuture<Thread> thread = new CompletableFuture<>();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        thread.complete(Thread.currentThread());
        return Future.succeededFuture();
      }
    }).toCompletionStage().toCompletableFuture().get();
    return thread.get();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void ping() throws Exception {
    transport.pings(path.equals("bus")).get(10, TimeUnit.SECONDS);
  }
}
