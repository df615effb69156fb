//! The XBoard (CECP) protocol, driven as XBoard drives an engine: the library handler
//! with a buffer sink, and once through the binary's standard input and output.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xq_core::{Color, Move, Position};
use xq_movegen::Game;
use xq_protocol::{Auto, Flow, Protocol, Sink, XBoard};
use xq_search::engine::{Caps, Options};
use xq_search::Engine;

const T: Duration = Duration::from_secs(30);

/// The three feature lines answering `protover 2`.
fn features() -> Vec<String> {
    vec![
        format!(
            "feature myname=\"xq {}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 \
             analyze=1 memory=1 smp=1 egt=\"xiangqi\" colors=0 sigint=0 sigterm=0 draw=0 reuse=1",
            env!("CARGO_PKG_VERSION")
        ),
        "feature option=\"Skill Level -spin 20 0 20\"".to_string(),
        "feature done=1".to_string(),
    ]
}

/// A GUI's side of a session: what it sent, what came back, and its own board.
struct Gui {
    engine: Box<dyn Protocol>,
    out: Arc<Mutex<Vec<String>>>,
    /// How many lines of `out` have been looked at.
    read: usize,
    game: Game,
}

impl Gui {
    /// Small table, two threads at most, every search capped at 20,000 nodes.
    fn caps() -> Caps {
        Caps {
            max_hash_mib: 1,
            max_threads: 2,
            max_nodes: Some(20_000),
            ..Caps::default()
        }
    }

    fn new() -> Gui {
        let (sink, out) = Sink::buffer();
        Gui {
            engine: Box::new(XBoard::new(
                sink,
                Engine::with_caps(Options::default(), Gui::caps()),
            )),
            out,
            read: 0,
            game: Game::startpos(),
        }
    }

    /// A session after the handshake XBoard opens with.
    fn started() -> Gui {
        let mut g = Gui::new();
        g.send("xboard");
        g.send("protover 2");
        assert_eq!(g.take(), features());
        g
    }

    fn send(&mut self, line: &str) -> Flow {
        self.engine.handle(line)
    }

    /// The lines written since the last look.
    fn take(&mut self) -> Vec<String> {
        let out = self.out.lock().unwrap();
        let new = out[self.read..].to_vec();
        self.read = out.len();
        new
    }

    /// Lines up to and including the first that starts with `prefix` (the lines after
    /// it stay for the next look).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + T;
        let mut lines = Vec::new();
        loop {
            let next = self.out.lock().unwrap().get(self.read).cloned();
            match next {
                Some(l) => {
                    self.read += 1;
                    let done = l.starts_with(prefix);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                None => {
                    assert!(
                        Instant::now() < deadline,
                        "no '{prefix}' within {T:?}: {lines:#?}"
                    );
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
    }

    /// Sends `ping n` and returns everything up to its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut lines = self.until(&format!("pong {n}"));
        assert_eq!(lines.pop().unwrap(), format!("pong {n}"));
        lines
    }

    /// Plays the user's move on the GUI's board and sends it.
    fn user(&mut self, m: &str) {
        self.game.play(m.parse().unwrap()).unwrap();
        self.send(&format!("usermove {m}"));
    }

    /// Waits for the engine's move; checks it and its thinking lines; plays it on the
    /// GUI's board. Returns the thinking lines.
    fn engine_move(&mut self) -> (Move, Vec<String>) {
        let mut lines = self.until("move ");
        let last = lines.pop().unwrap();
        let m: Move = last["move ".len()..].parse().unwrap();
        assert!(
            xq_movegen::is_legal(self.game.position(), m),
            "{m} in {}",
            self.game.position()
        );
        for l in &lines {
            check_thinking(self.game.position(), l);
        }
        self.game.play(m).unwrap();
        (m, lines)
    }
}

/// A thinking line: `ply score time nodes pv`, four integers and a legal line.
fn check_thinking(pos: &Position, line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert!(w.len() >= 5, "{line}");
    for (i, x) in w[..4].iter().enumerate() {
        let ok = if i == 1 {
            x.parse::<i64>().is_ok()
        } else {
            x.parse::<u64>().is_ok()
        };
        assert!(ok, "field {i} of {line:?}");
    }
    let mut p = pos.clone();
    for m in &w[4..] {
        let m: Move = m.parse().unwrap_or_else(|_| panic!("{m} in {line:?}"));
        assert!(xq_movegen::is_legal(&p, m), "{m} in {line:?}");
        p.make_move(m);
    }
}

#[test]
fn the_handshake_announces_the_features() {
    let mut g = Gui::new();
    assert_eq!(g.send("xboard"), Flow::Continue);
    assert!(g.take().is_empty());
    g.send("protover 2");
    assert_eq!(g.take(), features());
    g.send("accepted usermove");
    g.send("accepted done");
    assert!(g.sync(1).is_empty());
}

#[test]
fn a_game_as_xboard_plays_it() {
    let mut g = Gui::started();
    for line in [
        "new",
        "variant xiangqi",
        "random",
        "level 40 5 0",
        "post",
        "hard",
        "easy",
        "memory 1",
        "cores 1",
    ] {
        g.send(line);
    }
    assert!(g.sync(1).is_empty(), "options are silent");
    // The engine plays Black: it answers each of Red's moves (a sound opening where
    // the engine's answers allow it).
    for (i, want) in ["h2e2", "h0g2", "i0h0", "b0c2", "a0b0", "g3g4"]
        .iter()
        .enumerate()
    {
        g.send("time 30000");
        g.send("otim 30000");
        let legal = xq_movegen::legal_moves(g.game.position());
        let red = legal
            .iter()
            .find(|m| m.to_string() == *want)
            .unwrap_or(&legal[0])
            .to_string();
        g.user(&red);
        let (_, thinking) = g.engine_move();
        assert!(!thinking.is_empty(), "post shows thinking");
        let rest = g.sync(10 + i as u32);
        assert!(rest.is_empty(), "{rest:?}");
    }
    // Thinking off: only the move.
    g.send("nopost");
    let red = xq_movegen::legal_moves(g.game.position())[0].to_string();
    g.user(&red);
    let (_, thinking) = g.engine_move();
    assert!(thinking.is_empty(), "{thinking:?}");
    // The GUI ends the game.
    g.send("result 1/2-1/2 {agreed}");
    g.send("force");
    assert!(g.sync(99).is_empty());
    assert_eq!(g.send("quit"), Flow::Quit);
}

#[test]
fn go_makes_the_engine_play_the_side_to_move() {
    let mut g = Gui::started();
    g.send("new");
    g.send("force");
    g.user("h2e2");
    g.user("h9g7");
    assert!(g.sync(1).is_empty(), "force mode: no move");
    g.send("go");
    let (m, _) = g.engine_move();
    // Red was to move, so the engine played Red...
    assert_eq!(
        Position::startpos().piece_on(m.from()).map(|p| p.color),
        Some(Color::Red)
    );
    // ...and keeps playing Red: it answers Black's move.
    let black = xq_movegen::legal_moves(g.game.position())[0].to_string();
    g.user(&black);
    g.engine_move();
}

#[test]
fn moves_are_checked_and_taken_back() {
    let mut g = Gui::started();
    g.send("new");
    g.send("force");
    g.send("usermove a0a5");
    g.send("usermove e3e4 e4e5");
    g.send("usermove zz");
    g.send("h2e2"); // a bare move, as without usermove=1
    g.send("usermove h9g7");
    assert_eq!(
        g.sync(1),
        [
            "Illegal move: a0a5",
            "Error (bad move): usermove e3e4 e4e5",
            "Illegal move: zz",
        ]
    );
    // h9g7 was played: playing it again is illegal; after `undo` it is legal again.
    g.send("usermove h9g7");
    g.send("undo");
    g.send("usermove h9g7");
    assert_eq!(g.sync(2), ["Illegal move: h9g7"]);
    // `remove` takes back two plies: h2e2 is Red's move again.
    g.send("remove");
    g.send("usermove h2e2");
    assert!(g.sync(3).is_empty());
    // Back to the start, then one ply too many.
    g.send("undo");
    g.send("undo");
    assert_eq!(g.sync(4), ["Error (command not legal now): undo"]);
    g.send("usermove h2e2");
    assert!(g.sync(5).is_empty());
}

#[test]
fn setboard_takes_xboards_fen_and_refuses_a_bad_one() {
    let mut g = Gui::started();
    g.send("new");
    g.send("force");
    // XBoard's Xiangqi letters (H, E) and chess's placeholder fields.
    g.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1");
    g.send("usermove h2e2");
    g.send("usermove h7e7");
    assert_eq!(g.sync(1), ["Illegal move: h2e2"], "Black is to move");
    // Two red generals: refused, and so is every move until a good position.
    g.send("setboard 4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1");
    let lines = g.sync(2);
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("tellusererror Illegal position: "),
        "{lines:?}"
    );
    g.send("usermove d0d1");
    g.send("go");
    assert_eq!(g.sync(3), ["Illegal move (illegal position): d0d1"]);
    g.send("new");
    g.send("force");
    g.send("usermove h2e2");
    assert!(g.sync(4).is_empty());
}

#[test]
fn the_engine_announces_its_mate_and_the_users() {
    const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    let mut g = Gui::started();
    g.send("new");
    g.send("force");
    g.send(&format!("setboard {MATE_IN_ONE}"));
    g.game = Game::from_fen_moves(MATE_IN_ONE, &[] as &[&str]).unwrap();
    g.send("go");
    let (m, _) = g.engine_move();
    assert_eq!(xq_movegen::count_legal(g.game.position()), 0, "{m} mates");
    assert_eq!(g.sync(1), ["1-0 {checkmate}"]);

    // The engine plays Black (`new`); Red, the user, mates it: the result, no thinking.
    g.send("new");
    g.send(&format!("setboard {MATE_IN_ONE}"));
    g.send("usermove e1d1");
    assert_eq!(g.sync(2), ["1-0 {checkmate}"]);
    // Nothing can be played after mate.
    g.send("usermove d9e9");
    assert_eq!(g.sync(3), ["Illegal move: d9e9"]);
}

#[test]
fn move_now_and_depth_limits() {
    let mut g = Gui::started();
    g.send("new");
    g.send("post");
    g.send("st 1000"); // a thousand seconds a move, but the GUI says "move now"
    g.user("h2e2");
    std::thread::sleep(Duration::from_millis(50));
    g.send("?");
    g.engine_move();

    g.send("sd 2");
    let moves = xq_movegen::legal_moves(g.game.position());
    let red = moves[3 % moves.len()].to_string();
    g.user(&red);
    let (_, thinking) = g.engine_move();
    assert!(!thinking.is_empty());
    for l in &thinking {
        let depth: u32 = l.split_whitespace().next().unwrap().parse().unwrap();
        assert!(depth <= 2, "{l}");
    }
}

#[test]
fn ping_while_thinking_answers_after_the_move() {
    let mut g = Gui::started();
    g.send("new");
    g.send("st 1");
    g.user("h2e2");
    g.send("ping 7");
    let lines = g.until("pong 7");
    let at_move = lines.iter().position(|l| l.starts_with("move "));
    assert_eq!(at_move, Some(lines.len() - 2), "{lines:?}");
}

#[test]
fn analyze_reports_and_follows_the_board_without_moving() {
    let mut g = Gui::started();
    g.send("new");
    g.send("post");
    g.send("analyze");
    let first = g.until("");
    check_thinking(&Position::startpos(), &first[0]);
    g.user("h2e2");
    // Wait for a report about the new position (its line starts with a Black move).
    let deadline = Instant::now() + T;
    'seen: loop {
        for l in g.take() {
            let w: Vec<&str> = l.split_whitespace().collect();
            if let Some(m) = w.get(4).and_then(|m| m.parse::<Move>().ok()) {
                if xq_movegen::is_legal(g.game.position(), m) {
                    check_thinking(g.game.position(), &l);
                    break 'seen;
                }
            }
        }
        assert!(Instant::now() < deadline, "no analysis after h2e2");
        std::thread::sleep(Duration::from_millis(2));
    }
    g.send("undo");
    g.send("exit");
    let lines = g.sync(1);
    assert!(
        !lines.iter().any(|l| l.starts_with("move")),
        "analysis never moves: {lines:?}"
    );
    // After exit the engine is in force mode: a move is taken silently.
    g.send("usermove h2e2");
    assert!(g.sync(2).is_empty());
}

#[test]
fn options_and_unknown_commands() {
    let mut g = Gui::started();
    g.send("option Skill Level=3");
    g.send("option Skill Level=21");
    g.send("option Contempt=10");
    g.send("variant shogi");
    g.send("variant xiangqi");
    g.send("level 40 x 0");
    g.send("level 40 0:30 0");
    g.send("level 0 2 1.5");
    g.send("st -1");
    g.send("black"); // obsolete, and not sent after colors=0
    g.send("frobnicate\r now");
    assert_eq!(
        g.sync(1),
        [
            "Error (bad option value): option Skill Level=21",
            "Error (unknown option): option Contempt=10",
            "Error (unsupported variant): variant shogi",
            "Error (bad parameters): level 40 x 0",
            "Error (bad time): st -1",
            "Error (unknown command): black",
            "Error (unknown command): frobnicate? now",
        ]
    );
    // At level 3 the engine still answers legal moves.
    g.send("new");
    g.user("h2e2");
    g.engine_move();
}

#[test]
fn plain_xq_recognises_xboard() {
    let (sink, out) = Sink::buffer();
    let mut auto = Auto::new(sink, Engine::with_caps(Options::default(), Gui::caps()));
    auto.handle("xboard");
    auto.handle("protover 2");
    auto.handle("ping 3");
    let mut want = features();
    want.push("pong 3".into());
    assert_eq!(*out.lock().unwrap(), want);
}

#[test]
fn the_binary_speaks_xboard() {
    for args in [&["xboard"][..], &[][..]] {
        let mut e = common::Engine::start(args);
        e.send("xboard");
        e.send("protover 2");
        let lines = e.until("feature done=1", common::T);
        assert_eq!(lines, features());
        e.send("new");
        e.send("st 1");
        e.send("usermove h2e2");
        let lines = e.until("move ", common::T);
        let m = lines.last().unwrap()["move ".len()..].to_string();
        let after = Game::from_fen_moves(xq_core::START_FEN, &["h2e2"]).unwrap();
        assert!(common::legal(after.position(), &m), "{m}");
        e.send("quit");
        assert!(e.child.wait().unwrap().success());
    }
}

#[test]
fn memory_the_machine_refuses_is_an_error_and_the_table_stays() {
    let (sink, out) = Sink::buffer();
    let caps = Caps {
        max_threads: 2,
        table_limit_mib: Some(100),
        ..Caps::default()
    };
    let mut engine = XBoard::new(sink, Engine::with_caps(Options::default(), caps));
    engine.handle("xboard");
    engine.handle("memory 65536");
    engine.handle("memory 32");
    assert_eq!(
        *out.lock().unwrap(),
        ["Error (cannot allocate a hash table of 65536 MiB; keeping 64 MiB): memory 65536"]
    );
}
