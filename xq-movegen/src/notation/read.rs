//! Reading moves in any notation (see the [module docs](super)): ICCS, WXF or Chinese,
//! recognised by itself, resolved against the legal moves of the position.

use super::{advance, file_of_number, Direction, Notation, NotationError};
use crate::{try_play, IllegalMoveError};
use xq_core::{Color, File, Move, PieceKind, Position, Rank, Square};

/// Reads the move `text` played in `pos` (see [`read_move`](super::read_move)).
pub(super) fn read(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if let Some(m) = parse_iccs(text) {
        return match play_check(pos, m) {
            Ok(()) => Ok(m),
            Err(error) => Err(NotationError::Illegal {
                text: text.to_string(),
                error,
            }),
        };
    }
    let description = parse_wxf(text)
        .or_else(|| parse_chinese(text))
        .ok_or_else(|| NotationError::Unknown {
            text: text.to_string(),
        })?;
    resolve(pos, text, &description)
}

/// The notation of `text` by its form (see [`notation_of`](super::notation_of)).
pub(super) fn notation_of(text: &str) -> Option<Notation> {
    let text = text.trim();
    if parse_iccs(text).is_some() {
        Some(Notation::Iccs)
    } else if parse_wxf(text).is_some() {
        Some(Notation::Wxf)
    } else if parse_chinese(text).is_some() {
        // The characters the traditional style writes where the simplified one differs.
        let traditional = |c| "帥將傌俥馬車砲進後".contains(c);
        Some(if text.chars().any(traditional) {
            Notation::ChineseTraditional
        } else {
            Notation::Chinese
        })
    } else {
        None
    }
}

// ---------------------------------------------------------------------- internals

/// `Ok` if `m` can be played in `pos`, else why not.
fn play_check(pos: &Position, m: Move) -> Result<(), IllegalMoveError> {
    let mut scratch = pos.clone();
    try_play(&mut scratch, m).map(|_| ())
}

/// `h2e2`, `H2-E2`.
fn parse_iccs(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    let (from, to) = match b.len() {
        4 => ((b[0], b[1]), (b[2], b[3])),
        5 if b[2] == b'-' => ((b[0], b[1]), (b[3], b[4])),
        _ => return None,
    };
    let square = |(f, r): (u8, u8)| {
        let file = File::from_char(char::from(f.to_ascii_lowercase()))?;
        let rank = Rank::from_char(char::from(r))?;
        Some(Square::new(file, rank))
    };
    Some(Move::new(square(from)?, square(to)?))
}

/// Which piece of a kind the text names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Which {
    /// The one on the file given.
    File,
    /// Front (前, `+`) of two or three on a file.
    Front,
    /// Middle (中) of three (or five).
    Middle,
    /// Rear (后) of two or more.
    Rear,
    /// The n-th from the front, 0 first (一兵, 二兵...).
    Nth(usize),
    /// WXF `+` after or before the letter: the front one of two or three, the second of
    /// four or five.
    WxfPlus,
    /// WXF `-`: the rear one of two or three, the second-last of four or five.
    WxfMinus,
}

/// A move as the descriptive notations say it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Description {
    kind: PieceKind,
    which: Which,
    /// The origin file as the mover counts (1..=9), if the text gives it.
    file: Option<usize>,
    direction: Direction,
    /// Ranks travelled or destination file, 1..=9.
    number: usize,
    /// Written in WXF (where a file digit may also name the middle soldier).
    wxf: bool,
}

fn wxf_kind(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'K' => PieceKind::General,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Chariot,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Soldier,
        _ => return None,
    })
}

fn digit(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '0' as usize),
        _ => None,
    }
}

fn wxf_direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '=' | '.' => Some(Direction::Sideways),
        _ => None,
    }
}

fn parse_wxf(text: &str) -> Option<Description> {
    let c: Vec<char> = text.chars().collect();
    let [c0, c1, c2, c3] = c[..] else {
        return None;
    };
    let direction = wxf_direction(c2)?;
    let number = digit(c3)?;
    let sign = |c: char| match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let (kind, which, file) = if let Some(kind) = wxf_kind(c0) {
        if let Some(n) = digit(c1) {
            (kind, Which::File, Some(n))
        } else {
            let plus = sign(c1)?;
            (
                kind,
                if plus {
                    Which::WxfPlus
                } else {
                    Which::WxfMinus
                },
                None,
            )
        }
    } else if let Some(plus) = sign(c0) {
        if let Some(kind) = wxf_kind(c1) {
            (
                kind,
                if plus {
                    Which::WxfPlus
                } else {
                    Which::WxfMinus
                },
                None,
            )
        } else if sign(c1) == Some(plus) {
            // `++` first, `--` last of four or five soldiers.
            let which = if plus { Which::Front } else { Which::Rear };
            (PieceKind::Soldier, which, None)
        } else {
            return None;
        }
    } else {
        // Soldiers on two files: the file takes the letter's place.
        let n = digit(c0)?;
        let which = match (sign(c1), digit(c1)) {
            (Some(true), _) => Which::Front,
            (Some(false), _) => Which::Rear,
            (None, Some(m)) if m == n => Which::Middle,
            _ => return None,
        };
        (PieceKind::Soldier, which, Some(n))
    };
    Some(Description {
        kind,
        which,
        file,
        direction,
        number,
        wxf: true,
    })
}

fn chinese_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::General,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' => PieceKind::Horse,
        '车' | '車' | '俥' => PieceKind::Chariot,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Soldier,
        _ => return None,
    })
}

/// 1..=9 from a Chinese numeral, an ASCII digit or a full-width digit.
fn chinese_number(c: char) -> Option<usize> {
    const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i + 1);
    }
    if let Some(n) = digit(c) {
        return Some(n);
    }
    match c {
        '１'..='９' => Some(c as usize - '０' as usize),
        _ => None,
    }
}

fn chinese_direction(c: char) -> Option<Direction> {
    match c {
        '进' | '進' | '上' => Some(Direction::Forward),
        '退' | '下' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn chinese_place(c: char) -> Option<Which> {
    match c {
        '前' => Some(Which::Front),
        '中' => Some(Which::Middle),
        '后' | '後' => Some(Which::Rear),
        _ => None,
    }
}

fn parse_chinese(text: &str) -> Option<Description> {
    let c: Vec<char> = text.chars().collect();
    let [c0, c1, c2, c3] = c[..] else {
        return None;
    };
    let direction = chinese_direction(c2)?;
    let number = chinese_number(c3)?;
    let (kind, which, file) = if let Some(kind) = chinese_kind(c0) {
        (kind, Which::File, Some(chinese_number(c1)?))
    } else if let Some(which) = chinese_place(c0) {
        if let Some(kind) = chinese_kind(c1) {
            (kind, which, None)
        } else {
            (PieceKind::Soldier, which, Some(chinese_number(c1)?))
        }
    } else {
        let n = chinese_number(c0)?;
        (chinese_kind(c1)?, Which::Nth(n - 1), None)
    };
    Some(Description {
        kind,
        which,
        file,
        direction,
        number,
        wxf: false,
    })
}

/// The rank `a` ranks from `color`'s back rank.
fn rank_of_advance(color: Color, a: usize) -> Option<Rank> {
    match color {
        Color::Red => Rank::from_index(a),
        Color::Black => Rank::from_index(9usize.checked_sub(a)?),
    }
}

/// Where the piece of `kind` on `from` goes if it moves as `d` says, if anywhere.
fn target(color: Color, from: Square, d: &Description) -> Option<Square> {
    let f = from.file().index();
    let a = advance(color, from);
    let step = |a: usize, by: usize| match d.direction {
        Direction::Forward => Some(a + by),
        Direction::Backward => a.checked_sub(by),
        Direction::Sideways => None,
    };
    let (file, a) = match d.kind {
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier => {
            if d.direction == Direction::Sideways {
                (file_of_number(color, d.number)?, a)
            } else {
                (from.file(), step(a, d.number)?)
            }
        }
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor => {
            let file = file_of_number(color, d.number)?;
            let da = match (d.kind, file.index().abs_diff(f)) {
                (PieceKind::Horse, 1) => 2,
                (PieceKind::Horse, 2) => 1,
                (PieceKind::Elephant, 2) => 2,
                (PieceKind::Advisor, 1) => 1,
                _ => return None,
            };
            (file, step(a, da)?)
        }
    };
    let to = Square::new(file, rank_of_advance(color, a)?);
    (to != from).then_some(to)
}

/// The index, counted from the front, of the piece `which` names among `count` pieces
/// on a file.
fn index_on_file(which: Which, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    match which {
        Which::File => None,
        Which::Front => Some(0),
        Which::Rear => Some(last),
        Which::Middle => (count % 2 == 1).then_some(count / 2),
        Which::Nth(i) => (i <= last).then_some(i),
        Which::WxfPlus => Some(if count >= 4 { 1 } else { 0 }),
        Which::WxfMinus => Some(if count >= 4 { last - 1 } else { last }),
    }
}

/// The mover's pieces of `kind` on `file`, front first.
fn on_file(pos: &Position, kind: PieceKind, file: File) -> Vec<Square> {
    let us = pos.side_to_move();
    let mut squares: Vec<Square> = pos
        .pieces(us)
        .filter(|&(p, sq)| p.kind == kind && sq.file() == file)
        .map(|(_, sq)| sq)
        .collect();
    squares.sort_by_key(|&sq| std::cmp::Reverse(advance(us, sq)));
    squares
}

fn resolve(pos: &Position, text: &str, d: &Description) -> Result<Move, NotationError> {
    let us = pos.side_to_move();
    let no_such_move = || NotationError::NoSuchMove {
        text: text.to_string(),
    };
    let given_file = match d.file {
        Some(n) => Some(file_of_number(us, n).ok_or_else(no_such_move)?),
        None => None,
    };
    let mut origins = Vec::new();
    for file in File::ALL {
        if given_file.is_some_and(|g| g != file) {
            continue;
        }
        let squares = on_file(pos, d.kind, file);
        if d.which == Which::File {
            origins.extend(squares);
        } else if squares.len() >= 2 {
            if let Some(i) = index_on_file(d.which, squares.len()) {
                origins.push(squares[i]);
            }
        }
    }

    let mut legal = Vec::new();
    let mut illegal = None;
    for from in origins {
        let Some(to) = target(us, from, d) else {
            continue;
        };
        let m = Move::new(from, to);
        match play_check(pos, m) {
            Ok(()) => legal.push(m),
            Err(error) => {
                illegal.get_or_insert(error);
            }
        }
    }
    match legal[..] {
        [m] => Ok(m),
        [] => Err(match illegal {
            Some(error) => NotationError::Illegal {
                text: text.to_string(),
                error,
            },
            None => no_such_move(),
        }),
        _ => {
            // In WXF a file digit names the middle soldier of three or five on the file.
            if d.wxf && d.kind == PieceKind::Soldier {
                if let Some(file) = given_file {
                    let squares = on_file(pos, d.kind, file);
                    if squares.len() % 2 == 1 {
                        let middle = squares[squares.len() / 2];
                        if let Some(&m) = legal.iter().find(|m| m.from() == middle) {
                            return Ok(m);
                        }
                    }
                }
            }
            Err(NotationError::Ambiguous {
                text: text.to_string(),
                candidates: legal,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{read_move as parse_move, write_move, Notation, NotationError};
    use super::*;
    use crate::legal_moves;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    /// Each text must read as the move.
    fn reads(p: &Position, cases: &[(&str, &str)]) {
        for &(text, m) in cases {
            assert_eq!(parse_move(p, text), Ok(mv(m)), "{text} in {}", p.to_fen());
        }
    }

    const BLACK_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b";

    #[test]
    fn iccs_forms() {
        let p = Position::startpos();
        reads(
            &p,
            &[
                ("h2e2", "h2e2"),
                ("H2E2", "h2e2"),
                ("h2-e2", "h2e2"),
                (" b0c2 ", "b0c2"),
            ],
        );
        for bad in ["h2e", "h2_e2", "j2e2", "h2e2e", "h2--e2"] {
            assert!(
                matches!(parse_move(&p, bad), Err(NotationError::Unknown { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            parse_move(&p, "e4e5"),
            Err(NotationError::Illegal {
                text: "e4e5".into(),
                error: IllegalMoveError::NoPieceToMove(mv("e4e5"))
            })
        );
    }

    #[test]
    fn start_position_in_every_notation() {
        let p = Position::startpos();
        reads(
            &p,
            &[
                ("炮二平五", "h2e2"),
                ("炮2平5", "h2e2"),
                ("炮２平５", "h2e2"),
                ("砲二平五", "h2e2"),
                ("包二平五", "h2e2"),
                ("C2=5", "h2e2"),
                ("C2.5", "h2e2"),
                ("c2=5", "h2e2"),
                ("马八进七", "b0c2"),
                ("馬八進七", "b0c2"),
                ("傌八进七", "b0c2"),
                ("H8+7", "b0c2"),
                ("N8+7", "b0c2"),
                ("车九进一", "a0a1"),
                ("車九進一", "a0a1"),
                ("俥九进一", "a0a1"),
                ("R9+1", "a0a1"),
                ("兵七进一", "c3c4"),
                ("P7+1", "c3c4"),
                ("帅五进一", "e0e1"),
                ("帥五進一", "e0e1"),
                ("K5+1", "e0e1"),
                ("相三进五", "g0e2"),
                ("象三进五", "g0e2"),
                ("E3+5", "g0e2"),
                ("B3+5", "g0e2"),
                ("仕四进五", "f0e1"),
                ("士四上五", "f0e1"),
                ("A4+5", "f0e1"),
            ],
        );
        let b = pos(BLACK_START);
        reads(
            &b,
            &[
                ("马8进7", "h9g7"),
                ("马８进７", "h9g7"),
                ("马八进七", "h9g7"),
                ("卒7进1", "g6g5"),
                ("卒７进１", "g6g5"),
                ("将5进1", "e9e8"),
                ("將５進１", "e9e8"),
                ("士4进5", "d9e8"),
                ("象3进5", "c9e7"),
                ("炮8平5", "h7e7"),
                ("砲８平５", "h7e7"),
                ("c8=5", "h7e7"),
            ],
        );
    }

    #[test]
    fn advisors_and_elephants_move_to_a_file() {
        // Red advisors on d0 and d2 (both on file 6), elephants on c0 and c4 (file 7).
        let p = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w");
        reads(
            &p,
            &[
                ("仕六退五", "d2e1"),
                ("仕六进五", "d0e1"),
                ("A6-5", "d2e1"),
                ("A6+5", "d0e1"),
                ("相七进五", "c0e2"),
                ("相七退五", "c4e2"),
                ("相七进九", "c0a2"),
                ("相七退九", "c4a2"),
                ("E7-5", "c4e2"),
            ],
        );
        // A diagonal mover's number is a file: an elephant cannot go to file 6.
        assert_eq!(
            parse_move(&p, "相七进六"),
            Err(NotationError::NoSuchMove {
                text: "相七进六".into()
            })
        );
    }

    #[test]
    fn front_and_rear() {
        let p = pos("5k3/9/9/9/9/1R7/9/9/1R7/3K5 w");
        reads(
            &p,
            &[
                ("前车进四", "b4b8"),
                ("前车平五", "b4e4"),
                ("后车退一", "b1b0"),
                ("後車進二", "b1b3"),
                ("R++4", "b4b8"),
                ("R+=5", "b4e4"),
                ("+R=5", "b4e4"),
                ("R--1", "b1b0"),
                ("-R-1", "b1b0"),
            ],
        );
        // Named by their file, the chariots are ambiguous when both can go.
        assert_eq!(
            parse_move(&p, "车八平五"),
            Err(NotationError::Ambiguous {
                text: "车八平五".into(),
                candidates: vec![mv("b4e4"), mv("b1e1")]
            })
        );
        // ...but the rear one cannot advance five: only the front one fits.
        reads(&p, &[("车八进五", "b4b9")]);

        // Black cannons on h5 (front, towards Red) and h7 (rear).
        let b = pos("3k5/9/7c1/9/7c1/9/9/9/9/5K3 b");
        reads(
            &b,
            &[
                ("前炮平5", "h5e5"),
                ("前炮进３", "h5h2"),
                ("后炮退1", "h7h8"),
                ("後砲平５", "h7e7"),
                ("C+=5", "h5e5"),
                ("C--1", "h7h8"),
            ],
        );
    }

    #[test]
    fn tandem_soldiers() {
        // Three on c (c7, c6, c5), one on g5.
        let p = pos("3k5/9/2P6/2P6/2P6/6P2/9/9/9/4K4 w");
        reads(
            &p,
            &[
                ("前兵进一", "c7c8"),
                ("中兵平六", "c6d6"),
                ("后兵平八", "c5b5"),
                ("P+=6", "c7d7"),
                ("P7=6", "c6d6"),
                ("P-=8", "c5b5"),
                ("兵三进一", "g4g5"),
            ],
        );
        // Four on c: ordinals in Chinese, ++ / P+ / P- / -- in WXF.
        let p = pos("3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w");
        reads(
            &p,
            &[
                ("一兵平六", "c7d7"),
                ("二兵平六", "c6d6"),
                ("三兵平六", "c5d5"),
                ("++=6", "c7d7"),
                ("P+=6", "c6d6"),
                ("P-=6", "c5d5"),
                ("+++1", "c7c8"),
            ],
        );
        // The last one has not crossed the river: it cannot step sideways.
        for text in ["四兵平六", "--=6"] {
            assert_eq!(
                parse_move(&p, text),
                Err(NotationError::Illegal {
                    text: text.into(),
                    error: IllegalMoveError::BadMovement(mv("c4d4"))
                })
            );
        }
        // Two files: three on g (Red's file 3), two on c (file 7).
        let p = pos("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w");
        reads(
            &p,
            &[
                ("前三平四", "g7f7"),
                ("中三平四", "g6f6"),
                ("后三平四", "g5f5"),
                ("前七平六", "c6d6"),
                ("後七平六", "c5d5"),
                ("3+=4", "g7f7"),
                ("33=4", "g6f6"),
                ("3-=4", "g5f5"),
                ("7+=6", "c6d6"),
                ("7-=6", "c5d5"),
            ],
        );
        // Black: two on c (c3 front, c4 rear) and two on g, with Black's digits.
        let b = pos("3k5/9/9/9/9/2p3p2/2p6/6p2/9/4K4 b");
        reads(
            &b,
            &[
                ("前3平4", "c3d3"),
                ("后３平２", "c4b4"),
                ("前7进1", "g2g1"),
                ("后7平6", "g4f4"),
                ("3+=4", "c3d3"),
                ("7-=6", "g4f4"),
            ],
        );
        // Without the file, 前卒 fits the front soldier of either file: the direction
        // may settle it, or not.
        reads(&b, &[("前卒平4", "c3d3")]);
        assert_eq!(
            parse_move(&b, "前卒进1"),
            Err(NotationError::Ambiguous {
                text: "前卒进1".into(),
                candidates: vec![mv("c3c2"), mv("g2g1")]
            })
        );
    }

    #[test]
    fn malformed_and_impossible() {
        let p = Position::startpos();
        for text in [
            "",
            "炮",
            "炮二平",
            "炮二平五五",
            "炮二走五",
            "炮十平五",
            "兵兵进一",
            "X2=5",
            "C2*5",
            "C0=5",
            "C2=0",
            "23=4",
            "+-=4",
            "中前进一",
        ] {
            assert_eq!(
                parse_move(&p, text),
                Err(NotationError::Unknown {
                    text: text.trim().into()
                }),
                "{text}"
            );
        }
        for text in [
            "车五进一",
            "前车进一",
            "中兵进一",
            "一兵进一",
            "马二平三",
            "相三进四",
            "仕四进六",
            "车一平一",
        ] {
            assert_eq!(
                parse_move(&p, text),
                Err(NotationError::NoSuchMove { text: text.into() }),
                "{text}"
            );
        }
        // The horse's leg is blocked: the move exists on the board but is illegal.
        let q = pos("4k4/9/9/9/9/9/9/9/1R7/1N1K5 w");
        assert_eq!(
            parse_move(&q, "马八进七"),
            Err(NotationError::Illegal {
                text: "马八进七".into(),
                error: IllegalMoveError::BadMovement(mv("b0c2"))
            })
        );
    }

    #[test]
    fn errors_display() {
        let e = NotationError::Ambiguous {
            text: "车八平五".into(),
            candidates: vec![mv("b4e4"), mv("b1e1")],
        };
        assert_eq!(e.to_string(), "'车八平五' is ambiguous: it fits b4e4 b1e1");
        assert_eq!(e.text(), "车八平五");
        let e = NotationError::Illegal {
            text: "e4e5".into(),
            error: IllegalMoveError::NoPieceToMove(mv("e4e5")),
        };
        // The text is the move itself: said once. The cause is in the text, so it is not
        // repeated as a source.
        assert!(std::error::Error::source(&e).is_none());
        assert_eq!(
            e.to_string(),
            "illegal move e4e5: no piece of the side to move on e4"
        );
        let e = NotationError::Illegal {
            text: "马八进七".into(),
            error: IllegalMoveError::BadMovement(mv("b0c2")),
        };
        assert_eq!(
            e.to_string(),
            "'马八进七': illegal move b0c2: the piece on b0 cannot move there"
        );
    }

    /// Every legal move of positions full of pieces sharing files (tandem soldiers on
    /// one or two files, doubled chariots, horses, cannons, advisors, elephants) reads
    /// back as itself in every notation, for both sides.
    #[test]
    fn crowded_files_round_trip() {
        let fens = [
            "3k5/9/2P6/2P6/2P6/2P6/2P6/9/9/4K4 w",
            "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w",
            "3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w",
            "3k5/9/9/9/2p6/2p6/2p6/2p6/9/4K4 b",
            "3k5/9/9/9/9/2p3p2/2p6/6p2/9/4K4 b",
            "3k5/9/9/9/9/2p3p2/2p3p2/6p2/9/4K4 b",
            "2bak4/4a4/4b4/9/9/2R6/2N6/2R6/2N6/2BAKAB2 w",
            "2ba1k3/9/2na5/2c6/2b6/2n6/2c6/9/9/3K5 b",
            "5k3/9/9/9/9/1R7/9/9/1R7/3K5 w",
            "3k5/9/7c1/9/7c1/9/9/9/9/5K3 b",
        ];
        let mut positions = 0;
        let mut rejected = Vec::new();
        for fen in fens {
            for side in ["w", "b"] {
                let fen = format!("{} {side}", &fen[..fen.len() - 2]);
                let p = match Position::from_fen(&fen) {
                    Ok(p) => p,
                    Err(e) => {
                        rejected.push(format!("{fen}: {e}"));
                        continue;
                    }
                };
                positions += 1;
                for m in legal_moves(&p) {
                    for notation in Notation::ALL {
                        let text = write_move(&p, m, notation).unwrap();
                        assert_eq!(parse_move(&p, &text), Ok(m), "{text} in {fen}");
                    }
                }
            }
        }
        assert_eq!(positions, 20, "{rejected:#?}");
    }

    /// Every legal move written in every notation reads back as itself, along random
    /// games (deterministic generator).
    #[test]
    fn writing_then_reading_gives_the_move() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _ in 0..20 {
            let mut p = Position::startpos();
            for _ in 0..120 {
                let moves = legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    for notation in Notation::ALL {
                        let text = write_move(&p, m, notation).unwrap();
                        assert_eq!(parse_move(&p, &text), Ok(m), "{text} in {}", p.to_fen());
                        checked += 1;
                    }
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                p.make_move(m);
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
