//! Where the terms of the evaluation go: the evaluation is written once, generic over
//! [`Collect`], and run with [`Sum`] (the score: plain arithmetic) or with [`Features`]
//! (the list of weights and counts: `xq eval`'s breakdown and the tuner's input).

use crate::params::PARAMS;

/// A receiver of evaluation terms.
pub trait Collect {
    /// Weight `param` (an index into [`PARAMS`]) occurs `count` times: positive counts
    /// are Red's, negative ones Black's.
    fn add(&mut self, param: usize, count: i32);
}

/// Adds the weights up: the evaluation itself, Red-relative middlegame and endgame sums.
///
/// ```
/// use xq_eval::collect::{Collect, Sum};
/// use xq_eval::params::{MATERIAL, PARAMS};
/// let mut sum = Sum::default();
/// sum.add(MATERIAL.start + 4, 1); // a Red chariot
/// sum.add(MATERIAL.start + 4, -1); // a Black chariot
/// assert_eq!(sum, Sum::default());
/// sum.add(MATERIAL.start + 3, 2);
/// assert_eq!(sum.mg, 2 * PARAMS[MATERIAL.start + 3].mg());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sum {
    /// The middlegame sum.
    pub mg: i32,
    /// The endgame sum.
    pub eg: i32,
}

impl Collect for Sum {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        let s = PARAMS[param];
        self.mg += s.0 * count;
        self.eg += s.1 * count;
    }
}

/// Records every weight with its count: a sparse feature vector.
///
/// ```
/// use xq_eval::collect::{Collect, Features};
/// let mut f = Features::default();
/// f.add(7, 1);
/// f.add(3, 2);
/// f.add(7, -1);
/// f.add(5, 0);
/// assert_eq!(f.merged(), [(3, 2)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Every `(param, count)` as added, in order.
    pub entries: Vec<(usize, i32)>,
}

impl Collect for Features {
    fn add(&mut self, param: usize, count: i32) {
        if count != 0 {
            self.entries.push((param, count));
        }
    }
}

impl Features {
    /// The entries sorted by weight, one per weight, those that cancel out left out.
    pub fn merged(&self) -> Vec<(usize, i32)> {
        let mut v = self.entries.clone();
        v.sort_unstable_by_key(|&(p, _)| p);
        let mut out: Vec<(usize, i32)> = Vec::with_capacity(v.len());
        for (p, c) in v {
            match out.last_mut() {
                Some(last) if last.0 == p => last.1 += c,
                _ => out.push((p, c)),
            }
        }
        out.retain(|&(_, c)| c != 0);
        out
    }
}
