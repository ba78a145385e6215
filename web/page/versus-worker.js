// The worker of the playground's Puyo match (versus.js): its own instance of the module, playing
// the match a pair at a time and saying after each what the games so far measured, then
// replaying any of its games. Messages: {type: "init", module}, {type: "play", id, args} (args
// PuyoMatch's), {type: "replay", id, k}; answers {type: "played", id, done, total, report},
// {type: "done", id, outcomes}, {type: "replay", id, replays} or {type: "error", id, message}.
import init, { PuyoMatch } from "./stacktune_web.js";

let ready = null;
let match = null;

onmessage = ({ data: m }) => {
  if (m.type === "init") {
    ready = init({ module_or_path: m.module });
    return;
  }
  ready
    .then(() => {
      if (m.type === "play") {
        if (match) match.free();
        match = new PuyoMatch(...m.args);
        const total = match.total();
        for (let done = 0; done < total; ) {
          done = match.play(1);
          postMessage({ type: "played", id: m.id, done, total, report: match.report() });
        }
        postMessage({ type: "done", id: m.id, outcomes: match.outcomes() });
      } else if (m.type === "replay") {
        postMessage({ type: "replay", id: m.id, replays: match.replay(m.k) });
      }
    })
    .catch((error) => postMessage({ type: "error", id: m.id, message: error.message ?? String(error) }));
};
