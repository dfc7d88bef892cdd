package io.mcpvertx.verticles.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sessions that end (deleted or expired) leave nothing behind: no session entry, no registry listener, no
 * verticle, no stored events, no event-bus consumer.
 */
@ExtendWith(VertxExtension.class)
class HttpSessionLeakTest {

  private static final String V11 = "2025-11-25";
  private static final int SESSIONS = 1_000;
  private static final int BATCH = 50;

  /** A session's event-bus addresses that must have no consumer once it ended. */
  private record Trace(String sessionId, String liveAddress) {

    List<String> addresses() {
      List<String> addresses = new ArrayList<>(List.of("mcp.session." + sessionId, "mcp.http.mailbox." + sessionId));
      if (liveAddress != null) {
        addresses.add(liveAddress);
      }
      return addresses;
    }
  }

  /** One session's life: handshake, a streamed call, for some an open standalone stream, then DELETE. */
  private static Future<Trace> live(StreamableHttp client, boolean withGetStream) {
    return client.initialize(V11).compose(session -> session.post(session.toolCall("progress",
        new JsonObject().put("count", 2), "leak")).compose(call -> {
          if (!withGetStream) {
            return session.delete().map(new Trace(session.id(), null));
          }
          return session.listen().compose(get -> get.await(SseParser.Event::isPriming).compose(priming -> {
            String stream = priming.id().substring(0, priming.id().lastIndexOf('_'));
            return session.delete().compose(deleted -> get.over())
                .map(new Trace(session.id(), "mcp.http.live." + session.id() + "." + stream));
          }));
        }));
  }

  private static Future<List<Trace>> batches(StreamableHttp client, int done, List<Trace> traces) {
    if (done == SESSIONS) {
      return Future.succeededFuture(traces);
    }
    List<Future<Trace>> batch = new ArrayList<>();
    for (int i = 0; i < BATCH; i++) {
      batch.add(live(client, i == 0));
    }
    return Future.all(batch).compose(all -> {
      traces.addAll(all.list());
      return batches(client, done + BATCH, traces);
    });
  }

  /** Completes if nothing consumes {@code address}; fails if something does. */
  private static Future<Void> assertNoHandlers(Vertx vertx, String address) {
    return vertx.eventBus().request(address, "probe", new DeliveryOptions().setSendTimeout(5_000))
        .<Void>transform(ar -> ar.failed() && ar.cause() instanceof ReplyException e
            && e.failureType() == ReplyFailure.NO_HANDLERS
            ? Future.succeededFuture()
            : Future.failedFuture(new AssertionError("something still consumes " + address)));
  }

  private static Future<Void> assertNothingLeft(Vertx vertx, HttpTestServer server, Set<String> baseline,
      List<Trace> sample) {
    return Poll.until(vertx, () -> server.mcp.registryListeners() == 0
        && baseline.equals(new HashSet<>(vertx.deploymentIDs())))
        .compose(v -> {
          List<Future<Void>> probes = new ArrayList<>();
          sample.forEach(trace -> trace.addresses().forEach(a -> probes.add(assertNoHandlers(vertx, a))));
          return Future.all(probes);
        })
        .map(v -> {
          assertEquals(0, server.http.sessionCount());
          assertEquals(0, server.events.sessionCount());
          return null;
        });
  }

  @Test
  @Timeout(value = 2, timeUnit = TimeUnit.MINUTES)
  void aThousandDeletedSessionsLeaveNothingBehind(Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      Set<String> baseline = new HashSet<>(vertx.deploymentIDs());
      return batches(server.client(), 0, new ArrayList<>()).compose(traces -> {
        test.verify(() -> assertEquals(SESSIONS, traces.stream().map(Trace::sessionId).distinct().count()));
        List<Trace> sample = new ArrayList<>();
        for (int i = 0; i < traces.size(); i += 10) {
          sample.add(traces.get(i));
        }
        assertTrue(sample.stream().anyMatch(t -> t.liveAddress() != null));
        return assertNothingLeft(vertx, server, baseline, sample);
      });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void deletingSessionsWhileTheyStreamLeavesNoStoredEvents(Vertx vertx, VertxTestContext test) {
    // Progress still on its way to the HTTP verticle when the session is deleted must not be stored again.
    HttpTestServer.start(vertx).compose(server -> {
      Set<String> baseline = new HashSet<>(vertx.deploymentIDs());
      StreamableHttp client = server.client();
      List<Future<Trace>> sessions = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        sessions.add(client.initialize(V11).compose(session -> session.stream(session.toolCall("ticker",
            new JsonObject(), "tick")).compose(post -> post.await(e -> e.hasMessage()
                && e.message().getJsonObject("params").getInteger("progress") >= 20))
            .compose(ticking -> session.delete())
            .map(new Trace(session.id(), null))));
      }
      return Future.all(sessions).compose(all -> assertNothingLeft(vertx, server, baseline, all.list()));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void expiredSessionsWithOpenStreamsLeaveNothingBehind(Vertx vertx, VertxTestContext test) {
    // Long enough for 20 concurrent handshakes on a loaded machine; the open streams send no heartbeat before it.
    McpHttpServerOptions options = new McpHttpServerOptions().setSessionIdleTimeoutMs(1_000);
    HttpTestServer.start(vertx, options).compose(server -> {
      Set<String> baseline = new HashSet<>(vertx.deploymentIDs());
      StreamableHttp client = server.client();
      List<Future<Trace>> sessions = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        sessions.add(client.initialize(V11).compose(session -> session.listen().compose(get ->
            get.await(SseParser.Event::isPriming).map(priming -> new Trace(session.id(), "mcp.http.live."
                + session.id() + "." + priming.id().substring(0, priming.id().lastIndexOf('_')))))));
      }
      return Future.all(sessions).compose(all -> Poll.until(vertx, () -> server.http.sessionCount() == 0)
          .compose(v -> assertNothingLeft(vertx, server, baseline, all.list())));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void closingTheServerEndsItsStreamsAndSessions(Vertx vertx, VertxTestContext test) {
    Set<String> baseline = new HashSet<>(vertx.deploymentIDs());
    HttpTestServer.start(vertx).compose(server -> server.client().initialize(V11).compose(session ->
        session.listen().compose(get -> get.await(SseParser.Event::isPriming).compose(primed ->
            session.stream(session.toolCall("gated", new JsonObject(), "closing")).compose(post ->
                post.await(SseParser.Event::hasMessage)
                    .compose(first -> server.http.close())
                    .compose(v -> Future.all(get.over(), post.over()))
                    .compose(v -> Poll.until(vertx, () -> server.mcp.registryListeners() == 0
                        && baseline.equals(new HashSet<>(vertx.deploymentIDs()))))
                    .compose(v -> assertNoHandlers(vertx, "mcp.session." + session.id()))
                    .map(v -> {
                      test.verify(() -> {
                        assertEquals(0, server.http.sessionCount());
                        assertEquals(0, server.events.sessionCount());
                      });
                      return v;
                    }))))))
        .onComplete(test.succeedingThenComplete());
  }
}
