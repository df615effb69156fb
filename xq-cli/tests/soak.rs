//! Protocol soak test: thousands of random, well-formed and malformed commands sent to
//! the real `xq` binary through pipes (deterministic seed), with `stop`, `ponderhit` and
//! new searches at random moments. The engine must never crash or hang: `isready` is
//! answered within a deadline at every checkpoint, every search started is answered
//! exactly once, every answer to a waited search is a legal move, every output line is
//! a known reply, the resident memory stays within the configured hash plus a constant,
//! and `quit` ends the process with status 0. A watchdog kills the engine if the test
//! runs too long, so the test fails instead of hanging. With `XQ_SOAK_LOG=<file>` every
//! line sent is appended to the file, to replay a failure by hand.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xq_core::{Move, Position};
use xq_movegen::Game;

/// Every answer the test waits for must come within this.
const DEADLINE: Duration = Duration::from_secs(10);
/// The whole session, after which the watchdog kills the engine.
const WATCHDOG: Duration = Duration::from_secs(120);
/// Memory allowed beyond the largest hash size set, MiB.
const SLACK_MIB: u64 = 64;

/// The deterministic generator of the session's random commands.
struct Rng(xq_core::SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "3k5/R8/9/9/9/9/9/9/4R4/4K4 w",
    // Checkmated and stalemated sides to move: no legal move at all.
    "R3k4/1R7/9/9/9/9/9/9/9/3K5 b",
    "4k4/9/9/9/9/9/9/9/4R4/3K5 b",
];

const BAD_FENS: &[&str] = &[
    "",
    "xyz",
    "4k4/9/9 w",
    "4k4/9/9/9/9/9/9/9/9/4K4 w",
    "9/9/9/9/9/9/9/9/9/9 w",
    "4k4/9/9/9/9/9/9/9/9/3KX4 w",
    "4k4/9/9/9/9/9/9/9/9/3Kr4 b",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999 1",
];

const GARBAGE: &[&str] = &[
    "zz",
    "hello world",
    "position",
    "position moves",
    "position fen",
    "setoption",
    "setoption name",
    "setoption name value",
    "go go go",
    "ponderhit draw",
    "register later",
    "debug on",
    "d",
    "probe",
    "probe fen xyz",
    "banmoves",
    "banmoves zz h2e2 a0a0",
    "uci",
    "ucci",
    "ucinewgame",
    "stop stop",
];

/// The engine process, its input, and a channel of its output lines.
struct Engine {
    child: Arc<Mutex<Child>>,
    pid: u32,
    stdin: ChildStdin,
    rx: Receiver<String>,
    done: Arc<AtomicBool>,
    /// Searches started whose answer has not been seen.
    outstanding: i64,
    answers: u64,
    lines: u64,
    /// Largest resident set seen, KiB.
    peak_rss_kib: u64,
    /// The last commands sent (shortened), for failure messages.
    recent: std::collections::VecDeque<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xq");
        let pid = child.id();
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match out.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8(buf.clone()).expect("engine output is UTF-8");
                        let line = line.trim_end_matches('\n').to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let child = Arc::new(Mutex::new(child));
        let done = Arc::new(AtomicBool::new(false));
        {
            let (child, done) = (child.clone(), done.clone());
            std::thread::spawn(move || {
                let start = Instant::now();
                while start.elapsed() < WATCHDOG {
                    if done.load(Ordering::SeqCst) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                eprintln!("watchdog: killing the engine after {WATCHDOG:?}");
                let _ = child.lock().unwrap().kill();
            });
        }
        Engine {
            child,
            pid,
            stdin,
            rx,
            done,
            outstanding: 0,
            answers: 0,
            lines: 0,
            peak_rss_kib: 0,
            recent: Default::default(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        if self.recent.len() == 40 {
            self.recent.pop_front();
        }
        if let Ok(path) = std::env::var("XQ_SOAK_LOG") {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .unwrap();
            f.write_all(bytes).unwrap();
            f.write_all(b"\n").unwrap();
        }
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
        self.recent.push_back(shown);
        self.stdin
            .write_all(bytes)
            .and_then(|_| self.stdin.write_all(b"\n"))
            .and_then(|_| self.stdin.flush())
            .unwrap_or_else(|e| {
                panic!(
                    "engine gone (crashed or killed by the watchdog): {e}; status {:?}",
                    self.child.lock().unwrap().try_wait()
                )
            });
    }

    fn send(&mut self, line: &str) {
        if line.split_whitespace().next() == Some("go") {
            self.outstanding += 1;
        }
        self.send_bytes(line.as_bytes());
    }

    /// Checks and counts one output line.
    fn saw(&mut self, line: &str) {
        self.lines += 1;
        let first = line.split(' ').next().unwrap_or("");
        assert!(
            matches!(
                first,
                "id" | "option"
                    | "uciok"
                    | "ucciok"
                    | "readyok"
                    | "info"
                    | "bestmove"
                    | "nobestmove"
                    | "pophash"
                    | "bye"
            ),
            "unexpected output line {line:?}"
        );
        assert!(!line.chars().any(char::is_control), "{line:?}");
        if first == "bestmove" || first == "nobestmove" {
            self.answers += 1;
            self.outstanding -= 1;
            assert!(self.outstanding >= 0, "an answer to no search: {line:?}");
        }
    }

    /// Reads output until a line satisfying `stop` (returned), within [`DEADLINE`].
    fn until(&mut self, what: &str, stop: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.saw(&line);
                    if stop(&line) {
                        return line;
                    }
                }
                Err(e) => panic!("no {what} within {DEADLINE:?} ({e})"),
            }
        }
    }

    /// Takes whatever output is already there.
    fn drain(&mut self) {
        while let Ok(line) = self.rx.try_recv() {
            self.saw(&line);
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", |l| l == "readyok");
    }

    fn rss_kib(&mut self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .expect("engine process alive");
        let kib = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS");
        self.peak_rss_kib = self.peak_rss_kib.max(kib);
        kib
    }

    /// `quit`: the process must end with status 0.
    fn quit(mut self, ucci: bool) {
        self.send("quit");
        if ucci {
            self.until("bye", |l| l == "bye");
        }
        let deadline = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(s) = self.child.lock().unwrap().try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "xq did not exit after quit");
            std::thread::sleep(Duration::from_millis(10));
        };
        self.done.store(true, Ordering::SeqCst);
        assert!(status.success(), "exit status {status:?}");
    }
}

/// A random legal game from `fen`, as the words after `moves`, and the game itself.
fn random_line(rng: &mut Rng, fen: &str) -> (Vec<String>, Game) {
    let mut game = Game::from_fen_moves::<&str>(fen, &[]).unwrap();
    let mut words = Vec::new();
    for _ in 0..rng.below(12) {
        let list = xq_movegen::legal_moves(game.position());
        if list.is_empty() {
            break;
        }
        let m = list[rng.below(list.len() as u64) as usize];
        game.play(m).unwrap();
        words.push(m.to_string());
    }
    (words, game)
}

fn random_move_text(rng: &mut Rng) -> String {
    let f = |r: &mut Rng| (b'a' + r.below(10) as u8) as char;
    let k = |r: &mut Rng| (b'0' + r.below(11) as u8) as char;
    format!("{}{}{}{}", f(rng), k(rng), f(rng), k(rng))
}

/// One soak session; returns (commands sent, searches answered, peak RSS MiB).
fn soak(seed: u64, ucci: bool, commands: usize) -> (usize, u64, u64) {
    let mut rng = Rng(xq_core::SplitMix64::new(seed));
    let mut e = Engine::start();
    let proto = if ucci { "ucci" } else { "uci" };
    e.send(proto);
    e.until("the handshake", |l| l == format!("{proto}ok"));
    let mut hash_mib: u64 = 64;
    let mut max_hash_mib = hash_mib;
    let mut game = Game::startpos();
    let mut banned = false;
    let mut waited = 0;
    for i in 0..commands {
        let roll = rng.below(100);
        match roll {
            // A position: legal line, illegal moves, or a bad FEN.
            0..=17 => {
                let fen = *rng.pick(FENS);
                let (mut words, g) = random_line(&mut rng, fen);
                let legal = !rng.chance(25);
                if !legal {
                    let at = rng.below(words.len() as u64 + 1) as usize;
                    words.insert(at, random_move_text(&mut rng));
                }
                let bad_setup = rng.chance(15);
                let setup = if bad_setup {
                    format!("fen {}", rng.pick(BAD_FENS))
                } else if fen == FENS[0] && rng.chance(50) {
                    "startpos".to_string()
                } else {
                    format!("fen {fen}")
                };
                let line = if words.is_empty() && rng.chance(50) {
                    format!("position {setup}")
                } else {
                    format!("position {setup} moves {}", words.join(" "))
                };
                // The engine keeps its position when the command is bad.
                let text: Vec<&str> = line.split_whitespace().skip(1).collect();
                let parsed = text
                    .iter()
                    .position(|w| *w == "moves")
                    .map_or((&text[..], &[][..]), |k| (&text[..k], &text[k + 1..]));
                let fen_text = match parsed.0 {
                    ["startpos"] => Some(xq_core::START_FEN.to_string()),
                    ["fen", rest @ ..] if !rest.is_empty() => Some(rest.join(" ")),
                    _ => None,
                };
                if let Some(Ok(g2)) = fen_text.map(|f| Game::from_fen_moves(&f, parsed.1)) {
                    if legal {
                        assert!(!bad_setup, "{line} was accepted");
                        assert_eq!(g2.position(), g.position());
                    }
                    game = g2;
                    banned = false;
                }
                e.send(&line);
            }
            // A search, bounded or not.
            18..=37 => {
                let go = match rng.below(if ucci { 8 } else { 10 }) {
                    0 => format!("go depth {}", 1 + rng.below(3)),
                    1 => format!("go nodes {}", 1 + rng.below(5000)),
                    2 if ucci => format!("go time {}", rng.below(3)),
                    2 => format!("go movetime {}", rng.below(40)),
                    3 => "go infinite".to_string(),
                    4 if ucci => "go depth infinite".to_string(),
                    4 => "go ponder infinite".to_string(),
                    5 if ucci => format!("go ponder time {} increment 0", rng.below(2)),
                    5 => format!("go ponder wtime {0} btime {0}", rng.below(2000)),
                    6 if ucci => format!("go depth {}", rng.below(2)),
                    6 => format!("go wtime {0} btime {0} winc 5 binc 5", rng.below(500)),
                    7 if ucci => "go draw nodes 300".to_string(),
                    7 => "go searchmoves h2e2 zz b0c2 nodes 200".to_string(),
                    8 => "go depth x nodes -1 mate".to_string(),
                    _ => "go".to_string(),
                };
                e.send(&go);
            }
            38..=45 => e.send("stop"),
            46..=49 => e.send(if ucci && rng.chance(50) {
                "ponderhit draw"
            } else {
                "ponderhit"
            }),
            // Options, good and bad values.
            50..=57 => {
                let (name, good) = match rng.below(4) {
                    0 => ("hash", true),
                    1 => ("threads", true),
                    2 => ("multipv", !ucci),
                    _ => ("bad", false),
                };
                let value = match rng.below(6) {
                    0 => "0".to_string(),
                    1 => "-1".to_string(),
                    2 => "99999999999".to_string(),
                    3 => "x".to_string(),
                    _ => (1 + rng.below(if name == "hash" { 32 } else { 2 })).to_string(),
                };
                let v: Option<u64> = value.parse().ok();
                if name == "hash" && good {
                    if let Some(n) = v.filter(|&n| (1..=33_554_432).contains(&n)) {
                        hash_mib = n;
                    }
                    if ucci && v == Some(0) {
                        hash_mib = 64;
                    }
                    max_hash_mib = max_hash_mib.max(hash_mib);
                }
                let line = match (ucci, name) {
                    (true, "hash") => format!("setoption hashsize {value}"),
                    (true, n) => format!("setoption {n} {value}"),
                    (false, "hash") => format!("setoption name Hash value {value}"),
                    (false, "threads") => format!("setoption name Threads value {value}"),
                    (false, "multipv") => format!("setoption name MultiPV value {value}"),
                    (false, _) => format!("setoption name Nonsense value {value}"),
                };
                e.send(&line);
            }
            58..=59 => e.send(if ucci {
                "setoption newgame"
            } else {
                "ucinewgame"
            }),
            60..=63 => {
                if ucci {
                    let mut words = vec![];
                    for _ in 0..rng.below(4) {
                        let list = xq_movegen::legal_moves(game.position());
                        if !list.is_empty() && rng.chance(70) {
                            words.push(list[rng.below(list.len() as u64) as usize].to_string());
                        } else {
                            words.push(random_move_text(&mut rng));
                        }
                    }
                    banned = banned || !words.is_empty();
                    e.send(&format!("banmoves {}", words.join(" ")));
                } else {
                    e.send("d");
                }
            }
            64..=65 => e.send(if ucci { "probe" } else { "debug off" }),
            66..=73 => {
                let line = *rng.pick(GARBAGE);
                banned = banned || line.starts_with("banmoves");
                e.send(line);
            }
            74..=76 => e.send(""),
            77..=78 => {
                let n = 20 + rng.below(100_000) as usize;
                let mut line = "x".repeat(n);
                if rng.chance(50) {
                    line = format!("position startpos moves {}", "h2e2 h7e7 ".repeat(n / 10));
                }
                e.send_bytes(line.as_bytes());
            }
            79..=81 => {
                let mut bytes: Vec<u8> = (0..1 + rng.below(40)).map(|_| rng.next() as u8).collect();
                bytes.retain(|&b| b != b'\n');
                // Never a line that starts a search or quits.
                bytes.insert(0, 0xff);
                e.send_bytes(&bytes);
            }
            // A checkpoint: every search answered, then a waited search with a legal answer.
            82..=85 => {
                e.send("stop");
                e.ready();
                assert_eq!(e.outstanding, 0, "a search was not answered exactly once");
                e.send(&format!("go depth {}", 1 + rng.below(2)));
                let answer = e.until("bestmove", |l| {
                    l.starts_with("bestmove") || l == "nobestmove"
                });
                waited += 1;
                let pos: &Position = game.position();
                match answer.split(' ').nth(1) {
                    Some("(none)") | None => assert!(
                        banned || xq_movegen::count_legal(pos) == 0,
                        "{answer:?} with legal moves in {}",
                        pos.to_fen()
                    ),
                    Some(m) => {
                        let m: Move = m.parse().expect("a move");
                        assert!(xq_movegen::is_legal(pos, m), "{answer} in {}", pos.to_fen());
                    }
                }
            }
            _ => e.ready(),
        }
        if i % 50 == 0 {
            e.drain();
            let rss = e.rss_kib();
            assert!(
                rss / 1024 <= max_hash_mib + SLACK_MIB,
                "resident {} MiB with hash {max_hash_mib} MiB after {:#?}",
                rss / 1024,
                e.recent
            );
        }
    }
    e.send("stop");
    e.ready();
    assert_eq!(e.outstanding, 0, "a search was not answered exactly once");
    assert!(waited > 20, "only {waited} waited searches");
    assert!(e.answers > 100, "only {} searches answered", e.answers);
    let rss = e.rss_kib();
    assert!(rss / 1024 <= max_hash_mib + SLACK_MIB);
    // A last search left running: quit must still end the process promptly.
    e.send("go infinite");
    let answers = e.answers;
    let peak = e.peak_rss_kib / 1024;
    e.quit(ucci);
    (commands, answers, peak)
}

#[test]
fn soak_uci() {
    let t = Instant::now();
    let (n, answers, peak) = soak(0x9e37_79b9_7f4a_7c15, false, 5000);
    eprintln!(
        "uci soak: {n} commands, {answers} answers, peak RSS {peak} MiB, {:?}",
        t.elapsed()
    );
}

#[test]
fn soak_ucci() {
    let t = Instant::now();
    let (n, answers, peak) = soak(0xd1b5_4a32_d192_ed03, true, 4000);
    eprintln!(
        "ucci soak: {n} commands, {answers} answers, peak RSS {peak} MiB, {:?}",
        t.elapsed()
    );
}
