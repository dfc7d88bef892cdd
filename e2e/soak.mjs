// Soak load for docs/security.md: mixed traffic against one server for DURATION seconds, run by
// benchmarks/soak.sh (which samples the server's heap, file descriptors and threads meanwhile).
// Usage: node soak.mjs <base-url> <duration-seconds> [concurrency] [slowloris-sockets]
// Flows, picked at random by each worker: a 2025 session used then deleted or abandoned, an initialize never
// followed by notifications/initialized, a GET stream dropped and resumed, a task-augmented call polled to its
// result, a 2026-07-28 stateless call; beside them, slowloris sockets that dribble a request head and are
// reopened whenever the server closes them. The server is the conformance example (greet and slow_compute).
// Prints a JSON summary; exit code 1 when a normal request went unanswered or was answered wrongly.
import net from 'node:net';

const [base, durationArg, concurrencyArg, slowArg] = process.argv.slice(2);
if (!base || !durationArg) {
  console.error('usage: node soak.mjs <base-url> <duration-seconds> [concurrency] [slowloris-sockets]');
  process.exit(2);
}
const url = new URL('/mcp', base);
const deadline = Date.now() + Number(durationArg) * 1000;
const concurrency = Number(concurrencyArg ?? 16);
const slowSockets = Number(slowArg ?? 50);
const counts = { ok: 0, failed: 0, sessions: 0, abandoned: 0, uninitialized: 0, streams: 0, tasks: 0, stateless: 0,
  slowlorisOpened: 0, slowlorisClosedByServer: 0 };
const failures = [];
const SESSION_VERSION = '2025-11-25';
const MODERN = '2026-07-28';

function fail(what) {
  counts.failed++;
  if (failures.length < 20) failures.push(what);
}

/** The JSON-RPC message of a POST answer, JSON or the last event of an SSE body. */
async function message(response) {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (type.startsWith('application/json')) return JSON.parse(text);
  const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean);
  return data.length ? JSON.parse(data[data.length - 1]) : null;
}

async function post(body, headers = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

let nextId = 1;
const request = (method, params) => ({ jsonrpc: '2.0', id: nextId++, method, params });
const initialize = () => request('initialize', {
  protocolVersion: SESSION_VERSION, capabilities: { tasks: {} }, clientInfo: { name: 'soak', version: '1.0.0' },
});
/** A task's polls are bounded: slow_compute runs for TASK_SECONDS, so it settles well within them. */
const TASK_SECONDS = 0.3;
const TASK_POLLS = 100;

async function openSession() {
  const response = await post(initialize());
  const answer = await message(response);
  const id = response.headers.get('mcp-session-id');
  if (response.status !== 200 || !id || !answer?.result) throw new Error(`initialize: ${response.status}`);
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': SESSION_VERSION };
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`initialized: ${initialized.status}`);
  return headers;
}

async function greet(headers, extra = {}) {
  const name = `n${nextId}`;
  const body = request('tools/call', { name: 'greet', arguments: { name }, ...extra });
  const answer = await message(await post(body, headers));
  if (answer?.result?.content?.[0]?.text !== `Hello, ${name}!`) throw new Error(`greet: ${JSON.stringify(answer)}`);
}

const flows = {
  async session() {
    const headers = await openSession();
    await greet(headers);
    if (Math.random() < 0.5) {
      const deleted = await fetch(url, { method: 'DELETE', headers });
      await deleted.text();
      if (deleted.status !== 200 && deleted.status !== 204) throw new Error(`delete: ${deleted.status}`);
      counts.sessions++;
    } else {
      counts.abandoned++;
    }
  },
  async uninitialized() {
    const response = await post(initialize());
    await response.text();
    if (response.status !== 200) throw new Error(`bare initialize: ${response.status}`);
    counts.uninitialized++;
  },
  async stream() {
    const headers = await openSession();
    let lastEventId = null;
    for (let round = 0; round < 2; round++) {
      const abort = new AbortController();
      const streamHeaders = { ...headers, accept: 'text/event-stream' };
      if (lastEventId) streamHeaders['last-event-id'] = lastEventId;
      let response = await fetch(url, { method: 'GET', headers: streamHeaders, signal: abort.signal });
      // The server may not have seen the dropped stream close yet: 409 until it has, so the client retries.
      for (let retry = 0; response.status === 409 && retry < 20; retry++) {
        await response.text();
        await new Promise((r) => setTimeout(r, 50));
        response = await fetch(url, { method: 'GET', headers: streamHeaders, signal: abort.signal });
      }
      if (response.status !== 200) throw new Error(`GET stream: ${response.status}`);
      const reader = response.body.getReader();
      const first = await Promise.race([reader.read(), new Promise((r) => setTimeout(() => r(null), 200))]);
      const text = first?.value ? Buffer.from(first.value).toString() : '';
      const id = text.split('\n').find((l) => l.startsWith('id:'));
      if (id) lastEventId = id.slice(3).trim();
      abort.abort();
      await reader.cancel().catch(() => {});
    }
    await greet(headers);
    const deleted = await fetch(url, { method: 'DELETE', headers });
    await deleted.text();
    counts.streams++;
  },
  async task() {
    const headers = await openSession();
    const label = `t${nextId}`;
    const created = await message(await post(request('tools/call', {
      name: 'slow_compute', arguments: { seconds: TASK_SECONDS, label }, task: { ttl: 60_000 },
    }), headers));
    const taskId = created?.result?.task?.taskId;
    if (!taskId) throw new Error(`task create: ${JSON.stringify(created)}`);
    let status = created.result.task.status;
    for (let poll = 0; status === 'working' && poll < TASK_POLLS; poll++) {
      await new Promise((r) => setTimeout(r, 50));
      const got = await message(await post(request('tasks/get', { taskId }), headers));
      status = got?.result?.status;
    }
    if (status !== 'completed') throw new Error(`task ${taskId}: ${status}`);
    const result = await message(await post(request('tasks/result', { taskId }), headers));
    const text = result?.result?.content?.[0]?.text;
    if (text !== `Computed ${label} in ${TASK_SECONDS} s`) throw new Error(`tasks/result: ${JSON.stringify(result)}`);
    const deleted = await fetch(url, { method: 'DELETE', headers });
    await deleted.text();
    counts.tasks++;
  },
  async stateless() {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    await greet({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'greet' }, { _meta: meta });
    counts.stateless++;
  },
};
const names = Object.keys(flows);

async function worker() {
  while (Date.now() < deadline) {
    const name = names[Math.floor(Math.random() * names.length)];
    try {
      await flows[name]();
      counts.ok++;
    } catch (e) {
      fail(`${name}: ${e.message}`);
    }
  }
}

/** One slowloris socket: a request head a line every two seconds, never finished; reopened when closed. */
function slowloris() {
  if (Date.now() >= deadline) return;
  counts.slowlorisOpened++;
  const socket = net.connect(Number(url.port), url.hostname);
  let timer = null;
  socket.on('connect', () => {
    socket.write(`POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\n`);
    timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 2000);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    clearInterval(timer);
    if (Date.now() < deadline) {
      counts.slowlorisClosedByServer++;
      setTimeout(slowloris, 100);
    }
  });
  setTimeout(() => socket.destroy(), Math.max(0, deadline - Date.now()));
}

for (let i = 0; i < slowSockets; i++) slowloris();
await Promise.all(Array.from({ length: concurrency }, worker));
console.log(JSON.stringify({ counts, failures }, null, 2));
process.exit(counts.failed === 0 ? 0 : 1);
