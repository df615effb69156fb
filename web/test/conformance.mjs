// The UCI conformance table (xq-protocol/tests/conformance.txt), read and checked as
// xq-testkit's `conformance` module does in Rust: the same file, the same rules. Used by
// the worker's tests under Node and in Chromium.

/** The table's cases: { name, steps: [{send} | {await}], expect: [pattern | null] }. */
export function parseTable(text) {
  const cases = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!line || line.startsWith('#')) return;
    if (line.startsWith('== ')) {
      cases.push({ name: line.slice(3), steps: [], expect: [] });
      return;
    }
    const c = cases[cases.length - 1];
    if (!c) throw new Error(`conformance.txt line ${i + 1}: outside a case`);
    if (line.startsWith('> ')) c.steps.push({ send: line.slice(2) });
    else if (line.startsWith('! ')) c.steps.push({ await: line.slice(2) });
    else if (line.startsWith('< ')) c.expect.push(line.slice(2));
    else if (line === '...') c.expect.push(null);
    else throw new Error(`conformance.txt line ${i + 1}: ${line}`);
  });
  return cases;
}

/** Does `text` match `pattern`, where `*` matches any text? */
export function glob(pattern, text) {
  const [first, ...rest] = pattern.split('*');
  if (!text.startsWith(first)) return false;
  let left = text.slice(first.length);
  if (rest.length === 0) return left.length === 0;
  const last = rest.pop();
  for (const part of rest) {
    const at = left.indexOf(part);
    if (at < 0) return false;
    left = left.slice(at + part.length);
  }
  return left.length >= last.length && left.endsWith(last);
}

/** Do `lines` match `expect` (null taking any number of lines)? */
export function matches(expect, lines) {
  if (expect.length === 0) return lines.length === 0;
  const [e, ...rest] = expect;
  if (e === null) {
    for (let k = 0; k <= lines.length; k++) if (matches(rest, lines.slice(k))) return true;
    return false;
  }
  return lines.length > 0 && glob(e, lines[0]) && matches(rest, lines.slice(1));
}

/**
 * Runs a case on an engine: `send(line)`, and `lines`, the engine's lines so far (an
 * array the caller's listener appends to), polled until the awaited line comes.
 * Returns the lines before the final `readyok`.
 */
export async function runCase(c, send, lines, ms = 60000) {
  let taken = 0;
  const wait = async (prefix) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const at = lines.slice(taken).findIndex((l) => l.startsWith(prefix));
      if (at >= 0) {
        taken += at + 1;
        return;
      }
      if (Date.now() > deadline) throw new Error(`${c.name}: no '${prefix}'; wrote ${lines.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  for (const step of c.steps) {
    if ('send' in step) send(step.send);
    else await wait(step.await);
  }
  send('isready');
  await wait('readyok');
  if (lines[lines.length - 1] !== 'readyok') throw new Error(`${c.name}: lines after readyok: ${lines.join(' | ')}`);
  return lines.slice(0, -1);
}

/** Checks a case's lines; throws with both when they part. */
export function check(c, got) {
  if (!matches(c.expect, got)) {
    throw new Error(`case '${c.name}': the engine wrote\n  ${got.join('\n  ')}\nwhich does not match\n  ${c.expect.map((e) => e ?? '...').join('\n  ')}`);
  }
}
