package io.mcpvertx.benchmarks;

import io.mcpvertx.annotations.AnnotatedFeatures;
import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpServerOptions;
import io.mcpvertx.server.McpSession;
import io.mcpvertx.server.MessageSink;
import io.mcpvertx.server.ServerInfo;
import io.mcpvertx.server.tools.Tool;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The in-JVM part of a {@code tools/call} in a session, without HTTP and without the event bus: what the session
 * engine costs per call, with and without the codec. Run on demand (it is not part of the build or the tests):
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar jmh} (any JMH options may follow). The codec alone
 * is {@link CodecBenchmark}.
 *
 * <ul>
 *   <li>{@code engine}: a decoded tools/call through {@link McpSession#handle} to the response object in the sink:
 *       method lookup, request context, argument validation against the input schema, the handler, the result's
 *       JSON.</li>
 *   <li>{@code decodeEngineEncode}: the three together, bytes in, bytes out.</li>
 * </ul>
 *
 * <p>{@code schema=echo} is the tool of the load benchmark (one required string property);
 * {@code schema=empty} declares no properties, to show what argument validation costs. {@code handlers=annotated}
 * (with {@code -p schema=echo -p handlers=builder,annotated}) compares the same tool written as an annotated
 * method with the builder's lambda.
 *
 * <p>The engine benchmarks run on the session's event loop, {@value #BATCH} calls per hop onto it, so the hop
 * costs next to nothing per call. Runs are short on purpose (a few seconds per fork); lengthen them with JMH's
 * {@code -wi -i -w -r -f} options when the machine is quiet.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class SessionBenchmark {

  static final int BATCH = 1000;
  private static final String TEXT = "hello, benchmark";

  @Param({"echo", "empty"})
  public String schema;

  /**
   * {@code builder}: the tool is a {@code Tool.builder} definition and a lambda; {@code annotated}: the same tool as
   * an annotated method ({@link AnnotatedEcho}, only with {@code schema=echo}), to show what binding the argument,
   * calling the method and converting its value add.
   */
  @Param({"builder"})
  public String handlers;

  private Vertx vertx;
  private JsonRpcCodec codec;
  private Buffer frame;
  private JsonRpcRequest request;
  private Context context;
  private McpSession session;
  private CountingSink sink;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    vertx = Vertx.vertx();
    McpServer server = McpServer.create(vertx, new McpServerOptions().setServerInfo(ServerInfo.of("bench", "1")));
    if (handlers.equals("annotated")) {
      if (!schema.equals("echo")) {
        throw new IllegalArgumentException("handlers=annotated generates the echo schema; run it with schema=echo");
      }
      AnnotatedFeatures.register(server, new AnnotatedEcho());
    } else {
      Tool tool = schema.equals("echo") ? BenchServer.echoTool() : Tool.builder("echo").build();
      server.tool(tool, (arguments, ctx) -> Future.succeededFuture(ToolResult.text(arguments.getString("text"))));
    }
    codec = server.codec();
    frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
        + "\"arguments\":{\"text\":\"" + TEXT + "\"}}}");
    request = (JsonRpcRequest) ((Decoded.Message) codec.decode(frame)).message();
    sink = new CountingSink(codec);

    AtomicReference<McpSession> created = new AtomicReference<>();
    AtomicReference<Context> on = new AtomicReference<>();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        on.set(context);
        created.set(server.createSession("bench", message -> { }));
        return Future.succeededFuture();
      }
    }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    context = on.get();
    session = created.get();
    runOnSession(() -> {
      session.handle(new JsonRpcRequest(JsonRpcId.of(0), "initialize", new JsonObject()
          .put("protocolVersion", ProtocolVersion.LATEST.id())
          .put("capabilities", new JsonObject())
          .put("clientInfo", new JsonObject().put("name", "jmh").put("version", "1"))), sink);
      session.handle(new JsonRpcNotification("notifications/initialized", null), sink);
    });
    sink.last = null;
    runOnSession(() -> session.handle(request, sink));
    String answer = String.valueOf(sink.last);
    if (answer == null || !answer.contains(TEXT)) {
      throw new IllegalStateException("The session did not answer the tools/call as expected: " + answer);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    // The last call of the last batch must have been answered with the echoed text, not with an error.
    String answer = String.valueOf(sink.last);
    if (!answer.contains(TEXT) || answer.contains("error")) {
      throw new IllegalStateException("The session answered the benchmark's tools/call with " + answer);
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void engine(Blackhole blackhole) throws Exception {
    sink.encode = false;
    runOnSession(() -> {
      for (int i = 0; i < BATCH; i++) {
        session.handle(request, sink);
      }
    });
    blackhole.consume(sink.last);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void decodeEngineEncode(Blackhole blackhole) throws Exception {
    sink.encode = true;
    runOnSession(() -> {
      for (int i = 0; i < BATCH; i++) {
        session.handle(((Decoded.Message) codec.decode(frame)).message(), sink);
      }
    });
    blackhole.consume(sink.last);
  }

  private void runOnSession(Runnable action) throws InterruptedException {
    OnLoop.run(context, action);
  }

  /** Encodes what the session sends, as a transport would. Touched on the session's event loop only. */
  private static final class CountingSink implements MessageSink {
    private final JsonRpcCodec codec;
    boolean encode = true;
    Object last;

    CountingSink(JsonRpcCodec codec) {
      this.codec = codec;
    }

    @Override
    public void send(JsonRpcMessage message) {
      last = encode ? codec.encode(message) : message;
    }
  }
}
