// Drives the 2025-11-25 tasks of a mcp-vertx conformance server (SEP-1686: task-augmented tools/call, tasks/get,
// tasks/list, tasks/result, tasks/cancel, notifications/tasks/status) with the official TypeScript SDK client's
// experimental tasks API (client.experimental.tasks) over Streamable HTTP.
// Usage: node tasks-client.mjs <url>   (the server: java -jar mcp-vertx-examples.jar conformance --http <port>)
// Exit code 0 when every check passes; the failing check is printed otherwise.
import assert from 'node:assert/strict';
import { runChecks } from './checks.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  RELATED_TASK_META_KEY,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [endpoint] = process.argv.slice(2);
if (!endpoint) {
  console.error('usage: node tasks-client.mjs <url>');
  process.exit(2);
}
const url = new URL(endpoint);
const timeout = setTimeout(() => {
  console.error('timed out');
  process.exit(1);
}, 90_000);

/** What the clients reported through onerror (transport errors, unknown responses), printed when a check fails. */
const clientErrors = [];

/**
 * A session whose client declares elicitation (answered by `onElicit`) and records what crosses the wire:
 * every notifications/tasks/status, and, per POST, the JSON-RPC method it carried and the text of its response
 * (an SSE stream or a JSON body), to tell which request's stream a server request travelled on.
 */
async function connect(name, { onElicit } = {}) {
  const posts = [];
  const recordingFetch = async (input, init) => {
    if (init?.method !== 'POST') {
      return fetch(input, init);
    }
    const sent = JSON.parse(String(init.body));
    const post = { method: sent.method, id: sent.id, status: undefined, body: '' };
    posts.push(post);
    const response = await fetch(input, init);
    post.status = response.status;
    if (!response.body) {
      return response;
    }
    const [forClient, forLog] = response.body.tee();
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of forLog) {
        post.body += decoder.decode(chunk, { stream: true });
      }
    })().catch((e) => clientErrors.push(`${name}: recording a response failed: ${e.message}`));
    return new Response(forClient, { status: response.status, statusText: response.statusText,
      headers: response.headers });
  };
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.onerror = (e) => clientErrors.push(`${name}: ${e.message}`);
  const statuses = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => statuses.push(n.params));
  const elicitations = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params);
    if (!onElicit) {
      return { action: 'decline' };
    }
    return onElicit(request.params);
  });
  const transport = new StreamableHTTPClientTransport(url, { fetch: recordingFetch });
  await client.connect(transport);
  assert.equal(transport.protocolVersion, '2025-11-25');
  const tasksCapability = client.getServerCapabilities().tasks;
  assert.ok(tasksCapability?.requests?.tools?.call, `the server offers no task-augmented tools/call: `
    + JSON.stringify(client.getServerCapabilities()));
  assert.ok(tasksCapability.list && tasksCapability.cancel, JSON.stringify(tasksCapability));
  // Caches each tool's execution.taskSupport, which the SDK consults (callTool refuses "required" tools).
  await client.listTools();
  return { client, transport, posts, statuses, elicitations };
}

/** Ends the session on the server (DELETE), then closes the client. */
async function disconnect({ client, transport }) {
  await transport.terminateSession();
  await client.close();
}

/**
 * Everything callToolStream yields for a task-augmented call, in order. Without options.task the SDK asks for a
 * task by itself, with `task: {}`, as the tool's execution.taskSupport (from tools/list) allows one. The
 * SDK passes these options on to its tasks/get and tasks/result requests too, params.task included: the server
 * must ignore it there, as 2025-11-25 says of requests that do not support task augmentation.
 */
async function stream(client, name, args, options = { task: { ttl: 60_000 } }) {
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args },
    CallToolResultSchema, options)) {
    messages.push(message);
  }
  return messages;
}

/** Calls tools/call with params.task directly, for the whole CreateTaskResult (callToolStream keeps only its task). */
async function createTask(client, name, args) {
  return client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema,
    { task: { ttl: 60_000 } });
}

/** The promise's rejection, or a failed assertion if it resolves. */
async function rejection(promise, what) {
  try {
    const value = await promise;
    assert.fail(`${what} succeeded: ${JSON.stringify(value)}`);
  } catch (e) {
    if (e instanceof assert.AssertionError) {
      throw e;
    }
    return e;
  }
}

/** Waits (up to 5 s) until `predicate` holds. */
async function eventually(predicate, what) {
  const deadline = Date.now() + 5_000;
  while (!predicate()) {
    assert.ok(Date.now() < deadline, `gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function texts(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text);
}

/** The JSON-RPC messages of an SSE response body, in order (the data of each event but the empty priming one). */
function sseMessages(body) {
  return body.split('\n').filter((line) => line.startsWith('data:') && line.slice(5).trim())
    .map((line) => JSON.parse(line.slice(5)));
}

function relatedTaskId(params) {
  return params?._meta?.[RELATED_TASK_META_KEY]?.taskId;
}

const kinds = (messages) => messages.map((m) => (m.type === 'taskStatus' ? `${m.type}:${m.task.status}` : m.type));

const checks = {
  // callToolStream: the CreateTaskResult, tasks/get polls until completed, then tasks/result for the result.
  async slowComputeAsATask() {
    const session = await connect('mcp-vertx-e2e-tasks-stream');
    const messages = await stream(session.client, 'slow_compute', { seconds: 1, label: 'e2e' });
    const shape = kinds(messages).join(' ');
    assert.match(shape, /^taskCreated (taskStatus:working )+taskStatus:completed result$/, shape);
    const created = messages[0].task;
    assert.equal(created.status, 'working');
    assert.equal(created.ttl, 60_000);
    assert.ok(created.pollInterval > 0, JSON.stringify(created));
    assert.ok(!Number.isNaN(Date.parse(created.createdAt)), JSON.stringify(created));
    for (const m of messages.slice(1, -1)) {
      assert.equal(m.task.taskId, created.taskId);
    }
    const result = messages.at(-1).result;
    assert.deepEqual(texts(result), ['Computed e2e in 1.0 s']);
    assert.equal(result.isError ?? false, false);
    assert.equal(relatedTaskId(result), created.taskId, 'tasks/result must carry the related-task _meta');
    // The optional status notifications, on the session's stream: at least the move to completed.
    await eventually(() => session.statuses.some((s) => s.taskId === created.taskId && s.status === 'completed'),
      `notifications/tasks/status completed for ${created.taskId}; got ${JSON.stringify(session.statuses)}`);
    assert.ok(session.statuses.every((s) => relatedTaskId(s) === undefined),
      `notifications/tasks/status should not carry the related-task _meta: ${JSON.stringify(session.statuses)}`);
    await disconnect(session);
  },

  // The task by hand: tools/call with params.task, tasks/get, tasks/list, then tasks/result, which blocks.
  async getListAndResult() {
    const session = await connect('mcp-vertx-e2e-tasks-get');
    const tasks = session.client.experimental.tasks;
    const created = await createTask(session.client, 'slow_compute', { seconds: 2, label: 'by hand' });
    const { taskId } = created.task;
    assert.equal(created.task.status, 'working');
    assert.equal(created._meta?.['io.modelcontextprotocol/model-immediate-response'],
      'The computation is running as a task.', JSON.stringify(created));

    const got = await tasks.getTask(taskId);
    assert.equal(got.taskId, taskId);
    assert.equal(got.status, 'working');
    assert.equal(got.createdAt, created.task.createdAt);

    const listed = await tasks.listTasks();
    const entry = listed.tasks.find((t) => t.taskId === taskId);
    assert.ok(entry, `tasks/list does not show ${taskId}: ${JSON.stringify(listed)}`);
    assert.equal(entry.status, 'working');

    // tasks/result waits: a tasks/get sent after it still sees the task working, and is answered first.
    const answered = [];
    const waiting = tasks.getTaskResult(taskId, CallToolResultSchema).then((r) => {
      answered.push('tasks/result');
      return r;
    });
    const meanwhile = await tasks.getTask(taskId);
    answered.push('tasks/get');
    assert.equal(meanwhile.status, 'working');
    const result = await waiting;
    assert.deepEqual(answered, ['tasks/get', 'tasks/result']);
    assert.deepEqual(texts(result), ['Computed by hand in 2.0 s']);
    assert.equal(relatedTaskId(result), taskId);

    const done = await tasks.getTask(taskId);
    assert.equal(done.status, 'completed');
    assert.ok(Date.parse(done.lastUpdatedAt) >= Date.parse(done.createdAt), JSON.stringify(done));
    // Asking again returns the same result.
    assert.deepEqual(texts(await tasks.getTaskResult(taskId, CallToolResultSchema)), texts(result));
    // Another session (no authorization: tasks belong to their session) sees none of them.
    const other = await connect('mcp-vertx-e2e-tasks-other');
    const foreign = await rejection(other.client.experimental.tasks.getTask(taskId), 'tasks/get of a foreign task');
    assert.equal(foreign.code, ErrorCode.InvalidParams, String(foreign));
    assert.ok(!(await other.client.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === taskId));
    await disconnect(other);
    await disconnect(session);
  },

  // A tool result with isError fails the task, and tasks/result returns that result; a JSON-RPC error of the
  // handler is what tasks/result rejects with, as the plain call would have.
  async failures() {
    const session = await connect('mcp-vertx-e2e-tasks-failures');
    const tasks = session.client.experimental.tasks;

    // failing_job requires a task: the SDK refuses a plain callTool, and so does the server.
    const sdkRefusal = await rejection(session.client.callTool({ name: 'failing_job', arguments: {} }),
      'callTool of a task-required tool');
    assert.match(sdkRefusal.message, /requires task-based execution/);
    const serverRefusal = await rejection(session.client.request(
      { method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema),
    'tools/call of a task-required tool without params.task');
    assert.equal(serverRefusal.code, ErrorCode.MethodNotFound, String(serverRefusal));

    const failing = await stream(session.client, 'failing_job', {});
    const failingShape = kinds(failing).join(' ');
    assert.match(failingShape, /^taskCreated (taskStatus:working )*taskStatus:failed error$/, failingShape);
    const failedId = failing[0].task.taskId;
    // callToolStream reports a failed task as an error of its own (it does not fetch the result).
    assert.match(failing.at(-1).error.message, new RegExp(`Task ${failedId} failed`));
    const failed = await tasks.getTask(failedId);
    assert.equal(failed.status, 'failed');
    assert.ok(failed.statusMessage, `a failed task should say why: ${JSON.stringify(failed)}`);
    const failedResult = await tasks.getTaskResult(failedId, CallToolResultSchema);
    assert.equal(failedResult.isError, true, JSON.stringify(failedResult));
    assert.deepEqual(texts(failedResult), ['The job failed: the input could not be processed']);
    assert.equal(relatedTaskId(failedResult), failedId);

    const direct = await rejection(session.client.callTool({ name: 'protocol_error_job', arguments: {} }),
      'protocol_error_job called directly');
    assert.ok(direct instanceof McpError, String(direct));
    const broken = await stream(session.client, 'protocol_error_job', {});
    const brokenShape = kinds(broken).join(' ');
    assert.match(brokenShape, /^taskCreated (taskStatus:working )*taskStatus:failed error$/, brokenShape);
    const brokenId = broken[0].task.taskId;
    const error = await rejection(tasks.getTaskResult(brokenId, CallToolResultSchema), 'tasks/result of a task '
      + 'whose handler failed');
    assert.ok(error instanceof McpError, String(error));
    assert.equal(error.code, direct.code, `tasks/result: ${error}; the plain call: ${direct}`);
    assert.equal(error.message, direct.message);
    assert.equal(error.code, ErrorCode.InternalError);
    assert.match(error.message, /The job hit an internal error/);
    const brokenTask = await tasks.getTask(brokenId);
    assert.equal(brokenTask.status, 'failed');
    assert.match(brokenTask.statusMessage ?? '', /The job hit an internal error/, JSON.stringify(brokenTask));
    await disconnect(session);
  },

  // The task needs input: callToolStream sees input_required and waits in tasks/result, on whose stream the
  // elicitation arrives, tagged with the task; the answer goes back and the task completes.
  async elicitationDuringATask() {
    const session = await connect('mcp-vertx-e2e-tasks-elicit', {
      onElicit: () => ({ action: 'accept', content: { confirm: true } }),
    });
    const messages = await stream(session.client, 'confirm_delete', { filename: 'report.txt' }, {});
    const shape = kinds(messages).join(' ');
    assert.match(shape, /^taskCreated (taskStatus:working )*taskStatus:input_required result$/, shape);
    const { taskId, ttl } = messages[0].task;
    assert.ok(ttl > 0, `no ttl asked for: the server's default applies; got ${ttl}`);
    assert.deepEqual(texts(messages.at(-1).result), ['Deleted report.txt']);
    assert.equal(relatedTaskId(messages.at(-1).result), taskId);

    assert.equal(session.elicitations.length, 1, JSON.stringify(session.elicitations));
    const [asked] = session.elicitations;
    assert.equal(asked.message, 'Delete report.txt?');
    assert.deepEqual(Object.keys(asked.requestedSchema.properties), ['confirm']);
    assert.equal(relatedTaskId(asked), taskId, `elicitation/create without the related task: ${JSON.stringify(asked)}`);
    // It travelled on the tasks/result response stream, not on the standalone GET stream nor a tasks/get reply.
    const carriers = session.posts.filter((p) => p.body.includes('"elicitation/create"'));
    assert.deepEqual(carriers.map((p) => p.method), ['tasks/result'],
      `the elicitation came on: ${JSON.stringify(carriers.map((p) => p.method))}`);
    const [carrier] = carriers;
    const onTheStream = sseMessages(carrier.body).map((m) => m.method ?? (m.id === carrier.id ? 'answer' : m.id));
    assert.deepEqual(onTheStream, ['elicitation/create', 'answer'],
      `the tasks/result stream must carry the elicitation, then the answer:\n${carrier.body}`);
    await eventually(() => session.posts.some((p) => p.method === undefined && p.status === 202),
      `the elicitation answer to be posted and accepted; posts: ${JSON.stringify(session.posts.map(
        (p) => `${p.method ?? 'response'} ${p.status}`))}`);
    await eventually(() => session.statuses.some((s) => s.taskId === taskId && s.status === 'input_required'),
      `notifications/tasks/status input_required; got ${JSON.stringify(session.statuses)}`);
    await eventually(() => session.statuses.some((s) => s.taskId === taskId && s.status === 'completed'),
      `notifications/tasks/status completed; got ${JSON.stringify(session.statuses)}`);
    await disconnect(session);
  },

  // Two questions open at once: both come on the tasks/result stream, and the answers reach the right question.
  async twoQuestionsDuringATask() {
    const names = { 'First question': 'one', 'Second question': 'two' };
    const session = await connect('mcp-vertx-e2e-tasks-two-questions', {
      onElicit: (params) => ({ action: 'accept', content: { name: names[params.message] } }),
    });
    const messages = await stream(session.client, 'multi_input', {});
    const shape = kinds(messages).join(' ');
    assert.match(shape, /^taskCreated (taskStatus:working )*taskStatus:input_required result$/, shape);
    const { taskId } = messages[0].task;
    assert.deepEqual(texts(messages.at(-1).result), ['Answers: one, two']);
    assert.deepEqual(session.elicitations.map((e) => e.message).sort(), ['First question', 'Second question']);
    assert.ok(session.elicitations.every((e) => relatedTaskId(e) === taskId), JSON.stringify(session.elicitations));
    const carriers = session.posts.filter((p) => p.body.includes('"elicitation/create"'));
    assert.deepEqual(carriers.map((p) => p.method), ['tasks/result']);
    await disconnect(session);
  },

  // tasks/cancel moves a working task to cancelled, for good, and releases a tasks/result waiting on it; a
  // terminal task cannot be cancelled again (-32602).
  async cancel() {
    const session = await connect('mcp-vertx-e2e-tasks-cancel');
    const tasks = session.client.experimental.tasks;
    const created = await createTask(session.client, 'slow_compute', { seconds: 30, label: 'never' });
    const { taskId } = created.task;
    assert.equal((await tasks.getTask(taskId)).status, 'working');
    const waiting = rejection(tasks.getTaskResult(taskId, CallToolResultSchema), 'tasks/result of a cancelled task');
    const cancelled = await tasks.cancelTask(taskId);
    assert.equal(cancelled.taskId, taskId);
    assert.equal(cancelled.status, 'cancelled', JSON.stringify(cancelled));
    // A cancelled tools/call has no result: the waiting tasks/result ends with a JSON-RPC error, long before the
    // 30 s the tool would have run.
    const released = await waiting;
    assert.ok(released instanceof McpError && released.code !== ErrorCode.RequestTimeout, String(released));
    // The handler stops and fails; the task stays cancelled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await tasks.getTask(taskId)).status, 'cancelled');
    const again = await rejection(tasks.cancelTask(taskId), 'cancelling a cancelled task');
    assert.equal(again.code, ErrorCode.InvalidParams, String(again));
    assert.match(again.message, /terminal/);
    const listed = (await tasks.listTasks()).tasks.find((t) => t.taskId === taskId);
    assert.equal(listed?.status, 'cancelled', JSON.stringify(listed));
    await eventually(() => session.statuses.some((s) => s.taskId === taskId && s.status === 'cancelled'),
      `notifications/tasks/status cancelled; got ${JSON.stringify(session.statuses)}`);
    const unknown = await rejection(tasks.cancelTask('no-such-task'), 'cancelling an unknown task');
    assert.equal(unknown.code, ErrorCode.InvalidParams, String(unknown));
    await disconnect(session);
  },
};

await runChecks('typescript-sdk tasks', checks, clientErrors, timeout);
