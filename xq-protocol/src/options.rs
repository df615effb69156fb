//! The engine's options as data: for each protocol one table whose rows give an option's
//! name, its type with its default and range, and what setting it does ([`Setting`]).
//! The handshake announces a table, `setoption` parses a value against its row
//! ([`EngineOption::parse`]) and [`Settings::apply`] hands it to the engine's setter, so
//! that the binary, the web worker and a program embedding the engine take the same
//! options in the same way. What an option does is the engine's
//! ([`SearchEngine`]'s setters).
//!
//! ```
//! use xq_protocol::options::{uci_options, find, Value};
//! use xq_search::engine::Caps;
//! let table = uci_options(&Caps::default(), 64);
//! let hash = find(&table, "hash").unwrap();
//! assert_eq!(hash.name, "Hash");
//! assert_eq!(hash.parse(Some("32")), Ok(Value::Spin(32)));
//! assert_eq!(
//!     hash.parse(Some("0")).unwrap_err().to_string(),
//!     format!("Hash must be between 1 and {}, not 0", xq_search::engine::MAX_HASH_MIB)
//! );
//! ```

use crate::error::CommandError;
use crate::parse::{parse_check, parse_spin};
use std::time::Duration;
use xq_search::engine::{
    Caps, SearchEngine, BUILT_IN_NETWORK, DEFAULT_BOOK_DEPTH, DEFAULT_ELO, DEFAULT_HASH_MIB,
    DEFAULT_OVERHEAD, MAX_BOOK_DEPTH, MAX_MULTIPV, MAX_OVERHEAD,
};
use xq_search::skill::{Skill, MAX_ELO, MAX_LEVEL, MIN_ELO};

/// An option's type, as the protocols name them, with its default and range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number within `min..=max`.
    Spin {
        /// The value before any `setoption`.
        default: u64,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// On or off.
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// One of a fixed list of words.
    Combo {
        /// The value before any `setoption`.
        default: &'static str,
        /// The words allowed.
        vars: &'static [&'static str],
    },
    /// Any text (a file name); an empty default is written `<empty>`, as UCI does.
    Text {
        /// The value before any `setoption`.
        default: &'static str,
    },
}

/// What setting an option does: the same setting may have another name (and range) in
/// another protocol (UCI's `Hash` is UCCI's `hashsize`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The table's size, MiB (0: the default).
    Hash,
    /// Search threads (0: one).
    Threads,
    /// Lines reported.
    MultiPv,
    /// Announced only: pondering is driven by `go ponder`.
    Ponder,
    /// Clears the table and the histories.
    ClearHash,
    /// Time kept back from every move, milliseconds.
    MoveOverhead,
    /// The playing level.
    SkillLevel,
    /// Play at the level of the Elo asked for.
    LimitStrength,
    /// The Elo to play at.
    Elo,
    /// Evaluate with a network (else the classical evaluation).
    UseNnue,
    /// The network file (or the built-in network).
    EvalFile,
    /// The variant: only Xiangqi.
    Variant,
    /// Info lines carry the chances of a win, a draw and a loss.
    ShowWdl,
    /// Play from the opening book.
    OwnBook,
    /// The opening book's file.
    BookFile,
    /// UCCI's list of book files, separated by `;`: the first that is a book is used, and
    /// the book is used as soon as it is given (unless [`Setting::UseBook`] is off).
    BookFiles,
    /// The book is asked in the game's first this many plies.
    BookDepth,
    /// Play the book's heaviest move.
    BestBookMove,
    /// UCCI's times in milliseconds instead of seconds.
    UseMillisec,
    /// UCCI's switch for the book.
    UseBook,
    /// The directory of endgame tables (`xq tb gen`); empty: none.
    TablebasePath,
    /// A search parameter of a tuning build, by name ([`xq_search::SearchParams`]).
    Param(&'static str),
}

/// One option: its name, its type and what it does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name the protocol gives it.
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: Kind,
    /// What setting it does.
    pub setting: Setting,
}

/// A value an option was given, parsed against its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin option's number.
    Spin(u64),
    /// A check option's state.
    Check(bool),
    /// A text or combo option's text.
    Text(String),
    /// A button was pressed.
    Button,
}

/// The value of the network file option that means the built-in network.
pub const BUILT_IN_NET: &str = BUILT_IN_NETWORK;

impl EngineOption {
    /// Parses `value` as this option takes it: a number within its range, `true` or
    /// `false` (also `on`/`off`, `1`/`0`, any case), one of its words, or any text
    /// (`None` and `<empty>` are the empty text).
    ///
    /// # Errors
    /// The [`CommandError`] that says what is wrong with the value.
    ///
    /// ```
    /// use xq_protocol::options::{find, uci_options, Value};
    /// use xq_search::engine::Caps;
    /// let table = uci_options(&Caps::default(), 64);
    /// let wdl = find(&table, "UCI_ShowWDL").unwrap();
    /// assert_eq!(wdl.parse(Some("on")), Ok(Value::Check(true)));
    /// let variant = find(&table, "UCI_Variant").unwrap();
    /// assert_eq!(variant.parse(Some("shogi")).unwrap_err().to_string(), "unsupported variant 'shogi'");
    /// ```
    pub fn parse(&self, value: Option<&str>) -> Result<Value, CommandError> {
        match self.kind {
            Kind::Spin { min, max, .. } => parse_spin(self.name, value, min, max).map(Value::Spin),
            Kind::Check { .. } => parse_check(self.name, value).map(Value::Check),
            Kind::Button => Ok(Value::Button),
            Kind::Combo { vars, .. } => {
                let v = value.ok_or_else(|| CommandError::MissingValue(self.name.to_string()))?;
                match vars.iter().find(|w| w.eq_ignore_ascii_case(v)) {
                    Some(w) => Ok(Value::Text(w.to_string())),
                    None if self.setting == Setting::Variant => {
                        Err(CommandError::UnsupportedVariant(v.to_string()))
                    }
                    None => Err(CommandError::BadValue {
                        name: self.name.to_string(),
                        value: v.to_string(),
                    }),
                }
            }
            Kind::Text { .. } => {
                let v = value.map(str::trim).unwrap_or_default();
                Ok(Value::Text(if v == "<empty>" { "" } else { v }.to_string()))
            }
        }
    }
}

/// The option of `table` named `name`, in any case.
pub fn find<'a>(table: &'a [EngineOption], name: &str) -> Option<&'a EngineOption> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

fn spin(name: &'static str, setting: Setting, default: u64, min: u64, max: u64) -> EngineOption {
    EngineOption {
        name,
        kind: Kind::Spin { default, min, max },
        setting,
    }
}

fn check(name: &'static str, setting: Setting, default: bool) -> EngineOption {
    EngineOption {
        name,
        kind: Kind::Check { default },
        setting,
    }
}

fn text(name: &'static str, setting: Setting, default: &'static str) -> EngineOption {
    EngineOption {
        name,
        kind: Kind::Text { default },
        setting,
    }
}

fn button(name: &'static str, setting: Setting) -> EngineOption {
    EngineOption {
        name,
        kind: Kind::Button,
        setting,
    }
}

/// UCI's options, for an engine within `caps` (its largest table and most threads)
/// whose table has `hash_mib` MiB to begin with.
pub fn uci_options(caps: &Caps, hash_mib: usize) -> Vec<EngineOption> {
    let overhead = DEFAULT_OVERHEAD.as_millis() as u64;
    let mut table = vec![
        spin(
            "Hash",
            Setting::Hash,
            hash_mib as u64,
            1,
            caps.max_hash_mib as u64,
        ),
        spin("Threads", Setting::Threads, 1, 1, caps.max_threads as u64),
        spin("MultiPV", Setting::MultiPv, 1, 1, MAX_MULTIPV as u64),
        check("Ponder", Setting::Ponder, false),
        button("Clear Hash", Setting::ClearHash),
        spin(
            "Move Overhead",
            Setting::MoveOverhead,
            overhead,
            0,
            MAX_OVERHEAD.as_millis() as u64,
        ),
        spin(
            "Skill Level",
            Setting::SkillLevel,
            u64::from(MAX_LEVEL),
            0,
            u64::from(MAX_LEVEL),
        ),
        check("UCI_LimitStrength", Setting::LimitStrength, false),
        spin(
            "UCI_Elo",
            Setting::Elo,
            u64::from(DEFAULT_ELO),
            u64::from(MIN_ELO),
            u64::from(MAX_ELO),
        ),
        check("Use NNUE", Setting::UseNnue, true),
        text("EvalFile", Setting::EvalFile, BUILT_IN_NET),
        // The one variant: multi-variant GUIs and match tools read it to know the game.
        EngineOption {
            name: "UCI_Variant",
            kind: Kind::Combo {
                default: "xiangqi",
                vars: &["xiangqi"],
            },
            setting: Setting::Variant,
        },
        check("UCI_ShowWDL", Setting::ShowWdl, false),
        check("OwnBook", Setting::OwnBook, false),
        text("BookFile", Setting::BookFile, ""),
        spin(
            "BookDepth",
            Setting::BookDepth,
            u64::from(DEFAULT_BOOK_DEPTH),
            0,
            u64::from(MAX_BOOK_DEPTH),
        ),
        check("Best Book Move", Setting::BestBookMove, false),
        text("TablebasePath", Setting::TablebasePath, ""),
    ];
    table.extend(params());
    table
}

/// UCCI's options, for an engine within `caps` whose table has `hash_mib` MiB to begin
/// with. A size or count of 0 means the default.
pub fn ucci_options(caps: &Caps, hash_mib: usize) -> Vec<EngineOption> {
    let mut table = vec![
        check("usemillisec", Setting::UseMillisec, false),
        spin(
            "hashsize",
            Setting::Hash,
            hash_mib as u64,
            0,
            caps.max_hash_mib as u64,
        ),
        spin("threads", Setting::Threads, 1, 0, caps.max_threads as u64),
        check("ponder", Setting::Ponder, false),
        button("newgame", Setting::ClearHash),
        button("clearhash", Setting::ClearHash),
        spin(
            "skill",
            Setting::SkillLevel,
            u64::from(MAX_LEVEL),
            0,
            u64::from(MAX_LEVEL),
        ),
        spin(
            "moveoverhead",
            Setting::MoveOverhead,
            DEFAULT_OVERHEAD.as_millis() as u64,
            0,
            MAX_OVERHEAD.as_millis() as u64,
        ),
        check("usennue", Setting::UseNnue, true),
        text("evalfile", Setting::EvalFile, BUILT_IN_NET),
        check("usebook", Setting::UseBook, true),
        text("bookfiles", Setting::BookFiles, ""),
        text("tablebasepath", Setting::TablebasePath, ""),
    ];
    table.extend(params());
    table
}

/// A tuning build's options: every search parameter by name (a divisor's least value
/// is 1, since the search divides by it; no parameter is meant to be negative).
fn params() -> Vec<EngineOption> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    let defaults = xq_search::SearchParams::default();
    xq_search::SearchParams::NAMES
        .iter()
        .map(|&name| {
            let default = defaults.get(name).unwrap_or(0).max(0) as u64;
            let min = u64::from(name.ends_with("_divisor"));
            spin(name, Setting::Param(name), default, min, i32::MAX as u64)
        })
        .collect()
}

/// What the options set beyond the engine's own settings (the protocol's switches), and
/// the one place an option's value reaches the engine: [`Settings::apply`] calls the
/// engine's setter for it ([`SearchEngine::set_hash`], [`SearchEngine::load_network`],
/// ...). The engine reads the files an option names; this crate reads none.
#[derive(Debug)]
pub struct Settings {
    /// `UCI_ShowWDL`: info lines carry `wdl W D L`.
    pub show_wdl: bool,
    /// UCCI's `usemillisec`: times in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// UCCI's `usebook` (on by default, as ElephantEye's).
    use_book: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            show_wdl: false,
            use_millisec: false,
            use_book: true,
        }
    }
}

impl Settings {
    /// The defaults.
    pub fn new() -> Settings {
        Settings::default()
    }

    /// Carries out `setting` with `value` (as [`EngineOption::parse`] gave it) on
    /// `engine`. Returns a line to tell the GUI, if any (a network or tables loaded).
    ///
    /// # Errors
    /// What the engine's setter refused ([`CommandError::Engine`]: a file that cannot be
    /// read or is not a network, a book or a directory of tables, or a table the system
    /// refuses; each says what the engine does instead).
    ///
    /// ```
    /// use xq_protocol::options::{Settings, Setting, Value};
    /// use xq_search::engine::{Caps, Options, SearchEngine, Stepper};
    /// let mut engine = Stepper::new(Options { hash_mib: 1, ..Options::default() }, Caps::default());
    /// let mut settings = Settings::new();
    /// settings.apply(&mut engine, Setting::MultiPv, Value::Spin(3)).unwrap();
    /// assert_eq!(engine.options().multipv, 3);
    /// let e = settings.apply(&mut engine, Setting::EvalFile, Value::Text("no/such.nnue".into()));
    /// assert!(e.unwrap_err().to_string().starts_with("cannot load the network no/such.nnue: "));
    /// ```
    pub fn apply<E: SearchEngine + ?Sized>(
        &mut self,
        engine: &mut E,
        setting: Setting,
        value: Value,
    ) -> Result<Option<String>, CommandError> {
        let spin = match value {
            Value::Spin(n) => n,
            _ => 0,
        };
        let on = value == Value::Check(true);
        let text = match &value {
            Value::Text(t) => t.as_str(),
            _ => "",
        };
        match setting {
            Setting::Hash => engine.set_hash(if spin == 0 {
                DEFAULT_HASH_MIB
            } else {
                spin as usize
            })?,
            Setting::Threads => engine.set_threads(spin as usize),
            Setting::MultiPv => engine.set_multipv(spin as usize),
            Setting::Ponder | Setting::Variant => {}
            Setting::ClearHash => engine.new_game(),
            Setting::MoveOverhead => engine.set_move_overhead(Duration::from_millis(spin)),
            Setting::SkillLevel => {
                engine.set_skill(Skill::new(spin.min(u64::from(MAX_LEVEL)) as u8))
            }
            Setting::LimitStrength => engine.set_limit_strength(on),
            Setting::Elo => engine.set_elo(spin as u32),
            Setting::UseNnue => engine.set_use_network(on),
            Setting::EvalFile => {
                return Ok(engine
                    .load_network(text)?
                    .map(|net| format!("network {text} loaded ({} hidden units)", net.hidden())))
            }
            Setting::ShowWdl => self.show_wdl = on,
            Setting::UseMillisec => self.use_millisec = on,
            Setting::OwnBook => engine.set_own_book(on),
            Setting::BookFile => engine.load_book(text)?,
            Setting::BookFiles => return self.load_book_files(engine, text).map(|()| None),
            Setting::UseBook => {
                self.use_book = on;
                let own = on && engine.core().book().is_some();
                engine.set_own_book(own);
            }
            Setting::TablebasePath => {
                let endings = engine.load_tablebases(text)?;
                return Ok(
                    (!text.is_empty()).then(|| format!("tablebases {text}: {endings} endings"))
                );
            }
            Setting::BookDepth => engine.set_book_depth(spin as u32),
            Setting::BestBookMove => engine.set_best_book_move(on),
            Setting::Param(name) => engine.set_param(name, spin.min(i32::MAX as u64) as i32)?,
        }
        Ok(None)
    }

    /// UCCI's `bookfiles`: the first of the `;`-separated files that is a book is set
    /// (each one that is not is reported), and played from unless `usebook` is off.
    fn load_book_files<E: SearchEngine + ?Sized>(
        &mut self,
        engine: &mut E,
        list: &str,
    ) -> Result<(), CommandError> {
        let mut problems = Vec::new();
        for path in list.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match engine.load_book(path) {
                Ok(()) => break,
                Err(e) => problems.push(CommandError::Engine(e)),
            }
        }
        let own = self.use_book && engine.core().book().is_some();
        engine.set_own_book(own);
        CommandError::from_problems(problems)
    }
}
