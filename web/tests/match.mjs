// The playground's Puyo match (web/page/versus.js) in Debian's chromium, headless (.ci/run's
// web stage):
//   node web/tests/match.mjs PLAYGROUND NATIVE
// PLAYGROUND is web/build.sh's output, NATIVE web/tests/native.sh's (its versus-*.json are
// `stacktune versus --json`'s). Checks:
// - the hand-set player (the Puyo Tsu preset's table) against the shipped versus-selfplay.toml,
//   20 games on seed 7, gives versus.json's report (wins, draws, losses, score and its
//   interval, Elo, pairs, pairs placed, endings, each game's line), and the page prints its
//   score as `versus`;
// - game 1 of it (the sides swapped) replays with both fields to its end, every board the
//   page plays back equal to the game's (0 mismatches);
// - the page opened by a link that sets the opponent (versus-hand.toml's weights under `vn`
//   and `vw`) plays that player: 6 games on seed 3 give versus-link.json's report;
// - "Copy a link to challenge your player" makes a link carrying the table's weights file,
//   which opened makes that player the opponent;
// - a pasted share link cut short, one of another game and a malformed weights file as the
//   opponent are each one line in the message bar, in view, and play nothing;
// - the Japanese page shows no English string of the tables in the match section (its
//   result, its games and the replay's words included);
// - at 360 px the page with the match's replay does not scroll sideways;
// - no console error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { englishLeft, launch, open, serve } from "./browser-harness.mjs";

const [playground, native] = process.argv.slice(2);
if (!playground || !native) {
  console.error("usage: node web/tests/match.mjs PLAYGROUND NATIVE");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const text = (...path) => readFileSync(join(...path), "utf8");

// What the page's report must share with `versus --json`'s: all but the players' names.
const SAME = ["seed", "games", "wins", "draws", "losses", "score", "score_ci", "elo", "elo_ci", "pairs", "pieces", "endings", "by_game"];

// Plays the match the form holds, `games` games on `seed`; the page's report once it is over.
async function playMatch(page, games, seed) {
  await page.fill("#match-games", String(games));
  await page.fill("#match-seed", String(seed));
  await page.click("#match-play");
  await page.waitForSelector("#match-result[data-report^='{']");
  return JSON.parse(await page.getAttribute("#match-result", "data-report"));
}

function sameReport(page, want, what) {
  for (const key of SAME) assert.deepEqual(page[key], want[key], `${what}: ${key}`);
}

// The message bar's one line, in view; the match's result stays the last one.
async function refused(page, what, before) {
  await page.waitForSelector("#message:not([hidden])");
  const said = await page.textContent("#message");
  assert.ok(said.length > 0 && !said.includes("\n"), `${what}: one line: ${JSON.stringify(said)}`);
  const box = await page.evaluate(() => {
    const r = document.getElementById("message").getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });
  assert.ok(box, `${what}: the message is out of view`);
  assert.equal(await page.getAttribute("#match-result", "data-report"), before, `${what}: plays nothing`);
  await page.$eval("#message", (bar) => (bar.hidden = true));
  console.log(`${what}: ${said}`);
}

const server = await serve(playground);
const browser = await launch();
try {
  // The hand-set player against the shipped self-play player.
  let { page, errors } = await open(browser, server.url);
  await page.selectOption("#preset", "puyo-tsu");
  await page.click("#weights-reset");
  assert.ok(await page.isVisible("#match"), "the match section on Puyo Tsu");
  await page.selectOption("#match-opponent", "versus-selfplay.toml");
  const want = JSON.parse(text(native, "versus.json"));
  const report = await playMatch(page, 20, 7);
  sameReport(report, want, "against versus-selfplay.toml");
  const score = `${want.score.toFixed(3)} [${want.score_ci[0].toFixed(3)}, ${want.score_ci[1].toFixed(3)}]`;
  assert.ok((await page.textContent("#match-result")).includes(score), `the score as versus prints it: ${score}`);
  console.log(`the page's match equals versus --json: ${await page.textContent("#match-result")}`);

  // Game 1, its sides swapped, replayed to its end: every board checked equal to the game's.
  assert.equal(await page.locator("#match-game option").count(), 20, "every game offered for replay");
  await page.selectOption("#match-game", "1");
  await page.click("#match-replay");
  await page.waitForSelector("#match-replay-box #replay-check[data-mismatches]");
  await page.selectOption("#speed", "0");
  await page.waitForSelector("#replay-status[data-done=true]", { timeout: 60_000 });
  assert.equal(await page.getAttribute("#replay-check", "data-mismatches"), "0", "the replay's boards are the game's");
  assert.match(await page.textContent("#replay-which"), /versus weights\.toml versus-selfplay\.toml --seed 7 --games 20/);
  console.log(`game 1 replayed to its end: ${await page.textContent("#replay-check")}`);

  // The Japanese page: the match section's words, its result, its games and the replay's (the
  // replay shown again, as a replay is drawn in the language of its time).
  await page.selectOption("#lang", "ja");
  await page.click("#match-replay");
  await page.waitForSelector("#replay-status[data-done=true]", { timeout: 60_000 });
  assert.deepEqual(await englishLeft(page), [], "English strings left on the Japanese page");
  await page.selectOption("#lang", "en");

  // 360 px: the replay's two fields fit, nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const width = await page.evaluate(() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]);
  assert.ok(width[0] <= width[1], `the page scrolls sideways at 360 with the match's replay: ${width}`);
  await page.setViewportSize({ width: 1000, height: 900 });

  // Bad opponents: one line each, and no match.
  const before = await page.getAttribute("#match-result", "data-report");
  await page.selectOption("#match-opponent", "link");
  const hand = text(root, "weights/puyo/hand.toml");
  const puyo = Buffer.from(hand).toString("base64url");
  const tetris = Buffer.from(text(root, "weights/tetris/dellacherie.toml")).toString("base64url");
  for (const [what, link] of [
    ["a cut-short link", `${server.url}#p=puyo-tsu&n=${Buffer.byteLength(hand)}&w=${puyo.slice(0, 300)}`],
    ["another game's link", `${server.url}#p=tetris-10x10&w=${tetris}`],
  ]) {
    await page.fill("#match-link", link);
    await page.click("#match-play");
    await refused(page, what, before);
  }
  await page.selectOption("#match-opponent", "file");
  await page.setInputFiles("#match-file", { name: "bad.toml", mimeType: "text/plain", buffer: Buffer.from('game = "puyo"\n[weights\n') });
  await refused(page, "a malformed weights file as the opponent", before);

  // "Copy a link to challenge your player": the table's weights file as `vw`, its length `vn`;
  // opened, it makes that player the opponent.
  await page.selectOption("#match-opponent", "versus-selfplay.toml");
  await page.click("#match-challenge");
  const challenge = (await page.textContent("#match-challenge-link")).match(/https?:\S+/)[0];
  const params = new URLSearchParams(challenge.split("#")[1]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#weights-download")]);
  const table = readFileSync(await download.path(), "utf8");
  assert.equal(Buffer.from(params.get("vw"), "base64url").toString(), table, "the challenge link carries the table's weights");
  assert.equal(params.get("vn"), String(Buffer.byteLength(table)), "and their length");
  assert.deepEqual(errors, [], "console errors");
  await page.context().close();
  ({ page, errors } = await open(browser, challenge));
  assert.equal(await page.inputValue("#match-opponent"), "link", "the challenge link chooses the opponent");
  assert.ok(await page.isHidden("#message"), "the challenge link reads");
  await page.context().close();

  // A link that sets the opponent: versus-hand.toml's weights, as a share link carries them.
  const linked = text(root, "weights/puyo/versus-hand.toml");
  const hash = `#p=puyo-tsu&vn=${Buffer.byteLength(linked)}&vw=${Buffer.from(linked).toString("base64url")}`;
  ({ page, errors } = await open(browser, `${server.url}${hash}`));
  await page.click("#weights-reset");
  assert.equal(await page.inputValue("#match-opponent"), "link", "the link chooses the opponent");
  const fromLink = await playMatch(page, 6, 3);
  sameReport(fromLink, JSON.parse(text(native, "versus-link.json")), "against the linked versus-hand.toml");
  console.log(`the linked opponent's match equals versus --json: ${await page.textContent("#match-result")}`);
  assert.deepEqual(errors, [], "console errors");
  console.log("web/tests/match.mjs: the playground's match passes in chromium");
} finally {
  await browser.close();
  server.close();
}
