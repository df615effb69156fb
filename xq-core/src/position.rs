//! The board: a padded mailbox with piece lists and rank and file occupancy bits,
//! the Zobrist key and the clocks, with make/unmake.

use crate::attacks::{Direction, Step, HORSE_ATTACKS, HORSE_LEG};
use crate::fen::{Fen, ParseFenError, START_FEN};
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::square::{in_board, Square};
use crate::zobrist;
use std::fmt;
use std::str::FromStr;

/// Piece ids: the identity of each piece on the board, private to this crate.
///
/// Every piece on the board has an id that stays with it until it is captured, as in
/// ElephantEye: Red's pieces have ids 16..32, Black's 32..48; `id & 16` is set for Red and
/// `id & 32` for Black. Within a side, the offset from [`side_tag`] gives the kind:
/// 0 general, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 chariots, 9-10 cannons,
/// 11-15 soldiers. Id 0 means "empty square". The piece lists (`sq_of`) let a side's
/// pieces of one kind be walked without scanning the board.
pub(crate) mod ids {
    use crate::piece::{Color, Piece, PieceKind};

    /// First id of a side: 16 for Red, 32 for Black.
    #[inline(always)]
    pub const fn side_tag(color: Color) -> usize {
        16 << color as usize
    }

    /// First offset of each kind within a side, indexed by [`PieceKind::index`], and one
    /// past the last (16).
    pub const KIND_BASE: [usize; 8] = [0, 1, 3, 5, 7, 9, 11, 16];

    /// The ids of `piece`: a range within its side's sixteen.
    #[inline(always)]
    pub const fn of(piece: Piece) -> std::ops::Range<usize> {
        let tag = side_tag(piece.color);
        let k = piece.kind as usize;
        tag + KIND_BASE[k]..tag + KIND_BASE[k + 1]
    }

    const KIND_OF_OFFSET: [PieceKind; 16] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Cannon,
        PieceKind::Soldier,
        PieceKind::Soldier,
        PieceKind::Soldier,
        PieceKind::Soldier,
        PieceKind::Soldier,
    ];

    /// The piece of each id (`None` for 0 and unused values).
    pub const PIECE: [Option<Piece>; 64] = {
        let mut t = [None; 64];
        let mut id = 16;
        while id < 48 {
            let color = if id < 32 { Color::Red } else { Color::Black };
            t[id] = Some(Piece::new(color, KIND_OF_OFFSET[id & 15]));
            id += 1;
        }
        t
    };

    /// The piece with id `id`, `None` for an empty square.
    #[inline(always)]
    pub const fn piece(id: usize) -> Option<Piece> {
        PIECE[id & 63]
    }

    /// Dense piece index ([`Piece::index`]) of each id (0 for unused values).
    const PIECE_INDEX: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut id = 16;
        while id < 48 {
            if let Some(p) = PIECE[id] {
                t[id] = p.index() as u8;
            }
            id += 1;
        }
        t
    };

    /// Dense piece index ([`Piece::index`]) of a piece id (16..48).
    #[inline(always)]
    pub const fn piece_index(id: usize) -> usize {
        PIECE_INDEX[id & 63] as usize
    }
}

use ids::side_tag;

/// What [`Position::unmake_move`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmove: u32,
    key: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    #[inline]
    pub fn captured(&self) -> Option<Piece> {
        ids::piece(self.captured as usize)
    }
}

/// A Xiangqi position: placement, side to move, clocks and Zobrist key.
///
/// Built from FEN ([`Position::from_fen`]) with full validation, or
/// [`Position::startpos`]. Moves are applied with [`make_move`](Position::make_move) and
/// taken back with [`unmake_move`](Position::unmake_move); the key, occupancy and piece
/// lists are updated incrementally. `xq_core` knows the board but not the rules of
/// movement: legal move generation is in the `xq-movegen` crate.
///
/// ```
/// use xq_core::{Position, Move, Square, Piece};
/// let mut pos = Position::startpos();
/// let key = pos.key();
/// let m: Move = "h2e2".parse().unwrap();
/// let undo = pos.make_move(m);
/// assert_eq!(pos.piece_on(Square::E2), Piece::from_char('C'));
/// assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// pos.unmake_move(m, undo);
/// assert_eq!(pos.key(), key);
/// assert_eq!(pos, Position::startpos());
/// ```
#[derive(Clone)]
pub struct Position {
    board: [u8; 256],
    sq_of: [u8; 48],
    rank_bits: [u16; 16],
    file_bits: [u16; 16],
    side: Color,
    key: u64,
    halfmove: u32,
    fullmove: u32,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        // Ids are an implementation detail: compare what is on each square.
        self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && Square::ALL
                .iter()
                .all(|&sq| self.piece_on(sq) == other.piece_on(sq))
    }
}

impl Eq for Position {}

/// Why a well-formed FEN does not describe a position that can arise in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more than one general.
    TooManyGenerals(Color),
    /// A general stands outside its own palace.
    GeneralOutsidePalace {
        /// Whose general.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor, elephant or soldier stands on a square it can never reach.
    UnreachableSquare {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// More pieces of one kind than a side starts with.
    TooManyPieces {
        /// The piece.
        piece: Piece,
        /// How many there are.
        count: usize,
    },
    /// The two generals face each other on an open file.
    GeneralsFacing,
    /// The side that is not to move is in check (it could be captured at once).
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingGeneral(c) => write!(f, "{c} has no general"),
            PositionError::TooManyGenerals(c) => write!(f, "{c} has more than one general"),
            PositionError::GeneralOutsidePalace { color, square } => {
                write!(f, "the {color} general on {square} is outside its palace")
            }
            PositionError::UnreachableSquare { piece, square } => {
                write!(f, "'{piece}' can never stand on {square}")
            }
            PositionError::TooManyPieces { piece, count } => write!(
                f,
                "{count} pieces '{piece}', at most {} allowed",
                piece.kind.max_count()
            ),
            PositionError::GeneralsFacing => {
                f.write_str("the generals face each other on an open file")
            }
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A FEN that is malformed or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is malformed.
    Parse(ParseFenError),
    /// The text is well formed but the position is impossible.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => write!(f, "malformed FEN: {e}"),
            FenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

// `Display` includes the wrapped error, so `source` stays `None` (see the crate docs).
impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Which [`PositionError`]s a caller lets through when it builds a position
/// ([`Position::from_fen_with`], [`Position::from_setup`]): shakmaty's way, the caller
/// chooses what to ignore, and the default ignores nothing.
///
/// Only errors that leave the position playable can be ignored: both generals present,
/// in their palaces, not facing each other, the side not to move not in check, no more
/// pieces of a kind than a side starts with. What can be ignored today is a piece on a
/// square no game can bring it to ([`Ignore::UNREACHABLE_SQUARES`]), as the mate problems
/// of the classic manuals sometimes place them. Ask such a position for its
/// [`irregularities`](Position::irregularities) to warn the user.
///
/// ```
/// use xq_core::{FenError, Ignore, Position, PositionError};
/// // A Black soldier on its own back rank: no game brings it there.
/// let fen = "3k1p3/9/9/9/9/9/9/9/9/4K4 w";
/// assert!(matches!(
///     Position::from_fen(fen),
///     Err(FenError::Position(PositionError::UnreachableSquare { .. }))
/// ));
/// let pos = Position::from_fen_with(fen, Ignore::UNREACHABLE_SQUARES).unwrap();
/// assert_eq!(pos.irregularities()[0].to_string(), "'p' can never stand on f9");
/// // What makes a position unplayable is never ignored.
/// assert_eq!(
///     Position::from_fen_with("4k4/9/9/9/9/9/9/9/9/4K4 w", Ignore::PLAYABLE),
///     Err(FenError::Position(PositionError::GeneralsFacing))
/// );
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ignore(u8);

impl Ignore {
    /// Ignore nothing: every check of a position a game can reach (what
    /// [`Position::from_fen`] does). The default.
    pub const NOTHING: Ignore = Ignore(0);
    /// [`PositionError::UnreachableSquare`]: a soldier behind its starting rank (or
    /// beside its start, on its own side of the river), an elephant off its seven
    /// points, an advisor off its five points on its own side of the river. They still
    /// move by the rules: such a soldier steps forward until it crosses the river, an
    /// elephant never crosses it, an advisor only steps onto palace points. An advisor
    /// across the river stays refused: it could step into the other palace, where the
    /// rules of check never look for an advisor.
    pub const UNREACHABLE_SQUARES: Ignore = Ignore(1);
    /// Everything that leaves a position playable (today
    /// [`UNREACHABLE_SQUARES`](Ignore::UNREACHABLE_SQUARES)): what analysis and engine
    /// protocols accept.
    pub const PLAYABLE: Ignore = Ignore::UNREACHABLE_SQUARES;

    /// Both sets together.
    ///
    /// ```
    /// use xq_core::Ignore;
    /// assert_eq!(Ignore::NOTHING.union(Ignore::UNREACHABLE_SQUARES), Ignore::UNREACHABLE_SQUARES);
    /// assert_eq!(Ignore::NOTHING | Ignore::PLAYABLE, Ignore::PLAYABLE);
    /// ```
    #[must_use]
    pub const fn union(self, other: Ignore) -> Ignore {
        Ignore(self.0 | other.0)
    }

    /// Does this set hold everything `other` holds?
    ///
    /// ```
    /// use xq_core::Ignore;
    /// assert!(Ignore::PLAYABLE.contains(Ignore::UNREACHABLE_SQUARES));
    /// assert!(!Ignore::NOTHING.contains(Ignore::UNREACHABLE_SQUARES));
    /// ```
    pub const fn contains(self, other: Ignore) -> bool {
        self.0 & other.0 == other.0
    }

    /// Does this set let `error` through?
    ///
    /// ```
    /// use xq_core::{Ignore, Piece, PositionError, Square};
    /// let soldier = PositionError::UnreachableSquare { piece: Piece::from_char('p').unwrap(), square: Square::F9 };
    /// assert!(Ignore::PLAYABLE.ignores(&soldier));
    /// assert!(!Ignore::NOTHING.ignores(&soldier));
    /// // An advisor across the river could reach the other palace: never ignored.
    /// let advisor = PositionError::UnreachableSquare { piece: Piece::from_char('A').unwrap(), square: Square::D6 };
    /// assert!(!Ignore::PLAYABLE.ignores(&advisor));
    /// assert!(!Ignore::PLAYABLE.ignores(&PositionError::GeneralsFacing));
    /// ```
    pub fn ignores(self, error: &PositionError) -> bool {
        match *error {
            PositionError::UnreachableSquare { piece, square } => {
                self.contains(Ignore::UNREACHABLE_SQUARES)
                    && !(piece.kind == PieceKind::Advisor && square.half() != piece.color)
            }
            _ => false,
        }
    }
}

impl std::ops::BitOr for Ignore {
    type Output = Ignore;
    fn bitor(self, other: Ignore) -> Ignore {
        self.union(other)
    }
}

impl Piece {
    /// Can this piece ever stand on `sq` in a game? A general or an advisor only in its
    /// own palace (an advisor on its five points), an elephant only on its seven points on
    /// its own side of the river, a soldier never behind its starting rank nor beside its
    /// start before it crosses the river; horses, chariots and cannons anywhere. A
    /// [`Position`] never holds a piece where it cannot stand.
    ///
    /// ```
    /// use xq_core::{Piece, Square};
    /// let elephant = Piece::from_char('B').unwrap();
    /// assert!(elephant.can_stand_on(Square::E2));
    /// assert!(!elephant.can_stand_on(Square::E6)); // across the river
    /// assert!(!Piece::from_char('p').unwrap().can_stand_on(Square::B6)); // black soldier, off its files
    /// ```
    pub fn can_stand_on(self, sq: Square) -> bool {
        // Look at the square from the piece owner's side of the board.
        let own = match self.color {
            Color::Red => sq,
            Color::Black => sq.flip_vertical(),
        };
        let (f, r) = (own.file().index(), own.rank().index());
        match self.kind {
            PieceKind::General => own.in_palace() && r <= 2,
            PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
            PieceKind::Elephant => matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            ),
            PieceKind::Soldier => r >= 5 || (r >= 3 && f % 2 == 0),
            PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
        }
    }
}

/// What a move changes in the Zobrist key: the piece with id `id` leaves mailbox square
/// `from` for `to`, taking the piece with id `cap` there (0 for none), and the side to move
/// changes. One definition for [`Position::make_move`] and [`Position::key_after`].
#[inline(always)]
fn key_change(id: usize, cap: usize, from: usize, to: usize) -> u64 {
    let pi = ids::piece_index(id);
    let mut change = zobrist::raw(pi, from) ^ zobrist::raw(pi, to) ^ zobrist::side_to_move();
    if cap != 0 {
        change ^= zobrist::raw(ids::piece_index(cap), to);
    }
    change
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    /// Parses and validates a FEN.
    ///
    /// # Errors
    /// [`FenError::Parse`] if the text is malformed, [`FenError::Position`] if the
    /// placement cannot arise in a game.
    ///
    /// ```
    /// use xq_core::{Position, FenError, PositionError, ParseFenError, Color};
    /// assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").is_ok());
    /// assert_eq!(
    ///     Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
    ///     Err(FenError::Position(PositionError::GeneralsFacing))
    /// );
    /// assert_eq!(
    ///     Position::from_fen("4k4/9/9 w"),
    ///     Err(FenError::Parse(ParseFenError::WrongRankCount(3)))
    /// );
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen_with(text, Ignore::NOTHING)
    }

    /// Parses a FEN and validates it, letting through the [`PositionError`]s that
    /// `ignore` names: `Ignore::PLAYABLE` accepts a composed position that no game can
    /// reach but that can be played (a soldier behind its start, say), as analysis and
    /// the engine protocols do. [`irregularities`](Position::irregularities) then says
    /// what is unusual, for a warning.
    ///
    /// # Errors
    /// [`FenError::Parse`] if the text is malformed, [`FenError::Position`] for the
    /// first check the position fails that `ignore` does not name.
    ///
    /// ```
    /// use xq_core::{Ignore, Position};
    /// // A Red soldier on its own back rank, in a mate problem.
    /// let pos = Position::from_fen_with("3k5/9/9/9/9/9/9/9/9/4KP3 w", Ignore::PLAYABLE).unwrap();
    /// assert_eq!(pos.to_fen(), "3k5/9/9/9/9/9/9/9/9/4KP3 w - - 0 1");
    /// assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4KP3 w").is_err());
    /// ```
    pub fn from_fen_with(text: &str, ignore: Ignore) -> Result<Position, FenError> {
        let fen: Fen = text.parse()?;
        Ok(Position::from_setup(&fen, ignore)?)
    }

    /// The checks of a position a game can reach that this one fails, in square order
    /// (`a0`, `b0`, ... `i9`): empty for every position of a game, and for any position
    /// [`Position::from_fen`] accepts; a position built with
    /// [`from_fen_with`](Position::from_fen_with) may fail the ones it was told to
    /// ignore. Each is the error [`Position::from_fen`] would give, whose `Display` says
    /// what is unusual.
    ///
    /// ```
    /// use xq_core::{Ignore, Piece, Position, PositionError, Square};
    /// assert!(Position::startpos().irregularities().is_empty());
    /// let pos = Position::from_fen_with("3k1p3/9/9/9/9/9/9/4B4/9/4KP3 w", Ignore::PLAYABLE).unwrap();
    /// assert_eq!(
    ///     pos.irregularities(),
    ///     [
    ///         PositionError::UnreachableSquare { piece: Piece::from_char('P').unwrap(), square: Square::F0 },
    ///         PositionError::UnreachableSquare { piece: Piece::from_char('p').unwrap(), square: Square::F9 },
    ///     ]
    /// );
    /// ```
    pub fn irregularities(&self) -> Vec<PositionError> {
        Square::ALL
            .iter()
            .filter_map(|&square| {
                let piece = self.piece_on(square)?;
                (!piece.can_stand_on(square))
                    .then_some(PositionError::UnreachableSquare { piece, square })
            })
            .collect()
    }

    /// The FEN text of the position (always the full six-field form).
    pub fn to_fen(&self) -> String {
        Fen::from(self).to_string()
    }

    /// The position mirrored left to right (file `a` to file `i`), with the same side to
    /// move and clocks: a position exactly as good for each side, which training data
    /// and symmetry tests use.
    ///
    /// ```
    /// use xq_core::Position;
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 3 20").unwrap();
    /// assert_eq!(pos.flip_horizontal().to_fen(), "5k3/9/9/9/9/9/9/9/8R/4K4 w - - 3 20");
    /// assert_eq!(pos.flip_horizontal().flip_horizontal(), pos);
    /// ```
    pub fn flip_horizontal(&self) -> Position {
        let orig = Fen::from(self);
        let mut fen = orig.clone();
        for sq in Square::ALL {
            fen.set(sq.flip_horizontal(), orig.piece_on(sq));
        }
        // Every rule of a legal placement (the palaces, the elephants' and advisors'
        // points, the soldiers' ranks, facing generals, check) is symmetric left to right,
        // and so is every irregularity `Ignore::PLAYABLE` lets through.
        Position::from_setup(&fen, Ignore::PLAYABLE)
            .expect("the mirror of a playable position is playable")
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        ids::piece(self.board[sq.mailbox()] as usize)
    }

    /// Is `sq` empty?
    #[inline(always)]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.board[sq.mailbox()] == 0
    }

    /// Does `sq` hold `piece`? (The same as `piece_on(sq) == Some(piece)`, a little faster.)
    ///
    /// ```
    /// use xq_core::{Piece, Position, Square};
    /// let pos = Position::startpos();
    /// assert!(pos.holds(Square::H2, Piece::from_char('C').unwrap()));
    /// assert!(!pos.holds(Square::H2, Piece::from_char('c').unwrap()));
    /// ```
    #[inline(always)]
    pub fn holds(&self, sq: Square, piece: Piece) -> bool {
        ids::of(piece).contains(&(self.board[sq.mailbox()] as usize))
    }

    /// Does a piece of `color` stand on `sq`? (The same as `color_on(sq) == Some(color)`.)
    #[inline(always)]
    pub fn is_occupied_by(&self, sq: Square, color: Color) -> bool {
        self.board[sq.mailbox()] as usize & side_tag(color) != 0
    }

    /// The colour of the piece on `sq`, if any.
    ///
    /// ```
    /// use xq_core::{Color, Position, Square};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.color_on(Square::H2), Some(Color::Red));
    /// assert_eq!(pos.color_on(Square::H7), Some(Color::Black));
    /// assert_eq!(pos.color_on(Square::E4), None);
    /// ```
    #[inline(always)]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        match self.board[sq.mailbox()] {
            0 => None,
            id if id & 16 != 0 => Some(Color::Red),
            _ => Some(Color::Black),
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the position (placement and side to move; the clocks are not
    /// part of it).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key the position will have after `m` (not made): what
    /// [`key`](Position::key) returns after [`make_move`](Position::make_move). A search
    /// reads it to fetch the next position's table entry before it makes the move.
    ///
    /// ```
    /// use xq_core::{Move, Position};
    /// let mut pos = Position::startpos();
    /// let m: Move = "h2e2".parse().unwrap();
    /// let key = pos.key_after(m);
    /// pos.make_move(m);
    /// assert_eq!(pos.key(), key);
    /// ```
    ///
    /// # Panics
    /// In debug builds, if `m.from()` is empty.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().mailbox(), m.to().mailbox());
        let id = self.board[from] as usize;
        debug_assert!(id != 0, "no piece on the origin of {m}");
        self.key ^ key_change(id, self.board[to] as usize, from, to)
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Sets the plies-since-capture counter (a GUI may send it with a position).
    pub fn set_halfmove_clock(&mut self, plies: u32) {
        self.halfmove = plies;
    }

    /// The move number (starts at 1, increases after each Black move).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Where `color`'s general stands.
    #[inline(always)]
    pub fn general(&self, color: Color) -> Square {
        // A position always has both generals (checked when it is built; make_move never
        // captures one).
        Square::from_mailbox_unchecked(self.sq_of[side_tag(color)])
    }

    /// The squares of every `piece` on the board (all of one colour and kind), from the
    /// piece lists: no board scan.
    ///
    /// ```
    /// use xq_core::{Piece, Position, Square};
    /// let pos = Position::startpos();
    /// let cannons: Vec<Square> = pos.squares_of(Piece::from_char('C').unwrap()).collect();
    /// assert_eq!(cannons, [Square::B2, Square::H2]);
    /// ```
    #[inline(always)]
    pub fn squares_of(&self, piece: Piece) -> impl Iterator<Item = Square> + '_ {
        self.sq_of[ids::of(piece)]
            .iter()
            .filter(|&&m| m != 0)
            .map(|&m| Square::from_mailbox_unchecked(m))
    }

    /// Every piece of `color` with its square, general first, then advisors, elephants,
    /// horses, chariots, cannons and soldiers.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let tag = side_tag(color);
        (tag..tag + 16).filter_map(move |id| {
            let sq = Square::from_mailbox(self.sq_of[id] as usize)?;
            Some((ids::piece(id)?, sq))
        })
    }

    /// How many pieces of `piece`'s colour and kind are on the board.
    pub fn count(&self, piece: Piece) -> usize {
        self.squares_of(piece).count()
    }

    /// How many pieces are on the board, generals included (2 to 32).
    ///
    /// ```
    /// use xq_core::Position;
    /// assert_eq!(Position::startpos().piece_count(), 32);
    /// assert_eq!(Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap().piece_count(), 3);
    /// ```
    #[inline]
    pub fn piece_count(&self) -> usize {
        // The sixteen rank words read as four `u64`s: four population counts instead of
        // sixteen (a portable build has no POPCNT instruction: each is a dozen steps).
        self.rank_bits
            .chunks_exact(4)
            .map(|r| {
                let word = u64::from(r[0])
                    | u64::from(r[1]) << 16
                    | u64::from(r[2]) << 32
                    | u64::from(r[3]) << 48;
                word.count_ones() as usize
            })
            .sum()
    }

    /// The occupied squares along the line from `sq` in direction `dir`, nearest first
    /// (`sq` itself excluded). The first is what a chariot on `sq` attacks, the second what
    /// a cannon on `sq` attacks (over the first as its screen). Found with the rank and
    /// file occupancy bits, not by walking the board.
    ///
    /// ```
    /// use xq_core::attacks::Direction;
    /// use xq_core::{Position, Square};
    /// let pos = Position::startpos();
    /// let up: Vec<Square> = pos.occupied_along(Square::H2, Direction::Up).collect();
    /// assert_eq!(up, [Square::H7, Square::H9]);
    /// let left: Vec<Square> = pos.occupied_along(Square::H2, Direction::Left).collect();
    /// assert_eq!(left, [Square::B2]);
    /// ```
    #[inline(always)]
    pub fn occupied_along(&self, sq: Square, dir: Direction) -> OccupiedAlong {
        let m = sq.mailbox();
        let line = if dir.is_vertical() {
            self.file_bits[m & 15]
        } else {
            self.rank_bits[m >> 4]
        };
        OccupiedAlong::new(line, m, dir)
    }

    // ------------------------------------------------------------------ attacks

    /// Is `color`'s general attacked with the board as it stands? The enemy general
    /// counts as attacking along an open file (the flying-general rule).
    #[inline]
    pub fn is_general_attacked(&self, color: Color) -> bool {
        let k = self.sq_of[side_tag(color)] as usize;
        self.attacked_impl::<false>(k, color, 0, 0)
    }

    /// Is `color`'s general in check in the position?
    ///
    /// ```
    /// use xq_core::Position;
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
    /// assert!(pos.is_check());
    /// ```
    #[inline]
    pub fn is_check(&self) -> bool {
        self.is_general_attacked(self.side)
    }

    /// Would the general of the side to move be attacked after it played `m` (capturing
    /// whatever stands on `m.to()`)? Nothing is changed: the move is applied virtually,
    /// which is how move generators test legality cheaply. The general itself may be the
    /// piece that moves.
    ///
    /// `m` should be pseudo-legal (a piece of the side to move on its origin); for any
    /// other move the answer means nothing.
    ///
    /// ```
    /// use xq_core::Position;
    /// // Red's cannon on e1 stands between the generals: it may move along the file only.
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/4K4 w").unwrap();
    /// assert!(pos.general_attacked_after("e1d1".parse().unwrap()));
    /// assert!(!pos.general_attacked_after("e1e5".parse().unwrap()));
    /// ```
    #[inline]
    pub fn general_attacked_after(&self, m: Move) -> bool {
        let (from, to) = (m.from().mailbox(), m.to().mailbox());
        let color = self.side;
        let mut k = self.sq_of[side_tag(color)] as usize;
        if k == from {
            k = to;
        }
        self.attacked_impl::<true>(k, color, from, to)
    }

    /// The attack test behind [`is_general_attacked`](Position::is_general_attacked) and
    /// [`general_attacked_after`](Position::general_attacked_after): would a general of
    /// `color` on mailbox square `k` be attacked? With `VIRTUAL`, `from` counts as empty
    /// and `to` as holding a piece of `color`.
    #[inline(always)]
    fn attacked_impl<const VIRTUAL: bool>(
        &self,
        k: usize,
        color: Color,
        from: usize,
        to: usize,
    ) -> bool {
        let b = &self.board;
        // An enemy `kind` on mailbox square `sq` (never the virtually captured piece).
        let is = |sq: usize, kind: PieceKind| -> bool {
            (!VIRTUAL || sq != to) && ids::of(Piece::new(!color, kind)).contains(&(b[sq] as usize))
        };
        let empty = |sq: usize| -> bool {
            if VIRTUAL {
                sq == from || (sq != to && b[sq] == 0)
            } else {
                b[sq] == 0
            }
        };
        let step = |sq: usize, s: Step| (sq as i32 + s.mailbox_delta()) as usize;

        // Which enemy pieces could attack `k` at all: a horse a jump away, a chariot or
        // cannon on its file or rank, the general on its file. (A captured piece's
        // square is 0, on no line and no jump away; a piece captured virtually on `to`
        // is let through here and refused by `is`.) Most of the time there are few,
        // and the scans below skip what none of them could use.
        let (row, col) = (k >> 4, k & 15);
        let them = side_tag(!color);
        let at = |offset: usize| self.sq_of[them + offset] as usize;
        let horse_near = [at(5), at(6)].into_iter().any(|h| {
            let d = k.wrapping_sub(h).wrapping_add(34);
            d < HORSE_LEG.len() && HORSE_LEG[d] != 0
        });
        let sliders = [at(7), at(8), at(9), at(10)];
        let on_file = at(0) & 15 == col || sliders.iter().any(|&s| s & 15 == col);
        let on_rank = sliders.iter().any(|&s| s >> 4 == row);

        // Soldiers: in front (from the general's side) and beside.
        let front = step(k, Step::forward(color));
        if is(front, PieceKind::Soldier)
            || is(k - 1, PieceKind::Soldier)
            || is(k + 1, PieceKind::Soldier)
        {
            return true;
        }

        // Horses, through the legs diagonally next to the general. A general stands in
        // its palace, so every square read here is inside the padded mailbox.
        if horse_near {
            for (leg, horses) in HORSE_ATTACKS {
                if empty(step(k, leg))
                    && (is(step(k, horses[0]), PieceKind::Horse)
                        || is(step(k, horses[1]), PieceKind::Horse))
                {
                    return true;
                }
            }
        }

        // Lines: a chariot (or, along the file, the other general) first, a cannon second.
        let mut file = self.file_bits[col];
        let mut rank = self.rank_bits[row];
        if VIRTUAL {
            for (sq, on) in [(from, false), (to, true)] {
                if sq & 15 == col {
                    let bit = 1 << ((sq >> 4) - 3);
                    file = if on { file | bit } else { file & !bit };
                }
                if sq >> 4 == row {
                    let bit = 1 << ((sq & 15) - 3);
                    rank = if on { rank | bit } else { rank & !bit };
                }
            }
        }
        for dir in Direction::ALL {
            if !(if dir.is_vertical() { on_file } else { on_rank }) {
                continue;
            }
            let bits = if dir.is_vertical() { file } else { rank };
            let mut along = OccupiedAlong::new(bits, k, dir);
            if let Some(first) = along.next() {
                if is(first.mailbox(), PieceKind::Chariot)
                    || (dir.is_vertical() && is(first.mailbox(), PieceKind::General))
                {
                    return true;
                }
                if along
                    .next()
                    .is_some_and(|second| is(second.mailbox(), PieceKind::Cannon))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Do the two generals stand on one file with nothing between them?
    pub fn generals_facing(&self) -> bool {
        let red = self.general(Color::Red);
        self.occupied_along(red, Direction::Up).next() == Some(self.general(Color::Black))
    }

    // ------------------------------------------------------------------ make/unmake

    #[inline(always)]
    fn toggle_bits(&mut self, sq: usize) {
        let (row, col) = (sq >> 4, sq & 15);
        self.rank_bits[row] ^= 1 << (col - 3);
        self.file_bits[col] ^= 1 << (row - 3);
    }

    /// Plays `m` for the side to move and returns what is needed to take it back.
    ///
    /// This is the fast, unchecked form: the move must be pseudo-legal (a piece of the
    /// side to move on `m.from()`, no own piece on `m.to()`). Legality is the job of
    /// `xq_movegen`; `xq_movegen::try_play` checks it first.
    ///
    /// # Panics
    /// In debug builds, if `m.from()` does not hold a piece of the side to move or
    /// `m.to()` holds one of its own pieces or a general.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from().mailbox(), m.to().mailbox());
        let id = self.board[from] as usize;
        let cap = self.board[to] as usize;
        debug_assert!(
            id & side_tag(self.side) != 0,
            "no piece of the side to move on {m}"
        );
        debug_assert!(cap & side_tag(self.side) == 0, "{m} captures an own piece");
        debug_assert!(cap & 15 != 0 || cap == 0, "{m} captures a general");
        let undo = Undo {
            captured: cap as u8,
            halfmove: self.halfmove,
            key: self.key,
        };
        self.key ^= key_change(id, cap, from, to);
        self.board[from] = 0;
        self.board[to] = id as u8;
        self.sq_of[id] = to as u8;
        self.toggle_bits(from);
        if cap != 0 {
            self.sq_of[cap] = 0;
            self.halfmove = 0;
        } else {
            self.toggle_bits(to);
            // Saturating: `set_halfmove_clock` accepts any value.
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        undo
    }

    /// Takes back `m`, which must be the last move made, with the record
    /// [`make_move`](Position::make_move) returned. Any other move or record leaves the
    /// position inconsistent (it is not checked).
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from().mailbox(), m.to().mailbox());
        let id = self.board[to] as usize;
        let cap = undo.captured as usize;
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.board[from] = id as u8;
        self.sq_of[id] = from as u8;
        self.board[to] = cap as u8;
        self.toggle_bits(from);
        if cap != 0 {
            self.sq_of[cap] = to as u8;
        } else {
            self.toggle_bits(to);
        }
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Passes the move to the other side without moving (for null-move pruning). The
    /// halfmove clock is kept.
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: 0,
            halfmove: self.halfmove,
            key: self.key,
        };
        self.key ^= zobrist::side_to_move();
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        undo
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// The Zobrist key computed from scratch (equal to [`key`](Position::key) unless
    /// something is broken).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::side_to_move()
        } else {
            0
        };
        for sq in Square::ALL {
            if let Some(p) = self.piece_on(sq) {
                key ^= zobrist::piece_square(p, sq);
            }
        }
        key
    }

    /// Checks every incremental structure (key, piece lists, occupancy bits) against a
    /// recomputation from the board.
    ///
    /// # Errors
    /// A description of the first inconsistency found.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.key != self.compute_key() {
            return Err(format!("incremental key {:016x} != recomputed", self.key));
        }
        for i in 0..256 {
            let id = self.board[i] as usize;
            if id != 0 {
                if !in_board(i) {
                    return Err(format!("piece id {id} off the board at {i}"));
                }
                if self.sq_of[id] as usize != i {
                    return Err(format!("piece list of id {id} disagrees with the board"));
                }
            }
        }
        for id in 16..48 {
            let sq = self.sq_of[id] as usize;
            if sq != 0 && self.board[sq] as usize != id {
                return Err(format!("id {id} listed on {sq} but not there"));
            }
        }
        for sq in Square::ALL {
            let m = sq.mailbox();
            let occupied = self.board[m] != 0;
            let (row, col) = (m >> 4, m & 15);
            if (self.rank_bits[row] >> (col - 3)) & 1 != occupied as u16
                || (self.file_bits[col] >> (row - 3)) & 1 != occupied as u16
            {
                return Err(format!("occupancy bits wrong on {sq}"));
            }
        }
        Ok(())
    }

    /// The same position with the colours swapped: every piece changes colour and moves
    /// to the square mirrored across the river, and the other side is to move. The game
    /// is the same game, so any evaluation seen from the side to move is unchanged.
    pub fn color_flipped(&self) -> Position {
        let mut fen = Fen::empty();
        for sq in Square::ALL {
            if let Some(p) = self.piece_on(sq) {
                fen.set(sq.flip_vertical(), Some(Piece::new(!p.color, p.kind)));
            }
        }
        fen.side_to_move = !self.side;
        fen.halfmove_clock = self.halfmove;
        fen.fullmove_number = self.fullmove;
        // Mirroring keeps every check: a piece on a square no game reaches stays on
        // such a square, still playable (an advisor stays on its own side).
        Position::from_setup(&fen, Ignore::PLAYABLE)
            .expect("a colour-flipped position is as valid as the position")
    }

    /// The position a [`Fen`] describes, checked as a game's position except for what
    /// `ignore` lets through (`Position::try_from(&fen)` ignores nothing).
    ///
    /// # Errors
    /// The first [`PositionError`] the placement has that `ignore` does not name:
    /// counts first (generals, then pieces of each kind), then squares in square order,
    /// then the generals facing and the side not to move in check.
    ///
    /// ```
    /// use xq_core::{Fen, Ignore, Position, PositionError};
    /// let fen: Fen = "3k5/9/9/9/9/9/9/9/P8/4K4 w".parse().unwrap();
    /// assert!(matches!(Position::try_from(&fen), Err(PositionError::UnreachableSquare { .. })));
    /// assert!(Position::from_setup(&fen, Ignore::UNREACHABLE_SQUARES).is_ok());
    /// ```
    pub fn from_setup(fen: &Fen, ignore: Ignore) -> Result<Position, PositionError> {
        let mut counts = [[0usize; 7]; 2];
        for sq in Square::ALL {
            if let Some(p) = fen.piece_on(sq) {
                counts[p.color.index()][p.kind.index()] += 1;
            }
        }
        for color in Color::ALL {
            let c = &counts[color.index()];
            if c[0] == 0 {
                return Err(PositionError::MissingGeneral(color));
            }
            if c[0] > 1 {
                return Err(PositionError::TooManyGenerals(color));
            }
            for kind in PieceKind::ALL {
                if c[kind.index()] > kind.max_count() {
                    return Err(PositionError::TooManyPieces {
                        piece: Piece::new(color, kind),
                        count: c[kind.index()],
                    });
                }
            }
        }
        for sq in Square::ALL {
            if let Some(p) = fen.piece_on(sq) {
                if !p.can_stand_on(sq) {
                    let error = if p.kind == PieceKind::General {
                        PositionError::GeneralOutsidePalace {
                            color: p.color,
                            square: sq,
                        }
                    } else {
                        PositionError::UnreachableSquare {
                            piece: p,
                            square: sq,
                        }
                    };
                    if !ignore.ignores(&error) {
                        return Err(error);
                    }
                }
            }
        }

        let mut pos = Position {
            board: [0; 256],
            sq_of: [0; 48],
            rank_bits: [0; 16],
            file_bits: [0; 16],
            side: fen.side_to_move,
            key: 0,
            halfmove: fen.halfmove_clock,
            fullmove: fen.fullmove_number,
        };
        let mut next = [[0usize; 7]; 2];
        for sq in Square::ALL {
            if let Some(p) = fen.piece_on(sq) {
                let n = &mut next[p.color.index()][p.kind.index()];
                let id = ids::of(p).start + *n;
                *n += 1;
                let m = sq.mailbox();
                pos.board[m] = id as u8;
                pos.sq_of[id] = m as u8;
                pos.toggle_bits(m);
            }
        }
        pos.key = pos.compute_key();
        if pos.generals_facing() {
            return Err(PositionError::GeneralsFacing);
        }
        if pos.is_general_attacked(!pos.side) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
    }
}

impl TryFrom<&Fen> for Position {
    type Error = PositionError;

    /// The position of a game a [`Fen`] describes: every check
    /// ([`Position::from_setup`] with [`Ignore::NOTHING`]).
    fn try_from(fen: &Fen) -> Result<Position, PositionError> {
        Position::from_setup(fen, Ignore::NOTHING)
    }
}

impl From<&Position> for Fen {
    /// The position as a [`Fen`] (placement, side to move and counters).
    fn from(pos: &Position) -> Fen {
        let mut fen = Fen::empty();
        for sq in Square::ALL {
            fen.set(sq, pos.piece_on(sq));
        }
        fen.side_to_move = pos.side;
        fen.halfmove_clock = pos.halfmove;
        fen.fullmove_number = pos.fullmove;
        fen
    }
}

/// The occupied squares along a line from a square, nearest first: the iterator of
/// [`Position::occupied_along`].
#[derive(Clone, Debug)]
pub struct OccupiedAlong {
    /// Occupancy bits of the line beyond the start, in the direction of travel: bit `i`
    /// is the square at mailbox index `base + (i << shift)`.
    bits: u16,
    base: u8,
    /// 4 along a file (a bit per rank), 0 along a rank (a bit per file).
    shift: u8,
    /// Travelling towards lower bits (down or left): the nearest square is the highest bit.
    descending: bool,
}

impl OccupiedAlong {
    /// The squares along `dir` from mailbox square `m`, given the occupancy bits `line`
    /// of its file (vertical) or rank (horizontal).
    #[inline(always)]
    fn new(line: u16, m: usize, dir: Direction) -> OccupiedAlong {
        let (row, col) = (m >> 4, m & 15);
        let (at, base, shift) = if dir.is_vertical() {
            (row - 3, 0x30 | col, 4)
        } else {
            (col - 3, (row << 4) | 3, 0)
        };
        let descending = matches!(dir, Direction::Down | Direction::Left);
        let bits = if descending {
            line & ((1u16 << at) - 1)
        } else {
            line & (!0u16 << (at + 1))
        };
        OccupiedAlong {
            bits,
            base: base as u8,
            shift,
            descending,
        }
    }
}

impl Iterator for OccupiedAlong {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.bits == 0 {
            return None;
        }
        let i = if self.descending {
            15 - self.bits.leading_zeros()
        } else {
            self.bits.trailing_zeros()
        };
        self.bits &= !(1 << i);
        Some(Square::from_mailbox_unchecked(
            self.base + ((i as u8) << self.shift),
        ))
    }
}

impl TryFrom<Fen> for Position {
    type Error = PositionError;
    fn try_from(fen: Fen) -> Result<Position, PositionError> {
        Position::try_from(&fen)
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{}\")", self.to_fen())
    }
}
