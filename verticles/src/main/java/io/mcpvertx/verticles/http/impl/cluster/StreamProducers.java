package io.mcpvertx.verticles.http.impl.cluster;

import io.mcpvertx.jsonrpc.JsonRpcCodec;
import io.mcpvertx.jsonrpc.JsonRpcId;
import io.mcpvertx.server.cluster.McpInstance;
import io.mcpvertx.verticles.bus.McpEventBus;
import io.mcpvertx.verticles.impl.SessionVerticle;
import io.mcpvertx.verticles.http.impl.session.HttpSession;
import io.mcpvertx.verticles.http.impl.session.RandomIds;
import io.mcpvertx.verticles.http.impl.session.SessionEvents;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Clustered, a POST stream's id names the instance producing it and the request it answers ({@code
 * p<random>.<instance>.<request id, base64url>}), so an instance where a client follows the stream can tell when
 * its producer died and answer the request with an error that says to send it again, instead of leaving the
 * client waiting for a response nobody will send. Alone, stream ids are random and nothing is checked.
 */
public final class StreamProducers {

  private static final Logger LOG = LoggerFactory.getLogger(StreamProducers.class);
  /** Longest encoded request id a stream id carries; a longer one leaves the stream unchecked. */
  private static final int MAX_ENCODED_REQUEST_ID = 96;

  /** Null when the endpoint is not clustered. */
  private final McpInstance instance;
  private final SessionEvents streams;
  private final JsonRpcCodec codec;
  private final EventBus bus;

  /** @param instance this instance when clustered, else null */
  public StreamProducers(Vertx vertx, McpInstance instance, SessionEvents streams, JsonRpcCodec codec) {
    this.bus = vertx.eventBus();
    this.instance = instance;
    this.streams = streams;
    this.codec = codec;
  }

  /** A new id for the stream of a POST answering {@code ids}. */
  public String postStreamId(List<JsonRpcId> ids, boolean batch) {
    String random = "p" + RandomIds.unique(9);
    if (instance == null || batch || ids.size() != 1) {
      return random;
    }
    String encoded = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(ids.get(0).encode().getBytes(StandardCharsets.UTF_8));
    return encoded.length() > MAX_ENCODED_REQUEST_ID ? random : random + "." + instance.id() + "." + encoded;
  }

  /** How often a client following {@code streamId} here should have its producer checked; -1: never. */
  public long checkIntervalMs(String streamId) {
    return instance == null || streamId.indexOf('.') < 0 ? -1 : instance.options().getRenewIntervalMs();
  }

  /**
   * Checks whether the producer of an unfinished stream stopped (its lease is gone); if so, completes the stream
   * with an error answering its request. First the session's owner cancels the request if it still runs it: its
   * answer would go to the dead producer, and the client, told to send the request again, must find its id free
   * (not refused as a request in progress).
   */
  public void settleIfOrphaned(HttpSession session, String streamId) {
    int first = streamId.indexOf('.');
    int last = streamId.lastIndexOf('.');
    if (instance == null || first < 0 || last <= first) {
      return;
    }
    String producer = streamId.substring(first + 1, last);
    if (producer.equals(instance.id())) {
      return;
    }
    JsonRpcId requestId;
    try {
      requestId = JsonRpcId.decode(new String(Base64.getUrlDecoder().decode(streamId.substring(last + 1)),
          StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      return;
    }
    instance.leases().isLive(producer).onSuccess(live -> {
      if (!live) {
        LOG.atInfo().log(() -> "Session " + session.id() + ": stream " + streamId + " was left unfinished by "
            + "instance " + producer + "; answering its request with an error");
        DeliveryOptions lost = new DeliveryOptions().addHeader(SessionVerticle.PRODUCER_LOST, streamId)
            .setSendTimeout(instance.options().getLeaseTtlMs());
        // Whatever the owner says (or if no owner answers: the session is moving, and nothing runs the request).
        bus.request(McpEventBus.sessionAddress(session.id()), null, lost)
            .eventually(() -> streams.publish(session, streamId, codec.encode(SessionEvents.ownerLostError(requestId)))
                .onSuccess(id -> streams.completeStream(session, streamId)));
      }
    });
  }
}
