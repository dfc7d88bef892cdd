package io.mcpvertx.metrics.impl;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vert.x's HTTP server metrics, under the names and default labels of vertx-micrometer-metrics
 * ({@code vertx_http_server_requests_total{code,method}}, {@code _response_time_seconds}, {@code _request_bytes},
 * {@code _response_bytes}, {@code _active_requests{method}}, {@code _active_connections}, {@code _bytes_read_total},
 * {@code _bytes_written_total}, {@code _request_resets_total}), with every meter looked up once. The library's own
 * implementation builds each meter's tags and looks it up in the registry several times per request, which took 15
 * to 35 % of a core's requests per second on the request path (the peer benchmark, metrics on against off).
 *
 * <p>One instance serves every HTTP server of a Vert.x instance, so its gauges count them all. Thread-safe: called
 * from every event loop.
 */
final class HttpServerMeters implements HttpServerMetrics<HttpServerMeters.Request, Void, Void> {

  /** The highest status code kept apart; anything above is counted as 599. */
  private static final int MAX_STATUS = 599;

  private final MeterRegistry registry;
  private final AtomicLong connections = new AtomicLong();
  private final Counter bytesRead;
  private final Counter bytesWritten;
  private final ConcurrentHashMap<HttpMethod, ByMethod> methods = new ConcurrentHashMap<>();

  HttpServerMeters(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("vertx.http.server.active.connections", connections, AtomicLong::get)
        .description("Number of opened connections to the HTTP Server").register(registry);
    bytesRead = Counter.builder("vertx.http.server.bytes.read")
        .description("Number of bytes received by the HTTP Server").register(registry);
    bytesWritten = Counter.builder("vertx.http.server.bytes.written")
        .description("Number of bytes sent by the HTTP Server").register(registry);
  }

  /** One request's metric: its method's meters and when it began. */
  static final class Request {
    final ByMethod method;
    final long startNanos;

    Request(ByMethod method, long startNanos) {
      this.method = method;
      this.startNanos = startNanos;
    }
  }

  /** The meters of one method, and those of each status code seen with it. */
  final class ByMethod {
    final String name;
    final AtomicLong active = new AtomicLong();
    final DistributionSummary requestBytes;
    final Counter resets;
    /** By status code, filled as codes are first seen; a racing fill finds the registry's same meters. */
    private final ByCode[] codes = new ByCode[MAX_STATUS + 1];

    ByMethod(String name) {
      this.name = name;
      Gauge.builder("vertx.http.server.active.requests", active, AtomicLong::get)
          .description("Number of requests being processed").tag("method", name).register(registry);
      requestBytes = DistributionSummary.builder("vertx.http.server.request.bytes")
          .description("Size of requests in bytes").tag("method", name).register(registry);
      resets = Counter.builder("vertx.http.server.request.resets")
          .description("Number of request resets").tag("method", name).register(registry);
    }

    ByCode code(int status) {
      int index = Math.max(0, Math.min(MAX_STATUS, status));
      ByCode meters = codes[index];
      if (meters == null) {
        meters = new ByCode(name, Integer.toString(index));
        codes[index] = meters;
      }
      return meters;
    }
  }

  /** The meters of one method and status code. */
  final class ByCode {
    final Counter requests;
    final DistributionSummary responseBytes;
    final Timer responseTime;

    ByCode(String method, String code) {
      requests = Counter.builder("vertx.http.server.requests")
          .description("Number of processed requests").tag("method", method).tag("code", code).register(registry);
      responseBytes = DistributionSummary.builder("vertx.http.server.response.bytes")
          .description("Size of responses in bytes").tag("method", method).tag("code", code).register(registry);
      responseTime = Timer.builder("vertx.http.server.response.time")
          .description("Request processing time").tag("method", method).tag("code", code).register(registry);
    }
  }

  private ByMethod method(HttpMethod method) {
    ByMethod meters = methods.get(method);
    return meters != null ? meters : methods.computeIfAbsent(method, m -> new ByMethod(m.name()));
  }

  @Override
  public Request requestBegin(Void socket, HttpRequest request) {
    ByMethod meters = method(request.method());
    meters.active.incrementAndGet();
    return new Request(meters, System.nanoTime());
  }

  @Override
  public void requestEnd(Request request, HttpRequest httpRequest, long bytesRead) {
    request.method.requestBytes.record(bytesRead);
  }

  @Override
  public void requestReset(Request request) {
    request.method.active.decrementAndGet();
    request.method.resets.increment();
  }

  @Override
  public void responseEnd(Request request, HttpResponse response, long bytesWritten) {
    request.method.active.decrementAndGet();
    ByCode meters = request.method.code(response.statusCode());
    meters.requests.increment();
    meters.responseBytes.record(bytesWritten);
    meters.responseTime.record(System.nanoTime() - request.startNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public Void connected(SocketAddress remoteAddress, String remoteName) {
    connections.incrementAndGet();
    return null;
  }

  @Override
  public void disconnected(Void socket, SocketAddress remoteAddress) {
    connections.decrementAndGet();
  }

  @Override
  public void bytesRead(Void socket, SocketAddress remoteAddress, long numberOfBytes) {
    bytesRead.increment(numberOfBytes);
  }

  @Override
  public void bytesWritten(Void socket, SocketAddress remoteAddress, long numberOfBytes) {
    bytesWritten.increment(numberOfBytes);
  }
}
