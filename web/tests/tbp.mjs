// The TBP bot as a Web Worker (web/page/tbp-worker.js) in Debian's chromium, headless, against
// the native `stacktune tbp` (.ci/run's web stage):
//   node web/tests/tbp.mjs PLAYGROUND STACKTUNE
// PLAYGROUND is web/build.sh's output, STACKTUNE the native binary. One conversation (rules, an
// unknown type, a real position, suggest, play, new_piece, suggest, a malformed message, stop,
// quit) goes to the worker as objects and to `stacktune tbp` as lines, both without weights (the
// shipped versus player); the worker's answers must equal the binary's, message for message. The
// hand-set weights given to the worker by URL answer as `stacktune tbp --weights
// weights/versus/hand.toml`, whose suggestions' first moves are the ones written below; a weights
// URL that is missing or not a weights file is one line in the Worker's error event.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { launch, serve } from "./browser-harness.mjs";

const [playground, stacktune] = process.argv.slice(2);
if (!playground || !stacktune) {
  console.error("usage: node web/tests/tbp.mjs PLAYGROUND STACKTUNE");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const hand = readFileSync(`${root}weights/versus/hand.toml`, "utf8");

// Two rows of garbage, each with a hole, and one more cell.
const board = Array.from({ length: 40 }, () => Array(10).fill(null));
board[0] = ["G", "G", "G", null, "G", "G", "G", "G", "G", "G"];
board[1] = ["G", "G", "G", "G", "G", "G", "G", null, "G", "G"];
board[2] = [null, null, null, null, null, null, "L", null, null, null];
const FIRST = { location: { type: "Z", orientation: "east", x: 7, y: 2 }, spin: "none" };
const SECOND = { location: { type: "I", orientation: "east", x: 9, y: 3 }, spin: "none" };
const conversation = [
  { type: "rules", randomizer: "seven_bag" },
  { type: "a_later_extension", anything: [1, 2] },
  { type: "start", hold: "Z", queue: ["T", "I", "O", "L", "J"], combo: 0, back_to_back: false,
    board },
  { type: "suggest" },
  { type: "play", move: FIRST },
  { type: "new_piece", piece: "S" },
  { type: "suggest" },
  { type: "play" },
  "not a message",
  { type: "stop" },
  { type: "quit" },
];

const lines = conversation.map((m) => JSON.stringify(m)).join("\n") + "\n";
const nativeBot = (args) =>
  execFileSync(stacktune, ["tbp", ...args], {
    cwd: root,
    input: lines,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "ignore"],
  })
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
const types = ["info", "ready", "suggestion", "suggestion"];
const shipped = nativeBot([]);
assert.deepEqual(shipped.map((m) => m.type), types);
assert.equal(shipped[0].version, "0.1.0 (weights/versus/tuned.toml)");
const native = nativeBot(["--weights", "weights/versus/hand.toml"]);
assert.deepEqual(native.map((m) => m.type), types);
assert.deepEqual(native[2].moves[0], FIRST, "the native bot's first suggestion");
assert.deepEqual(native[3].moves[0], SECOND, "the native bot's second suggestion");
assert.equal(native[0].version, "0.1.0 (weights/versus/hand.toml)");

const server = await serve(playground);
const browser = await launch();
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}tbp-worker.js`);
  // The worker's messages until it has sent `count` (or 20 s), then 300 ms more for strays;
  // or the error event's message.
  const talk = (script, messages, count) =>
    page.evaluate(
      ([script, messages, count]) =>
        new Promise((resolve) => {
          const worker = new Worker(script, { type: "module" });
          const got = [];
          const done = () => setTimeout(() => resolve({ got }), 300);
          const timer = setTimeout(() => resolve({ got, timeout: true }), 20000);
          worker.onmessage = (event) => {
            got.push(event.data);
            if (got.length === count) clearTimeout(timer), done();
          };
          worker.onerror = (event) => resolve({ got, error: event.message });
          for (const m of messages) worker.postMessage(m);
        }),
      [script, messages, count],
    );

  const worker = await talk("tbp-worker.js", conversation, shipped.length);
  assert.deepEqual(worker, { got: shipped }, "the worker answers as the native bot does");
  console.log(`ok: the worker's ${shipped.length} answers equal native stacktune tbp's`);

  const url = `data:text/plain,${encodeURIComponent(hand)}`;
  const byUrl = await talk(`tbp-worker.js?weights=${encodeURIComponent(url)}`, conversation,
    native.length);
  assert.equal(byUrl.got.length, native.length, JSON.stringify(byUrl));
  assert.equal(byUrl.got[0].version, `0.1.0 (${url})`);
  assert.deepEqual(byUrl.got.slice(1), native.slice(1), "the hand-set weights by URL play alike");
  console.log("ok: the weights given by URL answer alike");

  const missing = await talk("tbp-worker.js?weights=missing.toml", [], 1);
  const error = "Uncaught Error: weights file missing.toml: 404 Not Found";
  assert.deepEqual(missing, { got: [], error });
  const notWeights = await talk("tbp-worker.js?weights=index.html", [], 1);
  assert.equal(notWeights.got.length, 0);
  assert.match(notWeights.error, /^Uncaught Error: weights file index\.html: [^\n]+$/);
  console.log(`ok: a missing or malformed weights file is one line (${notWeights.error})`);
} finally {
  await browser.close();
  server.close();
}
