package io.mcpvertx.verticles.http.auth;

/** How the Streamable HTTP endpoint checks callers. */
public enum AuthMode {

  /** No authorization: every caller is anonymous. The default, meant for a local development server. */
  OFF,

  /**
   * Bearer tokens are JWTs verified locally against the authorization server's JWKS (found by discovery or
   * configured), then checked for issuer, audience, expiry and subject.
   */
  JWT,

  /** Bearer tokens are opaque and are sent to the authorization server's RFC 7662 introspection endpoint. */
  INTROSPECTION
}
