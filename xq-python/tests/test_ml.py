"""The machine-learning helpers: the action index (2,086 moves, fixed order), legal masks,
planes and their layout, the colour flip, the batch calls, xq datagen files."""

import random

import numpy as np
import pytest

import xq


def random_boards(n, seed, max_plies=80):
    rng = random.Random(seed)
    boards = []
    for _ in range(n):
        b = xq.Board()
        for _ in range(rng.randrange(max_plies)):
            moves = b.legal_moves
            if not moves or b.is_game_over():
                break
            b.push(rng.choice(moves))
        boards.append(b)
    return boards


def test_the_action_index_has_2086_moves_in_a_fixed_order():
    moves = xq.action_moves()
    assert xq.N_ACTIONS == len(moves) == 2086
    keys = [(m.from_square, m.to_square) for m in moves]
    assert keys == sorted(keys) and len(set(keys)) == 2086
    assert [m.iccs() for m in moves[:3]] == ["a0b0", "a0c0", "a0d0"]
    for i, m in enumerate(moves):
        assert xq.move_to_index(m) == i and xq.index_to_move(i) == m


def test_the_action_index_counted_from_the_movement_rules():
    """2,086 = 90 x 17 chariot/cannon lines + 508 horse jumps + 16 advisor and 32
    elephant diagonals; general and soldier steps are on the lines."""
    def fr(sq):
        return sq % 9, sq // 9

    lines = horse = 0
    for a in range(90):
        for b in range(90):
            (fa, ra), (fb, rb) = fr(a), fr(b)
            if a != b and (fa == fb or ra == rb):
                lines += 1
            if sorted((abs(fa - fb), abs(ra - rb))) == [1, 2]:
                horse += 1
    assert (lines, horse) == (1530, 508)
    diag = [m for m in xq.action_moves()
            if abs(xq.square_file(m.from_square) - xq.square_file(m.to_square)) in (1, 2)
            and abs(xq.square_file(m.from_square) - xq.square_file(m.to_square))
            == abs(xq.square_rank(m.from_square) - xq.square_rank(m.to_square))]
    assert len(diag) == 16 + 32
    assert 1530 + 508 + 48 == xq.N_ACTIONS


def test_every_legal_move_has_an_index_and_the_mask_is_the_legal_moves():
    for b in random_boards(40, seed=3):
        mask = b.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (2086,)
        legal = sorted(xq.move_to_index(m) for m in b.legal_moves)
        assert list(np.flatnonzero(mask)) == legal
        assert sorted(b.legal_indices()) == legal


def test_mirror_is_consistent_with_the_index():
    for i in range(xq.N_ACTIONS):
        j = xq.mirror_index(i)
        assert xq.index_to_move(j) == xq.index_to_move(i).mirror()
        assert xq.mirror_index(j) == i
    for b in random_boards(20, seed=4):
        m = b.mirror()
        assert (b.legal_mask(relative=True) == (m.legal_mask() if not b.turn else b.legal_mask())).all()
        assert (np.flatnonzero(m.legal_mask())
                == sorted(xq.mirror_index(i) for i in np.flatnonzero(b.legal_mask()))).all()


def test_planes_layout():
    b = xq.Board()
    p = b.planes()
    assert p.dtype == np.float32 and p.shape == (xq.N_PLANES, 10, 9) == (18, 10, 9)
    flat = p.reshape(18, 90)
    # 0-6 Red general .. soldier, 7-13 Black's, [plane, rank, file].
    assert flat[0, xq.E0] == 1 and flat[0].sum() == 1
    assert flat[4, xq.A0] == flat[4, xq.I0] == 1
    assert p[6, 3, 0] == 1  # Red soldier on a3
    assert flat[7, xq.E9] == 1 and flat[7 + 5, xq.B7] == 1
    assert flat[:14].sum() == 32
    for sq, piece in b.piece_map().items():
        plane = piece.piece_type - 1 + (0 if piece.color else 7)
        assert flat[plane, sq] == 1
    assert (p[14] == 1).all()  # Red to move
    assert (p[15:] == 0).all()
    b.push_notation("h2e2")
    assert (b.planes()[14] == 0).all()


def test_repetition_and_clock_planes():
    b = xq.Board()
    for text in "h0g2 h9g7 g2h0 g7h9".split():
        b.push_notation(text)
    p = b.planes()
    assert (p[15] == 1).all() and (p[16] == 0).all()
    for text in "h0g2 h9g7 g2h0 g7h9".split():
        b.push_notation(text)
    p = b.planes()
    assert (p[15] == 1).all() and (p[16] == 1).all()
    assert np.allclose(p[17], 8 / 120)
    assert np.allclose(xq.Board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 60 40").planes()[17], 0.5)


def test_relative_planes_are_the_mirrors():
    for b in random_boards(20, seed=5):
        rel = b.planes(relative=True)
        if b.turn:
            assert (rel == b.planes()).all()
        else:
            assert (rel[:14] == b.mirror().planes()[:14]).all()
            assert (rel[14:] == b.planes()[14:]).all()


def test_batches_equal_the_boards_one_by_one():
    boards = random_boards(64, seed=6)
    masks = xq.legal_masks(boards)
    planes = xq.planes_batch(boards)
    assert masks.shape == (64, 2086) and planes.shape == (64, 18, 10, 9)
    for i, b in enumerate(boards):
        assert (masks[i] == b.legal_mask()).all()
        assert (planes[i] == b.planes()).all()
    rel = xq.legal_masks(boards, relative=True)
    assert all((rel[i] == b.legal_mask(relative=True)).all() for i, b in enumerate(boards))
    assert xq.legal_masks([]).shape == (0, 2086)
    assert xq.planes_batch(tuple(boards[:2])).shape == (2, 18, 10, 9)
    masks[0, 0] = True  # the arrays are writable


def test_push_batch():
    boards = [b for b in random_boards(64, seed=7) if b.legal_moves and not b.is_game_over()]
    rng = np.random.default_rng(0)
    masks = xq.legal_masks(boards)
    picks = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    expected = [b.copy() for b in boards]
    for b, i in zip(expected, picks):
        b.push(xq.index_to_move(int(i)))
    xq.push_batch(boards, picks)
    assert [b.fen() for b in boards] == [b.fen() for b in expected]
    # Relative indices: mirrored for Black to move.
    rel = xq.legal_masks(boards, relative=True)
    picks = [int(np.flatnonzero(m)[0]) for m in rel]
    xq.push_batch(boards, picks, relative=True)


def test_push_batch_is_all_or_nothing():
    boards = [xq.Board(), xq.Board()]
    good = xq.move_to_index(xq.Move.from_iccs("h2e2"))
    bad = xq.move_to_index(xq.Move.from_iccs("h2h8"))
    with pytest.raises(xq.IllegalMove) as e:
        xq.push_batch(boards, [good, bad])
    assert str(e.value).startswith("board 1:")
    assert all(b.move_stack == [] for b in boards)
    with pytest.raises(ValueError):
        xq.push_batch(boards, [good, 5000])
    with pytest.raises(ValueError):
        xq.push_batch(boards, [good])
    assert all(b.move_stack == [] for b in boards)


def test_read_datagen(tmp_path):
    path = tmp_path / "data.txt"
    path.write_text(
        "# xq datagen\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 10 | 0.5\n"
        "\n"
        "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 1200 | 1.0\n"
        "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1 | -900 | 0.0\n",
        encoding="utf-8",
    )
    data = xq.read_datagen(path)
    assert data["fen"][1] == "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"
    assert data["score"].dtype == np.int32 and list(data["score"]) == [10, 1200, -900]
    assert data["result"].dtype == np.float32 and list(data["result"]) == [0.5, 1.0, 0.0]
    assert "planes" not in data
    data = xq.read_datagen(str(path), planes=True)
    assert data["planes"].shape == (3, 18, 10, 9)
    assert (data["planes"][1] == xq.Board(data["fen"][1]).planes()).all()
    path.write_text("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 12\n", encoding="utf-8")
    with pytest.raises(xq.InvalidDataFile) as e:
        xq.read_datagen(path)
    assert "line 1" in str(e.value) and "3 fields" in str(e.value)
    with pytest.raises(FileNotFoundError):
        xq.read_datagen(tmp_path / "missing.txt")
