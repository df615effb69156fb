//! `xq convert`: reads a game file (PGN in UTF-8 or GBK, or XQF) and writes it as PGN in
//! the notation and encoding asked for, keeping tags, comments and variations.

use anyhow::{anyhow, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use xq_movegen::notation::Notation;
use xq_records::pgn::{self, Encoding, WriteOptions};
use xq_records::Record;

/// Move notations on the command line.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotationArg {
    /// 炮二平五 (simplified characters).
    Chinese,
    /// 炮二平五 with traditional characters (傌, 俥, 進...).
    ChineseTraditional,
    /// C2=5.
    Wxf,
    /// h2e2.
    Iccs,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Chinese => Notation::Chinese,
            NotationArg::ChineseTraditional => Notation::ChineseTraditional,
            NotationArg::Wxf => Notation::Wxf,
            NotationArg::Iccs => Notation::Iccs,
        }
    }
}

/// The encoding of the PGN written.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum OutputEncoding {
    /// UTF-8.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// GBK, for older Chinese software.
    Gbk,
}

/// The encoding of a PGN read.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum EncodingArg {
    /// Detect: UTF-8 if the bytes are valid UTF-8, GBK otherwise.
    Auto,
    /// UTF-8.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// GBK, as the Chinese sites publish.
    Gbk,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Auto => Encoding::Auto,
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::Gbk => Encoding::Gbk,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The game file: PGN (UTF-8 or GBK, one or more games) or XQF.
    pub input: PathBuf,
    /// Where to write the PGN (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The notation of the moves written.
    #[arg(long, value_enum, default_value = "chinese")]
    pub notation: NotationArg,
    /// The encoding of the PGN written.
    #[arg(long, value_enum, default_value = "utf-8")]
    pub encoding: OutputEncoding,
    /// The encoding of a PGN input (an XQF file is always GBK).
    #[arg(long, value_enum, default_value = "auto")]
    pub input_encoding: EncodingArg,
}

/// The games of the file at `path` (`xq_records::files::read_file`).
pub fn read_games(path: &Path, encoding: Encoding) -> Result<Vec<Record>> {
    Ok(xq_records::files::read_file(path, encoding)?)
}

pub fn run(args: &ConvertArgs) -> Result<i32> {
    let games = read_games(&args.input, args.input_encoding.into())?;
    let options = WriteOptions {
        notation: args.notation.into(),
    };
    let text = pgn::write_all(&games, &options)
        .map_err(|e| anyhow!("{}: cannot write {e}", args.input.display()))?;
    let encoding = match args.encoding {
        OutputEncoding::Gbk => Encoding::Gbk,
        OutputEncoding::Utf8 => Encoding::Utf8,
    };
    let bytes =
        pgn::encode(&text, encoding).map_err(|e| anyhow!("{}: {e}", args.input.display()))?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            if out.write_all(&bytes).and_then(|_| out.flush()).is_err() {
                // The reader has gone away (a closed pipe): nothing more to do.
                return Ok(0);
            }
        }
    }
    Ok(0)
}
