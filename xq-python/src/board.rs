//! `xq.Board`, a game in progress (python-chess's `Board`), and `xq.Outcome`.

use crate::errors::{value_error, Error, Kind};
use crate::tensor;
use crate::types::Reduced;
use crate::types::{self, is_red, Move, Piece};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use xq_core::{Color, FenError, File, Ignore, Position, PositionError, Rank, Square};
use xq_movegen::notation::{read_move, write_line, write_move, Notation};
use xq_movegen::{legal_moves, Game, GameResult, Termination};

/// The deepest perft asked for (depth 7 from the start is already 2 * 10^11 leaves).
const MAX_PERFT_DEPTH: u32 = 20;

/// Reads a notation name: `chinese`, `chinese-traditional`, `wxf` or `iccs`.
pub fn notation(name: &str) -> PyResult<Notation> {
    name.parse::<Notation>().map_err(|_| {
        value_error(format!(
            "unknown notation '{name}' (chinese, chinese-traditional, wxf or iccs)"
        ))
    })
}

/// A position from a FEN, or `InvalidFen` with the reason: a position a game can reach
/// when `strict`, else any playable one (`Ignore::PLAYABLE`: a composition's soldier
/// behind its start, say). A strict refusal that `strict=False` would accept says so.
pub fn position_with(fen: &str, strict: bool) -> Result<Position, Error> {
    let ignore = if strict {
        Ignore::NOTHING
    } else {
        Ignore::PLAYABLE
    };
    Position::from_fen_with(fen, ignore).map_err(|e| {
        let hint = match &e {
            FenError::Position(p) if strict && Ignore::PLAYABLE.ignores(p) => {
                " (no game reaches it, but it can be played: Board(fen, strict=False) takes it)"
            }
            _ => "",
        };
        Error::new(Kind::InvalidFen, format!("{e}{hint}"))
    })
}

/// A position a game can reach from a FEN, or `InvalidFen` with the reason.
pub fn position(fen: &str) -> Result<Position, Error> {
    position_with(fen, true)
}

/// The bit of `xq.Status` for a position error (python-chess's `Status` flags).
fn status_bit(e: &PositionError) -> u32 {
    match e {
        PositionError::MissingGeneral(Color::Red) => 1,
        PositionError::MissingGeneral(Color::Black) => 2,
        PositionError::TooManyGenerals(_) => 4,
        PositionError::GeneralOutsidePalace { .. } => 8,
        PositionError::UnreachableSquare { .. } => 16,
        PositionError::TooManyPieces { .. } => 32,
        PositionError::GeneralsFacing => 64,
        PositionError::OpponentInCheck => 128,
    }
}

/// A Xiangqi game in progress: the position, the moves that led to it and everything
/// the rules need to judge it (repetitions, perpetual check and chase, the 60-move rule).
///
/// `Board(fen=STARTING_FEN)` starts from a FEN (raises InvalidFen for a bad one). As in
/// python-chess: `legal_moves`, `push(move)`, `pop()`, `peek()`, `move_stack`, `fen()`,
/// `turn`, `is_check()`, `is_checkmate()`, `outcome()`, `copy()`, `mirror()`,
/// `piece_at(square)`. Squares are ints 0..89 (`xq.A0` = 0, `xq.I9` = 89), colours
/// bools (`xq.RED` = True).
#[pyclass(module = "xq")]
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) game: Game,
}

impl Board {
    /// A board at `pos` with no moves played.
    pub fn at(pos: Position) -> Board {
        Board {
            game: Game::new(pos),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &Position {
        self.game.position()
    }

    /// The text board, rank 9 at the top, with `cell` drawing each square.
    fn diagram(&self, cell: impl Fn(Option<xq_core::Piece>) -> String, sep: &str) -> String {
        let mut lines = Vec::with_capacity(10);
        for rank in Rank::ALL.iter().rev() {
            let cells: Vec<String> = File::ALL
                .iter()
                .map(|&f| cell(self.pos().piece_on(Square::new(f, *rank))))
                .collect();
            lines.push(cells.join(sep));
        }
        lines.join("\n")
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = xq_core::START_FEN, *, strict = true))]
    fn new(fen: &str, strict: bool) -> PyResult<Board> {
        Ok(Board::at(position_with(fen, strict)?))
    }

    /// Rebuilds a pickled board: the start FEN and the moves in ICCS. (A board was
    /// checked when it was made; a composed one comes back as it was.)
    #[staticmethod]
    fn _restore(start: &str, moves: Vec<String>) -> PyResult<Board> {
        let game =
            Game::from_fen_moves_with(start, &moves, Ignore::PLAYABLE).map_err(|e| match e {
                xq_movegen::GameError::Fen(e) => Error::new(Kind::InvalidFen, e),
                e => Error::new(Kind::IllegalMove, e),
            })?;
        Ok(Board { game })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (String, Vec<String>)> {
        let py = slf.py();
        let b = slf.borrow();
        let moves = b.game.moves().iter().map(|m| m.to_string()).collect();
        Ok((
            py.get_type::<Board>().getattr("_restore")?,
            (b.game.start().to_fen(), moves),
        ))
    }

    /// The FEN of the current position (all six fields).
    fn fen(&self) -> String {
        self.pos().to_fen()
    }

    /// Sets the position from a FEN and clears the move stack; `strict=False` takes a
    /// composed position no game reaches but that can be played, as the constructor does.
    ///
    /// Raises InvalidFen (the board is then unchanged).
    #[pyo3(signature = (fen, *, strict = true))]
    fn set_fen(&mut self, fen: &str, strict: bool) -> PyResult<()> {
        *self = Board::at(position_with(fen, strict)?);
        Ok(())
    }

    /// What is wrong with the position as a game's position, as `xq.Status` flags
    /// (python-chess's `status()`): `Status.VALID` (0) for every position a game can
    /// reach. A board made with `strict=False` may have `Status.UNREACHABLE_SQUARE` (a
    /// piece where no game can bring it); the other flags name what a board never holds
    /// (`Board` refuses it) and exist for python-chess's shape.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bits = self
            .pos()
            .irregularities()
            .iter()
            .fold(0, |acc, e| acc | status_bit(e));
        py.import("xq")?.getattr("Status")?.call1((bits,))
    }

    /// Could a game reach this position (`status() == Status.VALID`)?
    fn is_valid(&self) -> bool {
        self.pos().irregularities().is_empty()
    }

    /// What no game could reach in this position, each in words (`"'p' can never stand
    /// on f9"`), in square order: empty unless the board was made with `strict=False`.
    fn irregularities(&self) -> Vec<String> {
        self.pos()
            .irregularities()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The number of plies since the start of the game as the move number and the side
    /// to move count them (python-chess's `ply()`): 0 at the start position, 1 after
    /// Red's first move.
    fn ply(&self) -> u64 {
        2 * (u64::from(self.pos().fullmove_number()) - 1)
            + u64::from(self.pos().side_to_move() == Color::Black)
    }

    /// Has the current position occurred `count` times (this one included) since the
    /// last capture, in the moves of this board (python-chess's `is_repetition`)? The
    /// rules' verdict on a repetition is `outcome()`.
    ///
    /// Raises ValueError for a count below 1.
    #[pyo3(signature = (count = types::Int(3)))]
    fn is_repetition(&self, count: types::Int) -> PyResult<bool> {
        let count = count.0;
        if count < 1 {
            return Err(value_error(format!(
                "count must be at least 1, not {count}"
            )));
        }
        let keys = self.game.keys();
        let now = self.pos().key();
        let since = (self.pos().halfmove_clock() as usize).min(keys.len() - 1);
        let seen = keys[keys.len() - 1 - since..]
            .iter()
            .filter(|&&k| k == now)
            .count();
        Ok(seen as i64 >= count)
    }

    /// The squares of the pieces that give check to the side to move, in square order
    /// (python-chess's `checkers()`, as a list): empty when it is not in check.
    fn checkers(&self) -> Vec<usize> {
        let pos = self.pos();
        let us = pos.side_to_move();
        let set = xq_movegen::attackers(pos, pos.general(us), !us);
        Square::ALL
            .iter()
            .filter(|&&sq| set.contains(sq))
            .map(|&sq| sq.index())
            .collect()
    }

    /// Back to the standard start, no moves.
    fn reset(&mut self) {
        *self = Board::at(Position::startpos());
    }

    /// The side to move: True (`xq.RED`) or False (`xq.BLACK`).
    #[getter]
    fn turn(&self) -> bool {
        is_red(self.pos().side_to_move())
    }

    /// Plies since the last capture, as the FEN counts them.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos().halfmove_clock()
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos().fullmove_number()
    }

    /// Every legal move of the position, as a list of `Move`s.
    #[getter]
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        types::move_objects(py, legal_moves(self.pos()))
    }

    /// The legal captures.
    #[getter]
    fn legal_captures(&self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        types::move_objects(py, xq_movegen::legal(self.pos(), xq_movegen::Gen::Captures))
    }

    /// Is `move` legal here?
    fn is_legal(&self, r#move: &Move) -> bool {
        xq_movegen::is_legal(self.pos(), r#move.inner)
    }

    /// Does `move` capture a piece? (It need not be legal.)
    fn is_capture(&self, r#move: &Move) -> bool {
        self.pos().piece_on(r#move.inner.to()).is_some()
    }

    /// Does the legal `move` give check?
    ///
    /// Raises IllegalMove for an illegal move.
    fn gives_check(&self, r#move: &Move) -> PyResult<bool> {
        if !xq_movegen::is_legal(self.pos(), r#move.inner) {
            return Err(illegal(self.pos(), r#move.inner).into());
        }
        Ok(xq_movegen::gives_check(self.pos(), r#move.inner))
    }

    /// Plays a legal move.
    ///
    /// Raises IllegalMove with the reason (the board is then unchanged).
    fn push(&mut self, r#move: &Move) -> PyResult<()> {
        self.game
            .play(r#move.inner)
            .map_err(|e| Error::new(Kind::IllegalMove, e).into())
    }

    /// Reads a move in ICCS (`h2e2`, UCI's form for Xiangqi), plays it and returns it
    /// (python-chess's `push_uci`).
    ///
    /// Raises InvalidMove for text that is not an ICCS move, IllegalMove for an illegal
    /// one (the board is then unchanged).
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        let m = Move::from_iccs(uci)?;
        self.push(&m)?;
        Ok(m)
    }

    /// Reads a move in any notation (ICCS `h2e2`, WXF `C2=5`, Chinese `炮二平五`), plays
    /// it and returns it.
    ///
    /// Raises InvalidMove, IllegalMove or AmbiguousMove (the board is then unchanged).
    fn push_notation(&mut self, text: &str) -> PyResult<Move> {
        let m = read_move(self.pos(), text).map_err(Error::from)?;
        self.push(&Move::of(m))?;
        Ok(Move::of(m))
    }

    /// Takes back the last move and returns it.
    ///
    /// Raises IndexError when no move has been played.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<Move>> {
        let m = self
            .game
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        types::move_object(py, m)
    }

    /// The last move played.
    ///
    /// Raises IndexError when no move has been played.
    fn peek(&self) -> PyResult<Move> {
        self.game
            .moves()
            .last()
            .map(|&m| Move::of(m))
            .ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))
    }

    /// The moves played since the board was set up, oldest first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        types::move_objects(py, self.game.moves().iter().copied())
    }

    /// The board the moves started from (no moves played).
    fn root(&self) -> Board {
        Board::at(self.game.start().clone())
    }

    /// Reads a move in any notation: ICCS (`h2e2`), WXF (`C2=5`, `H8+7`) or Chinese
    /// (`炮二平五`, `马８进７`, traditional characters too).
    ///
    /// Raises InvalidMove for text in no notation, IllegalMove when no legal move fits,
    /// AmbiguousMove when several do.
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        Ok(read_move(self.pos(), text)
            .map(Move::of)
            .map_err(Error::from)?)
    }

    /// The legal `move` written in `notation`: `"chinese"` (炮二平五, the default),
    /// `"chinese-traditional"`, `"wxf"` (C2=5) or `"iccs"` (h2e2).
    ///
    /// Raises IllegalMove for an illegal move, ValueError for an unknown notation.
    #[pyo3(signature = (r#move, notation = "chinese"))]
    fn notation(&self, r#move: &Move, notation: &str) -> PyResult<String> {
        let n = self::notation(notation)?;
        Ok(write_move(self.pos(), r#move.inner, n).map_err(Error::from)?)
    }

    /// The moves of a line played from here, each written in `notation` (the board is not
    /// changed): python-chess's `variation_san`.
    ///
    /// Raises IllegalMove naming the first move that is not legal where it is played.
    #[pyo3(signature = (moves, notation = "chinese"))]
    fn line_notation(&self, moves: Vec<PyRef<'_, Move>>, notation: &str) -> PyResult<Vec<String>> {
        let n = self::notation(notation)?;
        let line: Vec<xq_core::Move> = moves.iter().map(|m| m.inner).collect();
        Ok(write_line(self.pos(), &line, n).map_err(Error::from)?)
    }

    /// The piece on `square` (0..89), or None.
    fn piece_at(&self, square: types::Int) -> PyResult<Option<Piece>> {
        Ok(self.pos().piece_on(types::square(square.0)?).map(Piece::of))
    }

    /// Every piece on the board: a dict from square to `Piece`.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for sq in Square::ALL {
            if let Some(p) = self.pos().piece_on(sq) {
                d.set_item(types::index(sq), Piece::of(p))?;
            }
        }
        Ok(d)
    }

    /// The squares of the pieces of `piece_type` and `color`, in square order.
    fn pieces(&self, piece_type: types::Int, color: bool) -> PyResult<Vec<usize>> {
        let piece = xq_core::Piece::new(types::color_of(color), types::kind_of(piece_type.0)?);
        let mut squares: Vec<usize> = self.pos().squares_of(piece).map(|sq| sq.index()).collect();
        squares.sort_unstable();
        Ok(squares)
    }

    /// The square of `color`'s general (python-chess's `king`).
    fn general(&self, color: bool) -> u8 {
        types::index(self.pos().general(types::color_of(color)))
    }

    /// The squares of `color`'s pieces that attack `square`, in square order.
    fn attackers(&self, color: bool, square: types::Int) -> PyResult<Vec<usize>> {
        let set =
            xq_movegen::attackers(self.pos(), types::square(square.0)?, types::color_of(color));
        // Square::ALL is in index order.
        Ok(Square::ALL
            .iter()
            .filter(|&&sq| set.contains(sq))
            .map(|&sq| sq.index())
            .collect())
    }

    /// Is the side to move in check?
    fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Is the side to move checkmated?
    fn is_checkmate(&self) -> bool {
        self.pos().is_check() && xq_movegen::count_legal(self.pos()) == 0
    }

    /// Has the side to move no legal move without being in check? In Xiangqi that loses.
    fn is_stalemate(&self) -> bool {
        !self.pos().is_check() && xq_movegen::count_legal(self.pos()) == 0
    }

    /// Is the game over by the whole rules (`outcome()` is not None)?
    fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// How the game stands by the whole rules, None while it goes on: checkmate and
    /// stalemate (the side to move loses), perpetual check and perpetual chase (the side
    /// that checks or chases loses), other repetitions (a draw at the third occurrence),
    /// the 60-move rule and insufficient material (draws).
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|o| Outcome { inner: o })
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the game goes on.
    fn result(&self) -> &'static str {
        self.game.outcome().map_or("*", |o| o.result.token())
    }

    /// A copy; with `stack=False` the copy starts at the current position with no moves
    /// (and so without the history the repetition rules look at).
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> Board {
        if stack {
            self.clone()
        } else {
            Board::at(self.pos().clone())
        }
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The position with the colours swapped: every piece changes colour and is
    /// mirrored across the river, and the other side is to move. The same game seen from
    /// the other side; no moves (`Move.mirror()` maps a move to its mirror).
    fn mirror(&self) -> Board {
        Board::at(self.pos().color_flipped())
    }

    /// The Zobrist key of the position (64 bits; stable across versions).
    fn zobrist_hash(&self) -> u64 {
        self.pos().key()
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep (perft),
    /// counted in Rust without the GIL.
    ///
    /// Raises ValueError for a depth below 0 or above 20.
    fn perft(&self, py: Python<'_>, depth: types::Int) -> PyResult<u64> {
        let depth = depth.0;
        let depth = match u32::try_from(depth) {
            Ok(d) if d <= MAX_PERFT_DEPTH => d,
            _ => {
                return Err(value_error(format!(
                    "perft depth {depth}: 0 to {MAX_PERFT_DEPTH}"
                )))
            }
        };
        let mut pos = self.pos().clone();
        Ok(py.detach(move || xq_perft::perft(&mut pos, depth)))
    }

    /// The board as text, rank 9 at the top: FEN letters, `.` for an empty point.
    fn __str__(&self) -> String {
        self.diagram(
            |p| p.map_or(".".to_string(), |p| p.to_char().to_string()),
            " ",
        )
    }

    /// The board with the Chinese piece characters (帥俥 for Red, 將車 for Black) and
    /// `empty_square` for empty points; with `coordinates`, file letters, rank digits
    /// and the river.
    #[pyo3(signature = (*, empty_square = "十", coordinates = false))]
    fn unicode(&self, empty_square: &str, coordinates: bool) -> String {
        let text = self.diagram(
            |p| p.map_or(empty_square.to_string(), |p| p.to_chinese().to_string()),
            "",
        );
        if !coordinates {
            return text;
        }
        let mut out = String::new();
        for (i, line) in text.lines().enumerate() {
            out.push_str(&format!("{} {line}\n", 9 - i));
            if i == 4 {
                out.push_str("  　　楚河　　　漢界\n");
            }
        }
        out.push_str("  ａｂｃｄｅｆｇｈｉ");
        out
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.fen())
    }

    /// An SVG picture of the board (Jupyter shows it): `xq.svg.board(self)`.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let svg = slf.py().import("xq.svg")?.getattr("board")?.call1((slf,))?;
        svg.extract()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.extract::<PyRef<'_, Board>>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.pos() == other.pos();
        match op {
            CompareOp::Eq => same.into_py_any(py),
            CompareOp::Ne => (!same).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    /// The legal moves as a NumPy bool array of `xq.tensor::N_ACTIONS` (2086), True at each legal
    /// move's action index. With `relative=True` and Black to move, the mask of
    /// `self.mirror()` (the moves mirrored across the river). (A composed board's advisor
    /// or elephant off its points makes moves no game has: they have no action and are
    /// left out.)
    #[pyo3(signature = (*, relative = false))]
    fn legal_mask<'py>(&self, py: Python<'py>, relative: bool) -> PyResult<Bound<'py, PyAny>> {
        tensor::array(
            py,
            tensor::Dtype::Bool,
            &[tensor::N_ACTIONS],
            tensor::N_ACTIONS,
            |buf| tensor::fill_mask(self.pos(), relative, buf),
        )
    }

    /// The action indices of the legal moves, in move generation order (without the
    /// moves that have no action: see `legal_mask`).
    #[pyo3(signature = (*, relative = false))]
    fn legal_indices(&self, relative: bool) -> Vec<usize> {
        let flip = tensor::flips(self.pos(), relative);
        legal_moves(self.pos())
            .into_iter()
            .filter_map(|m| tensor::action_in(m, flip))
            .collect()
    }

    /// The position as a float32 NumPy array of shape (18, 10, 9): plane, rank (0 is
    /// Red's back rank), file (0 is file a), so `planes.reshape(18, 90)[:, sq]` is square
    /// `sq`.
    ///
    /// Planes 0-6: Red's general, advisors, elephants, horses, chariots, cannons,
    /// soldiers; 7-13 the same for Black; 14: all ones when Red is to move; 15: all ones
    /// when the position occurred before (since the last capture); 16: when it occurred
    /// twice before; 17: the 60-move rule's count of plies over 120.
    ///
    /// With `relative=True` and Black to move, planes 0-13 are those of `self.mirror()`:
    /// the side to move's pieces in 0-6, seen from its side of the board; 14-17 are
    /// unchanged.
    #[pyo3(signature = (*, relative = false))]
    fn planes<'py>(&self, py: Python<'py>, relative: bool) -> PyResult<Bound<'py, PyAny>> {
        tensor::array(
            py,
            tensor::Dtype::Float32,
            &[tensor::N_PLANES, 10, 9],
            tensor::PLANE_BYTES,
            |buf| tensor::fill_planes(&self.game, relative, buf),
        )
    }

    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err(
            "unhashable type: 'Board' (it changes; use zobrist_hash() or fen())",
        ))
    }
}

/// The exception for an illegal move `m` of `pos`.
pub fn illegal(pos: &Position, m: xq_core::Move) -> Error {
    match xq_movegen::try_play(&mut pos.clone(), m) {
        Err(e) => Error::new(Kind::IllegalMove, e),
        Ok(_) => Error::new(Kind::IllegalMove, format!("{m} is not legal here")),
    }
}

/// How a game ended: `result()` (`"1-0"`, `"0-1"` or `"1/2-1/2"`), `winner` (`xq.RED`,
/// `xq.BLACK` or None) and `termination` (an `xq.Termination`, whose value is the
/// rule's tag: `checkmate`, `stalemate`, `perpetual-check`, `perpetual-chase`,
/// `repetition`, `60-move-rule`, `insufficient-material`). For a perpetual check or
/// chase, `by` is the side that checked or chased (it loses); for a perpetual chase,
/// `chased_piece` and `chased_square` say what it chased. `str()` says it in words:
/// `0-1 perpetual chase by red of the black horse on b7`.
#[pyclass(module = "xq", frozen, eq)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    inner: xq_movegen::Outcome,
}

#[pymethods]
impl Outcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"` (a method, as python-chess's).
    fn result(&self) -> &'static str {
        self.inner.result.token()
    }

    /// The winner: True (Red), False (Black) or None for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.inner.winner().map(is_red)
    }

    /// The rule that ended the game, an `xq.Termination`.
    #[getter]
    fn termination<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("xq")?
            .getattr("Termination")?
            .call1((self.inner.termination.tag(),))
    }

    /// The side that checked or chased in a perpetual check or chase (the loser), else
    /// None.
    #[getter]
    fn by(&self) -> Option<bool> {
        match self.inner.termination {
            Termination::PerpetualCheck { by } | Termination::PerpetualChase { by, .. } => {
                Some(is_red(by))
            }
            _ => None,
        }
    }

    /// The piece chased in a perpetual chase, else None.
    #[getter]
    fn chased_piece(&self) -> Option<Piece> {
        match self.inner.termination {
            Termination::PerpetualChase { piece, .. } => Some(Piece::of(piece)),
            _ => None,
        }
    }

    /// Where the chased piece stands at the end of the cycle, else None.
    #[getter]
    fn chased_square(&self) -> Option<u8> {
        match self.inner.termination {
            Termination::PerpetualChase { square, .. } => Some(types::index(square)),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {}>", self.inner)
    }

    /// The outcome itself: it never changes.
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The outcome itself (`copy.deepcopy` of a board's state, OpenSpiel's `clone()`).
    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
}

/// `Outcome` for the engine and records: the result token of an optional result.
pub fn result_token(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::token)
}

/// Extracts boards from a Python sequence (for the batch calls).
pub fn boards<'py>(seq: &Bound<'py, PyAny>) -> PyResult<Vec<PyRef<'py, Board>>> {
    if let Ok(list) = seq.cast::<PyList>() {
        return list
            .iter()
            .map(|b| Ok(b.extract::<PyRef<'py, Board>>()?))
            .collect();
    }
    seq.try_iter()?
        .map(|b| Ok(b?.extract::<PyRef<'py, Board>>()?))
        .collect()
}
