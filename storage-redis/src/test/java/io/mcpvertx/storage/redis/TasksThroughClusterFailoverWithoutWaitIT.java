package io.mcpvertx.storage.redis;

import io.mcpvertx.storage.redis.testing.RedisClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link TasksThroughClusterFailoverIT} without waiting for replicas: creations succeed again as soon as the
 * replica is promoted, with no restart of anything. Replication is asynchronous then, so a task the dead master
 * acknowledged but had not yet sent to its replica is lost: the run prints how many.
 */
class TasksThroughClusterFailoverWithoutWaitIT {

  @RegisterExtension
  static final RedisClusterExtension CLUSTER = TasksThroughClusterFailoverIT.CLUSTER;

  @BeforeAll
  static void start() {
    TasksThroughClusterFailoverIT.servers = TasksThroughClusterFailoverIT.servers(0);
  }

  @AfterAll
  static void stop() {
    TasksThroughClusterFailoverIT.stop();
  }

  @Test
  void creationsRecoverAsSoonAsTheReplicaIsPromoted() throws InterruptedException {
    TasksThroughClusterFailoverIT.failOverUnderLoad(false);
  }
}
