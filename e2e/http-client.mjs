// Drives a mcp-vertx conformance server over Streamable HTTP with the official TypeScript SDK client
// (StreamableHTTPClientTransport): progress, elicitation, and resuming a dropped stream with its resumption token.
// Usage: node http-client.mjs <url>   (the server: java -jar mcp-vertx-examples.jar conformance --http <port>)
// Exit code 0 when every check passes; the failing check is printed otherwise.
import assert from 'node:assert/strict';
import { runChecks } from './checks.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ProgressNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [endpoint] = process.argv.slice(2);
if (!endpoint) {
  console.error('usage: node http-client.mjs <url>');
  process.exit(2);
}
const url = new URL(endpoint);
const timeout = setTimeout(() => {
  console.error('timed out');
  process.exit(1);
}, 90_000);

/** test_streaming_progress, in steps spaced enough to drop the stream between two of them. */
const STEPS = 8;
const streamingCall = (intervalMs) => ({
  method: 'tools/call',
  params: { name: 'test_streaming_progress', arguments: { steps: STEPS, intervalMs } },
});

/** What the clients reported through onerror (transport errors, reconnections), printed when a check fails. */
const clientErrors = [];

async function connect(name, { capabilities = {}, transportOptions } = {}) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities });
  client.onerror = (e) => clientErrors.push(`${name}: ${e.message}`);
  const transport = new StreamableHTTPClientTransport(url, transportOptions);
  return { client, transport };
}

/** Ends the session on the server (DELETE), then closes the client. */
async function disconnect({ client, transport }) {
  await transport.terminateSession();
  await client.close();
}

function texts(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text);
}

const checks = {
  async progress() {
    const session = await connect('mcp-vertx-e2e-progress');
    await session.client.connect(session.transport);
    assert.equal(session.client.getServerVersion().name, 'mcp-conformance-test-server');
    assert.ok(session.transport.sessionId, 'the server issued no Mcp-Session-Id');
    assert.equal(session.transport.protocolVersion, '2025-11-25');
    const progress = [];
    const result = await session.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    assert.ok(progress.length >= 3, `expected at least 3 progress notifications, got ${JSON.stringify(progress)}`);
    for (let i = 1; i < progress.length; i++) {
      assert.ok(progress[i].progress > progress[i - 1].progress, `progress must increase: ${JSON.stringify(progress)}`);
    }
    assert.deepEqual(progress.map((p) => p.progress), [0, 50, 100]);
    assert.equal(progress[2].total, 100);
    // The tool answers with the progress token it was sent: the request id the SDK put there.
    assert.match(texts(result)[0], /^\d+$/);
    await disconnect(session);
  },

  async elicitation() {
    const session = await connect('mcp-vertx-e2e-elicitation', { capabilities: { elicitation: {} } });
    const asked = [];
    session.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { username: 'ts-sdk', email: 'ts-sdk@example.com' } };
    });
    await session.client.connect(session.transport);
    const result = await session.client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who is calling?' },
    });
    assert.equal(asked.length, 1, 'the server sent no elicitation/create (or more than one)');
    assert.equal(asked[0].message, 'Who is calling?');
    assert.deepEqual(Object.keys(asked[0].requestedSchema.properties).sort(), ['email', 'username']);
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.deepEqual(texts(result),
      ['User response: action=accept, content={"username":"ts-sdk","email":"ts-sdk@example.com"}']);
    await disconnect(session);
  },

  // The client closes its transport in the middle of a streaming call, then a new transport on the same session
  // sends the same request with the last resumption token: the SDK resumes with GET + Last-Event-ID instead of
  // posting it again, and the server replays what the client missed, then streams the rest and the result.
  async resumeWithResumptionToken() {
    const first = await connect('mcp-vertx-e2e-resume');
    await first.client.connect(first.transport);
    const { sessionId, protocolVersion } = first.transport;
    const firstTokens = [];
    const firstProgress = [];
    let dropNow;
    const secondProgressSeen = new Promise((resolve) => { dropNow = resolve; });
    const call = first.client.request(streamingCall(250), CallToolResultSchema, {
      onresumptiontoken: (token) => firstTokens.push(token),
      onprogress: (p) => {
        firstProgress.push(p.progress);
        if (firstProgress.length === 2) {
          dropNow();
        }
      },
    });
    const outcome = call.then(() => 'completed', (e) => e);
    await secondProgressSeen;
    const lastToken = firstTokens.at(-1);
    await first.transport.close(); // aborts the call's SSE response mid-stream
    const dropped = await outcome;
    assert.notEqual(dropped, 'completed', 'the call completed before its stream was dropped');

    const second = await connect('mcp-vertx-e2e-resume', { transportOptions: { sessionId } });
    second.transport.setProtocolVersion(protocolVersion);
    // Replayed progress carries the first request's token, which the second client does not know: collect it raw.
    const resumedProgress = [];
    second.client.setNotificationHandler(ProgressNotificationSchema, (n) => resumedProgress.push(n.params));
    await second.client.connect(second.transport); // a known session id: no new initialize
    // (SDK 1.32.2 does not hand onresumptiontoken to the stream it resumes this way, so no tokens to collect.)
    const result = await second.client.request(streamingCall(250), CallToolResultSchema, {
      resumptionToken: lastToken,
      timeout: 20_000,
    });
    const firstToken = resumedProgress[0]?.progressToken;
    assert.ok(resumedProgress.every((p) => p.progressToken === firstToken), JSON.stringify(resumedProgress));
    // The result is the first call's: the tool answers with the progress token that call sent.
    assert.deepEqual(texts(result), [`${STEPS} steps done; progress token ${firstToken}`]);
    assert.deepEqual([...firstProgress, ...resumedProgress.map((p) => p.progress)],
      Array.from({ length: STEPS }, (_, i) => i + 1),
      'every step must arrive exactly once across the dropped and the resumed stream');
    await disconnect(second);
  },

  // The connection under a streaming call is cut (only that POST's response, through its fetch): the SDK sees the
  // stream break after the server's priming event and reconnects by itself with Last-Event-ID, and the original
  // request still gets its progress and its result.
  async automaticReconnectAfterACutStream() {
    const cut = new AbortController();
    const cuttingFetch = (input, init) => {
      const isTheCall = init?.method === 'POST' && String(init.body).includes('"test_streaming_progress"');
      return fetch(input, isTheCall ? { ...init, signal: AbortSignal.any([init.signal, cut.signal].filter(Boolean)) }
        : init);
    };
    const session = await connect('mcp-vertx-e2e-reconnect', {
      transportOptions: {
        fetch: cuttingFetch,
        reconnectionOptions: {
          initialReconnectionDelay: 100, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 3,
        },
      },
    });
    await session.client.connect(session.transport);
    const progress = [];
    const result = await session.client.request(streamingCall(200), CallToolResultSchema, {
      timeout: 20_000,
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 2) {
          cut.abort();
        }
      },
    });
    assert.ok(cut.signal.aborted);
    assert.ok(clientErrors.some((m) => m.startsWith('mcp-vertx-e2e-reconnect: SSE stream disconnected')),
      `the stream was not cut: ${clientErrors}`);
    assert.match(texts(result)[0], new RegExp(`^${STEPS} steps done; progress token \\d+$`));
    assert.deepEqual(progress, Array.from({ length: STEPS }, (_, i) => i + 1));
    await disconnect(session);
  },

  // SEP-1699: test_reconnection asks the server to close its SSE stream after the priming event, with a retry
  // field. The SDK reconnects by itself (GET + Last-Event-ID) after the retry, and gets the result exactly once.
  async serverClosedStreamIsResumed() {
    const gets = [];
    const countingFetch = (input, init) => {
      if ((init?.method ?? 'GET') === 'GET') {
        gets.push(new Headers(init?.headers).get('last-event-id'));
      }
      return fetch(input, init);
    };
    const session = await connect('mcp-vertx-e2e-sep1699', { transportOptions: { fetch: countingFetch } });
    await session.client.connect(session.transport);
    let results = 0;
    const result = await session.client.request({
      method: 'tools/call', params: { name: 'test_reconnection', arguments: {} },
    }, CallToolResultSchema, { timeout: 20_000 }).then((r) => {
      results++;
      return r;
    });
    assert.match(texts(result)[0], /^Reconnection test completed successfully/);
    assert.equal(results, 1);
    assert.ok(gets.some((id) => id), `the client never resumed with Last-Event-ID: ${JSON.stringify(gets)}`);
    await disconnect(session);
  },
};

await runChecks('typescript-sdk http', checks, clientErrors, timeout);
