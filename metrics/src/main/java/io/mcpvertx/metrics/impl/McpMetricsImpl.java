package io.mcpvertx.metrics.impl;

import io.mcpvertx.metrics.McpMetrics;
import io.mcpvertx.metrics.McpMetricsOptions;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.McpStores;
import io.mcpvertx.server.observe.McpObserver;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.Objects;
import java.util.function.IntSupplier;

/** The Micrometer metrics of one process. Thread-safe: its state is the registry's and the observer's. */
public final class McpMetricsImpl implements McpMetrics {

  private final McpMetricsOptions options;
  private final PrometheusMeterRegistry registry;
  private final MicrometerObserver observer;

  public McpMetricsImpl(McpMetricsOptions options, PrometheusMeterRegistry registry) {
    this.options = new McpMetricsOptions(Objects.requireNonNull(options, "options"));
    this.registry = registry != null ? registry : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.observer = new MicrometerObserver(this.registry);
    if (this.options.isJvmMetrics()) {
      new JvmMemoryMetrics().bindTo(this.registry);
      new JvmGcMetrics().bindTo(this.registry);
      new JvmThreadMetrics().bindTo(this.registry);
      new ClassLoaderMetrics().bindTo(this.registry);
      new ProcessorMetrics().bindTo(this.registry);
    }
  }

  @Override
  public McpMetricsOptions options() {
    return options;
  }

  @Override
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public VertxOptions vertxOptions(VertxOptions base) {
    VertxOptions vertxOptions = new VertxOptions(base);
    if (options.isVertxMetrics()) {
      // The factory records into our registry; the JVM's meters are bound above, once.
      vertxOptions.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(false));
    }
    return vertxOptions;
  }

  @Override
  public VertxMetricsFactory vertxMetricsFactory() {
    return new McpVertxMetricsFactory(registry);
  }

  @Override
  public McpMetrics bind(McpServer server) {
    server.observer(observer);
    server.instance().ifPresent(instance -> Gauge.builder("mcp.instance.lease.live", instance,
            i -> i.isLive() ? 1 : 0).strongReference(true)
        .description("1 while this instance holds its lease (it may own sessions and run tasks), 0 once lost")
        .register(registry));
    return this;
  }

  @Override
  public McpObserver observer() {
    return observer;
  }

  @Override
  public McpStores meter(McpStores stores) {
    return MeteredStores.wrap(stores, registry);
  }

  @Override
  public McpMetrics clusterMembers(IntSupplier members) {
    Objects.requireNonNull(members, "members");
    // Held strongly: a gauge holds its object weakly, and the caller keeps no other reference to a lambda.
    Gauge.builder("mcp.cluster.members", members, IntSupplier::getAsInt).strongReference(true)
        .description("Members of the cluster as this instance sees them, itself included")
        .register(registry);
    return this;
  }

  @Override
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public Future<HttpServer> serve(Vertx vertx) {
    return vertx.createHttpServer().requestHandler(request -> {
      if (!request.path().equals(options.getPath())) {
        request.response().setStatusCode(404).end();
        return;
      }
      request.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").end(scrape());
    }).listen(options.getPort(), options.getHost());
  }
}
