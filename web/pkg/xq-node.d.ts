/** Node.js only: instantiates the package's WebAssembly (once) and returns the module. */
export function init(): Promise<typeof import('./xq_wasm.js')>;
/** The URL of the package's folder. */
export const baseUrl: URL;
