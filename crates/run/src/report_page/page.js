// The report page's script: the charts (SVG) and the replay (canvas), drawn from the JSON the
// page embeds. No library and no request: everything is in this file and the page.
"use strict";

const DATA = JSON.parse(document.getElementById("data").textContent);
const SVG = "http://www.w3.org/2000/svg"; // the SVG namespace's name, not an address to fetch

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Text for innerHTML: names and paths come from the run (a weights file's path may hold "<").
function esc(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// The words the page shows, in English. A page that embeds this script may lay its own over
// them as window.REPORT_WORDS (the playground's Japanese); `{name}` is filled in from `vars`.
const REPORT_WORDS_EN = {
  generation: "generation",
  "generation.n": "generation {n}",
  best: "best",
  mean: "mean",
  "held-out": "held-out (best weights)",
  "mean-std": "mean ± std",
  "final-best": "final best, held-out",
  baseline: "baseline, held-out",
  "per-game": "{measure} per game",
  rating: "rating (Elo above {anchor})",
  "weight-axis": "weight (unit vector)",
  game: "game {n}",
  play: "play",
  pause: "pause",
  piece: "piece", pair: "pair", next: "next", current: "current", hold: "hold", "to move": "to move",
  left: "left", right: "right",
  chain: "{n}-chain",
  "chain-fired": "chain {n}!",
  line: "{n} line",
  lines: "{n} lines",
  column: "{who} in column {c}",
  "in-a-row": "{who} has {n} in a row",
  status: "move {moves} of {total} · {score} so far: {value}",
  "which.held-out": "Held-out game {game} of {command}: the same game, move for move, that this command plays as its game {game}.",
  "which.game": "Game {game} of {command}: the same game, move for move, that this command plays as its game {game}.",
  mismatch: "MISMATCH: this page's play-back differs from the recorded game after move {move} ({fails} of {checks} checks fail). Please report it.",
  "checked.every": "Checked: the board this page plays back matches the board the program had after every {every}th move and after the last move stored ({checks} checks).",
  "checked.last": "Checked: the board this page plays back matches the board the program had after the last move stored.",
  "capped.end": "This page stores the first {stored} moves only (the cap is {cap}); the game went on to {count} moves and ended with {score}.",
  "capped.end.turns": "This page stores the first {stored} moves only (the cap is {cap}); the game went on to its turn limit of {count} moves and ended with {score}.",
  "turn-limit": "Reached the turn limit after {count} moves: {score}.",
  "move-limit": "The game stopped at its limit of {limit} moves (--max-pieces): {score}.",
  "game-over": "Game over after {count} moves: {score}.",
  "nuisance-fell": "{n} nuisance fell",
  nuisance: "nuisance: {pending} coming, {fixed} to fall",
  points: "points: {points}",
  frame: "frame {frame}",
  capped: "This page stores the first {stored} of the game's {count} moves.",
};

function w(key, vars = {}) {
  const text = (window.REPORT_WORDS && window.REPORT_WORDS[key]) || REPORT_WORDS_EN[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

function fmt(x, digits) {
  if (x === null || x === undefined) return "–";
  return Number(x).toLocaleString("en-US", { maximumFractionDigits: digits });
}

// ---------------------------------------------------------------- charts

// A line chart over generations: `series` are {name, values, colour, dots}; `band` a
// {lo, hi, name}; `levels` horizontal lines {name, y, colour}. Hovering shows every value of
// the nearest generation.
// `width` is the chart's width in the page's pixels (900 unless given), so that its text keeps
// its size on a narrow screen.
function lineChart(box, xs, series, band, levels, yLabel, digits, width) {
  const W = width || 900, H = W < 600 ? 300 : 360, L = W < 600 ? 56 : 70, R = 20, T = 15, B = 40;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, box);
  const all = [];
  for (const s of series) for (const v of s.values) if (v !== null) all.push(v);
  if (band) for (let i = 0; i < xs.length; i++) all.push(band.lo[i], band.hi[i]);
  for (const l of levels) all.push(l.y);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  // Round numbers for the ticks: steps of 1, 2 or 5 times a power of ten.
  const raw = (hi - lo) / 5, power = Math.pow(10, Math.floor(Math.log10(raw)));
  const tick = [1, 2, 5, 10].map((m) => m * power).find((t) => t >= raw);
  lo = Math.floor(lo / tick) * tick;
  hi = Math.ceil(hi / tick) * tick;
  const x0 = xs[0], x1 = xs.length > 1 ? xs[xs.length - 1] : xs[0] + 1;
  const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - R);
  const Y = (y) => T + (hi - y) / (hi - lo) * (H - T - B);
  // Axes and ticks.
  el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#444" }, svg);
  el("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#444" }, svg);
  for (let y = lo; y <= hi + tick / 2; y += tick) {
    el("line", { x1: L, y1: Y(y), x2: W - R, y2: Y(y), stroke: "#eee" }, svg);
    const t = el("text", { x: L - 6, y: Y(y) + 4, "text-anchor": "end", "font-size": 11 }, svg);
    t.textContent = fmt(y, digits);
  }
  const step = Math.max(1, Math.ceil(xs.length / 10));
  for (let i = 0; i < xs.length; i += step) {
    const t = el("text", { x: X(xs[i]), y: H - B + 16, "text-anchor": "middle", "font-size": 11 }, svg);
    t.textContent = xs[i];
  }
  el("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, svg)
    .textContent = w("generation");
  el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 12,
    transform: `rotate(-90 14 ${(T + H - B) / 2})` }, svg).textContent = yLabel;
  if (band) {
    let d = "";
    xs.forEach((x, i) => { d += (i ? "L" : "M") + X(x) + " " + Y(band.hi[i]); });
    for (let i = xs.length - 1; i >= 0; i--) d += "L" + X(xs[i]) + " " + Y(band.lo[i]);
    el("path", { d: d + "Z", fill: "#4a78c2", "fill-opacity": 0.15, stroke: "none" }, svg);
  }
  for (const l of levels) {
    el("line", { x1: L, y1: Y(l.y), x2: W - R, y2: Y(l.y), stroke: l.colour,
      "stroke-dasharray": "6 4", "stroke-width": 1.5 }, svg);
  }
  for (const s of series) {
    let d = "";
    let pen = false;
    s.values.forEach((v, i) => {
      if (v === null) return;
      d += (pen ? "L" : "M") + X(xs[i]) + " " + Y(v);
      pen = true;
    });
    el("path", { d, fill: "none", stroke: s.colour, "stroke-width": s.width || 2 }, svg);
    if (s.dots) {
      s.values.forEach((v, i) => {
        if (v !== null) {
          el("circle", { cx: X(xs[i]), cy: Y(v), r: 3, fill: s.colour, class: "pt",
            "data-series": s.key, "data-generation": xs[i] }, svg);
        }
      });
    }
  }
  // Hover: the nearest generation's values.
  const cursor = el("line", { y1: T, y2: H - B, stroke: "#888", visibility: "hidden" }, svg);
  const tip = document.createElement("div");
  tip.className = "tip";
  box.appendChild(tip);
  const hit = el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "transparent" }, svg);
  hit.addEventListener("mousemove", (ev) => {
    const r = svg.getBoundingClientRect();
    const gx = (ev.clientX - r.left) / r.width * W;
    let i = 0;
    for (let k = 1; k < xs.length; k++) if (Math.abs(X(xs[k]) - gx) < Math.abs(X(xs[i]) - gx)) i = k;
    cursor.setAttribute("x1", X(xs[i]));
    cursor.setAttribute("x2", X(xs[i]));
    cursor.setAttribute("visibility", "visible");
    let html = `<b>${esc(w("generation.n", { n: xs[i] }))}</b>`;
    for (const s of series) if (s.values[i] !== null) html += `<br>${esc(s.name)}: ${fmt(s.values[i], digits)}`;
    if (band) html += `<br>${esc(band.name)}: ${fmt(band.lo[i], digits)} – ${fmt(band.hi[i], digits)}`;
    for (const l of levels) html += `<br>${esc(l.name)}: ${fmt(l.y, digits)}`;
    tip.innerHTML = html;
    tip.style.display = "block";
    const px = (ev.clientX - r.left) + 14;
    tip.style.left = Math.min(px, r.width - tip.offsetWidth - 4) + "px";
    tip.style.top = (ev.clientY - r.top + 10) + "px";
  });
  hit.addEventListener("mouseleave", () => {
    tip.style.display = "none";
    cursor.setAttribute("visibility", "hidden");
  });
  const legend = document.createElement("p");
  legend.className = "legend";
  const item = (name, colour) => `<span><i style="background:${colour}"></i>${esc(name)}</span>`;
  legend.innerHTML = series.map((s) => item(s.name, s.colour)).join("") +
    (band ? item(band.name, "rgba(74,120,194,0.3)") : "") +
    levels.map((l) => item(l.name, l.colour)).join("");
  box.appendChild(legend);
}

const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
  "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363", "#9c9ede", "#cedb9c", "#e7ba52"];

// A match score against the anchors as the logistic Elo difference it stands for (clamped
// as the program clamps it), so held-out scores share a rating run's axis.
function eloOf(score) {
  if (score === null || score === undefined) return score;
  const s = Math.min(0.999, Math.max(0.001, score));
  return -400 * Math.log10(1 / s - 1);
}

function drawRunCharts(run) {
  const h = run.history;
  if (h.length === 0) return;
  const xs = h.map((r) => r.generation);
  const width = run.width;
  const held = run.rating ? eloOf : (v) => v;
  const levels = [];
  if (run.final_summary) {
    levels.push({ name: w("final-best"), y: held(run.final_summary.best.mean), colour: "#2ca02c" });
  }
  if (run.final_summary && run.final_summary.baseline) {
    levels.push({ name: w("baseline"), y: held(run.final_summary.baseline[1].mean), colour: "#d62728" });
  }
  lineChart(document.getElementById("fitness-chart"), xs, [
    { key: "best", name: w("best"), values: h.map((r) => r.best), colour: "#1f3f8f", dots: true },
    { key: "mean", name: w("mean"), values: h.map((r) => r.mean), colour: "#4a78c2" },
    { key: "held-out", name: w("held-out"), values: h.map((r) => held(r.validation)), colour: "#e08a00", dots: true },
  ], { name: w("mean-std"), lo: h.map((r) => r.mean - r.std), hi: h.map((r) => r.mean + r.std) },
  levels, run.rating ? w("rating", { anchor: run.rating.replace(/`/g, "") }) : w("per-game", { measure: run.measure }), 1, width);
  lineChart(document.getElementById("weights-chart"), xs, run.features.map((name, f) => ({
    key: "w-" + name, name, values: h.map((r) => r.best_weights[f]), colour: PALETTE[f % PALETTE.length], width: 1.5,
  })), null, [], w("weight-axis"), 3, width);
}

// ---------------------------------------------------------------- replay rules

// Each game plays a recorded move on a grid of characters, TOP row first, "." empty; `cells`
// are what the page draws, `rows()` what it compares with the recorded boards.
function grid(rows) { return rows.map((r) => r.split("")); }
function copyGrid(g) { return g.map((r) => r.slice()); }
function removeFull(g) {
  const kept = g.filter((r) => r.some((c) => c === "."));
  const cleared = g.length - kept.length;
  const w = g[0].length;
  while (kept.length < g.length) kept.unshift(new Array(w).fill("."));
  return { grid: kept, cleared };
}

const RULES = {
  // Research Tetris: [orientation, column, bottom row, piece drawn]; the piece's picture is
  // placed with its bottom row there, and full rows go unless the piece topped out.
  tetris: {
    start(setup, board, pieces) { return { g: grid(board), queue: pieces.split("") }; },
    play(setup, s, step) {
      const [o, col, bottom, drawn] = step;
      const piece = s.queue[0];
      const picture = setup.shapes[piece][o];
      const g = copyGrid(s.g), H = setup.height;
      let topout = false;
      picture.forEach((line, t) => {
        const y = bottom + picture.length - 1 - t;
        line.split("").forEach((ch, dx) => {
          if (ch !== "#") return;
          if (y >= H) { topout = true; return; }
          g[H - 1 - y][col + dx] = piece;
        });
      });
      const out = topout ? { grid: g, cleared: 0 } : removeFull(g);
      return { g: out.grid, queue: s.queue.slice(1).concat([drawn]), note: out.cleared ? w(out.cleared > 1 ? "lines" : "line", { n: out.cleared }) : "" };
    },
    rows(s) { return s.g.map((r) => r.map((c) => (c === "." ? "." : "#")).join("")); },
    pieces(s) { return chip("piece", s.queue.slice(0, 1)) + (s.queue.length > 1 ? chip("next", s.queue.slice(1)) : ""); },
  },
  // Contest Tetris: [hold, state (-1: into an empty hold), x, y, piece drawn, fresh board];
  // cells are (dx, dy) from the reference point with y down; a game over brings a fresh board.
  contest: {
    start(setup, board, p) { return { g: grid(board), cur: p.current, hold: p.hold, next: p.next.split("") }; },
    play(setup, s, step) {
      const [hold, state, x, y, drawn, fresh] = step;
      let piece = s.cur, held = s.hold;
      if (hold) {
        if (held === "-") { held = piece; piece = null; } else { [held, piece] = [piece, held]; }
      }
      let g = copyGrid(s.g), note = hold ? "hold" : "";
      if (piece !== null && state >= 0) {
        for (const [dx, dy] of setup.shapes[piece][state]) g[y + dy][x + dx] = piece;
        const out = removeFull(g);
        g = out.grid;
        if (out.cleared) note = w(out.cleared > 1 ? "lines" : "line", { n: out.cleared });
      }
      if (fresh !== 0) { g = grid(fresh); note = "game over: a fresh board"; }
      return { g, cur: s.next[0], hold: held, next: s.next.slice(1).concat([drawn]), note };
    },
    rows(s) { return s.g.map((r) => r.map((c) => (c === "." ? "." : "#")).join("")); },
    pieces(s) { return chip("current", [s.cur]) + chip("hold", s.hold === "-" ? [] : [s.hold]) + chip("next", s.next); },
  },
  // Guideline Tetris: [hold, rotation, x, y, spin, pieces revealed, garbage holes or 0]; cells
  // are (dx, dy) from the piece's centre with y up; the garbage rows that rose after the move
  // come in at the bottom, top row first, each full but for its hole. Only the 20 visible rows
  // and two above are drawn.
  guideline: {
    start(setup, board, p) { return { g: grid(board), cur: p.current, hold: p.hold, next: p.next.split(""), setup }; },
    play(setup, s, step) {
      const [hold, rot, x, y, spin, revealed, holes] = step;
      const next = s.next.slice();
      let piece = s.cur, held = s.hold;
      if (hold) {
        if (held === "-") { held = piece; piece = next.shift(); } else { [held, piece] = [piece, held]; }
      }
      const H = setup.height, g = copyGrid(s.g);
      for (const [dx, dy] of setup.shapes[piece][rot]) g[H - 1 - (y + dy)][x + dx] = piece;
      const out = removeFull(g);
      let rows = out.grid;
      if (holes !== 0) {
        const risen = holes.map((h) => Array.from({ length: setup.width }, (_, c) => (c === h ? "." : "G")));
        rows = rows.slice(risen.length).concat(risen);
      }
      const kind = ["", "single", "double", "triple", "tetris"][out.cleared];
      const note = (spin !== "none" ? `T-spin ${spin === "mini" ? "mini " : ""}` : "") + kind +
        (holes !== 0 ? `${kind || spin !== "none" ? "; " : ""}${holes.length} garbage` : "");
      return { g: rows, cur: next.shift(), hold: held, next: next.concat(revealed.split("")), note, setup };
    },
    rows(s) { return s.g.map((r) => r.map((c) => (c === "." ? "." : "#")).join("")); },
    view(s) { return s.g.slice(s.g.length - s.setup.visible - 2); },
    pieces(s) { return chip("current", [s.cur]) + chip("hold", s.hold === "-" ? [] : [s.hold]) + chip("next", s.next); },
  },
  // A versus match: both sides' guideline boards side by side, [left step, right step] a tick.
  match: {
    start(setup, board, p) {
      const half = (from) => board.map((r) => r.slice(from, from + setup.width));
      return { sides: [RULES.guideline.start(setup, half(0), p.left), RULES.guideline.start(setup, half(setup.width), p.right)] };
    },
    play(setup, s, step) {
      const sides = [0, 1].map((i) => RULES.guideline.play(setup, s.sides[i], step[i]));
      const note = ["left", "right"].map((n, i) => (sides[i].note ? `${n}: ${sides[i].note}` : "")).filter((t) => t).join(" · ");
      return { sides, note };
    },
    rows(s) { const [l, r] = s.sides.map(RULES.guideline.rows); return l.map((row, i) => row + r[i]); },
    view(s) { const [l, r] = s.sides.map(RULES.guideline.view); return l.map((row, i) => row.concat(["|"], r[i])); },
    pieces(s) { return ["left", "right"].map((n, i) => `<p><b>${esc(w(n))}</b></p>` + RULES.guideline.pieces(s.sides[i])).join(""); },
  },
  // Puyo: [column, rotation, pair drawn]; both puyos fall, then groups of four or more in the
  // visible rows pop and the rest falls, step by step (each step is kept to be shown).
  puyo: {
    start(setup, board, pieces) { return { g: grid(board), queue: pieces.slice() }; },
    play(setup, s, step) {
      const [x, r, drawn] = step;
      const H = setup.height, W = setup.width, pair = s.queue[0];
      const g = copyGrid(s.g);
      const at = (cx, y) => g[H - 1 - y][cx];
      const put = (cx, y, c) => { g[H - 1 - y][cx] = c; };
      const height = (cx) => { let y = 0; while (y < H && at(cx, y) !== ".") y++; return y; };
      const c = x + [1, 0, -1, 0][r];
      const [axis, child] = [pair[0], pair[1]];
      if (c === x) {
        const [lower, upper] = r === 3 ? [child, axis] : [axis, child];
        const h = height(x);
        if (h < H) put(x, h, lower);
        if (h + 1 < H) put(x, h + 1, upper);
      } else {
        const hx = height(x), hc = height(c);
        if (hx < H) put(x, hx, axis);
        if (hc < H) put(c, hc, child);
      }
      const frames = [{ g: copyGrid(g), pop: [] }];
      let chain = 0;
      for (;;) {
        const pop = [];
        const seen = new Set();
        for (let y = 0; y < setup.visible; y++) {
          for (let cx = 0; cx < W; cx++) {
            const colour = at(cx, y);
            if (colour === "." || colour === "o" || seen.has(cx + "," + y)) continue;
            const group = [], todo = [[cx, y]];
            seen.add(cx + "," + y);
            while (todo.length) {
              const [px, py] = todo.pop();
              group.push([px, py]);
              for (const [nx, ny] of [[px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]]) {
                if (nx < 0 || nx >= W || ny < 0 || ny >= setup.visible) continue;
                if (seen.has(nx + "," + ny) || at(nx, ny) !== colour) continue;
                seen.add(nx + "," + ny);
                todo.push([nx, ny]);
              }
            }
            if (group.length >= 4) pop.push(...group);
          }
        }
        if (pop.length === 0) break;
        // Visible nuisance beside a popping group pops with it.
        for (const [px, py] of pop.slice()) {
          for (const [nx, ny] of [[px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]]) {
            if (nx < 0 || nx >= W || ny < 0 || ny >= setup.visible || at(nx, ny) !== "o") continue;
            if (pop.some(([qx, qy]) => qx === nx && qy === ny)) continue;
            pop.push([nx, ny]);
          }
        }
        chain++;
        frames.push({ g: copyGrid(g), pop: pop.map(([px, py]) => [px, H - 1 - py]), chain });
        for (const [px, py] of pop) put(px, py, ".");
        for (let cx = 0; cx < W; cx++) {
          const column = [];
          for (let y = 0; y < H; y++) if (at(cx, y) !== ".") column.push(at(cx, y));
          for (let y = 0; y < H; y++) put(cx, y, y < column.length ? column[y] : ".");
        }
        frames.push({ g: copyGrid(g), pop: [], chain });
      }
      return { g, queue: s.queue.slice(1).concat(drawn ? [drawn] : []), chain, frames: chain ? frames : null,
        note: chain ? w("chain", { n: chain }) : "" };
    },
    rows(s) { return s.g.map((r) => r.join("")); },
    pieces(s) { return chip("pair", s.queue.slice(0, 1)) + (s.queue.length > 1 ? chip("next", s.queue.slice(1)) : ""); },
  },
  // A Puyo match: both sides' fields side by side, a step a frame at which something changed:
  // [left, right, [frame, left's state, right's state]]; a side's move is 0, a placement as
  // puyo's, or {drop: nuisance a column} landing on top; a state is [nuisance pending,
  // nuisance fixed, points, chain steps popped].
  "puyo-match": {
    start(setup, board, p) {
      const half = (from) => board.map((r) => r.slice(from, from + setup.width));
      const sides = [RULES.puyo.start(setup, half(0), p.left), RULES.puyo.start(setup, half(setup.width), p.right)];
      return { sides, states: [[0, 0, 0, 0], [0, 0, 0, 0]], frame: 0 };
    },
    play(setup, s, step) {
      const sides = [0, 1].map((i) => {
        const side = s.sides[i], mv = step[i];
        if (Array.isArray(mv)) return RULES.puyo.play(setup, side, mv);
        if (mv === 0) return { g: side.g, queue: side.queue, note: "" };
        const g = copyGrid(side.g), H = setup.height;
        mv.drop.forEach((n, x) => {
          let y = 0;
          while (y < H && g[H - 1 - y][x] !== ".") y++;
          for (let k = 0; k < n; k++) g[H - 1 - y - k][x] = "o";
        });
        const fell = mv.drop.reduce((a, b) => a + b, 0);
        return { g, queue: side.queue, note: w("nuisance-fell", { n: fell }) };
      });
      const [frame, ...states] = step[2];
      // A chain fired on one side is shown step by step, the other field as it is.
      const firing = sides.findIndex((side) => side.frames);
      const both = (i, g) => g.map((row, r) => (i === 0 ? row.concat(["|"], sides[1].g[r]) : sides[0].g[r].concat(["|"], row)));
      const frames = firing < 0 ? null : sides[firing].frames.map((f) => ({ g: both(firing, f.g),
        pop: f.pop.map(([x, r]) => [x + firing * (setup.width + 1), r]), chain: f.chain }));
      const note = [w("frame", { frame })].concat(["left", "right"].map((n, i) => (sides[i].note ? `${w(n)}: ${sides[i].note}` : "")))
        .filter((t) => t).join(" · ");
      return { sides, states, frame, frames, note };
    },
    rows(s) { const [l, r] = s.sides.map(RULES.puyo.rows); return l.map((row, i) => row + r[i]); },
    view(s) { return s.sides[0].g.map((row, i) => row.concat(["|"], s.sides[1].g[i])); },
    pieces(s) {
      return ["left", "right"].map((n, i) => {
        const [pending, fixed, points, chain] = s.states[i];
        return `<p><b>${esc(w(n))}</b></p>` + RULES.puyo.pieces(s.sides[i]) +
          `<p>${esc(w("nuisance", { pending, fixed }))}</p><p>${esc(w("points", { points: fmt(points, 0) }))}` +
          (chain ? ` · ${esc(w("chain", { n: chain }))}` : "") + "</p>";
      }).join("");
    },
  },
  // Connect-N: [column]; the side to move drops a disc.
  connect: {
    start(setup, board, toMove) { return { g: grid(board), toMove }; },
    play(setup, s, step) {
      const g = copyGrid(s.g);
      const col = step[0];
      let r = g.length - 1;
      while (g[r][col] !== ".") r--;
      g[r][col] = s.toMove;
      const line = fourFrom(g, r, col, setup.inarow);
      return { g, toMove: s.toMove === "X" ? "O" : "X", pop: line || [],
        note: w("column", { who: s.toMove, c: col + 1 }) + (line ? `: ${w("in-a-row", { who: s.toMove, n: setup.inarow })}` : "") };
    },
    rows(s) { return s.g.map((r) => r.join("")); },
    pieces(s) { return chip("to move", [s.toMove]); },
  },
};

// The cells of a line of `n` through (r, c) in the disc's colour, or null.
function fourFrom(g, r, c, n) {
  const me = g[r][c];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const cells = [[c, r]];
    for (const sign of [1, -1]) {
      let rr = r + sign * dr, cc = c + sign * dc;
      while (rr >= 0 && rr < g.length && cc >= 0 && cc < g[0].length && g[rr][cc] === me) {
        cells.push([cc, rr]);
        rr += sign * dr;
        cc += sign * dc;
      }
    }
    if (cells.length >= n) return cells;
  }
  return null;
}

// Tetris pieces by letter ("#": cells the program drew, such as obstacles), Puyo colours by
// digit, Connect-N discs by player.
const COLOURS = {
  I: "#31c7ef", O: "#f7d308", T: "#ad4d9c", S: "#42b642", Z: "#ef2029", L: "#ef7921", J: "#5a65ad",
  "#": "#8a8a8a", 1: "#e0303a", 2: "#2aa84a", 3: "#2f6fe0", 4: "#e8c420", 5: "#9a4ad8",
};
const DISCS = { X: "#e0303a", O: "#e8c420" };
function colourOf(kind, c) {
  return (kind === "connect" ? DISCS[c] : COLOURS[c]) || "#bbb";
}
function chip(label, items) {
  const kind = DATA.replays.length ? DATA.replays[0].setup.kind : "";
  const show = (p) => p.split("").map((c) => `<span style="background:${colourOf(kind, c)}">${c}</span>`).join("");
  return `<p>${esc(w(label))}: ${items.length ? items.map(show).join(" ") : "–"}</p>`; // pieces: letters and digits
}

// ---------------------------------------------------------------- replay player

// Every position of a replay, played back once when it is chosen, with the checks against
// the recorded boards; the controls then only show positions.
function playBack(replay) {
  const rules = RULES[replay.setup.kind];
  const states = [rules.start(replay.setup, replay.start_board, replay.start_pieces)];
  states[0].score = 0;
  states[0].note = "";
  for (const step of replay.steps) {
    const s = rules.play(replay.setup, states[states.length - 1], step);
    s.score = states[states.length - 1].score + step[step.length - 1];
    states.push(s);
  }
  const mismatches = [];
  for (const [n, rows] of replay.checks) {
    const mine = rules.rows(states[n]);
    if (mine.join("/") !== rows.join("/")) mismatches.push(n);
  }
  return { rules, states, mismatches };
}

function startReplays() {
  const box = document.getElementById("replay");
  if (!DATA.replays.length) { box.hidden = true; return; }
  const select = document.getElementById("replay-game");
  DATA.replays.forEach((r, i) => {
    const o = document.createElement("option");
    o.value = i;
    o.textContent = w("game", { n: r.game }) + (r.versus ? ` (${r.versus})` : "");
    select.appendChild(o);
  });
  const params = new URLSearchParams(location.hash.slice(1));
  const speed = document.getElementById("speed");
  if (params.has("speed")) speed.value = params.get("speed");
  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const status = document.getElementById("replay-status");
  const slider = document.getElementById("slider");
  const button = document.getElementById("play");
  let replay, played, at = 0, timer = null, frames = [], frame = 0;

  function draw(g, pop) {
    const kind = replay.setup.kind, H = g.length, W = g[0].length;
    const size = Math.max(8, Math.min(30, Math.floor(600 / H)));
    canvas.width = W * size;
    canvas.height = H * size;
    ctx.fillStyle = "#111";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const round = kind === "puyo" || kind === "puyo-match" || kind === "connect";
    if ((kind === "puyo" || kind === "puyo-match") && replay.setup.height > replay.setup.visible) {
      ctx.fillStyle = "#2a2a2a"; // the hidden row
      ctx.fillRect(0, 0, canvas.width, size * (replay.setup.height - replay.setup.visible));
    }
    for (let r = 0; r < H; r++) {
      for (let x = 0; x < W; x++) {
        const c = g[r][x];
        if (c === ".") continue;
        ctx.fillStyle = colourOf(kind, c);
        if (round && c !== "|") {
          ctx.beginPath();
          ctx.arc(x * size + size / 2, r * size + size / 2, size / 2 - 1.5, 0, 2 * Math.PI);
          ctx.fill();
        } else {
          ctx.fillRect(x * size + 1, r * size + 1, size - 2, size - 2);
        }
      }
    }
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 3;
    for (const [x, r] of pop) ctx.strokeRect(x * size + 1.5, r * size + 1.5, size - 3, size - 3);
  }

  function show() {
    const s = played.states[at];
    const f = frames[frame];
    draw(f ? f.g : (played.rules.view ? played.rules.view(s) : s.g), f ? f.pop : s.pop || []);
    document.getElementById("pieces").innerHTML = played.rules.pieces(s);
    slider.value = at;
    const total = replay.steps.length;
    const moves = replay.start_moves + at;
    status.textContent = w("status", { moves: moves.toLocaleString("en-US"),
      total: (replay.start_moves + total).toLocaleString("en-US"), score: replay.score_name, value: fmt(s.score, 3) }) +
      (s.note ? ` · ${s.note}` : "") +
      (replay.setup.score ? ` (${replay.setup.score})` : "");
    status.dataset.moves = moves;
    status.dataset.score = s.score;
    status.dataset.done = at === total ? "true" : "false";
    document.getElementById("replay-chain").textContent = f && f.chain ? w("chain-fired", { n: f.chain }) : (s.chain ? w("chain", { n: s.chain }) : "");
    if (at === total) {
      // The rules' own limit (contest Tetris: its turns) ended the game, not a loss.
      const reached = replay.turn_limit !== null && replay.moves >= replay.turn_limit;
      const count = replay.moves.toLocaleString("en-US");
      const score = `${replay.score_name} ${fmt(replay.score, 3)}`;
      const stored = total.toLocaleString("en-US");
      document.getElementById("replay-note").textContent = replay.capped
        ? w(reached ? "capped.end.turns" : "capped.end", { stored, cap: replay.cap.toLocaleString("en-US"), count, score })
        : reached
          ? w("turn-limit", { count, score })
          : replay.limit !== null && replay.moves >= replay.limit
            ? w("move-limit", { limit: replay.limit.toLocaleString("en-US"), score })
            : w("game-over", { count, score });
      if (replay.setup.ending) document.getElementById("replay-note").textContent += ` ${replay.setup.ending}`;
    }
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    button.textContent = w("play");
  }
  function tick() {
    const delay = Number(speed.value);
    if (frame + 1 < frames.length && delay >= 200) {
      frame++;
    } else if (at < replay.steps.length) {
      // As fast as possible: many moves a tick, so a long game ends in seconds.
      at = delay === 0 ? Math.min(replay.steps.length, at + 25) : at + 1;
      const s = played.states[at];
      frames = delay >= 200 && s.frames ? s.frames : [];
      frame = 0;
    }
    show();
    if (at >= replay.steps.length && frame + 1 >= frames.length) { stop(); return; }
    timer = setTimeout(tick, delay);
  }
  function jump(n) {
    at = Math.max(0, Math.min(replay.steps.length, n));
    frames = [];
    frame = 0;
    show();
  }
  function choose(i) {
    stop();
    replay = DATA.replays[i];
    played = playBack(replay);
    slider.max = replay.steps.length;
    const which = document.getElementById("replay-which");
    const command = `<code>${esc(replay.command)}</code>` + (replay.versus ? ` (${esc(replay.versus)})` : "");
    which.innerHTML = esc(w(DATA.history ? "which.held-out" : "which.game", { game: replay.game, command: "\u0000" }))
      .replace("\u0000", command);
    const check = document.getElementById("replay-check");
    if (played.mismatches.length) {
      check.className = "bad";
      check.textContent = w("mismatch", { move: played.mismatches[0], fails: played.mismatches.length,
        checks: replay.checks.length });
    } else {
      check.className = "ok";
      const n = replay.checks.length;
      check.textContent = n > 1 ? w("checked.every", { every: replay.checks[0][0], checks: n }) : w("checked.last");
    }
    check.dataset.mismatches = played.mismatches.length;
    document.getElementById("replay-note").textContent = replay.capped
      ? w("capped", { stored: replay.steps.length.toLocaleString("en-US"), count: replay.moves.toLocaleString("en-US") })
      : "";
    jump(0);
  }

  button.addEventListener("click", () => { if (timer) stop(); else { button.textContent = w("pause"); tick(); } });
  document.getElementById("step").addEventListener("click", () => { stop(); jump(at + 1); });
  document.getElementById("step-back").addEventListener("click", () => { stop(); jump(at - 1); });
  slider.addEventListener("input", () => { stop(); jump(Number(slider.value)); });
  select.addEventListener("change", () => choose(Number(select.value)));
  choose(0);
  // A link may name the move to start from (#move=N), to point someone at a moment.
  if (params.has("move")) jump(Number(params.get("move")) - replay.start_moves);
  button.textContent = w("pause");
  timer = setTimeout(tick, Number(speed.value));
}

if (DATA.history) drawRunCharts(DATA);
startReplays();
