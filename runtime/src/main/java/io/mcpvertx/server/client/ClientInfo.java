package io.mcpvertx.server.client;

import io.vertx.core.json.JsonObject;

/**
 * Who the client said it is and what it said it can do: the {@code clientInfo} and {@code capabilities} of its
 * {@code initialize} (or, for stateless requests, of the request's {@code _meta}).
 */
public record ClientInfo(String name, String version, JsonObject capabilities) {

  public static final ClientInfo UNKNOWN = new ClientInfo("unknown", "0", new JsonObject());

  public ClientInfo {
    capabilities = capabilities == null ? new JsonObject() : capabilities;
  }

  public static ClientInfo fromInitialize(JsonObject params) {
    JsonObject info = params.getJsonObject("clientInfo", new JsonObject());
    return new ClientInfo(info.getString("name", "unknown"), info.getString("version", "0"),
        params.getJsonObject("capabilities", new JsonObject()));
  }

  public JsonObject toJson() {
    return new JsonObject().put("name", name).put("version", version).put("capabilities", capabilities);
  }

  public static ClientInfo fromJson(JsonObject json) {
    return new ClientInfo(json.getString("name"), json.getString("version"), json.getJsonObject("capabilities"));
  }

  public boolean supportsSampling() {
    return capabilities.getValue("sampling") instanceof JsonObject;
  }

  /** Sampling with {@code tools} and {@code toolChoice} (2025-11-25). */
  public boolean supportsSamplingTools() {
    return capabilities.getJsonObject("sampling", new JsonObject()).getValue("tools") instanceof JsonObject;
  }

  public boolean supportsRoots() {
    return capabilities.getValue("roots") instanceof JsonObject;
  }

  /**
   * Form-mode elicitation: declared as {@code elicitation: {}} (which means form, for compatibility) or with a
   * {@code form} member.
   */
  public boolean supportsElicitationForm() {
    if (!(capabilities.getValue("elicitation") instanceof JsonObject elicitation)) {
      return false;
    }
    return elicitation.isEmpty() || elicitation.getValue("form") instanceof JsonObject;
  }

  public boolean supportsElicitationUrl() {
    return capabilities.getJsonObject("elicitation", new JsonObject()).getValue("url") instanceof JsonObject;
  }
}
