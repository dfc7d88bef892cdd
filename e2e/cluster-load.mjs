// Load on a cluster behind a load balancer, written to survive the loss of an instance: CLIENTS concurrent clients,
// each running a fixed list of operations on its own 2025-11-25 session with plain fetch (no SDK, so that every
// retry is this script's and counted): tool calls, task-augmented calls polled to a terminal state, and one
// streaming call. What a client does when something breaks is what the spec allows:
//   - a transport error, HTTP 502/503/504 (the balancer or an instance going away): the request is sent again;
//   - HTTP 404 on a session request: the session is gone, the client initializes a new one and sends again;
//   - a JSON-RPC -32603 error saying to send the request again (the answer of a dead instance's unanswered
//     requests): sent again;
//   - an SSE response cut before its answer: resumed with GET + Last-Event-ID (the last event id seen), and sent
//     again only if there was no event id yet or the resumed stream says the request must be sent again.
// Usage: node cluster-load.mjs <url> [clients] [rounds] [kill-marker]
// When the kill-marker file exists (the test writes it once the instance is dead), requests sent from then on are
// counted apart: retries.resendAfterKill counts those a server told to send again (0 when requests for a dead
// owner's sessions are held until the sessions move).
// Prints 'cluster-load: kill now' once every client is inside its (first) streaming call (the test kills or
// restarts instances then), and ends with one line 'cluster-load summary {json}'. Each client runs its operations
// between initialize and close `rounds` times (1 by default): long enough for a rolling restart with more.
// Exit code 0 when every client finished.
import { existsSync } from 'node:fs';

const [endpoint, clientsArg, roundsArg, killMarker] = process.argv.slice(2);
if (!endpoint) {
  console.error('usage: node cluster-load.mjs <url> [clients] [rounds]');
  process.exit(2);
}
const CLIENTS = Number(clientsArg ?? 20);
const ROUNDS = Number(roundsArg ?? 1);
const VERSION = '2025-11-25';
const STEPS = 12;
const STEP_MS = 250;
const TASK_SECONDS = 1;
// A task each client starts before its streaming call and settles after it: still running when the test kills an
// instance, so the tasks of sessions on that instance are orphans another instance must settle.
const LONG_TASK_SECONDS = 6;
const TASK_SETTLE_BOUND_MS = 60_000;
const REQUEST_BOUND_MS = 60_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const stats = {
  clients: CLIENTS,
  opsExpected: 0,
  opsDone: 0,
  retries: { transport: 0, http502: 0, http503: 0, http504: 0, resendError: 0, streamResend: 0, resendAfterKill: 0 },
  sentAfterKill: 0,
  reinitializations: 0,
  resumes: { attempted: 0, answered: 0 },
  // progressEvents: every progress notification the streaming calls got, repeats included (STEPS per call when
  // each resumed stream brought each event exactly once).
  streams: { cut: 0, completed: 0, progressEvents: 0 },
  tasks: { accepted: 0, terminal: 0, statuses: {}, maxSettleMs: 0, executorStopped: 0 },
  // The 2026-07-28 wire: plain stateless calls, and extension (io.modelcontextprotocol/tasks) tasks polled with
  // tasks/get; no session, so any instance serves any of these requests.
  stateless: { calls: 0, retries: 0 },
  extensionTasks: { accepted: 0, terminal: 0, statuses: {}, maxSettleMs: 0, executorStopped: 0 },
  failures: [],
  durationMs: 0,
};
const started = Date.now();
const OVERALL_MS = 150_000 + (ROUNDS - 1) * 60_000;
const overall = setTimeout(() => finish(`timed out after ${OVERALL_MS / 1000} s`), OVERALL_MS);

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let killed = false;
/** Whether the test has said the instance is dead (checked until it has). */
function afterKill() {
  if (!killed && killMarker && existsSync(killMarker)) {
    killed = true;
  }
  return killed;
}
let killSignalled = false;

class Session {
  constructor(name) {
    this.name = name;
    this.id = undefined;
    this.nextId = 1;
  }

  headers(extra = {}) {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extra };
    if (this.id) {
      headers['Mcp-Session-Id'] = this.id;
      headers['MCP-Protocol-Version'] = VERSION;
    }
    return headers;
  }

  request(method, params = {}) {
    return { jsonrpc: '2.0', id: this.nextId++, method, params };
  }

  async initialize() {
    const init = this.request('initialize', {
      protocolVersion: VERSION,
      capabilities: { tasks: {} },
      clientInfo: { name: this.name, version: '1.0.0' },
    });
    this.id = undefined;
    const response = await this.exchange(init, { initializing: true });
    if (!response.result) {
      throw new Error(`initialize failed: ${JSON.stringify(response)}`);
    }
    await this.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async notify(message) {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(endpoint, { method: 'POST', headers: this.headers(), body: JSON.stringify(message),
          signal: AbortSignal.timeout(10_000) });
        await res.text();
        if (res.status === 202) {
          return;
        }
        if (res.status < 500 || attempt > 20) {
          throw new Error(`${message.method}: HTTP ${res.status}`);
        }
        stats.retries[`http${res.status}`] = (stats.retries[`http${res.status}`] ?? 0) + 1;
      } catch (e) {
        if (attempt > 20 || e.message?.startsWith(message.method)) {
          throw e;
        }
        stats.retries.transport++;
      }
      await pause(200);
    }
  }

  /**
   * Sends a request until it has an answer the spec does not ask to re-send, and yields that JSON-RPC response.
   * onMessage gets every other message of its stream (progress notifications).
   */
  async exchange(message, { onMessage = () => {}, initializing = false } = {}) {
    const deadline = Date.now() + REQUEST_BOUND_MS;
    const sentAfterKill = afterKill();
    if (sentAfterKill) {
      stats.sentAfterKill++;
    }
    let lastProblem = 'none';
    // What happened to this request, for the failure message: each send, its status, each cut and resume.
    const trail = [];
    this.trail = trail;
    while (Date.now() < deadline) {
      let res;
      trail.push(`${new Date().toISOString().slice(11, 23)} POST`);
      try {
        res = await fetch(endpoint, { method: 'POST', headers: this.headers(), body: JSON.stringify(message),
          signal: AbortSignal.timeout(30_000) });
      } catch (e) {
        stats.retries.transport++;
        lastProblem = `transport: ${e.cause?.code ?? e.message}`;
        await pause(200);
        continue;
      }
      trail.push(`HTTP ${res.status} via ${res.headers.get('x-upstream') ?? '?'}`);
      if (res.status === 404 && this.id && !initializing) {
        await res.text().catch(() => {});
        stats.reinitializations++;
        lastProblem = 'HTTP 404';
        await this.initialize();
        continue;
      }
      if (res.status === 502 || res.status === 503 || res.status === 504) {
        await res.text().catch(() => {});
        stats.retries[`http${res.status}`]++;
        lastProblem = `HTTP ${res.status}`;
        await pause(300);
        continue;
      }
      if (res.status !== 200) {
        throw new Error(`${message.method}: HTTP ${res.status} ${await res.text().catch(() => '')}`);
      }
      if (initializing) {
        this.id = res.headers.get('mcp-session-id') ?? undefined;
      }
      let response;
      if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        response = await this.readStream(res, message.id, onMessage, deadline, trail);
      } else {
        try {
          response = await res.json();
        } catch (e) {
          response = undefined;
        }
      }
      if (response === undefined) {
        stats.retries.streamResend++;
        lastProblem = 'a cut response without an event id to resume from';
        continue;
      }
      if (mustResend(response)) {
        trail.push('told to send again');
        stats.retries.resendError++;
        if (sentAfterKill) {
          stats.retries.resendAfterKill++;
        }
        lastProblem = `error ${JSON.stringify(response.error)}`;
        await pause(100);
        continue;
      }
      return response;
    }
    throw new Error(`${message.method} got no answer within ${REQUEST_BOUND_MS} ms (last: ${lastProblem})`);
  }

  /**
   * Reads an SSE response to request `id`, resuming it with Last-Event-ID when it is cut. Yields the response, or
   * undefined when the request has to be sent again: no event id to resume from, or two resumed streams in a row
   * that brought nothing.
   */
  async readStream(res, id, onMessage, deadline, trail = []) {
    let lastEventId;
    let cutOnce = false;
    let idle = 0;
    for (let resumes = 0; ; resumes++) {
      let events = 0;
      const outcome = await readEvents(res, (event) => {
        events++;
        if (event.id) {
          lastEventId = event.id;
        }
        if (!event.data) {
          return undefined;
        }
        const message = JSON.parse(event.data);
        if (message.id === id && (message.result || message.error)) {
          return message;
        }
        onMessage(message);
        return undefined;
      });
      if (outcome.response) {
        if (cutOnce) {
          stats.resumes.answered++;
        }
        return outcome.response;
      }
      trail.push(`cut after ${events} events (last id ${lastEventId})`);
      if (!cutOnce) {
        stats.streams.cut++;
        cutOnce = true;
      }
      idle = resumes > 0 && events === 0 ? idle + 1 : 0;
      if (lastEventId === undefined || idle >= 2 || resumes >= 10 || Date.now() > deadline) {
        return undefined;
      }
      stats.resumes.attempted++;
      trail.push(`${new Date().toISOString().slice(11, 23)} GET resume`);
      try {
        res = await fetch(endpoint, { method: 'GET',
          signal: AbortSignal.timeout(Math.max(1000, Math.min(15_000, deadline - Date.now()))),
          headers: this.headers({ Accept: 'text/event-stream', 'Last-Event-ID': lastEventId }) });
      } catch (e) {
        await pause(200);
        res = undefined;
      }
      trail.push(res ? `HTTP ${res.status}` : 'transport error');
      if (res && res.status !== 200) {
        await res.text().catch(() => {});
        if (res.status === 404 || res.status === 405 || res.status === 400) {
          // Nothing to resume (the session or its stream is gone): send the request again.
          return undefined;
        }
        await pause(300);
        res = undefined;
      }
      if (!res) {
        // The next loop reads an empty outcome and tries to resume again.
        res = { body: null };
      }
    }
  }

  async call(method, params, options) {
    return this.exchange(this.request(method, params), options);
  }

  async close() {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const res = await fetch(endpoint, { method: 'DELETE', headers: this.headers(),
          signal: AbortSignal.timeout(10_000) });
        await res.text();
        if (res.status === 200 || res.status === 204 || res.status === 404) {
          return;
        }
      } catch (e) {
        stats.retries.transport++;
      }
      await pause(200);
    }
    throw new Error('DELETE of the session failed 20 times');
  }
}

function mustResend(response) {
  return response.error?.code === -32603 && /send the request again/i.test(response.error.message ?? '');
}

/** Reads SSE events from res.body, handing each to onEvent until it returns a response; a cut stream ends it. */
async function readEvents(res, onEvent) {
  if (!res.body) {
    return {};
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = { id: undefined, data: undefined };
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) {
            event.id = line.slice(3).trim();
          } else if (line.startsWith('data:')) {
            event.data = (event.data === undefined ? '' : `${event.data}\n`) + line.slice(5).trim();
          }
        }
        const response = onEvent(event);
        if (response) {
          res.body.cancel().catch(() => {});
          return { response };
        }
      }
    }
  } catch (e) {
    return { error: e };
  }
  return {};
}

function text(response) {
  return response.result?.content?.filter((c) => c.type === 'text').map((c) => c.text).join('');
}

function expect(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

async function greet(session, who) {
  const response = await session.call('tools/call', { name: 'greet', arguments: { name: who } });
  expect(text(response) === `Hello, ${who}!`, `greet ${who}: ${JSON.stringify(response)}`);
}

async function streamingCall(session, client) {
  const steps = new Set();
  let progressEvents = 0;
  let counted = false;
  const token = `client-${client}-stream`;
  const response = await session.call('tools/call', {
    name: 'test_streaming_progress',
    arguments: { steps: STEPS, intervalMs: STEP_MS },
    _meta: { progressToken: token },
  }, {
    onMessage: (message) => {
      if (message.method === 'notifications/progress') {
        progressEvents++;
        steps.add(message.params.progress);
        if (!counted && steps.size >= 2) {
          counted = true;
          signalOnceAllAreStreaming();
        }
      }
    },
  });
  expect(text(response) === `${STEPS} steps done; progress token ${token}`,
    `streaming call: ${JSON.stringify(response)} (session ${session.id}; ${session.trail?.join(', ')})`);
  expect(steps.size === STEPS, `streaming call: progress steps ${[...steps].sort((a, b) => a - b)}`);
  stats.streams.completed++;
  stats.streams.progressEvents += progressEvents;
}

let inStream = 0;
function signalOnceAllAreStreaming() {
  inStream++;
  if (!killSignalled && inStream >= CLIENTS) {
    killSignalled = true;
    console.log('cluster-load: kill now');
  }
}

async function taskCall(session, label) {
  await settleTask(session, await startTask(session, label, TASK_SECONDS));
}

/** Creates a task running slow_compute for {@code seconds}. */
async function startTask(session, label, seconds) {
  const created = await session.call('tools/call', {
    name: 'slow_compute',
    arguments: { seconds, label },
    task: { ttl: 120_000 },
  });
  const task = created.result?.task;
  expect(task?.taskId, `the call made no task: ${JSON.stringify(created)}`);
  stats.tasks.accepted++;
  return { task, label, seconds, accepted: Date.now() };
}

/** Polls a task to a terminal status, then checks what tasks/result says of it. */
async function settleTask(session, { task, label, seconds, accepted }) {
  let status = task.status;
  let last;
  while (!TERMINAL.has(status)) {
    if (Date.now() - accepted > TASK_SETTLE_BOUND_MS) {
      throw new Error(`task ${task.taskId} (${label}) still ${status} after ${TASK_SETTLE_BOUND_MS} ms: `
        + JSON.stringify(last));
    }
    await pause(200);
    last = await session.call('tasks/get', { taskId: task.taskId });
    expect(last.result, `tasks/get ${task.taskId}: ${JSON.stringify(last)}`);
    status = last.result.status;
  }
  const settled = Date.now() - accepted;
  stats.tasks.maxSettleMs = Math.max(stats.tasks.maxSettleMs, settled);
  stats.tasks.terminal++;
  stats.tasks.statuses[status] = (stats.tasks.statuses[status] ?? 0) + 1;
  if (status === 'failed' && /stopped before it finished/.test(last?.result?.statusMessage ?? '')) {
    stats.tasks.executorStopped++;
  }
  const result = await session.call('tasks/result', { taskId: task.taskId });
  if (status === 'completed') {
    expect(text(result) === `Computed ${label} in ${seconds}.0 s`, `tasks/result: ${JSON.stringify(result)}`);
  } else {
    expect(result.error || result.result?.isError, `tasks/result of a ${status} task: ${JSON.stringify(result)}`);
  }
}

const MODERN = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
let modernId = 1;

/**
 * A 2026-07-28 request (no session): sent again on a transport error or HTTP 502/503/504, as a client may when the
 * instance it reached went away; yields the JSON-RPC response.
 */
async function modern(method, params, name, capabilities = {}) {
  const body = { jsonrpc: '2.0', id: modernId++, method, params: { ...params, _meta: {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'cluster-load', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  } } };
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, 'Mcp-Name': name };
  const deadline = Date.now() + REQUEST_BOUND_MS;
  let lastProblem = 'none';
  while (Date.now() < deadline) {
    let res;
    try {
      res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      stats.stateless.retries++;
      lastProblem = `transport: ${e.cause?.code ?? e.message}`;
      await pause(200);
      continue;
    }
    const text = await res.text().catch(() => '');
    if (res.status === 502 || res.status === 503 || res.status === 504) {
      stats.stateless.retries++;
      lastProblem = `HTTP ${res.status}`;
      await pause(300);
      continue;
    }
    if (res.status !== 200) {
      throw new Error(`${method} (${MODERN}): HTTP ${res.status} ${text}`);
    }
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim())
        .filter(Boolean).map((d) => JSON.parse(d));
      const response = data.find((m) => m.id === body.id && (m.result || m.error));
      if (response) {
        return response;
      }
      stats.stateless.retries++;
      lastProblem = 'a stream cut before its answer';
      continue;
    }
    return JSON.parse(text);
  }
  throw new Error(`${method} (${MODERN}) got no answer within ${REQUEST_BOUND_MS} ms (last: ${lastProblem})`);
}

async function statelessGreet(who) {
  const response = await modern('tools/call', { name: 'greet', arguments: { name: who } }, 'greet');
  expect(text(response) === `Hello, ${who}!`, `stateless greet ${who}: ${JSON.stringify(response)}`);
  stats.stateless.calls++;
}

/** An extension task of slow_compute, polled with tasks/get to a terminal status. */
async function extensionTask(label, seconds) {
  const withTasks = { extensions: { [TASKS_EXTENSION]: {} } };
  const created = await modern('tools/call', { name: 'slow_compute', arguments: { seconds, label } },
    'slow_compute', withTasks);
  const taskId = created.result?.taskId;
  expect(created.result?.resultType === 'task' && taskId, `no extension task: ${JSON.stringify(created)}`);
  const accepted = Date.now();
  stats.extensionTasks.accepted++;
  let last = created.result;
  while (!TERMINAL.has(last.status)) {
    if (Date.now() - accepted > TASK_SETTLE_BOUND_MS) {
      throw new Error(`extension task ${taskId} (${label}) still ${last.status} after ${TASK_SETTLE_BOUND_MS} ms`);
    }
    await pause(200);
    const got = await modern('tasks/get', { taskId }, taskId, withTasks);
    expect(got.result, `tasks/get ${taskId}: ${JSON.stringify(got)}`);
    last = got.result;
  }
  const tasks = stats.extensionTasks;
  tasks.maxSettleMs = Math.max(tasks.maxSettleMs, Date.now() - accepted);
  tasks.terminal++;
  tasks.statuses[last.status] = (tasks.statuses[last.status] ?? 0) + 1;
  if (last.status === 'failed' && /stopped before it finished/.test(JSON.stringify(last))) {
    tasks.executorStopped++;
  }
  if (last.status === 'completed') {
    expect(text(last) === `Computed ${label} in ${seconds}.0 s`, `extension task result: ${JSON.stringify(last)}`);
  }
}

/** One client's fixed list of operations: its round of calls ROUNDS times, between initialize and close. */
function operations(client) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const label = r === 0 ? '' : ` (round ${r + 1})`;
    rounds.push(
      [`greet 1${label}`, (s) => greet(s, `client ${client} a`)],
      [`long task start${label}`, async (s) => { s.longTask = await startTask(s, `c${client}-${r}-0`, LONG_TASK_SECONDS); }],
      [`streaming call${label}`, (s) => streamingCall(s, client)],
      [`long task settle${label}`, (s) => settleTask(s, s.longTask)],
      [`task 1${label}`, (s) => taskCall(s, `c${client}-${r}-1`)],
      [`greet 2${label}`, (s) => greet(s, `client ${client} b`)],
      [`task 2${label}`, (s) => taskCall(s, `c${client}-${r}-2`)],
      [`greet 3${label}`, (s) => greet(s, `client ${client} c`)],
      [`stateless greet${label}`, () => statelessGreet(`client ${client} d`)],
      [`extension task${label}`, () => extensionTask(`c${client}-${r}-x`, TASK_SECONDS)],
    );
  }
  return [['initialize', (s) => s.initialize()], ...rounds, ['close', (s) => s.close()]];
}

async function runClient(client) {
  const session = new Session(`cluster-load-${client}`);
  for (const [name, op] of operations(client)) {
    try {
      await op(session);
      stats.opsDone++;
    } catch (e) {
      stats.failures.push(`client ${client} ${name}: ${e.message}`);
      if (name === 'initialize') {
        return;
      }
    }
  }
}

function finish(problem) {
  if (problem) {
    stats.failures.push(problem);
  }
  stats.durationMs = Date.now() - started;
  console.log(`cluster-load summary ${JSON.stringify(stats)}`);
  process.exit(stats.failures.length === 0 && stats.opsDone === stats.opsExpected ? 0 : 1);
}

stats.opsExpected = CLIENTS * operations(0).length;
await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i)));
if (!killSignalled) {
  console.log('cluster-load: kill now (too late: the clients were never all streaming at once)');
}
clearTimeout(overall);
finish();
