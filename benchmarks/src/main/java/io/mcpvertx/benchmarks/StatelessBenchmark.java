package io.mcpvertx.benchmarks;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.StatelessServer;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The in-JVM part of a stateless (2026-07-28) {@code tools/call}, without HTTP: what the stateless engine costs per
 * call, the counterpart of {@link SessionBenchmark}'s {@code engine} for the session generation. Run on demand:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar jmh StatelessBenchmark}.
 *
 * <ul>
 *   <li>{@code engine}: a decoded request through {@link StatelessServer#validate} and {@link StatelessServer#serve}
 *       to its answer: the {@code _meta} checks, the request context, argument validation, the handler, the
 *       result with its {@code resultType} and server info.</li>
 *   <li>{@code decodeEngineEncode}: the same with the codec on both sides, bytes in, bytes out: the request is the
 *       one the load benchmark sends (client info and capabilities in {@code _meta}).</li>
 * </ul>
 *
 * <p>Calls run on an event loop, {@value #BATCH} per hop onto it, as {@link SessionBenchmark} does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class StatelessBenchmark {

  static final int BATCH = 1000;
  private static final String TEXT = "hello, benchmark";

  private Vertx vertx;
  private Context context;
  private JsonRpcCodec codec;
  private StatelessServer engine;
  private Buffer frame;
  private JsonRpcRequest request;
  private Object last;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    vertx = Vertx.vertx();
    McpServer server = McpServer.create(vertx, new McpServerOptions().setServerInfo(ServerInfo.of("bench", "1")))
        .tool(BenchServer.echoTool(), (arguments, ctx) -> Future.succeededFuture(
            ToolResult.text(arguments.getString("text"))));
    codec = server.codec();
    engine = server.stateless();
    frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"_meta\":{"
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"jmh\",\"version\":\"1.0.0\"},"
        + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
        + "\"name\":\"echo\",\"arguments\":{\"text\":\"" + TEXT + "\"}}}");
    request = (JsonRpcRequest) ((Decoded.Message) codec.decode(frame)).message();
    context = vertx.getOrCreateContext();
    onLoop(() -> last = codec.encode(call(request)));
    String answer = String.valueOf(last);
    if (!answer.contains(TEXT) || answer.contains("error")) {
      throw new IllegalStateException("The stateless engine did not answer the tools/call as expected: " + answer);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    String answer = String.valueOf(last);
    if (!answer.contains(TEXT) || answer.contains("error")) {
      throw new IllegalStateException("The stateless engine answered the benchmark's tools/call with " + answer);
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void engine(Blackhole blackhole) throws Exception {
    onLoop(() -> {
      for (int i = 0; i < BATCH; i++) {
        last = call(request);
      }
    });
    blackhole.consume(last);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void decodeEngineEncode(Blackhole blackhole) throws Exception {
    onLoop(() -> {
      for (int i = 0; i < BATCH; i++) {
        last = codec.encode(call((JsonRpcRequest) ((Decoded.Message) codec.decode(frame)).message()));
      }
    });
    blackhole.consume(last);
  }

  /** What a transport does with a request: check it, serve it, take the answer (the echo answers at once). */
  private JsonRpcMessage call(JsonRpcRequest call) {
    JsonRpcError refused = engine.validate(call);
    if (refused != null) {
      throw new IllegalStateException("refused: " + refused.message());
    }
    return engine.serve(call, null, message -> { }).response().result();
  }

  private void onLoop(Runnable action) throws InterruptedException {
    OnLoop.run(context, action);
  }
}
