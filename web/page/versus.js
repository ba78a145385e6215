// The playground's Puyo match (docs/web.md): the player on the page against another (a
// shipped match player, a classmate's from their share link, or a weights file), a match of
// paired games under Tsu's battle rules played by the library's own match (`PuyoMatch`, what
// `stacktune versus` plays) in a worker of its own (versus-worker.js), so the page stays
// responsive; its score as `versus` prints it, and any game replayed with both fields by the
// report page's replay (report.js, its `puyo-match` mode).
import * as st from "./stacktune_web.js";
import { t, translate } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const match = {
  // What the playground lends: {module, say, guarded, yours(best), linkWeights(params),
  // linkTo(toml, prefix), offerLink(url, shown, key)}.
  host: null,
  shipped: [], // [{name, text}]: the shipped match players, compiled into the module
  file: null, // {name, text}: the weights file loaded as the opponent
  worker: null,
  id: 0, // the match the worker's answers must belong to
  running: false,
  report: null, // the last report (versus --json's), shown again in another language
  outcomes: [],
  total: 0,
};

// The match section, wired; `host` lends the playground's own helpers.
export function setupMatch(host) {
  match.host = host;
  match.shipped = JSON.parse(st.shipped_players());
  const options = match.shipped.map((p) => p.name).concat(["link", "file"]);
  $("match-opponent").replaceChildren(
    ...options.map((value) => {
      const option = new Option(t(`match.opponent.${value}`), value);
      option.dataset.i18n = `match.opponent.${value}`;
      return option;
    }),
  );
  $("match-opponent").addEventListener("change", showChoice);
  $("match-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const text = await file.text();
    host.guarded(() => {
      check({ name: file.name, text });
      match.file = { name: file.name, text };
      $("match-file-name").textContent = file.name;
    });
  });
  $("match-play").addEventListener("click", () => host.guarded(play));
  $("match-challenge").addEventListener("click", () =>
    host.guarded(() => {
      const mine = host.yours($("match-mine").value === "best");
      return host.offerLink(host.linkTo(mine.text, "v"), $("match-challenge-link"), "match.challenge");
    }),
  );
  $("match-stop").addEventListener("click", stop);
  $("match-replay").addEventListener("click", () => host.guarded(replay));
  $("lang").addEventListener("change", showResult);
  showChoice();
}

// Shown on the Puyo Tsu game only, the one whose rules are the battle's.
export function showMatch(shown) {
  $("match").hidden = !shown;
}

// A link that sets the opponent (`#p=puyo-tsu&vn=BYTES&vw=TOML`, the share link's `n` and `w`
// under these names, as "Copy a link to challenge your player" makes it): the opponent becomes
// that player; a link that does not read is said.
export function openMatchLink(params) {
  if (!params.has("vw")) return;
  const bytes = params.has("vn") ? `&n=${encodeURIComponent(params.get("vn"))}` : "";
  $("match-opponent").value = "link";
  $("match-link").value = `${location.href.split("#")[0]}#p=puyo-tsu${bytes}&w=${encodeURIComponent(params.get("vw"))}`;
  showChoice();
  match.host.guarded(() => check(opponent()));
}

function showChoice() {
  const choice = $("match-opponent").value;
  $("match-link-row").hidden = choice !== "link";
  $("match-file-row").hidden = choice !== "file";
}

// The opponent chosen, {name, text}; a link that does not read throws its one line.
function opponent() {
  const choice = $("match-opponent").value;
  if (choice === "file") {
    if (!match.file) throw new Error(t("match.error.file"));
    return match.file;
  }
  if (choice !== "link") return match.shipped.find((p) => p.name === choice);
  const link = $("match-link").value.trim();
  try {
    const player = { name: "their-player.toml", text: match.host.linkWeights(new URLSearchParams(link.split("#")[1] ?? "")) };
    check(player);
    return player;
  } catch (error) {
    throw new Error(t("error.link.weights", { error: error.message ?? String(error) }));
  }
}

// A match's players and settings read as the worker will read them: a bad one is its one line
// now (the library's), before any game.
function check(them, mine = match.host.yours(false)) {
  new st.PuyoMatch(mine.name, mine.text, them.name, them.text, "2", "0").free();
}

// The match asked for: [first's name, its text, second's name, its text, games, seed], read
// once here, so that a bad one is its one line before the worker is asked.
function args() {
  const mine = match.host.yours($("match-mine").value === "best");
  const them = opponent();
  const given = [mine.name, mine.text, them.name, them.text, $("match-games").value, $("match-seed").value];
  new st.PuyoMatch(...given).free();
  return given;
}

function play() {
  if (match.running) return;
  const given = args();
  if (!match.worker) {
    match.worker = new Worker(new URL("versus-worker.js", import.meta.url), { type: "module" });
    match.worker.postMessage({ type: "init", module: match.host.module });
    match.worker.onerror = (event) => {
      finish();
      match.host.say(event.message || "the match's worker failed to start");
    };
  }
  const id = ++match.id;
  match.worker.onmessage = ({ data }) => {
    if (data.id !== match.id) return;
    if (data.type === "error") {
      finish();
      match.host.say(data.message);
    } else if (data.type === "played") {
      match.report = JSON.parse(data.report);
      match.total = data.total;
      $("match-progress").max = data.total;
      $("match-progress").value = data.done;
      showResult();
    } else if (data.type === "done") {
      match.outcomes = JSON.parse(data.outcomes);
      finish();
      showResult();
    } else if (data.type === "replay") {
      showReplays($("match-replay-box"), JSON.parse(data.replays));
    }
  };
  match.running = true;
  match.report = null;
  match.outcomes = [];
  $("match-progress").value = 0;
  showResult();
  buttons();
  match.worker.postMessage({ type: "play", id, args: given });
}

// Stops the match at once: its worker ends, the games so far stay counted.
function stop() {
  if (!match.running) return;
  match.worker.terminate();
  match.worker = null;
  finish();
  showResult();
}

function finish() {
  match.running = false;
  buttons();
}

function buttons() {
  $("match-play").disabled = match.running;
  $("match-stop").disabled = !match.running;
}

// The score as `versus` prints it (three decimals, the 95 % interval over pairs), and the
// games to replay once the match is over.
function showResult() {
  const r = match.report;
  const box = $("match-result");
  box.textContent = r
    ? t(match.running || r.games === match.total ? "match.result" : "match.stopped", {
        first: r.first,
        second: r.second,
        games: r.games,
        total: match.total,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        score: r.score.toFixed(3),
        low: r.score_ci[0].toFixed(3),
        high: r.score_ci[1].toFixed(3),
      })
    : "";
  box.dataset.report = r && !match.running ? JSON.stringify(r) : "";
  const games = $("match-game");
  games.replaceChildren(
    ...match.outcomes.map((g, k) =>
      new Option(t(`match.game.${g.outcome}`, { k, side: t(g.left ? "match.left" : "match.right"), reason: g.reason }), String(k)),
    ),
  );
  $("match-games-row").hidden = match.outcomes.length === 0;
}

function replay() {
  match.worker.postMessage({ type: "replay", id: match.id, k: Number($("match-game").value) });
}

// The report page's replay of `replays` in `box`. report.js drives the replay's elements by
// their ids, so the page holds one: the one shown before (here or under Watch) is stopped and
// taken away, and a fresh copy of the template takes its place.
export function showReplays(box, replays) {
  const old = $("replay");
  if (old) {
    // Its timer looks its elements up by id: stopped first, it leaves the new one alone.
    const button = old.querySelector("#play");
    if (button && button.textContent === (window.REPORT_WORDS?.pause || "pause")) button.click();
    old.remove();
  }
  const fresh = $("replay-template").content.firstElementChild.cloneNode(true);
  translate(fresh);
  box.replaceChildren(fresh);
  DATA.replays = replays; // report.js's data, which its replay reads
  startReplays();
}
