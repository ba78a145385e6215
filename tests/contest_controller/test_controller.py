"""The exported controller, driven through the engine's GameStatus and nextMove formats
(harness.py), scores game by game what `stacktune play --rules contest` scores with the same
weights, level and seed: every move it makes is the one stacktune makes, or the games part."""

import json
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import harness
from stacktune_binary import ROOT, stacktune


def cli_scores(weights, level, first, games, extra=()):
    """Per-game scores of `stacktune play --json`: game i of `--seed first` is contest seed
    first + i, as `--seed first+i --games 1` plays it."""
    out = subprocess.run(
        [stacktune(), "play", "--rules", "contest", "--weights", str(ROOT / weights),
         "--level", str(level), "--seed", str(first), "--games", str(games), "--json",
         "--quiet", *extra],
        check=True, capture_output=True, text=True,
    )
    per_game = json.loads(out.stdout)["per_game"]
    assert [g["game"] for g in per_game] == [
        f"contest seed {first + i}, level {level}" for i in range(games)
    ]
    return [g["score"] for g in per_game]


# Level 1 is one game: the contest's seed 0, the fixed cycle I L J T O S Z.
@pytest.mark.parametrize(
    "level,weights,first,games",
    [
        (1, "weights/contest/beam-l1.toml", 0, 1),
        (2, "weights/contest/beam-l2.toml", 1, 20),
        (3, "weights/contest/beam-l3.toml", 1, 5),
        # Weaker weights that top out: seeds 1 and 3 have 1 and 3 game overs (and spawns over
        # the stack between them), which the controller must count as the engine does.
        (3, "reports/tetris-contest-l3/best.toml", 1, 3),
    ],
)
def test_scores_what_stacktune_play_scores(export, move_seconds, level, weights, first, games):
    controller = export(weights)
    expected = cli_scores(weights, level, first, games)
    scores = []
    for seed in range(first, first + games):
        score, seconds = harness.play(controller, level, seed)
        scores.append(score)
        move_seconds.setdefault((level, weights), []).extend(seconds)
        assert len(seconds) == 180, f"seed {seed}: {len(seconds)} moves, not 180 turns"
    assert scores == expected


# The engine's versions from July 2023 score an all-clear and say so in GameStatus: the
# controller then plays `play --all-clear`'s moves, which aim for it (seeds 1, 4 and 5 of level 2
# score 26,677, 26,508 and 25,332 so; without the bonus 25,956, 26,008 and 25,819).
def test_scores_what_play_all_clear_scores_where_the_engine_scores_all_clears(export):
    weights = "weights/contest/beam-l2.toml"
    controller = export(weights)
    expected = cli_scores(weights, 2, 1, 5, ["--all-clear"])
    assert expected[0] == 26677
    scores = [harness.play(controller, 2, seed, all_clear=True)[0] for seed in range(1, 6)]
    assert scores == expected


def test_level_4_plays_on_past_180_turns(export, move_seconds):
    """At level 4 (start.py's block_num_max -1) the controller plays the 180,000-turn game:
    its first 400 moves are those of `play --level 4 --max-pieces 400`."""
    weights = "weights/contest/l4.toml"
    controller = export(weights)
    expected = cli_scores(weights, 4, 1, 2, ["--max-pieces", "400"])
    scores = []
    for seed in (1, 2):
        score, seconds = harness.play(controller, 4, seed, moves=400)
        assert len(seconds) == 400
        move_seconds.setdefault((4, weights), []).extend(seconds)
        scores.append(score)
    assert scores == expected


def test_the_harness_refuses_a_move_the_game_has_not():
    game = harness.stacktune.ContestTetris(level=2, seed=1)
    move = harness.empty_next_move()
    move["strategy"].update(direction=0, x=12, y_operation=1, y_moveblocknum=1,
                            use_hold_function="n")
    with pytest.raises(ValueError, match="no legal move is"):
        harness.request(game, move)
    move["strategy"].update(x=3, y_operation=0)
    with pytest.raises(ValueError, match="only hard drops are played, not y_operation 0"):
        harness.request(game, move)
