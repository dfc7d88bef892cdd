package io.mcpvertx.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InstanceOptionsTest {

  @Test
  void hasItsDefaults() {
    InstanceOptions options = new InstanceOptions();
    assertEquals(InstanceOptions.DEFAULT_LEASE_TTL_MS, options.getLeaseTtlMs());
    assertEquals(InstanceOptions.DEFAULT_RENEW_INTERVAL_MS, options.getRenewIntervalMs());
    assertEquals(InstanceOptions.DEFAULT_ORPHAN_SWEEP_INTERVAL_MS, options.getOrphanSweepIntervalMs());
    assertEquals(InstanceOptions.DEFAULT_NAME, options.getName());
    assertEquals(true, options.isOwnsSessions());
    options.validate();
  }

  @Test
  void theCopyHasEveryValueAndIsIndependent() {
    InstanceOptions original = changed();
    InstanceOptions copy = new InstanceOptions(original);
    assertEquals(original.toJson(), copy.toJson());
    original.setName("other");
    assertEquals("node-1", copy.getName());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForAbsentKeys() {
    JsonObject json = changed().toJson();
    assertEquals(json, new InstanceOptions(json).toJson());
    assertEquals(new InstanceOptions().toJson(), new InstanceOptions(new JsonObject()).toJson());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<InstanceOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new InstanceOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new InstanceOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("leaseTtlMs", 2, (Consumer<InstanceOptions>) o -> o.setLeaseTtlMs(2)),
        Arguments.of("renewIntervalMs", 0, (Consumer<InstanceOptions>) o -> o.setRenewIntervalMs(0)),
        Arguments.of("orphanSweepIntervalMs", -1, (Consumer<InstanceOptions>) o -> o.setOrphanSweepIntervalMs(-1)),
        Arguments.of("name", "no spaces", (Consumer<InstanceOptions>) o -> o.setName("no spaces")));
  }

  @Test
  void aLeaseShorterThanThreeRenewalsIsRefusedByValidateHoweverItWasSet() {
    JsonObject json = new JsonObject().put("leaseTtlMs", 1_000).put("renewIntervalMs", 500);
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new InstanceOptions(json).validate());
    IllegalArgumentException bySetters = assertThrows(IllegalArgumentException.class,
        () -> new InstanceOptions().setLeaseTtlMs(1_000).setRenewIntervalMs(500).validate());
    assertEquals(bySetters.getMessage(), byJson.getMessage());
  }

  private static InstanceOptions changed() {
    return new InstanceOptions().setLeaseTtlMs(9_000).setRenewIntervalMs(1_000).setOrphanSweepIntervalMs(3_000)
        .setName("node-1").setOwnsSessions(false);
  }
}
