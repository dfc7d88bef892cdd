package io.mcpvertx.benchmarks;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.jsonrpc.JsonRpcResponse;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.tools.ToolResult;
import io.vertx.core.buffer.Buffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JSON-RPC codec on the messages of the load benchmark. Run on demand:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar jmh Codec}.
 *
 * <ul>
 *   <li>{@code decode}: the bytes of a tools/call to a typed request ({@link JsonRpcCodec#decode}: the UTF-8
 *       check, Jackson's streaming parser to Vert.x JSON values, then the JSON-RPC checks).</li>
 *   <li>{@code decodeStateless}: the same call as a 2026-07-28 client sends it, with its {@code _meta} (protocol
 *       version, client info, capabilities): what a stateless request costs the codec beyond a session's.</li>
 *   <li>{@code encode}: the echo tool's response to bytes ({@link JsonRpcCodec#encode}: the envelope and the
 *       result straight to Jackson's generator).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class CodecBenchmark {

  private final JsonRpcCodec codec = JsonRpcCodec.create();
  private final Buffer frame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello, benchmark\"}}}");
  private final Buffer statelessFrame = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\","
      + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"peers-harness\",\"version\":\"1.0.0\"},"
      + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
      + "\"name\":\"echo\",\"arguments\":{\"text\":\"hello, benchmark\"}}}");
  private final JsonRpcResponse response = new JsonRpcResponse(JsonRpcId.of(42),
      ToolResult.text("hello, benchmark").toJson(ProtocolVersion.LATEST));

  @Benchmark
  public Decoded decode() {
    return codec.decode(frame);
  }

  @Benchmark
  public Decoded decodeStateless() {
    return codec.decode(statelessFrame);
  }

  @Benchmark
  public Buffer encode() {
    return codec.encode(response);
  }
}
