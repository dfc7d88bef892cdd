package io.mcpvertx.benchmarks;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the in-memory event store costs a POST answered at once as an SSE stream: a new stream in a session that
 * already holds as many streams as it keeps (so each new one drops the oldest, as under steady load), holding a
 * priming event and the answer, then complete. {@code steps}: an append for each and a complete, as the stream
 * was stored before; {@code together}: one {@link EventStore#appendAndComplete}. Run on demand:
 * {@code java -jar benchmarks/target/mcp-vertx-benchmarks.jar jmh EventStore}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class EventStoreBenchmark {

  private static final String SESSION = "bench-session";
  /** An echo tool's answer, as the codec encodes it. */
  private static final Buffer ANSWER = Buffer.buffer(
      "{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],\"isError\":false}}");
  private static final Buffer PRIMING = Buffer.buffer();

  private InMemoryEventStore store;
  private long streams;

  @Setup
  public void setUp() {
    store = new InMemoryEventStore();
    for (int i = 0; i < InMemoryEventStore.DEFAULT_MAX_STREAMS_PER_SESSION; i++) {
      store.appendAndComplete(SESSION, nextStream(), List.of(PRIMING, ANSWER));
    }
  }

  private String nextStream() {
    return "p" + Long.toString(streams++, 36);
  }

  @Benchmark
  public Object steps() {
    String stream = nextStream();
    Future<String> priming = store.append(SESSION, stream, PRIMING);
    Future<String> answer = store.append(SESSION, stream, ANSWER);
    store.complete(SESSION, stream);
    return priming.result().length() + answer.result().length();
  }

  @Benchmark
  public Object together() {
    List<String> ids = store.appendAndComplete(SESSION, nextStream(), List.of(PRIMING, ANSWER)).result();
    return ids.get(0).length() + ids.get(1).length();
  }
}
