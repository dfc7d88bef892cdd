package io.mcpvertx.storage.redis.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class its own Redis Cluster of three masters and three replicas (see {@link TestRedisCluster})
 * from before its first test to after its last; nested classes share it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisClusterExtension CLUSTER = new RedisClusterExtension();
 * ... CLUSTER.cluster().urls() ...
 * }</pre>
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

  /** How long a master may be unreachable before its replica is promoted, unless told otherwise. */
  public static final long DEFAULT_NODE_TIMEOUT_MS = 2_000;

  private final long nodeTimeoutMs;
  private TestRedisCluster cluster;
  private int depth;

  public RedisClusterExtension() {
    this(DEFAULT_NODE_TIMEOUT_MS);
  }

  /** A cluster whose replicas take over after a master was unreachable for {@code nodeTimeoutMs}. */
  public RedisClusterExtension(long nodeTimeoutMs) {
    this.nodeTimeoutMs = nodeTimeoutMs;
  }

  /** The cluster of the running test class. */
  public TestRedisCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("no cluster outside a test class: register the extension on a static field");
    }
    return cluster;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (depth++ > 0) {
      return;
    }
    cluster = TestRedisCluster.start(context.getRequiredTestClass(), nodeTimeoutMs);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (--depth == 0 && cluster != null) {
      try {
        cluster.close();
      } finally {
        cluster = null;
      }
    }
  }
}
