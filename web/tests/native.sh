#!/usr/bin/env bash
# The native binary's answers to web/tests/node.mjs's questions, into the new folder OUT:
#   web/tests/native.sh STACKTUNE OUT
# moves of the shared board files (tests/data/boards) for every piece node.mjs asks about,
# `play --json` and game 0's replay page of the small run's held-out games with the hand-set
# weights, the small run itself (web/tests/small-run.toml, run where it names its files), and
# the matches of match.mjs.
set -euo pipefail
stacktune="$(realpath "$1")"
out="$(realpath -m "$2")"
cd "$(dirname "$0")/../.."
mkdir "$out"
for piece in I O T S Z L J; do
    "$stacktune" moves --game tetris --board tests/data/boards/tetris.txt --piece "$piece" --json \
        >"$out/moves-tetris-$piece.json"
done
for pair in 11 12 34 44; do
    "$stacktune" moves --game puyo --board tests/data/boards/puyo.txt --piece "$pair" --json \
        >"$out/moves-puyo-$pair.json"
done
"$stacktune" moves --game connect --board tests/data/boards/connect.txt --json >"$out/moves-connect.json"
# small-run.toml's game and held-out games: seed 1000001, 30 pieces a game.
held_out=(--weights weights/puyo/hand.toml --rules tsu --colours 4 --fitness max_chain
    --seed 1000001 --max-pieces 30 --quiet)
"$stacktune" play "${held_out[@]}" --games 8 --json >"$out/play.json"
"$stacktune" play "${held_out[@]}" --games 1 --replay-html "$out/replay.html" >/dev/null
(cd web/tests && "$stacktune" evolve --config small-run.toml --out "$out/run" --quiet)
# The playground's Puyo match (match.mjs): the hand-set player against the shipped self-play
# player, and against versus-hand.toml (the page's opponent from a link).
"$stacktune" versus weights/puyo/hand.toml weights/puyo/versus-selfplay.toml --games 20 --seed 7 \
    --json --quiet >"$out/versus.json"
"$stacktune" versus weights/puyo/hand.toml weights/puyo/versus-hand.toml --games 6 --seed 3 \
    --json --quiet >"$out/versus-link.json"
