// stacktune's Tetris Bot Protocol bot as a Web Worker, TBP's form in a browser: the spec's
// messages as objects through postMessage, both ways (docs/web.md). A front end starts it with
//   new Worker("tbp-worker.js", { type: "module" })
// for the shipped versus player (weights/versus/tuned.toml), or "tbp-worker.js?weights=URL" for
// a guideline weights file (a URL relative to this script). The bot says `info` once it is
// ready; a weights file that cannot be fetched or read is an error event on the Worker, one
// line, and no `info`.
// Every message is the library's own bot (src/tbp/bot.rs), `stacktune tbp`'s, one at a time.
import init, { TbpBot } from "./stacktune_tbp_web.js";

const waiting = [];
let bot = null;

onmessage = (event) => {
  if (bot) answer(event.data);
  else waiting.push(event.data);
};

function answer(message) {
  const reply = JSON.parse(bot.receive(JSON.stringify(message)));
  if (reply.notes) console.warn(reply.notes);
  if (reply.send) postMessage(reply.send);
  if (reply.quit) close();
}

async function weights() {
  const url = new URL(self.location.href).searchParams.get("weights");
  if (url === null) return [undefined, undefined];
  const failed = (why) => new Error(`weights file ${url}: ${why}`);
  const response = await fetch(new URL(url, self.location.href)).catch((e) => {
    throw failed(e.message);
  });
  if (!response.ok) throw failed(`${response.status} ${response.statusText}`);
  return [await response.text(), url];
}

const [[text, source]] = await Promise.all([weights(), init()]);
bot = new TbpBot(text, source);
postMessage(JSON.parse(bot.info()));
for (const message of waiting.splice(0)) answer(message);
