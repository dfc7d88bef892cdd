// A real client call against a running starter: initialize, then tools/call on both tools, over Streamable HTTP.
// Node 20 or later, nothing to install. Usage: node smoke.mjs http://127.0.0.1:3000/mcp
const url = process.argv[2];
if (!url) {
  console.error('usage: node smoke.mjs <MCP endpoint URL>');
  process.exit(2);
}
const version = '2025-11-25';
let session;
let nextId = 1;

// One JSON-RPC request; the answer comes as JSON or as an SSE stream, as the server chooses.
async function rpc(method, params) {
  const id = nextId++;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) {
    headers['mcp-session-id'] = session;
    headers['mcp-protocol-version'] = version;
  }
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  if (!response.ok) {
    throw new Error(`${method}: HTTP ${response.status} ${await response.text()}`);
  }
  session ??= response.headers.get('mcp-session-id');
  const text = await response.text();
  const messages = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean).map((d) => JSON.parse(d))
    : [JSON.parse(text)];
  const answer = messages.find((m) => m.id === id);
  if (!answer || answer.error) {
    throw new Error(`${method}: ${JSON.stringify(answer ?? messages)}`);
  }
  return answer.result;
}

async function notify(method) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-session-id': session, 'mcp-protocol-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', method }),
  });
  if (response.status !== 202) {
    throw new Error(`${method}: HTTP ${response.status}`);
  }
}

function text(result) {
  return result.content?.[0]?.text;
}

const init = await rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'smoke', version: '1' } });
console.log(`initialized: ${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion}`);
await notify('notifications/initialized');

const sum = text(await rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }));
if (sum !== '5.0') throw new Error(`add answered ${sum}`);
console.log(`add(2, 3) = ${sum}`);

// The verticle's tool is registered when its announcement arrives; it is there by the time the server listens,
// but wait a little in case the machine is slow.
for (let attempt = 0; ; attempt++) {
  const tools = (await rpc('tools/list', {})).tools.map((t) => t.name);
  if (tools.includes('upper_case')) break;
  if (attempt === 50) throw new Error(`upper_case never listed: ${tools}`);
  await new Promise((r) => setTimeout(r, 100));
}
const upper = text(await rpc('tools/call', { name: 'upper_case', arguments: { text: 'hello' } }));
if (upper !== 'HELLO') throw new Error(`upper_case answered ${upper}`);
console.log(`upper_case("hello") = ${upper}`);
