package io.mcpvertx.verticles.http;

import static io.mcpvertx.verticles.http.HttpChecks.assertAccepted;
import static io.mcpvertx.verticles.http.HttpChecks.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.mcpvertx.testing.http.HttpReply;
import io.mcpvertx.testing.http.StreamableHttp;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DNS-rebinding and cross-site protection: a server bound to loopback only answers loopback {@code Host} names,
 * and a browser {@code Origin} must be loopback or listed. The probes are the conformance suite's.
 */
@ExtendWith(VertxExtension.class)
class HttpHostAndOriginTest {

  private static final String V11 = "2025-11-25";

  /** Connects to the server's loopback port while naming {@code host} in the request. */
  private static RequestOptions as(HttpTestServer server, String host) {
    return new RequestOptions().setMethod(HttpMethod.POST)
        .setServer(SocketAddress.inetSocketAddress(server.port(), "127.0.0.1"))
        .setHost(host).setPort(server.port()).setURI(McpHttpServerOptions.DEFAULT_PATH);
  }

  private static MultiMap withOrigin(String origin) {
    return StreamableHttp.postHeaders().add("Origin", origin).add("MCP-Protocol-Version", V11);
  }

  @ParameterizedTest
  @ValueSource(strings = {"evil.example.com", "localhost.evil.example.com", "127.0.0.1.nip.io",
      "127.attacker.example", "127.0.0.256"})
  void rejectsForeignHostOnLoopbackBindWith403(String host, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().send(as(server, host), withOrigin("http://" + host),
            StreamableHttp.initializeRequest(V11).toBuffer()).map(reply -> {
              test.verify(() -> {
                assertRejected(reply, 403);
                assertEquals(0, server.http.sessionCount());
              });
              return reply;
            }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "127.0.0.1"})
  void acceptsLoopbackHostAndOriginThroughTheHandshake(String name, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx).compose(server -> {
      StreamableHttp client = server.client();
      String authority = name + ":" + server.port();
      MultiMap headers = withOrigin("http://" + authority);
      return client.send(as(server, name), headers, StreamableHttp.initializeRequest(V11).toBuffer())
          .compose(init -> {
            test.verify(() -> {
              assertEquals(200, init.status(), init::toString);
              assertNotNull(init.header("Mcp-Session-Id"));
            });
            // The alpha conformance probe follows with notifications/initialized from the same origin.
            return client.send(as(server, name), headers.add("Mcp-Session-Id", init.header("Mcp-Session-Id")),
                StreamableHttp.notification("notifications/initialized").toBuffer());
          })
          .map(ack -> {
            test.verify(() -> assertAccepted(ack));
            return ack;
          });
    }).onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://evil.example.com", "https://attacker.test:8443", "null", "file://", "not a uri",
      "http://127.attacker.example", "http://127.0.0.1.nip.io:3000"})
  void rejectsForeignOriginWith403(String origin, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11).compose(session -> {
          MultiMap headers = session.postHeaders().add("Origin", origin);
          Future<HttpReply> post = session.post(session.request("ping", null), headers);
          Future<HttpReply> get = session.client().send(HttpMethod.GET, session.getHeaders().add("Origin", origin),
              null);
          Future<HttpReply> init = server.client().post(StreamableHttp.postHeaders().add("Origin", origin),
              StreamableHttp.initializeRequest(V11));
          return Future.all(post, get, init).map(all -> {
            test.verify(() -> {
              assertRejected(post.result(), 403);
              assertRejected(get.result(), 403);
              assertRejected(init.result(), 403);
              assertEquals(1, server.http.sessionCount());
            });
            return all;
          });
        }))
        .onComplete(test.succeedingThenComplete());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://localhost", "http://localhost:5173", "http://127.0.0.1:9", "http://127.1.2.3",
      "http://[::1]:3000"})
  void acceptsLoopbackOrigins(String origin, Vertx vertx, VertxTestContext test) {
    HttpTestServer.start(vertx)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> session.post(session.request("ping", null), session.postHeaders().add("Origin", origin)))
        .map(reply -> {
          test.verify(() -> assertEquals(200, reply.status(), reply::toString));
          return reply;
        })
        .onComplete(test.succeedingThenComplete());
  }

  @Test
  void acceptsOnlyListedOriginsOnceAListIsSet(Vertx vertx, VertxTestContext test) {
    McpHttpServerOptions options = new McpHttpServerOptions().setAllowedOrigins(List.of("https://app.example.com"));
    HttpTestServer.start(vertx, options)
        .compose(server -> server.client().initialize(V11))
        .compose(session -> {
          JsonObject ping = session.request("ping", null);
          Future<HttpReply> listed = session.post(ping, session.postHeaders().add("Origin", "https://app.example.com"));
          Future<HttpReply> loopback = session.post(ping, session.postHeaders().add("Origin", "http://localhost"));
          return Future.all(listed, loopback).map(all -> {
            test.verify(() -> {
              assertEquals(200, listed.result().status(), listed.result()::toString);
              assertRejected(loopback.result(), 403);
            });
            return all;
          });
        })
        .onComplete(test.succeedingThenComplete());
  }
}
