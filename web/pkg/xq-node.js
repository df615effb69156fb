// Node.js only: loads the WebAssembly of xq-wasm from this folder (a browser fetches it
// with `await init()`), and tells the engine's worker scripts where they live.
import { readFileSync } from 'node:fs';
import { initSync } from './xq_wasm.js';

let ready = false;

/** Instantiates the WebAssembly (once); returns the module's exports. */
export function init() {
  if (!ready) {
    initSync({ module: readFileSync(new URL('./xq_wasm_bg.wasm', import.meta.url)) });
    ready = true;
  }
  return import('./xq_wasm.js');
}

/** The URL of this package's folder. */
export const baseUrl = new URL('./', import.meta.url);
