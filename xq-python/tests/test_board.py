"""The board: python-chess's shape, moves and notation, copies, pictures, pickling."""

import copy
import pickle

import pytest

import xq


def test_start_position(start):
    assert start.fen() == xq.STARTING_FEN
    assert start.turn is xq.RED
    assert len(start.legal_moves) == 44
    assert all(isinstance(m, xq.Move) for m in start.legal_moves)
    assert start.move_stack == []
    assert not start.is_check() and not start.is_checkmate() and not start.is_stalemate()
    assert start.outcome() is None and not start.is_game_over() and start.result() == "*"
    assert start.halfmove_clock == 0 and start.fullmove_number == 1


def test_squares_and_names():
    assert (xq.A0, xq.I0, xq.A1, xq.E4, xq.I9) == (0, 8, 9, 40, 89)
    assert len(xq.SQUARE_NAMES) == 90 and xq.SQUARE_NAMES[xq.H2] == "h2"
    assert xq.parse_square("e4") == xq.E4 and xq.parse_square("E4") == xq.E4
    assert xq.square_name(xq.B7) == "b7"
    assert (xq.square_file(xq.H2), xq.square_rank(xq.H2)) == (7, 2)
    assert xq.square(7, 2) == xq.H2
    assert xq.square_mirror(xq.H2) == xq.H7
    for bad in ("j0", "a10", "", "e"):
        with pytest.raises(ValueError):
            xq.parse_square(bad)
    for bad in (-1, 90):
        with pytest.raises(ValueError):
            xq.square_name(bad)


def test_move_value_type():
    m = xq.Move.from_iccs("h2e2")
    assert (m.from_square, m.to_square) == (xq.H2, xq.E2)
    assert m == xq.Move(xq.H2, xq.E2) and m != xq.Move(xq.E2, xq.H2)
    assert str(m) == m.iccs() == "h2e2"
    assert repr(m) == "Move.from_iccs('h2e2')"
    assert xq.Move.from_iccs("H2-E2") == m
    assert len({m, xq.Move(xq.H2, xq.E2)}) == 1
    assert sorted([xq.Move.from_iccs("b0c2"), xq.Move.from_iccs("a0a1")])[0].iccs() == "a0a1"
    assert m.mirror().iccs() == "h7e7" and xq.flip_move(m) == m.mirror()
    assert pickle.loads(pickle.dumps(m)) == m
    with pytest.raises(ValueError):
        xq.Move(xq.A0, xq.A0)
    with pytest.raises(ValueError):
        xq.Move(0, 90)


def test_piece_value_type(start):
    p = start.piece_at(xq.B0)
    assert p == xq.Piece(xq.HORSE, xq.RED)
    assert (p.piece_type, p.color) == (xq.HORSE, xq.RED)
    assert p.symbol() == "N" and p.unicode_symbol() == "傌"
    assert xq.Piece.from_symbol("n") == xq.Piece(xq.HORSE, xq.BLACK)
    assert xq.Piece.from_symbol("H") == p and xq.Piece.from_symbol("傌") == p
    assert repr(p) == "Piece.from_symbol('N')" and str(p) == "N"
    assert xq.PIECE_NAMES[p.piece_type] == "horse"
    assert start.piece_at(xq.E4) is None
    assert pickle.loads(pickle.dumps(p)) == p
    assert hash(p) == hash(xq.Piece(xq.HORSE, xq.RED))
    with pytest.raises(ValueError):
        xq.Piece(0, xq.RED)
    with pytest.raises(ValueError):
        xq.Piece.from_symbol("x")


def test_push_pop_peek(start):
    m = start.parse_move("炮二平五")
    start.push(m)
    assert start.peek() == m and start.move_stack == [m]
    assert start.turn is xq.BLACK
    reply = start.push_notation("马８进７")
    assert reply.iccs() == "h9g7"
    assert start.pop() == reply and start.pop() == m
    assert start.fen() == xq.STARTING_FEN
    with pytest.raises(IndexError):
        start.pop()
    with pytest.raises(IndexError):
        start.peek()


def test_notation_both_ways(start):
    m = xq.Move.from_iccs("h2e2")
    for text in ["h2e2", "H2-E2", "C2=5", "C2.5", "炮二平五", "砲2平5"]:
        assert start.parse_move(text) == m, text
    assert start.notation(m) == "炮二平五"
    assert start.notation(m, "chinese") == "炮二平五"
    assert start.notation(m, "wxf") == "C2=5"
    assert start.notation(m, "iccs") == "h2e2"
    assert start.notation(xq.Move.from_iccs("b0c2"), "chinese-traditional") == "傌八進七"
    line = [xq.Move.from_iccs(s) for s in "h2e2 h9g7 h0g2 i9h9".split()]
    assert start.line_notation(line, "wxf") == ["C2=5", "H8+7", "H2+3", "R9=8"]
    assert start.move_stack == []
    with pytest.raises(ValueError):
        start.notation(m, "klingon")


def test_queries(start):
    assert start.pieces(xq.CHARIOT, xq.RED) == [xq.A0, xq.I0]
    assert start.general(xq.BLACK) == xq.E9
    assert len(start.piece_map()) == 32
    assert [m.iccs() for m in start.legal_captures] == ["b2b9", "h2h9"]
    assert start.is_capture(xq.Move.from_iccs("b2b9"))
    assert start.is_legal(xq.Move.from_iccs("b0c2"))
    assert not start.is_legal(xq.Move.from_iccs("b0b1"))
    assert start.gives_check(xq.Move.from_iccs("h2h9")) is False
    # the black horse on b9 is attacked by the cannon on b2 (over the b7 cannon)
    assert start.attackers(xq.RED, xq.B9) == [xq.B2]
    assert start.zobrist_hash() == xq.Board().zobrist_hash()


def test_checkmate_and_stalemate():
    mate = xq.Board("R3k4/1R7/9/9/9/9/9/9/9/3K5 b")
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    o = mate.outcome()
    assert o.result() == "1-0" and o.winner is xq.RED
    assert o.termination is xq.Termination.CHECKMATE and o.termination == "checkmate"
    assert str(o) == "1-0 checkmate" and mate.result() == "1-0" and mate.is_game_over()
    # Black's general on d9 is not in check and every step is covered: it loses.
    stale = xq.Board("3k5/7R1/9/9/4R4/9/9/9/9/5K3 b")
    assert stale.is_stalemate() and not stale.is_check()
    assert stale.outcome().termination == xq.Termination.STALEMATE
    assert stale.outcome().winner is xq.RED


def test_copy_mirror_equality(start):
    start.push(xq.Move.from_iccs("h2e2"))
    c = start.copy()
    assert c == start and c.move_stack == start.move_stack
    c.push(xq.Move.from_iccs("h9g7"))
    assert c != start and len(start.move_stack) == 1
    assert start.copy(stack=False).move_stack == []
    assert copy.copy(start) == start and copy.deepcopy(start).move_stack == start.move_stack
    mirrored = start.mirror()
    assert mirrored.turn is xq.RED and mirrored.move_stack == []
    assert mirrored.piece_at(xq.E7) == xq.Piece(xq.CANNON, xq.BLACK)
    assert mirrored.mirror().fen() == start.fen()
    # A move and its mirror are legal in the board and its mirror alike.
    assert sorted(m.mirror() for m in start.legal_moves) == sorted(mirrored.legal_moves)
    with pytest.raises(TypeError):
        hash(start)


def test_pickle_keeps_the_game(start):
    for text in "h2e2 h9g7 h0g2 i9h9".split():
        start.push(xq.Move.from_iccs(text))
    again = pickle.loads(pickle.dumps(start))
    assert again == start and again.move_stack == start.move_stack
    assert again.root().fen() == xq.STARTING_FEN


def test_text_and_pictures(start):
    lines = str(start).splitlines()
    assert lines[0] == "r n b a k a b n r" and lines[-1] == "R N B A K A B N R"
    assert len(lines) == 10
    assert start.unicode().splitlines()[0] == "車馬象士將士象馬車"
    assert "楚河" in start.unicode(coordinates=True)
    assert repr(start) == f"Board('{xq.STARTING_FEN}')"
    start.push(xq.Move.from_iccs("h2e2"))
    svg = start._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="piece') == 32 and svg.count('class="lastmove"') == 2
    assert "楚 河" in svg and "帥" in svg and "將" in svg
    import xml.dom.minidom

    xml.dom.minidom.parseString(svg)  # well-formed
    assert "xq-arrowhead" in xq.svg.board(start, arrows=[(xq.E2, xq.E6)], size=300)


def test_set_fen_and_reset(start):
    start.set_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 3 20")
    assert start.turn is xq.BLACK and start.halfmove_clock == 3 and start.fullmove_number == 20
    start.reset()
    assert start.fen() == xq.STARTING_FEN


def test_every_move_of_random_games_round_trips_through_notation():
    import random

    rng = random.Random(7)
    for _ in range(20):
        board = xq.Board()
        for _ in range(60):
            moves = board.legal_moves
            if not moves or board.is_game_over():
                break
            m = rng.choice(moves)
            for notation in ("chinese", "chinese-traditional", "wxf", "iccs"):
                assert board.parse_move(board.notation(m, notation)) == m
            board.push(m)
        fen = board.fen()
        assert xq.Board(fen).fen() == fen


def test_python_chess_spellings(start):
    m = xq.Move.from_uci("h2e2")
    assert m == xq.Move.from_iccs("h2e2") and m.uci() == m.iccs() == "h2e2"
    with pytest.raises(xq.InvalidMove):
        xq.Move.from_uci("h2x2")
    assert start.ply() == 0
    assert start.push_uci("h2e2") == m and start.ply() == 1
    with pytest.raises(xq.IllegalMove):
        start.push_uci("h2e2")
    with pytest.raises(xq.InvalidMove):
        start.push_uci("炮二平五")  # UCI's form only; push_notation reads the others
    assert start.move_stack == [m]
    start.push_uci("h9g7")
    assert start.ply() == 2 and start.fullmove_number == 2
    assert xq.Board("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 40").ply() == 79
    # Repetitions since the last capture: the horses out and back.
    board = xq.Board()
    assert board.is_repetition(1) and not board.is_repetition(2)
    for _ in range(2):
        for uci in ("h0g2", "h9g7", "g2h0", "g7h9"):
            board.push_uci(uci)
    assert board.is_repetition(3) and not board.is_repetition(4) and board.is_repetition()
    board.pop()  # the position after g2h0 has occurred twice
    assert board.is_repetition(2) and not board.is_repetition(3)
    board.push_uci("g7h9")
    board.push_uci("b0c2")
    assert not board.is_repetition(2) and board.is_repetition(1)
    with pytest.raises(ValueError):
        board.is_repetition(0)
    # Checkers: the squares of the pieces that give check, in square order.
    assert xq.Board().checkers() == []
    double = xq.Board("3k5/9/9/9/4r4/9/9/3n5/9/4K4 w")  # the chariot on e5 and the horse on d2
    assert double.is_check() and double.checkers() == [xq.D2, xq.E5]


def test_composed_positions():
    fen = "3pkp3/R8/9/9/9/9/9/8R/9/5K3 w"  # Black's soldiers on its own back rank
    with pytest.raises(xq.InvalidFen) as e:
        xq.Board(fen)
    assert str(e.value) == (
        "illegal position: 'p' can never stand on d9 (no game reaches it, but it can be "
        "played: Board(fen, strict=False) takes it)"
    )
    board = xq.Board(fen, strict=False)
    assert board.status() == xq.Status.UNREACHABLE_SQUARE and not board.is_valid()
    assert board.irregularities() == ["'p' can never stand on d9", "'p' can never stand on f9"]
    assert xq.Board().status() == xq.STATUS_VALID == xq.Status.VALID and xq.Board().is_valid()
    assert xq.Board().irregularities() == []
    # It plays by the rules: the soldiers step forward only; a mate in one is found.
    black = xq.Board(fen.replace(" w", " b"), strict=False)
    assert sorted(m.uci() for m in black.legal_moves if m.from_square in (xq.D9, xq.F9)) == ["d9d8", "f9f8"]
    engine = xq.EmbeddedEngine(threads=1, hash_mb=1)
    result = engine.play(board, depth=4)
    assert result.move == xq.Move.from_uci("i2e2")
    board.push(result.move)
    assert board.is_checkmate() and board.outcome().result() == "1-0"
    # Copies, mirrors and pickles keep it; set_fen takes strict too.
    import pickle

    assert pickle.loads(pickle.dumps(board)).move_stack == board.move_stack
    assert board.copy().fen() == board.fen() and board.root().status() == xq.Status.UNREACHABLE_SQUARE
    assert board.mirror().irregularities() == ["'P' can never stand on d0", "'P' can never stand on f0"]
    other = xq.Board()
    with pytest.raises(xq.InvalidFen):
        other.set_fen(fen)
    assert other == xq.Board()
    other.set_fen(fen, strict=False)
    assert other.fen().startswith("3pkp3/")
    # What cannot be played is refused, strict or not.
    for bad in ("3k5/9/9/3A5/9/9/9/9/9/4K4 w", "4k4/9/9/9/9/9/9/9/9/4K4 w", "4k4/9/9/9/9/9/9/9/4R4/3K5 w"):
        with pytest.raises(xq.InvalidFen) as e:
            xq.Board(bad, strict=False)
        assert "strict=False" not in str(e.value)


def test_a_composed_board_in_the_ml_calls():
    pytest.importorskip("numpy")
    # Red's advisor on d1 and elephant on f1, off their points: d1e0, d1e2 and f1d3 have
    # no action index (no game has them); the soldier behind its start (b2b3) has one.
    board = xq.Board("3k5/9/9/2r6/9/9/9/1P4c2/3A1B3/5K3 w", strict=False)
    legal = {m.uci() for m in board.legal_moves}
    assert {"d1e2", "d1e0", "f1d3", "b2b3"} <= legal and "f1h3" not in legal  # its eye g2 is taken
    indices = board.legal_indices()
    mask = board.legal_mask()
    assert sorted(indices) == sorted(int(i) for i in mask.nonzero()[0])
    with_action = []
    for m in board.legal_moves:
        try:
            with_action.append(xq.move_to_index(m))
        except ValueError:
            assert m.uci() in ("d1e2", "d1e0", "f1d3"), m
    assert sorted(with_action) == sorted(indices) and xq.move_to_index(xq.Move.from_uci("b2b3")) in indices
    assert len(indices) == len(legal) - 3
    assert not mask[0]  # nothing lands on action 0 (a0b0) by mistake
