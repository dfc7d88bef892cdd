package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertSchemaValid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.SseStream;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client that stops reading cannot make the server buffer without bound: past
 * {@link McpHttpServerOptions#setMaxStreamQueueBytes} the stream is closed, and since every event was stored
 * first, a resumption delivers all of it.
 */
@ExtendWith(VertxExtension.class)
class HttpBackpressureTest {

  private static final String V11 = "2025-11-25";
  private static final int MESSAGES = 200;
  private static final int MESSAGE_CHARS = 64 * 1024;

  @Test
  void closesTheStreamOfAReaderThatStoppedAndTheResumptionDeliversEverything(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions().setMaxStreamQueueBytes(32 * 1024);
    InMemoryEventStore store = new InMemoryEventStore(MESSAGES + 10,
        InMemoryEventStore.DEFAULT_MAX_STREAMS_PER_SESSION, InMemoryEventStore.DEFAULT_MAX_AGE_MS);
    HttpTestServer.start(vertx, options, store).compose(server -> {
      // A fixed, small receive window, so the kernel cannot absorb the flood on the paused reader's behalf.
      StreamableHttp slow = StreamableHttp.http1(vertx, server.port(),
          new HttpClientOptions().setReceiveBufferSize(64 * 1024));
      return slow.initialize(V11).compose(session -> {
        JsonObject call = session.toolCall("flood", new JsonObject().put("count", MESSAGES)
            .put("size", MESSAGE_CHARS), null);
        return session.stream(call).compose(post -> post.await(SseParser.Event::hasMessage).compose(first -> {
          post.pause();
          server.tools.gate.complete();
          // Everything is produced (and stored) while the client reads nothing.
          return Poll.until(vertx, () -> {
            Future<EventStore.Replay> replay = server.events.replayAfter(session.id(), first.id());
            return replay.succeeded() && replay.result().complete();
          }).compose(v -> {
            StreamableHttpSession reader = new StreamableHttpSession(server.client(), session.id(), V11, null);
            return reader.resume(first.id());
          }).compose(resumed -> resumed.ended().map(v -> {
            test.verify(() -> {
              List<SseParser.Event> events = resumed.events();
              Set<String> ids = new HashSet<>();
              events.forEach(e -> assertTrue(ids.add(e.id()), "a repeated event id"));
              List<JsonObject> messages = resumed.messages();
              assertEquals(MESSAGES + 1, messages.size(), "events delivered by the resumption");
              for (int i = 0; i < MESSAGES; i++) {
                JsonObject log = messages.get(i);
                assertEquals(i, log.getJsonObject("params").getJsonObject("data").getInteger("n"));
              }
              assertSchemaValid(V11, messages.get(0), null);
              assertTrue(SseStream.isResponseTo(messages.get(MESSAGES), call.getValue("id")));
              assertSchemaValid(V11, messages.get(MESSAGES), "tools/call");
            });
            return v;
          })).compose(v -> {
            // The paused stream was cut: reading it now ends in a broken connection, without the response.
            post.resume();
            return post.over().map(done -> {
              test.verify(() -> {
                assertTrue(post.ended().failed(), "the server kept the slow reader's stream open");
                assertFalse(post.messages().stream().anyMatch(m -> SseStream.isResponseTo(m, call.getValue("id"))));
              });
              return done;
            });
          });
        }));
      });
    }).onComplete(test.succeedingThenComplete());
  }
}
