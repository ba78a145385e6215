"""Seeded games with the installed stacktune wheel, printed as one JSON line: .ci/run runs it
with the x86-64 wheel and with the aarch64 wheel (under qemu), and the two lines must be equal:
the same seeds give the same games and scores on both instruction sets. The weights are held
in memory (Dellacherie's six for Tetris, plain ones for Puyo and Connect-N), so that the script
reads no file of the repository."""

import json

import stacktune

DELLACHERIE = {
    "landing_height": -1.0,
    "eroded_piece_cells": 1.0,
    "row_transitions": -1.0,
    "column_transitions": -1.0,
    "holes": -4.0,
    "cumulative_wells": -1.0,
}
PUYO = {"move_score": 1.0, "connected_2": 0.5, "connected_3": 2.0, "potential_chain": 3.0,
        "max_height": -1.0, "bumpiness": -0.5}
CONNECT = {"own_threats_odd": 2.0, "opp_threats_even": -2.0, "own_windows_3": 1.0,
           "opp_windows_3": -1.0, "own_centre": 0.5}


def whole_game(player, seed):
    """A game played move by move through `Player.choose`, as a user's loop plays it."""
    game = player.new_game(seed=seed)
    while not game.done:
        game.play(player.choose(game))
    return {"score": game.score, "moves": game.moves_played, "board": game.board.tolist()}


def main():
    tetris = stacktune.evaluate(DELLACHERIE, game="tetris", width=10, height=10, games=4, seed=1)
    puyo = stacktune.evaluate(PUYO, game="puyo", games=2, seed=1, max_pieces=300)
    connect = stacktune.evaluate(CONNECT, game="connect", opponent="random", games=20, seed=1)
    contest = stacktune.Player.from_weights(DELLACHERIE, game="tetris", rules="contest", level=2)
    result = {
        "tetris": tetris["scores"].tolist(),
        "puyo": puyo["scores"].tolist(),
        "connect": connect["scores"].tolist(),
        "contest": whole_game(contest, 7),
    }
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
