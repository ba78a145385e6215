"""Plays an exported `block_controller.py` in the contest's own engine (a checkout of
seigot/tetris) and compares each game's score with `stacktune play --rules contest --json`.

The harness beside this file is the check CI runs (CI has no copy of the engine); this script
is the same check against the real thing, for anyone with the engine at hand:

    python tests/contest_controller/real_engine.py --engine ../tetris \
        --weights weights/contest/beam-l2.toml --level 2 --seeds 1-20

It exports the weights into the engine's `game_manager/block_controller.py` (moving the file
that was there to `block_controller.py.orig` once, and putting it back at the end), runs
`python start.py -l LEVEL -r SEED -d 1 -f RESULT` per seed with `QT_QPA_PLATFORM=offscreen`
(the engine is a Qt application; `-d 1` is a 1 ms tick, so a game takes seconds, not 180 s),
reads the score, lines and game overs from the result file, and prints one line a game and a
summary. An engine that scores an all-clear (its versions from July 2023) is compared with
`stacktune play --all-clear`, which the controller then plays. Level 4 is played against the
wall clock (`--seconds`, 180 by default, start.py's `-t`): its game is compared with
the first N moves of `stacktune play --level 4` (`--max-pieces N`), N the turns the engine
reached in that time (the controller, like `play`, plays for a game of 180,000 turns). The `python` on PATH must have the engine's requirements and the `stacktune`
package. Exit status 1 if any game differs.
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from harness import seeds  # noqa: E402 (this script's folder)
from stacktune_binary import stacktune  # noqa: E402


def scores_all_clears(engine):
    """Whether the engine scores an all-clear: it takes the bonus as an option from July 2023."""
    source = (engine / "game_manager" / "game_manager.py").read_text(encoding="utf-8")
    return "all_block_clear_score" in source


def stacktune_game(binary, weights, level, seed, flags):
    """`stacktune play`'s score, lines and game overs in the game of `seed`."""
    out = subprocess.run(
        [binary, "play", "--rules", "contest", "--weights", weights, "--level", str(level),
         "--seed", str(seed), "--games", "1", "--json", "--quiet", *flags],
        check=True, capture_output=True, text=True,
    ).stdout
    game = json.loads(out)["per_game"][0]
    return int(game["score"]), game["lines"], game["game_overs"]


def engine_game(engine, level, seed, seconds, result):
    """One game of the engine: (score, lines, game overs, turns played, seconds it took)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(
        [sys.executable, "start.py", "-l", str(level), "-r", str(seed), "-d", "1",
         "-t", str(seconds), "-f", result],
        cwd=engine, env=env, capture_output=True, text=True, timeout=seconds + 900,
    )
    if run.returncode != 0 or not os.path.exists(result):
        sys.exit(f"error: the engine failed on level {level} seed {seed}:\n{run.stdout[-2000:]}"
                 f"{run.stderr[-2000:]}")
    with open(result) as f:
        judge = json.load(f)["judge_info"]
    return (judge["score"], judge["line"], judge["gameover_count"], judge["block_index"],
            judge["elapsed_time"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="a checkout of seigot/tetris")
    parser.add_argument("--weights", required=True, help="contest weights to export")
    parser.add_argument("--level", type=int, required=True, choices=(1, 2, 3, 4))
    parser.add_argument("--seeds", type=seeds, required=True, help="e.g. 1-20 (level 1: 0)")
    parser.add_argument("--seconds", type=int, default=180,
                        help="the engine's game time (start.py -t): the length of level 4")
    args = parser.parse_args()
    engine = pathlib.Path(args.engine).resolve()
    binary = stacktune()

    controller = engine / "game_manager" / "block_controller.py"
    original = controller.with_name("block_controller.py.orig")
    if controller.exists() and not original.exists():
        controller.rename(original)
    elif controller.exists():
        controller.unlink()  # ours, from an earlier run of this script
    subprocess.run([binary, "export", "contest", "--weights", args.weights, "--out",
                    str(controller)], check=True, capture_output=True)
    try:
        flags = ["--all-clear"] if scores_all_clears(engine) else []
        print(f"the engine {'scores' if flags else 'does not score'} all-clears: compared with "
              f"stacktune play {' '.join(flags)}".rstrip(), flush=True)
        differ = 0
        with tempfile.TemporaryDirectory() as scratch:
            for seed in args.seeds:
                result = os.path.join(scratch, f"result-{seed}.json")
                score, lines, overs, turns, seconds = engine_game(
                    engine, args.level, seed, args.seconds, result)
                limit = ["--max-pieces", str(turns)] if args.level == 4 else []
                want = stacktune_game(binary, args.weights, args.level, seed, flags + limit)
                same = (score, lines, overs) == want
                differ += not same
                print(f"level {args.level} seed {seed}: engine {score} ({lines} lines, "
                      f"{overs} game overs, {turns} turns in {seconds:.1f} s), "
                      f"{' '.join(['stacktune play', *limit])} {want[0]} ({want[1]} lines, "
                      f"{want[2]} game overs): {'same' if same else 'DIFFERENT'}", flush=True)
        print(f"{len(args.seeds) - differ} of {len(args.seeds)} games the same")
    finally:
        controller.unlink()
        if original.exists():
            shutil.move(original, controller)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
