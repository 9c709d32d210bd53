//! Pools of exploding d6 (P6-DICE-1..5): successes, crit tiers and check successes, shared by the
//! fight and the odds.

use super::options::Options;

/// What one hit die is (P6-CRIT-1..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Below M.
    Miss,
    /// A normal hit.
    Normal,
    /// A crit of megacrit level k (0: a plain crit).
    Crit(u8),
}

/// The crit tier of a hit die of `total` at minimum roll `m` and crit threshold `c` (`c = 0`:
/// no crits, a burst).
pub fn tier(options: &Options, total: i32, m: i32, c: i32) -> Tier {
    tier_apart(options, total, m, m, c)
}

/// The crit tier of a hit die of `total` that succeeds at `success_m`, in a roll whose minimum
/// roll is `roll_m`: a destiny die rolled apart succeeds at 4+ (`success_m` = min(M, 4)), but
/// its crit tier is judged like any die of the roll (P6-RES-5), so under `crit_floor =
/// min_roll_plus_6` its threshold is C' = max(C, M + 6) with the roll's M (P6-CRIT-4).
pub fn tier_apart(options: &Options, total: i32, success_m: i32, roll_m: i32, c: i32) -> Tier {
    if total < success_m {
        return Tier::Miss;
    }
    if c == 0 {
        return Tier::Normal;
    }
    let c = crit_threshold(options, c, roll_m);
    if total < c {
        return Tier::Normal;
    }
    let base = if options.ladder_fixed { 11 } else { c };
    // Below `base + 6` the quotient is 0 or less and `max(0)` makes it 0 anyway, so the test
    // only spares the division (`base - 6` for `base + 6` changes nothing).
    let level = if total >= base + 6 { ((total - base) / 6).max(0) } else { 0 };
    Tier::Crit(level.min(250) as u8)
}

/// The crit threshold of a roll whose minimum roll is `roll_m`, for a weapon's `c`: under
/// `crit_floor = min_roll_plus_6`, C' = max(C, M + 6) (P6-CRIT-4).
#[inline]
pub fn crit_threshold(options: &Options, c: i32, roll_m: i32) -> i32 {
    if options.crit_floor { c.max(roll_m + 6) } else { c }
}

/// Successes of a check die (P6-DICE-5): 0 below M, else 1 plus k + 1 for a total ≥ 11 + 6k
/// under `check_crit_successes = on`.
pub fn check_successes(options: &Options, total: i32, m: i32) -> i32 {
    if total < m {
        return 0;
    }
    if options.check_crits && total >= 11 { 1 + 1 + (total - 11) / 6 } else { 1 }
}

/// The lowest total at which a check die at `m` shows at least `j` successes (P6-DICE-5): `m`
/// for one (and no total needed for none); under `check_crit_successes = on`, max(m, 11 + 6(j − 2))
/// for j ≥ 2; `None` where no total does. [`check_successes`] counted the other way round.
pub fn check_threshold(options: &Options, j: i32, m: i32) -> Option<i32> {
    match j {
        ..=0 => Some(i32::MIN),
        1 => Some(m),
        _ if options.check_crits => Some(m.max(11 + 6 * (j - 2))),
        _ => None,
    }
}

/// The effective minimum roll (P6-DICE-4): `m` before the accurate-attack reduction `accurate`;
/// at least 2, or under `min_roll_floor = accurate_only` the reduction alone stops at 2.
pub fn floor(options: &Options, m: i32, accurate: i32) -> i32 {
    if options.floor_accurate_only { (m - accurate).max(m.min(2)) } else { (m - accurate).max(2) }
}

/// P(d6! ≥ t) as (numerator, denominator): 6^−k · (7 − j)/6 for t = 6k + j (P6-DICE-2, R5).
pub fn at_least(t: i32) -> (u128, u128) {
    if t <= 1 {
        return (1, 1);
    }
    let k = ((t - 1) / 6) as u32;
    let j = t - 6 * k as i32;
    (u128::from((7 - j) as u32), 6 * 6u128.pow(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`check_threshold`] and [`check_successes`] are one rule read two ways (P6-DICE-5): a die
    /// shows ≥ j successes exactly when its total reaches the threshold.
    #[test]
    fn check_threshold_agrees_with_check_successes() {
        for crits in [false, true] {
            let options = Options { check_crits: crits, ..Options::default() };
            for m in 2..=14 {
                for total in 1..=60 {
                    let s = check_successes(&options, total, m);
                    for j in 0..=10 {
                        let reached = check_threshold(&options, j, m).is_some_and(|t| total >= t);
                        assert_eq!(s >= j, reached, "crits {crits}, m {m}, total {total}, j {j}");
                    }
                }
            }
        }
    }
}
