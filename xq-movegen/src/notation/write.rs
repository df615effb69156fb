//! Writing moves in the descriptive notations (see the [module docs](super) for the
//! conventions): a legal move taken apart into its piece, file, direction and number,
//! then rendered in Chinese or WXF.

use super::{advance, file_number, Direction, Notation};
use xq_core::{Color, File, Move, Piece, PieceKind, Position, Rank, Square};

/// Writes the legal move `m` of `pos` in `notation`.
pub(super) fn write(pos: &Position, m: Move, notation: Notation) -> String {
    let Some(parts) = describe(pos, m) else {
        // A legal move always has a shape the notations express.
        unreachable!("{m} is legal in {pos} but cannot be described");
    };
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Chinese => render_chinese(&parts, false),
        Notation::ChineseTraditional => render_chinese(&parts, true),
        Notation::Wxf => render_wxf(&parts),
    }
}

// ---------------------------------------------------------------------- internals

/// How the moving piece is identified.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Designator {
    /// The usual way: the piece and the number of its file.
    File(usize),
    /// One of `count` pieces of its kind on file `file`, `index` counting from the front.
    /// `two_files` is set for soldiers when another file also holds several of them.
    Tandem {
        file: usize,
        index: usize,
        count: usize,
        two_files: bool,
    },
}

/// A move taken apart into what the notations write.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Parts {
    piece: Piece,
    designator: Designator,
    direction: Direction,
    /// 1..=9: ranks travelled or destination file number.
    number: usize,
}

/// `m` taken apart, or `None` for a move the notations cannot express (no piece of the
/// side to move on its origin, or a shape its piece never moves in).
fn describe(pos: &Position, m: Move) -> Option<Parts> {
    let (from, to) = (m.from(), m.to());
    let piece = pos.piece_on(from)?;
    let color = piece.color;
    if color != pos.side_to_move() || from == to {
        return None;
    }

    let same_file = from.file() == to.file();
    let same_rank = from.rank() == to.rank();
    let diagonal = matches!(
        piece.kind,
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
    );
    // `from != to`, so at most one of the two holds.
    if diagonal == (same_file || same_rank) {
        return None;
    }

    let (a_from, a_to) = (advance(color, from), advance(color, to));
    let direction = if same_rank {
        Direction::Sideways
    } else if a_to > a_from {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let number = if diagonal || direction == Direction::Sideways {
        file_number(color, to.file())
    } else {
        a_from.abs_diff(a_to)
    };

    Some(Parts {
        piece,
        designator: designator(pos, piece, from, to),
        direction,
        number,
    })
}

/// How the piece moving from `from` to `to` is named: by its file, or by its place among
/// the pieces of its kind on that file.
fn designator(pos: &Position, piece: Piece, from: Square, to: Square) -> Designator {
    let color = piece.color;
    let file = file_number(color, from.file());
    let plain = Designator::File(file);
    if piece.kind == PieceKind::General {
        return plain;
    }
    if matches!(piece.kind, PieceKind::Advisor | PieceKind::Elephant)
        && !same_shape_elsewhere(pos, piece, from, to)
    {
        // Advisors and elephants on one file are told apart by direction, except in
        // composed positions (an elephant across the river) where two on one file can
        // make the same move.
        return plain;
    }

    // Squares of the mover's pieces of this kind on the origin file, front first.
    let mut on_file: Vec<Square> = pos
        .pieces(color)
        .filter(|&(p, sq)| p == piece && sq.file() == from.file())
        .map(|(_, sq)| sq)
        .collect();
    if on_file.len() < 2 {
        return plain;
    }
    on_file.sort_by_key(|&sq| std::cmp::Reverse(advance(color, sq)));
    let Some(index) = on_file.iter().position(|&sq| sq == from) else {
        return plain;
    };

    let two_files = piece.kind == PieceKind::Soldier && {
        let mut per_file = [0usize; File::COUNT];
        for (p, sq) in pos.pieces(color) {
            if p == piece {
                per_file[sq.file().index()] += 1;
            }
        }
        per_file.iter().filter(|&&n| n >= 2).count() >= 2
    };

    Designator::Tandem {
        file,
        index,
        count: on_file.len(),
        two_files,
    }
}

/// Whether another `piece` on the file of `from` has a legal move of the same shape as
/// `from`-`to` (the same rank step, to the same file), so that the file alone does not
/// say which one moves.
fn same_shape_elsewhere(pos: &Position, piece: Piece, from: Square, to: Square) -> bool {
    let step = to.rank().index() as isize - from.rank().index() as isize;
    pos.pieces(piece.color)
        .filter(|&(p, sq)| p == piece && sq != from && sq.file() == from.file())
        .any(|(_, sq)| {
            let rank = sq.rank().index() as isize + step;
            usize::try_from(rank)
                .ok()
                .and_then(Rank::from_index)
                .is_some_and(|rank| {
                    crate::is_legal(pos, Move::new(sq, Square::new(to.file(), rank)))
                })
        })
}

const RED_NUMERALS: [char; 10] = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/// A number 1..=9 as written for `color` in Chinese.
fn chinese_number(color: Color, n: usize) -> char {
    match color {
        Color::Red => chinese_ordinal(n.saturating_sub(1)),
        Color::Black => char::from_digit(n as u32, 10).unwrap_or('?'),
    }
}

/// The Chinese numeral for 0-based position `index` (一 for 0).
fn chinese_ordinal(index: usize) -> char {
    RED_NUMERALS.get(index).copied().unwrap_or('?')
}

fn chinese_piece(piece: Piece, traditional: bool) -> char {
    let k = piece.kind.index();
    match (piece.color, traditional) {
        (Color::Red, false) => ['帅', '仕', '相', '马', '车', '炮', '兵'][k],
        (Color::Black, false) => ['将', '士', '象', '马', '车', '炮', '卒'][k],
        (_, true) => piece.to_chinese(),
    }
}

fn render_chinese(parts: &Parts, traditional: bool) -> String {
    let color = parts.piece.color;
    let name = chinese_piece(parts.piece, traditional);
    let rear = if traditional { '後' } else { '后' };
    let mut s = String::with_capacity(12);
    match parts.designator {
        Designator::File(file) => {
            s.push(name);
            s.push(chinese_number(color, file));
        }
        Designator::Tandem {
            file,
            index,
            count,
            two_files,
        } => {
            let label = match count {
                2 => ['前', rear][index.min(1)],
                3 => ['前', '中', rear][index.min(2)],
                _ => chinese_ordinal(index),
            };
            s.push(label);
            s.push(if two_files {
                chinese_number(color, file)
            } else {
                name
            });
        }
    }
    s.push(match (parts.direction, traditional) {
        (Direction::Forward, false) => '进',
        (Direction::Forward, true) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    s.push(chinese_number(color, parts.number));
    s
}

fn wxf_letter(kind: PieceKind) -> char {
    ['K', 'A', 'E', 'H', 'R', 'C', 'P'][kind.index()]
}

fn render_wxf(parts: &Parts) -> String {
    let letter = wxf_letter(parts.piece.kind);
    let digit = |n: usize| char::from_digit(n as u32, 10).unwrap_or('?');
    let mut s = String::with_capacity(4);
    match parts.designator {
        Designator::File(file) => {
            s.push(letter);
            s.push(digit(file));
        }
        Designator::Tandem {
            file,
            index,
            count,
            two_files,
        } => {
            let last = count - 1;
            let (first, second) = if two_files {
                // The file takes the letter's place: 7+ front, 77 middle, 7- rear.
                let mark = if index == 0 {
                    '+'
                } else if index == last {
                    '-'
                } else {
                    digit(file)
                };
                (digit(file), mark)
            } else if count <= 3 {
                // P+ front, P7 middle, P- rear.
                let mark = if index == 0 {
                    '+'
                } else if index == last {
                    '-'
                } else {
                    digit(file)
                };
                (letter, mark)
            } else if index == 0 {
                ('+', '+')
            } else if index == last {
                ('-', '-')
            } else if index == 1 {
                (letter, '+')
            } else if index == last - 1 {
                (letter, '-')
            } else {
                (letter, digit(file))
            };
            s.push(first);
            s.push(second);
        }
    }
    s.push(match parts.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    });
    s.push(digit(parts.number));
    s
}

#[cfg(test)]
mod tests {
    use super::super::{read_move, write_line, write_move, Notation, NotationError};
    use crate::{is_legal, IllegalMoveError};
    use xq_core::{Move, Position, Square, START_FEN};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// Checks each `(move, chinese, wxf)` in `pos`.
    fn check(pos: &Position, cases: &[(&str, &str, &str)]) {
        for &(m, chinese, wxf) in cases {
            let m = mv(m);
            assert_eq!(
                write_move(pos, m, Notation::Chinese).as_deref(),
                Ok(chinese),
                "{m} in {}",
                pos.to_fen()
            );
            assert_eq!(
                write_move(pos, m, Notation::Wxf).as_deref(),
                Ok(wxf),
                "{m} in {}",
                pos.to_fen()
            );
        }
    }

    fn traditional(pos: &Position, m: &str) -> String {
        write_move(pos, mv(m), Notation::ChineseTraditional).unwrap()
    }

    fn line(fen: &str, moves: &str, style: Notation) -> Vec<String> {
        let moves: Vec<Move> = moves.split_whitespace().map(mv).collect();
        write_line(&pos(fen), &moves, style).unwrap()
    }

    #[test]
    fn red_moves_from_the_start() {
        check(
            &Position::startpos(),
            &[
                ("h2e2", "炮二平五", "C2=5"),
                ("b2e2", "炮八平五", "C8=5"),
                ("h2h9", "炮二进七", "C2+7"),
                ("b2b9", "炮八进七", "C8+7"),
                ("h2h1", "炮二退一", "C2-1"),
                ("b0c2", "马八进七", "H8+7"),
                ("b0a2", "马八进九", "H8+9"),
                ("h0g2", "马二进三", "H2+3"),
                ("a0a1", "车九进一", "R9+1"),
                ("a0a2", "车九进二", "R9+2"),
                ("i0i1", "车一进一", "R1+1"),
                ("c3c4", "兵七进一", "P7+1"),
                ("g3g4", "兵三进一", "P3+1"),
                ("e3e4", "兵五进一", "P5+1"),
                ("e0e1", "帅五进一", "K5+1"),
                ("g0e2", "相三进五", "E3+5"),
                ("c0e2", "相七进五", "E7+5"),
                ("g0i2", "相三进一", "E3+1"),
                ("f0e1", "仕四进五", "A4+5"),
                ("d0e1", "仕六进五", "A6+5"),
            ],
        );
    }

    #[test]
    fn black_moves_from_the_start() {
        let black = pos(&START_FEN.replace(" w ", " b "));
        check(
            &black,
            &[
                ("h9g7", "马8进7", "H8+7"),
                ("b9c7", "马2进3", "H2+3"),
                ("b9a7", "马2进1", "H2+1"),
                ("h7e7", "炮8平5", "C8=5"),
                ("b7e7", "炮2平5", "C2=5"),
                ("h7h0", "炮8进7", "C8+7"),
                ("b7b8", "炮2退1", "C2-1"),
                ("i9i8", "车9进1", "R9+1"),
                ("a9a7", "车1进2", "R1+2"),
                ("c6c5", "卒3进1", "P3+1"),
                ("g6g5", "卒7进1", "P7+1"),
                ("e9e8", "将5进1", "K5+1"),
                ("c9e7", "象3进5", "E3+5"),
                ("g9e7", "象7进5", "E7+5"),
                ("d9e8", "士4进5", "A4+5"),
                ("f9e8", "士6进5", "A6+5"),
            ],
        );
    }

    #[test]
    fn backward_moves() {
        // Red: chariot on h6, horse on c2, elephant on e2, advisor on e1, general on e0.
        // Black: chariot on b3, horse on g7, elephant on e7, advisor on e8, general on d9.
        let p = pos("3k5/4a4/4b1n2/7R1/9/9/1r7/2N1B4/4A4/4K4 w");
        check(
            &p,
            &[
                ("h6h2", "车二退四", "R2-4"),
                ("c2b0", "马七退八", "H7-8"),
                ("c2d0", "马七退六", "H7-6"),
                ("e2g0", "相五退三", "E5-3"),
                ("e2c0", "相五退七", "E5-7"),
                ("e1d0", "仕五退六", "A5-6"),
                ("e1f0", "仕五退四", "A5-4"),
            ],
        );
        let p = pos("3k5/4a4/4b1n2/7R1/9/9/1r7/2N1B4/9/4K4 w");
        check(&p, &[("e0e1", "帅五进一", "K5+1")]);
        let p = pos("3k5/4a4/4b1n2/7R1/9/9/1r7/2N1B4/4K4/9 w");
        check(&p, &[("e1e0", "帅五退一", "K5-1")]);

        let p = pos("3k5/4a4/4b1n2/7R1/9/9/1r7/2N1B4/4A4/4K4 b");
        check(
            &p,
            &[
                ("b3b8", "车2退5", "R2-5"),
                ("b3b1", "车2进2", "R2+2"),
                ("g7h9", "马7退8", "H7-8"),
                ("g7f9", "马7退6", "H7-6"),
                ("e7c9", "象5退3", "E5-3"),
                ("e7g9", "象5退7", "E5-7"),
                ("e8f9", "士5退6", "A5-6"),
                ("d9d8", "将4进1", "K4+1"),
                ("d9e9", "将4平5", "K4=5"),
            ],
        );
    }

    #[test]
    fn tandem_chariots() {
        // Red chariots on b4 (front) and b1 (rear), Red's eighth file.
        let p = pos("5k3/9/9/9/9/1R7/9/9/1R7/3K5 w");
        check(
            &p,
            &[
                ("b4b8", "前车进四", "R++4"),
                ("b4e4", "前车平五", "R+=5"),
                ("b4a4", "前车平九", "R+=9"),
                ("b4b2", "前车退二", "R+-2"),
                ("b1b3", "后车进二", "R-+2"),
                ("b1e1", "后车平五", "R-=5"),
                ("b1b0", "后车退一", "R--1"),
            ],
        );
        assert_eq!(traditional(&p, "b4b8"), "前俥進四");
        assert_eq!(traditional(&p, "b1b0"), "後俥退一");

        // Black chariots on d8 (rear) and d2 (front): front is towards Red.
        let p = pos("5k3/3r5/9/9/9/9/9/3r5/9/4K4 b");
        check(
            &p,
            &[
                ("d2d0", "前车进2", "R++2"),
                ("d2e2", "前车平5", "R+=5"),
                ("d8d9", "后车退1", "R--1"),
                ("d8a8", "后车平1", "R-=1"),
            ],
        );
        assert_eq!(traditional(&p, "d8d9"), "後車退1");
    }

    #[test]
    fn tandem_cannons_and_horses() {
        // Black cannons on h7 (rear) and h5 (front), Black's eighth file.
        let p = pos("3k5/9/7c1/9/7c1/9/9/9/9/5K3 b");
        check(
            &p,
            &[
                ("h5e5", "前炮平5", "C+=5"),
                ("h5h2", "前炮进3", "C++3"),
                ("h7h8", "后炮退1", "C--1"),
                ("h7e7", "后炮平5", "C-=5"),
            ],
        );
        assert_eq!(traditional(&p, "h5e5"), "前砲平5");
        assert_eq!(traditional(&p, "h7h8"), "後砲退1");

        // Red cannons on e2 (rear) and e4 (front): the classic doubled central cannons.
        let p = pos("3k5/9/9/9/9/4C4/9/4C4/9/5K3 w");
        check(
            &p,
            &[("e4e9", "前炮进五", "C++5"), ("e2d2", "后炮平六", "C-=6")],
        );

        // Red horses on c2 (rear) and c4 (front), Red's seventh file.
        let p = pos("3k5/9/9/9/9/2N6/9/2N6/9/4K4 w");
        check(
            &p,
            &[
                ("c4d6", "前马进六", "H++6"),
                ("c4b2", "前马退八", "H+-8"),
                ("c2e3", "后马进五", "H-+5"),
                ("c2b0", "后马退八", "H--8"),
            ],
        );
        assert_eq!(traditional(&p, "c4d6"), "前傌進六");
    }

    #[test]
    fn advisors_and_elephants_on_one_file_are_not_marked() {
        // Red advisors on d0 and d2: only direction tells them apart.
        let p = pos("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w");
        check(
            &p,
            &[("d0e1", "仕六进五", "A6+5"), ("d2e1", "仕六退五", "A6-5")],
        );
        // Red elephants on c0 and c4.
        let p = pos("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w");
        check(
            &p,
            &[("c0e2", "相七进五", "E7+5"), ("c4e2", "相七退五", "E7-5")],
        );
        // Black elephants on g9 and g5.
        let p = pos("3k2b2/9/9/9/6b2/9/9/9/9/4K4 b");
        check(
            &p,
            &[("g9e7", "象7进5", "E7+5"), ("g5e7", "象7退5", "E7-5")],
        );
    }

    #[test]
    fn composed_elephants_that_make_the_same_move_are_marked() {
        // Red elephants on c6 (across the river, a composed position) and c4 both retreat
        // to file 5 (and both to file 9): the file alone is ambiguous, so front and rear
        // are marked as for chariots.
        let p =
            Position::from_fen_with("9/9/5k3/2B6/9/2B6/9/9/9/R2K5 w", xq_core::Ignore::PLAYABLE)
                .unwrap();
        check(
            &p,
            &[
                ("c6e4", "前相退五", "E+-5"),
                ("c4e2", "后相退五", "E--5"),
                ("c6a4", "前相退九", "E+-9"),
            ],
        );
        for m in ["c6e4", "c4e2", "c6a4", "c4a2"] {
            for notation in Notation::ALL {
                let text = write_move(&p, mv(m), notation).unwrap();
                assert_eq!(read_move(&p, &text), Ok(mv(m)), "{text}");
            }
        }
    }

    #[test]
    fn tandem_soldiers_on_one_file() {
        // Two: c6 (front), c5 (rear), plus a lone soldier on g5.
        let p = pos("3k5/9/9/2P6/2P3P2/9/9/9/9/4K4 w");
        check(
            &p,
            &[
                ("c6d6", "前兵平六", "P+=6"),
                ("c6c7", "前兵进一", "P++1"),
                ("c5b5", "后兵平八", "P-=8"),
                ("g5g6", "兵三进一", "P3+1"),
            ],
        );
        // Three: c7, c6, c5.
        let p = pos("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w");
        check(
            &p,
            &[
                ("c7c8", "前兵进一", "P++1"),
                ("c6d6", "中兵平六", "P7=6"),
                ("c5b5", "后兵平八", "P-=8"),
            ],
        );
        // Four: c7, c6, c5, c4.
        let p = pos("3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w");
        check(
            &p,
            &[
                ("c7d7", "一兵平六", "++=6"),
                ("c6d6", "二兵平六", "P+=6"),
                ("c5d5", "三兵平六", "P-=6"),
                ("c7c8", "一兵进一", "+++1"),
            ],
        );
        // Five: c9 .. c5, all across the river.
        let p = pos("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w");
        check(
            &p,
            &[
                ("c9d9", "一兵平六", "++=6"),
                ("c8d8", "二兵平六", "P+=6"),
                ("c7d7", "三兵平六", "P7=6"),
                ("c6d6", "四兵平六", "P-=6"),
                ("c5d5", "五兵平六", "--=6"),
            ],
        );
        assert_eq!(traditional(&p, "c7d7"), "三兵平六");
    }

    #[test]
    fn tandem_soldiers_on_two_files() {
        // The WXF example: three soldiers on Red's third file (g7, g6, g5) and two on the
        // seventh (c6, c5).
        let p = pos("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w");
        check(
            &p,
            &[
                ("g7f7", "前三平四", "3+=4"),
                ("g6f6", "中三平四", "33=4"),
                ("g5f5", "后三平四", "3-=4"),
                ("c6d6", "前七平六", "7+=6"),
                ("c5d5", "后七平六", "7-=6"),
                ("g7g8", "前三进一", "3++1"),
            ],
        );
        assert_eq!(traditional(&p, "g5f5"), "後三平四");
    }

    #[test]
    fn black_tandem_soldiers() {
        // Black soldiers on c3 (front) and c4 (rear), Black's third file.
        let p = pos("3k5/9/9/9/9/2p6/2p6/9/9/4K4 b");
        check(
            &p,
            &[
                ("c3d3", "前卒平4", "P+=4"),
                ("c3c2", "前卒进1", "P++1"),
                ("c4b4", "后卒平2", "P-=2"),
            ],
        );
        // Black soldiers: two on c (c3, c4) and two on g (g2, g4).
        let p = pos("3k5/9/9/9/9/2p3p2/2p6/6p2/9/4K4 b");
        check(
            &p,
            &[
                ("c3d3", "前3平4", "3+=4"),
                ("c4b4", "后3平2", "3-=2"),
                ("g2g1", "前7进1", "7++1"),
                ("g4f4", "后7平6", "7-=6"),
            ],
        );
        // Four Black soldiers on one file, all across the river: c1 (front) .. c4 (rear).
        let p = pos("3k5/9/9/9/9/2p6/2p6/2p6/2p6/4K4 b");
        check(
            &p,
            &[
                ("c1c0", "一卒进1", "+++1"),
                ("c2d2", "二卒平4", "P+=4"),
                ("c3d3", "三卒平4", "P-=4"),
                ("c4d4", "四卒平4", "--=4"),
            ],
        );
    }

    #[test]
    fn traditional_characters() {
        let p = Position::startpos();
        for (m, text) in [
            ("h2e2", "炮二平五"),
            ("h0g2", "傌二進三"),
            ("a0a1", "俥九進一"),
            ("c3c4", "兵七進一"),
            ("e0e1", "帥五進一"),
            ("g0e2", "相三進五"),
            ("f0e1", "仕四進五"),
            ("h2h1", "炮二退一"),
        ] {
            assert_eq!(traditional(&p, m), text);
        }
        let p = pos(&START_FEN.replace(" w ", " b "));
        for (m, text) in [
            ("h9g7", "馬8進7"),
            ("h7e7", "砲8平5"),
            ("i9i8", "車9進1"),
            ("g6g5", "卒7進1"),
            ("e9e8", "將5進1"),
            ("c9e7", "象3進5"),
            ("d9e8", "士4進5"),
        ] {
            assert_eq!(traditional(&p, m), text);
        }
    }

    /// Central cannon against the screen horses, 7 moves each.
    const OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b0c2 d9e8";

    #[test]
    fn full_line_from_the_start() {
        assert_eq!(
            line(START_FEN, OPENING, Notation::Chinese),
            [
                "炮二平五",
                "马8进7",
                "马二进三",
                "车9平8",
                "车一平二",
                "马2进3",
                "兵七进一",
                "卒7进1",
                "车二进六",
                "炮8平9",
                "车二平三",
                "炮9退1",
                "马八进七",
                "士4进5",
            ]
        );
        assert_eq!(
            line(START_FEN, OPENING, Notation::Wxf),
            [
                "C2=5", "H8+7", "H2+3", "R9=8", "R1=2", "H2+3", "P7+1", "P7+1", "R2+6", "C8=9",
                "R2=3", "C9-1", "H8+7", "A4+5",
            ]
        );
        assert_eq!(
            line(START_FEN, OPENING, Notation::ChineseTraditional),
            [
                "炮二平五",
                "馬8進7",
                "傌二進三",
                "車9平8",
                "俥一平二",
                "馬2進3",
                "兵七進一",
                "卒7進1",
                "俥二進六",
                "砲8平9",
                "俥二平三",
                "砲9退1",
                "傌八進七",
                "士4進5",
            ]
        );
    }

    #[test]
    fn line_with_retreats_and_captures() {
        // Horses, elephants, advisors and chariots go out and come back; then a cannon
        // captures a horse and is recaptured.
        let moves = "h0g2 h9g7 g2h0 g7h9 g0e2 c9e7 e2g0 e7c9 f0e1 d9e8 e1f0 e8d9 \
                     a0a2 a9a7 a2a0 a7a9 b2b9 a9b9";
        assert_eq!(
            line(START_FEN, moves, Notation::Chinese),
            [
                "马二进三",
                "马8进7",
                "马三退二",
                "马7退8",
                "相三进五",
                "象3进5",
                "相五退三",
                "象5退3",
                "仕四进五",
                "士4进5",
                "仕五退四",
                "士5退4",
                "车九进二",
                "车1进2",
                "车九退二",
                "车1退2",
                "炮八进七",
                "车1平2",
            ]
        );
        assert_eq!(
            line(START_FEN, moves, Notation::Wxf),
            [
                "H2+3", "H8+7", "H3-2", "H7-8", "E3+5", "E3+5", "E5-3", "E5-3", "A4+5", "A4+5",
                "A5-4", "A5-4", "R9+2", "R1+2", "R9-2", "R1-2", "C8+7", "R1=2",
            ]
        );
    }

    #[test]
    fn line_that_doubles_the_cannons() {
        // The second cannon joins the first on the central file, behind it, and the front
        // one is then written 前炮 / `C+`.
        let moves = "h2e2 h9g7 e3e4 i9h9 e2e3 b9c7 b2e2 c6c5 e3d3";
        assert_eq!(
            line(START_FEN, moves, Notation::Chinese),
            [
                "炮二平五",
                "马8进7",
                "兵五进一",
                "车9平8",
                "炮五进一",
                "马2进3",
                "炮八平五",
                "卒3进1",
                "前炮平六",
            ]
        );
        assert_eq!(
            line(START_FEN, moves, Notation::Wxf),
            ["C2=5", "H8+7", "P5+1", "R9=8", "C5+1", "H2+3", "C8=5", "P3+1", "C+=6"]
        );
        let rear = "h2e2 h9g7 e3e4 i9h9 e2e3 b9c7 b2e2 c6c5 e2f2";
        assert_eq!(line(START_FEN, rear, Notation::Chinese)[8], "后炮平四");
        assert_eq!(
            line(START_FEN, rear, Notation::ChineseTraditional)[8],
            "後炮平四"
        );
        assert_eq!(line(START_FEN, rear, Notation::Wxf)[8], "C-=4");
    }

    #[test]
    fn errors() {
        let p = Position::startpos();
        let wxf = Notation::Wxf;
        // Only legal moves are written; anything else says why it is illegal.
        for (m, error) in [
            (
                "e5e6",
                IllegalMoveError::NoPieceToMove as fn(Move) -> IllegalMoveError,
            ),
            ("h9g7", IllegalMoveError::NoPieceToMove),
            ("a0b1", IllegalMoveError::BadMovement),
            ("b0b2", IllegalMoveError::BadMovement),
            ("a0b0", IllegalMoveError::BadMovement),
        ] {
            let m = mv(m);
            assert_eq!(
                write_move(&p, m, wxf),
                Err(NotationError::Illegal {
                    text: m.to_string(),
                    error: error(m)
                }),
                "{m}"
            );
        }
        let m = mv("e5e6");
        assert_eq!(
            write_move(&p, m, Notation::Chinese)
                .unwrap_err()
                .to_string(),
            "illegal move e5e6: no piece of the side to move on e5"
        );

        // Lines name the failing ply; the moves before it were played.
        let moves = [mv("h2e2"), mv("h9g7"), mv("e5e6")];
        let err = write_line(&p, &moves, wxf).unwrap_err();
        assert_eq!(
            err,
            NotationError::AtPly {
                ply: 2,
                error: Box::new(NotationError::Illegal {
                    text: "e5e6".into(),
                    error: IllegalMoveError::NoPieceToMove(mv("e5e6"))
                })
            }
        );
        assert_eq!(
            err.to_string(),
            "move 3 of the line: illegal move e5e6: no piece of the side to move on e5"
        );
        // The cause is in the text, so it is not repeated as a source.
        assert!(std::error::Error::source(&err).is_none());

        // Black ignores the check, then the chariot would take the general.
        let p = pos("4k4/9/9/9/9/p8/9/9/R8/3K5 w");
        let moves = [mv("a1e1"), mv("a4a3"), mv("e1e9")];
        assert!(matches!(
            write_line(&p, &moves, wxf),
            Err(NotationError::AtPly { ply: 1, .. })
        ));
        assert_eq!(
            write_line(&p, &moves[..1], Notation::Chinese),
            Ok(vec!["车九平五".to_string()])
        );
    }

    #[test]
    fn empty_line_and_input_untouched() {
        let p = Position::startpos();
        assert_eq!(write_line(&p, &[], Notation::Chinese), Ok(vec![]));
        let moves: Vec<Move> = OPENING.split_whitespace().map(mv).collect();
        write_line(&p, &moves, Notation::Wxf).unwrap();
        assert_eq!(p, Position::startpos());
    }

    /// Every from/to pair in a few positions: written exactly when legal, four
    /// characters in the descriptive notations.
    #[test]
    fn every_legal_move_is_written_and_nothing_else() {
        let fens = [
            START_FEN,
            "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w",
            "3k5/9/2P6/2P6/2P6/2P6/2P6/9/9/4K4 w",
            "3k5/9/9/9/2p6/2p6/2p6/2p6/9/4K4 b",
            "5k3/9/9/9/9/1R7/9/9/1R7/3K5 w",
            "3k5/4a4/4b1n2/7R1/9/9/1r7/2N1B4/4A4/4K4 b",
        ];
        for fen in fens {
            let p = pos(fen);
            for from in Square::ALL {
                for to in Square::ALL {
                    let m = Move::new(from, to);
                    for notation in Notation::ALL {
                        let written = write_move(&p, m, notation);
                        assert_eq!(written.is_ok(), is_legal(&p, m), "{m} in {fen}");
                        if let (Ok(text), false) = (written, notation == Notation::Iccs) {
                            assert_eq!(text.chars().count(), 4, "{m} in {fen}: {text}");
                            assert!(!text.contains('?'), "{m} in {fen}: {text}");
                        }
                    }
                }
            }
        }
    }
}
