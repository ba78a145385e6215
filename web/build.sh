#!/usr/bin/env bash
# Builds the stacktune playground into DIR (docs/web.md): the WebAssembly module of web/ and
# its JavaScript glue, the page's files, and the report page's script and style, which the
# page reuses; and the TBP bot's module (web/tbp/) with its glue, which tbp-worker.js runs.
# DIR must be new, empty, or a playground this script built before.
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and
# wasm-bindgen-cli at the version Cargo.lock pins for wasm-bindgen (the script says which);
# with `npm ci --prefix web` done, it also runs binaryen's wasm-opt -Oz, which brings the module
# from about 2.4 MB to 1.66 MB (docs/web.md, Measured) at the same speed as -O3.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: web/build.sh DIR" >&2
    exit 2
fi
out="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/stacktune_web.js" ]; then
    echo "$out holds files this script did not build; give a new or empty folder" >&2
    exit 1
fi
pinned=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3 }' "$root/Cargo.lock")
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$pinned" ]; then
    echo "wasm-bindgen ${have:-is missing}; Cargo.lock pins $pinned:" >&2
    echo "  cargo install --no-default-features wasm-bindgen-cli --version $pinned" >&2
    exit 1
fi
target="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")"
cargo build --manifest-path "$root/Cargo.toml" --profile web -p stacktune-web \
    -p stacktune-tbp-web --target wasm32-unknown-unknown
mkdir -p "$out"
wasm_opt="$root/web/node_modules/.bin/wasm-opt"
[ -x "$wasm_opt" ] ||
    echo "note: no wasm-opt (npm ci --prefix web installs it); the modules are left unoptimised" >&2
# The playground's module, and the TBP bot's (web/tbp/, for web/page/tbp-worker.js).
for module in stacktune_web stacktune_tbp_web; do
    wasm-bindgen --target web --no-typescript --out-dir "$out" \
        "$target/wasm32-unknown-unknown/web/$module.wasm"
    if [ -x "$wasm_opt" ]; then
        # The features Rust's wasm32 target uses; wasm-opt's own defaults would turn more on.
        "$wasm_opt" -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
            --enable-mutable-globals --enable-multivalue --enable-reference-types \
            "$out/${module}_bg.wasm" -o "$out/${module}_bg.wasm"
    fi
done
cp "$root"/web/page/* "$out/"
# Pyodide's core, from npm (web/package-lock.json pins it), which the page's workers load only
# for a run with a feature of one's own in Python (web/page/python-feature.js). A numpy wheel
# put beside it (Pyodide's numpy-*.whl for this version) is loaded from here; without one, from
# Pyodide's CDN when the browser is online.
pyodide="$root/web/node_modules/pyodide"
if [ -f "$pyodide/pyodide.mjs" ]; then
    mkdir -p "$out/pyodide"
    cp "$pyodide"/{pyodide.mjs,pyodide.asm.js,pyodide.asm.wasm,python_stdlib.zip,pyodide-lock.json} "$out/pyodide/"
    cp "$pyodide"/numpy-*.whl "$out/pyodide/" 2>/dev/null || true
else
    echo "note: no Pyodide (npm ci --prefix web installs it); the page's Python feature will not run" >&2
fi
# The report page's replay controls, in the one copy crates/run/src/report_page/replay.html holds.
awk -v replay="$root/crates/run/src/report_page/replay.html" \
    '/^<!-- replay.html: / { while ((getline line < replay) > 0) print line; next } { print }' \
    "$root/web/page/index.html" >"$out/index.html"
cp "$root/crates/run/src/report_page/page.js" "$out/report.js"
cp "$root/crates/run/src/report_page/page.css" "$out/report.css"
echo "built $out: serve it over http, e.g. python3 -m http.server -d $out 8000"
