package io.mcpvertx.storage.redis.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class its own Redis (see {@link TestRedis}) from before its first test to after its last.
 *
 * <p>Register it on a static field and read the server from there:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension REDIS = new RedisServerExtension();
 * ... REDIS.redis().url() ...
 * }</pre>
 *
 * or with {@code @ExtendWith(RedisServerExtension.class)} and a {@link TestRedis} parameter on a test,
 * lifecycle method or constructor.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private final boolean cluster;
  private final String[] serverArgs;
  private TestRedis redis;
  /** Nested test classes inherit the extension: they share the enclosing class's server. */
  private int depth;

  /** A standalone Redis, private or external. */
  public RedisServerExtension() {
    this(false);
  }

  private RedisServerExtension(boolean cluster, String... serverArgs) {
    this.cluster = cluster;
    this.serverArgs = serverArgs.clone();
  }

  /** A standalone Redis; a private one gets these further {@code redis-server} options (see {@link TestRedis}). */
  public static RedisServerExtension withServerArgs(String... serverArgs) {
    return new RedisServerExtension(false, serverArgs);
  }

  /** A private one-node Redis Cluster (see {@link TestRedis#startCluster}); skips the class with an external one. */
  public static RedisServerExtension cluster() {
    return new RedisServerExtension(true);
  }

  /** The Redis of the running test class. */
  public TestRedis redis() {
    if (redis == null) {
      throw new IllegalStateException("no Redis outside a test class: register the extension on a static field");
    }
    return redis;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (depth++ > 0) {
      return;
    }
    redis = cluster ? TestRedis.startCluster(context.getRequiredTestClass())
        : TestRedis.start(context.getRequiredTestClass(), serverArgs);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (--depth == 0 && redis != null) {
      try {
        redis.close();
      } finally {
        redis = null;
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestRedis.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return redis();
  }
}
