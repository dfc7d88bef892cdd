package io.mcpvertx.verticles.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.proc.SecurityContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import okhttp3.HttpUrl;

/**
 * A real OAuth 2 / OpenID Connect authorization server in the test's JVM (navikt's mock-oauth2-server on a free
 * loopback port): discovery, JWKS, token and introspection endpoints, and tokens minted as a test needs them. Its
 * signing key can be rotated: the JWKS then holds the new key only.
 */
final class MockAuthorizationServer implements AutoCloseable {

  static final String ISSUER_ID = "mcp";

  private final RotatingKeys keys = new RotatingKeys();
  private final MockOAuth2Server server;

  MockAuthorizationServer() {
    server = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
    server.start();
  }

  /** The issuer identifier, {@code http://localhost:<port>/mcp}. */
  String issuer() {
    return server.issuerUrl(ISSUER_ID).toString();
  }

  /** A signed access token of this issuer. */
  String token(String subject, String audience, String scope, long expirySeconds) {
    Map<String, Object> claims = scope == null ? Map.of() : Map.of("scope", scope);
    return server.issueToken(ISSUER_ID, subject, audience, claims, expirySeconds).serialize();
  }

  /**
   * A token signed with this server's current key carrying exactly {@code claims} (plus {@code iss} =
   * {@code issuer}, times and an id): a wrong issuer or a missing audience, validly signed.
   */
  String signedToken(String issuer, Map<String, Object> claims) {
    return server.anyToken(HttpUrl.get(issuer), new HashMap<>(claims)).serialize();
  }

  /** Signs from now on with a new key named {@code keyId}; the JWKS then lists it alone. */
  void rotate(String keyId) {
    keys.rotate(keyId);
  }

  @Override
  public void close() {
    server.shutdown();
  }

  /** One signing key at a time, whatever the issuer id; both for signing and for the server's own verification. */
  private static final class RotatingKeys extends KeyProvider {

    private volatile RSAKey current = newKey("k1");

    @Override
    public JWK signingKey(String keyId) {
      return current;
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) {
      return selector.select(new JWKSet(current));
    }

    void rotate(String keyId) {
      current = newKey(keyId);
    }

    private static RSAKey newKey(String keyId) {
      try {
        return new RSAKeyGenerator(2048).keyID(keyId).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.RS256)
            .generate();
      } catch (JOSEException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  static Set<String> scopes(String... scopes) {
    return Set.of(scopes);
  }
}
