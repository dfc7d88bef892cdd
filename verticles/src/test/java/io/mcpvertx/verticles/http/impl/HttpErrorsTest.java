package io.mcpvertx.verticles.http.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpvertx.jsonrpc.JsonRpcError;
import io.mcpvertx.jsonrpc.JsonRpcErrorCodes;
import org.junit.jupiter.api.Test;

/**
 * The statuses JSON-RPC errors travel with over HTTP, for every code the runtime answers a 2026-07-28 request with
 * (the runtime's own tests assert the codes only). That a refusal before serving is 400 whatever its code is
 * tested over HTTP.
 */
class HttpErrorsTest {

  private static int status(int code) {
    return HttpErrors.statusOf(new JsonRpcError(code, "m"));
  }

  @Test
  void aMethodThisRevisionDoesNotHaveIs404() {
    assertEquals(404, status(JsonRpcErrorCodes.METHOD_NOT_FOUND));
  }

  @Test
  void aRequestTheServerCouldNotTakeAsItCameIs400() {
    assertEquals(400, status(JsonRpcErrorCodes.HEADER_MISMATCH));
    assertEquals(400, status(JsonRpcErrorCodes.CLIENT_CAPABILITY_MISSING));
    assertEquals(400, status(JsonRpcErrorCodes.UNSUPPORTED_PROTOCOL_VERSION));
    assertEquals(400, status(JsonRpcErrorCodes.PARSE_ERROR));
    assertEquals(400, status(JsonRpcErrorCodes.INVALID_REQUEST));
  }

  @Test
  void anErrorOfTheMethodItselfIs200() {
    assertEquals(200, status(JsonRpcErrorCodes.INVALID_PARAMS));
    assertEquals(200, status(JsonRpcErrorCodes.INTERNAL_ERROR));
    assertEquals(200, status(JsonRpcErrorCodes.SERVER_OVERLOADED));
  }
}
