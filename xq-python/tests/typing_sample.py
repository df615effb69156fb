"""Typed use of the package: tests/test_package.py runs mypy --strict on this file
against the installed wheel's stubs (it is not a test module itself)."""

import numpy as np
import xq
import xq.engine
import xq.envs
import xq.pgn

board: xq.Board = xq.Board()
moves: list[xq.Move] = board.legal_moves
board.push(moves[0])
o = board.outcome()
if o is not None:
    t: xq.Termination = o.termination
    r: str = o.result()
mask: np.ndarray = board.legal_mask()
e = xq.EmbeddedEngine(threads=1, hash_mb=16)
info = e.analyse(board, xq.engine.Limit(depth=3))
score: xq.engine.PovScore = info["score"]
cp: int | None = score.red().score(mate_score=100_000)
lines = e.analyse(board, depth=3, multipv=2)
first = lines[0]["pv"]
played: xq.engine.PlayResult = e.play(board, xq.engine.Limit(nodes=1000))
games: list[xq.Record] = xq.read_pgn("x.pgn") if False else []
game: xq.pgn.Game | None = None
if game is not None:
    node: xq.pgn.GameNode = game.end()
    text: str = game.pgn("wxf")


class Plies(xq.pgn.BaseVisitor[int]):
    def begin_game(self) -> None:
        self.plies = 0

    def visit_move(self, board: xq.Board, move: xq.Move) -> None:
        self.plies += 1

    def begin_variation(self) -> xq.pgn.SkipType:
        return xq.pgn.SKIP

    def result(self) -> int:
        return self.plies


if False:
    handle = open("x.pgn", "rb")
    read: xq.pgn.Game | None = xq.pgn.read_game(handle, encoding="gbk")
    plies: int | None = xq.pgn.read_game(handle, Visitor=Plies)
    headers: xq.pgn.Headers | None = xq.pgn.read_headers(handle)
    skipped: bool = xq.pgn.skip_game(handle)
    if read is not None:
        walked: int = read.accept(Plies())
        exported: str = read.accept(xq.pgn.StringExporter(notation="iccs"))
m: xq.Move = xq.index_to_move(xq.move_to_index(moves[0]))
sq: int = xq.E4 + xq.parse_square("e4")
svg: str = xq.svg.board(board, size=300)
shard: bytes = xq.selfplay(2, nodes=100, seed=3, threads=1, classical=True) if False else b""
data: dict[str, object] = xq.read_datagen("x.xqsp") if False else {}
vec = xq.envs.VectorXiangqi(2, history=1)
vec_obs, vec_masks = vec.reset(seed=1)
vec_obs, vec_masks, vec_rewards, vec_dones = vec.step(vec.sample_actions())
env_obs, env_mask = xq.envs.observation(board, xq.RED, history=0)
env_move: xq.Move = xq.envs.action_to_move(board, xq.envs.move_to_action(board, moves[0]))
n_env_planes: int = xq.envs.n_planes(xq.envs.DEFAULT_HISTORY)
