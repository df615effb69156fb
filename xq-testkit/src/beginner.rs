//! A beginner-like player, for measuring the lowest playing level against something a
//! person would recognise: it takes a piece when one is offered, and otherwise plays a
//! random legal move that does not leave a piece to be taken.
//!
//! What it sees is one ply deep, by a simple exchange count ([`capture_gain`]): a
//! capture wins the value of the piece taken, less the value of the capturing piece if
//! the opponent can take it back on that square. It
//!
//! 1. takes the capture that wins the most, if one wins anything (a free piece, or a
//!    bigger piece for a smaller one; choosing at random among equal gains);
//! 2. otherwise plays a random legal move after which the opponent has no capture that
//!    wins anything by the same count (it does not hang a piece);
//! 3. and when every move leaves something to take, a random one of those that leave
//!    the least.
//!
//! It does not look for mates, threats or anything two plies deep. [`BeginnerEngine`]
//! is the engine the protocols drive: the binary `xq-beginner` of this crate speaks UCI with it
//! (`cargo run --release -p xq-testkit --bin xq-beginner -- --seed 1`).
//!
//! ```
//! use xq_testkit::beginner::Beginner;
//! use xq_core::Position;
//! // Red's chariot can take Black's unprotected horse on a5.
//! let pos = Position::from_fen("3k5/9/9/9/n8/9/9/9/9/R3K4 w").unwrap();
//! let mut player = Beginner::new(7);
//! assert_eq!(player.choose(&pos).unwrap().to_string(), "a0a5");
//! ```

use xq_core::{Move, PieceKind, Position, SplitMix64};
use xq_movegen::legal_moves;
use xq_search::engine::{Caps, Core, Listener, Options, SearchEngine, TableError};
use xq_search::tt::TtEntry;
use xq_search::{Limits, SearchParams, SearchResult};

/// A piece's worth to the beginner, in tenths of a soldier: chariot 90, cannon 45,
/// horse 40, advisor and elephant 20, soldier 10, general 0 (it is never taken).
///
/// ```
/// use xq_testkit::beginner::value;
/// use xq_core::PieceKind;
/// assert_eq!(value(PieceKind::Chariot), 90);
/// assert_eq!(value(PieceKind::Soldier), 10);
/// ```
pub fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 0,
        PieceKind::Advisor | PieceKind::Elephant => 20,
        PieceKind::Horse => 40,
        PieceKind::Cannon => 45,
        PieceKind::Chariot => 90,
        PieceKind::Soldier => 10,
    }
}

/// What the legal move `m` wins by the one-ply count: the value of the piece it takes,
/// less the value of the moving piece if the opponent can then take it on its square;
/// `None` when `m` takes nothing.
///
/// ```
/// use xq_testkit::beginner::capture_gain;
/// use xq_core::Position;
/// // The chariot takes the soldier on a5, which the chariot on a9 guards: 10 - 90.
/// let pos = Position::from_fen("r2k5/9/9/9/p8/9/9/9/9/R3K4 w").unwrap();
/// assert_eq!(capture_gain(&pos, "a0a5".parse().unwrap()), Some(-80));
/// assert_eq!(capture_gain(&pos, "a0a1".parse().unwrap()), None);
/// ```
pub fn capture_gain(pos: &Position, m: Move) -> Option<i32> {
    let victim = pos.piece_on(m.to())?;
    let mover = pos.piece_on(m.from())?;
    let mut after = pos.clone();
    after.make_move(m);
    let retaken = legal_moves(&after).iter().any(|r| r.to() == m.to());
    let lost = if retaken { value(mover.kind) } else { 0 };
    Some(value(victim.kind) - lost)
}

/// The most the side to move can win with one capture by [`capture_gain`] (0 when no
/// capture wins anything): what a move that led to `pos` has left hanging.
///
/// ```
/// use xq_core::Position;
/// // Black to move: its chariot on a9 takes Red's unguarded chariot on a5.
/// let pos = Position::from_fen("r2k5/9/9/9/R8/9/9/9/9/4K4 b").unwrap();
/// assert_eq!(xq_testkit::beginner::hanging(&pos), 90);
/// ```
pub fn hanging(pos: &Position) -> i32 {
    legal_moves(pos)
        .iter()
        .filter_map(|&m| capture_gain(pos, m))
        .fold(0, i32::max)
}

/// The beginner: its choices come from a seeded generator, so the same seed plays the
/// same moves.
#[derive(Clone, Debug)]
pub struct Beginner {
    rng: SplitMix64,
}

impl Beginner {
    /// A beginner whose random choices follow `seed`.
    pub fn new(seed: u64) -> Beginner {
        Beginner {
            rng: SplitMix64::new(seed),
        }
    }

    /// One of `moves` at random.
    fn pick(&mut self, moves: &[Move]) -> Option<Move> {
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.below(moves.len() as u64) as usize])
    }

    /// The move the beginner plays in `pos` (see the [module docs](self)); `None` when
    /// there is no legal move.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        let moves = legal_moves(pos);
        let gains: Vec<(Move, i32)> = moves
            .iter()
            .filter_map(|&m| capture_gain(pos, m).map(|g| (m, g)))
            .collect();
        let best_gain = gains.iter().map(|&(_, g)| g).max().unwrap_or(0);
        if best_gain > 0 {
            let best: Vec<Move> = gains
                .iter()
                .filter(|&&(_, g)| g == best_gain)
                .map(|&(m, _)| m)
                .collect();
            return self.pick(&best);
        }
        let left: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| {
                let mut after = pos.clone();
                after.make_move(m);
                (m, hanging(&after))
            })
            .collect();
        let least = left.iter().map(|&(_, h)| h).min()?;
        let safest: Vec<Move> = left
            .iter()
            .filter(|&&(_, h)| h == least)
            .map(|&(m, _)| m)
            .collect();
        self.pick(&safest)
    }
}

/// The beginner as an engine the protocols can drive (`xq-beginner` speaks UCI with it):
/// whatever the limits, a `go` is answered at once with the beginner's move. The options
/// are taken and change nothing.
///
/// ```
/// use xq_testkit::beginner::BeginnerEngine;
/// use xq_search::engine::SearchEngine;
/// use xq_search::Limits;
/// use xq_movegen::Game;
/// let mut engine = BeginnerEngine::new(7);
/// engine.set_game(Game::from_fen_moves("3k5/9/9/9/n8/9/9/9/9/R3K4 w", &[] as &[&str]).unwrap());
/// engine.go(Limits::depth(1), Box::new(|_: &xq_search::Info| {}));
/// assert_eq!(engine.stop(), None); // it has answered already
/// ```
#[derive(Debug)]
pub struct BeginnerEngine {
    core: Core,
    player: Beginner,
}

impl BeginnerEngine {
    /// The engine, its choices seeded with `seed`.
    pub fn new(seed: u64) -> BeginnerEngine {
        BeginnerEngine {
            core: Core::new(Options::default(), Caps::default()),
            player: Beginner::new(seed),
        }
    }
}

impl SearchEngine for BeginnerEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn set_options(&mut self, options: Options) -> Result<(), TableError> {
        self.core.set_options(options);
        Ok(())
    }

    fn set_params(&mut self, params: SearchParams) {
        self.core.set_params(params);
    }

    fn new_game(&mut self) {}

    fn go(&mut self, _limits: Limits, listener: Box<dyn Listener>) {
        let game = self.core.game();
        let best_move = self.player.choose(game.position());
        let result = SearchResult {
            best_move,
            pv: best_move.into_iter().collect(),
            ..SearchResult::default()
        };
        listener.best_move(&result, game);
    }

    fn stop(&mut self) -> Option<SearchResult> {
        None
    }

    fn ponderhit(&mut self) -> bool {
        false
    }

    fn abandon(&mut self) {}

    fn wait(&mut self) -> Option<SearchResult> {
        None
    }

    fn is_searching(&mut self) -> bool {
        false
    }

    fn probe(&self, _key: u64) -> Option<TtEntry> {
        None
    }

    fn name(&self) -> Option<&'static str> {
        Some("xq beginner")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The moves `Beginner` plays in `fen` over `seeds` seeds.
    fn choices(fen: &str, seeds: u64) -> std::collections::BTreeSet<String> {
        let p = pos(fen);
        (0..seeds)
            .map(|s| Beginner::new(s).choose(&p).unwrap().to_string())
            .collect()
    }

    #[test]
    fn it_takes_a_free_piece_and_the_biggest_one() {
        // The horse on a5 is free for the chariot on a0; nothing else can be taken.
        assert_eq!(
            choices("3k5/9/9/9/n8/9/9/9/9/R3K4 w", 20),
            ["a0a5".to_string()].into()
        );
        // The chariot on a0 can take a free cannon (a7) or a free soldier (d0): the
        // cannon is worth more.
        assert_eq!(
            choices("4k4/9/c8/9/9/9/9/9/9/R2p1K3 w", 20),
            ["a0a7".to_string()].into()
        );
        // A chariot for a guarded soldier loses 80: not taken.
        let p = pos("r2k5/9/9/9/p8/9/9/9/9/R3K4 w");
        for seed in 0..20 {
            assert_ne!(Beginner::new(seed).choose(&p).unwrap().to_string(), "a0a5");
        }
    }

    #[test]
    fn it_does_not_hang_a_piece_when_it_can_help_it() {
        // Black's chariot on e5 attacks Red's horse on e3; the horse has safe squares.
        let fen = "5k3/9/9/9/4r4/9/4N4/9/9/3K5 w";
        let p = pos(fen);
        let played = choices(fen, 40);
        assert!(played.len() > 1, "a random choice: {played:?}");
        for m in &played {
            let mut after = p.clone();
            after.make_move(m.parse().unwrap());
            // Black can take nothing for free afterwards.
            for reply in legal_moves(&after) {
                assert!(
                    after.piece_on(reply.to()).is_none(),
                    "{m} lets Black take on {}",
                    reply.to()
                );
            }
        }
        // What it would have played without looking: the general's moves leave the
        // horse to be taken.
        let mut after = p.clone();
        after.make_move("d0d1".parse().unwrap());
        assert_eq!(hanging(&after), 40);
    }

    #[test]
    fn it_plays_something_when_every_move_loses_and_nothing_without_moves() {
        // Mated: no move.
        assert_eq!(
            Beginner::new(1).choose(&pos("R3k4/1R7/9/9/9/9/9/9/9/3K5 b")),
            None
        );
        // The same seed, the same move.
        let start = Position::startpos();
        assert_eq!(
            Beginner::new(5).choose(&start),
            Beginner::new(5).choose(&start)
        );
    }
}
