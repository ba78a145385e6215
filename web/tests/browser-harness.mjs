// What the playground's browser scripts share (browser.mjs, goal.mjs): a static server for
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
