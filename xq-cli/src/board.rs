//! Board diagrams.

use xq_core::{Color, File, Position, Rank, Square};

/// The position as text: ranks 9 to 0 from the top, files a to i, upper case Red.
/// With `unicode`, the Chinese piece characters, whose names tell the sides apart (帥俥 for
/// Red, 將車 for Black).
pub fn diagram(pos: &Position, unicode: bool) -> String {
    let mut s = String::new();
    for rank in Rank::ALL.iter().rev() {
        s.push_str(&format!("{} ", rank.to_char()));
        for file in File::ALL {
            let sq = Square::new(file, *rank);
            // Chinese characters are two columns wide: one per cell, no spacing.
            let cell = match (pos.piece_on(sq), unicode) {
                (None, false) => " .".to_string(),
                (None, true) => "十".to_string(),
                (Some(p), false) => format!(" {}", p.to_char()),
                (Some(p), true) => p.to_chinese().to_string(),
            };
            s.push_str(&cell);
        }
        s.push('\n');
        if rank.index() == 5 {
            s.push_str(if unicode {
                "  　　楚河　　　漢界\n"
            } else {
                "  ~~~~~~~~~~~~~~~~~~\n"
            });
        }
    }
    s.push_str(if unicode {
        "  ａｂｃｄｅｆｇｈｉ\n"
    } else {
        "   a b c d e f g h i\n"
    });
    s.push_str(&format!(
        "{} to move   FEN {}\n",
        if pos.side_to_move() == Color::Red {
            "Red"
        } else {
            "Black"
        },
        pos.to_fen()
    ));
    s
}
