// A feature of one's own in Python (docs/web.md, "A feature of your own"): the student's code
// run by Pyodide, loaded only when a run has such a feature, and its function defined in this
// instance of the module (a worker's, or the page's for a replay) as the board feature of its
// name, as `python -m stacktune evolve --feature-file` defines it natively.
//
// The board is the course's numpy array (int64, rows × columns, top row first) when Pyodide's
// numpy loads: from the site's own pyodide/ folder if a wheel was shipped there, else from
// Pyodide's CDN. Without it (offline), the board is a list of rows of ints, the same values:
// code that indexes (`board[r][c]`, `len(board)`, `for row in board`) gives the same values
// either way.
//
// Also the code box's example and the commands the page shows for a run with a Python feature.

const CDN = "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/";

// The glue: the student's code run as a file is, and a function's answer turned into a number
// or the one line a failure is, as the Python package's binding words them (python/src/
// board_features.rs: an exception as `Type: message`, an answer not a number as `it returned
// TYPE, not a number`).
const GLUE = `
def _board_value(name, code, numpy):
    scope = {"__name__": "<run_path>", "__file__": name + ".py"}
    try:
        exec(compile(code, name + ".py", "exec"), scope)
    except BaseException as e:
        raise ValueError(f"board feature \`{name}\`: {type(e).__name__}: {e}") from None
    function = scope.get(name)
    if not callable(function):
        raise ValueError(f"board feature \`{name}\`: the code defines no function {name}(board)")
    # The board's cells, written from JavaScript into this bytearray's memory before each call
    # (a numbers-only call into Python costs a tenth of one handing over a typed array).
    cells = bytearray()
    if numpy:
        import numpy as np

        def board_of(rows, columns):
            return np.frombuffer(cells, dtype=np.uint8).reshape(rows, columns).astype(np.int64)
    else:
        def board_of(rows, columns):
            return memoryview(cells).cast("B", (rows, columns)).tolist()

    def value(rows, columns):
        try:
            answer = function(board_of(rows, columns))
        except BaseException as e:
            return f"{type(e).__qualname__}: {e}"
        kind = type(answer)
        if isinstance(answer, float) or hasattr(kind, "__float__") or hasattr(kind, "__index__"):
            try:
                return float(answer)
            except BaseException:
                pass
        return f"it returned {kind.__name__}, not a number"

    def resize(n):
        cells[:] = bytes(n)

    return value, cells, resize
`;

let python = null; // Pyodide with the glue run, once loaded: {py, numpy}

async function loadPython() {
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const quiet = () => {};
  const py = await loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href, stdout: quiet, stderr: quiet });
  let numpy = false;
  const lock = await (await fetch(new URL("pyodide/pyodide-lock.json", import.meta.url))).json();
  const wheel = lock.packages.numpy?.file_name;
  for (const source of ["numpy", wheel && CDN + wheel]) {
    if (!source || numpy) continue;
    try {
      await py.loadPackage(source, { messageCallback: quiet, errorCallback: quiet });
      numpy = "numpy" in py.loadedPackages;
    } catch {
      // Not there (an offline machine): the next source, else lists of rows.
    }
  }
  py.runPython(GLUE);
  return { py, numpy };
}

// Defines `feature` ({name, code}) in the module `st` (its exports): Pyodide loaded the first
// time. Answers whether the board is numpy's array. The student's code failing to run (a
// syntax error, an exception, no function of its name) throws its one line.
export async function definePythonFeature(st, feature) {
  python ??= loadPython();
  const { py, numpy } = await python;
  let made;
  try {
    made = py.globals.get("_board_value")(feature.name, feature.code, numpy);
  } catch (error) {
    const lines = String(error.message ?? error).trim().split("\n");
    throw new Error(lines[lines.length - 1].replace(/^ValueError: /, ""));
  }
  const [value, cells, resize] = [made.get(0), made.get(1), made.get(2)];
  // A view of the bytearray's memory, fetched again when Pyodide's memory has grown (the old
  // view is then empty) or the board's size changed.
  let view = null;
  const lent = {
    value(board, rows, columns) {
      if (!view || view.data.length !== board.length) {
        view?.release();
        if (cells.length !== board.length) resize(board.length);
        view = cells.getBuffer("u8");
      }
      view.data.set(board);
      return value(rows, columns);
    },
  };
  st.define_board_feature(feature.name, lent);
  return numpy;
}

// Defines `feature` in the module `st` under its name only: the page's own instance builds
// games (to describe a config, to start a run) without playing them, and loads no Python for
// that. A game played with it fails, naming the feature.
export function nameOnly(st, feature) {
  st.define_board_feature(feature.name, { value: () => "it is computed in the workers, and Python is not loaded here" });
}

// The code box's first text: a function of the board in the course's style (bumps.py, beside
// this script in the site), written with indexing so that it gives the same values on numpy's
// array and on a list of rows.
export const EXAMPLE = {
  name: "bumps",
  code: await fetch(new URL("./bumps.py", import.meta.url)).then((answer) => answer.text()),
};

// The commands that run the page's run and play its best.toml: through the Python package,
// with the feature's file, when the run has one.
export function commands(info, feature) {
  if (!feature) return ["stacktune evolve --config run.toml --out my-run", info.play_command];
  const file = ` --feature-file ${feature.name}.py`;
  return [
    `python -m stacktune evolve --config run.toml${file} --out my-run`,
    `python -m ${info.play_command}${file}`,
  ];
}
