"""Move generation and the whole rules through the binding: perft equals the Rust perft
(data/perft.epd, whose counts xq-perft checks in CI), and outcome() gives every ruling of
data/repetition.epd at its last move and not before."""

import pytest

import xq
from conftest import perft_cases, repetition_cases

PERFT = perft_cases()
CASES = repetition_cases()


def py_perft(board, depth):
    """Perft through the binding: legal_moves, push and pop from Python."""
    if depth == 1:
        return len(board.legal_moves)
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def test_the_suites_are_all_there():
    assert len(PERFT) == 50
    assert len(CASES) == 41


@pytest.mark.parametrize("fen,counts", PERFT, ids=[f"perft{i + 1}" for i in range(len(PERFT))])
def test_perft_through_push_and_pop(fen, counts):
    board = xq.Board(fen)
    # Depth 2 everywhere, depth 3 where it is small: Python drives every node.
    for depth in (1, 2, 3):
        if depth in counts and (depth < 3 or counts[depth] <= 40_000):
            assert py_perft(board, depth) == counts[depth], f"depth {depth}"
    assert board.fen() == xq.Board(fen).fen()
    assert board.move_stack == []


@pytest.mark.parametrize("fen,counts", PERFT, ids=[f"perft{i + 1}" for i in range(len(PERFT))])
def test_perft_in_rust_equals_the_suite(fen, counts):
    board = xq.Board(fen)
    for depth, n in counts.items():
        if n <= 2_000_000:
            assert board.perft(depth) == n, f"depth {depth}"


def expected(case):
    result = {"red-wins": "1-0", "black-wins": "0-1", "draw": "1/2-1/2"}[case["result"]]
    if case["result"] == "draw":
        tag = "repetition"
    elif case["kind"] in ("perpetual-check", "check-vs-chase"):
        tag = "perpetual-check"
    else:
        tag = "perpetual-chase"
    return result, tag


@pytest.mark.parametrize("case", CASES, ids=[f"line{c['line']}-{c['kind']}" for c in CASES])
def test_every_repetition_ruling(case):
    board = xq.Board(case["fen"])
    for i, text in enumerate(case["moves"]):
        assert board.outcome() is None, f"ruled after {i} moves"
        board.push(xq.Move.from_iccs(text))
    outcome = board.outcome()
    result, tag = expected(case)
    assert outcome is not None
    assert (outcome.result(), outcome.termination.value) == (result, tag)
    assert outcome.termination == xq.Termination(tag)
    assert board.result() == result
    if tag == "repetition":
        assert outcome.winner is None and outcome.by is None
    else:
        # The side that checks or chases loses.
        assert outcome.by is (not outcome.winner)
        assert str(outcome).startswith(f"{result} perpetual ")
    if tag == "perpetual-chase":
        assert outcome.chased_piece is not None and outcome.chased_piece.color is outcome.winner
        assert board.piece_at(outcome.chased_square) == outcome.chased_piece
    else:
        assert outcome.chased_piece is None and outcome.chased_square is None


def test_perpetual_chase_names_the_chaser_and_the_piece():
    board = xq.Board("9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w")
    for text in "h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7 h9h7".split():
        assert board.outcome() is None
        board.push_notation(text)
    o = board.outcome()
    assert o.termination is xq.Termination.PERPETUAL_CHASE
    assert o.result() == "0-1" and o.winner is xq.BLACK and o.by is xq.RED
    assert o.chased_piece == xq.Piece(xq.HORSE, xq.BLACK) and o.chased_square == xq.B7
    assert str(o) == "0-1 perpetual chase by red of the black horse on b7"
    # Taking a move back takes the ruling back.
    board.pop()
    assert board.outcome() is None


def test_plain_repetition_and_pop():
    board = xq.Board()
    for text in "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9".split():
        board.push_notation(text)
    o = board.outcome()
    assert o.termination is xq.Termination.REPETITION and o.winner is None
    assert o.result() == "1/2-1/2" and board.is_game_over()


def test_sixty_move_rule_and_insufficient_material():
    # Red's clock at 119 plies: one more quiet move reaches 120.
    board = xq.Board("4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 119 80")
    assert board.outcome() is None
    board.push_notation("a0a1")
    assert board.outcome().termination is xq.Termination.MOVE_RULE
    assert board.outcome().result() == "1/2-1/2"
    bare = xq.Board("4k4/9/9/9/9/9/9/9/4A4/3K5 w")
    assert bare.outcome().termination is xq.Termination.INSUFFICIENT_MATERIAL
