// Placements per second in one Web Worker of headless chromium (docs/web.md): the first GAMES
// held-out games of the Puyo Tsu preset played by the hand-set weights, one range in one worker,
// timed inside the worker; the same games natively are
// `stacktune play --weights weights/puyo/hand.toml --rules tsu --colours 4 --fitness max_chain
//  --seed 1000001 --games GAMES --max-pieces 100 --threads 1 --json` (its total_pieces must
// equal the placements printed here).
//   node web/tests/speed.mjs PLAYGROUND [GAMES]
import { launch, open, serve } from "./browser-harness.mjs";

const [playground, games = "600"] = process.argv.slice(2);
if (!playground) {
  console.error("usage: node web/tests/speed.mjs PLAYGROUND [GAMES]");
  process.exit(2);
}
const server = await serve(playground);
const browser = await launch();
try {
  const { page } = await open(browser, server.url);
  const { placements, ms } = await page.evaluate(async (games) => {
    const st = await import("./stacktune_web.js");
    const module = await WebAssembly.compileStreaming(fetch("stacktune_web_bg.wasm"));
    await st.default({ module_or_path: module });
    const preset = JSON.parse(st.presets()).find((p) => p.id === "puyo-tsu");
    const files = JSON.stringify(preset.files);
    const weights = st.read_weights(preset.config, preset.files["../../weights/puyo/hand.toml"]);
    const batch = st.held_out(preset.config, files, weights, games);
    const worker = new Worker("worker.js", { type: "module" });
    const answer = new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => (data.type === "played" ? resolve(data) : reject(new Error(data.message)));
    });
    worker.postMessage({ type: "init", module });
    worker.postMessage({ type: "batch", id: 1, batch });
    worker.postMessage({ type: "play", id: 1, k: 0, start: 0, end: games });
    const { words, ms } = await answer;
    worker.terminate();
    return { placements: st.placements(words), ms };
  }, Number(games));
  const rate = Math.round(placements / (ms / 1000));
  console.log(`${placements} placements in ${(ms / 1000).toFixed(2)} s in one worker: ${rate} placements/s`);
} finally {
  await browser.close();
  server.close();
}
