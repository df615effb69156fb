//! What a table says about a position.

use std::fmt;

/// Win, draw or loss for the side to move, as the tables give it ([`probe_wdl`](crate::Tablebases::probe_wdl)).
/// (The chances of each, per mille, are `xq_search::wdl::Wdl`.)
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableResult {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force mate.
    Draw,
    /// The side to move mates with best play.
    Win,
}

impl TableResult {
    /// 1 for a win, 0 for a draw, -1 for a loss (what python-chess's and the bindings'
    /// `probe_wdl` give).
    ///
    /// ```
    /// use xq_tablebase::TableResult;
    /// assert_eq!(TableResult::Loss.sign(), -1);
    /// ```
    pub fn sign(self) -> i32 {
        match self {
            TableResult::Loss => -1,
            TableResult::Draw => 0,
            TableResult::Win => 1,
        }
    }
}

impl fmt::Display for TableResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableResult::Loss => "loss",
            TableResult::Draw => "draw",
            TableResult::Win => "win",
        })
    }
}

/// The exact value of a position for the side to move: the result and the distance to
/// mate in plies with best play (the winner mates as fast as it can, the loser holds out
/// as long as it can). Under xq's rules a side with no legal move has lost, so
/// `Loss { plies: 0 }` is a position that is mate or stalemate.
///
/// ```
/// use xq_tablebase::{TableValue, TableResult};
/// let v = TableValue::Win { plies: 3 };
/// assert_eq!(v.result(), TableResult::Win);
/// assert_eq!(v.plies(), Some(3));
/// assert_eq!(v.to_string(), "win, mate in 3 plies");
/// // The value of a move that leads to a position worth `Loss { plies: 2 }` to the
/// // opponent:
/// assert_eq!(TableValue::Loss { plies: 2 }.for_mover(), TableValue::Win { plies: 3 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableValue {
    /// The side to move mates in `plies` (odd) plies.
    Win {
        /// Plies to mate, the mating move included.
        plies: u16,
    },
    /// A draw with best play.
    Draw,
    /// The side to move is mated in `plies` (even) plies.
    Loss {
        /// Plies to mate; 0 when the side to move has no legal move.
        plies: u16,
    },
    /// The side to move wins by the rules of perpetual check and chase: it cannot force
    /// mate, but the opponent avoids mate only by checking with every move, or by
    /// chasing one of the winner's pieces with every move, which the rules make a loss
    /// (the winner itself does neither). Only in tables where both sides have attacking
    /// pieces.
    RuleWin {
        /// The rule the win needs; `None` in a file of format version 3 or older, which
        /// does not record it.
        rule: Option<Rule>,
    },
    /// The side to move loses by the rules of perpetual check and chase: its only ways to
    /// avoid mate are a perpetual check or a perpetual chase.
    RuleLoss {
        /// The rule the loss comes from; `None` in a file of format version 3 or older.
        rule: Option<Rule>,
    },
}

/// Which rule of repetition decides a table's [`TableValue::RuleWin`] or
/// [`TableValue::RuleLoss`] (the same rules, in the same words, as the referee's
/// `xq_movegen::Termination::PerpetualCheck` and `PerpetualChase`).
///
/// ```
/// use xq_tablebase::{Rule, TableValue};
/// let v = TableValue::RuleWin { rule: Some(Rule::PerpetualChase) };
/// assert_eq!(v.rule(), Some(Rule::PerpetualChase));
/// assert_eq!(v.to_string(), "win by the perpetual-chase rule");
/// assert_eq!(Rule::PerpetualCheck.tag(), "perpetual-check");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// The loser avoids mate only by checking with every move, forever, and the winner
    /// needs no other rule (in this table, and in the smaller tables its captures lead
    /// to).
    PerpetualCheck,
    /// The winner needs the perpetual-chase rule: somewhere in the loser's best defence
    /// it avoids mate only by chasing one of the winner's pieces with every move, though
    /// it may be checking elsewhere (a win that perpetual check alone does not give).
    PerpetualChase,
}

impl Rule {
    /// A short tag for machines: `perpetual-check` or `perpetual-chase`, as
    /// `xq_movegen::Termination::tag` names the same rulings.
    pub const fn tag(self) -> &'static str {
        match self {
            Rule::PerpetualCheck => "perpetual-check",
            Rule::PerpetualChase => "perpetual-chase",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// "the perpetual-check rule", or "the perpetual check or chase rule" when the file did
/// not record which.
fn rule_words(rule: Option<Rule>) -> String {
    match rule {
        Some(r) => format!("the {r} rule"),
        None => "the perpetual check or chase rule".to_string(),
    }
}

/// The old name of [`TableResult`] (a `Wdl` is the chances of each result elsewhere).
#[deprecated(since = "0.2.0", note = "renamed TableResult")]
pub type Wdl = TableResult;

impl TableValue {
    /// The old name of [`TableValue::result`].
    #[deprecated(since = "0.2.0", note = "renamed result")]
    pub fn wdl(self) -> TableResult {
        self.result()
    }

    /// The old name of [`TableValue::describe`] ("verdict" is a move's judgement).
    #[deprecated(since = "0.2.0", note = "renamed describe")]
    pub fn verdict(self, halfmove_clock: u32) -> String {
        self.describe(halfmove_clock)
    }

    /// The result alone.
    pub fn result(self) -> TableResult {
        match self {
            TableValue::Win { .. } | TableValue::RuleWin { .. } => TableResult::Win,
            TableValue::Draw => TableResult::Draw,
            TableValue::Loss { .. } | TableValue::RuleLoss { .. } => TableResult::Loss,
        }
    }

    /// Plies to mate with a sign, as python-chess's `probe_dtm`: positive when the side
    /// to move mates, negative when it is mated, 0 for a draw; `None` for a result of the
    /// rules of perpetual check and chase, which has no distance.
    ///
    /// ```
    /// use xq_tablebase::TableValue;
    /// assert_eq!(TableValue::Loss { plies: 4 }.signed_plies(), Some(-4));
    /// assert_eq!(TableValue::RuleWin { rule: None }.signed_plies(), None);
    /// ```
    pub fn signed_plies(self) -> Option<i32> {
        match self {
            TableValue::Win { plies } => Some(i32::from(plies)),
            TableValue::Draw => Some(0),
            TableValue::Loss { plies } => Some(-i32::from(plies)),
            TableValue::RuleWin { .. } | TableValue::RuleLoss { .. } => None,
        }
    }

    /// Plies to mate, `None` for a draw and for a result of the rules of perpetual check
    /// and chase.
    pub fn plies(self) -> Option<u16> {
        match self {
            TableValue::Win { plies } | TableValue::Loss { plies } => Some(plies),
            TableValue::Draw | TableValue::RuleWin { .. } | TableValue::RuleLoss { .. } => None,
        }
    }

    /// Is this a result of the rules of perpetual check and chase
    /// ([`RuleWin`](TableValue::RuleWin) or [`RuleLoss`](TableValue::RuleLoss))?
    ///
    /// ```
    /// use xq_tablebase::TableValue;
    /// assert!(TableValue::RuleLoss { rule: None }.by_rule());
    /// assert!(!TableValue::Win { plies: 5 }.by_rule());
    /// ```
    pub fn by_rule(self) -> bool {
        matches!(
            self,
            TableValue::RuleWin { .. } | TableValue::RuleLoss { .. }
        )
    }

    /// The rule that decides a [`RuleWin`](TableValue::RuleWin) or
    /// [`RuleLoss`](TableValue::RuleLoss); `None` for every other value, and for a rule
    /// result read from a file of format version 3 or older, which does not record it.
    ///
    /// ```
    /// use xq_tablebase::{Rule, TableValue};
    /// let v = TableValue::RuleLoss { rule: Some(Rule::PerpetualCheck) };
    /// assert_eq!(v.rule(), Some(Rule::PerpetualCheck));
    /// assert_eq!(v.for_mover().rule(), Some(Rule::PerpetualCheck));
    /// assert_eq!(TableValue::Draw.rule(), None);
    /// ```
    pub fn rule(self) -> Option<Rule> {
        match self {
            TableValue::RuleWin { rule } | TableValue::RuleLoss { rule } => rule,
            _ => None,
        }
    }

    /// The distance in moves, as engines report a mate: `Some(n)` when the side to move
    /// mates in `n` moves, `Some(-n)` when it is mated in `n` (`Some(0)`: it has no legal
    /// move now), `None` for a draw or a result of the rules of perpetual check and chase.
    ///
    /// ```
    /// use xq_tablebase::TableValue::*;
    /// assert_eq!(Win { plies: 17 }.mate(), Some(9));
    /// assert_eq!(Loss { plies: 16 }.mate(), Some(-8));
    /// assert_eq!(Loss { plies: 0 }.mate(), Some(0));
    /// assert_eq!(Draw.mate(), None);
    /// ```
    pub fn mate(self) -> Option<i32> {
        match self {
            TableValue::Win { plies } => Some((i32::from(plies) + 1) / 2),
            TableValue::Loss { plies } => Some(-(i32::from(plies) / 2)),
            TableValue::Draw | TableValue::RuleWin { .. } | TableValue::RuleLoss { .. } => None,
        }
    }

    /// Whether the 120-ply rule (a draw after that many plies without a capture) comes
    /// before the mate, in a position whose no-capture count stands at `halfmove_clock`:
    /// the tables' win (or loss) is then a draw by the rule unless a capture comes first.
    ///
    /// ```
    /// use xq_tablebase::TableValue::*;
    /// assert!(!Win { plies: 21 }.beyond_rule(99));
    /// assert!(Win { plies: 23 }.beyond_rule(99));
    /// assert!(!Draw.beyond_rule(119));
    /// ```
    pub fn beyond_rule(self, halfmove_clock: u32) -> bool {
        self.plies().is_some_and(|p| {
            u32::from(p) + halfmove_clock > xq_movegen::rules::NO_CAPTURE_DRAW_PLIES
        })
    }

    /// The tables' result in words, in a position whose no-capture count stands at
    /// `halfmove_clock`, as `xq analyze` prints it.
    ///
    /// ```
    /// use xq_tablebase::TableValue::*;
    /// assert_eq!(Win { plies: 7 }.describe(0), "tablebase win, mate in 4 (7 plies)");
    /// assert_eq!(Loss { plies: 8 }.describe(0), "tablebase loss, mated in 4 (8 plies)");
    /// assert_eq!(
    ///     Win { plies: 23 }.describe(99),
    ///     "tablebase win, mate in 12 (23 plies; the 120-ply rule draws first unless a capture comes)"
    /// );
    /// assert_eq!(Draw.describe(0), "tablebase draw");
    /// assert_eq!(
    ///     RuleWin { rule: Some(xq_tablebase::Rule::PerpetualCheck) }.describe(0),
    ///     "tablebase win by the perpetual-check rule (no forced mate)"
    /// );
    /// assert_eq!(RuleWin { rule: None }.describe(0), "tablebase win by the perpetual check or chase rule (no forced mate)");
    /// ```
    pub fn describe(self, halfmove_clock: u32) -> String {
        let rule = if self.beyond_rule(halfmove_clock) {
            "; the 120-ply rule draws first unless a capture comes"
        } else {
            ""
        };
        match (self, self.mate()) {
            (TableValue::Loss { plies: 0 }, _) => "tablebase loss, no legal move".to_string(),
            (TableValue::Win { plies }, Some(n)) => {
                format!("tablebase win, mate in {n} ({plies} plies{rule})")
            }
            (TableValue::Loss { plies }, Some(n)) => {
                format!("tablebase loss, mated in {} ({plies} plies{rule})", -n)
            }
            (TableValue::RuleWin { rule }, _) => {
                format!("tablebase win by {} (no forced mate)", rule_words(rule))
            }
            (TableValue::RuleLoss { rule }, _) => {
                let only = match rule {
                    Some(Rule::PerpetualCheck) => "only perpetual checks avoid mate",
                    _ => "only perpetual checks or chases avoid mate",
                };
                format!("tablebase loss by {} ({only})", rule_words(rule))
            }
            _ => "tablebase draw".to_string(),
        }
    }

    /// What a WDL file keeps of this value ([`WdlValue`]): a mate in more than 120 plies
    /// is a long one.
    pub fn wdl_value(self) -> WdlValue {
        let long = self.beyond_rule(0);
        match self {
            TableValue::Win { .. } if long => WdlValue::LongWin,
            TableValue::Win { .. } => WdlValue::Win,
            TableValue::Loss { .. } if long => WdlValue::LongLoss,
            TableValue::Loss { .. } => WdlValue::Loss,
            TableValue::Draw => WdlValue::Draw,
            TableValue::RuleWin { rule } => WdlValue::RuleWin { rule },
            TableValue::RuleLoss { rule } => WdlValue::RuleLoss { rule },
        }
    }

    /// The value, for the side that moved, of a move that leads to a position worth
    /// `self` to its opponent.
    pub fn for_mover(self) -> TableValue {
        match self {
            TableValue::Win { plies } => TableValue::Loss { plies: plies + 1 },
            TableValue::Draw => TableValue::Draw,
            TableValue::Loss { plies } => TableValue::Win { plies: plies + 1 },
            TableValue::RuleWin { rule } => TableValue::RuleLoss { rule },
            TableValue::RuleLoss { rule } => TableValue::RuleWin { rule },
        }
    }

    /// Orders values from the side to move's point of view: a faster win is better, a
    /// longer loss is better; a forced mate is better than a win by the perpetual check or chase
    /// rule, and a loss by that rule (no forced mate) better than any mate against. The
    /// rule a rule result needs does not change its rank.
    ///
    /// ```
    /// use xq_tablebase::TableValue::*;
    /// let (rule_win, rule_loss) = (RuleWin { rule: None }, RuleLoss { rule: None });
    /// let mut v = [Loss { plies: 4 }, rule_loss, Win { plies: 9 }, Draw, rule_win, Win { plies: 3 }, Loss { plies: 10 }];
    /// v.sort_by_key(|x| std::cmp::Reverse(x.rank()));
    /// assert_eq!(v, [Win { plies: 3 }, Win { plies: 9 }, rule_win, Draw, rule_loss, Loss { plies: 10 }, Loss { plies: 4 }]);
    /// ```
    pub fn rank(self) -> i32 {
        match self {
            TableValue::Win { plies } => 100_000 - plies as i32,
            TableValue::RuleWin { .. } => 50_000,
            TableValue::Draw => 0,
            TableValue::RuleLoss { .. } => -50_000,
            TableValue::Loss { plies } => -100_000 + plies as i32,
        }
    }

    /// The stored code: 0 for no position, 1 for a draw, `2 + plies` for a mate (the
    /// parity of the plies tells a win from a loss), and from [`CODE_FIRST_RULE`] up the
    /// results of the rules of perpetual check and chase ([`rule_code`]).
    pub(crate) fn from_code(code: u16) -> Option<TableValue> {
        match code {
            0 => None,
            1 => Some(TableValue::Draw),
            CODE_CHECK_LOSS => Some(TableValue::RuleLoss {
                rule: Some(Rule::PerpetualCheck),
            }),
            CODE_CHECK_WIN => Some(TableValue::RuleWin {
                rule: Some(Rule::PerpetualCheck),
            }),
            CODE_CHASE_LOSS => Some(TableValue::RuleLoss {
                rule: Some(Rule::PerpetualChase),
            }),
            CODE_CHASE_WIN => Some(TableValue::RuleWin {
                rule: Some(Rule::PerpetualChase),
            }),
            CODE_RULE_LOSS => Some(TableValue::RuleLoss { rule: None }),
            CODE_RULE_WIN => Some(TableValue::RuleWin { rule: None }),
            c => {
                let plies = c - 2;
                Some(if plies % 2 == 1 {
                    TableValue::Win { plies }
                } else {
                    TableValue::Loss { plies }
                })
            }
        }
    }
}

/// What a WDL file ([`write_wdl`](crate::write_wdl)) keeps of a position: the result for
/// the side to move, whether the rules of perpetual check and chase decide it and which
/// rule, and whether a mate comes within the 120-ply rule's limit counted from a capture
/// (where the search probes). Ordered from the side to move's point of view, worst first,
/// as a search that probes just after a capture ranks them: a long mate is nearly a draw
/// (the 120-ply rule draws first unless another capture comes), so it ranks between the
/// rules' results and the draw. Among the rules' results the order by rule means nothing
/// for play (a win is a win); it only makes the order total.
///
/// ```
/// use xq_tablebase::{Rule, TableResult, TableValue, WdlValue};
/// assert_eq!(TableValue::Win { plies: 9 }.wdl_value(), WdlValue::Win);
/// assert_eq!(TableValue::Loss { plies: 130 }.wdl_value(), WdlValue::LongLoss);
/// let chase = WdlValue::RuleWin { rule: Some(Rule::PerpetualChase) };
/// assert_eq!(chase.result(), TableResult::Win);
/// assert_eq!(chase.rule(), Some(Rule::PerpetualChase));
/// assert_eq!(chase.to_string(), "win by the perpetual-chase rule");
/// assert!(WdlValue::RuleLoss { rule: None } < WdlValue::LongLoss);
/// assert_eq!(WdlValue::LongWin.to_string(), "win, mate in more than 120 plies");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WdlValue {
    /// The side to move is mated within 120 plies.
    Loss,
    /// The side to move loses by the rules of perpetual check and chase
    /// ([`TableValue::RuleLoss`]).
    RuleLoss {
        /// The rule the loss comes from; `None` where the file does not record it (a WDL
        /// file of format version 4 or older, a table of version 3).
        rule: Option<Rule>,
    },
    /// The side to move is mated, in more than 120 plies.
    LongLoss,
    /// A draw with best play.
    Draw,
    /// The side to move mates, in more than 120 plies.
    LongWin,
    /// The side to move wins by the rules of perpetual check and chase
    /// ([`TableValue::RuleWin`]).
    RuleWin {
        /// The rule the win needs; `None` where the file does not record it.
        rule: Option<Rule>,
    },
    /// The side to move mates within 120 plies.
    Win,
}

impl WdlValue {
    /// Every value in the order of the bytes that store them: index `i` is stored as the
    /// byte `i`. Bytes `0` to `6` are the values of versions 3 and 4, worst first, with
    /// the rules' results not saying which rule; from version 5, bytes `7` to `10` are
    /// the rules' results that say it.
    pub(crate) const ALL: [WdlValue; 11] = [
        WdlValue::Loss,
        WdlValue::RuleLoss { rule: None },
        WdlValue::LongLoss,
        WdlValue::Draw,
        WdlValue::LongWin,
        WdlValue::RuleWin { rule: None },
        WdlValue::Win,
        WdlValue::RuleLoss {
            rule: Some(Rule::PerpetualCheck),
        },
        WdlValue::RuleLoss {
            rule: Some(Rule::PerpetualChase),
        },
        WdlValue::RuleWin {
            rule: Some(Rule::PerpetualCheck),
        },
        WdlValue::RuleWin {
            rule: Some(Rule::PerpetualChase),
        },
    ];

    /// How many of [`ALL`](WdlValue::ALL)'s values a WDL file of versions 3 and 4 can
    /// hold.
    pub(crate) const BEFORE_RULES: usize = 7;

    /// The result alone.
    pub fn result(self) -> TableResult {
        match self {
            WdlValue::Loss | WdlValue::RuleLoss { .. } | WdlValue::LongLoss => TableResult::Loss,
            WdlValue::Draw => TableResult::Draw,
            WdlValue::LongWin | WdlValue::RuleWin { .. } | WdlValue::Win => TableResult::Win,
        }
    }

    /// Is this a result of the rules of perpetual check and chase?
    pub fn by_rule(self) -> bool {
        matches!(self, WdlValue::RuleWin { .. } | WdlValue::RuleLoss { .. })
    }

    /// The rule that decides a result of the rules of perpetual check and chase; `None`
    /// for any other value, and for a rule result of a WDL file of format version 4 or
    /// older (see [`TableValue::rule`]).
    pub fn rule(self) -> Option<Rule> {
        match self {
            WdlValue::RuleWin { rule } | WdlValue::RuleLoss { rule } => rule,
            _ => None,
        }
    }

    /// The value in words, as [`TableValue::describe`] gives a distance file's (a rule
    /// result in the same words; a mate without its distance, which a WDL file does not
    /// keep).
    ///
    /// ```
    /// use xq_tablebase::{Rule, WdlValue};
    /// assert_eq!(WdlValue::Win.describe(), "tablebase win, mate within 120 plies");
    /// assert_eq!(
    ///     WdlValue::RuleLoss { rule: Some(Rule::PerpetualChase) }.describe(),
    ///     "tablebase loss by the perpetual-chase rule (only perpetual checks or chases avoid mate)"
    /// );
    /// ```
    pub fn describe(self) -> String {
        match self {
            WdlValue::RuleWin { rule } => TableValue::RuleWin { rule }.describe(0),
            WdlValue::RuleLoss { rule } => TableValue::RuleLoss { rule }.describe(0),
            v => format!("tablebase {v}"),
        }
    }

    /// The value as a WDL file before version 5 stores it: a rule result without its
    /// rule.
    pub(crate) fn without_rule(self) -> WdlValue {
        match self {
            WdlValue::RuleWin { .. } => WdlValue::RuleWin { rule: None },
            WdlValue::RuleLoss { .. } => WdlValue::RuleLoss { rule: None },
            v => v,
        }
    }

    /// The byte a WDL file stores.
    pub(crate) fn byte(self) -> u8 {
        use Rule::{PerpetualChase as Chase, PerpetualCheck as Check};
        match self {
            WdlValue::Loss => 0,
            WdlValue::RuleLoss { rule: None } => 1,
            WdlValue::LongLoss => 2,
            WdlValue::Draw => 3,
            WdlValue::LongWin => 4,
            WdlValue::RuleWin { rule: None } => 5,
            WdlValue::Win => 6,
            WdlValue::RuleLoss { rule: Some(Check) } => 7,
            WdlValue::RuleLoss { rule: Some(Chase) } => 8,
            WdlValue::RuleWin { rule: Some(Check) } => 9,
            WdlValue::RuleWin { rule: Some(Chase) } => 10,
        }
    }

    /// The value of a stored byte, `None` for a byte no value has.
    pub(crate) fn from_byte(b: u8) -> Option<WdlValue> {
        WdlValue::ALL.get(usize::from(b)).copied()
    }
}

impl fmt::Display for WdlValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WdlValue::Loss => f.write_str("loss, mated within 120 plies"),
            WdlValue::RuleLoss { rule } => write!(f, "loss by {}", rule_words(*rule)),
            WdlValue::LongLoss => f.write_str("loss, mated in more than 120 plies"),
            WdlValue::Draw => f.write_str("draw"),
            WdlValue::LongWin => f.write_str("win, mate in more than 120 plies"),
            WdlValue::RuleWin { rule } => write!(f, "win by {}", rule_words(*rule)),
            WdlValue::Win => f.write_str("win, mate within 120 plies"),
        }
    }
}

/// The codes of the rules' results, from the lowest: a loss, then a win, by perpetual
/// chase, by perpetual check, and by a rule a file of version 3 did not record. A
/// one-byte value stores the code's low byte (250 to 255; in versions 1 to 3 only 254
/// and 255 were rule codes).
pub(crate) const CODE_FIRST_RULE: u16 = 0xfffa;
pub(crate) const CODE_CHASE_LOSS: u16 = 0xfffa;
pub(crate) const CODE_CHASE_WIN: u16 = 0xfffb;
pub(crate) const CODE_CHECK_LOSS: u16 = 0xfffc;
pub(crate) const CODE_CHECK_WIN: u16 = 0xfffd;
pub(crate) const CODE_RULE_LOSS: u16 = 0xfffe;
pub(crate) const CODE_RULE_WIN: u16 = 0xffff;

/// The code of a win (`win`) or loss by `rule`.
pub(crate) fn rule_code(rule: Rule, win: bool) -> u16 {
    match (rule, win) {
        (Rule::PerpetualChase, false) => CODE_CHASE_LOSS,
        (Rule::PerpetualChase, true) => CODE_CHASE_WIN,
        (Rule::PerpetualCheck, false) => CODE_CHECK_LOSS,
        (Rule::PerpetualCheck, true) => CODE_CHECK_WIN,
    }
}

impl fmt::Display for TableValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableValue::Win { plies: 1 } => f.write_str("win, mate in 1 ply"),
            TableValue::Win { plies } => write!(f, "win, mate in {plies} plies"),
            TableValue::Draw => f.write_str("draw"),
            TableValue::Loss { plies: 0 } => f.write_str("loss, no legal move"),
            TableValue::Loss { plies } => write!(f, "loss, mated in {plies} plies"),
            TableValue::RuleWin { rule } => write!(f, "win by {}", rule_words(*rule)),
            TableValue::RuleLoss { rule } => write!(f, "loss by {}", rule_words(*rule)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every WDL value has its own byte, and the byte reads back as the value.
    #[test]
    fn each_wdl_value_has_its_byte() {
        for (i, v) in WdlValue::ALL.iter().enumerate() {
            assert_eq!(usize::from(v.byte()), i, "{v:?}");
            assert_eq!(WdlValue::from_byte(v.byte()), Some(*v));
        }
        assert_eq!(WdlValue::from_byte(WdlValue::ALL.len() as u8), None);
        // The bytes of versions 3 and 4 do not say the rule.
        assert!(WdlValue::ALL[..WdlValue::BEFORE_RULES]
            .iter()
            .all(|v| v.rule().is_none() && *v == v.without_rule()));
        assert!(WdlValue::ALL[WdlValue::BEFORE_RULES..]
            .iter()
            .all(|v| v.rule().is_some()));
    }
}
