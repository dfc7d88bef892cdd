package io.mcpvertx.verticles.stdio.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.stdio.LineFramer;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.mcpvertx.verticles.stdio.StdioServerOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Wires the process streams to one session verticle, and to the stateless generation: a daemon thread reads and
 * frames the input (reading a pipe blocks, so no event loop does it), sending each message to the session, or,
 * when it is a request whose {@code _meta} names a protocol version (2026-07-28), to a {@link
 * StatelessLinesVerticle}; an {@link OutputWriterVerticle} writes the output from a thread of its own. The event bus
 * carries everything between them. While more than {@code maxOutputQueueBytes} wait to be written, the reader
 * reads no further ({@link OutputQueue}).
 */
public final class StdioServerImpl implements StdioServer {

  private static final Logger LOG = LoggerFactory.getLogger(StdioServerImpl.class);

  private final Vertx vertx;
  private final McpServer server;
  private final StdioServerOptions options;

  public StdioServerImpl(Vertx vertx, McpServer server, StdioServerOptions options) {
    this.vertx = vertx;
    this.server = server;
    this.options = new StdioServerOptions(options);
  }

  @Override
  public Future<Void> serve() {
    OutputStream out = new FileOutputStream(FileDescriptor.out);
    if (options.isRedirectSystemOut()) {
      System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    }
    return serve(System.in, out);
  }

  @Override
  public Future<Void> serve(InputStream in, OutputStream out) {
    McpEventBus.registerCodecs(vertx);
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    String sessionId = "stdio-" + HexFormat.of().formatHex(random);
    Lines lines = new Lines(sessionId, "mcp.stdio." + sessionId + ".out", "mcp.stdio." + sessionId + ".stateless",
        new OutputQueue(options.getMaxOutputQueueBytes()));
    JsonRpcCodec codec = server.codec();
    McpSessionVerticle session = new McpSessionVerticle(server, sessionId, lines.out);
    Promise<Void> done = Promise.promise();
    List<String> deployments = new ArrayList<>();
    vertx.deployVerticle(new OutputWriterVerticle(lines.out, out, codec, lines.queue))
        .compose(writerId -> {
          deployments.add(writerId);
          return vertx.deployVerticle(new StatelessLinesVerticle(server.stateless(), lines.stateless, lines.out));
        })
        .compose(statelessId -> {
          deployments.add(statelessId);
          return vertx.deployVerticle(session);
        })
        .map(sessionDeployment -> {
          deployments.add(sessionDeployment);
          Thread reader = new Thread(() -> read(in, codec, lines, session, deployments, done), "mcp-stdio-reader");
          reader.setDaemon(true);
          reader.start();
          return null;
        })
        .onFailure(done::tryFail);
    return done.future();
  }

  /** Where the reader sends what it reads, and the queue of what waits to be written. */
  private record Lines(String sessionId, String out, String stateless, OutputQueue queue) {
  }

  /**
   * @param deployments the writer's, the stateless verticle's and the session's, in that order
   */
  private void read(InputStream in, JsonRpcCodec codec, Lines lines, McpSessionVerticle session,
      List<String> deployments, Promise<Void> done) {
    EventBus bus = vertx.eventBus();
    String outAddress = lines.out;
    DeliveryOptions toSession = new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, outAddress);
    String sessionAddress = McpEventBus.sessionAddress(lines.sessionId);
    int limit = codec.options().getMaxMessageBytes();
    LineFramer framer = new LineFramer(limit, line -> {
      Decoded decoded = codec.decode(line);
      forward(decoded, bus, sessionAddress, lines, toSession);
    }, () -> {
      LOG.warn("Rejected a message over " + limit + " bytes");
      bus.send(outAddress, new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
          "Message exceeds the limit of " + limit + " bytes")));
    });
    byte[] chunk = new byte[16 * 1024];
    try {
      int n;
      while (true) {
        awaitOutput(lines.queue);
        if ((n = in.read(chunk)) < 0) {
          break;
        }
        framer.feed(chunk, 0, n);
      }
      framer.finish();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Reading standard input failed; closing the session", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.debug("End of input; closing session " + lines.sessionId);
    session.drain(options.getDrainTimeoutMs())
        .compose(v -> vertx.undeploy(deployments.get(2)))
        .compose(v -> vertx.undeploy(deployments.get(1)))
        .compose(v -> bus.request(outAddress, OutputWriterVerticle.FLUSH))
        .compose(v -> vertx.undeploy(deployments.get(0)))
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.warn("Closing the stdio session failed", ar.cause());
          }
          done.tryComplete();
        });
  }

  /**
   * Holds the reader while the host is not reading our output, saying so once per stall: the requests it would
   * read next would only add answers to the queue.
   */
  private static void awaitOutput(OutputQueue queue) throws InterruptedException {
    if (!queue.isFull()) {
      return;
    }
    LOG.warn("Standard output is not being read (" + queue.queuedBytes()
        + " bytes waiting): reading no more input until it drains");
    queue.awaitRoom();
    LOG.info("Standard output drained; reading input again");
  }

  private static void forward(Decoded decoded, EventBus bus, String sessionAddress, Lines lines,
      DeliveryOptions toSession) {
    String outAddress = lines.out;
    if (decoded instanceof Decoded.Message message) {
      if (StatelessLinesVerticle.isStateless(message.message())) {
        bus.send(lines.stateless, message.message());
        return;
      }
      if (message.message() instanceof JsonRpcNotification n && "notifications/cancelled".equals(n.method())) {
        // It may name a stateless request (the session ignores an id it does not know).
        bus.send(lines.stateless, n);
      }
      bus.send(sessionAddress, message.message(), toSession);
    } else if (decoded instanceof Decoded.Batch batch) {
      bus.send(sessionAddress, new SessionBatch(batch.members()), toSession);
    } else if (decoded instanceof Decoded.Invalid invalid) {
      LOG.warn("Rejected an invalid message: " + invalid.response().error().message());
      bus.send(outAddress, invalid.response());
    }
  }
}
