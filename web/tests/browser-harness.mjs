// What the playground's browser scripts share (browser.mjs, goal.mjs, match.mjs): a static server for
// web/build.sh's output and Debian's chromium, headless, driven by playwright-core.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};

// Serves the folder `dir` on a free port of 127.0.0.1: its URL and a function that closes it.
export async function serve(dir) {
  const server = createServer(async (request, response) => {
    const asked = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    const path = asked === "/" ? "index.html" : asked;
    try {
      const body = await readFile(join(dir, path));
      response.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

// Debian's chromium, headless (CHROMIUM names another binary); without the sandbox when run as
// root, which it refuses otherwise.
export function launch() {
  const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args });
}

// A page on `url` whose console errors and uncaught exceptions land in the array returned.
export async function open(browser, url, viewport = { width: 1000, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector("#preset:not([disabled])");
  return { page, errors };
}

// The visible text of the page (text nodes, and the options of visible selects).
function visibleTexts() {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !el || el.closest("script, style, template, option")) continue;
    if (el.checkVisibility({ visibilityProperty: true })) texts.push(text);
  }
  for (const select of document.querySelectorAll("select")) {
    if (select.checkVisibility()) for (const option of select.options) texts.push(option.textContent.trim());
  }
  return texts;
}

// The texts the page shows that are strings of the English tables (the page's and the report
// page's) and of no Japanese one: on the Japanese page, the English left in it.
export function englishLeft(page) {
  return page.evaluate(async (collect) => {
    const { words } = await import("./i18n.js");
    // A string of a table, its {names} standing for anything: the texts it gives.
    const pattern = (text) =>
      new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^]+")}$`);
    const ja = [...Object.values(words("ja")), ...Object.values(REPORT_WORDS)].map(pattern);
    const en = [...Object.values(words("en")), ...Object.values(REPORT_WORDS_EN)].map(pattern);
    const texts = new Function(`return (${collect})()`)();
    return texts.filter((text) => en.some((p) => p.test(text)) && !ja.some((p) => p.test(text)));
  }, visibleTexts.toString());
}
