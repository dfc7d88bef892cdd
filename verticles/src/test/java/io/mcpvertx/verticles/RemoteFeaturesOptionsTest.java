package io.mcpvertx.verticles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RemoteFeaturesOptionsTest {

  @Test
  void hasDefaults() {
    RemoteFeaturesOptions options = new RemoteFeaturesOptions();
    assertEquals(RemoteFeatures.DEFAULT_CALL_TIMEOUT_MS, options.getCallTimeoutMs());
    assertEquals(RemoteFeaturesOptions.DEFAULT_MEMBERSHIP_CHECK_INTERVAL_MS, options.getMembershipCheckIntervalMs());
  }

  @Test
  void theCopyIsIndependentOfTheOriginal() {
    RemoteFeaturesOptions original = new RemoteFeaturesOptions().setCallTimeoutMs(5);
    RemoteFeaturesOptions copy = new RemoteFeaturesOptions(original);
    original.setCallTimeoutMs(6).setMembershipCheckIntervalMs(7);
    assertEquals(5, copy.getCallTimeoutMs());
    assertEquals(RemoteFeaturesOptions.DEFAULT_MEMBERSHIP_CHECK_INTERVAL_MS, copy.getMembershipCheckIntervalMs());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForMissingMembers() {
    RemoteFeaturesOptions options = new RemoteFeaturesOptions().setCallTimeoutMs(1234)
        .setMembershipCheckIntervalMs(56);
    assertEquals(options.toJson(), new RemoteFeaturesOptions(options.toJson()).toJson());
    RemoteFeaturesOptions partial = new RemoteFeaturesOptions(new JsonObject().put("membershipCheckIntervalMs", 9));
    assertEquals(9, partial.getMembershipCheckIntervalMs());
    assertEquals(RemoteFeatures.DEFAULT_CALL_TIMEOUT_MS, partial.getCallTimeoutMs());
  }

  @Test
  void rejectsIntervalsThatAreNotPositive() {
    assertThrows(IllegalArgumentException.class, () -> new RemoteFeaturesOptions().setCallTimeoutMs(0));
    assertThrows(IllegalArgumentException.class,
        () -> new RemoteFeaturesOptions(new JsonObject().put("membershipCheckIntervalMs", -1)));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalidValues")
  void refusesAnInvalidValueAlikeBySetterAndByJson(String key, Object value, Consumer<RemoteFeaturesOptions> setter) {
    IllegalArgumentException bySetter = assertThrows(IllegalArgumentException.class,
        () -> setter.accept(new RemoteFeaturesOptions()));
    IllegalArgumentException byJson = assertThrows(IllegalArgumentException.class,
        () -> new RemoteFeaturesOptions(new JsonObject().put(key, value)));
    assertEquals(bySetter.getMessage(), byJson.getMessage());
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("callTimeoutMs", 0, (Consumer<RemoteFeaturesOptions>) o -> o.setCallTimeoutMs(0)),
        Arguments.of("membershipCheckIntervalMs", -1, (Consumer<RemoteFeaturesOptions>) o -> o.setMembershipCheckIntervalMs(-1)));
  }
}
