package io.mcpvertx.verticles.http.auth.impl;

import io.mcpvertx.jsonrpc.Decoded;
import io.mcpvertx.jsonrpc.JsonRpcMessage;
import io.mcpvertx.jsonrpc.JsonRpcNotification;
import io.mcpvertx.jsonrpc.JsonRpcRequest;
import io.mcpvertx.server.Principal;
import io.mcpvertx.verticles.http.auth.McpAuthOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which scopes a request needs: the required ones always, plus those of each JSON-RPC method it carries, plus those
 * of the tool a {@code tools/call} names. A batch needs what all its members need. Immutable.
 */
public final class ScopePolicy {

  private static final String TOOLS_CALL = "tools/call";

  private final Set<String> base;
  private final Map<String, List<String>> methods;
  private final Map<String, List<String>> tools;
  private final Set<String> known;
  private final List<String> supported;

  public ScopePolicy(McpAuthOptions options) {
    this.base = new LinkedHashSet<>(options.getRequiredScopes());
    this.methods = Map.copyOf(options.getMethodScopes());
    this.tools = Map.copyOf(options.getToolScopes());
    Set<String> all = new LinkedHashSet<>(base);
    methods.values().forEach(all::addAll);
    tools.values().forEach(all::addAll);
    all.addAll(options.getScopesSupported());
    this.known = Set.copyOf(all);
    this.supported = options.getScopesSupported().isEmpty() ? List.copyOf(base)
        : List.copyOf(options.getScopesSupported());
  }

  /** What every request needs (GET and DELETE too): the scope hint of a 401. */
  public Set<String> base() {
    return base;
  }

  /** The {@code scopes_supported} to publish. */
  public List<String> supported() {
    return supported;
  }

  /** What a POST body needs. */
  public Set<String> required(Decoded decoded) {
    Set<String> required = new LinkedHashSet<>(base);
    if (decoded instanceof Decoded.Message m) {
      addFor(m.message(), required);
    } else if (decoded instanceof Decoded.Batch batch) {
      for (Decoded member : batch.members()) {
        if (member instanceof Decoded.Message m) {
          addFor(m.message(), required);
        }
      }
    }
    return required;
  }

  private void addFor(JsonRpcMessage message, Set<String> required) {
    String method = message instanceof JsonRpcRequest r ? r.method()
        : message instanceof JsonRpcNotification n ? n.method() : null;
    if (method == null) {
      return;
    }
    required.addAll(methods.getOrDefault(method, List.of()));
    if (TOOLS_CALL.equals(method) && message instanceof JsonRpcRequest call
        && call.paramsOrEmpty().getValue("name") instanceof String tool) {
      required.addAll(tools.getOrDefault(tool, List.of()));
    }
  }

  /** The scopes of {@code required} the principal lacks, in order; empty when it has them all. */
  public static List<String> missing(Principal principal, Set<String> required) {
    List<String> missing = new ArrayList<>();
    for (String scope : required) {
      if (!principal.scopes().contains(scope)) {
        missing.add(scope);
      }
    }
    return missing;
  }

  /**
   * The {@code scope} of an {@code insufficient_scope} challenge: what the request needs plus the scopes of ours
   * the caller already holds, so that asking for the new token does not lose what it could do before (the
   * approach the MCP specification recommends for step-up).
   */
  public Set<String> stepUp(Principal principal, Set<String> required) {
    Set<String> scopes = new LinkedHashSet<>(required);
    for (String granted : principal.scopes()) {
      if (known.contains(granted)) {
        scopes.add(granted);
      }
    }
    return scopes;
  }
}
