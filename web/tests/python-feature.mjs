// A feature of one's own in Python on the page (.ci/run's web stage; docs/web.md): Debian's
// chromium, headless, offline.
//   node web/tests/python-feature.mjs PLAYGROUND [--speed]
// PLAYGROUND is web/build.sh's output; PYTHON names a Python with the stacktune package (else
// `python3`), which runs the native reference. Checks:
// - the code box's example is web/page/bumps.py; small-run.toml in the Puyo Tsu preset's
//   settings box and bumps.py in the code box: the weights table gains the feature's row, the
//   commands shown are the Python package's with --feature-file bumps.py, and the run, with
//   two workers each running the function in Pyodide, stopped after its first generation, the
//   page reloaded and the run resumed with one worker, gives the history.csv and best.toml
//   that `python -m stacktune evolve --config web/tests/feature-run.toml --feature-file
//   web/page/bumps.py` writes natively, byte for byte;
// - the downloaded run.toml names the feature (`[game] board_features`) and, with the feature's
//   downloaded .py beside it, runs natively to the same best.toml;
// - a game watched with the evolved weights plays on the page (Pyodide loaded there for it);
// - at 360 px the page, its code box open, does not scroll sideways;
// - a function that raises, one that returns a string, one that returns NaN, and code that
//   does not parse each stop the run with one line in the message bar naming the feature (the
//   first three in the words the native run ends with);
// - offline, the message bar's one line is numpy's (the board is a list of rows), and there is
//   no console error but the failed loads of numpy.
// With --speed it also prints how long a generation takes with the feature and without it, in
// the same session (docs/web.md, "Measured").
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { launch, open, serve } from "./browser-harness.mjs";

const args = process.argv.slice(2);
const speed = args.includes("--speed");
const [playground] = args.filter((a) => a !== "--speed");
if (!playground) {
  console.error("usage: node web/tests/python-feature.mjs PLAYGROUND [--speed]");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const text = (...path) => readFileSync(join(...path), "utf8");
const python = process.env.PYTHON ?? "python3";
const tests = join(root, "web/tests");
const config = text(tests, "small-run.toml");
const code = text(root, "web/page/bumps.py");

// `python -m stacktune evolve` natively, in `cwd`: its output folder's files, or its stderr.
function native(cwd, runToml, featureFile, out) {
  const run = spawnSync(
    python,
    ["-m", "stacktune", "evolve", "--config", runToml, "--feature-file", featureFile, "--out", out, "--quiet"],
    { cwd, encoding: "utf8" },
  );
  if (run.status !== 0) return { error: run.stderr.trim() };
  return { best: text(resolve(cwd, out), "best.toml"), history: text(resolve(cwd, out), "history.csv") };
}

const scratch = mkdtempSync(join(tmpdir(), "stacktune-python-feature-"));
const want = native(tests, "feature-run.toml", "../page/bumps.py", join(scratch, "native"));
assert.ok(want.best, `the native run: ${want.error}`);

async function downloaded(page, button) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  return readFile(await download.path(), "utf8");
}

// The settings box holds small-run.toml and the code box `source`, turned on.
async function withFeature(page, source) {
  await page.selectOption("#preset", "puyo-tsu");
  await page.$eval("#config", (box, text) => {
    box.value = text;
    box.dispatchEvent(new Event("change"));
  }, config);
  await page.$eval("#python-feature", (box) => (box.open = true));
  if (source === code) {
    assert.equal(await page.inputValue("#py-code"), code, "the code box's example is web/page/bumps.py");
    assert.equal(await page.inputValue("#py-name"), "bumps", "the example's name");
  }
  await page.fill("#py-name", "bumps");
  await page.fill("#py-code", source);
  await page.dispatchEvent("#py-code", "change");
  if (!(await page.isChecked("#py-on"))) await page.check("#py-on");
}

// Clicks `button` (Start) and waits for `done` (the downloads shown), or an error in the
// message bar: the message bar's text then, and whether it is an error.
async function run(page, done = "#download-best:not([hidden])", button = "#start") {
  await page.$eval("#message", (box) => (box.hidden = true));
  await page.click(button);
  await page.waitForFunction(
    (done) => {
      const message = document.getElementById("message");
      return document.querySelector(done) || (!message.hidden && message.className === "error");
    },
    done,
    { timeout: 5 * 60 * 1000 },
  );
  const message = await page.$eval("#message", (box) => (box.hidden ? "" : box.textContent));
  return { message, error: message !== "" && (await page.getAttribute("#message", "class")) === "error" };
}

// A finished run, whatever its feature: generations' wall time as the page's status says.
async function seconds(page) {
  const started = Date.now();
  await page.click("#start");
  await page.waitForSelector("#download-best", { state: "visible", timeout: 10 * 60 * 1000 });
  return (Date.now() - started) / 1000;
}

const server = await serve(playground);
const browser = await launch();
try {
  const { page, errors } = await open(browser, server.url);
  page.on("dialog", (dialog) => dialog.accept());
  await page.selectOption("#workers", "2");
  await withFeature(page, code);
  const rows = await page.$$eval("#weights-table th", (heads) => heads.map((h) => h.textContent));
  assert.equal(rows.at(-1), "bumps", "the feature's row in the weights table");
  const shown = await page.textContent("#commands");
  assert.match(shown, /^python -m stacktune evolve --config run.toml --feature-file bumps.py --out my-run$/m, "commands");
  // Stopped as soon as the first generation's point is drawn, the page reloaded, and resumed
  // with one worker: the code the run started with runs on.
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll("#fitness-chart circle.pt[data-series=best]").length === 1) {
        observer.disconnect();
        document.getElementById("stop").click();
      }
    });
    observer.observe(document.getElementById("fitness-chart"), { childList: true, subtree: true });
  });
  let ended = await run(page, "#resume:not([disabled])");
  assert.ok(!ended.error, `the run with the feature: ${ended.message}`);
  const points = await page.locator("#fitness-chart circle.pt[data-series=best]").count();
  assert.equal(points, 1, "stopped after one generation");
  await page.reload();
  await page.waitForSelector("#resume:not([disabled])");
  await page.selectOption("#workers", "1");
  ended = await run(page, "#download-best:not([hidden])", "#resume");
  assert.ok(!ended.error, `the run resumed: ${ended.message}`);
  // Offline, numpy is not loaded: the page says the board is a list of rows, as information.
  const lists = await page.evaluate(async () => (await import("./i18n.js")).words("en")["py.lists"]);
  if (ended.message) assert.equal(ended.message, lists, "the only message is numpy's");
  assert.equal(await downloaded(page, "#download-history"), want.history, "history.csv");
  assert.equal(await downloaded(page, "#download-best"), want.best, "best.toml");

  // The downloaded run.toml and bumps.py run natively to the same best.toml.
  const folder = join(scratch, "downloaded");
  const saved = [];
  await new Promise((resolve) => {
    const heard = (download) => {
      saved.push(download.saveAs(join(folder, download.suggestedFilename())).then(() => download.suggestedFilename()));
      if (saved.length === 3) {
        page.off("download", heard);
        resolve();
      }
    };
    page.on("download", heard);
    page.click("#download-config");
  });
  const files = await Promise.all(saved);
  assert.deepEqual(files.sort(), ["bumps.py", "hand.toml", "run.toml"], "run.toml's downloads");
  assert.match(text(folder, "run.toml"), /^board_features = \["bumps"\]$/m, "run.toml names the feature");
  const again = native(folder, "run.toml", "bumps.py", "my-run");
  assert.equal(again.best, want.best, `the downloaded run natively ${again.error ?? ""}`);

  // A game watched with the evolved weights: the page's own instance runs the function (Pyodide
  // loaded there for it).
  await page.click("#watch-best");
  await page.waitForSelector("#replay-status");
  assert.equal(await page.isHidden("#message") || (await page.getAttribute("#message", "class")) !== "error", true, "watching");

  if (speed) {
    // A longer run (24 games of 100 pairs a weight set, not 4 of 30), with the feature
    // (Pyodide loaded) and without it, twice each.
    await page.$eval("#config", (box, text) => {
      box.value = text;
      box.dispatchEvent(new Event("change"));
    }, config.replace("games = 4\n", "games = 24\n").replace("max_pieces = 30\n", "max_pieces = 100\n"));
    const times = { with: [], without: [] };
    for (let i = 0; i < 2; i++) {
      times.with.push(await seconds(page));
      await page.uncheck("#py-on");
      times.without.push(await seconds(page));
      await page.check("#py-on");
    }
    const best = (list) => Math.min(...list);
    console.log(
      `small-run.toml with 24 games of 100 pairs (3 generations, 2 workers), the faster of two: ${best(times.with).toFixed(2)} s with the ` +
        `Python feature, ${best(times.without).toFixed(2)} s without: ` +
        `${(best(times.with) / best(times.without)).toFixed(1)} times as long (${JSON.stringify(times)})`,
    );
  }

  // 360 px wide, the code box open: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 800 });
  const wide = await page.evaluate(() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]);
  assert.ok(wide[0] <= wide[1], `the page scrolls sideways at 360 with the code box open: ${wide}`);
  await page.setViewportSize({ width: 1000, height: 900 });

  // Failures: one line each, naming the feature; the native run ends with the same words.
  const failing = [
    ["def bumps(board):\n    return 1 / 0\n", /^board feature `bumps` failed: ZeroDivisionError: division by zero$/],
    ["def bumps(board):\n    return 'high'\n", /^board feature `bumps` failed: it returned str, not a number$/],
    ["def bumps(board):\n    return float('nan')\n", /^board feature `bumps` returned NaN: a feature's value must be a finite number$/],
    ["def bumps(board)\n    return 1\n", /^board feature `bumps`: SyntaxError: .*line 1/],
  ];
  for (const [k, [source, line]] of failing.entries()) {
    await withFeature(page, source);
    const failed = await run(page);
    assert.ok(failed.error, `${source}: an error`);
    assert.match(failed.message, line);
    assert.ok(!failed.message.includes("\n"), `one line: ${failed.message}`);
    assert.ok(await page.isEnabled("#start"), `${source}: the run stopped, Start is back`);
    if (!line.source.includes("SyntaxError")) {
      writeFileSync(join(scratch, `failing-${k}.py`), source);
      const natively = native(tests, "feature-run.toml", join(scratch, `failing-${k}.py`), join(scratch, `failing-${k}`));
      assert.equal(natively.error, `error: ${failed.message}`, "the native run's line");
    }
  }
  // Offline, the numpy wheel's loads fail (the site's folder, then Pyodide's CDN): no other error.
  const others = errors.filter((e) => !/Failed to load resource|numpy|net::ERR/.test(e));
  assert.deepEqual(others, [], "console errors");
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log("web/tests/python-feature.mjs: the page's Python feature runs as the native package does");
