// The UCI conformance table against the engine worker (web/dist/pkg/xq-engine.js) under
// Node's worker_threads, in both of its ways to stop: a shared flag, and iterations with
// the messages read between them (?nosab). The native binary answers the same table
// (xq-cli/tests/conformance.rs).
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { parseTable, runCase, check } from './conformance.mjs';

const script = new URL('../dist/pkg/xq-engine.js', import.meta.url);
const table = readFileSync(new URL('../../xq-protocol/tests/conformance.txt', import.meta.url), 'utf8');
const cases = parseTable(table);

for (const [mode, query] of [['shared flag', ''], ['iterations (nosab)', 'nosab']]) {
  test(`${mode}: every row of the conformance table`, async () => {
    const failures = [];
    for (const c of cases) {
      const worker = new Worker(script, { workerData: { query } });
      const lines = [];
      worker.on('message', (line) => lines.push(line));
      try {
        check(c, await runCase(c, (l) => worker.postMessage(l), lines));
      } catch (e) {
        failures.push(e.message);
      } finally {
        await worker.terminate();
      }
    }
    if (failures.length) throw new Error(failures.join('\n\n'));
  });
}
