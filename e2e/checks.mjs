// The runner the SDK scripts share: named checks in order, one "ok" line each; the first failure prints the
// clients' errors so far and ends the script with exit code 1.

/**
 * @param {string} label what the script drives, as its report lines name it
 * @param {Record<string, () => Promise<void>>} checks
 * @param {string[]} clientErrors what the clients reported through onerror
 * @param {NodeJS.Timeout} timeout the script's overall timer, cleared once every check passed
 */
export async function runChecks(label, checks, clientErrors, timeout) {
  let current;
  try {
    for (const [name, check] of Object.entries(checks)) {
      current = name;
      const started = Date.now();
      await check();
      console.log(`ok ${name} (${Date.now() - started} ms)`);
    }
    clearTimeout(timeout);
    console.log(`${label}: all checks passed`);
  } catch (e) {
    console.error(`${label} check '${current}' failed:`, e);
    console.error(`client errors so far:\n  ${clientErrors.join('\n  ') || '(none)'}`);
    process.exit(1);
  }
}
