// The playground in a real browser (.ci/run's web stage): Debian's chromium, headless.
//   node web/tests/browser.mjs PLAYGROUND NATIVE [SCREENSHOT]
// PLAYGROUND is web/build.sh's output, NATIVE web/tests/native.sh's (its run/ is
// `stacktune evolve --config web/tests/small-run.toml`). Checks:
// - the page loads and works through without a console error;
// - the small run on the Puyo Tsu preset (its settings box given small-run.toml) evolves three
//   generations with two workers, its fitness curve has three points, and the downloaded
//   best.toml and history.csv are evolve's bytes;
// - the same run stopped during its second generation, the page reloaded, and resumed with one
//   worker gives the same bytes;
// - a malformed weights file, another game's weights, a NaN weight and a malformed settings box
//   are each one line in the page's message box, and the editor, the settings and the finished
//   run are all still there (after a reload too);
// - every failing action (a bad weights file, another game's, a NaN weight, a bad settings box,
//   Start with one, which starts nothing, Watch with a NaN weight, a cut-short link, another
//   game's link, a link to no game) says so in a message whose box is inside the window;
// - Start is in view without scrolling at 1366 × 768;
// - runs are kept per game (another game chosen and this one again, the run is there), and
//   Start on a finished run asks first (declined, the run stays);
// - the downloaded run.toml, with the files downloaded with it, runs with `stacktune evolve
//   --config run.toml --out my-run` in an empty folder and gives the page's best.toml;
// - the status counts generations from 0 as the charts do;
// - the Japanese page shows no English string of the page's tables (its visible text nodes,
//   the charts' and the replay's included);
// - at 360 px wide the page does not scroll sideways, the weights table fits, and the charts'
//   axis text is at least 10 px.
// SCREENSHOT, if given, is where the finished run's page is saved (PNG; docs/web-playground.png).
// The CLI is STACKTUNE, else the release build under CARGO_TARGET_DIR (or target/).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { englishLeft, launch, open, serve } from "./browser-harness.mjs";

const [playground, native, screenshot] = process.argv.slice(2);
if (!playground || !native) {
  console.error("usage: node web/tests/browser.mjs PLAYGROUND NATIVE [SCREENSHOT]");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const text = (...path) => readFileSync(join(...path), "utf8");
const config = text(root, "web/tests/small-run.toml");
const want = { best: text(native, "run/best.toml"), history: text(native, "run/history.csv") };
const BEST_POINTS = "#fitness-chart circle.pt[data-series=best]";
// Absolute: it runs in another folder.
const stacktune = resolve(
  process.env.STACKTUNE ?? join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "release", "stacktune"),
);

async function downloaded(page, button) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  return readFile(await download.path(), "utf8");
}

// The Puyo Tsu preset with small-run.toml in its settings box, and `workers` workers.
async function smallRun(page, workers) {
  await page.selectOption("#preset", "puyo-tsu");
  await page.$eval("#config", (box, text) => {
    box.value = text;
    box.dispatchEvent(new Event("change"));
  }, config);
  await page.selectOption("#workers", String(workers));
}

async function sameBytes(page, what) {
  assert.equal(await downloaded(page, "#download-best"), want.best, `${what}: best.toml`);
  assert.equal(await downloaded(page, "#download-history"), want.history, `${what}: history.csv`);
}

// The message box's text once it shows one, checked to be one line.
async function message(page) {
  await page.waitForSelector("#message:not([hidden])");
  const said = await page.textContent("#message");
  assert.ok(said.length > 0 && !said.includes("\n"), `one line: ${JSON.stringify(said)}`);
  return said;
}

// The message box, once it shows a message, lies inside the window (the page scrolled wherever
// the action was).
async function inView(page, what) {
  await page.waitForSelector("#message:not([hidden])");
  const box = await page.evaluate(() => {
    const r = document.getElementById("message").getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: innerWidth, h: innerHeight, y: scrollY };
  });
  assert.ok(
    box.top >= 0 && box.bottom <= box.h && box.left >= 0 && box.right <= box.w,
    `${what}: the message is out of view: ${JSON.stringify(box)}`,
  );
}

// Every download one click makes, saved into `dir` under their names.
async function downloadsOf(page, button, dir, count) {
  const names = [];
  const seen = new Promise((resolve) => {
    const heard = async (download) => {
      const name = download.suggestedFilename();
      await download.saveAs(join(dir, name));
      names.push(name);
      if (names.length === count) {
        page.off("download", heard);
        resolve();
      }
    };
    page.on("download", heard);
  });
  await page.click(button);
  await seen;
  return names.sort();
}

// Hides the message box, so that the next message is the next action's.
const hush = (page) => page.$eval("#message", (box) => (box.hidden = true));

const editor = (page) => page.$$eval("#weights-table input", (inputs) => inputs.map((i) => i.value));

const server = await serve(playground);
const browser = await launch();
try {
  // The run, uninterrupted.
  let { page, errors } = await open(browser, server.url);
  await smallRun(page, 2);
  await page.click("#start");
  await page.waitForSelector("#download-best", { state: "visible" });
  assert.equal(await page.locator(BEST_POINTS).count(), 3, "the fitness curve's points");
  await sameBytes(page, "the run");
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });

  // Bad input: one line each, and nothing the user made is lost.
  const before = await editor(page);
  const cases = [
    ["a malformed weights file", { name: "bad.toml", buffer: Buffer.from('game = "puyo"\n[weights\n') }],
    ["another game's weights", { name: "tetris.toml", buffer: readFileSync(join(root, "weights/tetris/dellacherie.toml")) }],
  ];
  for (const [what, file] of cases) {
    await hush(page);
    await page.setInputFiles("#weights-file", { mimeType: "text/plain", ...file });
    console.log(`${what}: ${await message(page)}`);
    await inView(page, what);
    assert.deepEqual(await editor(page), before, `${what}: the editor keeps its weights`);
  }
  await page.fill("#weights-table input >> nth=0", "NaN");
  await hush(page);
  await page.click("#weights-download");
  console.log(`a NaN weight: ${await message(page)}`);
  await inView(page, "a NaN weight");
  await hush(page);
  await page.click("#watch-mine");
  console.log(`Watch with a NaN weight: ${await message(page)}`);
  await inView(page, "Watch with a NaN weight");
  await page.click("#settings summary");
  await hush(page);
  await page.fill("#config", "seed = [");
  await page.$eval("#config", (box) => box.dispatchEvent(new Event("change")));
  console.log(`a malformed settings box: ${await message(page)}`);
  await inView(page, "a malformed settings box");
  // Start with the bad box: a message, and nothing started (the finished run is still shown).
  const status = await page.textContent("#status");
  await hush(page);
  await page.click("#start");
  console.log(`Start with a malformed settings box: ${await message(page)}`);
  await inView(page, "Start with a malformed settings box");
  assert.match(await page.textContent("#message"), /settings|設定/, "the message names the settings box");
  assert.equal(await page.textContent("#status"), status, "Start with a bad settings box starts nothing");
  assert.ok(await page.isVisible("#download-best"), "the finished run is still there");
  await page.reload();
  await page.waitForSelector("#download-best", { state: "visible" });
  assert.equal(await page.inputValue("#weights-table input >> nth=0"), "NaN", "the typed weight, after a reload");
  assert.equal(await page.inputValue("#config"), "seed = [", "the typed settings, after a reload");
  await sameBytes(page, "the run after bad input and a reload");

  // run.toml and the files it names, downloaded, run from an empty folder.
  const folder = mkdtempSync(join(tmpdir(), "stacktune-run-toml-"));
  try {
    const names = await downloadsOf(page, "#download-config", folder, 2);
    assert.deepEqual(names, ["hand.toml", "run.toml"], "run.toml and the weights file it names");
    assert.ok(!readFileSync(join(folder, "run.toml"), "utf8").includes(".."), "run.toml names no path out of its folder");
    execFileSync(stacktune, ["evolve", "--config", "run.toml", "--out", "my-run", "--quiet"], { cwd: folder });
    assert.equal(readFileSync(join(folder, "my-run", "best.toml"), "utf8"), want.best, "the downloaded run.toml's best.toml");
    console.log("the downloaded run.toml runs with stacktune evolve in an empty folder");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  // Runs are kept per game; Start on a finished run asks first, and declined, starts nothing.
  await page.fill("#weights-table input >> nth=0", "1");
  await page.$eval("#config", (box, text) => {
    box.value = text;
    box.dispatchEvent(new Event("change"));
  }, config);
  await page.selectOption("#preset", "tetris-10x10");
  assert.ok(!(await page.isVisible("#download-best")), "another game: its own (no) run");
  await page.selectOption("#preset", "puyo-tsu");
  await page.waitForSelector("#download-best", { state: "visible" });
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    dialog.dismiss();
  });
  await page.click("#start");
  assert.ok(asked.length > 0, "Start on a finished run asks first");
  assert.ok(await page.isVisible("#download-best"), "declined, the run is kept");
  await sameBytes(page, "the run kept after another game and a declined Start");
  assert.deepEqual(errors, [], "console errors");

  // The Japanese page: no English string of the page's tables is shown, the charts', the
  // held-out result's and the replay's included.
  await page.selectOption("#lang", "ja");
  await page.click("#watch-best");
  await page.waitForSelector("#replay-status");
  assert.deepEqual(await englishLeft(page), [], "English strings left on the Japanese page");
  assert.match(await page.textContent("#fitness-chart"), /世代/, "the chart's axis in Japanese");
  await page.selectOption("#lang", "en");
  await page.context().close();

  // Share links that do not read: each says so, in view.
  const puyo = Buffer.from(text(root, "weights/puyo/hand.toml")).toString("base64url");
  for (const [what, hash] of [
    ["a cut-short link", `#p=puyo-tsu&n=${Buffer.byteLength(text(root, "weights/puyo/hand.toml"))}&w=${puyo.slice(0, 300)}`],
    ["another game's link", `#p=tetris-10x10&w=${puyo}`],
    ["a link to no game", "#p=puyo-t"],
  ]) {
    ({ page, errors } = await open(browser, `${server.url}${hash}`));
    console.log(`${what}: ${await message(page)}`);
    await inView(page, what);
    await page.context().close();
  }

  // Start is in view at 1366 × 768 without scrolling.
  ({ page, errors } = await open(browser, server.url, { width: 1366, height: 768 }));
  const start = await page.evaluate(() => document.getElementById("start").getBoundingClientRect().bottom);
  assert.ok(start <= 768, `Start's bottom is at ${start} px of 768`);
  await page.context().close();

  // Stop during the second generation (as soon as the first generation's point is drawn, before
  // the next batch's results are in), reload, resume with one worker.
  ({ page, errors } = await open(browser, server.url));
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector("#preset:not([disabled])");
  await smallRun(page, 2);
  await page.evaluate((points) => {
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll(points).length === 1) {
        observer.disconnect();
        document.getElementById("stop").click();
      }
    });
    observer.observe(document.getElementById("fitness-chart"), { childList: true, subtree: true });
  }, BEST_POINTS);
  await page.click("#start");
  await page.waitForSelector("#resume:not([disabled])");
  assert.equal(await page.locator(BEST_POINTS).count(), 1, "stopped after one generation");
  assert.equal(await page.getAttribute(BEST_POINTS, "data-generation"), "0", "the chart's first generation");
  assert.match(await page.textContent("#status"), /generation 1 \(of 0 to 2\)/, "the status counts from 0 too");
  await page.reload();
  await page.waitForSelector("#resume:not([disabled])");
  await page.selectOption("#workers", "1");
  await page.click("#resume");
  await page.waitForSelector("#download-best", { state: "visible" });
  await sameBytes(page, "the run stopped, reloaded and resumed");
  assert.deepEqual(errors, [], "console errors");

  // 360 px wide: nothing wider than the screen, the weights table within its box, the charts'
  // axis text at least 10 px.
  await page.setViewportSize({ width: 360, height: 800 });
  // Two frames: the resize heard and the charts drawn again.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const fit = await page.evaluate(() => {
    const scroller = document.scrollingElement;
    const table = document.getElementById("weights-table");
    const sizes = [...document.querySelectorAll(".chart svg")].flatMap((svg) => {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size")) * scale);
    });
    return {
      page: [scroller.scrollWidth, scroller.clientWidth],
      table: [table.scrollWidth, table.parentElement.clientWidth],
      font: Math.min(...sizes),
      texts: sizes.length,
    };
  });
  assert.ok(fit.page[0] <= fit.page[1], `the page scrolls sideways at 360: ${fit.page}`);
  assert.ok(fit.table[0] <= fit.table[1], `the weights table is clipped at 360: ${fit.table}`);
  assert.ok(fit.texts > 0 && fit.font >= 10, `the charts' smallest text is ${fit.font} px at 360`);
  console.log("web/tests/browser.mjs: the playground passes in chromium");
} finally {
  await browser.close();
  server.close();
}
