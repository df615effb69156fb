// The wasm build's `xq bench` under Node: the same 40 positions, depth and table as the
// native `xq bench`, run N times in one process (the first run includes V8's tier-up of
// the wasm to optimised code). Usage: node web/bench.mjs [RUNS]   (after web/build.sh)
const runs = Number(process.argv[2] || 3);
const { init } = await import(new URL('./dist/pkg/xq-node.js', import.meta.url));
const { bench } = await init();
for (let i = 0; i < runs; i++) {
  const b = bench();
  console.log(`${b.nodes} nodes ${Math.round(b.nps)} nps (${Math.round(b.ms)} ms)${i === 0 ? ' cold' : ''}`);
}
