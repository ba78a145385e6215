// A worker of the playground's pool: its own instance of the module, playing ranges of the
// batch it was last given and sending their results back as 64-bit words (the buffer is
// transferred, not copied). Messages: {type: "init", module}, {type: "batch", id, batch,
// python}, {type: "play", id, k, start, end}; answers {type: "played", id, k, words, ms},
// {type: "python", id, numpy} once a batch's Python feature is defined, or {type: "error", id,
// message}. Messages are handled one after another, in the order they came.
import init, * as st from "./stacktune_web.js";

let ready = null;
let games = null;
let defined = null; // the Python feature this instance defines, as {name, code}, or null

onmessage = (event) => {
  const m = event.data;
  if (m.type === "init") {
    ready = init({ module_or_path: m.module });
    return;
  }
  ready = ready
    .then(async () => {
      if (m.type === "batch") {
        if (games) games.free();
        games = null;
        // A run with a feature of one's own in Python: Pyodide is loaded, once, and the
        // student's function defined before the batch's game is built.
        if (m.python && JSON.stringify(m.python) !== JSON.stringify(defined)) {
          const { definePythonFeature } = await import("./python-feature.js");
          const numpy = await definePythonFeature(st, m.python);
          defined = m.python;
          postMessage({ type: "python", id: m.id, numpy });
        }
        games = new st.Games(m.batch);
      } else if (m.type === "play") {
        if (!games) return;
        const started = performance.now();
        const words = games.play(m.start, m.end);
        const ms = performance.now() - started;
        postMessage({ type: "played", id: m.id, k: m.k, words, ms }, [words.buffer]);
      }
    })
    .catch((error) => postMessage({ type: "error", id: m.id, message: error.message ?? String(error) }));
};
