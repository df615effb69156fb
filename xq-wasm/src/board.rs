//! `Board`: a game for JavaScript, as python-chess's `Board` and the Python package's:
//! FEN, legal moves, push and pop, check, the outcome by the whole rules, notation.

use crate::js_error;
use wasm_bindgen::prelude::*;
use xq_core::{Color, Ignore, Move, Position, Square};
use xq_movegen::notation::{read_move, write_line, write_move};
use xq_movegen::{gives_check, is_legal, legal_moves, Game, Termination};

/// A game: the start position, the moves played since, and the position they lead to.
/// Moves cross into JavaScript as ICCS strings (`"h2e2"`), squares as ICCS squares
/// (`"e0"`), pieces as FEN letters (`"R"` a red chariot, `"c"` a black cannon).
///
/// ```js
/// const board = new Board();            // the start; new Board(fen) for another
/// board.push("h2e2");                   // ICCS
/// board.pushNotation("马8进7");          // any notation: returns "h9g7"
/// board.notation("h0g2", "wxf");        // "H2+3"
/// board.outcome();                      // undefined while the game goes on
/// ```
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Board {
    game: Game,
}

/// How a game ended: the result and the rule that decided it.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    inner: xq_movegen::Outcome,
}

fn color_name(c: Color) -> String {
    c.to_string()
}

fn parse_move(text: &str) -> Result<Move, JsError> {
    text.trim().parse::<Move>().map_err(js_error)
}

fn parse_square(text: &str) -> Result<Square, JsError> {
    text.trim().parse::<Square>().map_err(js_error)
}

impl Board {
    /// A board over `game`.
    pub fn from_game(game: Game) -> Board {
        Board { game }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn pos(&self) -> &Position {
        self.game.position()
    }
}

/// The position errors a board ignores: none unless `strict` is false.
fn ignore(strict: Option<bool>) -> Ignore {
    if strict == Some(false) {
        Ignore::PLAYABLE
    } else {
        Ignore::NOTHING
    }
}

#[wasm_bindgen]
impl Board {
    /// A board from `fen` (the start position when omitted). With `strict` false, a
    /// composed position no game can reach but that can be played (a soldier behind its
    /// start, as mate problems place them) is taken too; [`Board::irregularities`] says
    /// what is unusual about it.
    ///
    /// # Errors
    /// A bad FEN: an `Error` that says what is wrong with it.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>, strict: Option<bool>) -> Result<Board, JsError> {
        let pos = match fen {
            Some(f) => Position::from_fen_with(f.trim(), ignore(strict)).map_err(js_error)?,
            None => Position::startpos(),
        };
        Ok(Board {
            game: Game::new(pos),
        })
    }

    /// What is unusual about the start position: pieces where no game could bring them
    /// (`'P' can never stand on i0`); empty for a position a game can reach.
    pub fn irregularities(&self) -> Vec<String> {
        self.game
            .start()
            .irregularities()
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.pos().to_fen()
    }

    /// The FEN of the start position (before the moves of [`Board::moves`]).
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start().to_fen()
    }

    /// Sets up `fen`, forgetting the moves (`strict` as for the constructor).
    ///
    /// # Errors
    /// A bad FEN; the board is then unchanged.
    #[wasm_bindgen(js_name = setFen)]
    pub fn set_fen(&mut self, fen: &str, strict: Option<bool>) -> Result<(), JsError> {
        let pos = Position::from_fen_with(fen.trim(), ignore(strict)).map_err(js_error)?;
        self.game = Game::new(pos);
        Ok(())
    }

    /// Back to the standard start, no moves.
    pub fn reset(&mut self) {
        self.game = Game::startpos();
    }

    /// The side to move: `"red"` or `"black"`.
    #[wasm_bindgen(getter)]
    pub fn turn(&self) -> String {
        color_name(self.pos().side_to_move())
    }

    /// Plies since the last capture, as the FEN counts them.
    #[wasm_bindgen(getter, js_name = halfmoveClock)]
    pub fn halfmove_clock(&self) -> u32 {
        self.pos().halfmove_clock()
    }

    /// The move number, as the FEN counts it.
    #[wasm_bindgen(getter, js_name = fullmoveNumber)]
    pub fn fullmove_number(&self) -> u32 {
        self.pos().fullmove_number()
    }

    /// The legal moves, ICCS.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        legal_moves(self.pos())
            .iter()
            .map(Move::to_string)
            .collect()
    }

    /// The legal moves of the piece on `square` (ICCS), none for an empty square or a
    /// piece of the side not to move.
    ///
    /// # Errors
    /// A malformed square.
    #[wasm_bindgen(js_name = legalMovesFrom)]
    pub fn legal_moves_from(&self, square: &str) -> Result<Vec<String>, JsError> {
        let sq = parse_square(square)?;
        Ok(legal_moves(self.pos())
            .iter()
            .filter(|m| m.from() == sq)
            .map(Move::to_string)
            .collect())
    }

    /// Is the ICCS move `move` legal here? (`false` for malformed text too.)
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, r#move: &str) -> bool {
        parse_move(r#move).is_ok_and(|m| is_legal(self.pos(), m))
    }

    /// Does the legal move `move` capture?
    ///
    /// # Errors
    /// A malformed or illegal move.
    #[wasm_bindgen(js_name = isCapture)]
    pub fn is_capture(&self, r#move: &str) -> Result<bool, JsError> {
        let m = self.legal(r#move)?;
        Ok(!self.pos().is_empty(m.to()))
    }

    /// Does the legal move `move` give check?
    ///
    /// # Errors
    /// A malformed or illegal move.
    #[wasm_bindgen(js_name = givesCheck)]
    pub fn gives_check(&self, r#move: &str) -> Result<bool, JsError> {
        let m = self.legal(r#move)?;
        Ok(gives_check(self.pos(), m))
    }

    fn legal(&self, text: &str) -> Result<Move, JsError> {
        let m = parse_move(text)?;
        let mut pos = self.pos().clone();
        xq_movegen::try_play(&mut pos, m).map_err(js_error)?;
        Ok(m)
    }

    /// Plays the ICCS move `move`.
    ///
    /// # Errors
    /// A malformed or illegal move (the error says why); the board is then unchanged.
    pub fn push(&mut self, r#move: &str) -> Result<(), JsError> {
        let m = parse_move(r#move)?;
        self.game.play(m).map_err(js_error)
    }

    /// Plays a move written in any notation (ICCS `h2e2`, WXF `C2=5`, Chinese `炮二平五`)
    /// and returns it in ICCS.
    ///
    /// # Errors
    /// Text that names no legal move; the board is then unchanged.
    #[wasm_bindgen(js_name = pushNotation)]
    pub fn push_notation(&mut self, text: &str) -> Result<String, JsError> {
        let m = read_move(self.pos(), text).map_err(js_error)?;
        self.game.play(m).map_err(js_error)?;
        Ok(m.to_string())
    }

    /// Reads a move written in any notation and returns it in ICCS, without playing it.
    ///
    /// # Errors
    /// Text that names no legal move.
    #[wasm_bindgen(js_name = parseMove)]
    pub fn parse_move(&self, text: &str) -> Result<String, JsError> {
        read_move(self.pos(), text)
            .map(|m| m.to_string())
            .map_err(js_error)
    }

    /// Takes the last move back and returns it.
    ///
    /// # Errors
    /// No move to take back.
    pub fn pop(&mut self) -> Result<String, JsError> {
        self.game
            .pop()
            .map(|m| m.to_string())
            .ok_or_else(|| JsError::new("no move to take back"))
    }

    /// The last move, if any.
    pub fn peek(&self) -> Option<String> {
        self.game.moves().last().map(Move::to_string)
    }

    /// The moves played from the start position, ICCS.
    pub fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The legal move `move` (ICCS) written in `notation` (`"chinese"` when omitted,
    /// `"chinese-traditional"`, `"wxf"`, `"iccs"`).
    ///
    /// # Errors
    /// A malformed or illegal move, or an unknown notation.
    pub fn notation(&self, r#move: &str, notation: Option<String>) -> Result<String, JsError> {
        let n = crate::notation(notation.as_deref().unwrap_or("chinese"))?;
        write_move(self.pos(), parse_move(r#move)?, n).map_err(js_error)
    }

    /// A line of ICCS moves from here (an engine's `pv`) written in `notation`.
    ///
    /// # Errors
    /// A malformed move, one that is illegal where it is played, or an unknown notation.
    #[wasm_bindgen(js_name = lineNotation)]
    pub fn line_notation(
        &self,
        moves: Vec<String>,
        notation: Option<String>,
    ) -> Result<Vec<String>, JsError> {
        let n = crate::notation(notation.as_deref().unwrap_or("chinese"))?;
        let line = moves
            .iter()
            .map(|m| parse_move(m))
            .collect::<Result<Vec<_>, _>>()?;
        write_line(self.pos(), &line, n).map_err(js_error)
    }

    /// The moves played, from the start, written in `notation`.
    ///
    /// # Errors
    /// An unknown notation.
    #[wasm_bindgen(js_name = movesNotation)]
    pub fn moves_notation(&self, notation: Option<String>) -> Result<Vec<String>, JsError> {
        let n = crate::notation(notation.as_deref().unwrap_or("chinese"))?;
        write_line(self.game.start(), self.game.moves(), n).map_err(js_error)
    }

    /// The piece on `square` as a FEN letter (`"R"`, `"c"`), `undefined` when empty.
    ///
    /// # Errors
    /// A malformed square.
    #[wasm_bindgen(js_name = pieceAt)]
    pub fn piece_at(&self, square: &str) -> Result<Option<String>, JsError> {
        let sq = parse_square(square)?;
        Ok(self.pos().piece_on(sq).map(|p| p.to_char().to_string()))
    }

    /// Is the side to move in check?
    #[wasm_bindgen(js_name = isCheck)]
    pub fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Is the side to move checkmated?
    #[wasm_bindgen(js_name = isCheckmate)]
    pub fn is_checkmate(&self) -> bool {
        self.pos().is_check() && legal_moves(self.pos()).is_empty()
    }

    /// Has the side to move no legal move without being in check (a loss in Xiangqi)?
    #[wasm_bindgen(js_name = isStalemate)]
    pub fn is_stalemate(&self) -> bool {
        !self.pos().is_check() && legal_moves(self.pos()).is_empty()
    }

    /// Is the game over by any rule?
    #[wasm_bindgen(js_name = isGameOver)]
    pub fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// How the game ended by the whole rules (mate, stalemate, perpetual check or chase,
    /// repetition, the 60-move rule, insufficient material), `undefined` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|inner| Outcome { inner })
    }

    /// The result token: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the game goes on.
    pub fn result(&self) -> String {
        self.game
            .outcome()
            .map_or("*", |o| o.result.token())
            .to_string()
    }

    /// Counts the legal move tree `depth` plies deep from the current position.
    pub fn perft(&self, depth: u32) -> f64 {
        xq_perft::perft(&mut self.pos().clone(), depth) as f64
    }

    /// A copy of the board (with its moves).
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> Board {
        self.clone()
    }

    /// The game as PGN in `notation` (Chinese when omitted), with the result if it is
    /// over.
    ///
    /// # Errors
    /// An unknown notation.
    #[wasm_bindgen(js_name = toPgn)]
    pub fn to_pgn(&self, notation: Option<String>) -> Result<String, JsError> {
        let mut record = xq_records::Record::from_game(&self.game);
        record.result = self.game.outcome().map(|o| o.result);
        let n = crate::notation(notation.as_deref().unwrap_or("chinese"))?;
        xq_records::pgn::write(&record, &xq_records::pgn::WriteOptions { notation: n })
            .map_err(js_error)
    }
}

#[wasm_bindgen]
impl Outcome {
    /// `"1-0"` (Red won), `"0-1"` (Black won) or `"1/2-1/2"`.
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.inner.result.token().to_string()
    }

    /// `"red"`, `"black"`, or `undefined` for a draw.
    #[wasm_bindgen(getter)]
    pub fn winner(&self) -> Option<String> {
        self.inner.winner().map(color_name)
    }

    /// The rule as a tag: `checkmate`, `stalemate`, `perpetual-check`, `perpetual-chase`,
    /// `repetition`, `60-move-rule`, `insufficient-material`.
    #[wasm_bindgen(getter)]
    pub fn termination(&self) -> String {
        self.inner.termination.tag().to_string()
    }

    /// The rule in words: `perpetual chase by red of the black horse on b7`.
    #[wasm_bindgen(getter, js_name = terminationText)]
    pub fn termination_text(&self) -> String {
        self.inner.termination.to_string()
    }

    /// For a perpetual check or chase, the side that did it.
    #[wasm_bindgen(getter)]
    pub fn by(&self) -> Option<String> {
        match self.inner.termination {
            Termination::PerpetualCheck { by } | Termination::PerpetualChase { by, .. } => {
                Some(color_name(by))
            }
            _ => None,
        }
    }

    /// For a perpetual chase, the chased piece (a FEN letter) and its square.
    #[wasm_bindgen(getter)]
    pub fn chased(&self) -> Option<String> {
        match self.inner.termination {
            Termination::PerpetualChase { piece, square, .. } => {
                Some(format!("{}{}", piece.to_char(), square))
            }
            _ => None,
        }
    }

    /// The result and the rule in words: `0-1 perpetual chase by red of the black horse
    /// on b7`.
    #[wasm_bindgen(js_name = toString)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_plays_and_takes_back() {
        let mut b = Board::new(None, None).unwrap();
        assert_eq!(b.legal_moves().len(), 44);
        b.push("h2e2").unwrap();
        assert_eq!(b.push_notation("马8进7").unwrap(), "h9g7");
        assert_eq!(b.notation("h0g2", Some("wxf".into())).unwrap(), "H2+3");
        assert_eq!(b.moves_notation(None).unwrap(), ["炮二平五", "马8进7"]);
        assert_eq!(b.pop().unwrap(), "h9g7");
        assert_eq!(b.turn(), "black");
        let mut from = b.legal_moves_from("h9").unwrap();
        from.sort();
        assert_eq!(from, ["h9g7", "h9i7"]);
        assert_eq!(b.piece_at("e2").unwrap().as_deref(), Some("C"));
        assert_eq!(Board::new(None, None).unwrap().perft(2), 1920.0);
    }

    #[test]
    fn mate_is_an_outcome_in_words() {
        // Host tests take only the paths without an error: a `JsError` needs a JavaScript
        // engine (the Node tests check the errors).
        let b = Board::new(Some("R3k4/1R7/9/9/9/9/9/9/9/3K5 b".into()), None).unwrap();
        let o = b.outcome().unwrap();
        assert_eq!(
            (o.result(), o.termination()),
            ("1-0".into(), "checkmate".into())
        );
        assert_eq!(o.text(), "1-0 checkmate");
        assert!(b.is_checkmate());
    }

    #[test]
    fn a_composed_position_only_when_not_strict() {
        // (The strict refusal is an `Error` that only a JavaScript host can make: the
        // Node tests check it.)
        let fen = "4k4/9/9/9/9/9/9/9/9/3K4P w";
        let b = Board::new(Some(fen.into()), Some(false)).unwrap();
        assert_eq!(b.irregularities(), ["'P' can never stand on i0"]);
        assert!(Board::new(None, None).unwrap().irregularities().is_empty());
    }
}
