package io.mcpvertx.server.impl.stateless;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import io.mcpvertx.protocol.McpException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code requestState} verification on what a client may send back: a forged or altered state, and, past the
 * signature (as if the key had leaked), any payload at all, is refused with -32602 and nothing else; a state the
 * server sealed opens to what it carried, for the request it was bound to only.
 */
class RequestStatesFuzzTest {

  private static final String KEY = "0123456789abcdef0123456789abcdef-fuzz-key";
  private static final long NOW = 1_000_000L;
  private static final RequestStates STATES = new RequestStates(List.of(KEY), 60_000, () -> NOW);
  private static final RequestStates.Binding BINDING = RequestStates.Binding.of("alice", "tools/call",
      new JsonObject().put("name", "confirm").put("arguments", new JsonObject().put("file", "a.txt")));

  @FuzzTest
  void opensOnlyWhatItSealed(FuzzedDataProvider data) {
    switch (data.consumeInt(0, 2)) {
      case 0 -> opensOrRefuses(data.consumeRemainingAsString(), BINDING);
      case 1 -> opensOrRefuses(signed(data.consumeRemainingAsBytes()), BINDING);
      default -> roundTrip(data);
    }
  }

  /** A state the server sealed opens for its own request, and for no other. */
  private static void roundTrip(FuzzedDataProvider data) {
    String principal = data.consumeString(40);
    String method = data.consumeString(40);
    JsonObject params = new JsonObject().put("name", data.consumeString(40))
        .put("arguments", new JsonObject().put(data.consumeString(20), data.consumeString(40)));
    JsonObject responses = new JsonObject().put(data.consumeString(20), new JsonObject()
        .put("action", data.consumeString(20)).put("n", data.consumeLong()));
    RequestStates.Binding binding = RequestStates.Binding.of(principal, method, params);
    String state = STATES.seal(binding, responses);
    assertEquals(responses, STATES.open(state, binding));
    RequestStates.Binding other = RequestStates.Binding.of(principal + data.consumeString(8) + "!", method, params);
    McpException refused = assertThrows(McpException.class, () -> STATES.open(state, other));
    assertEquals(JsonRpcErrorCodes.INVALID_PARAMS, refused.error().code());
  }

  private static void opensOrRefuses(String state, RequestStates.Binding binding) {
    try {
      STATES.open(state, binding);
    } catch (McpException e) {
      assertEquals(JsonRpcErrorCodes.INVALID_PARAMS, e.error().code(), e.getMessage());
    } catch (RuntimeException e) {
      fail("requestState " + state + " was not refused as invalid params", e);
    }
  }

  /** Any bytes as the payload, signed as the server signs: what the verification does past the signature. */
  private static String signed(byte[] payload) {
    String body = Base64.getUrlEncoder().withoutPadding().encodeToString(payload);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] signature = mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
      return body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
