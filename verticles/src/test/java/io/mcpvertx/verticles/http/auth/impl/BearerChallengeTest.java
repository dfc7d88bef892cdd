package io.mcpvertx.verticles.http.auth.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BearerChallengeTest {

  private static final String URL = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";

  @Test
  void aRequestWithoutCredentialsGetsNoErrorCode() {
    assertEquals("Bearer resource_metadata=\"" + URL + "\", scope=\"a b\"",
        BearerChallenge.unauthorized(URL, List.of("a", "b"), null));
    assertEquals("Bearer resource_metadata=\"" + URL + "\"", BearerChallenge.unauthorized(URL, List.of(), null));
  }

  @Test
  void aRefusedTokenGetsTheErrorAndADescriptionThatCannotBreakTheQuoting() {
    assertEquals("Bearer error=\"invalid_token\", error_description=\"bad 'quote' and 'back'slash'\", "
            + "resource_metadata=\"" + URL + "\"",
        BearerChallenge.unauthorized(URL, List.of(),
            InvalidTokenException.invalidToken("bad \"quote\" and \"back\\slash\"")));
  }

  @Test
  void insufficientScopeNamesTheScopesForStepUp() {
    assertEquals("Bearer error=\"insufficient_scope\", scope=\"a b\", resource_metadata=\"" + URL + "\", "
        + "error_description=\"needs b\"", BearerChallenge.insufficientScope(URL, List.of("a", "b"), "needs b"));
  }
}
