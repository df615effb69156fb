//! The search's margins, depth limits and reductions in one place (Viridithas' `Config`),
//! so that a tuner can reach each of them by name.
//!
//! ```
//! use xq_search::{SearchParams, Searcher};
//! let mut params = SearchParams::default();
//! assert_eq!(params.get("rfp_margin"), Some(95));
//! params.set("rfp_margin", 90).unwrap();
//! assert!(params.set("no_such_thing", 1).is_err());
//! let mut searcher = Searcher::new(16);
//! searcher.set_params(params);
//! ```

use std::fmt;

/// Declares [`SearchParams`] from one list (each field's doc, name and default), so that
/// the struct, its `Default`, `NAMES`, `get` and `set` cannot drift apart.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])+ $name:ident: $default:expr,)+) => {
        /// The search's margins, depth limits and reductions: every number the pruning,
        /// the reductions, the extensions, the aspiration windows, the history and the
        /// correction history use. [`SearchParams::default`] is the engine as it plays.
        ///
        /// Depths and plies are in plies, margins and evaluations in centipawns. The
        /// values are not checked: a divisor of 0, or a maximum below 0, makes the search
        /// panic; other values only make it weaker or stronger. A tuner reaches each
        /// field by name: [`NAMES`](SearchParams::NAMES), [`get`](SearchParams::get),
        /// [`set`](SearchParams::set); [`Searcher::set_params`](crate::Searcher::set_params)
        /// hands them to a searcher.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(
                $(#[doc = $doc])+
                #[doc = ""]
                #[doc = concat!("Default: ", stringify!($default), ".")]
                pub $name: i32,
            )+
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams {
                    $($name: $default,)+
                }
            }
        }

        impl SearchParams {
            /// The name of every parameter (its field's name), in the order declared.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name),)+];

            /// The value of the parameter `name`, `None` if there is none of that name.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)+
                    _ => None,
                }
            }

            /// Sets the parameter `name` to `value`.
            ///
            /// # Errors
            /// [`UnknownParam`] if there is no parameter of that name (nothing changes).
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), UnknownParam> {
                match name {
                    $(stringify!($name) => self.$name = value,)+
                    _ => {
                        return Err(UnknownParam {
                            name: name.to_string(),
                        })
                    }
                }
                Ok(())
            }
        }
    };
}

search_params! {
    // Aspiration windows, at the root.
    /// Iterations from this depth on search an aspiration window around the last
    /// iteration's value (shallower ones search the whole window). Plies.
    aspiration_depth: 5,
    /// The first window reaches this far on either side of the last value. Centipawns.
    aspiration_window: 35,
    /// After each fail the window's reach grows by itself divided by this, plus
    /// `aspiration_widen_add`.
    aspiration_widen_divisor: 2,
    /// See `aspiration_widen_divisor`. Centipawns.
    aspiration_widen_add: 10,
    /// Once the window's reach passes this, the window opens fully. Centipawns.
    aspiration_max: 1000,
    /// A stopped iteration's best move replaces the last completed iteration's when its
    /// value is more than the completed value less this (or it is the same move).
    /// Centipawns.
    unfinished_iteration_margin: 30,

    // The transposition table.
    /// No table cutoff once the no-capture count is within this many plies of the
    /// 60-move rule: the rule may turn a stored value into a draw a few plies on. Plies.
    tt_rule_margin: 10,

    // Internal iterative reduction.
    /// A node without a table move, at this depth or more (the root aside), is searched
    /// one ply shallower. Plies.
    iir_depth: 4,

    // Reverse futility pruning (static null move).
    /// Reverse futility pruning up to this depth. Plies.
    rfp_depth: 7,
    /// A node whose static evaluation beats beta by this much per ply of depth returns
    /// it. Centipawns per ply.
    rfp_margin: 95,
    /// The reverse futility margin is this much smaller when the static evaluation is
    /// improving. Centipawns.
    rfp_improving: 60,
    /// No reverse futility pruning when the side to move has fewer than this many
    /// chariots, horses and cannons (a side without them hid mates against it). Pieces.
    rfp_min_majors: 1,

    // Razoring.
    /// Razoring up to this depth. Plies.
    razor_depth: 3,
    /// A node whose static evaluation plus this plus `razor_scale` · depth² is still
    /// below alpha asks quiescence, and believes it if it cannot reach alpha.
    /// Centipawns.
    razor_base: 300,
    /// See `razor_base`. Centipawns per ply squared.
    razor_scale: 150,

    // Null-move pruning.
    /// Null-move pruning from this depth on. Plies.
    nmp_depth: 3,
    /// The null move's reduction is this, plus a ply per `nmp_depth_divisor` plies of
    /// depth, plus a ply per `nmp_eval_divisor` centipawns the static evaluation beats
    /// beta by (at most `nmp_eval_max` of those). Plies.
    nmp_base: 3,
    /// See `nmp_base`. Plies.
    nmp_depth_divisor: 4,
    /// See `nmp_base`. Centipawns.
    nmp_eval_divisor: 200,
    /// See `nmp_base`. Plies.
    nmp_eval_max: 3,
    /// A null move's cutoff is verified by a reduced search of the real moves (Xiangqi
    /// endgames have zugzwang) from this depth on, and at any depth when the side to
    /// move has fewer than `nmp_trusted_majors` chariots, horses and cannons. Plies.
    nmp_verify_depth: 12,
    /// See `nmp_verify_depth`. Pieces.
    nmp_trusted_majors: 2,

    // Extensions.
    /// Check and singular extensions only at plies below this (half of
    /// [`MAX_PLY`](crate::score::MAX_PLY)), so that extensions cannot run the search to
    /// its deepest ply. Plies from the root.
    extension_max_ply: 64,
    /// Singular extensions from this depth on. Plies.
    singular_depth: 8,
    /// A singular extension needs the table's entry to be at most this much shallower
    /// than the node. Plies.
    singular_tt_depth: 3,
    /// The other moves are searched against the table's value less this much per ply of
    /// depth. Centipawns per ply.
    singular_margin: 2,
    /// The other moves are searched to (depth − 1) divided by this.
    singular_depth_divisor: 2,

    // Pruning of moves near the leaves.
    /// Late move pruning, futility pruning and static-exchange pruning of moves up to
    /// this depth. Plies.
    prune_depth: 8,
    /// Late move pruning: past this plus depth² quiet moves (half as many when the
    /// static evaluation is not improving) the rest are pruned. Moves.
    lmp_base: 3,
    /// Futility pruning of quiet moves up to this reduced depth (the depth the late
    /// move reduction would leave). Plies.
    futility_depth: 6,
    /// A quiet move is futile when the static evaluation plus this plus
    /// `futility_scale` per ply of reduced depth is at most alpha. Centipawns.
    futility_base: 100,
    /// See `futility_base`. Centipawns per ply.
    futility_scale: 120,
    /// A quiet move is pruned when its static exchange loses more than this times the
    /// reduced depth squared. Centipawns per ply squared.
    see_quiet_margin: 30,
    /// Static-exchange pruning of losing captures up to this depth. Plies.
    see_capture_depth: 6,
    /// A losing capture is pruned when its static exchange loses more than this per ply
    /// of depth. Centipawns per ply.
    see_capture_margin: 200,

    // Late move reductions.
    /// The reduction of the i-th move at depth d is
    /// `lmr_base / 100 + ln d · ln i / (lmr_divisor / 100)` plies, rounded down.
    /// Hundredths of a ply.
    lmr_base: 75,
    /// See `lmr_base`. Hundredths.
    lmr_divisor: 225,
    /// Late move reductions from this depth on. Plies.
    lmr_depth: 3,
    /// Late move reductions for the moves from this index on (the first move is 0).
    lmr_moves: 3,
    /// The reduction is this much less at a PV node. Plies.
    lmr_pv: 1,
    /// The reduction is this much less for a killer move. Plies.
    lmr_killer: 1,
    /// The reduction is this many plies less per 65,536 units of history (more for a
    /// negative history): a fixed power-of-two denominator and a tunable numerator, as
    /// Stockfish writes it (a divisor read at run time is a hardware division at every
    /// reduced move). Plies per 65,536 history units.
    lmr_history_weight: 8,

    // Move-ordering history.
    /// The history bonus of a move that cut off at depth d is
    /// `history_bonus_scale` · d − `history_bonus_offset`, from 0 up to
    /// `history_bonus_max`; the moves tried before it lose as much. History units per
    /// ply.
    history_bonus_scale: 150,
    /// See `history_bonus_scale`. History units.
    history_bonus_offset: 100,
    /// See `history_bonus_scale`. History units.
    history_bonus_max: 1500,

    // Correction history.
    /// The correction of a static evaluation is this times the structure entry, plus
    /// `corr_pieces_weight` times each side's pieces entry, in 96ths (entries reach
    /// ±1024). The denominator is fixed, so that no hardware division is made at every
    /// node; 96ths give the weights tried before (1/16, 1/24, 1/32) exactly. 96ths of a
    /// centipawn per entry unit.
    corr_structure_weight: 8,
    /// See `corr_structure_weight`.
    corr_pieces_weight: 4,
    /// A node's error (its result less its corrected static evaluation) times its
    /// depth, divided by this and bounded by `corr_update_max`, moves its correction
    /// entries.
    corr_update_divisor: 8,
    /// See `corr_update_divisor`. Entry units.
    corr_update_max: 256,

    // Quiescence.
    /// Delta pruning: a capture is not searched when the stand-pat value plus its
    /// victim's value plus this cannot reach alpha. Centipawns.
    delta_margin: 200,
}

impl SearchParams {
    /// Reverse futility pruning's margin at `depth`.
    #[inline]
    pub(crate) fn rfp_margin(&self, depth: i32, improving: bool) -> i32 {
        self.rfp_margin * depth - if improving { self.rfp_improving } else { 0 }
    }

    /// Razoring's margin at `depth`.
    #[inline]
    pub(crate) fn razor_margin(&self, depth: i32) -> i32 {
        self.razor_base + self.razor_scale * depth * depth
    }

    /// The null move's reduction at `depth`, with the static evaluation `surplus` above
    /// beta.
    #[inline]
    pub(crate) fn nmp_reduction(&self, depth: i32, surplus: i32) -> i32 {
        self.nmp_base
            + depth / self.nmp_depth_divisor
            + (surplus / self.nmp_eval_divisor).min(self.nmp_eval_max)
    }

    /// How many quiet moves are searched at a node of `depth` before the rest are
    /// pruned.
    #[inline]
    pub(crate) fn lmp_limit(&self, depth: i32, improving: bool) -> usize {
        let n = (self.lmp_base + depth * depth) as usize;
        if improving {
            n
        } else {
            n / 2
        }
    }

    /// How much less the late move reduction is for a quiet move with `history`.
    #[inline]
    pub(crate) fn lmr_history(&self, history: i32) -> i32 {
        // The same as history / 8192 with the default weight: the same rational number,
        // truncated the same way.
        history * self.lmr_history_weight / 65536
    }

    /// Futility pruning's margin at the reduced depth `lmr_depth`.
    #[inline]
    pub(crate) fn futility_margin(&self, lmr_depth: i32) -> i32 {
        self.futility_base + self.futility_scale * lmr_depth
    }

    /// The history bonus of a move that cut off at `depth`.
    #[inline]
    pub(crate) fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_scale * depth - self.history_bonus_offset)
            .clamp(0, self.history_bonus_max)
    }

    /// The late move reductions by depth and move index (both up to 63), in plies.
    pub(crate) fn lmr_table(&self) -> Box<[[u8; 64]; 64]> {
        // In hundredths, so that a tuner sets integers; the defaults give exactly 0.75 and
        // 2.25 (both exact in binary).
        let base = self.lmr_base as f64 / 100.0;
        let divisor = self.lmr_divisor as f64 / 100.0;
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (i as f64).ln() / divisor) as u8;
            }
        }
        lmr
    }
}

/// The error of [`SearchParams::set`]: no parameter has that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownParam {
    /// The name asked for.
    pub name: String,
}

impl fmt::Display for UnknownParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no search parameter is named {:?}", self.name)
    }
}

impl std::error::Error for UnknownParam {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_and_writes_its_own_field() {
        let defaults = SearchParams::default();
        let mut names = SearchParams::NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SearchParams::NAMES.len(), "a name twice");
        for (i, name) in SearchParams::NAMES.iter().enumerate() {
            let mut params = defaults.clone();
            let value = 100_000 + i as i32;
            params.set(name, value).unwrap();
            assert_eq!(params.get(name), Some(value));
            // Only that field changed.
            for other in SearchParams::NAMES.iter().filter(|&o| o != name) {
                assert_eq!(params.get(other), defaults.get(other), "{name} {other}");
            }
        }
    }

    #[test]
    fn an_unknown_name_is_an_error_and_changes_nothing() {
        let mut params = SearchParams::default();
        assert_eq!(params.get("rfp"), None);
        assert_eq!(
            params.set("rfp", 1),
            Err(UnknownParam {
                name: "rfp".to_string()
            })
        );
        assert_eq!(params, SearchParams::default());
        let err = params.set("RFP_MARGIN", 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no search parameter is named \"RFP_MARGIN\""
        );
    }

    #[test]
    fn the_default_reductions_are_those_of_the_formula_in_f64() {
        let lmr = SearchParams::default().lmr_table();
        for d in 1..64 {
            for i in 1..64 {
                let want = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
                assert_eq!(lmr[d][i], want, "{d} {i}");
            }
        }
        assert_eq!(lmr[0], [0; 64]);
        assert!(lmr.iter().all(|row| row[0] == 0));
    }

    #[test]
    fn the_history_bonus_grows_with_depth_up_to_its_maximum() {
        let params = SearchParams::default();
        assert_eq!(params.history_bonus(0), 0);
        assert_eq!(params.history_bonus(1), 50);
        assert_eq!(params.history_bonus(4), 500);
        assert_eq!(params.history_bonus(30), 1500);
    }
}
