package io.mcpvertx.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.cluster.McpClusterOptions;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.mcpvertx.spi.memory.InMemoryEventStore;
import io.mcpvertx.spi.sessions.memory.InMemorySessionStore;
import io.mcpvertx.spi.tasks.memory.InMemoryTaskStore;
import io.mcpvertx.testing.FreePorts;
import io.mcpvertx.testing.StatelessTestClient;
import io.mcpvertx.testing.http.SseParser;
import io.mcpvertx.testing.http.StreamableHttp;
import io.mcpvertx.testing.http.StreamableHttpSession;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Traces of MCP requests across two members of a real Vert.x cluster (embedded Hazelcast on loopback, both in this
 * JVM, each with its own OpenTelemetry SDK and in-memory exporter): a session runs on A, the request arrives at B,
 * travels over the clustered event bus to A, and the whole is one trace; the spans follow the OpenTelemetry MCP
 * conventions; {@code params._meta.traceparent} wins over the HTTP header; a request we send to the client carries
 * our span in its {@code _meta}.
 */
@ExtendWith(VertxExtension.class)
class TracesAcrossClusterTest {

  private static final String V11 = "2025-11-25";
  private static final String HEADER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String HEADER_SPAN = "00f067aa0ba902b7";
  private static final String META_TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String META_SPAN = "b7ad6b7169203331";

  private static TracedInstance a;
  private static TracedInstance b;

  @BeforeAll
  static void start() throws Exception {
    int[] ports = FreePorts.some(2);
    McpClusterOptions options = new McpClusterOptions().setClusterName("traces-" + UUID.randomUUID())
        .setMembers(List.of("127.0.0.1:" + ports[0], "127.0.0.1:" + ports[1]));
    Vertx setup = Vertx.vertx();
    McpStores shared = McpStores.builder(setup).tasks(InMemoryTaskStore.create(setup))
        .events(new InMemoryEventStore(1000, 64, 600_000)).sessions(InMemorySessionStore.create(setup)).build();
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    a = TracedInstance.start("a", new McpClusterOptions(options).setPort(ports[0]), shared, leases)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    b = TracedInstance.start("b", new McpClusterOptions(options).setPort(ports[1]), shared, leases)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    for (TracedInstance node : new TracedInstance[] {a, b}) {
      if (node != null) {
        node.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  @BeforeEach
  void forget() {
    a.spans.reset();
    b.spans.reset();
  }

  private static MultiMap withTraceparent(StreamableHttpSession session) {
    return session.postHeaders().add("traceparent", "00-" + HEADER_TRACE + "-" + HEADER_SPAN + "-01");
  }

  /** Waits (polling every 20 ms, at most 10 s) until a span that passes {@code test} was exported by {@code node}. */
  private static Future<SpanData> span(Vertx vertx, TracedInstance node, Predicate<SpanData> test) {
    return Future.future(promise -> {
      long[] tries = {0};
      vertx.setPeriodic(20, id -> {
        Optional<SpanData> found = node.finished().stream().filter(test).findFirst();
        if (found.isPresent() || ++tries[0] > 500) {
          vertx.cancelTimer(id);
          if (found.isPresent()) {
            promise.complete(found.get());
          } else {
            promise.fail("no such span; exported: " + names(a) + " on a, " + names(b) + " on b");
          }
        }
      });
    });
  }

  private static List<String> names(TracedInstance node) {
    return node.finished().stream().map(s -> s.getName() + "/" + s.getKind() + "/" + s.getTraceId()).toList();
  }

  private static String attr(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

  /** The spans from {@code span} up to the root of what both instances exported, by parent span id. */
  private static List<SpanData> ancestry(SpanData span) {
    List<SpanData> all = new ArrayList<>(a.finished());
    all.addAll(b.finished());
    List<SpanData> chain = new ArrayList<>();
    SpanData current = span;
    while (current != null) {
      chain.add(current);
      String parent = current.getParentSpanId();
      current = all.stream().filter(s -> s.getSpanId().equals(parent)).findFirst().orElse(null);
    }
    return chain;
  }

  @Test
  void aRequestServedThroughAnotherInstanceIsOneTraceOverBoth(Vertx vertx, VertxTestContext test) {
    StreamableHttp toA = StreamableHttp.http1(vertx, a.port());
    toA.initialize(V11).compose(onA -> {
      StreamableHttpSession onB = new StreamableHttpSession(StreamableHttp.http1(vertx, b.port()), onA.id(),
          onA.version(), null);
      JsonObject call = onB.toolCall("echo", new JsonObject().put("text", "hi"), null);
      return onB.post(call, withTraceparent(onB)).compose(reply -> {
        test.verify(() -> assertEquals(200, reply.status(), reply::toString));
        return span(vertx, a, s -> s.getName().equals("tools/call echo"));
      }).compose(served -> span(vertx, b, s -> s.getKind() == SpanKind.SERVER
          && HEADER_SPAN.equals(s.getParentSpanId())).map(httpOnB -> {
            test.verify(() -> {
              // Served on A, which owns the session; the trace is the client's, from the header that reached B.
              assertEquals(SpanKind.SERVER, served.getKind());
              assertEquals(HEADER_TRACE, served.getTraceId());
              assertEquals(HEADER_TRACE, httpOnB.getTraceId());
              List<SpanData> chain = ancestry(served);
              SpanData root = chain.get(chain.size() - 1);
              assertEquals(httpOnB.getSpanId(), root.getSpanId(), () -> "chain: " + chain);
              assertTrue(chain.size() >= 3, () -> "the event-bus hop is in between: " + chain);
              assertTrue(chain.stream().allMatch(s -> s.getTraceId().equals(HEADER_TRACE)));
              assertTrue(a.finished().stream().noneMatch(s -> s.getSpanId().equals(httpOnB.getSpanId())),
                  "B's HTTP span was exported by B only");
              // The conventions' attributes.
              assertEquals("tools/call", attr(served, "mcp.method.name"));
              assertEquals("echo", attr(served, "gen_ai.tool.name"));
              assertEquals("execute_tool", attr(served, "gen_ai.operation.name"));
              assertEquals(onA.id(), attr(served, "mcp.session.id"));
              assertEquals(V11, attr(served, "mcp.protocol.version"));
              assertEquals(String.valueOf(call.getValue("id")), attr(served, "jsonrpc.request.id"));
              assertEquals(null, attr(served, "error.type"));
              assertEquals(StatusCode.UNSET, served.getStatus().getStatusCode());
            });
            return httpOnB;
          }));
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void theTraceContextInMetaIsTheParentAndTheTransportsIsLinked(Vertx vertx, VertxTestContext test) {
    StreamableHttp.http1(vertx, a.port()).initialize(V11).compose(onA -> {
      JsonObject call = onA.toolCall("echo", new JsonObject().put("text", "hi"), null);
      call.getJsonObject("params").put("_meta", new JsonObject()
          .put("traceparent", "00-" + META_TRACE + "-" + META_SPAN + "-01").put("baggage", "tenant=acme"));
      return onA.post(call, withTraceparent(onA))
          .compose(reply -> span(vertx, a, s -> s.getName().equals("tools/call echo")))
          .map(served -> {
            test.verify(() -> {
              assertEquals(META_TRACE, served.getTraceId());
              assertEquals(META_SPAN, served.getParentSpanId());
              assertEquals(1, served.getLinks().size(), () -> "links: " + served.getLinks());
              assertEquals(HEADER_TRACE, served.getLinks().get(0).getSpanContext().getTraceId(),
                  "the HTTP request's span is linked");
            });
            return served;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aTasksGetOnTheStatelessWireIsLinkedToTheCallThatCreatedTheTask(Vertx vertx, VertxTestContext test) {
    StatelessTestClient client = StatelessTestClient.over(vertx, StreamableHttp.http1(vertx, b.port()).stateless());
    client.request("tools/call", new JsonObject().put("name", "later").put("arguments", new JsonObject()))
        .capabilities(StatelessTestClient.WITH_TASKS).send()
        .compose(created -> {
          String taskId = created.task().getString("taskId");
          return span(vertx, b, s -> s.getName().equals("tools/call later") && s.getKind() == SpanKind.SERVER)
              .compose(creating -> client.request("tasks/get", new JsonObject().put("taskId", taskId))
                  .capabilities(StatelessTestClient.WITH_TASKS).send()
                  .compose(got -> span(vertx, b, s -> s.getName().startsWith("tasks/get")))
                  .map(get -> {
                    test.verify(() -> assertLinkedTo(creating, get));
                    return get;
                  }));
        }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void aTasksGetInASessionIsLinkedToTheCallThatCreatedTheTask(Vertx vertx, VertxTestContext test) {
    JsonObject tasks = new JsonObject().put("tasks", new JsonObject().put("requests", new JsonObject()
        .put("tools", new JsonObject().put("call", new JsonObject()))));
    StreamableHttp.http1(vertx, a.port()).initialize(V11, tasks).compose(onA -> {
      JsonObject call = onA.toolCall("later", new JsonObject(), null);
      call.getJsonObject("params").put("task", new JsonObject());
      return onA.post(call).compose(reply -> {
        String taskId = reply.messages().get(0).getJsonObject("result").getJsonObject("task").getString("taskId");
        // The call's own span, not the execution's (which links to it).
        return span(vertx, a, s -> s.getName().equals("tools/call later") && s.getKind() == SpanKind.SERVER
                && s.getLinks().isEmpty())
            .compose(creating -> onA.post(onA.request("tasks/get", new JsonObject().put("taskId", taskId)))
                .compose(got -> span(vertx, a, s -> s.getName().startsWith("tasks/get")))
                .map(get -> {
                  test.verify(() -> assertLinkedTo(creating, get));
                  return get;
                }));
      });
    }).onComplete(test.succeedingThenComplete());
  }

  private static void assertLinkedTo(SpanData creating, SpanData later) {
    assertTrue(later.getLinks().stream().anyMatch(link -> link.getSpanContext().getSpanId()
            .equals(creating.getSpanId()) && link.getSpanContext().getTraceId().equals(creating.getTraceId())),
        () -> later.getName() + " links " + later.getLinks() + ", not the creating span " + creating.getSpanId());
  }

  @Test
  void aFailedRequestCarriesItsErrorType(Vertx vertx, VertxTestContext test) {
    StreamableHttp.http1(vertx, a.port()).initialize(V11).compose(onA -> {
      JsonObject call = onA.toolCall("no-such-tool", new JsonObject(), null);
      return onA.post(call).compose(reply -> span(vertx, a, s -> s.getName().equals("tools/call no-such-tool")))
          .map(failed -> {
            test.verify(() -> {
              assertNotNull(attr(failed, "error.type"));
              assertEquals(attr(failed, "error.type"), attr(failed, "rpc.response.status_code"));
              assertEquals(StatusCode.ERROR, failed.getStatus().getStatusCode());
            });
            return failed;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  @Test
  void anElicitationWeSendCarriesTheRequestsSpanInItsMeta(Vertx vertx, VertxTestContext test) {
    JsonObject elicitation = new JsonObject().put("elicitation", new JsonObject());
    StreamableHttp.http1(vertx, a.port()).initialize(V11, elicitation).compose(onA -> {
      JsonObject call = onA.toolCall("ask", new JsonObject(), null);
      return onA.stream(call).compose(post -> post.await(TracesAcrossClusterTest::isElicitation)
          .compose(asked -> {
            JsonObject meta = asked.message().getJsonObject("params").getJsonObject("_meta");
            return onA.post(new JsonObject().put("jsonrpc", "2.0").put("id", asked.message().getValue("id"))
                    .put("result", new JsonObject().put("action", "accept")
                        .put("content", new JsonObject().put("name", "Ada"))))
                .compose(ack -> post.awaitResponse(call.getValue("id")))
                .compose(answered -> span(vertx, a, s -> s.getName().equals("tools/call ask")))
                .map(served -> {
                  test.verify(() -> {
                    assertNotNull(meta, "the elicitation has _meta: " + asked.message());
                    String traceparent = meta.getString("traceparent");
                    // Version, trace id, span id; then the flags (sampled, and the random trace id bit).
                    assertNotNull(traceparent);
                    assertEquals("00-" + served.getTraceId() + "-" + served.getSpanId(),
                        traceparent.substring(0, traceparent.lastIndexOf('-')));
                  });
                  return served;
                });
          }));
    }).onComplete(test.succeedingThenComplete());
  }

  private static boolean isElicitation(SseParser.Event event) {
    return event.hasMessage() && "elicitation/create".equals(event.message().getString("method"));
  }
}
