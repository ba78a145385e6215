// A notebook's Python calling the module (docs/web.md, JupyterLite and Pyodide): Pyodide under
// Node runs the docs' cell, the module fetched from PLAYGROUND, and its answer must equal
// `stacktune moves --json`'s in NATIVE (web/tests/native.sh's folder).
//   node web/tests/pyodide.mjs PLAYGROUND NATIVE
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { loadPyodide } from "pyodide";

const [playground, native] = process.argv.slice(2).map((dir) => dir && resolve(dir));
if (!playground || !native) {
  console.error("usage: node web/tests/pyodide.mjs PLAYGROUND NATIVE");
  process.exit(2);
}
const root = new URL("../../", import.meta.url).pathname;
const py = await loadPyodide();
// What a browser's fetch would get: the module beside its glue, and the notebook's board file.
globalThis.wasmBytes = new Uint8Array(readFileSync(join(playground, "stacktune_web_bg.wasm")));
py.FS.writeFile("board.txt", readFileSync(join(root, "tests/data/boards/tetris.txt"), "utf8"));
const listing = await py.runPythonAsync(`
import js
from pyodide.ffi import to_js
st = await js.eval("import('${join(playground, "stacktune_web.js")}')")
await st.default(to_js({"module_or_path": js.wasmBytes}, dict_converter=js.Object.fromEntries))
board = open("board.txt").read()
st.moves("tetris", board, "T", None)
`);
assert.equal(listing, readFileSync(join(native, "moves-tetris-T.json"), "utf8"), "moves from Pyodide");
console.log(`web/tests/pyodide.mjs: Pyodide ${py.version}'s Python calls the module, as stacktune moves answers`);
