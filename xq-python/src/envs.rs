//! The native part of the reinforcement-learning environments (`xq.envs`): the
//! observation of a game from one side (the current position and earlier ones, with their
//! repetition counts), an action played with its legality as a bool, and
//! [`VectorGames`], many games stepped in one call with the finished ones started again.
//!
//! The observation's layout, for `history` earlier positions (`T = history + 1` frames):
//!
//! | planes | what |
//! |---|---|
//! | `16t .. 16t + 6` | frame `t` (0 the current position, `t` plies before it): the observer's general, advisors, elephants, horses, chariots, cannons, soldiers (Red's when not `relative`) |
//! | `16t + 7 .. 16t + 13` | the other side's, in the same order |
//! | `16t + 14` | all 1 when frame `t`'s position occurred before (since its last capture) |
//! | `16t + 15` | all 1 when it occurred twice before |
//! | `16T` | all 1 when Red is to move |
//! | `16T + 1` | all 1 when the observer is Red |
//! | `16T + 2` | the 60-move rule's count of plies / 120 |
//!
//! With `relative` and Black as the observer every frame is seen from Black's side (the
//! board mirrored across the river, as `Board.mirror()`), and actions are read in that
//! frame (`xq.mirror_index`). Frames before the game's first position are all 0.

use crate::args::{argument_error, int_in};
use crate::board::{self, position_with, Board};
use crate::errors::{value_error, Error, Kind};
use crate::tensor::{
    action_in, actions, array, array_over, earlier_occurrences, fill_mask, for_each_legal_action,
    Dtype, N_ACTIONS, PLANE,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyList, PyTuple};
use std::collections::VecDeque;
use xq_core::{Color, PieceKind, Square};
use xq_movegen::rules::{move_rule_plies, NO_CAPTURE_DRAW_PLIES};
use xq_movegen::{Game, GameResult};

/// The planes of one frame: 14 for the pieces, 2 for the repetition count.
pub const FRAME_PLANES: usize = 16;
/// The planes after the frames: the side to move, the observer, the move rule's count.
pub const EXTRA_PLANES: usize = 3;
/// The most earlier positions an observation may hold.
pub const MAX_HISTORY: usize = 64;

/// The number of planes of an observation with `history` earlier positions.
pub const fn planes(history: usize) -> usize {
    FRAME_PLANES * (history + 1) + EXTRA_PLANES
}

/// Where an observation's values go: a zeroed buffer (`[u8]`, native-endian f32s), or
/// one kept from the last step ([`Tracked`]) that remembers what it wrote.
trait Sink {
    /// Writes `v` as the f32 at index `i`.
    fn put(&mut self, i: usize, v: f32);
    /// Fills plane `plane` with `v`.
    fn fill(&mut self, plane: usize, v: f32);
}

impl Sink for [u8] {
    fn put(&mut self, i: usize, v: f32) {
        self[4 * i..4 * i + 4].copy_from_slice(&v.to_ne_bytes());
    }

    fn fill(&mut self, plane: usize, v: f32) {
        let bytes = v.to_ne_bytes();
        for c in self[4 * plane * PLANE..4 * (plane + 1) * PLANE].chunks_exact_mut(4) {
            c.copy_from_slice(&bytes);
        }
    }
}

/// What was written into one game's part of a kept observation: its cells and whole
/// planes, so that the next step clears only those (a few hundred values of the
/// thousands an observation holds) instead of zeroing everything.
#[derive(Clone, Debug, Default)]
struct Written {
    cells: Vec<u32>,
    planes: Vec<u16>,
}

/// A game's part of a kept observation, recording what is written into it.
struct Tracked<'a> {
    out: &'a mut [u8],
    written: &'a mut Written,
}

impl Tracked<'_> {
    /// Sets to 0 what the last observation wrote, and forgets it.
    fn clear(&mut self) {
        for &i in &self.written.cells {
            self.out.put(i as usize, 0.0);
        }
        for &p in &self.written.planes {
            Sink::fill(self.out, usize::from(p), 0.0);
        }
        self.written.cells.clear();
        self.written.planes.clear();
    }
}

impl Sink for Tracked<'_> {
    fn put(&mut self, i: usize, v: f32) {
        self.out.put(i, v);
        // An observation has fewer than 2**32 cells (at most 1,043 planes of 90).
        self.written.cells.push(i as u32);
    }

    fn fill(&mut self, plane: usize, v: f32) {
        Sink::fill(self.out, plane, v);
        // At most 1,043 planes.
        self.written.planes.push(plane as u16);
    }
}

/// How an observation is seen: by whom, and whether from that side of the board.
#[derive(Copy, Clone, Debug)]
pub struct View {
    /// The side observing.
    pub observer: Color,
    /// Mirror the board for Black and put the observer's pieces first.
    pub relative: bool,
}

impl View {
    /// Whether this view mirrors the board (and reads actions mirrored).
    pub fn flips(self) -> bool {
        self.relative && self.observer == Color::Black
    }

    /// The side whose pieces come first.
    fn first(self) -> Color {
        if self.relative {
            self.observer
        } else {
            Color::Red
        }
    }
}

/// What a frame of the observation shows of one position: where each piece stands, and
/// how often the position occurred before (since its last capture). The vector games keep
/// the frames of their last positions instead of taking moves back to see them again.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pieces: Vec<(xq_core::Piece, Square)>,
    earlier: usize,
}

impl Frame {
    /// The frame of `game`'s current position.
    pub fn of(game: &Game) -> Frame {
        let pos = game.position();
        // 32 pieces at most: one allocation, never grown.
        let mut pieces = Vec::with_capacity(32);
        pieces.extend(Color::ALL.iter().flat_map(|&c| pos.pieces(c)));
        Frame {
            pieces,
            earlier: earlier_occurrences(game),
        }
    }

    /// Writes this frame as frame `t` (planes `16t ..`) of an observation into `out`.
    fn write<S: Sink + ?Sized>(&self, view: View, t: usize, out: &mut S) {
        let base = FRAME_PLANES * t;
        let (flip, first) = (view.flips(), view.first());
        for &(p, sq) in &self.pieces {
            let sq = if flip { sq.flip_vertical() } else { sq };
            let side = if p.color == first {
                0
            } else {
                PieceKind::COUNT
            };
            out.put((base + side + p.kind.index()) * PLANE + sq.index(), 1.0);
        }
        if self.earlier >= 1 {
            out.fill(base + 14, 1.0);
        }
        if self.earlier >= 2 {
            out.fill(base + 15, 1.0);
        }
    }
}

/// Writes the planes after the frames (the side to move, the observer, the move rule's
/// count) of `game` for an observation with `history` earlier positions.
fn write_extra<S: Sink + ?Sized>(game: &Game, history: usize, view: View, out: &mut S) {
    let extra = FRAME_PLANES * (history + 1);
    let pos = game.position();
    if pos.side_to_move() == Color::Red {
        out.fill(extra, 1.0);
    }
    if view.observer == Color::Red {
        out.fill(extra + 1, 1.0);
    }
    let plies = move_rule_plies(pos.halfmove_clock(), game.checks()).min(NO_CAPTURE_DRAW_PLIES);
    out.fill(extra + 2, plies as f32 / NO_CAPTURE_DRAW_PLIES as f32);
}

/// Writes the observation of `game` (see the module's table) into `out`, which holds
/// `planes(history) * 90` zeroed f32s, taking moves back on a copy to see the earlier
/// positions.
pub fn fill_observation(game: &Game, history: usize, view: View, out: &mut [u8]) {
    Frame::of(game).write(view, 0, out);
    if history > 0 && !game.moves().is_empty() {
        let mut earlier = game.clone();
        for t in 1..=history {
            if earlier.pop().is_none() {
                break;
            }
            Frame::of(&earlier).write(view, t, out);
        }
    }
    write_extra(game, history, view, out);
}

/// Writes the legal mask of `game` for `view` (one byte an action): all 0 unless the
/// observer is to move.
pub fn fill_view_mask(game: &Game, view: View, out: &mut [u8]) {
    let pos = game.position();
    if pos.side_to_move() == view.observer {
        fill_mask(pos, view.relative, out);
    }
}

/// `history` checked: an int from 0 to [`MAX_HISTORY`].
fn history_arg(history: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(int_in("history", history, 0, MAX_HISTORY as i128, &argument_error)? as usize)
}

/// An action index checked (0..2085), or ValueError naming `what`.
fn action_arg(index: i64, what: &str) -> PyResult<usize> {
    usize::try_from(index)
        .ok()
        .filter(|&a| a < N_ACTIONS)
        .ok_or_else(|| {
            value_error(format!(
                "{what}{index} is not an action index (0 to {})",
                N_ACTIONS - 1
            ))
        })
}

/// The move of action `a` read in `view`'s frame.
fn action_move(a: usize, flip: bool) -> xq_core::Move {
    let a = if flip {
        actions().mirrored[a] as usize
    } else {
        a
    };
    actions().moves[a]
}

/// `xq._xq._observe(board, history, observer, relative)`: the observation of `board` by
/// `observer` (True Red, False Black), a float32 array of shape (16 * (history + 1) + 3,
/// 10, 9), and the legal mask, int8 of 2,086 (all 0 unless `observer` is to move); see
/// `xq.envs` for the layout.
///
/// Raises InvalidArgument for a `history` that is not an int from 0 to 64.
#[pyfunction]
pub fn _observe<'py>(
    py: Python<'py>,
    board: PyRef<'py, Board>,
    history: &Bound<'py, PyAny>,
    observer: bool,
    relative: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let history = history_arg(history)?;
    let view = View {
        observer: if observer { Color::Red } else { Color::Black },
        relative,
    };
    let n = planes(history);
    let obs = array(py, Dtype::Float32, &[n, 10, 9], n * PLANE * 4, |buf| {
        fill_observation(&board.game, history, view, buf)
    })?;
    let mask = array(py, Dtype::Int8, &[N_ACTIONS], N_ACTIONS, |buf| {
        fill_view_mask(&board.game, view, buf)
    })?;
    PyTuple::new(py, [obs, mask])
}

/// `xq._xq._play_action(board, action, relative)`: plays the move of an action index
/// (read mirrored when `relative` and Black is to move) if it is legal and returns True;
/// returns False, the board unchanged, if it is not.
///
/// Raises ValueError for an index out of 0..2085.
#[pyfunction]
pub fn _play_action(mut board: PyRefMut<'_, Board>, action: i64, relative: bool) -> PyResult<bool> {
    let a = action_arg(action, "")?;
    let flip = relative && board.pos().side_to_move() == Color::Black;
    let m = action_move(a, flip);
    Ok(board.game.play(m).is_ok())
}

/// Many games stepped together, each started again when it ends: the native part of
/// `xq.envs.VectorXiangqi`.
///
/// `xq._xq._VectorGames(n, history=0, relative=True, max_plies=0, fen=STARTING_FEN,
/// copy=True)`: `n` games from `fen`, observed by their side to move with `history`
/// earlier positions, `relative` (actions and boards in the mover's frame), cut after
/// `max_plies` plies (0: never; the rules alone end a game); new observation and mask
/// arrays at every call (`copy`), or the same two overwritten. Raises InvalidArgument for
/// a bad setting, InvalidFen for a bad FEN.
#[pyclass(module = "xq", name = "_VectorGames")]
#[derive(Debug)]
pub struct VectorGames {
    games: Vec<Game>,
    start: Game,
    history: usize,
    relative: bool,
    max_plies: usize,
    /// The frames of each game's last `history + 1` positions, the current one first.
    frames: Vec<VecDeque<Frame>>,
    /// The state of the generator of `sample_actions` (SplitMix64).
    rng: u64,
    /// New arrays every call (`copy`), or the same two overwritten in place.
    copy: bool,
    /// The two arrays kept when not `copy` (made on first use).
    kept: Option<Kept>,
}

/// The observation and mask arrays a `copy=False` vector overwrites each step, with
/// what each game's part holds, so that a step clears only that.
#[derive(Debug)]
struct Kept {
    observations: Py<PyAny>,
    observation_bytes: Py<PyByteArray>,
    masks: Py<PyAny>,
    mask_bytes: Py<PyByteArray>,
    /// Per game: what its observation holds.
    written: Vec<Written>,
    /// Per game: the actions its mask sets.
    masked: Vec<Vec<u16>>,
}

/// The next number of SplitMix64 (Steele, Lea and Flood), advancing `state`.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl VectorGames {
    /// The view of game `g`: by its side to move.
    fn view(&self, g: &Game) -> View {
        View {
            observer: g.position().side_to_move(),
            relative: self.relative,
        }
    }

    /// The observations and masks of every game, as two arrays: new ones (`copy`), or
    /// the kept two overwritten.
    fn arrays<'py>(&mut self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let n = self.games.len();
        let planes = planes(self.history);
        let frame = planes * PLANE * 4;
        if self.copy {
            let obs = array(py, Dtype::Float32, &[n, planes, 10, 9], n * frame, |buf| {
                let outs = buf.chunks_exact_mut(frame);
                for ((g, frames), out) in self.games.iter().zip(&self.frames).zip(outs) {
                    let view = self.view(g);
                    for (t, f) in frames.iter().enumerate() {
                        f.write(view, t, out);
                    }
                    write_extra(g, self.history, view, out);
                }
            })?;
            let masks = array(py, Dtype::Int8, &[n, N_ACTIONS], n * N_ACTIONS, |buf| {
                for (g, out) in self.games.iter().zip(buf.chunks_exact_mut(N_ACTIONS)) {
                    fill_view_mask(g, self.view(g), out);
                }
            })?;
            return Ok((obs, masks));
        }
        let kept = match self.kept.take() {
            Some(kept) => kept,
            None => {
                let (observations, observation_bytes) =
                    array_over(py, Dtype::Float32, &[n, planes, 10, 9], n * frame)?;
                let (masks, mask_bytes) =
                    array_over(py, Dtype::Int8, &[n, N_ACTIONS], n * N_ACTIONS)?;
                Kept {
                    observations: observations.unbind(),
                    observation_bytes: observation_bytes.unbind(),
                    masks: masks.unbind(),
                    mask_bytes: mask_bytes.unbind(),
                    written: vec![Written::default(); n],
                    masked: vec![Vec::new(); n],
                }
            }
        };
        let mut kept = kept;
        {
            // SAFETY: the two bytearrays are this object's own: Python sees them only
            // through the NumPy arrays over them, which hold exports of their buffers, so
            // they cannot be resized or freed while these slices live. The GIL is held
            // and no Python code runs until the slices are dropped at the end of this
            // block, so no other reference to their bytes is in use. Measured reason: a
            // new zeroed 12 MB array a step was most of a 256-game step's time
            // (docs/python.md).
            #[allow(unsafe_code)]
            let (obs, masks) = unsafe {
                (
                    kept.observation_bytes.bind(py).as_bytes_mut(),
                    kept.mask_bytes.bind(py).as_bytes_mut(),
                )
            };
            let games = self.games.iter().zip(&self.frames);
            let outs = obs.chunks_exact_mut(frame).zip(&mut kept.written);
            for ((g, frames), (out, written)) in games.zip(outs) {
                let view = self.view(g);
                let mut out = Tracked { out, written };
                out.clear();
                for (t, f) in frames.iter().enumerate() {
                    f.write(view, t, &mut out);
                }
                write_extra(g, self.history, view, &mut out);
            }
            let outs = masks.chunks_exact_mut(N_ACTIONS).zip(&mut kept.masked);
            for (g, (out, set)) in self.games.iter().zip(outs) {
                for &a in set.iter() {
                    out[usize::from(a)] = 0;
                }
                set.clear();
                let view = self.view(g);
                if g.position().side_to_move() == view.observer {
                    for_each_legal_action(g.position(), view.relative, |a| {
                        out[a] = 1;
                        // Fewer than 2,086 actions.
                        set.push(a as u16);
                    });
                }
            }
        }
        let result = (
            kept.observations.bind(py).clone(),
            kept.masks.bind(py).clone(),
        );
        self.kept = Some(kept);
        Ok(result)
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(signature = (n, history = None, relative = true, max_plies = None, fen = None, copy = true))]
    fn new(
        n: &Bound<'_, PyAny>,
        history: Option<&Bound<'_, PyAny>>,
        relative: bool,
        max_plies: Option<&Bound<'_, PyAny>>,
        fen: Option<&str>,
        copy: bool,
    ) -> PyResult<VectorGames> {
        let n = int_in("n", n, 1, 1 << 20, &argument_error)? as usize;
        let history = match history {
            Some(h) if !h.is_none() => history_arg(h)?,
            _ => 0,
        };
        let max_plies = match max_plies {
            Some(m) if !m.is_none() => int_in("max_plies", m, 0, 1 << 32, &argument_error)?,
            _ => 0,
        } as usize;
        let start = Game::new(position_with(fen.unwrap_or(xq_core::START_FEN), true)?);
        if start.outcome().is_some() {
            return Err(argument_error(format!(
                "the game from {} is already over",
                start.position().to_fen()
            )));
        }
        let first = VecDeque::from([Frame::of(&start)]);
        Ok(VectorGames {
            frames: vec![first; n],
            games: vec![start.clone(); n],
            start,
            history,
            relative,
            max_plies,
            rng: 0,
            copy,
            kept: None,
        })
    }

    /// Seeds the generator of `sample_actions`: the same seed, the same actions from
    /// the same games. Any int is a seed (taken modulo 2**64).
    fn seed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.rng = seed.call_method1("__and__", (u64::MAX,))?.extract()?;
        Ok(())
    }

    /// A uniformly random legal action of each game (int64, in its mover's frame when
    /// `relative`), from the generator `seed` seeds: a random player, at the cost of a
    /// move generation a game.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.games.len();
        let mut picks = Vec::with_capacity(n);
        for g in &self.games {
            let moves = xq_movegen::legal_moves(g.position());
            let r = splitmix64(&mut self.rng);
            // Multiply-shift: r * len / 2**64, uniform enough for a random player.
            let i = ((u128::from(r) * moves.len() as u128) >> 64) as usize;
            let flip = self.view(g).flips();
            picks.push(moves.get(i).and_then(|&m| action_in(m, flip)).unwrap_or(0) as i64);
        }
        array(py, Dtype::Int64, &[n], n * 8, |buf| {
            for (c, a) in buf.chunks_exact_mut(8).zip(&picks) {
                c.copy_from_slice(&a.to_ne_bytes());
            }
        })
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// The number of planes of an observation.
    #[getter]
    fn n_planes(&self) -> usize {
        planes(self.history)
    }

    /// Starts every game again; returns `(observations, masks)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let first = Frame::of(&self.start);
        for (g, frames) in self.games.iter_mut().zip(&mut self.frames) {
            g.clone_from(&self.start);
            frames.clear();
            frames.push_back(first.clone());
        }
        self.arrays(py)
    }

    /// `(observations, masks)` of the games as they stand.
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        self.arrays(py)
    }

    /// Copies of the games as `xq.Board`s (with their moves).
    fn boards(&self) -> Vec<Board> {
        self.games
            .iter()
            .map(|g| Board { game: g.clone() })
            .collect()
    }

    /// Plays one action in every game (an int array or sequence of `len(self)` action
    /// indices, each in its mover's frame when `relative`) and returns `(observations,
    /// masks, rewards, dones, truncated, winners, terminations)`: rewards (float32) are the
    /// mover's, 1 for a win, -1 for a loss, 0 otherwise; `dones` (bool) where a game
    /// ended (by the rules, or `truncated` at `max_plies`); `winners` (int8) 1 where Red
    /// won, -1 where Black did, else 0; `terminations` a list holding the rule's tag
    /// where a game ended by the rules (`"checkmate"`, `"perpetual-check"`, ...), `"max-plies"`
    /// where it was cut, else None. A game that ended is started again: its observation
    /// and mask are of the new start.
    ///
    /// All or nothing: an illegal action raises IllegalMove naming the first bad game,
    /// and no game is changed (ValueError for an index out of range or a wrong count).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let indices: Vec<i64> = match actions.call_method0("tolist") {
            Ok(l) => l.extract()?,
            Err(_) => actions.extract()?,
        };
        if indices.len() != self.games.len() {
            return Err(value_error(format!(
                "{} games but {} actions",
                self.games.len(),
                indices.len()
            )));
        }
        let mut moves = Vec::with_capacity(indices.len());
        for (i, (g, &index)) in self.games.iter().zip(&indices).enumerate() {
            let a = action_arg(index, &format!("game {i}: "))?;
            let m = action_move(a, self.view(g).flips());
            if !xq_movegen::is_legal(g.position(), m) {
                let e = board::illegal(g.position(), m);
                return Err(
                    Error::new(Kind::IllegalMove, format!("game {i}: {}", PyErr::from(e))).into(),
                );
            }
            moves.push(m);
        }
        let n = self.games.len();
        let mut rewards = vec![0f32; n];
        let mut dones = vec![0u8; n];
        let mut truncated = vec![0u8; n];
        let mut winners = vec![0i8; n];
        let terminations = PyList::empty(py);
        let first = Frame::of(&self.start);
        let games = self.games.iter_mut().zip(&mut self.frames);
        for (i, ((g, frames), m)) in games.zip(moves).enumerate() {
            let mover = g.position().side_to_move();
            g.play(m).map_err(|e| Error::new(Kind::IllegalMove, e))?;
            let mut tag: Option<&str> = None;
            if let Some(o) = g.outcome() {
                rewards[i] = match o.winner() {
                    Some(c) if c == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                winners[i] = match o.result {
                    GameResult::RedWins => 1,
                    GameResult::BlackWins => -1,
                    GameResult::Draw => 0,
                };
                tag = Some(o.termination.tag());
            } else if self.max_plies > 0 && g.moves().len() >= self.max_plies {
                truncated[i] = 1;
                tag = Some("max-plies");
            }
            if tag.is_some() {
                dones[i] = 1;
                g.clone_from(&self.start);
                frames.clear();
                frames.push_back(first.clone());
            } else {
                frames.truncate(self.history);
                frames.push_front(Frame::of(g));
            }
            terminations.append(tag)?;
        }
        let (obs, masks) = self.arrays(py)?;
        let bytes =
            |v: &[u8], dtype: Dtype| array(py, dtype, &[n], n, |buf| buf.copy_from_slice(v));
        let rewards = array(py, Dtype::Float32, &[n], n * 4, |buf| {
            for (c, r) in buf.chunks_exact_mut(4).zip(&rewards) {
                c.copy_from_slice(&r.to_ne_bytes());
            }
        })?;
        let winners: Vec<u8> = winners.iter().map(|&w| w as u8).collect();
        PyTuple::new(
            py,
            [
                obs,
                masks,
                rewards,
                bytes(&dones, Dtype::Bool)?,
                bytes(&truncated, Dtype::Bool)?,
                bytes(&winners, Dtype::Int8)?,
                terminations.into_any(),
            ],
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<_VectorGames {} games, history {}, relative {}, max_plies {}>",
            self.games.len(),
            self.history,
            self.relative,
            self.max_plies
        )
    }
}
