//! The per-move report and the annotation of a whole game: what `xq annotate` writes, the
//! analysis board's score graph shows and Python's `xq.annotate` returns, from one
//! [`GameAnalysis`] (or from scores an engine gave, [`GameReport::from_scores`]).

use crate::judge::{
    self, Class, GameAnalysis, Judge, JudgeError, Measure, PositionSearch, Searched, Tally,
    Verdict, CAP,
};
use xq_core::{Color, Move, Position};
use xq_movegen::notation::{write_line, write_move, Notation};
use xq_records::Record;
use xq_search::score::pawns;
use xq_search::Score;

/// A value seen from `side` turned to Red's point of view.
///
/// ```
/// use xq_analysis::for_red;
/// use xq_core::Color;
/// assert_eq!(for_red(35, Color::Red), 35);
/// assert_eq!(for_red(35, Color::Black), -35);
/// ```
pub fn for_red(value: i32, side: Color) -> i32 {
    match side {
        Color::Red => value,
        Color::Black => -value,
    }
}

/// The verdict on one move with the searches it comes from: the position before it, the
/// move, the search before (its line starts with the best move) and after (its line is
/// the expected continuation), and the [`Verdict`], from the mover's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// The search of the position before the move.
    pub best: PositionSearch,
    /// The search of the position after the move.
    pub after: PositionSearch,
    /// The judgement.
    pub verdict: Verdict,
}

impl MoveReport {
    /// The side that played the move.
    pub fn mover(&self) -> Color {
        self.before.side_to_move()
    }

    /// The search's best move before it, if the search gave one.
    pub fn best_move(&self) -> Option<Move> {
        self.best.pv.first().copied()
    }

    /// Was the move played the search's own?
    pub fn is_best(&self) -> bool {
        self.best_move() == Some(self.played)
    }

    /// The position after the move.
    pub fn after_position(&self) -> Position {
        let mut pos = self.before.clone();
        pos.make_move(self.played);
        pos
    }

    /// The search value after the move, from Red's point of view (mates as the search
    /// gives them).
    pub fn value(&self) -> i32 {
        for_red(-self.after.value, self.mover())
    }

    /// The search value after the best move (the position's own search), from Red's
    /// point of view.
    pub fn best_value(&self) -> i32 {
        for_red(self.best.value, self.mover())
    }

    /// The score after the move, Red's view, centipawns clamped to ±[`CAP`].
    pub fn cp(&self) -> i32 {
        for_red(self.verdict.played_cp, self.mover())
    }

    /// The score after the best move, Red's view, clamped.
    pub fn best_cp(&self) -> i32 {
        for_red(self.verdict.best_cp, self.mover())
    }

    /// The move in `notation` (ICCS if it cannot be written).
    pub fn notation(&self, notation: Notation) -> String {
        move_text(&self.before, self.played, notation)
    }

    /// The best move in `notation`, if the search gave one.
    pub fn best_notation(&self, notation: Notation) -> Option<String> {
        self.best_move()
            .map(|m| move_text(&self.before, m, notation))
    }

    /// The comment `xq annotate` writes after the move: the class and loss if any, the
    /// score after it from Red's side with the expected line, and the best move with its
    /// score and line when the move was not the search's own.
    pub fn comment(&self, notation: Notation, measure: Measure) -> String {
        let mut text = String::new();
        if let Some(c) = self.verdict.class {
            text.push_str(&format!(
                "{} ({}). ",
                c.title(),
                loss_text(self.verdict.loss, measure)
            ));
        }
        text.push_str(&pawns(self.value()));
        let line = write_line(&self.after_position(), &self.after.pv, notation).unwrap_or_default();
        if !line.is_empty() {
            text.push_str(": ");
            text.push_str(&line.join(" "));
        }
        if let (false, Some(best)) = (self.is_best(), self.best_move()) {
            text.push_str(&format!(
                ". Best {} {}: {}",
                move_text(&self.before, best, notation),
                pawns(self.best_value()),
                write_line(&self.before, &self.best.pv, notation)
                    .unwrap_or_default()
                    .join(" ")
            ));
        }
        text
    }
}

/// One field of a move's report, as [`MoveReport::fields`] lists them: what `xq annotate
/// --json` writes and Python's `xq.annotate` returns, named once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// A whole number.
    Int(i64),
    /// Text.
    Text(String),
    /// Nothing (no best move given).
    None,
    /// A line of moves (ICCS).
    Moves(Vec<Move>),
    /// Chances of a win, a draw and a loss, per mille.
    Chances([u32; 3]),
}

impl MoveReport {
    /// The report's fields, in order, with the move and the best move written in
    /// `notation`: `side`, `move`, `notation`, `best`, `best_notation`, `score` and
    /// `best_score` (pawns, Red's view), `cp` and `best_cp` (clamped, Red's view),
    /// `loss`, `class`, `expected` and `best_expected` (per mille, the mover's), `wdl`
    /// and `best_wdl` (the mover's chances), `depth`, `pv` and `best_pv`.
    ///
    /// ```
    /// use xq_analysis::{Field, GameReport, Measure, Searched};
    /// use xq_core::Position;
    /// use xq_movegen::notation::Notation;
    /// use xq_search::Score;
    /// let start = Position::startpos();
    /// let moves = ["h2e2".parse().unwrap()];
    /// let searched = [
    ///     Searched { score: Score::Cp(30), best: Some("b2e2".parse().unwrap()) },
    ///     Searched { score: Score::Cp(-10), best: None },
    /// ];
    /// let report = GameReport::from_scores(&start, &moves, &searched, Measure::Cp).unwrap();
    /// let fields = report.moves[0].fields(Notation::Wxf);
    /// assert_eq!(fields[1], ("move", Field::Text("h2e2".into())));
    /// assert_eq!(fields[2], ("notation", Field::Text("C2=5".into())));
    /// assert_eq!(fields.iter().find(|f| f.0 == "loss").unwrap().1, Field::Int(20));
    /// ```
    pub fn fields(&self, notation: Notation) -> Vec<(&'static str, Field)> {
        let v = &self.verdict;
        let text = |t: String| Field::Text(t);
        let chances = |w: xq_search::wdl::Wdl| Field::Chances([w.win, w.draw, w.loss]);
        vec![
            ("side", text(self.mover().to_string())),
            ("move", text(self.played.to_string())),
            ("notation", text(self.notation(notation))),
            (
                "best",
                self.best_move()
                    .map_or(Field::None, |m| text(m.to_string())),
            ),
            (
                "best_notation",
                self.best_notation(notation).map_or(Field::None, text),
            ),
            ("score", text(pawns(self.value()))),
            ("cp", Field::Int(self.cp().into())),
            ("best_score", text(pawns(self.best_value()))),
            ("best_cp", Field::Int(self.best_cp().into())),
            ("loss", Field::Int(v.loss.into())),
            (
                "class",
                v.class.map_or(Field::None, |c| text(c.name().into())),
            ),
            ("expected", Field::Int(v.played_wdl.expected().into())),
            ("best_expected", Field::Int(v.best_wdl.expected().into())),
            ("wdl", chances(v.played_wdl)),
            ("best_wdl", chances(v.best_wdl)),
            ("depth", Field::Int(self.after.depth.into())),
            ("pv", Field::Moves(self.after.pv.clone())),
            ("best_pv", Field::Moves(self.best.pv.clone())),
        ]
    }
}

/// The move in `notation`, or ICCS if it cannot be written there.
fn move_text(pos: &Position, m: Move, notation: Notation) -> String {
    write_move(pos, m, notation).unwrap_or_else(|_| m.to_string())
}

/// A loss as the comments write it: pawns (`-1.20`) or points of expected result
/// (`-12.5%`).
///
/// ```
/// use xq_analysis::{judge::Measure, loss_text};
/// assert_eq!(loss_text(234, Measure::Cp), "-2.34");
/// assert_eq!(loss_text(234, Measure::Wdl), "-23.4%");
/// ```
pub fn loss_text(loss: i32, measure: Measure) -> String {
    match measure {
        Measure::Cp => format!("-{}", pawns(loss).trim_start_matches('+')),
        Measure::Wdl => format!("-{:.1}%", f64::from(loss) / 10.0),
    }
}

/// A game's analysis as the reports read it: every move's report, every position's
/// search and each side's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// What the losses are measured in.
    pub measure: Measure,
    /// The report on every move of the line.
    pub moves: Vec<MoveReport>,
    /// The search of every position of the line, the start and the last included.
    pub searched: Vec<PositionSearch>,
    /// The side to move at each of those positions.
    pub sides: Vec<Color>,
    /// Red's totals.
    pub red: Tally,
    /// Black's totals.
    pub black: Tally,
}

impl GameReport {
    /// The report of a game analysed by [`Judge::analyse`] from `start` along `moves`.
    ///
    /// # Panics
    /// If `analysis` is not of that line (fewer searches than positions).
    pub fn new(
        start: &Position,
        moves: &[Move],
        measure: Measure,
        analysis: GameAnalysis,
    ) -> GameReport {
        let mut pos = start.clone();
        let mut reports = Vec::with_capacity(moves.len());
        let mut sides = vec![pos.side_to_move()];
        for (i, (&m, verdict)) in moves.iter().zip(analysis.verdicts).enumerate() {
            reports.push(MoveReport {
                before: pos.clone(),
                played: m,
                best: analysis.searched[i].clone(),
                after: analysis.searched[i + 1].clone(),
                verdict,
            });
            pos.make_move(m);
            sides.push(pos.side_to_move());
        }
        GameReport {
            measure,
            moves: reports,
            searched: analysis.searched,
            sides,
            red: analysis.red,
            black: analysis.black,
        }
    }

    /// The report of a game from the scores an engine gave (a web page's engine):
    /// `searched[i]` of the position after `i` moves. The lines are the best moves alone,
    /// the depths 0.
    ///
    /// # Errors
    /// As [`Judge::line`]: the counts do not fit, or a move is not legal.
    pub fn from_scores(
        start: &Position,
        moves: &[Move],
        searched: &[Searched],
        measure: Measure,
    ) -> Result<GameReport, JudgeError> {
        let verdicts = Judge::new(measure).line(start, moves, searched)?;
        let searched: Vec<PositionSearch> = searched
            .iter()
            .map(|s| PositionSearch {
                value: s.score.to_value(),
                depth: 0,
                pv: s.best.into_iter().collect(),
            })
            .collect();
        let analysis = GameAnalysis::from_verdicts(start, searched, verdicts);
        Ok(GameReport::new(start, moves, measure, analysis))
    }

    /// Each position's score, Red's view, centipawns clamped to ±[`CAP`] (a mate at the
    /// edge): the score graph's points.
    pub fn values(&self) -> Vec<i32> {
        self.searched
            .iter()
            .zip(&self.sides)
            .map(|(s, &side)| for_red(judge::clamped(Score::from_value(s.value)), side))
            .collect()
    }

    /// The summary comment: "xq annotate (LIMIT): Red ...; Black ...".
    pub fn summary(&self, limit: &str) -> String {
        format!(
            "xq annotate ({limit}): Red {}; Black {}.",
            self.red.describe(self.measure),
            self.black.describe(self.measure)
        )
    }

    /// Writes the annotations into `record` (whose main line this is the report of): the
    /// comment after each move (after the file's own), the class's glyph in place of any
    /// move-quality glyph the file had, the summary before the first move, and the
    /// `Annotator` tag `annotator`.
    pub fn annotate(&self, record: &mut Record, notation: Notation, limit: &str, annotator: &str) {
        for (node, r) in record.main.nodes.iter_mut().zip(&self.moves) {
            let ours = r.comment(notation, self.measure);
            node.comment = Some(match node.comment.take().filter(|c| !c.is_empty()) {
                Some(theirs) => format!("{theirs}\n{ours}"),
                None => ours,
            });
            if let Some(c) = r.verdict.class {
                // Our verdict replaces a move-quality glyph the file had ($1-$6).
                node.nags.retain(|n| !(1..=6).contains(n));
                node.nags.push(c.nag());
            }
        }
        let sum = self.summary(limit);
        record.main.comment = Some(match record.main.comment.take().filter(|c| !c.is_empty()) {
            Some(theirs) => format!("{sum}\n{theirs}"),
            None => sum,
        });
        record.set_tag("Annotator", annotator);
    }

    /// A score graph of the game as SVG: the score after every ply from Red's point of
    /// view, clamped to ±[`CAP`] (mates at the edge), Red's advantage up; a dot on every
    /// classified move (orange inaccuracy, red mistake, dark red blunder). `title` is
    /// written above it.
    pub fn svg_graph(&self, title: &str) -> String {
        const W: f64 = 640.0;
        const H: f64 = 240.0;
        const PAD: f64 = 20.0;
        let values = self.values();
        let plies = values.len().saturating_sub(1).max(1) as f64;
        let x = |i: usize| PAD + (W - 2.0 * PAD) * i as f64 / plies;
        let y = |v: i32| H / 2.0 - (H / 2.0 - PAD) * f64::from(v) / f64::from(CAP);
        let points: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
            .collect();
        let title = xml_escape(title);
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\">\n\
             <title>{title}</title>\n\
             <rect width=\"{W}\" height=\"{H}\" fill=\"#fbf7ef\"/>\n\
             <line x1=\"{PAD}\" y1=\"{mid}\" x2=\"{right}\" y2=\"{mid}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n\
             <polyline fill=\"none\" stroke=\"#b22222\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" "),
            mid = H / 2.0,
            right = W - PAD,
        );
        for (i, r) in self.moves.iter().enumerate() {
            if let Some(c) = r.verdict.class {
                let color = match c {
                    Class::Inaccuracy => "#f0a020",
                    Class::Mistake => "#e04040",
                    Class::Blunder => "#800000",
                };
                out.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{color}\"><title>{} {}: {}</title></circle>\n",
                    x(i + 1),
                    y(values[i + 1]),
                    i + 1,
                    r.played,
                    c.name()
                ));
            }
        }
        out.push_str(&format!(
            "<text x=\"{PAD}\" y=\"14\" font-size=\"12\" font-family=\"sans-serif\">{title} (Red up, +-{CAP} cp)</text>\n</svg>\n"
        ));
        out
    }
}

/// Text made safe inside SVG markup.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
