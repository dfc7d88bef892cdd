package io.mcpvertx.annotations;

import io.mcpvertx.annotations.impl.VerticleFeatures;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

/**
 * A verticle whose {@link McpTool}, {@link McpPrompt} and {@link McpResource} methods are served on the event bus
 * as feature verticles are: every server that has {@code RemoteFeatures} attached, on this node or (with a
 * clustered event bus) any other, offers them, and drops them when this verticle is undeployed or its node leaves.
 *
 * <pre>{@code
 * public class WeatherVerticle extends AnnotatedVerticle {
 *   @McpTool(description = "Current weather")
 *   public Future<Weather> weather(String city) { ... }
 * }
 * vertx.deployVerticle(new WeatherVerticle());
 * }</pre>
 *
 * <p>Calls run on this verticle's context, one at a time like any of its events, so its fields need no locking;
 * methods declared {@code blocking} run on a worker thread. Resource templates and completions are not carried by
 * the event-bus protocol: register those on a server with {@link AnnotatedFeatures} instead; declaring one here
 * fails the deployment, as every other definition mistake does.
 *
 * <p>A subclass that overrides {@link #start()} (to open a client, say) calls {@code super.start()} when it is
 * ready to serve, and one that overrides {@link #stop()} calls {@code super.stop()}.
 */
public abstract class AnnotatedVerticle extends VerticleBase {

  private VerticleFeatures features;

  @Override
  public Future<?> start() {
    try {
      features = VerticleFeatures.of(this);
    } catch (HandlerDefinitionException e) {
      return Future.failedFuture(e);
    }
    return features.start(vertx, context);
  }

  @Override
  public Future<?> stop() {
    return features == null ? Future.succeededFuture() : features.stop();
  }
}
