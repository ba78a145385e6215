// The goal, measured (docs/web.md): from opening the page to a player that beats the
// hand-set weights on the page's held-out games, in headless chromium, a preset as it is (the
// Puyo Puyo Tsu one unless --preset names another), every worker the machine offers.
//   node web/tests/goal.mjs PLAYGROUND [SCREENSHOT] [--preset NAME]
// Prints the minutes taken, the held-out figures, the verdict and the page's speed line.
import { launch, open, serve } from "./browser-harness.mjs";

const args = process.argv.slice(2);
const flag = args.indexOf("--preset");
const preset = flag >= 0 ? args.splice(flag, 2)[1] : "puyo-tsu";
const [playground, screenshot] = args;
if (!playground || !preset) {
  console.error("usage: node web/tests/goal.mjs PLAYGROUND [SCREENSHOT] [--preset NAME]");
  process.exit(2);
}
const server = await serve(playground);
const browser = await launch();
try {
  const opened = performance.now();
  const { page, errors } = await open(browser, server.url);
  await page.selectOption("#preset", preset);
  await page.click("#start");
  await page.waitForSelector("#download-best", { state: "visible", timeout: 30 * 60 * 1000 });
  const minutes = (performance.now() - opened) / 60000;
  const figure = (id) => page.textContent(id);
  console.log(`page open to the held-out result: ${minutes.toFixed(1)} min`);
  console.log(`evolved ${await figure("#result-tuned")}, hand-set ${await figure("#result-hand")}`);
  console.log(`${await figure("#result-verdict")} (beats: ${await page.getAttribute("#result-verdict", "data-beats")})`);
  console.log(`${await figure("#status")} ${await figure("#rate")}`);
  if (errors.length) console.log(`console errors: ${errors.join(" | ")}`);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
} finally {
  await browser.close();
  server.close();
}
