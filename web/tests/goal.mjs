// The goal, measured (docs/web.md): from opening the page to a Puyo player that beats
// the hand-set weights on the page's held-out games, in headless chromium, the Puyo Puyo Tsu
// preset as it is, every worker the machine offers.
//   node web/tests/goal.mjs PLAYGROUND [SCREENSHOT]
// Prints the minutes taken, the held-out figures, the verdict and the page's speed line.
import { launch, open, serve } from "./browser-harness.mjs";

const [playground, screenshot] = process.argv.slice(2);
if (!playground) {
  console.error("usage: node web/tests/goal.mjs PLAYGROUND [SCREENSHOT]");
  process.exit(2);
}
const server = await serve(playground);
const browser = await launch();
try {
  const opened = performance.now();
  const { page, errors } = await open(browser, server.url);
  await page.selectOption("#preset", "puyo-tsu");
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
