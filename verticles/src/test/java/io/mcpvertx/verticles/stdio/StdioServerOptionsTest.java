package io.mcpvertx.verticles.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class StdioServerOptionsTest {

  @Test
  void defaultsDrainForFiveSecondsAndRedirectSystemOut() {
    StdioServerOptions options = new StdioServerOptions();
    assertEquals(StdioServerOptions.DEFAULT_DRAIN_TIMEOUT_MS, options.getDrainTimeoutMs());
    assertTrue(options.isRedirectSystemOut());
  }

  @Test
  void theCopyIsIndependentOfTheOriginal() {
    StdioServerOptions original = new StdioServerOptions().setDrainTimeoutMs(7).setRedirectSystemOut(false);
    StdioServerOptions copy = new StdioServerOptions(original);
    original.setDrainTimeoutMs(9).setRedirectSystemOut(true);
    assertEquals(7, copy.getDrainTimeoutMs());
    assertFalse(copy.isRedirectSystemOut());
  }

  @Test
  void survivesAJsonRoundTripAndKeepsDefaultsForMissingMembers() {
    StdioServerOptions options = new StdioServerOptions().setDrainTimeoutMs(123).setRedirectSystemOut(false);
    assertEquals(options.toJson(), new StdioServerOptions(options.toJson()).toJson());
    assertEquals(new StdioServerOptions().toJson(), new StdioServerOptions(new JsonObject()).toJson());
  }

  @Test
  void rejectsANegativeDrainTimeout() {
    assertThrows(IllegalArgumentException.class, () -> new StdioServerOptions().setDrainTimeoutMs(-1));
  }
}
