"""Runs from Python hold under faults (issue 56): no hang, no lost Ctrl-C, no mixed history, no
stray file, and a one-line error for every bad input a careful user tried.

Whatever could hang runs in a child Python with a timeout of its own (a hang fails its test,
never CI's clock); the signal tests send a real SIGINT once the child is in the state they
need (a file it writes, a line it prints), never after a sleep."""

from __future__ import annotations

import math
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import stacktune
from custom_games import Counting
from stacktune.custom import GameError, play_games

TESTS = Path(__file__).resolve().parent

# Far longer than any of these calls takes once it works; far shorter than a hang.
BOUND = 240

# A game of the protocol as a user writes it in a notebook cell: nothing importable.
COUNTING = """
import numpy as np, random
class Game:
    name = "cell"
    feature_names = ("value", "odd")
    def reset(self, seed):
        self.rng = random.Random(seed)
        self.turns = 0
    def placements(self):
        return [0, 1, 2, 3]
    def features(self):
        return np.array([[p, p % 2] for p in range(4)], dtype=float)
    def play(self, placement):
        self.turns += 1
        return float(placement * self.rng.randrange(1, 4))
    def done(self):
        return self.turns >= 5
"""

SMALL_RUN = {
    "name": "faults", "seed": 3, "generations": 3, "games": 4, "max_pieces": 40,
    "validation_games": 4, "validate_every": 2, "final_games": 8, "validation_max_pieces": 40,
    "ga": {"population": 6, "elitism": 1},
}


def tetris_run(name: str, generations: int = 1, **more) -> dict:
    """A run of a built-in game small enough for seconds: Tetris 6 × 8, short games."""
    return {"name": name, "generations": generations, "games": 2, "max_pieces": 50,
            "validation_games": 2, "final_games": 4, "validation_max_pieces": 50,
            "game": {"game": "tetris", "width": 6, "height": 8}, "ga": {"population": 4}, **more}


def python(code: str, cwd: Path, **options) -> subprocess.Popen:
    """A child Python running `code`, with this test folder importable; `options` may name
    other streams."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env, text=True,
        **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options},
    )


def finished(child: subprocess.Popen) -> tuple:
    try:
        out, err = child.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"still running after {BOUND} s: {err[-2000:]}")
    return child.returncode, out, err


def last_line(err: str) -> str:
    return err.strip().splitlines()[-1]


# Hangs


def test_a_class_of_a_notebook_cell_plays_on_two_workers(tmp_path):
    child = python(COUNTING + """
from stacktune.custom import evolve, play_games
one = play_games(Game, [[1.0, 0.0], [0.0, 1.0]], range(1, 7), workers=1, chunk=2)
two = play_games(Game, [[1.0, 0.0], [0.0, 1.0]], range(1, 7), workers=2, chunk=2)
assert one[0].tobytes() == two[0].tobytes() and one[1] == two[1], (one, two)
result = evolve(Game, %r, workers=2, out="cell", quiet=True)
print(result["folder"])
""" % SMALL_RUN, tmp_path)
    code, out, err = finished(child)
    assert code == 0, err
    assert (tmp_path / "cell" / "best.toml").is_file()
    assert "__main__:Game" in (tmp_path / "cell" / "run.toml").read_text()


DIES = COUNTING + """
import os
class Dies(Game):
    name = "dies"
    def play(self, placement):
        os._exit(9)
"""


def test_a_worker_that_dies_ends_play_games_naming_the_game_and_the_worker(tmp_path):
    child = python(DIES + """
from stacktune.custom import play_games
play_games(Dies, [[1.0, 0.0]], range(8), workers=2)
""", tmp_path)
    code, _, err = finished(child)
    assert code == 1
    line = last_line(err)
    assert line.startswith("stacktune.custom.GameError: game dies: worker process "), line
    assert line.endswith(
        "died (exit code 9) while it played candidate 0 on seed 0 (and 7 more games); play those "
        "games with workers=1 to see why (a crash in the game, os._exit, or the out-of-memory killer)"
    ), line


def test_a_worker_that_dies_ends_evolve(tmp_path):
    child = python(DIES + """
from stacktune.custom import evolve
evolve(Dies, %r, workers=2, out="dies", quiet=True)
""" % SMALL_RUN, tmp_path)
    code, _, err = finished(child)
    assert code == 1
    assert "GameError: game dies: worker process " in last_line(err)


def test_a_script_without_a_main_guard_runs(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text(COUNTING + """
from stacktune.custom import play_games
print(play_games(Game, [[1.0, 0.0]], range(4), workers=2, chunk=1)[1])
""")
    child = subprocess.Popen(
        [sys.executable, str(script)], cwd=tmp_path, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    code, out, err = finished(child)
    assert (code, out.strip(), err) == (0, "20", "")


class Endless(Counting):
    """A game whose play() never returns."""

    name = "endless"

    def play(self, placement: int) -> float:
        while True:
            pass


class NeverDone(Counting):
    name = "never-done"

    def done(self) -> bool:
        return False


@pytest.mark.parametrize("game, workers", [(Endless, 2), (Endless, 1), (NeverDone, 1)])
def test_a_batch_past_its_time_limit_is_one_line(tmp_path, game, workers):
    child = python(f"""
from test_faults import {game.__name__}
from stacktune.custom import play_games
play_games({game.__name__}, [[1.0, 0.0]], range(4), max_moves=10**9, workers={workers}, time_limit=1)
""", tmp_path)
    code, _, err = finished(child)
    assert code == 1
    assert last_line(err) == (
        f"stacktune.custom.GameError: game {game.name}: a batch of 4 games ran past time_limit=1 s "
        "(a play() that never returns, or a game whose done() is never true?); raise time_limit, "
        "or play one with play_game to see"
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_the_time_limit_holds_for_the_check_of_reset_before_a_run(tmp_path, workers):
    child = python(f"""
from test_faults import Endless
from stacktune.custom import evolve
evolve(Endless, %r, workers={workers}, time_limit=1, out="x", quiet=True)
""" % SMALL_RUN, tmp_path)
    code, _, err = finished(child)
    assert code == 1
    assert last_line(err).startswith(
        "stacktune.custom.GameError: game endless: a batch of 2 games ran past time_limit=1 s "
    )


class RendersForever(Counting):
    name = "renders-forever"

    def render(self) -> str:
        while True:
            pass


def test_a_render_that_never_returns_leaves_the_page_without_its_replay(tmp_path):
    child = python("""
from test_faults import RendersForever
from stacktune.custom import evolve
evolve(RendersForever, %r, time_limit=5, out="r", quiet=True)
""" % SMALL_RUN, tmp_path)
    code, _, err = finished(child)
    assert code == 0, err
    assert (tmp_path / "r" / "report.html").is_file()


class Spins(Counting):
    """A game whose play() leaves a file named for its process, then never returns."""

    name = "spins"

    def play(self, placement: int) -> float:
        Path(f"spinning-{os.getpid()}").touch()
        while True:
            pass


def running(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting for its reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sent", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_workers_end_with_the_caller_however_it_ends(tmp_path, sent):
    child = python("""
from test_faults import Spins
from stacktune.custom import play_games
play_games(Spins, [[1.0, 0.0]], range(4), workers=2, chunk=1)
""", tmp_path)
    spinning = []
    while len(spinning) < 2:
        assert child.poll() is None, child.communicate()[1]
        spinning = list(tmp_path.glob("spinning-*"))
    workers = [int(path.name.split("-")[1]) for path in spinning]
    child.send_signal(sent)
    # Not communicate(): the workers hold the child's standard error open while they run.
    assert child.wait(timeout=BOUND) == -sent
    waited = 0.0
    try:
        while any(running(pid) for pid in workers):
            assert waited < BOUND, f"workers {workers} still run {BOUND} s after their caller ended"
            time.sleep(0.05)
            waited += 0.05
    finally:
        for pid in filter(running, workers):
            os.kill(pid, signal.SIGKILL)
        child.stdout.close()
        child.stderr.close()


# Ctrl-C


RENDERS_ONCE_SLOWLY = COUNTING + """
import os, time
class Slow(Game):
    name = "slow"
    def render(self):
        # The first frame of the run's page waits for Ctrl-C (the test sends it once the
        # marker is there); every later frame is drawn at once.
        if not os.path.exists("rendering"):
            open("rendering", "w").close()
            while True:
                time.sleep(0.01)
        return str(self.turns)
"""


def resumed_is_whole(tmp_path: Path, game: str, folder: str) -> None:
    """Resumes the run in `folder` and runs it whole in `whole`: the same bytes."""
    child = python(RENDERS_ONCE_SLOWLY + f"""
from stacktune.custom import evolve
evolve({game}, resume={folder!r}, quiet=True)
evolve({game}, %r, out="whole", quiet=True)
""" % SMALL_RUN, tmp_path)
    code, _, err = finished(child)
    assert code == 0, err
    for name in ["history.csv", "checkpoint.json", "best.toml"]:
        assert (tmp_path / folder / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


def test_ctrl_c_while_the_page_replays_stops_at_the_last_checkpoint(tmp_path):
    child = python(RENDERS_ONCE_SLOWLY + """
from stacktune.custom import evolve
evolve(Slow, %r, out="cut", quiet=True)
""" % SMALL_RUN, tmp_path)
    while not (tmp_path / "rendering").exists():
        assert child.poll() is None, child.communicate()[1]
    child.send_signal(signal.SIGINT)
    code, _, err = finished(child)
    assert code == -signal.SIGINT, err
    assert last_line(err) == (
        "KeyboardInterrupt: stopped after generation 0; resume with: "
        "stacktune.custom.evolve(Slow, resume=\"cut\")"
    )
    resumed_is_whole(tmp_path, "Slow", "cut")


def test_ctrl_c_to_the_process_group_stops_a_run_on_workers(tmp_path):
    (tmp_path / "rendering").touch()  # no slow frame in this one
    longer = dict(SMALL_RUN, generations=40)
    child = python(RENDERS_ONCE_SLOWLY + """
from stacktune.custom import evolve
evolve(Slow, %r, workers=2, out="cut", quiet=True)
""" % longer, tmp_path, start_new_session=True)
    history = tmp_path / "cut" / "history.csv"
    while not (history.exists() and len(history.read_text().splitlines()) > 1):
        assert child.poll() is None, child.communicate()[1]
    os.killpg(child.pid, signal.SIGINT)
    code, _, err = finished(child)
    assert code == -signal.SIGINT, err
    line = last_line(err)
    assert line.startswith("KeyboardInterrupt: stopped ") and line.endswith(
        "resume with: stacktune.custom.evolve(Slow, resume=\"cut\")"
    ), line
    done = len(history.read_text().splitlines()) - 1
    assert 1 <= done < 40


FINISH = """
import sys, stacktune
run = stacktune.Run({"name": "long", "generations": 1, "games": 2, "max_pieces": 50,
                     "validation_games": 1, "final_games": 1000000, "validation_max_pieces": 2000,
                     "features": ["holes", "landing_height"],
                     "game": {"game": "tetris", "width": 6, "height": 8}, "ga": {"population": 4}},
                    out="long")
run.evaluate(run.ask()[0])
run.finish()
"""


def test_ctrl_c_stops_finish_leaving_a_resumable_run(tmp_path, cli):
    child = python(FINISH, tmp_path)
    # The run says when its held-out games begin (progress goes to standard error).
    for line in child.stderr:
        if line.startswith("scoring the best weights on 1000000 held-out games"):
            break
    child.send_signal(signal.SIGINT)
    code, _, err = finished(child)
    assert code == -signal.SIGINT, err
    assert last_line(err) == (
        "KeyboardInterrupt: stopped during the held-out games; resume with: "
        "stacktune.Run.resume(\"long\")"
    )
    folder = tmp_path / "long"
    assert not (folder / "best.toml").exists()
    cli("report", str(folder))
    again = stacktune.Run.resume(folder, quiet=True)
    assert (again.generation, again.generations, again.done) == (1, 1, True)


# Data


def test_a_resume_of_a_changed_run_toml_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(tetris_run("r", generations=2), out="r", quiet=True)
    run.evaluate(run.ask()[0])
    with pytest.raises(ValueError):
        run.finish()  # stops it, checkpointed, after one generation
    run_toml = tmp_path / "r" / "run.toml"
    run_toml.write_text(run_toml.read_text().replace("\ngames = 2", "\ngames = 8"))
    with pytest.raises(ValueError) as raised:
        stacktune.Run.resume("r", quiet=True)
    assert str(raised.value) == (
        "cannot resume r: its run.toml changes `games` (8, the run started with 2); a resume may "
        "only raise `generations`: put `games` back, or start a new run from this run.toml with "
        "--config and --out; the folder is left as it is"
    )


def test_a_config_dict_writes_nothing_in_the_working_folder_and_errors_name_its_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as raised:
        stacktune.evolve({"generatoins": 3}, out="typo", quiet=True)
    assert str(raised.value).startswith(
        "run config key `generatoins`: unknown field `generatoins`, expected one of `name`, `seed`"
    )
    with pytest.raises(ValueError) as raised:
        stacktune.evolve({"ga": {"population": "many"}}, out="typo", quiet=True)
    assert str(raised.value).startswith("run config key `ga.population`: invalid type: string \"many\"")
    with pytest.raises(ValueError) as raised:
        stacktune.evolve({"ga": {"mutation_rate": math.nan}}, out="nan", quiet=True)
    assert str(raised.value) == "run config key `ga.mutation_rate` is nan: a run config's numbers are finite"
    assert list(tmp_path.iterdir()) == []


def test_huge_weights_are_refused_as_infinite_ones_are():
    with pytest.raises(ValueError) as raised:
        stacktune.evaluate({"holes": 1e307}, game="tetris", games=1)
    assert str(raised.value) == (
        "weight `holes` is 1e307: weights must be at most 1e100 in size (only their ratios "
        "choose moves: divide them all by one number)"
    )
    with pytest.raises(ValueError):
        stacktune.Player.from_weights({"holes": -1e307}, game="tetris")


class IgnoresItsSeed(Counting):
    name = "ignores-its-seed"

    def reset(self, seed: int) -> None:
        super().reset(int.from_bytes(os.urandom(8), "little"))


def test_a_reset_that_ignores_its_seed_is_found_before_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GameError) as raised:
        stacktune.custom.evolve(IgnoresItsSeed, SMALL_RUN, out="x", quiet=True)
    assert str(raised.value).startswith("game ignores-its-seed: reset(1) made two different games (they part at move ")
    assert not (tmp_path / "x").exists()


# Messages and silent acceptances


class Strings(Counting):
    name = "strings"

    def features(self):
        return [["a", "b"]] * 4


class Ragged(Counting):
    name = "ragged"

    def features(self):
        return [[1.0, 2.0], [1.0], [1.0, 2.0], [1.0, 2.0]]


@pytest.mark.parametrize("game", [Strings, Ragged])
def test_features_that_are_not_a_table_of_numbers_name_the_game(game):
    with pytest.raises(GameError) as raised:
        play_games(game, [[1.0, 0.0]], [1])
    text = str(raised.value)
    assert "\n" not in text
    assert text.startswith(f"game {game.name}: features() must be numbers, one row of 2 per placement (ValueError: ")


GAME_ERRORS = [
    (dict(chunk=0), "game counting: chunk 0 must be at least 1"),
    (dict(workers=1.5), "game counting: workers must be an int, not 1.5"),
    (dict(seeds=[1.5]), "game counting: a seed must be an int, not 1.5"),
    (dict(max_moves=2.5), "game counting: max_moves must be an int, not 2.5"),
    (dict(candidates=[[1j, 0.0]]), "game counting: the weights are complex numbers; weights are real"),
    (dict(time_limit=0), "game counting: time_limit 0 must be a number of seconds above 0, or None for no limit"),
    (dict(workers=0), "game counting: workers 0 must be at least 1"),
    (dict(workers=-3), "game counting: workers -3 must be at least 1"),
    (dict(candidates=[[1e308, 0.0]]), "game counting: placement 2 is worth w·φ = inf (feature value's weight 1e+308 "
     "times its value 2 passes the range of a float); use smaller weights"),
    (dict(candidates=[[0.0, 0.0]]), "game counting: every weight of candidate 0 is 0: the player would have no "
     "preference among placements; give at least one weight that is not 0"),
    (dict(candidates=[[True, 0.0]]), "game counting: a weight is True (bool); weights are real numbers (int or float)"),
    (dict(candidates=[["30", 0.0]]), "game counting: a weight is '30' (str); weights are real numbers (int or float)"),
]


@pytest.mark.parametrize("given, message", GAME_ERRORS, ids=[m for _, m in GAME_ERRORS])
def test_play_games_refuses_what_it_used_to_cut_or_crash_on(given, message):
    arguments = dict(candidates=[[1.0, 0.0]], seeds=[1]) | given
    with pytest.raises(GameError) as raised:
        play_games(Counting, **arguments)
    assert str(raised.value) == message


class Huge(Counting):
    name = "huge"

    def play(self, placement: int) -> float:
        super().play(placement)
        return 1e308


class ScoresText(Counting):
    name = "scores-text"

    def play(self, placement: int) -> float:
        super().play(placement)
        return "30"  # type: ignore[return-value]


class ScoresBool(Counting):
    name = "scores-bool"

    def play(self, placement: int) -> float:
        super().play(placement)
        return True


class ComplexFeatures(Counting):
    name = "complex-features"

    def features(self) -> np.ndarray:
        return np.array([[p, 1j * (p == 2)] for p in range(4)])


class Overflows(Counting):
    """Features whose weighted sum passes a float's range though no one term does."""

    name = "overflows"

    def features(self) -> np.ndarray:
        return np.full((4, 2), 1e308)


GAMES_THAT_BREAK_THE_PROTOCOL = [
    (ScoresText, "game scores-text: play(3) returned '30'; it must return the points scored, a real number "
     "(int or float, not str)"),
    (ScoresBool, "game scores-bool: play(3) returned True; it must return the points scored, a real number "
     "(int or float, not bool)"),
    (ComplexFeatures, "game complex-features: features() gave complex numbers: feature odd of placement 2 is 1j "
     "(features are real numbers)"),
    (Overflows, "game overflows: placement 0 is worth w·φ = inf (the sum of its weighted features passes the "
     "range of a float); use smaller weights"),
]


@pytest.mark.parametrize("game, message", GAMES_THAT_BREAK_THE_PROTOCOL, ids=[g.name for g, _ in GAMES_THAT_BREAK_THE_PROTOCOL])
def test_what_a_game_gives_must_be_real_numbers(game, message):
    with pytest.raises(GameError) as raised:
        play_games(game, [[1.0, 1.0]], [1])
    assert str(raised.value) == message


def raising(method: str) -> type:
    """Counting, its method `method` raising KeyError."""

    def broken(self, *args):
        raise KeyError(f"no {method} here")

    return type(f"Raises{method}", (Counting,), {"name": "raises", method: broken})


@pytest.mark.parametrize("method, call", [("reset", "reset(1)"), ("done", "done()"), ("placements", "placements()"),
                                          ("features", "features()"), ("play", "play(3)")])
@pytest.mark.parametrize("workers", [1, 2])
def test_an_error_in_a_games_method_names_the_game_and_the_call(method, call, workers):
    with pytest.raises(GameError) as raised:
        play_games(raising(method), [[1.0, 0.0]], [1], workers=workers)
    assert str(raised.value) == f"game raises: {call} failed: KeyError: 'no {method} here'"


def test_an_infinite_score_is_refused():
    with pytest.raises(GameError) as raised:
        play_games(Huge, [[1.0, 0.0]], [1])
    assert str(raised.value) == (
        "game huge: the game of seed 1 scored inf (its points summed past the range of a float): "
        "scores must be finite"
    )


def test_names_as_one_string_is_refused():
    with pytest.raises(TypeError) as raised:
        stacktune.evaluate([1.0], names="holes", game="tetris", games=1)
    assert str(raised.value) == "evaluate(): names= is a list of feature names, not one str: names=[\"holes\"]"
    with pytest.raises(TypeError) as raised:
        stacktune.Player.from_weights([1.0], names="holes", game="tetris")
    assert str(raised.value) == (
        "Player.from_weights(): names= is a list of feature names, not one str: names=[\"holes\"]"
    )


def test_complex_weights_are_refused():
    with pytest.raises(TypeError) as raised:
        stacktune.evaluate({"holes": np.complex128(1 + 2j)}, game="tetris", games=1)
    assert str(raised.value) == "evaluate(): weight `holes` is complex ((1+2j)): weights are real numbers"
    with pytest.raises(TypeError) as raised:
        stacktune.Player.from_weights(np.array([1.0 + 0j, 2.0]), names=["holes", "landing_height"], game="tetris")
    assert str(raised.value) == "Player.from_weights(): the weights are complex numbers: weights are real numbers"


def test_a_player_of_another_board_is_refused(tmp_path):
    player = stacktune.Player.from_weights({"holes": -1.0}, game="tetris", width=6, height=8)
    with pytest.raises(ValueError) as raised:
        player.choose(stacktune.Tetris())
    text = str(raised.value)
    assert text == (
        "weights in memory plays tetris (research 6x8, uniform pieces), not this tetris game "
        "(research 10x20, uniform pieces)"
    )


def test_evaluate_after_finish_says_the_run_is_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(tetris_run("done"), out="done", quiet=True)
    run.evaluate(run.ask()[0])
    run.finish()
    with pytest.raises(RuntimeError) as raised:
        run.evaluate(np.zeros((4, 13)))
    assert str(raised.value) == (
        "finish() has ended this run (done): a new run is a new stacktune.Run, and "
        "Run.resume(folder) continues one that was stopped"
    )
    # A finished run of a built-in optimiser is run again with evolve; of one's own, with Run.
    with pytest.raises(ValueError) as raised:
        stacktune.Run.resume("done", quiet=True)
    assert str(raised.value) == (
        "done holds a finished run (its best.toml is written): nothing to resume; to run it "
        "again: stacktune evolve --config done/run.toml"
    )


def test_a_finished_external_run_is_run_again_with_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = tetris_run("ext", features=["holes", "landing_height"],
                        optimizer={"kind": "external"}, external={"name": "mine", "population": 3})
    del config["ga"]
    run = stacktune.Run(config, out="ext", quiet=True)
    run.evaluate(np.ones((3, 2)))
    run.finish()
    with pytest.raises(ValueError) as raised:
        stacktune.Run.resume("ext", quiet=True)
    assert str(raised.value).endswith("to run it again: stacktune.Run(\"ext/run.toml\")")


def test_a_folder_locked_by_this_process_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = stacktune.Run(tetris_run("held", generations=2), out="held", quiet=True)
    with pytest.raises(ValueError) as raised:
        stacktune.Run.resume("held", quiet=True)
    assert str(raised.value) == (
        f"held is in use by a run of this process (pid {os.getpid()}): finish that run (or stop it, "
        "or let it go) before another run uses the folder"
    )
    assert first.generation == 0


def test_workers_are_as_many_as_are_useful(monkeypatch):
    started = []

    class Counted(stacktune._workers.Workers):
        def __init__(self, count, make, name):
            started.append(count)
            super().__init__(count, make, name)

    monkeypatch.setattr(stacktune.custom, "Workers", Counted)
    alone = play_games(Counting, [[1.0, 0.0]], [1], workers=1)
    assert started == []
    assert play_games(Counting, [[1.0, 0.0]], [1], workers=300)[0].tolist() == alone[0].tolist() == [[24.0]]
    play_games(Counting, [[1.0, 0.0]], range(40), workers=300, chunk=1)
    assert started == [1, min(stacktune.custom._cores(), 40)]


CLI_RUN = """name = "cli"
generations = 1000
games = 2
max_pieces = 50
validation_games = 2
final_games = 4
validation_max_pieces = 50
[game]
game = "tetris"
width = 6
height = 8
[ga]
population = 4
"""


def test_ctrl_c_stops_python_m_stacktune_evolve_with_the_binarys_resume_line(tmp_path):
    (tmp_path / "run.toml").write_text(CLI_RUN)
    child = subprocess.Popen(
        [sys.executable, "-m", "stacktune", "evolve", "--config", "run.toml", "--out", "cut", "--quiet"],
        cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    history = tmp_path / "cut" / "history.csv"
    while not (history.exists() and len(history.read_text().splitlines()) > 2):
        assert child.poll() is None, child.communicate()[1]
    child.send_signal(signal.SIGINT)
    code, _, err = finished(child)
    assert code == 1, err
    assert re.fullmatch(
        r"error: stopped (after|during) generation \d+; resume with: stacktune evolve --resume cut",
        last_line(err),
    ), err


class InterruptsItsReplay(Counting):
    """A game whose render() is where Ctrl-C lands: in the replay of the run's first page."""

    name = "interrupts-its-replay"

    def render(self) -> str:
        os.kill(os.getpid(), signal.SIGINT)
        return ""


def test_a_run_stopped_in_its_first_replay_still_has_its_page(tmp_path):
    child = python("""
from test_faults import InterruptsItsReplay
from stacktune.custom import evolve
evolve(InterruptsItsReplay, %r, out="r", quiet=True)
""" % SMALL_RUN, tmp_path)
    code, _, err = finished(child)
    assert code == -signal.SIGINT
    assert last_line(err) == (
        'KeyboardInterrupt: stopped after generation 0; resume with: '
        'stacktune.custom.evolve(InterruptsItsReplay, resume="r")'
    )
    # The page of generation 0, without its replays.
    page = (tmp_path / "r" / "report.html").read_text()
    assert "interrupts-its-replay" in page


def test_progress_that_cannot_be_written_is_an_os_error_not_a_panic(tmp_path):
    # Standard error on a full device: the games' progress lines fail. What the call raised
    # goes to a file, since standard error takes nothing.
    weights = TESTS.parents[1] / "weights" / "tetris" / "dellacherie.toml"
    with open("/dev/full", "w") as full:
        child = python("""
import stacktune
try:
    stacktune.play(weights=%r, games=2, max_pieces=100)
    raised = "nothing"
except BaseException as e:
    raised = f"{type(e).__name__}: {e}"
open("raised.txt", "w").write(raised)
""" % str(weights), tmp_path, stderr=full)
    code, _, _ = finished(child)
    assert code == 0
    assert (tmp_path / "raised.txt").read_text() == (
        "OSError: cannot write to standard error: No space left on device (os error 28)"
    )
