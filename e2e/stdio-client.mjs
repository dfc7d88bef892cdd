// Drives a mcp-vertx stdio server with the official TypeScript SDK client.
// Usage: node stdio-client.mjs <java> <jar> [example]
// Exit code 0 when every check passes; the failing check is printed otherwise.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [java, jar, example = 'hello'] = process.argv.slice(2);
if (!java || !jar) {
  console.error('usage: node stdio-client.mjs <java> <jar> [example]');
  process.exit(2);
}

const transport = new StdioClientTransport({ command: java, args: ['-jar', jar, example], stderr: 'inherit' });
const client = new Client({ name: 'mcp-vertx-e2e', version: '1.0.0' });
const timeout = setTimeout(() => {
  console.error('timed out');
  process.exit(1);
}, 60_000);

try {
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, 'hello');

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['greet']);

  const result = await client.callTool({ name: 'greet', arguments: { name: 'TypeScript' } });
  assert.equal(result.isError ?? false, false);
  assert.equal(result.content[0].text, 'Hello, TypeScript!');

  const resource = await client.readResource({ uri: 'hello://greetings/SDK' });
  assert.equal(resource.contents[0].text, 'Hello, SDK!');

  const prompt = await client.getPrompt({ name: 'introduce', arguments: { name: 'Ada' } });
  assert.match(prompt.messages[0].content.text, /Ada/);

  await client.close();
  clearTimeout(timeout);
  console.log('typescript-sdk stdio: all checks passed');
} catch (e) {
  console.error('typescript-sdk stdio check failed:', e);
  process.exit(1);
}
