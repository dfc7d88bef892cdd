package io.mcpvertx.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.leases.memory.InMemoryLeaseStore;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class McpInstanceTest {

  private static final InstanceOptions FAST = new InstanceOptions().setRenewIntervalMs(50).setLeaseTtlMs(1_000)
      .setName("node1");

  @Test
  void aStartedInstanceHoldsALiveLeaseUnderANamedId(Vertx vertx, VertxTestContext test) {
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    McpInstance instance = McpInstance.create(vertx, leases, FAST);
    assertFalse(instance.isLive());
    instance.start().compose(v -> leases.isLive(instance.id())).onComplete(test.succeeding(live -> test.verify(() -> {
      assertTrue(live);
      assertTrue(instance.isLive());
      assertTrue(instance.id().startsWith("node1-"));
      test.completeNow();
    })));
  }

  @Test
  void aLostLeaseIsReportedThenRegisteredAgainUnderANewId(Vertx vertx, VertxTestContext test) {
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    McpInstance instance = McpInstance.create(vertx, leases, FAST);
    instance.start().onComplete(test.succeeding(v -> {
      String first = instance.id();
      instance.onLost(lost -> test.verify(() -> assertEquals(first, lost)));
      // Another party ends the lease behind the instance's back, as a store would after a long pause.
      leases.release(first);
      vertx.setPeriodic(20, t -> {
        if (instance.isLive() && !instance.id().equals(first)) {
          vertx.cancelTimer(t);
          leases.isLive(instance.id()).onComplete(test.succeeding(live -> test.verify(() -> {
            assertTrue(live);
            assertNotEquals(first, instance.id());
            test.completeNow();
          })));
        }
      });
    }));
  }

  @Test
  void closingReleasesTheLease(Vertx vertx, VertxTestContext test) {
    InMemoryLeaseStore leases = InMemoryLeaseStore.create();
    McpInstance instance = McpInstance.create(vertx, leases, FAST);
    instance.start().compose(v -> instance.close()).compose(v -> leases.isLive(instance.id()))
        .onComplete(test.succeeding(live -> test.verify(() -> {
          assertFalse(live);
          assertFalse(instance.isLive());
          test.completeNow();
        })));
  }

  @Test
  void aLeaseMustOutliveTwoMissedRenewals() {
    assertThrows(IllegalArgumentException.class, () -> new InstanceOptions().setRenewIntervalMs(1_000)
        .setLeaseTtlMs(2_000).validate());
    assertThrows(IllegalArgumentException.class, () -> new InstanceOptions().setName("a b"));
    assertEquals(FAST.toJson(), new InstanceOptions(FAST.toJson()).toJson());
  }
}
