"""Game files: the shared games (GBK PGN and XQF) read to exactly their .moves lines, tags
and comments, PGN written in each notation and read back, GBK written."""

import pickle

import pytest

import xq
from conftest import GAMES

PGN_FILES = [f"ccgc2006-{n:02d}" for n in (1, 5, 7, 9, 11, 13, 15, 19, 21, 23)]

# Games whose independent .moves line stops early, at an advisor move written without
# 前/后 while two advisors share its file (see xq-records/tests/data/games/README.md):
# name, ply of that move, the move.
STOPPED_EARLY = {
    "ccgc2006-05": (55, "d2e1"),
    "ccgc2006-07": (72, "f9e8"),
    "ccgc2006-13": (141, "f2e1"),
    "ccgc2006-23": (88, "f9e8"),
}

# Plies of each main line and whether the game ends in mate.
PLIES = {
    "ccgc2006-01": (26, False),
    "ccgc2006-05": (116, True),
    "ccgc2006-07": (105, True),
    "ccgc2006-09": (85, True),
    "ccgc2006-11": (89, False),
    "ccgc2006-13": (174, True),
    "ccgc2006-15": (61, False),
    "ccgc2006-19": (80, True),
    "ccgc2006-21": (108, True),
    "ccgc2006-23": (221, False),
    "sample": (75, False),
}


def expected(name):
    """The start FEN (placement and side) and the ICCS moves of a .moves file."""
    lines = (GAMES / f"{name}.moves").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and lines[0].startswith("#")
    return lines[1], lines[2].split()


def read(name):
    if name == "sample":
        return xq.read_xqf(GAMES / "sample.xqf")
    games = xq.read_pgn(GAMES / f"{name}.pgn")
    assert len(games) == 1
    return games[0]


@pytest.mark.parametrize("name", list(PLIES))
def test_shared_games_read_to_their_moves(name):
    game = read(name)
    fen, line = expected(name)
    assert " ".join(game.start_fen.split()[:2]) == fen
    ours = [m.iccs() for m in game.moves]
    plies, mate = PLIES[name]
    assert len(ours) == plies
    if name in STOPPED_EARLY:
        ply, move = STOPPED_EARLY[name]
        assert len(line) == ply - 1
        assert ours[: ply - 1] == line
        assert ours[ply - 1] == move
    else:
        assert ours == line
    end = game.end()
    assert [m.iccs() for m in end.move_stack] == ours
    if mate:
        assert end.is_checkmate()
        assert end.outcome().termination is xq.Termination.CHECKMATE
        assert game.result == end.result()
    else:
        assert end.outcome() is None


def test_pgn_from_bytes_and_forced_encoding():
    data = (GAMES / "ccgc2006-13.pgn").read_bytes()
    assert xq.read_pgn(data)[0].moves == xq.read_pgn(data, encoding="gbk")[0].moves
    with pytest.raises(xq.InvalidGameFile):
        xq.read_pgn(data, encoding="utf-8")
    with pytest.raises(ValueError):
        xq.read_pgn(data, encoding="latin-9")


def test_pgn_tags_result_and_trailer():
    game = read("ccgc2006-13")
    assert game.tags == {
        "Game": "Chinese Chess",
        "Event": "1st Chinese Computer Games Championship, Beijing 2006",
        "Round": "13",
        "Date": "2006.08.06",
        "Site": "北京中国科技馆",
        "RedTeam": "",
        "Red": "相眼竞技",
        "BlackTeam": "",
        "Black": "将神传说",
        "Result": "0-1",
        "ECCO": "C16",
        "Opening": "中炮巡河车对屏风马",
        "Variation": "红进左马",
    }
    assert list(game.tags)[:3] == ["Game", "Event", "Round"]  # file order
    assert game.result == "0-1"
    assert game.trailer.endswith("https://www.xqbase.com/")
    assert game.comment is None
    assert repr(game) == "<Record 相眼竞技 vs 将神传说, 174 plies, 0-1>"


def test_xqf_tags_and_comments():
    game = read("sample")
    assert game.tags["Red"] == "许银川" and game.tags["Black"] == "聂卫平"
    assert game.result == "1-0"
    assert game.start_fen == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    assert game.comment.startswith("象棋让九子原属茶余饭后的娱乐")
    nodes = game.mainline()
    commented = [i + 1 for i, n in enumerate(nodes) if n.comment]
    assert commented == [2, 5, 12, 13, 14, 22, 24, 37, 57, 63, 75]
    assert nodes[1].comment == "红方首着架中炮必走之着，聂棋圣还架中炮拼兑子力，战术对头。"
    assert nodes[0].move == game.moves[0] and nodes[0].variations == []


RICH = """[Game "Chinese Chess"]
[Red "红方"]
[Black "黑方"]

{the game} 1. 炮二平五 {central cannon} 马８进７ $1 (1... 炮８平５ {same direction} 2. 马二进三 (2. 兵七进一)) 2. 马二进三 车９平８ *
"""


def test_tree_with_variations_and_round_trips():
    game = xq.read_pgn_str(RICH)[0]
    assert game.comment == "the game"
    nodes = game.mainline()
    assert nodes[0].comment == "central cannon"
    assert nodes[1].nags == [1]
    (variation,) = nodes[1].variations
    assert [n.move.iccs() for n in variation] == ["h7e7", "h0g2"]
    assert variation[0].comment == "same direction"
    assert [n.move.iccs() for n in variation[1].variations[0]] == ["c3c4"]
    for notation in ("chinese", "chinese-traditional", "wxf", "iccs"):
        text = game.pgn(notation)
        again = xq.read_pgn_str(text)[0]
        assert again == game, notation
    assert "1. C2=5 {central cannon} 1... H8+7 $1" in game.pgn("wxf")
    assert pickle.loads(pickle.dumps(game)) == game


def test_write_pgn_to_files(tmp_path):
    games = [read("ccgc2006-01"), read("sample")]
    text = xq.write_pgn(games, notation="wxf")
    assert text.count('[Format "WXF"]') == 2
    assert [g.moves for g in xq.read_pgn_str(text)] == [g.moves for g in games]
    path = tmp_path / "out.pgn"
    assert xq.write_pgn(games, path, encoding="gbk") is None
    raw = path.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert [g.moves for g in xq.read_pgn(path)] == [g.moves for g in games]


def test_a_board_becomes_a_record():
    board = xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w")
    board.push_notation("e1e9")
    game = xq.Record.from_board(board)
    assert game.result == "1-0" and game.moves == board.move_stack
    game.set_tag("Red", "me")
    game.result = "*"
    assert game.tags == {"Red": "me"} and game.result == "*"
    text = game.pgn("iccs")
    assert '[FEN "3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1"]' in text
    with pytest.raises(ValueError):
        game.result = "2-0"
