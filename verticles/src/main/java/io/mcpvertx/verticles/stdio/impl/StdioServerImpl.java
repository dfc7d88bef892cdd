package io.mcpvertx.verticles.stdio.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.jsonrpc.JsonRpcErrorResponse;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.verticles.McpSessionVerticle;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.bus.SessionBatch;
import io.mcpvertx.verticles.stdio.LineFramer;
import io.mcpvertx.verticles.stdio.StdioServer;
import io.mcpvertx.verticles.stdio.StdioServerOptions;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
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
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Wires the process streams to one session verticle: a daemon thread reads and frames the input (reading a pipe
 * blocks, so no event loop does it), a worker verticle writes the output, and the event bus carries everything
 * between them and the session.
 */
public final class StdioServerImpl implements StdioServer {

  private static final Logger LOG = System.getLogger(StdioServerImpl.class.getName());

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
    String outAddress = "mcp.stdio." + sessionId + ".out";
    JsonRpcCodec codec = server.codec();
    McpSessionVerticle session = new McpSessionVerticle(server, sessionId, outAddress);
    Promise<Void> done = Promise.promise();
    vertx.deployVerticle(new OutputWriterVerticle(outAddress, out, codec),
            new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER))
        .compose(writerId -> vertx.deployVerticle(session).map(sessionDeployment -> {
          Thread reader = new Thread(() -> read(in, codec, sessionId, outAddress, session, sessionDeployment,
              writerId, done), "mcp-stdio-reader");
          reader.setDaemon(true);
          reader.start();
          return null;
        }))
        .onFailure(done::tryFail);
    return done.future();
  }

  private void read(InputStream in, JsonRpcCodec codec, String sessionId, String outAddress,
      McpSessionVerticle session, String sessionDeployment, String writerDeployment, Promise<Void> done) {
    EventBus bus = vertx.eventBus();
    DeliveryOptions toSession = new DeliveryOptions().addHeader(McpEventBus.REPLY_TO, outAddress);
    String sessionAddress = McpEventBus.sessionAddress(sessionId);
    int limit = codec.options().getMaxMessageBytes();
    LineFramer framer = new LineFramer(limit, line -> {
      Decoded decoded = codec.decode(line);
      forward(decoded, bus, sessionAddress, outAddress, toSession);
    }, () -> {
      LOG.log(Level.WARNING, "Rejected a message over " + limit + " bytes");
      bus.send(outAddress, new JsonRpcErrorResponse(null, new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
          "Message exceeds the limit of " + limit + " bytes")));
    });
    byte[] chunk = new byte[16 * 1024];
    try {
      int n;
      while ((n = in.read(chunk)) >= 0) {
        framer.feed(chunk, 0, n);
      }
      framer.finish();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "Reading standard input failed; closing the session", e);
    }
    LOG.log(Level.DEBUG, "End of input; closing session " + sessionId);
    session.drain(options.getDrainTimeoutMs())
        .compose(v -> vertx.undeploy(sessionDeployment))
        .compose(v -> bus.request(outAddress, OutputWriterVerticle.FLUSH))
        .compose(v -> vertx.undeploy(writerDeployment))
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.log(Level.WARNING, "Closing the stdio session failed", ar.cause());
          }
          done.tryComplete();
        });
  }

  private static void forward(Decoded decoded, EventBus bus, String sessionAddress, String outAddress,
      DeliveryOptions toSession) {
    if (decoded instanceof Decoded.Message message) {
      bus.send(sessionAddress, message.message(), toSession);
    } else if (decoded instanceof Decoded.Batch batch) {
      bus.send(sessionAddress, new SessionBatch(batch.members()), toSession);
    } else if (decoded instanceof Decoded.Invalid invalid) {
      LOG.log(Level.WARNING, "Rejected an invalid message: " + invalid.response().error().message());
      bus.send(outAddress, invalid.response());
    }
  }
}
