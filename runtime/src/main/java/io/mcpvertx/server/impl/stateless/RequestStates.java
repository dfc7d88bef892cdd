package io.mcpvertx.server.impl.stateless;

import io.mcpvertx.protocol.McpException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the {@code requestState} of multi round-trip requests (2026-07-28). The state travels through
 * the client, so it is attacker-controlled: it is signed with HMAC-SHA256 and bound to the principal, the method
 * and a digest of the request's arguments, and it expires. What it carries is the input responses gathered in
 * earlier rounds.
 *
 * <p>Format: {@code base64url(payload) "." base64url(hmac(payload))}. Several keys may verify (rotation); the
 * first signs. Stateless and thread-safe.
 */
final class RequestStates {

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final List<SecretKeySpec> keys;
  private final long ttlMs;
  private final LongSupplier clock;

  RequestStates(List<String> configuredKeys, long ttlMs, LongSupplier clock) {
    List<SecretKeySpec> specs = new ArrayList<>();
    for (String key : configuredKeys) {
      specs.add(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    }
    if (specs.isEmpty()) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      specs.add(new SecretKeySpec(random, "HmacSHA256"));
    }
    this.keys = List.copyOf(specs);
    this.ttlMs = ttlMs;
    this.clock = clock;
  }

  /** What a state is bound to: who asked, what, and with which arguments. */
  record Binding(String principal, String method, String digest) {

    static Binding of(String principal, String method, JsonObject params) {
      JsonObject subject = new JsonObject();
      for (String member : List.of("name", "uri")) {
        if (params.containsKey(member)) {
          subject.put(member, params.getValue(member));
        }
      }
      // No arguments and empty arguments are the same call (handlers see {} either way).
      Object arguments = params.getValue("arguments");
      subject.put("arguments", arguments == null ? new JsonObject() : arguments);
      return new Binding(principal == null ? "" : principal, method, RequestStates.digest(subject));
    }
  }

  String seal(Binding binding, JsonObject responses) {
    JsonObject payload = new JsonObject()
        .put("v", 1)
        .put("p", binding.principal())
        .put("m", binding.method())
        .put("d", binding.digest())
        .put("x", clock.getAsLong() + ttlMs)
        .put("r", responses);
    String body = B64.encodeToString(payload.toBuffer().getBytes());
    return body + "." + B64.encodeToString(mac(keys.get(0), body));
  }

  /** The responses a state carries, or -32602 if it is forged, altered, expired or bound to something else. */
  JsonObject open(String state, Binding binding) {
    int dot = state.indexOf('.');
    if (dot <= 0 || dot != state.lastIndexOf('.')) {
      throw invalid("requestState is malformed");
    }
    String body = state.substring(0, dot);
    byte[] signature;
    try {
      signature = B64D.decode(state.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw invalid("requestState integrity check failed");
    }
    boolean verified = false;
    for (SecretKeySpec key : keys) {
      verified |= MessageDigest.isEqual(mac(key, body), signature);
    }
    if (!verified) {
      throw invalid("requestState integrity check failed");
    }
    JsonObject payload;
    try {
      payload = new JsonObject(Buffer.buffer(B64D.decode(body)));
    } catch (RuntimeException e) {
      throw invalid("requestState is malformed");
    }
    if (payload.getLong("x", 0L) < clock.getAsLong()) {
      throw invalid("requestState has expired; start the request again");
    }
    if (!binding.principal().equals(payload.getString("p")) || !binding.method().equals(payload.getString("m"))
        || !binding.digest().equals(payload.getString("d"))) {
      throw invalid("requestState belongs to another request");
    }
    return payload.getJsonObject("r", new JsonObject());
  }

  private static McpException invalid(String message) {
    return McpException.invalidParams(message);
  }

  private static byte[] mac(SecretKeySpec key, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /** SHA-256 of a canonical form (object members sorted), so equal arguments digest equally. */
  static String digest(Object value) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return B64.encodeToString(sha.digest(canonical(value).toString().getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object canonical(Object value) {
    if (value instanceof JsonObject json) {
      return canonical(json.getMap());
    }
    if (value instanceof JsonArray array) {
      return canonical(array.getList());
    }
    if (value instanceof Map<?, ?> map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
      return new JsonObject(new LinkedHashMap<>(sorted));
    }
    if (value instanceof List<?> list) {
      JsonArray array = new JsonArray();
      list.forEach(v -> array.add(canonical(v)));
      return array;
    }
    return value;
  }
}
