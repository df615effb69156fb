//! SplitMix64, the one small seedable generator of the workspace.

/// SplitMix64 (Steele, Lea and Flood's generator, as in Java's `SplittableRandom`): a
/// 64-bit state stepped by a constant and mixed on the way out. Fast, well mixed, and the
/// same sequence for the same seed on every platform, which is what xq needs it for: the
/// Zobrist keys (built from it at compile time), reproducible random openings and level
/// choices, and data splits. It is not a cryptographic generator.
///
/// ```
/// use xq_core::SplitMix64;
/// // The published reference outputs for seed 0.
/// let mut rng = SplitMix64::new(0);
/// assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
/// assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
/// assert!(rng.below(10) < 10);
/// // The same sequence in `const` code.
/// const FIRST: u64 = SplitMix64::new(0).next_const().1;
/// assert_eq!(FIRST, 0xe220_a839_7b1d_cdaf);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = step(self.state);
        self.state = state;
        out
    }

    /// The generator after one step and the 64 bits that step gives, for `const` code
    /// (the Zobrist keys are built with it at compile time).
    pub const fn next_const(self) -> (SplitMix64, u64) {
        let (state, out) = step(self.state);
        (SplitMix64 { state }, out)
    }

    /// A number below `n` (0 when `n` is 0), by multiplying the next 64 bits by `n` and
    /// keeping the high half: no division, and no bias a game could notice.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One step of SplitMix64: the next state and its output.
const fn step(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}
