// A worker of the playground's pool: its own instance of the module, playing ranges of the
// batch it was last given and sending their results back as 64-bit words (the buffer is
// transferred, not copied). Messages: {type: "init", module}, {type: "batch", id, batch},
// {type: "play", id, k, start, end}; answers {type: "played", id, k, words, ms} or
// {type: "error", id, message}.
import init, { Games } from "./stacktune_web.js";

let ready = null;
let games = null;

onmessage = (event) => {
  const m = event.data;
  if (m.type === "init") {
    ready = init({ module_or_path: m.module });
    return;
  }
  ready
    .then(() => {
      if (m.type === "batch") {
        if (games) games.free();
        games = new Games(m.batch);
      } else if (m.type === "play") {
        const started = performance.now();
        const words = games.play(m.start, m.end);
        const ms = performance.now() - started;
        postMessage({ type: "played", id: m.id, k: m.k, words, ms }, [words.buffer]);
      }
    })
    .catch((error) => postMessage({ type: "error", id: m.id, message: error.message ?? String(error) }));
};
