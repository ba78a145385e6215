// The stacktune playground: the page around the WebAssembly module (docs/web.md).
//
// The run is the library's (`Run`, evolve's run stepped by this page): it hands out batches
// of games, a pool of Web Workers plays them (each worker its own instance of the module,
// ranges dealt as workers finish) and the results go back in the batch's order, so a run is
// byte for byte `stacktune evolve`'s with the same config, whatever the number of workers.
// What the user makes (edited weights and settings, the run so far) is kept in this
// browser's localStorage, so a reload or a mistake loses nothing.
import init, * as st from "./stacktune_web.js";
import { LANGUAGES, currentLanguage, meaning, setLanguage, t, translate } from "./i18n.js";
import { openMatchLink, setupMatch, showMatch, showReplays } from "./versus.js";
import { EXAMPLE, commands, definePythonFeature, nameOnly } from "./python-feature.js";

const $ = (id) => document.getElementById(id);
const STORE = "stacktune-playground";

// ---------------------------------------------------------------- what the page holds

const page = {
  module: null, // the compiled module, shared with the workers
  presets: [],
  preset: null, // {id, config, files}
  config: "", // run.toml's text, as the settings box holds it
  info: null, // describe(config): the game, its features, the hand-set weights
  pool: null,
  run: null, // the library's Run, or null
  runWith: null, // {preset, config, files, edited}: what the run was started with
  state: null, // the run's state: history, and at the end its held-out figures and best.toml
  saved: null, // a finished run as stored: its state and history.csv, without a Run
  running: false,
  status: { key: "idle", vars: {} },
  versus: { moves: "", ending: null, busy: false },
  feature: null, // the Python feature the config runs with, {name, code}, or null
};

function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) ?? {};
  } catch {
    return {};
  }
}

function store(patch) {
  try {
    localStorage.setItem(STORE, JSON.stringify({ ...stored(), ...patch }));
  } catch {
    // A full or disabled storage only loses the copy kept for a reload.
  }
}

// The user's edits to a preset: its settings and weights.
function edits(id) {
  return stored().edits?.[id] ?? {};
}

function keepEdits(patch) {
  const all = stored().edits ?? {};
  all[page.preset.id] = { ...all[page.preset.id], ...patch };
  store({ edits: all });
}

// The runs kept in this browser, one per game (preset): {id: {preset, config, files, edited,
// checkpoint, history, state}}. A run kept by an older page (one run, under `run`) joins them.
function keptRuns() {
  const kept = stored();
  if (kept.run && !kept.runs) return { [kept.run.preset]: kept.run };
  return kept.runs ?? {};
}

function keepRun(id, run) {
  const runs = keptRuns();
  if (run) runs[id] = run;
  else delete runs[id];
  store({ runs, run: undefined });
}

// ---------------------------------------------------------------- messages

// The message bar stays in view (playground.css: fixed at the bottom of the window), so a
// message is seen wherever the button that caused it is; a click closes it.
function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
  box.hidden = !text;
}

// Runs `work`, showing its error (the library's one line) instead of throwing it.
async function guarded(work) {
  try {
    say("");
    return await work();
  } catch (error) {
    if (!(error instanceof Stopped)) say(error.message ?? String(error));
    return undefined;
  }
}

function showStatus(key, vars = {}) {
  page.status = { key, vars };
  $("status").textContent = t(key, vars);
}

// The speed line, kept to be said again in another language.
function showRate(rate) {
  page.rate = rate;
  $("rate").textContent = rate
    ? t("status.speed", {
        rate: number(Math.round(rate.placements / rate.seconds), 0),
        workers: rate.workers,
        elapsed: duration(rate.seconds * 1000),
      })
    : "";
}

function duration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? t("duration.s", { s }) : t("duration.min", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
}

function number(x, digits = 3) {
  return Number(x).toLocaleString(currentLanguage() === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: digits });
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// ---------------------------------------------------------------- the pool of workers

class Stopped extends Error {}

// Workers playing a batch's pairs in ranges, each taking the next range as it finishes;
// results come back in the batch's order. stop() ends the workers at once (the batch is
// played again on resume: the run asks for it again).
class Pool {
  constructor(module, size) {
    this.module = module;
    this.size = size;
    this.workers = [];
    this.batches = 0;
    this.fail = null;
    this.python = null; // the Python feature ({name, code}) the batches' game names, if any
    this.numpy = undefined; // whether the workers' Python feature sees numpy's arrays
  }

  start() {
    while (this.workers.length < this.size) {
      const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
      worker.postMessage({ type: "init", module: this.module });
      this.workers.push(worker);
    }
  }

  stop() {
    for (const worker of this.workers) worker.terminate();
    this.workers = [];
    this.numpy = undefined;
    if (this.fail) this.fail(new Stopped("stopped"));
  }

  // Plays every pair of `batch` (JSON); `progress(games, placements)` hears of each range.
  play(batch, progress) {
    this.start();
    const { players, games } = JSON.parse(batch);
    const pairs = players.length * games;
    const ranges = st.chunks(pairs, this.size);
    const id = ++this.batches;
    const parts = new Array(ranges.length / 2);
    let next = 0;
    let done = 0;
    return new Promise((resolve, reject) => {
      this.fail = reject;
      const give = (worker) => {
        if (next < parts.length) {
          const k = next++;
          worker.postMessage({ type: "play", id, k, start: ranges[2 * k], end: ranges[2 * k + 1] });
        }
      };
      for (const worker of this.workers) {
        worker.onmessage = ({ data }) => {
          if (data.id !== id) return;
          if (data.type === "error") {
            this.fail = null;
            reject(new Error(data.message));
            return;
          }
          if (data.type === "python") {
            if (this.numpy !== undefined && this.numpy !== data.numpy) {
              this.fail = null;
              reject(new Error(t("py.mixed")));
            } else if (this.numpy === undefined && !data.numpy) {
              say(t("py.lists"), "info");
            }
            this.numpy = data.numpy;
            return;
          }
          parts[data.k] = data.words;
          done++;
          progress(ranges[2 * data.k + 1] - ranges[2 * data.k], st.placements(data.words));
          if (done === parts.length) {
            this.fail = null;
            const words = new BigUint64Array(parts.reduce((n, p) => n + p.length, 0));
            let at = 0;
            for (const part of parts) {
              words.set(part, at);
              at += part.length;
            }
            resolve(words);
          } else {
            give(worker);
          }
        };
        worker.onerror = (event) => {
          this.fail = null;
          reject(new Error(event.message || "a worker failed to start"));
        };
        worker.postMessage({ type: "batch", id, batch, python: this.python });
        give(worker);
      }
    });
  }
}

// The pool, its workers given `python` ({name, code}), the Python feature of the games it plays.
function pool(python = null) {
  const size = Number($("workers").value);
  if (!page.pool || page.pool.size !== size) {
    if (page.pool) page.pool.stop();
    page.pool = new Pool(page.module, size);
  }
  page.pool.python = python;
  return page.pool;
}

// ---------------------------------------------------------------- the game and its weights

function filesJson(files = page.preset.files) {
  return JSON.stringify(files);
}

function weightsText(weights, source) {
  return st.weights_file(page.config, JSON.stringify(weights), source);
}

// The weights in the editor, {name: number}; a weight that is not a finite number is an
// error naming it, and the editor keeps what was typed.
function editorWeights() {
  const weights = {};
  for (const input of document.querySelectorAll("#weights-table input")) {
    const value = input.value.trim();
    const x = Number(value);
    if (value === "" || !Number.isFinite(x)) {
      input.focus();
      throw new Error(t("error.weight", { name: input.dataset.feature, value }));
    }
    weights[input.dataset.feature] = x;
  }
  return weights;
}

function handWeights() {
  const hand = {};
  for (const name of page.info.tuned) hand[name] = page.info.init?.[name] ?? 0;
  return hand;
}

function fillEditor(weights) {
  const body = $("weights-table").tBodies[0];
  body.replaceChildren();
  for (const name of page.info.tuned) {
    const row = body.insertRow();
    const head = document.createElement("th");
    head.textContent = name;
    row.appendChild(head);
    const input = document.createElement("input");
    input.dataset.feature = name;
    input.inputMode = "decimal";
    input.value = String(weights[name] ?? 0);
    input.addEventListener("input", () => keepEdits({ weights: rawEditor() }));
    row.insertCell().appendChild(input);
    row.insertCell().textContent = name === page.feature?.name ? t("py.meaning") : meaning(page.info.game, name);
  }
}

// The editor's text as typed, kept for a reload even when it is not a number yet.
function rawEditor() {
  const raw = {};
  for (const input of document.querySelectorAll("#weights-table input")) raw[input.dataset.feature] = input.value;
  return raw;
}

// Reads the settings box: the game it describes and the hand-set weights. A bad config is
// one line, and the box keeps its text.
function describe(config) {
  let info = JSON.parse(st.describe(config, filesJson()));
  $("python-feature").hidden = info.game !== "puyo";
  const feature = info.game === "puyo" ? boxFeature() : null;
  if (feature) [config, info] = withFeature(config, feature);
  page.feature = feature;
  page.config = config;
  page.info = info;
  $("versus").hidden = info.game !== "connect";
  $("commands").textContent = commands(info, page.feature).join("\n");
}

async function choosePreset(id) {
  if (page.running) throw new Error(t("error.busy"));
  page.preset = page.presets.find((p) => p.id === id) ?? page.presets[0];
  $("preset").value = page.preset.id;
  $("about").textContent = t(`about.${page.preset.id}`);
  const mine = edits(page.preset.id);
  $("config").value = mine.config ?? page.preset.config;
  showFeatureBox();
  try {
    describe($("config").value);
  } catch (error) {
    // The stored settings no longer read: the preset's own, the stored text kept in the box.
    describe(page.preset.config);
    say(error.message);
  }
  fillEditor({ ...handWeights(), ...(mine.weights ?? {}) });
  store({ preset: page.preset.id });
  forgetRun();
  showStatus("idle");
  try {
    restoreRun();
  } catch (error) {
    say(error.message ?? String(error));
  }
  showRun();
  newVersus();
  showMatch(page.preset.id === "puyo-tsu");
}

// ---------------------------------------------------------------- the run

function progressText(batch, history, generations) {
  const { streams } = JSON.parse(batch);
  if (streams.purpose === "TrainingGames") return "status.generation";
  return history < generations ? "status.validation" : "status.final";
}

async function evolve() {
  page.running = true;
  page.saved = null;
  buttons();
  const started = performance.now();
  let placements = 0;
  try {
    for (;;) {
      const batch = page.run.step();
      if (batch === undefined) break;
      const { players, games } = JSON.parse(batch);
      const total = players.length * games;
      const key = progressText(batch, page.state.history.length, page.state.generations);
      // Generations count from 0, as the charts and history.csv count them.
      const vars = { g: page.state.history.length, last: page.state.generations - 1, total, done: 0 };
      showStatus(key, vars);
      $("progress").max = total;
      $("progress").value = 0;
      const words = await pool(page.runWith.python).play(batch, (played, moves) => {
        vars.done += played;
        placements += moves;
        $("progress").value = vars.done;
        showStatus(key, vars);
        const elapsed = performance.now() - started;
        showRate({ placements, seconds: elapsed / 1000, workers: page.pool.size });
      });
      page.run.played(words);
      refresh();
    }
    refresh();
    showStatus("status.done", { last: page.state.generations - 1, elapsed: duration(performance.now() - started) });
  } catch (error) {
    if (error instanceof Stopped) {
      showStatus("status.stopped", { g: page.state.history.length, last: page.state.generations - 1 });
    } else {
      say(error.message ?? String(error));
    }
  } finally {
    page.running = false;
    buttons();
  }
}

// The run's state after a batch: charts, result, and the copy kept for a reload.
function refresh() {
  const before = page.state?.history.length;
  page.state = JSON.parse(page.run.state());
  if (page.state.history.length !== before || page.state.finish) {
    keepRun(page.runWith.preset, {
      ...page.runWith,
      checkpoint: page.run.checkpoint(),
      history: page.run.history_csv(),
      state: page.state,
    });
  }
  showRun();
}

// The settings box read as the run's config; a box that does not read is an error and
// nothing starts (the last settings that read are not run in its place).
function boxConfig() {
  try {
    describe($("config").value);
  } catch (error) {
    $("config").closest("details").open = true;
    throw new Error(t("error.settings", { error: error.message ?? String(error) }));
  }
  return page.config;
}

// Asks before the run of this game is dropped; true when there is none or the user agrees.
function mayDrop(key) {
  if (!(page.run || page.saved) || !page.state) return true;
  return window.confirm(t(key, { done: page.state.history.length, n: page.state.generations }));
}

function startRun() {
  if (page.running) throw new Error(t("error.busy"));
  let config = boxConfig();
  const weights = editorWeights();
  const files = { ...page.preset.files };
  if (!mayDrop("confirm.replace")) return;
  const hand = handWeights();
  const edited = page.info.tuned.some((name) => weights[name] !== hand[name]);
  if (edited) {
    files["start.toml"] = weightsText(weights, "the stacktune playground's editor");
    config = st.set_init(config, "start.toml");
  }
  dropRun();
  page.run = new st.Run(config, filesJson(files));
  page.runWith = { preset: page.preset.id, config, files, edited, python: page.feature };
  refresh();
  evolve();
}

// Forgets the run in memory; the browser keeps its copy (the last generation's checkpoint).
function forgetRun() {
  if (page.run) page.run.free();
  page.run = null;
  page.runWith = null;
  page.state = null;
  page.saved = null;
}

// Forgets the run of this game, the browser's copy too.
function dropRun() {
  forgetRun();
  keepRun(page.preset.id, null);
}

// This game's run kept in this browser: resumed where it stopped, or its end shown as it was.
function restoreRun() {
  const kept = keptRuns()[page.preset.id];
  if (!kept) return;
  page.runWith = { preset: kept.preset, config: kept.config, files: kept.files, edited: kept.edited, python: kept.python };
  if (kept.state.finish) {
    page.state = kept.state;
    page.saved = kept;
    showStatus("status.restored");
  } else {
    if (kept.python) nameOnly(st, kept.python);
    page.run = st.Run.resume(kept.config, filesJson(kept.files), kept.checkpoint, kept.history);
    page.state = JSON.parse(page.run.state());
    showStatus("status.saved", { g: page.state.history.length, last: page.state.generations - 1 });
  }
  showRun();
}

function historyCsv() {
  return page.run ? page.run.history_csv() : page.saved.history;
}

function bestWeights() {
  const row = page.state.history[page.state.history.length - 1];
  const weights = {};
  page.state.features.forEach((name, i) => {
    weights[name] = row.best_weights[i];
  });
  return weights;
}

function evolvedWeights() {
  // best.toml's weights once the run is over, else the last generation's best.
  if (page.state.finish) return JSON.parse(st.read_weights(page.config, page.state.finish.best_toml));
  return bestWeights();
}

function showRun() {
  const s = page.state;
  const has = s && s.history.length > 0 && page.runWith?.preset === page.preset.id;
  $("charts").hidden = !has;
  $("fitness-chart").replaceChildren();
  $("weights-chart").replaceChildren();
  if (has) {
    const f = s.finish;
    drawRunCharts({
      width: Math.max(280, Math.round($("fitness-chart").clientWidth)),
      history: s.history,
      features: s.features,
      measure: page.info.score,
      final_summary: f && {
        best: f.best,
        baseline: f.baseline && [t("result.hand"), f.baseline],
      },
    });
  }
  const f = has ? s.finish : null;
  $("result").hidden = !f;
  $("downloads").hidden = !has;
  $("download-best").hidden = !f;
  $("download-start").hidden = !(has && page.runWith.edited);
  $("start-note").hidden = !(has && page.runWith.edited);
  $("watch-best").disabled = !has;
  if (f) {
    $("result-measure").textContent = t("result.mean", { measure: page.info.score });
    $("result-tuned").textContent = `${number(f.best.mean)} ± ${number(f.best.ci95)}`;
    $("result-tuned-games").textContent = f.best.games;
    $("result-hand-row").hidden = !f.baseline;
    if (f.baseline) {
      $("result-hand").textContent = `${number(f.baseline.mean)} ± ${number(f.baseline.ci95)}`;
      $("result-hand-games").textContent = f.baseline.games;
      const beats = f.best.mean - f.best.ci95 > f.baseline.mean + f.baseline.ci95;
      const worse = f.best.mean + f.best.ci95 < f.baseline.mean - f.baseline.ci95;
      $("result-verdict").textContent = t(beats ? "result.beats" : worse ? "result.worse" : "result.close");
      $("result-verdict").dataset.beats = beats;
    }
  }
  buttons();
}

function buttons() {
  const running = page.running;
  const unfinished = page.run && !page.state?.finish;
  $("start").disabled = running;
  $("stop").disabled = !running;
  $("resume").disabled = running || !unfinished || page.state?.history === undefined;
  $("discard").disabled = running || !(page.run || page.saved);
  $("preset").disabled = running;
  $("weights-measure").disabled = running;
  $("workers").disabled = running;
}

// ---------------------------------------------------------------- watching and measuring

async function watch(weights, file) {
  // The replay is played here, on the page: its Python feature too (Pyodide loaded for it).
  if (page.feature) await definePythonFeature(st, page.feature);
  const replays = JSON.parse(st.replays(page.config, filesJson(), JSON.stringify(weights), file));
  showReplays($("replay-box"), replays);
}

async function measure() {
  if (page.running) throw new Error(t("error.busy"));
  const weights = editorWeights();
  const batch = st.held_out(page.config, filesJson(), JSON.stringify(weights), page.info.final_games);
  page.running = true;
  buttons();
  try {
    const words = await pool(page.feature).play(batch, () => {});
    const s = JSON.parse(st.summarize(words));
    $("measure-result").textContent = t("measure.result", {
      games: s.games,
      measure: page.info.score,
      mean: number(s.mean),
      ci95: number(s.ci95),
    });
  } finally {
    page.running = false;
    buttons();
  }
}

// ---------------------------------------------------------------- Connect Four against the player

function newVersus() {
  page.versus = { moves: "", ending: null, busy: false };
  if (page.info?.game !== "connect") return;
  if ($("vs-first").value === "it") versusMove("");
  else drawVersus(JSON.parse(st.connect(page.config, "", undefined, 1)));
}

function versusWeights() {
  return $("vs-weights").value === "best" && page.state?.history.length ? evolvedWeights() : editorWeights();
}

// Plays `moves` (the human's move appended) and the player's reply.
function versusMove(moves) {
  const depth = Number($("vs-depth").value);
  const board = JSON.parse(st.connect(page.config, moves, JSON.stringify(versusWeights()), depth));
  page.versus.moves = board.moves;
  page.versus.ending = board.ending;
  drawVersus(board);
}

function drawVersus(board) {
  const canvas = $("vs-board");
  const rows = board.rows.length;
  const columns = board.rows[0].length;
  const size = Math.min(50, Math.floor(Math.min(canvas.parentElement.clientWidth, 350) / columns));
  canvas.width = columns * size;
  canvas.height = rows * size;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#1d3f8f";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  board.rows.forEach((row, r) => {
    row.split("").forEach((cell, c) => {
      ctx.fillStyle = cell === "X" ? "#e0303a" : cell === "O" ? "#e8c420" : "#f4f4f4";
      ctx.beginPath();
      ctx.arc(c * size + size / 2, r * size + size / 2, size / 2 - 4, 0, 2 * Math.PI);
      ctx.fill();
    });
  });
  canvas.dataset.moves = board.moves;
  page.versus.columns = columns;
  let text;
  if (board.ending === "draw") text = t("vs.draw");
  else if (board.ending) text = t(board.reply ? "vs.it-wins" : "vs.you-win");
  else text = (board.reply ? `${t("vs.replied", { c: board.reply })} ` : "") + t("vs.your-turn");
  $("vs-status").textContent = text;
  $("vs-status").dataset.ending = board.ending ?? "";
}

function versusClick(event) {
  if (page.versus.ending || page.versus.busy) return;
  const box = $("vs-board").getBoundingClientRect();
  const column = Math.floor(((event.clientX - box.left) / box.width) * page.versus.columns);
  page.versus.busy = true;
  try {
    versusMove(page.versus.moves + String(column + 1));
  } finally {
    page.versus.busy = false;
  }
}

// ---------------------------------------------------------------- sharing

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// The page's link to the weights file `toml`; with `prefix` "v", to it as a match's opponent.
function linkTo(toml, prefix = "") {
  // n, the weights' length in bytes, tells a link cut short from a whole one.
  const n = new TextEncoder().encode(toml).length;
  return `${location.href.split("#")[0]}#p=${page.preset.id}&${prefix}n=${n}&${prefix}w=${base64url(toml)}`;
}

// Shows `url` in `shown` after the words `${key}.shown`, and copies it, saying `${key}.done`.
async function offerLink(url, shown, key) {
  shown.hidden = false;
  shown.textContent = `${t(`${key}.shown`)} ${url}`;
  try {
    await navigator.clipboard.writeText(url);
    say(t(`${key}.done`), "info");
  } catch {
    // Without clipboard access (a page not served over https or localhost) the link is shown.
  }
}

async function share() {
  const toml = weightsText(editorWeights(), "a stacktune playground link");
  await offerLink(linkTo(toml), $("share-link"), "share");
}

// A link's weights: `#p=PRESET&n=BYTES&w=TOML` (TOML in base64url, BYTES its length), read as
// a loaded weights file is; a link that sets a match's opponent (versus.js: `vn`, `vw`) only
// chooses its game here.
// A link that does not read (cut short, another game's) is said, not passed over.
function openLink(params) {
  if (!params.has("p") && !params.has("w")) return false;
  const preset = page.presets.find((p) => p.id === params.get("p"));
  if (!preset) {
    say(t("error.link.game", { game: params.get("p") ?? "" }));
    return false;
  }
  page.preset = preset;
  return params.has("w") || !params.has("vw");
}

// The weights file the link parameters `params` carry, checked whole (`n`, its length).
function linkWeights(params) {
  const toml = fromBase64url(params.get("w") ?? "");
  const bytes = params.get("n");
  const have = new TextEncoder().encode(toml).length;
  if (bytes !== null && have !== Number(bytes)) throw new Error(t("error.link.short", { have, want: bytes }));
  return toml;
}

function loadLink(params) {
  try {
    loadWeights(linkWeights(params));
  } catch (error) {
    say(t("error.link.weights", { error: error.message ?? String(error) }));
  }
}

function loadWeights(text) {
  const weights = JSON.parse(st.read_weights(page.config, text));
  fillEditor({ ...handWeights(), ...weights });
  keepEdits({ weights: rawEditor() });
}

// ---------------------------------------------------------------- the Puyo match (versus.js)

// Your side of a match, {name, text}: the weights in the table, or with `best` the run's
// evolved ones once there are any, as the weights file their download button gives.
function matchPlayer(best) {
  const evolved = best && page.state?.history.length > 0;
  const weights = evolved ? evolvedWeights() : editorWeights();
  const name = evolved ? "best.toml" : "weights.toml";
  return { name, text: weightsText(weights, "the stacktune playground's editor") };
}

// run.toml as it runs anywhere: the weights files it names are named by their own names and
// downloaded with it, to sit next to it (no path leads out of its folder).
function downloadRun() {
  let config = page.runWith.config;
  const files = [];
  for (const [path, text] of Object.entries(page.runWith.files)) {
    const name = path.split("/").pop();
    if (!config.includes(`"${path}"`)) continue;
    config = config.replaceAll(`"${path}"`, `"${name}"`);
    if (!files.some(([n]) => n === name)) files.push([name, text]);
  }
  download("run.toml", config);
  for (const [name, text] of files) download(name, text);
  if (page.runWith.python) download(`${page.runWith.python.name}.py`, page.runWith.python.code);
  say(t("download.config.note"), "info");
}

// ---------------------------------------------------------------- a feature of one's own in Python

// The feature in the code box, {name, code}, when it is turned on; else null.
function boxFeature() {
  if (!$("py-on").checked) return null;
  return { name: $("py-name").value.trim(), code: $("py-code").value };
}

// `config` with `feature` as its board feature, tuned after the others, and its description:
// the page's instance knows the feature by its name (its function runs in the workers).
function withFeature(config, feature) {
  nameOnly(st, feature);
  const withIt = st.set_board_features(config, JSON.stringify([feature.name]));
  return [withIt, JSON.parse(st.describe(withIt, filesJson()))];
}

function showFeatureBox() {
  const mine = edits(page.preset.id).python ?? { on: false, ...EXAMPLE };
  $("py-on").checked = mine.on;
  $("py-name").value = mine.name;
  $("py-code").value = mine.code;
}

// The code box changed: kept for a reload, and the weights table gains or loses its row.
function featureEdited() {
  keepEdits({ python: { on: $("py-on").checked, name: $("py-name").value, code: $("py-code").value } });
  describe($("config").value);
  fillEditor({ ...handWeights(), ...rawEditor() });
}

function wireFeature() {
  for (const id of ["py-on", "py-name", "py-code"]) $(id).addEventListener("change", () => guarded(featureEdited));
  $("py-download").addEventListener("click", () =>
    download(`${$("py-name").value.trim() || EXAMPLE.name}.py`, $("py-code").value),
  );
}

// ---------------------------------------------------------------- start

function wire() {
  wireFeature();
  $("preset").addEventListener("change", () => guarded(() => choosePreset($("preset").value)));
  $("config").addEventListener("change", () =>
    guarded(() => {
      keepEdits({ config: $("config").value });
      describe($("config").value);
      fillEditor({ ...handWeights(), ...rawEditor() });
    }),
  );
  $("weights-reset").addEventListener("click", () =>
    guarded(() => {
      fillEditor(handWeights());
      keepEdits({ weights: rawEditor() });
    }),
  );
  $("weights-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) {
      const text = await file.text();
      guarded(() => loadWeights(text));
    }
  });
  $("weights-download").addEventListener("click", () =>
    guarded(() => download("weights.toml", weightsText(editorWeights(), "the stacktune playground's editor"))),
  );
  $("weights-share").addEventListener("click", () => guarded(share));
  $("weights-measure").addEventListener("click", () => guarded(measure));
  $("start").addEventListener("click", () => guarded(startRun));
  $("stop").addEventListener("click", () => page.pool?.stop());
  $("resume").addEventListener("click", () => guarded(() => evolve()));
  $("discard").addEventListener("click", () =>
    guarded(() => {
      if (!mayDrop("confirm.discard")) return;
      dropRun();
      showStatus("idle");
      showRun();
    }),
  );
  $("download-best").addEventListener("click", () => download("best.toml", page.state.finish.best_toml));
  $("download-history").addEventListener("click", () => download("history.csv", historyCsv()));
  $("download-config").addEventListener("click", () => guarded(downloadRun));
  $("download-start").addEventListener("click", () => download("start.toml", page.runWith.files["start.toml"]));
  $("use-best").addEventListener("click", () =>
    guarded(() => {
      fillEditor({ ...handWeights(), ...evolvedWeights() });
      keepEdits({ weights: rawEditor() });
    }),
  );
  $("watch-mine").addEventListener("click", () => guarded(() => watch(editorWeights(), "weights.toml")));
  $("watch-best").addEventListener("click", () => guarded(() => watch(evolvedWeights(), "best.toml")));
  $("vs-new").addEventListener("click", () => guarded(newVersus));
  $("vs-first").addEventListener("change", () => guarded(newVersus));
  $("vs-board").addEventListener("click", (event) => guarded(() => versusClick(event)));
  $("message").addEventListener("click", () => say(""));
  $("lang").addEventListener("change", () => {
    setLanguage($("lang").value);
    store({ lang: $("lang").value });
    retranslate();
  });
}

// The charts are drawn at their box's width (their text at its size): again when it changes.
let chartWidth = 0;
function resized() {
  const width = $("fitness-chart").clientWidth;
  if (width && width !== chartWidth && !$("charts").hidden) {
    chartWidth = width;
    showRun();
  }
}

function retranslate() {
  if (page.preset) {
    $("about").textContent = t(`about.${page.preset.id}`);
    for (const option of $("preset").options) option.textContent = t(`preset.${option.value}`);
    const weights = rawEditor();
    fillEditor(weights);
    showRun();
    translate($("replay"));
  }
  showStatus(page.status.key, page.status.vars);
  if (page.rate) showRate(page.rate);
  $("footer").textContent = t("footer", { version: "0.1.0" });
  $("message").title = t("message.close");
}

async function main() {
  const lang = stored().lang ?? (navigator.language.startsWith("ja") ? "ja" : "en");
  for (const [code, name] of Object.entries(LANGUAGES)) $("lang").add(new Option(name, code));
  $("lang").value = lang;
  setLanguage(lang);
  const bytes = await (await fetch(new URL("stacktune_web_bg.wasm", import.meta.url))).arrayBuffer();
  page.module = await WebAssembly.compile(bytes);
  await init({ module_or_path: page.module });
  const cores = Math.max(1, Math.min(16, navigator.hardwareConcurrency || 2));
  for (let n = 1; n <= cores; n++) $("workers").add(new Option(String(n), String(n)));
  $("workers").value = String(cores);
  page.presets = JSON.parse(st.presets());
  $("preset").replaceChildren(...page.presets.map((p) => new Option(t(`preset.${p.id}`), p.id)));
  $("preset").disabled = false;
  wire();
  setupMatch({ module: page.module, say, guarded, yours: matchPlayer, linkWeights, linkTo, offerLink });
  window.addEventListener("resize", resized);
  const params = new URLSearchParams(location.hash.slice(1));
  const linked = openLink(params);
  try {
    await choosePreset(page.preset?.id ?? stored().preset ?? page.presets[0].id);
  } catch (error) {
    say(error.message ?? String(error));
  }
  if (linked) loadLink(params);
  openMatchLink(params);
  retranslate();
}

main();
