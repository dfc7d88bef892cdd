package io.mcpvertx.server.stateless;

import static io.mcpvertx.server.stateless.StatelessFixtures.accept;
import static io.mcpvertx.server.stateless.StatelessFixtures.call;
import static io.mcpvertx.server.stateless.StatelessFixtures.roots;
import static io.mcpvertx.server.stateless.StatelessFixtures.sampled;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.Principal;
import io.mcpvertx.testing.McpTestClient;
import io.mcpvertx.testing.SpecSchemas;
import io.mcpvertx.testing.StatelessTestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Multi round-trip requests (SEP-2322): a handler's unanswered {@code ctx.elicit/sample/roots} becomes an
 * {@code input_required} result; the client retries with {@code inputResponses} and the signed
 * {@code requestState}, which carries earlier rounds' answers and is bound to the principal, the method and the
 * arguments.
 */
@ExtendWith(VertxExtension.class)
class MultiRoundTripTest {

  private static final Principal ALICE = new Principal("https://issuer.example", "alice", Set.of());
  private static final Principal BOB = new Principal("https://issuer.example", "bob", Set.of());

  private McpServer server;
  private StatelessTestClient client;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = StatelessFixtures.server(vertx);
    client = StatelessTestClient.engine(vertx, server);
  }

  /** The same request again, with answers and (when not null) the state. */
  private static JsonObject retry(JsonObject params, JsonObject answers, String state) {
    JsonObject retry = params.copy().put("inputResponses", answers);
    if (state != null) {
      retry.put("requestState", state);
    }
    return retry;
  }

  private static String state(JsonObject inputRequired) {
    assertTrue(inputRequired.getValue("requestState") instanceof String, inputRequired::encode);
    return inputRequired.getString("requestState");
  }

  @Test
  void anUnansweredQuestionBecomesAnInputRequiredResult(VertxTestContext test) {
    client.request("tools/call", call("ask_name", new JsonObject())).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject result = x.inputRequired();
          assertEquals(Set.of("user_name"), result.getJsonObject("inputRequests").fieldNames());
          JsonObject request = result.getJsonObject("inputRequests").getJsonObject("user_name");
          assertEquals("elicitation/create", request.getString("method"));
          assertEquals("What is your name?", request.getJsonObject("params").getString("message"));
          assertEquals(StatelessFixtures.oneString("name"),
              request.getJsonObject("params").getJsonObject("requestedSchema"));
          assertFalse(request.containsKey("jsonrpc") || request.containsKey("id"), "an input request is not a message");
          assertEquals(List.of(), SpecSchemas.violations(StatelessTestClient.VERSION, "ElicitRequest", request));
          state(result);
          assertTrue(x.notifications().isEmpty(), "no server-to-client request on the stream");
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theRetryWithTheAnswerCompletes(VertxTestContext test) {
    JsonObject params = call("ask_name", new JsonObject());
    client.request("tools/call", params).send()
        .compose(first -> client.request("tools/call", retry(params,
            new JsonObject().put("user_name", accept("name", "Alice")), state(first.inputRequired()))).send())
        .map(x -> {
          assertEquals("Hello, Alice", x.complete().getJsonArray("content").getJsonObject(0).getString("text"));
          return null;
        })
        // the state is optional: an answer alone is enough, and unknown extra answers are ignored
        .compose(v -> client.request("tools/call", retry(params, new JsonObject()
            .put("user_name", accept("name", "Bob")).put("unknown_extra_key", accept("foo", "bar")), null)).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("Hello, Bob", x.complete().getJsonArray("content").getJsonObject(0).getString("text"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aMissingAnswerIsAskedForAgain(VertxTestContext test) {
    client.request("tools/call", retry(call("ask_name", null),
            new JsonObject().put("wrong_key", accept("data", "wrong")), null)).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals(Set.of("user_name"), x.inputRequired().getJsonObject("inputRequests").fieldNames());
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void questionsThatDependOnEarlierAnswersTakeSeveralRounds(VertxTestContext test) {
    JsonObject params = call("two_rounds", new JsonObject());
    client.request("tools/call", params).send().compose(r1 -> {
      String state1 = state(r1.inputRequired());
      assertEquals(Set.of("step1"), r1.inputRequired().getJsonObject("inputRequests").fieldNames());
      return client.request("tools/call", retry(params, new JsonObject().put("step1", accept("name", "Alice")),
          state1)).send().compose(r2 -> {
            JsonObject result = r2.inputRequired();
            assertEquals(Set.of("step2"), result.getJsonObject("inputRequests").fieldNames());
            String state2 = state(result);
            assertNotEquals(state1, state2, "the second round's state carries the first answer");
            // answering step 2 with the first round's state loses step 1: it is asked again
            return client.request("tools/call", retry(params, new JsonObject().put("step2", accept("color",
                "blue")), state1)).send().map(stale -> {
                  assertEquals(Set.of("step1"), stale.inputRequired().getJsonObject("inputRequests").fieldNames());
                  return state2;
                });
          });
    }).compose(state2 -> client.request("tools/call", retry(params,
            new JsonObject().put("step2", accept("color", "blue")), state2)).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("Alice likes blue", x.complete().getJsonArray("content").getJsonObject(0).getString("text"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void questionsAskedTogetherComeInOneRoundAndPartialAnswersAreKept(VertxTestContext test) {
    JsonObject params = call("all_three", null);
    client.request("tools/call", params).send().compose(r1 -> {
      JsonObject result = r1.inputRequired();
      JsonObject requests = result.getJsonObject("inputRequests");
      assertEquals(Set.of("name", "greeting", "roots"), requests.fieldNames());
      assertEquals("sampling/createMessage", requests.getJsonObject("greeting").getString("method"));
      assertEquals("roots/list", requests.getJsonObject("roots").getString("method"));
      // two of three answers: only the third is asked again, the two are carried in the state
      return client.request("tools/call", retry(params, new JsonObject().put("name", accept("name", "Ann"))
          .put("greeting", sampled("hi!")), state(result))).send();
    }).compose(r2 -> {
      JsonObject result = r2.inputRequired();
      assertEquals(Set.of("roots"), result.getJsonObject("inputRequests").fieldNames());
      return client.request("tools/call", retry(params, new JsonObject().put("roots", roots("file:///a",
          "file:///b")), state(result))).send();
    }).onComplete(test.succeeding(x -> test.verify(() -> {
      assertEquals("Ann|hi!|file:///a,file:///b", x.complete().getJsonArray("content").getJsonObject(0)
          .getString("text"));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void theStateCarriesOnlyTheAnswersTheHandlerUsed(VertxTestContext test) {
    JsonObject params = call("all_three", null);
    client.request("tools/call", retry(params, new JsonObject().put("name", accept("name", "Ann"))
            .put("unknown_extra_key", accept("junk", "x".repeat(2000))), null)).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject result = x.inputRequired();
          assertEquals(Set.of("greeting", "roots"), result.getJsonObject("inputRequests").fieldNames());
          // White box: the state is base64url(payload) "." signature, and the payload keeps the answers in "r".
          String payload = state(result).substring(0, state(result).indexOf('.'));
          JsonObject decoded = new JsonObject(new String(java.util.Base64.getUrlDecoder().decode(payload),
              java.nio.charset.StandardCharsets.UTF_8));
          assertEquals(Set.of("name"), decoded.getJsonObject("r").fieldNames());
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void promptsAndResourcesAskToo(VertxTestContext test) {
    JsonObject prompt = new JsonObject().put("name", "context_prompt").put("arguments",
        new JsonObject().put("topic", "rust"));
    JsonObject secret = new JsonObject().put("uri", "test://secret");
    client.request("prompts/get", prompt).send()
        .compose(r1 -> client.request("prompts/get", retry(prompt,
            new JsonObject().put("user_context", accept("context", "ownership")), state(r1.inputRequired()))).send())
        .map(x -> {
          assertEquals("rust: ownership", x.complete().getJsonArray("messages").getJsonObject(0)
              .getJsonObject("content").getString("text"));
          return null;
        })
        .compose(v -> client.request("resources/read", secret).send())
        .compose(r1 -> client.request("resources/read", retry(secret,
            new JsonObject().put("confirm", accept("ok", "yes")), state(r1.inputRequired()))).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject result = x.complete();
          assertEquals("s3cret", result.getJsonArray("contents").getJsonObject(0).getString("text"));
          assertEquals(5_000, result.getLong("ttlMs"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void onlyDeclaredCapabilitiesAreAskedFor(VertxTestContext test) {
    client.request("tools/call", call("ask_name", null)).capabilities(new JsonObject()
            .put("sampling", new JsonObject())).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(-32021);
          assertEquals(new JsonObject().put("elicitation", new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aHandlerThatFailsForAnotherReasonGetsItsErrorNotMoreQuestions(VertxTestContext test) {
    // all_three asks for a name first: without elicitation that fails at once, so the sampling question it also
    // asked could never lead anywhere.
    client.request("tools/call", call("all_three", null)).capabilities(new JsonObject()
            .put("sampling", new JsonObject()).put("roots", new JsonObject())).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          JsonObject error = x.assertError(-32021);
          assertEquals(new JsonObject().put("elicitation", new JsonObject()),
              error.getJsonObject("data").getJsonObject("requiredCapabilities"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aHandlerThatTurnsAnOpenQuestionIntoAResultStillGetsItAsked(VertxTestContext test) {
    server.tool(io.mcpvertx.server.tools.Tool.builder("lenient").build(),
        (args, ctx) -> StatelessFixtures.name(ctx, "who", "Who?")
            .map(name -> io.mcpvertx.server.tools.ToolResult.text("hi " + name))
            .otherwise(failure -> io.mcpvertx.server.tools.ToolResult.error("no name: " + failure.getMessage())));
    client.request("tools/call", call("lenient", null)).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals(Set.of("who"), x.inputRequired().getJsonObject("inputRequests").fieldNames());
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aTamperedStateIsRejected(VertxTestContext test) {
    JsonObject params = call("two_rounds", null);
    JsonObject answer = new JsonObject().put("step1", accept("name", "Mallory"));
    client.request("tools/call", params).send()
        .compose(r1 -> client.request("tools/call", retry(params, answer, state(r1.inputRequired()))).send())
        .compose(r2 -> {
          String state = state(r2.inputRequired());
          int dot = state.indexOf('.');
          String payload = state.substring(0, dot);
          char flipped = payload.charAt(5) == 'A' ? 'B' : 'A';
          List<String> forgeries = List.of(state + "-TAMPERED", "x" + state,
              payload.substring(0, 5) + flipped + payload.substring(6) + state.substring(dot),
              payload, payload + ".", "." + state.substring(dot + 1), "not a state at all", "");
          Future<Void> chain = Future.succeededFuture();
          for (String forged : forgeries) {
            chain = chain.compose(v -> client.request("tools/call", retry(params,
                new JsonObject().put("step2", accept("color", "red")), forged)).send()).map(x -> {
                  x.assertError(-32602);
                  return null;
                });
          }
          return chain;
        })
        .onComplete(test.succeeding(v -> test.verify(() -> {
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void aStateOnlyServesTheRequestItWasMadeFor(VertxTestContext test) {
    JsonObject french = call("greet_in", new JsonObject().put("language", "fr"));
    JsonObject answer = new JsonObject().put("user_name", accept("name", "Zoé"));
    client.request("tools/call", french).principal(ALICE).send().compose(r1 -> {
      String state = state(r1.inputRequired());
      return client.request("tools/call", retry(french, answer, state)).principal(BOB).send()
          .map(x -> x.assertError(-32602))
          .compose(v -> client.request("tools/call", retry(french, answer, state)).send())
          .map(x -> x.assertError(-32602))
          .compose(v -> client.request("tools/call", retry(call("greet_in", new JsonObject().put("language",
              "de")), answer, state)).principal(ALICE).send())
          .map(x -> x.assertError(-32602))
          .compose(v -> client.request("tools/call", retry(call("ask_name", new JsonObject()), answer, state))
              .principal(ALICE).send())
          .map(x -> x.assertError(-32602))
          .compose(v -> client.request("prompts/get", retry(new JsonObject().put("name", "context_prompt"),
              answer, state)).principal(ALICE).send())
          .map(x -> x.assertError(-32602))
          .compose(v -> client.request("tools/call", retry(french, answer, state)).principal(ALICE).send());
    }).onComplete(test.succeeding(x -> test.verify(() -> {
      assertEquals("fr: hello Zoé", x.complete().getJsonArray("content").getJsonObject(0).getString("text"));
      client.assertNoViolations();
      test.completeNow();
    })));
  }

  @Test
  void noArgumentsAndEmptyArgumentsAreTheSameRequest(VertxTestContext test) {
    JsonObject answer = new JsonObject().put("step1", accept("name", "Ann"));
    client.request("tools/call", call("two_rounds", null)).send()
        .compose(r1 -> client.request("tools/call", retry(call("two_rounds", new JsonObject()), answer,
            state(r1.inputRequired()))).send())
        .map(x -> {
          assertEquals(Set.of("step2"), x.inputRequired().getJsonObject("inputRequests").fieldNames());
          return null;
        })
        .compose(v -> client.request("tools/call", call("two_rounds", new JsonObject())).send())
        .compose(r1 -> client.request("tools/call", retry(call("two_rounds", null), answer,
            state(r1.inputRequired()))).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals(Set.of("step2"), x.inputRequired().getJsonObject("inputRequests").fieldNames());
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  /**
   * A state is not single-use: within its lifetime, presenting it again re-runs the request with the answers it
   * carries (plus the ones sent). Handlers whose effect must happen at most once enforce that themselves.
   */
  @Test
  void aReplayedStateReRunsTheRequestWithTheEarlierAnswers(VertxTestContext test) {
    JsonObject params = call("two_rounds", null);
    client.request("tools/call", params).send()
        .compose(r1 -> client.request("tools/call", retry(params, new JsonObject().put("step1", accept("name",
            "Alice")), state(r1.inputRequired()))).send())
        .compose(r2 -> {
          JsonObject again = retry(params, new JsonObject().put("step2", accept("color", "green")),
              state(r2.inputRequired()));
          return client.request("tools/call", again).send().compose(first -> client.request("tools/call", again)
              .send().map(second -> {
                assertEquals(first.complete().getJsonArray("content"), second.complete().getJsonArray("content"));
                return second;
              }));
        })
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("Alice likes green", x.complete().getJsonArray("content").getJsonObject(0)
              .getString("text"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void malformedInputIsAnError(VertxTestContext test) {
    JsonObject params = call("ask_name", null);
    client.request("tools/call", params.copy().put("inputResponses", new JsonObject().put("user_name", 12345)))
        .send()
        .map(x -> x.assertError(-32602))
        .compose(v -> client.request("tools/call", params.copy().putNull("inputResponses")).send())
        .map(x -> x.assertError(-32602))
        .compose(v -> client.request("tools/call", params.copy().put("inputResponses", "user_name")).send())
        .map(x -> x.assertError(-32602))
        .compose(v -> client.request("tools/call", params.copy().put("requestState", 42)).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32602);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void anAnswerThatIsNotAResultOfItsQuestionIsAnError(VertxTestContext test) {
    JsonObject askName = call("ask_name", null);
    JsonObject allThree = call("all_three", null);
    JsonObject name = accept("name", "Ann");
    List<JsonObject> bad = List.of(
        retry(askName, new JsonObject().put("user_name", new JsonObject()), null),
        retry(askName, new JsonObject().put("user_name", new JsonObject().put("action", "maybe")), null),
        retry(askName, new JsonObject().put("user_name", new JsonObject().put("action", "accept")
            .put("content", "Ann")), null),
        retry(allThree, new JsonObject().put("name", name).put("greeting", sampled("hi").copy().putNull("model")),
            null),
        retry(allThree, new JsonObject().put("name", name).put("greeting", new JsonObject().put("text", "hi")),
            null),
        retry(allThree, new JsonObject().put("name", name).put("roots", new JsonObject().put("roots", "file:///")),
            null),
        retry(allThree, new JsonObject().put("name", name).put("roots", new JsonObject().put("roots",
            new io.vertx.core.json.JsonArray().add(new JsonObject().put("name", "no uri")))), null));
    Future<Void> chain = Future.succeededFuture();
    for (JsonObject params : bad) {
      chain = chain.compose(v -> client.request("tools/call", params).send()).map(x -> {
        JsonObject error = x.assertError(-32602);
        assertTrue(error.getString("message").contains("inputResponses."), error::encode);
        return null;
      });
    }
    // a declined form has no content, and that is a valid answer
    chain.compose(v -> client.request("tools/call", retry(askName, new JsonObject().put("user_name",
            new JsonObject().put("action", "decline")), null)).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          assertEquals("Hello, decline", x.complete().getJsonArray("content").getJsonObject(0).getString("text"));
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void requestsThatCannotAskIgnoreAnswersAndState(VertxTestContext test) {
    client.request("tools/list", new JsonObject().put("inputResponses", new JsonObject().put("x", 1))
            .put("requestState", "garbage")).send()
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.complete();
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void onlyToolsPromptsAndResourcesMayAnswerWithInputRequired(Vertx vertx, VertxTestContext test) {
    // A completion handler that asks the user: completion/complete cannot carry input requests.
    server.promptCompletion("context_prompt", "topic", (request, ctx) -> ctx.elicit("which",
            io.mcpvertx.server.client.ElicitRequest.form("Which topic?", StatelessFixtures.oneString("topic")))
        .map(answer -> io.mcpvertx.server.completion.Completion.of(List.of(answer.content().getString("topic")))));
    JsonObject complete = new JsonObject()
        .put("ref", new JsonObject().put("type", "ref/prompt").put("name", "context_prompt"))
        .put("argument", new JsonObject().put("name", "topic").put("value", ""));
    client.request("completion/complete", complete).send()
        .map(x -> x.assertError(-32603))
        // answers are not read on such a request either
        .compose(v -> client.request("completion/complete", complete.copy().put("inputResponses",
            new JsonObject().put("which", accept("topic", "go")))).send())
        .onComplete(test.succeeding(x -> test.verify(() -> {
          x.assertError(-32603);
          client.assertNoViolations();
          test.completeNow();
        })));
  }

  @Test
  void theSameHandlersAskOverASession(Vertx vertx, VertxTestContext test) {
    McpTestClient.inProcess(vertx, server).compose(session -> {
      session.onRequest("elicitation/create", params -> Future.succeededFuture(accept("name", "Ada")));
      session.onRequest("sampling/createMessage", params -> Future.succeededFuture(sampled("hey")));
      session.onRequest("roots/list", params -> Future.succeededFuture(roots("file:///r")));
      return session.initialize("2025-11-25", StatelessTestClient.ALL_CAPABILITIES)
          .compose(init -> session.call("tools/call", call("ask_name", null)))
          .map(result -> {
            assertEquals("Hello, Ada", result.getJsonArray("content").getJsonObject(0).getString("text"));
            return null;
          })
          .compose(v -> session.call("tools/call", call("all_three", null)))
          .map(result -> {
            assertEquals("Ada|hey|file:///r", result.getJsonArray("content").getJsonObject(0).getString("text"));
            assertTrue(session.violations().isEmpty(), () -> session.violations().toString());
            return null;
          });
    }).onComplete(test.succeedingThenComplete());
  }
}
