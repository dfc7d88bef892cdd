// Drives an OAuth-protected mcp-vertx server with the official TypeScript SDK client: discovery from the 401
// challenge (RFC 9728 metadata, then the authorization server's), a client_credentials token obtained by the SDK's
// ClientCredentialsProvider, a pre-obtained token, the 2025-03-26 metadata mirror, and sessions bound to their
// principal.
// Usage: node oauth-client.mjs <url> <issuer>
//   (the server: java -jar mcp-vertx-examples.jar hello --http <port> --auth-issuer <issuer> --auth-as-metadata ...;
//    the authorization server must issue client_credentials tokens for any client id, for this resource)
// Exit code 0 when every check passes; the failing check is printed otherwise.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [endpoint, issuer] = process.argv.slice(2);
if (!endpoint || !issuer) {
  console.error('usage: node oauth-client.mjs <url> <issuer>');
  process.exit(2);
}
const url = new URL(endpoint);
const timeout = setTimeout(() => {
  console.error('timed out');
  process.exit(1);
}, 90_000);

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};
const postHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function text(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
}

async function fetchJson(target) {
  const response = await fetch(target);
  assert.equal(response.status, 200, `${target}: HTTP ${response.status}`);
  return response.json();
}

/** A token for `clientId`, asked for directly at the token endpoint (as a deployment would pre-provision it). */
async function clientCredentialsToken(clientId) {
  const metadata = await fetchJson(new URL('/.well-known/oauth-authorization-server', url));
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: 'Basic ' + Buffer.from(`${clientId}:secret`).toString('base64'),
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp:basic mcp:tools', resource: url.href }),
  });
  assert.equal(response.status, 200, `token endpoint: HTTP ${response.status}`);
  return (await response.json()).access_token;
}

const sessions = [];

async function connect(name, transportOptions) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(url, transportOptions);
  await client.connect(transport);
  sessions.push({ client, transport });
  return { client, transport };
}

const checks = {
  async challengeAndMetadata() {
    const refused = await fetch(url, { method: 'POST', headers: postHeaders, body: JSON.stringify(initialize) });
    assert.equal(refused.status, 401);
    const challenge = refused.headers.get('www-authenticate');
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', url).href;
    assert.ok(challenge.startsWith('Bearer '), challenge);
    assert.ok(challenge.includes(`resource_metadata="${metadataUrl}"`), challenge);
    assert.ok(challenge.includes('scope="mcp:basic"'), challenge);
    const metadata = await fetchJson(metadataUrl);
    assert.equal(metadata.resource, url.href);
    assert.deepEqual(metadata.authorization_servers, [issuer]);
    const root = await fetchJson(new URL('/.well-known/oauth-protected-resource', url));
    assert.deepEqual(root, metadata);
  },

  async legacyAuthorizationServerMetadata() {
    // A 2025-03-26 client looks for the authorization server's metadata on the MCP server's own origin.
    const mirrored = await fetchJson(new URL('/.well-known/oauth-authorization-server', url));
    assert.equal(mirrored.issuer, issuer);
    assert.ok(mirrored.token_endpoint.startsWith(issuer), mirrored.token_endpoint);
  },

  async clientCredentialsThroughTheSdk() {
    const authProvider = new ClientCredentialsProvider({ clientId: 'e2e-client', clientSecret: 'e2e-secret' });
    const { client } = await connect('mcp-vertx-e2e-oauth', { authProvider });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['greet', 'whoami']);
    const who = text(await client.callTool({ name: 'whoami', arguments: {} }));
    assert.equal(who, `${issuer} e2e-client mcp:basic mcp:tools`);
    const greeting = text(await client.callTool({ name: 'greet', arguments: { name: 'OAuth' } }));
    assert.equal(greeting, 'Hello, OAuth!');
  },

  async preObtainedToken() {
    const token = await clientCredentialsToken('e2e-preprovisioned');
    const { client } = await connect('mcp-vertx-e2e-token', {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const who = text(await client.callTool({ name: 'whoami', arguments: {} }));
    assert.equal(who, `${issuer} e2e-preprovisioned mcp:basic mcp:tools`);
  },

  async sessionsBelongToTheirPrincipal() {
    const owner = await clientCredentialsToken('e2e-owner');
    const { client, transport } = await connect('mcp-vertx-e2e-owner', {
      requestInit: { headers: { Authorization: `Bearer ${owner}` } },
    });
    const intruder = await clientCredentialsToken('e2e-intruder');
    const ping = { jsonrpc: '2.0', id: 99, method: 'ping' };
    const headers = (token) => ({
      ...postHeaders,
      Authorization: `Bearer ${token}`,
      'Mcp-Session-Id': transport.sessionId,
      'MCP-Protocol-Version': transport.protocolVersion,
    });
    const stolen = await fetch(url, { method: 'POST', headers: headers(intruder), body: JSON.stringify(ping) });
    assert.equal(stolen.status, 404, 'another principal must not use the session');
    const deleted = await fetch(url, { method: 'DELETE', headers: headers(intruder) });
    assert.equal(deleted.status, 404, 'another principal must not end the session');
    // The owner, with a new token (a refresh), still has its session.
    const refreshed = await clientCredentialsToken('e2e-owner');
    const own = await fetch(url, { method: 'POST', headers: headers(refreshed), body: JSON.stringify(ping) });
    assert.equal(own.status, 200);
    assert.equal(text(await client.callTool({ name: 'greet', arguments: { name: 'again' } })), 'Hello, again!');
  },
};

let failed = false;
for (const [name, check] of Object.entries(checks)) {
  try {
    await check();
    console.log(`ok ${name}`);
  } catch (e) {
    failed = true;
    console.log(`FAILED ${name}: ${e.stack ?? e}`);
  }
}
for (const { client, transport } of sessions) {
  try {
    await transport.terminateSession();
    await client.close();
  } catch (e) {
    console.log(`(closing: ${e.message})`);
  }
}
clearTimeout(timeout);
if (failed) {
  process.exit(1);
}
console.log('typescript-sdk oauth: all checks passed');
