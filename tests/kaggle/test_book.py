"""The exported agent's opening book lookup (`export kaggle --book`): a position or its mirror
image, keyed as stacktune's solver keys it (the mover's discs plus all discs), gives the
columns the search may choose from, mirrored back for a mirror image; a lost position gives
them all, and a position the book does not hold falls through to the endgame stage. The book
here is written by hand so that every answer is known."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from endgame_time import discs
from same_column import load
from test_endgame import kaggle_board

#: The empty board keeps column 3 (Kaggle's, from 0); after `1` (the first player in column
#: 0) the position is lost; after `12` columns 1 and 4 keep its value. As the book holds them.
HAND_BOOK = {0: 0b1000, 1: 0, 1 + (1 + (1 << 7)): 0b10010}


@pytest.fixture()
def module(submission, monkeypatch):
    module = load(submission)
    monkeypatch.setattr(module, "BOOK", HAND_BOOK)
    monkeypatch.setattr(module, "BOOK_PLIES", 2)
    return module


@pytest.mark.parametrize(
    "moves,kept",
    [
        ("", {3}),
        ("1", None),
        ("7", None),
        ("12", {1, 4}),
        ("76", {5, 2}),
    ],
)
def test_a_position_or_its_mirror_image_gives_its_columns(module, moves, kept):
    rules = module.rules_for(6, 7, 4)
    own, opp = discs(rules, moves)
    assert module.book_keeping(rules, own, opp) == kept


@pytest.mark.parametrize("moves", ["2", "13", "123"])
def test_a_position_it_does_not_hold_falls_through(module, moves):
    rules = module.rules_for(6, 7, 4)
    own, opp = discs(rules, moves)
    assert module.book_keeping(rules, own, opp) is module.NOT_IN_BOOK
    # Other boards have no book.
    small = module.rules_for(5, 6, 4)
    assert module.book_keeping(small, *discs(small, "")) is module.NOT_IN_BOOK


def test_the_search_chooses_among_the_books_columns(module):
    # At depth 2 the plain search opens in column 2 (the parity the book is for).
    board = kaggle_board("")
    assert module.choose_column(board, 1, 6, 7, 4, 2) == 2
    assert module.choose_column(board, 1, 6, 7, 4, 2, book=True) == 3
    # After `12` the first player chooses among columns 1 and 4 only.
    board = kaggle_board("12")
    assert module.choose_column(board, 1, 6, 7, 4, 2, book=True) in {1, 4}


def test_the_shipped_book_opens_in_the_centre_at_every_depth(submission):
    """The book `export kaggle` embeds by default (weights/connect/book.txt, up to one disc):
    on the empty board the search keeps to the centre at every depth, where without the book it
    opens in column 2, giving the first player's win away, at every even depth."""
    shipped = load(submission)
    assert shipped.BOOK_PLIES == 1
    assert len(shipped.BOOK) == 5
    board = kaggle_board("")
    plain = [shipped.choose_column(board, 1, 6, 7, 4, depth) for depth in range(1, 8)]
    assert plain == [3, 2, 3, 2, 3, 2, 3]
    for depth in range(1, 8):
        assert shipped.choose_column(board, 1, 6, 7, 4, depth, book=True) == 3
    # After a first disc in the centre the second player is lost: every column is left to it.
    rules = shipped.rules_for(6, 7, 4)
    assert shipped.book_keeping(rules, *discs(rules, "4")) is None
