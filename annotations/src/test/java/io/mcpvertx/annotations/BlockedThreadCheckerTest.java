package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Blocking is declared, never guessed: a method without {@code blocking = true} runs on the event loop, and when it
 * blocks there Vert.x's blocked-thread checker reports it; the same work declared blocking is not reported.
 */
class BlockedThreadCheckerTest {

  /**
   * What is logged while a test runs: Vert.x's checker logs through SLF4J, bound to slf4j-simple in these tests,
   * which writes to the standard error stream of the moment; a copy of it is kept here.
   */
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private PrintStream stderr;
  private Vertx vertx;

  /** Two tools doing the same blocking work, one declared blocking and one not (a bug the checker should show). */
  public static final class Sleepers {

    @McpTool(description = "Sleeps on the event loop, undeclared")
    public String napOnLoop() throws InterruptedException {
      Thread.sleep(600);
      return "awake";
    }

    @McpTool(description = "Sleeps off the event loop, declared", blocking = true)
    public String napDeclared() throws InterruptedException {
      Thread.sleep(600);
      return "awake";
    }
  }

  @BeforeEach
  void setUp() {
    stderr = System.err;
    System.setErr(new PrintStream(new TeeOutputStream(stderr, logged), true, StandardCharsets.UTF_8));
    // The checker looks every 20 ms, reports an event loop busy for more than 100 ms, and past 150 ms adds the
    // blocked thread's stack: so a report names the method that blocked (a cold start's class loading may trip
    // the checker too, but never with a nap in its stack).
    vertx = Vertx.vertx(new VertxOptions()
        .setBlockedThreadCheckInterval(20).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
        .setMaxEventLoopExecuteTime(100).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
        .setWarningExceptionTime(150).setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
  }

  @AfterEach
  void tearDown() throws Exception {
    System.setErr(stderr);
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private String call(String tool) throws Exception {
    McpServer server = McpServer.create(vertx);
    AnnotatedFeatures.register(server, new Sleepers());
    JsonObject result = Wires.call(vertx, server, "2025-11-25", tool, new JsonObject())
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    return Wires.text(result);
  }

  private String log() {
    synchronized (logged) {
      return logged.toString(StandardCharsets.UTF_8);
    }
  }

  /** Writes to two streams. */
  private static final class TeeOutputStream extends OutputStream {

    private final OutputStream first;
    private final ByteArrayOutputStream second;

    TeeOutputStream(OutputStream first, ByteArrayOutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws IOException {
      first.write(b);
      synchronized (second) {
        second.write(b);
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      first.write(bytes, offset, length);
      synchronized (second) {
        second.write(bytes, offset, length);
      }
    }
  }

  @Test
  void anUndeclaredBlockingMethodIsReportedByTheBlockedThreadChecker() throws Exception {
    assertEquals("awake", call("napOnLoop"));
    assertTrue(log().contains("has been blocked") && log().contains("Sleepers.napOnLoop"),
        "the checker did not report the method that blocked");
  }

  @Test
  void theSameWorkDeclaredBlockingIsNotReported() throws Exception {
    assertEquals("awake", call("napDeclared"));
    assertFalse(log().contains("Sleepers.napDeclared"), "the checker reported a declared blocking method");
  }
}
