package io.mcpvertx.annotations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.tools.TaskSupport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Mistakes in annotated handlers fail registration, naming the class and the method, and register nothing. */
@ExtendWith(VertxExtension.class)
class RegistrationErrorsTest {

  private static String problem(Object handler) {
    return assertThrows(HandlerDefinitionException.class, () -> AnnotatedFeatures.of(handler)).getMessage();
  }

  private static void assertNames(String message, Class<?> type, String method) {
    assertTrue(message.contains(type.getName()) && message.contains("." + method + "("), message);
  }

  public static class Duplicates {
    @McpTool(name = "same", description = "One")
    public String one() {
      return "";
    }

    @McpTool(name = "same", description = "Two")
    public String two() {
      return "";
    }
  }

  public static class NoDescription {
    @McpTool(description = " ")
    public String quiet() {
      return "";
    }
  }

  public static class Unbindable {
    @McpTool(description = "Takes something JSON cannot make")
    public String run(Runnable task) {
      return "";
    }
  }

  public static class BlockingFuture {
    @McpTool(description = "Both", blocking = true)
    public Future<String> both() {
      return Future.succeededFuture("");
    }
  }

  public static class OptionalPrimitive {
    @McpTool(description = "No value for an absent int")
    public String days(@McpArg(required = false) int days) {
      return "";
    }
  }

  public static class BadDefault {
    @McpTool(description = "A default that is no number")
    public String days(@McpArg(defaultValue = "three") int days) {
      return "";
    }
  }

  public static class TaskDelayWithoutTasks {
    @McpTool(description = "Promoted, but never a task", taskAfterMs = 100)
    public String slow() {
      return "";
    }
  }

  public static class ObjectResult {
    @McpTool(description = "Returns anything")
    public Object anything() {
      return "";
    }
  }

  public static class StaticTool {
    @McpTool(description = "Static")
    public static String alone() {
      return "";
    }
  }

  public static class Good {
    @McpTool(name = "same", description = "Fine on its own", taskSupport = TaskSupport.OPTIONAL)
    public String same() {
      return "";
    }
  }

  @Test
  void duplicateNamesNameBothMethods() {
    String message = problem(new Duplicates());
    assertNames(message, Duplicates.class, "two");
    assertTrue(message.contains("Duplicates.one()"), message);
  }

  @Test
  void aDuplicateAcrossObjectsRegistersNothing(Vertx vertx) {
    McpServer server = McpServer.create(vertx);
    assertThrows(HandlerDefinitionException.class, () -> AnnotatedFeatures.register(server, new Good(),
        new Duplicates()));
    assertFalse(server.removeTool("same"), "nothing was registered");
  }

  @Test
  void eachMistakeNamesItsMethod() {
    assertNames(problem(new NoDescription()), NoDescription.class, "quiet");
    assertNames(problem(new Unbindable()), Unbindable.class, "run");
    assertNames(problem(new BlockingFuture()), BlockingFuture.class, "both");
    assertNames(problem(new OptionalPrimitive()), OptionalPrimitive.class, "days");
    assertNames(problem(new BadDefault()), BadDefault.class, "days");
    assertNames(problem(new TaskDelayWithoutTasks()), TaskDelayWithoutTasks.class, "slow");
    assertNames(problem(new ObjectResult()), ObjectResult.class, "anything");
    assertNames(problem(new StaticTool()), StaticTool.class, "alone");
  }

  @Test
  void theMessageSaysWhatIsWrong() {
    assertTrue(problem(new NoDescription()).contains("no description"));
    assertTrue(problem(new Unbindable()).contains("cannot be bound"));
    assertTrue(problem(new BadDefault()).contains("three"));
    assertEquals(1, AnnotatedFeatures.of(new Good()).tools().size());
  }
}
