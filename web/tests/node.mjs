// The WebAssembly build against the native one, under Node (.ci/run's web stage):
//   node web/tests/node.mjs PLAYGROUND NATIVE
// PLAYGROUND is web/build.sh's output; NATIVE the folder .ci/run filled with the native
// binary's answers to the same questions (file names below). Checks, each exactly:
// - `moves --json` of the shared board files (tests/data/boards), every piece: features;
// - the games `play --seed` plays (the summary `play --json` prints) and its game 0's replay,
//   every move (`play --replay-html`'s);
// - a small run (web/tests/small-run.toml) played in ranges as the page's workers play it,
//   in one range and in three: history.csv and best.toml as `evolve` writes them.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";

const [playground, native] = process.argv.slice(2).map((dir) => dir && resolve(dir));
if (!playground || !native) {
  console.error("usage: node web/tests/node.mjs PLAYGROUND NATIVE");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const st = await import(join(playground, "stacktune_web.js"));
await st.default({ module_or_path: readFileSync(join(playground, "stacktune_web_bg.wasm")) });
const text = (...path) => readFileSync(join(...path), "utf8");
let checks = 0;
// Equal texts, or a failure naming the first character where they part.
const equal = (ours, theirs, what) => {
  let at = 0;
  while (at < ours.length && ours[at] === theirs[at]) at++;
  const near = (s) => JSON.stringify(s.slice(Math.max(0, at - 40), at + 40));
  assert.ok(ours === theirs, `${what}: the WebAssembly build differs from the native one at character ${at}: ${near(ours)} against ${near(theirs)}`);
  checks++;
};

// Features: every placement of every piece on the shared board files.
const boards = { tetris: [..."IOTSZLJ"], puyo: ["11", "12", "34", "44"], connect: [undefined] };
for (const [game, pieces] of Object.entries(boards)) {
  const board = text(root, "tests/data/boards", `${game}.txt`);
  for (const piece of pieces) {
    const name = `moves-${game}${piece ? "-" + piece : ""}.json`;
    equal(st.moves(game, board, piece, undefined), text(native, name), name);
  }
}

// Seeded games: the held-out games of the small run's config, played by the hand-set weights.
const config = text(root, "web/tests/small-run.toml");
const files = JSON.stringify({ "../../weights/puyo/hand.toml": text(root, "weights/puyo/hand.toml") });
const hand = text(root, "weights/puyo/hand.toml");
const weights = st.read_weights(config, hand);
const played = (batch, ranges) => {
  const games = new st.Games(batch);
  const { players, games: n } = JSON.parse(batch);
  const pairs = players.length * n;
  const cuts = [0, ...Array.from({ length: ranges - 1 }, (_, i) => Math.floor(((i + 1) * pairs) / ranges)), pairs];
  const parts = cuts.slice(1).map((end, i) => games.play(cuts[i], end));
  games.free();
  return BigUint64Array.from(parts.flatMap((part) => [...part]));
};
const summary = JSON.parse(st.summarize(played(st.held_out(config, files, weights, 8), 3)));
const play = JSON.parse(text(native, "play.json"));
for (const key of ["games", "mean", "median", "std", "ci95", "min", "max"]) {
  equal(JSON.stringify(summary[key]), JSON.stringify(play[key]), `play --json's ${key}`);
}
const page = text(native, "replay.html");
const data = JSON.parse(page.match(/<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/)[1]);
const ours = JSON.parse(st.replays(config, files, weights, "weights/puyo/hand.toml"));
// The whole replay: its play command, setup, start and every move's fields and points.
equal(JSON.stringify(ours[0]), JSON.stringify(data.replays[0]), "game 0's replay");

// A small run, its batches played in one range and in three.
for (const ranges of [1, 3]) {
  const run = new st.Run(config, files);
  for (let batch = run.step(); batch !== undefined; batch = run.step()) run.played(played(batch, ranges));
  const state = JSON.parse(run.state());
  equal(run.history_csv(), text(native, "run", "history.csv"), `history.csv (${ranges} ranges)`);
  equal(state.finish.best_toml, text(native, "run", "best.toml"), `best.toml (${ranges} ranges)`);
  run.free();
}
console.log(`web/tests/node.mjs: ${checks} checks, the WebAssembly build equals the native one`);
