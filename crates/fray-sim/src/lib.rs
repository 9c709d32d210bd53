//! The Monte Carlo runner: many fights of one scenario in parallel, and the statistics a designer
//! acts on. Knows no ruleset: a scenario implements [`Simulate`].
//!
//! Fights run in batches of [`BATCH`]; batch `b` draws its dice from ChaCha8 seeded with the
//! run's seed on stream `b`, so every batch is the same whatever thread runs it, and ledgers are
//! merged by addition: the numbers are identical for any thread count.

use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, FnSink, Outcome, Ruleset, Tally};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::BTreeMap;

/// Fights per batch.
pub const BATCH: u64 = 1000;

/// The dice of one batch: ChaCha8 through fray's own face reduction.
pub type BatchDice = fray_dice::RngSource<ChaCha8Rng>;

/// A scenario that can be simulated.
pub trait Simulate: Sync {
    /// Number of combatants (ledger rows).
    fn combatant_count(&self) -> usize;
    /// Runs `fights` fights with dice from `dice`, recording them in `ledger`.
    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError>;
}

/// The batch loop of any ruleset `R`: `fights` fights in one reused fight state (no allocation
/// between fights), answered by `decider`, each event tallied into `ledger` and each fight's end
/// recorded there; `prepare` readies the dice before each fight (a ruleset that seeds streams of
/// its own per fight reseeds them here; most pass `|_| ()`).
pub fn run_fights<R: Ruleset, D: Dice, P: Decider<R>>(
    setup: &R::Setup,
    dice: D,
    decider: P,
    fights: u64,
    ledger: &mut Ledger,
    prepare: impl Fn(&mut D),
) -> Result<(), FightError> {
    let sink = FnSink(|event: &R::Event| {
        if let Some(tally) = R::tally(event) {
            ledger.tally(tally);
        }
        if let Some(result) = R::ended(event) {
            ledger.finish(result);
        }
    });
    let mut fight = Fight::<R, _, _, _>::new(setup, dice, decider, sink);
    for _ in 0..fights {
        fight.restart();
        prepare(fight.dice_mut());
        fight.run()?;
    }
    Ok(())
}

/// The generator of one batch.
pub fn batch_dice(seed: u64, batch: u64) -> BatchDice {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(batch);
    fray_dice::RngSource::new(rng)
}

/// One combatant's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatantLedger {
    /// Attacks made.
    pub attacks: u64,
    /// Attacks that hit.
    pub hits: u64,
    /// Hits that were crits (a crit roll that missed is not counted).
    pub crits: u64,
    /// Damage dealt (after armour).
    pub damage_dealt: i64,
    /// Damage taken (after armour).
    pub damage_taken: i64,
    /// Fights in which it went down.
    pub downed: u64,
}

/// Everything counted over some fights. Merging two ledgers adds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// Fights per outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Fights per (outcome, length).
    pub lengths: BTreeMap<(Outcome, u32), u64>,
    /// Per combatant, in roster order.
    pub combatants: Vec<CombatantLedger>,
    downed_this_fight: Vec<bool>,
}

impl Ledger {
    /// An empty ledger for `n` combatants.
    pub fn new(n: usize) -> Ledger {
        Ledger {
            combatants: vec![CombatantLedger::default(); n],
            downed_this_fight: vec![false; n],
            ..Ledger::default()
        }
    }

    /// Counts one tally of the fight in progress.
    pub fn tally(&mut self, tally: Tally) {
        let row = |who: CombatantId| who.index();
        match tally {
            Tally::Attack { by, hit, crit } => {
                let c = &mut self.combatants[row(by)];
                c.attacks += 1;
                c.hits += u64::from(hit);
                // A crit that misses (a Wild Die six on a failed roll) is no critical hit.
                c.crits += u64::from(hit && crit);
            }
            Tally::Damage { by, to, amount } => {
                if let Some(by) = by {
                    self.combatants[row(by)].damage_dealt += i64::from(amount);
                }
                self.combatants[row(to)].damage_taken += i64::from(amount);
            }
            Tally::Downed { who } => self.downed_this_fight[row(who)] = true,
        }
    }

    /// Closes the fight in progress.
    pub fn finish(&mut self, result: FightResult) {
        *self.outcomes.entry(result.outcome).or_default() += 1;
        *self.lengths.entry((result.outcome, result.length)).or_default() += 1;
        for (c, downed) in self.combatants.iter_mut().zip(&mut self.downed_this_fight) {
            c.downed += u64::from(*downed);
            *downed = false;
        }
    }

    /// Adds another ledger to this one.
    pub fn merge(&mut self, other: &Ledger) {
        for (k, v) in &other.outcomes {
            *self.outcomes.entry(*k).or_default() += v;
        }
        for (k, v) in &other.lengths {
            *self.lengths.entry(*k).or_default() += v;
        }
        for (a, b) in self.combatants.iter_mut().zip(&other.combatants) {
            a.attacks += b.attacks;
            a.hits += b.hits;
            a.crits += b.crits;
            a.damage_dealt += b.damage_dealt;
            a.damage_taken += b.damage_taken;
            a.downed += b.downed;
        }
    }

    /// Fights counted.
    pub fn fights(&self) -> u64 {
        self.outcomes.values().sum()
    }
}

/// Why a simulation stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A fight failed.
    #[error("fight {fight} of the simulation: {error}")]
    Fight {
        /// Index of the first fight of the failing batch.
        fight: u64,
        /// What went wrong.
        error: FightError,
    },
    /// The thread pool could not be built.
    #[error("thread pool: {0}")]
    Threads(String),
}

/// Runs `fights` fights on `threads` threads (0 = all cores), calling `progress` with the number
/// of fights done after each batch.
pub fn simulate(
    scenario: &(impl Simulate + ?Sized),
    fights: u64,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Ledger, SimError> {
    simulate_batches(scenario, fights, 0..batches(fights), seed, threads, progress)
}

/// The number of batches of a run of `fights` fights (the last one may be short).
pub fn batches(fights: u64) -> u64 {
    fights.div_ceil(BATCH)
}

/// The batches of part `k` (counted from 0) of `n` equal parts of `batches` batches: a
/// contiguous range, the ranges of parts `0..n` following each other and covering every batch
/// once. Parts differ in size by at most one batch.
///
/// # Panics
///
/// When `n` is 0 or `k` is not below `n`.
pub fn shard_batches(batches: u64, k: u64, n: u64) -> std::ops::Range<u64> {
    assert!(k < n, "part {k} of {n}");
    let at = |i: u64| u64::try_from(u128::from(batches) * u128::from(i) / u128::from(n)).unwrap_or(batches);
    at(k)..at(k + 1)
}

/// Runs the batches `range` of a run of `fights` fights (batch `b` holds fights `b × BATCH` to
/// `(b + 1) × BATCH`, the last batch cut at `fights`): a part of the run, whose ledger added to
/// those of the other parts gives the whole run's. `progress` hears the fights done so far in
/// this call.
pub fn simulate_batches(
    scenario: &(impl Simulate + ?Sized),
    fights: u64,
    range: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Ledger, SimError> {
    use rayon::prelude::*;
    let range = range.start.min(batches(fights))..range.end.min(batches(fights));
    let batches = range.end.saturating_sub(range.start);
    // No more threads than batches: a thread with nothing to do is only a cost.
    let threads = if threads == 0 { 0 } else { threads.min(usize::try_from(batches).unwrap_or(usize::MAX).max(1)) };
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| SimError::Threads(e.to_string()))?;
    let done = std::sync::atomic::AtomicU64::new(0);
    let n = scenario.combatant_count();
    pool.install(|| {
        range
            .into_par_iter()
            .map(|b| {
                let count = BATCH.min(fights - b * BATCH);
                let mut ledger = Ledger::new(n);
                scenario
                    .run_batch(&mut batch_dice(seed, b), count, &mut ledger)
                    .map_err(|error| SimError::Fight { fight: b * BATCH, error })?;
                let so_far = done.fetch_add(count, std::sync::atomic::Ordering::Relaxed) + count;
                progress(so_far);
                Ok(ledger)
            })
            .try_reduce(
                || Ledger::new(n),
                |mut a, b| {
                    a.merge(&b);
                    Ok(a)
                },
            )
    })
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    // At the edges the interval ends exactly at the rate (rounding would leave it a hair away).
    let lo = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if k == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// Half the width of the 95% Wilson interval of `k` successes in `n` trials: the precision that
/// `fray sim --precision` asks of every outcome.
pub fn half_width(k: u64, n: u64) -> f64 {
    let (lo, hi) = wilson(k, n);
    (hi - lo) / 2.0
}

/// The smallest length whose cumulative count reaches fraction `q` of the fights in `lengths`.
pub fn percentile(lengths: &BTreeMap<u32, u64>, q: f64) -> u32 {
    let total: u64 = lengths.values().sum();
    let target = (q * total as f64).ceil().max(1.0) as u64;
    let mut seen = 0;
    for (length, count) in lengths {
        seen += count;
        if seen >= target {
            return *length;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: (0.4038, 0.5962); 0 of 10: (0, 0.2775).
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{lo} {hi}");
        // No rounding at the edges: 0 of n starts at exactly 0, n of n ends at exactly 1.
        for n in [100, 2000, 1_000_000] {
            assert_eq!(wilson(0, n).0, 0.0, "{n}");
            assert_eq!(wilson(n, n).1, 1.0, "{n}");
            assert!(wilson(n, n).0 < 1.0 && wilson(0, n).1 > 0.0);
        }
    }

    #[test]
    fn a_crit_that_misses_is_no_critical_hit() {
        let mut ledger = Ledger::new(1);
        let by = CombatantId(0);
        ledger.tally(Tally::Attack { by, hit: true, crit: true });
        ledger.tally(Tally::Attack { by, hit: false, crit: true });
        ledger.tally(Tally::Attack { by, hit: true, crit: false });
        let c = &ledger.combatants[0];
        assert_eq!((c.attacks, c.hits, c.crits), (3, 2, 1));
    }

    #[test]
    fn shards_cover_every_batch_once_in_order() {
        for batches in [1, 2, 7, 8, 10, 1001] {
            for n in 1..=batches.min(9) {
                let parts: Vec<_> = (0..n).map(|k| shard_batches(batches, k, n)).collect();
                assert_eq!(parts[0].start, 0);
                assert_eq!(parts[n as usize - 1].end, batches);
                for w in parts.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                }
                let sizes: Vec<u64> = parts.iter().map(|r| r.end - r.start).collect();
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(max - min <= 1 && *min >= 1, "{batches} in {n}: {sizes:?}");
            }
        }
        // No overflow for the largest counts.
        assert_eq!(shard_batches(u64::MAX, 2, 3).end, u64::MAX);
    }

    #[test]
    fn half_width_shrinks_with_fights() {
        assert!((half_width(50, 100) - 0.0962).abs() < 1e-3);
        assert!(half_width(5000, 10_000) < 0.01 && half_width(5000, 10_000) > 0.0095);
        assert!(half_width(0, 10_000) < 0.0002);
    }

    #[test]
    fn percentiles_read_the_histogram() {
        let h: BTreeMap<u32, u64> = [(1, 5), (2, 3), (5, 2)].into_iter().collect();
        assert_eq!((percentile(&h, 0.5), percentile(&h, 0.8), percentile(&h, 0.9)), (1, 2, 5));
    }
}
