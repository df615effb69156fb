//! A check of a table's rule results on the positions some starts lead to, for endings
//! too large for the whole-ending solver of `rule.rs` (it keeps every position of the
//! ending, unfolded, and sweeps them all at every step).
//!
//! From starts the table says a side `W` wins by the rules, the region is every position
//! reached when `W` plays any move the table says keeps the win by the rules and the other
//! side `L` any legal move at all, up to a capture or a move into a mate. Every position of
//! the region is then one the table says `W` wins by the rules. On the region, the games of
//! `rule.rs` are solved again, by the same nested fixpoint μZ₂.νZ₁.μZ₀ but each μZ₀
//! computed as an attractor over the moves backwards (a count of the moves left for `L`),
//! so that each step of the outer fixpoints costs one pass over the moves instead of a
//! sweep over every position for each position added:
//!
//! - `L` escapes by any move the table does not give to `W` (a draw, or a capture into a
//!   draw), so a table that calls a drawn position won fails the check;
//! - `W` may leave the region only into a win: a mate of the table, or a capture into a
//!   smaller table's win (by mate, or by a rule: those tables are checked on their own);
//! - every position of the region must come out won by `W`, and won by perpetual check
//!   alone (the check game, with a capture into a smaller table's win by the chase rule no
//!   win) exactly where the table says `PerpetualCheck`.
//!
//! Then the games are played out under xq's referee (`Game::outcome`), `W` playing the
//! solved strategy inside the region and the tables' fastest mate outside it.

use super::{nested_fixpoint, Strategy};
use xq_core::{Color, Fen, Move, Piece, PieceKind, Position, Square};
use xq_movegen::rules::chases;
use xq_movegen::Outcome;
use xq_tablebase::{Rule, Table, TableValue};

/// The value of `pos` for its side to move by `tables` (the table of its ending and of
/// every ending a capture leads to). With no chariot, horse, cannon or soldier left it is
/// in no table: a draw, or a loss where the side to move has no legal move.
pub fn value_of(tables: &[Table], pos: &Position) -> TableValue {
    // A plan lists the ending last: most positions asked about are its own.
    if let Some(v) = tables.iter().rev().find_map(|t| t.probe(pos)) {
        return v;
    }
    let armed = Color::ALL.iter().any(|&c| {
        pos.pieces(c).any(|(p, _)| {
            !matches!(
                p.kind,
                PieceKind::General | PieceKind::Advisor | PieceKind::Elephant
            )
        })
    });
    assert!(!armed, "{pos}: no table holds it");
    if xq_movegen::count_legal(pos) == 0 {
        TableValue::Loss { plies: 0 }
    } else {
        TableValue::Draw
    }
}

/// The moves with the best value by `tables` for the side to move of `pos`.
pub fn best_moves(tables: &[Table], pos: &Position) -> Vec<Move> {
    let mut child = pos.clone();
    let valued: Vec<(Move, i32)> = xq_movegen::legal_moves(pos)
        .into_iter()
        .map(|m| {
            let undo = child.make_move(m);
            let v = value_of(tables, &child).for_mover().rank();
            child.unmake_move(m, undo);
            (m, v)
        })
        .collect();
    let best = valued.iter().map(|&(_, v)| v).max().expect("a legal move");
    valued
        .into_iter()
        .filter(|&(_, v)| v == best)
        .map(|(m, _)| m)
        .collect()
}

/// What a position is worth to the would-be winner.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Worth {
    /// A forced mate.
    Mate,
    /// A win by the rules; the rule the table records.
    Rule(Option<Rule>),
    /// A draw or a loss.
    Nothing,
}

/// `v`, the value of a position for its side to move, as the winner sees it.
fn worth(v: TableValue, winner_to_move: bool) -> Worth {
    match if winner_to_move { v } else { v.for_mover() } {
        TableValue::Win { .. } => Worth::Mate,
        TableValue::RuleWin { rule } => Worth::Rule(rule),
        _ => Worth::Nothing,
    }
}

/// Where a move of the region leads.
#[derive(Clone, Copy, Debug)]
enum To {
    /// A position of the region.
    Node(u32),
    /// Out of the region into the winner's win: a mate, or a capture into a smaller
    /// table's win. `by_check`: the check game may count it (a mate, or a win by
    /// perpetual check alone).
    Won { by_check: bool },
}

/// [`Edge::to`] for a move out of the region into a win the check game counts.
const WON_BY_CHECK: u32 = u32::MAX;
/// [`Edge::to`] for a move out of the region into a win only the chase games count.
const WON: u32 = u32::MAX - 1;
/// No node (in [`Region::id`]).
const NONE: u32 = u32::MAX;
/// [`Edge::flags`]: the move gives check.
const CHECK: u8 = 0x80;

/// A move of the region's games, in eight bytes (a region of KRNKR has 17 million
/// positions, each with its moves).
#[derive(Clone, Copy)]
struct Edge {
    /// The node it leads to, or [`WON_BY_CHECK`] or [`WON`].
    to: u32,
    /// The move.
    m: Move,
    /// [`CHECK`], and the kinds of the pieces it newly chases, as bits from
    /// `1 << kind.index()`, by the referee's own [`chases`].
    flags: u8,
}

const _: () = assert!(std::mem::size_of::<Edge>() == 8);

impl Edge {
    fn to(self) -> To {
        match self.to {
            WON_BY_CHECK => To::Won { by_check: true },
            WON => To::Won { by_check: false },
            u => To::Node(u),
        }
    }

    fn check(self) -> bool {
        self.flags & CHECK != 0
    }

    fn chased(self) -> u8 {
        self.flags & !CHECK
    }
}

/// A number for every position of one ending, unfolded: each piece's square among
/// those it may stand on, in mixed radix, then the side to move. Pieces alike take their
/// squares in increasing order, so each position has one number. No hashing and no
/// stored positions: a region keeps a number a node.
struct Numbering {
    /// The ending's pieces, alike ones next to each other.
    pieces: Vec<Piece>,
    /// The squares each piece may stand on.
    squares: Vec<Vec<Square>>,
    /// Each square's place among a piece's `squares`.
    place: Vec<Vec<u8>>,
    /// How many numbers there are.
    size: u64,
}

impl Numbering {
    fn new(pos: &Position) -> Numbering {
        let mut pieces: Vec<Piece> = Color::ALL
            .into_iter()
            .flat_map(|c| pos.pieces(c).map(|(p, _)| p))
            .collect();
        pieces.sort_by_key(|p| (p.color.index(), p.kind.index()));
        let squares: Vec<Vec<Square>> = pieces
            .iter()
            .map(|p| {
                Square::ALL
                    .into_iter()
                    .filter(|&sq| p.can_stand_on(sq))
                    .collect()
            })
            .collect();
        let place = squares
            .iter()
            .map(|list| {
                let mut place = vec![u8::MAX; Square::COUNT];
                for (i, sq) in list.iter().enumerate() {
                    place[sq.index()] = i as u8;
                }
                place
            })
            .collect();
        let size = squares
            .iter()
            .try_fold(2u64, |n, list| n.checked_mul(list.len() as u64))
            .filter(|&n| n <= 1 << 31)
            .unwrap_or_else(|| panic!("{pos}: too many positions for a dense numbering"));
        Numbering {
            pieces,
            squares,
            place,
            size,
        }
    }

    /// The number of `pos`, if it has the ending's pieces.
    fn number(&self, pos: &Position) -> Option<u64> {
        let total: usize = Color::ALL.iter().map(|&c| pos.pieces(c).count()).sum();
        if total != self.pieces.len() {
            return None;
        }
        let mut n = 0u64;
        let mut i = 0;
        while i < self.pieces.len() {
            let piece = self.pieces[i];
            let alike = self.pieces[i..].iter().take_while(|&&p| p == piece).count();
            let mut at: Vec<usize> = pos.squares_of(piece).map(|sq| sq.index()).collect();
            if at.len() != alike {
                return None;
            }
            at.sort_unstable();
            for sq in at {
                n = n * self.squares[i].len() as u64 + u64::from(self.place[i][sq]);
                i += 1;
            }
        }
        Some(n * 2 + u64::from(pos.side_to_move() == Color::Black))
    }

    /// The position numbered `n` (one of a region: legal).
    fn position(&self, mut n: u64) -> Position {
        let mut fen = Fen::empty();
        fen.side_to_move = if n % 2 == 1 { Color::Black } else { Color::Red };
        n /= 2;
        for (i, list) in self.squares.iter().enumerate().rev() {
            let k = list.len() as u64;
            fen.set(list[(n % k) as usize], Some(self.pieces[i]));
            n /= k;
        }
        Position::try_from(&fen).expect("a position of the region")
    }
}

/// The positions some starts lead to, with their moves (see the module docs).
pub struct Region {
    /// The side the table says wins every position of the region.
    pub winner: Color,
    numbering: Numbering,
    /// The node of each number of the ending, or [`NONE`].
    id: Vec<u32>,
    /// The number of each node.
    number: Vec<u64>,
    winner_moves: Vec<bool>,
    /// The table says perpetual check alone wins it.
    table_check: Vec<bool>,
    /// The moves of node `v` are `edges[first[v]..first[v + 1]]`.
    first: Vec<usize>,
    edges: Vec<Edge>,
    /// The node each edge leaves.
    from: Vec<u32>,
    /// The edges into node `u` are `preds[pred_first[u]..pred_first[u + 1]]`.
    pred_first: Vec<usize>,
    preds: Vec<u32>,
    /// A node of the loser's with a move out of the winner's reach (a draw, a loss).
    escape: Vec<bool>,
    /// The kinds of which the winner has one piece: each has a chase game.
    single: Vec<PieceKind>,
}

impl Region {
    /// The region of `starts` (every one a position `winner` wins by the rules by
    /// `tables`, all of one ending, at least one), or `Err(n)` once it grows beyond
    /// `limit` positions.
    pub fn new(
        tables: &[Table],
        winner: Color,
        starts: &[Position],
        limit: usize,
    ) -> Result<Region, usize> {
        let numbering = Numbering::new(&starts[0]);
        let mut r = Region {
            winner,
            id: vec![NONE; numbering.size as usize],
            numbering,
            number: Vec::new(),
            winner_moves: Vec::new(),
            table_check: Vec::new(),
            first: vec![0],
            edges: Vec::new(),
            from: Vec::new(),
            pred_first: Vec::new(),
            preds: Vec::new(),
            escape: Vec::new(),
            single: Vec::new(),
        };
        for start in starts {
            let to_move = start.side_to_move() == winner;
            let Worth::Rule(rule) = worth(value_of(tables, start), to_move) else {
                panic!("{start}: not won by the rules by {winner:?}");
            };
            r.node(start, rule);
        }
        // Every kind but the general (the first).
        r.single = PieceKind::ALL
            .into_iter()
            .skip(1)
            .filter(|&k| starts[0].squares_of(Piece::new(winner, k)).count() == 1)
            .collect();
        // The nodes in the order they were found: each one's moves may add more.
        let mut v = 0;
        while v < r.positions() {
            if r.positions() > limit {
                return Err(r.positions());
            }
            let mut pos = r.position(v);
            let mover_wins = pos.side_to_move() == winner;
            let mut escape = false;
            for m in xq_movegen::legal_moves(&pos) {
                let capture = pos.piece_on(m.to()).is_some();
                let undo = pos.make_move(m);
                let check = pos.is_check();
                let to = match worth(value_of(tables, &pos), !mover_wins) {
                    Worth::Rule(rule) if !capture => Some(r.node(&pos, rule)),
                    Worth::Rule(Some(Rule::PerpetualCheck)) | Worth::Mate => Some(WON_BY_CHECK),
                    Worth::Rule(_) => Some(WON),
                    Worth::Nothing => None,
                };
                pos.unmake_move(m, undo);
                match to {
                    Some(to) => {
                        let chased = chases(&pos, m)
                            .iter()
                            .map(|sq| 1u8 << pos.piece_on(sq).unwrap().kind.index())
                            .fold(0, |a, b| a | b);
                        r.edges.push(Edge {
                            to,
                            m,
                            flags: chased | if check { CHECK } else { 0 },
                        });
                        r.from.push(v as u32);
                    }
                    // The winner does not play it; the loser escapes by it.
                    None => escape |= !mover_wins,
                }
            }
            r.escape.push(escape);
            r.first.push(r.edges.len());
            v += 1;
        }
        // The moves backwards.
        let n = r.positions();
        let mut count = vec![0usize; n + 1];
        for e in &r.edges {
            if let To::Node(u) = e.to() {
                count[u as usize + 1] += 1;
            }
        }
        for u in 0..n {
            count[u + 1] += count[u];
        }
        r.pred_first = count.clone();
        r.preds = vec![0; count[n]];
        for (i, e) in r.edges.iter().enumerate() {
            if let To::Node(u) = e.to() {
                let slot = &mut count[u as usize];
                r.preds[*slot] = i as u32;
                *slot += 1;
            }
        }
        Ok(r)
    }

    /// The node of `pos`, added if new.
    fn node(&mut self, pos: &Position, rule: Option<Rule>) -> u32 {
        let n = self
            .numbering
            .number(pos)
            .expect("a position of the ending");
        let v = self.id[n as usize];
        if v != NONE {
            return v;
        }
        let v = self.number.len() as u32;
        self.id[n as usize] = v;
        self.number.push(n);
        self.winner_moves.push(pos.side_to_move() == self.winner);
        self.table_check.push(rule == Some(Rule::PerpetualCheck));
        v
    }

    /// The number of positions.
    pub fn positions(&self) -> usize {
        self.number.len()
    }

    /// The number of moves between them (and out of the region to the winner's wins).
    pub fn moves(&self) -> usize {
        self.edges.len()
    }

    /// The position of node `v`.
    fn position(&self, v: usize) -> Position {
        self.numbering.position(self.number[v])
    }

    /// The node of a position, if it is in the region.
    pub fn node_of(&self, pos: &Position) -> Option<usize> {
        self.numbering
            .number(pos)
            .map(|n| self.id[n as usize])
            .filter(|&v| v != NONE)
            .map(|v| v as usize)
    }

    /// Solves the region's games (`check_only`: the game of perpetual check alone) and
    /// checks what they say against the table: every position won by the winner, and by
    /// perpetual check alone exactly where the table records that rule. Returns the
    /// winner's strategy of the whole rules and the number of positions the table gives
    /// to perpetual check.
    pub fn check(&self) -> (Strategy, usize) {
        let (won, strategy, check_game) = self.solve(false);
        // The game of perpetual check alone is the whole rules' first game, unless a move
        // leaves the region into a win by the chase rule (which only the latter counts).
        let by_check = if self.edges.iter().any(|e| e.to == WON) {
            self.solve(true).0
        } else {
            check_game
        };
        for v in 0..self.positions() {
            assert!(
                won[v],
                "{}: the table's rule win is not won",
                self.position(v)
            );
            assert_eq!(
                by_check[v],
                self.table_check[v],
                "{}: the table's rule is {}",
                self.position(v),
                if self.table_check[v] {
                    "perpetual check"
                } else {
                    "the chase rule"
                }
            );
        }
        (strategy, self.table_check.iter().filter(|&&c| c).count())
    }

    /// The nodes the winner wins, with a strategy: the check game (alone if
    /// `check_only`) and a chase game for each kind of which the winner has one piece, each
    /// also won by reaching what the others won, until none adds a node (as `rule.rs`).
    /// The third vector is what the first check game won.
    fn solve(&self, check_only: bool) -> (Vec<bool>, Strategy, Vec<bool>) {
        let n = self.positions();
        let mut won = vec![false; n];
        let mut strategy = vec![None; n];
        let check = |e: &Edge, wins: bool| -> u8 {
            match (e.check(), wins) {
                (true, _) => 0,
                (false, true) => 1,
                (false, false) => 2,
            }
        };
        let mut first = None;
        loop {
            let mut next = won.clone();
            let mut keep = |next: &mut Vec<bool>, (z, s): (Vec<bool>, Strategy)| {
                for v in 0..n {
                    if z[v] && !next[v] {
                        strategy[v] = s[v];
                    }
                }
                *next = z;
            };
            let game = self.solve_game(&next, check_only, &check);
            first.get_or_insert_with(|| game.0.clone());
            keep(&mut next, game);
            if !check_only {
                for &kind in &self.single {
                    let bit = 1u8 << kind.index();
                    let chase = |e: &Edge, wins: bool| -> u8 {
                        match (e.check(), wins) {
                            (true, _) => 2,
                            (false, true) => u8::from(e.chased() == 0),
                            (false, false) if e.chased() & bit != 0 => 0,
                            (false, false) => 2,
                        }
                    };
                    let game = self.solve_game(&next, check_only, &chase);
                    keep(&mut next, game);
                }
            }
            if next == won {
                return (won, strategy, first.expect("a first game"));
            }
            won = next;
        }
    }

    /// The nodes from which the winner forces the play into `target` or into endless play
    /// whose highest priority seen forever is 1, with its strategy ([`nested_fixpoint`]).
    fn solve_game(
        &self,
        target: &[bool],
        check_only: bool,
        priority: &dyn Fn(&Edge, bool) -> u8,
    ) -> (Vec<bool>, Strategy) {
        // Each move's priority, once for all the attractors of the game.
        let prio: Vec<u8> = (0..self.positions())
            .flat_map(|v| {
                let wins = self.winner_moves[v];
                self.edges[self.first[v]..self.first[v + 1]]
                    .iter()
                    .map(move |e| priority(e, wins))
            })
            .collect();
        nested_fixpoint(self.positions(), |z1, z2| {
            self.attractor(target, check_only, &prio, z1, z2)
        })
    }

    /// μZ₀. CPre(Z₀, Z₁, Z₂): a move of priority `i` must lead into Zᵢ (or into `target`,
    /// or out of the region into a win the game counts). Moves of priority 1 and 2 are
    /// settled from the start; those of priority 0 become good as their node enters.
    fn attractor(
        &self,
        target: &[bool],
        check_only: bool,
        prio: &[u8],
        z1: &[bool],
        z2: &[bool],
    ) -> (Vec<bool>, Strategy) {
        let n = self.positions();
        // `Some(good)` for move `e` settled for this attractor, `None` for a move of
        // priority 0 into the region, good once its node enters.
        let settled = |e: usize| -> Option<bool> {
            match self.edges[e].to() {
                To::Won { by_check } => Some(!check_only || by_check),
                To::Node(u) => {
                    let u = u as usize;
                    if target[u] {
                        return Some(true);
                    }
                    match prio[e] {
                        0 => None,
                        1 => Some(z1[u]),
                        _ => Some(z2[u]),
                    }
                }
            }
        };
        let mut z0 = vec![false; n];
        let mut choice = vec![None; n];
        let mut left = vec![0u32; n];
        let mut work = Vec::new();
        for v in 0..n {
            let wins = self.winner_moves[v];
            let moves = self.first[v]..self.first[v + 1];
            let entered = if target[v] {
                true
            } else if wins {
                choice[v] = moves.into_iter().find(|&e| settled(e) == Some(true));
                choice[v].is_some()
            } else if self.escape[v] {
                false
            } else {
                let bad = moves.filter(|&e| settled(e) != Some(true)).count();
                left[v] = bad as u32;
                bad == 0
            };
            if entered {
                z0[v] = true;
                work.push(v);
            }
        }
        while let Some(u) = work.pop() {
            for &e in &self.preds[self.pred_first[u]..self.pred_first[u + 1]] {
                let (e, v) = (e as usize, self.from[e as usize] as usize);
                let wins = self.winner_moves[v];
                if z0[v] || settled(e).is_some() {
                    continue;
                }
                if wins {
                    choice[v] = Some(e);
                } else if self.escape[v] {
                    continue;
                } else {
                    left[v] -= 1;
                    if left[v] > 0 {
                        continue;
                    }
                }
                z0[v] = true;
                work.push(v);
            }
        }
        (z0, choice)
    }

    /// Plays from `start` until xq's referee ends the game or a capture leaves it in a
    /// smaller table's win by the rules: the winner plays `strategy` inside the region
    /// and one of the tables' fastest mates outside it; the loser one of the tables' best
    /// defences if `defend`, else any legal move, picked by `random`. The end and the
    /// plies played.
    pub fn play_out(
        &self,
        tables: &[Table],
        strategy: &[Option<usize>],
        start: &Position,
        defend: bool,
        random: &mut impl FnMut(usize) -> usize,
    ) -> (End, usize) {
        play(start, 2000, |pos| {
            let inside = self.node_of(pos);
            if inside.is_none() {
                let value = value_of(tables, pos);
                if value.by_rule() {
                    let to_move = pos.side_to_move();
                    return Err(End::Smaller { value, to_move });
                }
            }
            Ok(if pos.side_to_move() == self.winner {
                match inside {
                    Some(v) => self.edges[strategy[v].expect("the winner's move")].m,
                    None => best_moves(tables, pos)[0],
                }
            } else {
                defence(tables, pos, defend, random)
            })
        })
    }
}

/// Plays from `start` under xq's referee (`Game::outcome`), each move `next`'s for the
/// position, until the referee ends the game or `next` does (`Err`). The end and the
/// plies played; panics if neither has ended it after `limit` plies.
pub fn play(
    start: &Position,
    limit: usize,
    mut next: impl FnMut(&Position) -> Result<Move, End>,
) -> (End, usize) {
    let mut g = xq_movegen::Game::new(start.clone());
    let mut plies = 0;
    loop {
        if let Some(outcome) = g.outcome() {
            return (End::Referee(outcome), plies);
        }
        assert!(plies < limit, "{start}: no end after {limit} plies");
        match next(g.position()) {
            Ok(m) => g.play(m).unwrap(),
            Err(end) => return (end, plies),
        }
        plies += 1;
    }
}

/// The loser's move in `pos`: one of the tables' best defences if `defend`, else any
/// legal move, picked by `random`.
pub fn defence(
    tables: &[Table],
    pos: &Position,
    defend: bool,
    random: &mut impl FnMut(usize) -> usize,
) -> Move {
    let moves = if defend {
        best_moves(tables, pos)
    } else {
        xq_movegen::legal_moves(pos).into_iter().collect()
    };
    moves[random(moves.len())]
}

/// How a game played out by [`Region::play_out`] ended.
#[derive(Debug)]
pub enum End {
    /// The referee ended it.
    Referee(Outcome),
    /// A capture led into a smaller table's result by the rules (that table is checked
    /// on its own).
    Smaller {
        /// Its value for the side to move.
        value: TableValue,
        /// The side to move.
        to_move: Color,
    },
}
