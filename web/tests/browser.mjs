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
// - at 360 px wide the page does not scroll sideways.
// SCREENSHOT, if given, is where the finished run's page is saved (PNG; docs/web-playground.png).
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import assert from "node:assert/strict";
import { launch, open, serve } from "./browser-harness.mjs";

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
    await page.setInputFiles("#weights-file", { mimeType: "text/plain", ...file });
    console.log(`${what}: ${await message(page)}`);
    assert.deepEqual(await editor(page), before, `${what}: the editor keeps its weights`);
  }
  await page.fill("#weights-table input >> nth=0", "NaN");
  await page.click("#weights-download");
  console.log(`a NaN weight: ${await message(page)}`);
  await page.$eval("#config", (box) => {
    box.value = "seed = [";
    box.dispatchEvent(new Event("change"));
  });
  console.log(`a malformed settings box: ${await message(page)}`);
  await page.reload();
  await page.waitForSelector("#download-best", { state: "visible" });
  assert.equal(await page.inputValue("#weights-table input >> nth=0"), "NaN", "the typed weight, after a reload");
  assert.equal(await page.inputValue("#config"), "seed = [", "the typed settings, after a reload");
  await sameBytes(page, "the run after bad input and a reload");
  assert.deepEqual(errors, [], "console errors");
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
  await page.reload();
  await page.waitForSelector("#resume:not([disabled])");
  await page.selectOption("#workers", "1");
  await page.click("#resume");
  await page.waitForSelector("#download-best", { state: "visible" });
  await sameBytes(page, "the run stopped, reloaded and resumed");
  assert.deepEqual(errors, [], "console errors");

  // 360 px wide: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 800 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `the page is ${wide} px wide at 360`);
  console.log("web/tests/browser.mjs: the playground passes in chromium");
} finally {
  await browser.close();
  server.close();
}
