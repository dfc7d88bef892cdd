package io.mcpvertx.metrics.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.VertxOptions;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.DatagramSocketMetrics;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpClientMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

/**
 * vertx-micrometer-metrics with one part swapped: the HTTP server's metrics are {@link HttpServerMeters} (the same
 * names and labels, each meter looked up once) rather than the library's, which look their meters up on every
 * request. Everything else (event bus, pools, clients, TCP) is the library's.
 */
final class McpVertxMetricsFactory implements VertxMetricsFactory {

  private final MicrometerMetricsFactory micrometer;
  private final MeterRegistry registry;

  McpVertxMetricsFactory(MeterRegistry registry) {
    this.micrometer = new MicrometerMetricsFactory(registry);
    this.registry = registry;
  }

  @Override
  public VertxMetrics metrics(VertxOptions options) {
    if (!(options.getMetricsOptions() instanceof MicrometerMetricsOptions micrometerOptions)
        || micrometerOptions.getDisabledMetricsCategories().contains(MetricsDomain.HTTP_SERVER.name())) {
      return new Swapped(micrometer.metrics(options), null);
    }
    // The library keeps out of the HTTP server's metrics, so no meter of those names is registered twice.
    VertxOptions library = new VertxOptions(options).setMetricsOptions(new MicrometerMetricsOptions(micrometerOptions)
        .addDisabledMetricsCategory(MetricsDomain.HTTP_SERVER));
    return new Swapped(micrometer.metrics(library), new HttpServerMeters(registry));
  }

  @Override
  public MetricsOptions newOptions() {
    return micrometer.newOptions();
  }

  @Override
  public MetricsOptions newOptions(MetricsOptions options) {
    return micrometer.newOptions(options);
  }

  @Override
  public MetricsOptions newOptions(JsonObject json) {
    return micrometer.newOptions(json);
  }

  /** The library's metrics, but for the HTTP server's. */
  private static final class Swapped implements VertxMetrics {

    private final VertxMetrics library;
    /** Null when the HTTP server's metrics are turned off. */
    private final HttpServerMeters httpServer;

    Swapped(VertxMetrics library, HttpServerMeters httpServer) {
      this.library = library;
      this.httpServer = httpServer;
    }

    @Override
    public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
      return httpServer;
    }

    @Override
    public EventBusMetrics createEventBusMetrics() {
      return library.createEventBusMetrics();
    }

    @Override
    public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type, String namespace) {
      return library.createClientMetrics(remoteAddress, type, namespace);
    }

    @Override
    public HttpClientMetrics<?, ?, ?> createHttpClientMetrics(HttpClientOptions options) {
      return library.createHttpClientMetrics(options);
    }

    @Override
    public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
      return library.createNetServerMetrics(options, localAddress);
    }

    @Override
    public TCPMetrics<?> createNetClientMetrics(NetClientOptions options) {
      return library.createNetClientMetrics(options);
    }

    @Override
    public DatagramSocketMetrics createDatagramSocketMetrics(DatagramSocketOptions options) {
      return library.createDatagramSocketMetrics(options);
    }

    @Override
    public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxPoolSize) {
      return library.createPoolMetrics(poolType, poolName, maxPoolSize);
    }

    @Override
    public void vertxCreated(io.vertx.core.Vertx vertx) {
      library.vertxCreated(vertx);
    }

    @Override
    public boolean isMetricsEnabled() {
      return library.isMetricsEnabled();
    }

    @Override
    public void close() {
      library.close();
    }
  }
}
