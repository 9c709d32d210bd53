//! Odds in context: the exact distribution of the wounds one attack inflicts through the whole
//! pipeline — hit roll with crits and megacrits, the defender's reaction as his policy makes it
//! (dodge, parry, shield parry), the cover roll, protection against piercing — and the chance it
//! drops him. Every die's tiers follow the exploding d6's closed form P(d6! ≥ t) = 6^−k·(7 − j)/6
//! (t = 6k + j); megacrit levels above [`LEVELS`] are counted at that level, and their mass is
//! reported as the residual.

use super::dice::{self, Tier};
use super::run::{numbers, weapon_of};
use super::setup::{Class, Mode, Setup};
use super::{Act, Choice, Cond, Hand, PhaseSix, Reaction, Request, Special, State};
use crate::AttackOdds;
use fray_dice::BigRational;
use fray_engine::{CombatantId, Ruleset};
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Megacrit levels followed exactly.
pub const LEVELS: u8 = 8;

fn r(n: u128, d: u128) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// P(d6! ≥ t), exact.
pub fn p_at_least(t: i32) -> BigRational {
    let (n, d) = dice::at_least(t);
    r(n, d)
}

/// The tiers of one hit die at `m`, `c`: P(miss), P(normal), P(crit level k) for k < LEVELS, and
/// P(level ≥ LEVELS) counted at LEVELS (exact, by the closed form).
pub fn die_tiers(options: &super::Options, m: i32, c: i32) -> Vec<(Tier, BigRational)> {
    let one = BigRational::one();
    let hit = p_at_least(m);
    let mut out = vec![(Tier::Miss, &one - &hit)];
    if c == 0 {
        out.push((Tier::Normal, hit));
        return out;
    }
    let c_eff = if options.crit_floor { c.max(m + 6) } else { c };
    let crit_at = c_eff.max(m);
    out.push((Tier::Normal, &hit - p_at_least(crit_at)));
    let base = if options.ladder_fixed { 11 } else { c_eff };
    // Level k from base + 6k (k ≥ 1); level 0 from crit_at.
    let mut lower = crit_at;
    for k in 0..LEVELS {
        let upper = (base + 6 * (i32::from(k) + 1)).max(lower);
        out.push((Tier::Crit(k), p_at_least(lower) - p_at_least(upper)));
        lower = upper;
    }
    out.push((Tier::Crit(LEVELS), p_at_least(lower)));
    out
}

/// A pool's outcome: normal hits and crit levels (sorted, highest first).
type PoolOutcome = (u8, Vec<u8>);

/// Which of the crits left after the reaction the cover's crit successes stop.
#[derive(Clone, Copy, Debug)]
enum Stopped {
    /// The highest `n` of the crits (a crit parry's included): `cover_crit_removal =
    /// highest_first`.
    Highest(usize),
    /// `n` crits at random, every set of `n` of them alike: `cover_crit_removal = roll_order` when
    /// the crits are in roll order. The pool's dice are exchangeable, so the crit levels stand in
    /// a uniformly random order among the crit dice, and which places the cover stops (by its
    /// dice, and by which crits get none) does not depend on the levels standing there.
    Random(usize),
    /// Under `roll_order` after a crit parry, which leaves the crits highest first: the places
    /// (bits, highest crit first) of the crits the cover stopped, besides the `parried` highest.
    Places { parried: usize, mask: u32 },
}

/// After the reaction and the cover roll: normal hits left, whether the crits are kept at all
/// (a dodge takes them all), which crits the cover (and a crit parry) stops, and the probability
/// (under [`Stopped::Random`], of each set of crits stopped).
type Branch = (u8, bool, Stopped, BigRational);

/// C(n, k).
fn choose(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// For every j, how many sets of j crits there are with each sum of levels: `[j]` lists
/// (sum, count).
type SubsetSums = Vec<Vec<(i32, u64)>>;

/// The [`SubsetSums`] of `crits`.
fn subset_sums(crits: &[u8]) -> SubsetSums {
    let top: usize = crits.iter().map(|&k| usize::from(k)).sum();
    let mut table = vec![vec![0u64; top + 1]; crits.len() + 1];
    table[0][0] = 1;
    for (i, &k) in crits.iter().enumerate() {
        for j in (0..=i).rev() {
            for s in (0..=top - usize::from(k)).rev() {
                let here = table[j][s];
                if here > 0 {
                    table[j + 1][s + usize::from(k)] += here;
                }
            }
        }
    }
    table
        .into_iter()
        .map(|row| row.into_iter().enumerate().filter(|(_, n)| *n > 0).map(|(s, n)| (s as i32, n)).collect())
        .collect()
}

/// The most distinct pool outcomes (normal hits, crit levels) followed exactly: ten hit dice with
/// crits (under 500,000 outcomes) are answered in under a second; eleven or more would take
/// minutes, and are refused.
pub const MAX_POOL_OUTCOMES: usize = 500_000;

/// The distribution of a pool of `n` hit dice; `None` when it has more than
/// [`MAX_POOL_OUTCOMES`] outcomes.
pub fn pool(options: &super::Options, n: i32, m: i32, c: i32) -> Option<BTreeMap<PoolOutcome, BigRational>> {
    let (weights, total) = pool_weights(options, n, m, c)?;
    Some(weights.into_iter().map(|(k, w)| (k, BigRational::new(w, total.clone()))).collect())
}

/// A pool's outcomes with integer weights over one denominator (returned beside them): the
/// tiers' denominators are powers of six, so the pool adds and multiplies integers and a fraction
/// is reduced only where it is read.
fn pool_weights(
    options: &super::Options,
    n: i32,
    m: i32,
    c: i32,
) -> Option<(BTreeMap<PoolOutcome, num_bigint::BigInt>, num_bigint::BigInt)> {
    use num_bigint::BigInt;
    use num_integer::Integer;
    let tiers = die_tiers(options, m, c);
    let den = tiers.iter().fold(BigInt::one(), |acc, (_, p)| acc.lcm(p.denom()));
    let tiers: Vec<(Tier, BigInt)> = tiers.iter().map(|(t, p)| (*t, p.numer() * (&den / p.denom()))).collect();
    let dice = n.clamp(0, 20);
    let mut dist: BTreeMap<PoolOutcome, BigInt> = BTreeMap::from([((0, Vec::new()), BigInt::one())]);
    for _ in 0..dice {
        // Each die multiplies the outcomes by at most the tiers' count: stop before the budget is
        // spent rather than after.
        if dist.len() * tiers.len() > MAX_POOL_OUTCOMES * 4 || dist.len() > MAX_POOL_OUTCOMES {
            return None;
        }
        let mut next = BTreeMap::new();
        for ((normals, crits), p) in &dist {
            for (t, q) in &tiers {
                let key = match t {
                    Tier::Miss => (*normals, crits.clone()),
                    Tier::Normal => (normals + 1, crits.clone()),
                    Tier::Crit(k) => {
                        let mut c = crits.clone();
                        c.push(*k);
                        c.sort_unstable_by(|a, b| b.cmp(a));
                        (*normals, c)
                    }
                };
                *next.entry(key).or_insert_with(BigInt::zero) += p * q;
            }
        }
        dist = next;
    }
    if dist.len() > MAX_POOL_OUTCOMES {
        return None;
    }
    Some((dist, num_traits::pow(den, dice as usize)))
}

/// P(k successes of n dice at threshold t), for k = 0..=n.
fn binomial(n: i32, t: i32) -> Vec<BigRational> {
    let p = p_at_least(t);
    let q = BigRational::one() - &p;
    let mut out = vec![BigRational::zero(); n.max(0) as usize + 1];
    let mut choose = BigRational::one();
    for k in 0..=n.max(0) {
        let pk = (0..k).fold(BigRational::one(), |a, _| a * &p) * (0..(n - k)).fold(BigRational::one(), |a, _| a * &q);
        out[k as usize] = &choose * pk;
        choose = choose * BigRational::from_integer((n - k).into()) / BigRational::from_integer((k + 1).into());
    }
    out
}

/// The joint distribution of a parry's crit successes (dice of 11+ that also reach `m`) and all
/// its successes, for `n` dice at `m` (P6-DEF-5): each die is a crit success, a plain success or
/// a failure.
fn parry_split(n: i32, m: i32) -> BTreeMap<(usize, usize), BigRational> {
    let p_hit = p_at_least(m);
    let p_crit = p_at_least(m.max(11));
    let p_plain = &p_hit - &p_crit;
    let p_miss = BigRational::one() - &p_hit;
    let mut dist: BTreeMap<(usize, usize), BigRational> = BTreeMap::from([((0, 0), BigRational::one())]);
    for _ in 0..n.max(0) {
        let mut next: BTreeMap<(usize, usize), BigRational> = BTreeMap::new();
        for ((c, s), p) in dist {
            for (key, q) in [((c + 1, s + 1), &p_crit), ((c, s + 1), &p_plain), ((c, s), &p_miss)] {
                *next.entry(key).or_insert_with(BigRational::zero) += &p * q;
            }
        }
        dist = next;
    }
    dist
}

/// One attack's exact odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(≥ 1 hit on the hit roll).
    pub hit: BigRational,
    /// Wounds inflicted, with probabilities (over all outcomes, misses included as 0).
    pub wounds: BTreeMap<i32, BigRational>,
    /// P(the defender drops: Dying or dead).
    pub down: BigRational,
    /// Mass counted at the top megacrit level.
    pub residual: BigRational,
}

/// The odds of `act` by `who` in `state`, the defender reacting by his policy with the actions
/// he holds (and only to an attacker he perceives), the cover rolls as the fight makes them.
/// Under `cover_crit_removal = roll_order` a pool outcome keeps its crit levels, not their order;
/// the dice are exchangeable, so the levels stand in a uniformly random order, and the crits the
/// cover stops are any set of their number, every set alike (after a crit parry, which leaves
/// them highest first, the places are followed instead): exact too.
pub fn odds_of(setup: &Setup, state: &State, who: CombatantId, act: &Act) -> Option<Odds> {
    if let Act::Throw { target, .. } = *act {
        return throw_odds(setup, state, who, act, target, true).map(|t| t.odds);
    }
    let options = &setup.options;
    let Act::Attack { target, hand, mode, special, from_behind, .. } = *act else { return None };
    if special != Special::None {
        return None;
    }
    let n = numbers(setup, state, who, act);
    let (w, _) = weapon_of(setup, who, hand);
    let (dist, total) = pool_weights(options, n.dice, n.m, n.c)?;
    // The mass lumped at the top megacrit level: none without crits (the last tier is then a
    // normal hit), else at most P(a die reaches it) per die.
    let top = match die_tiers(options, n.m, n.c).last() {
        Some((Tier::Crit(LEVELS), p)) => p.clone(),
        _ => BigRational::zero(),
    };
    let residual = top * BigRational::from_integer(n.dice.max(0).into());
    let ts = &setup.combatants[target.index()];
    let tx = state.fighter(target);
    let protection = (ts.protection(options, &tx.armour_pct) - w.piercing).max(0);
    let wph = w.wounds_per_hit;
    // The same few binomials serve every pool outcome: computed once each.
    let mut binomials: BTreeMap<(i32, i32), std::rc::Rc<Vec<BigRational>>> = BTreeMap::new();
    let mut cached = |n: i32, t: i32| binomials.entry((n, t)).or_insert_with(|| binomial(n, t).into()).clone();
    // What the defender's reaction and the cover roll do depends only on how many normal hits and
    // crits the pool shows. Per such group the branches are worked out once: (normal hits left,
    // crits kept at all, which crits the cover stops, probability). Each pool outcome's integer
    // weight is added to the (group, branch, wounds) it leads to, and the fractions are
    // multiplied out once per such key.
    let mut branches_of = |normals: u8, n_crits: usize| -> Vec<Branch> {
        // (normal hits left, crits kept at all, a shield parry, the highest crits a parry took,
        // probability).
        let mut branches: Vec<(u8, bool, bool, usize, BigRational)> =
            vec![(normals, true, false, 0, BigRational::one())];
        // A crit parry (P6-DEF-5) leaves the crits highest first, as the fight's parry sorts them.
        let mut crit_parry = false;
        // The target reacts only to an attacker it perceives (P6-REACT-4), as in the fight.
        let aware = super::run::perceives(setup, target, who);
        // And only with an action to react with, or dice to buy one (P6-ACT-1, P6-RES-1/2), as
        // the fight asks.
        let able = tx.actions >= 1 || tx.bonus_dice > 0 || tx.destiny_dice > 0;
        if (normals > 0 || n_crits > 0) && !from_behind && aware && able && !tx.helpless(options) {
            let request =
                Request::React { attacker: who, target, mode, normals, crits: n_crits as u8, actions: tx.actions };
            if let Choice::React { reaction: Some(reaction), .. } =
                super::policy::ai_choice(setup, state, target, &request)
            {
                let base_m = ts.min_roll + tx.condition(Cond::Poisoned) + i32::from(tx.hunkered);
                branches = match reaction {
                    Reaction::Dodge => {
                        let t = base_m + i32::from(normals) + n_crits as i32;
                        let dice_n = ts.evasion() - tx.condition(Cond::Shocked);
                        let miss = cached(dice_n, t)[0].clone();
                        vec![(0, false, false, 0, BigRational::one() - &miss), (normals, true, false, 0, miss)]
                    }
                    Reaction::Parry => {
                        let dp = super::run::parry_dp(setup, state, target);
                        let m = dice::floor(options, base_m + tx.condition(Cond::Burning), 0);
                        let dice_n = ts.hand_to_hand + dp - tx.condition(Cond::Shocked);
                        if options.parry_crits {
                            // Under `parry_vs_crits = crit_successes` a parry die of 11+ takes
                            // the highest crit first, other successes normal hits (P6-DEF-5).
                            crit_parry = true;
                            parry_split(dice_n, m)
                                .into_iter()
                                .map(|((cs, s), q)| {
                                    let k = cs.min(n_crits);
                                    (normals.saturating_sub((s - k) as u8), true, false, k, q)
                                })
                                .collect()
                        } else {
                            let b = cached(dice_n, m);
                            b.iter()
                                .enumerate()
                                .map(|(k, q)| (normals.saturating_sub(k as u8), true, false, 0, q.clone()))
                                .collect()
                        }
                    }
                    Reaction::ShieldParry => vec![(normals, true, true, 0, BigRational::one())],
                    // The AI reacts to an attack on itself with a defence only; a hunker or an
                    // attack in reply leaves these hits as rolled.
                    Reaction::Hunker | Reaction::Attack { .. } => vec![(normals, true, false, 0, BigRational::one())],
                };
            }
        }
        let mut out = Vec::new();
        for (normals, kept, shield, parried, q) in branches {
            let crits = if kept { n_crits - parried.min(n_crits) } else { 0 };
            // The cover rolls as the fight makes them (P6-COVER-1..5): the sources and thresholds
            // from the fight's own code, one roll per source under `sequential`, each on the hits
            // still left, Shocked taking cover dice from the normal hits first. Successes among
            // the crit dice stop the highest crits (`highest_first`), or under `roll_order` the
            // crits their dice stand for: the i-th crit die the i-th crit still standing.
            let (sources, fewer) = super::run::cover_values(setup, state, target, shield);
            if options.cover_roll_order && crit_parry {
                // The crits stand highest first: which of them the crit dice cover, and which
                // go without a die (Shocked), is known, so the places are followed.
                let mut states: BTreeMap<(u8, u32), BigRational> = BTreeMap::from([((normals, 0), q)]);
                for v in &sources {
                    let stop = p_at_least(*v);
                    let stand = BigRational::one() - &stop;
                    let mut next: BTreeMap<(u8, u32), BigRational> = BTreeMap::new();
                    for ((n_left, mask), p) in states {
                        let standing: Vec<usize> = (0..crits).filter(|i| mask & (1 << i) == 0).collect();
                        let normal_dice = (i32::from(n_left) - fewer).max(0);
                        let crit_dice = (standing.len() as i32 - (fewer - i32::from(n_left)).max(0)).max(0) as usize;
                        let bn = cached(normal_dice, *v);
                        for stopped in 0u32..(1 << crit_dice) {
                            let mut after = mask;
                            let mut pc = p.clone();
                            for (bit, place) in standing[..crit_dice].iter().enumerate() {
                                if stopped & (1 << bit) != 0 {
                                    after |= 1 << place;
                                    pc *= &stop;
                                } else {
                                    pc *= &stand;
                                }
                            }
                            for (rn, qn) in bn.iter().enumerate() {
                                let key = (n_left - rn as u8, after);
                                *next.entry(key).or_insert_with(BigRational::zero) += &pc * qn;
                            }
                        }
                    }
                    states = next;
                }
                for ((n_left, mask), p) in states {
                    out.push((n_left, kept, Stopped::Places { parried, mask }, p));
                }
                continue;
            }
            let mut states: BTreeMap<(u8, usize), BigRational> = BTreeMap::from([((normals, 0), q)]);
            for v in sources {
                let mut next: BTreeMap<(u8, usize), BigRational> = BTreeMap::new();
                for ((n_left, stopped), p) in states {
                    let c_left = crits - stopped;
                    let normal_dice = (i32::from(n_left) - fewer).max(0);
                    let crit_dice = (c_left as i32 - (fewer - i32::from(n_left)).max(0)).max(0);
                    let bc = cached(crit_dice, v);
                    let bn = cached(normal_dice, v);
                    for (rc, qc) in bc.iter().enumerate() {
                        for (rn, qn) in bn.iter().enumerate() {
                            let key = (n_left - rn as u8, stopped + rc);
                            *next.entry(key).or_insert_with(BigRational::zero) += &p * qc * qn;
                        }
                    }
                }
                states = next;
            }
            for ((n_left, stopped), p) in states {
                if options.cover_roll_order && kept {
                    // In roll order (no crit parry here, so `parried` is 0) the crits stopped
                    // are any `stopped` of them, every such set alike: the probability of each.
                    let sets = BigRational::from_integer(choose(crits, stopped).into());
                    out.push((n_left, kept, Stopped::Random(stopped), p / sets));
                } else {
                    out.push((n_left, kept, Stopped::Highest(parried + stopped), p));
                }
            }
        }
        out
    };
    let mut groups: BTreeMap<(u8, usize), Vec<Branch>> = BTreeMap::new();
    let mut sums: BTreeMap<(u8, usize, usize, i32), num_bigint::BigInt> = BTreeMap::new();
    // Under `Stopped::Random`, per group and number of crits left standing, the pool outcomes'
    // weights by the wounds of the crits left, every set of them counted: one table serves every
    // branch of the group.
    let mut standing_wounds: BTreeMap<(u8, usize, usize), BTreeMap<i32, num_bigint::BigInt>> = BTreeMap::new();
    // Per crit outcome, how many sets of each size have each sum of levels.
    let mut subsets: BTreeMap<&[u8], SubsetSums> = BTreeMap::new();
    let mut hit_weight = num_bigint::BigInt::zero();
    for ((normals, crits), weight) in &dist {
        if *normals > 0 || !crits.is_empty() {
            hit_weight += weight;
        }
        let group = (*normals, crits.len());
        let branches = groups.entry(group).or_insert_with(|| branches_of(group.0, group.1));
        let level_wounds = |k: &u8| wph + i32::from(*k);
        let mut standings = 0u32;
        for (i, (left, kept, stopped, _)) in branches.iter().enumerate() {
            let normals = i32::from(*left) - protection.min(i32::from(*left));
            let crit_wounds: i32 = match *stopped {
                _ if !*kept => 0,
                Stopped::Highest(n) => crits[n.min(crits.len())..].iter().map(level_wounds).sum(),
                Stopped::Places { parried, mask } => crits[parried.min(crits.len())..]
                    .iter()
                    .enumerate()
                    .filter(|(place, _)| mask & (1 << place) == 0)
                    .map(|(_, k)| level_wounds(k))
                    .sum(),
                Stopped::Random(n) => {
                    standings |= 1 << (crits.len() - n.min(crits.len()));
                    continue;
                }
            };
            let total_wounds = normals * wph + crit_wounds;
            *sums.entry((group.0, group.1, i, total_wounds)).or_insert_with(num_bigint::BigInt::zero) += weight;
        }
        if standings == 0 {
            continue;
        }
        // Every set of the crits left standing, each with its own weight.
        let table: &[Vec<(i32, u64)>] = if crits.first() == crits.last() {
            &[]
        } else {
            subsets.entry(crits.as_slice()).or_insert_with(|| subset_sums(crits))
        };
        for standing in (0..=crits.len()).filter(|j| standings & (1 << j) != 0) {
            let by = standing_wounds.entry((group.0, group.1, standing)).or_default();
            if table.is_empty() {
                let each = crits.first().map_or(0, level_wounds);
                let times = choose(crits.len(), standing);
                *by.entry(each * standing as i32).or_insert_with(num_bigint::BigInt::zero) += weight * times;
            } else {
                for (levels, count) in &table[standing] {
                    let w = wph * standing as i32 + levels;
                    *by.entry(w).or_insert_with(num_bigint::BigInt::zero) += weight * count;
                }
            }
        }
    }
    for ((g0, g1), branches) in &groups {
        for (i, (left, kept, stopped, _)) in branches.iter().enumerate() {
            let Stopped::Random(n) = *stopped else { continue };
            if !*kept {
                continue;
            }
            let normals = i32::from(*left) - protection.min(i32::from(*left));
            for (crit_wounds, weight) in standing_wounds.get(&(*g0, *g1, g1 - n.min(*g1))).into_iter().flatten() {
                *sums.entry((*g0, *g1, i, normals * wph + crit_wounds)).or_insert_with(num_bigint::BigInt::zero) +=
                    weight;
            }
        }
    }
    let mut wounds: BTreeMap<i32, BigRational> = BTreeMap::new();
    for ((g0, g1, i, total_wounds), weight) in sums {
        let q = &groups[&(g0, g1)][i].3;
        *wounds.entry(total_wounds).or_insert_with(BigRational::zero) += BigRational::new(weight, total.clone()) * q;
    }
    let hit = BigRational::new(hit_weight, total);
    let room = ts.max_wounds - tx.wounds + tx.boosts;
    let down: BigRational = wounds.iter().filter(|(w, _)| **w >= room && **w > 0).map(|(_, p)| p.clone()).sum();
    Some(Odds { hit, wounds, down, residual })
}

/// What a roller holds to boost a roll with (P6-RES-4/5): bonus dice, rerolls, destiny dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Purse {
    bonus: i32,
    rerolls: i32,
    destiny: i32,
}

impl Purse {
    fn of(x: &super::Fighter) -> Purse {
        Purse { bonus: x.bonus_dice, rerolls: x.rerolls, destiny: x.destiny_dice }
    }
}

/// The successes of `n` dice at `t` (one per die that reaches it: a cover roll's hits removed, or
/// whether a throw lands), with the boosts the AI's `spend` policy makes on a roll with no
/// success when `spends` (policy `boost`, P6-RES-4/5): a bonus die, else a reroll of the whole
/// pool (the bonus dice added included), else a destiny die rolled apart, succeeding at
/// min(t, 4); one at a time until the roll has a success or nothing is left to spend. Each
/// outcome comes with what is left in the purse.
fn boosted(n: i32, t: i32, purse: Purse, spends: bool) -> BTreeMap<(usize, Purse), BigRational> {
    let mut out: BTreeMap<(usize, Purse), BigRational> = BTreeMap::new();
    let mut add = |k: usize, purse: Purse, q: BigRational| {
        *out.entry((k, purse)).or_insert_with(BigRational::zero) += q;
    };
    let n = n.clamp(0, 60);
    let first = binomial(n, t);
    for (k, q) in first.iter().enumerate().skip(1) {
        add(k, purse, q.clone());
    }
    let (p, apart) = (p_at_least(t), p_at_least(t.min(4)));
    // The mass still without a success, the pool's size and the purse.
    let (mut none, mut len, mut purse) = (first[0].clone(), n, purse);
    while !none.is_zero() {
        if !spends {
            add(0, purse, none);
            break;
        }
        if purse.bonus >= 1 {
            purse.bonus -= 1;
            add(1, purse, &none * &p);
            none *= BigRational::one() - &p;
            len += 1;
        } else if purse.rerolls >= 1 && len > 0 {
            purse.rerolls -= 1;
            let again = binomial(len, t);
            for (k, q) in again.iter().enumerate().skip(1) {
                add(k, purse, &none * q);
            }
            none *= &again[0];
        } else if purse.destiny >= 1 {
            purse.destiny -= 1;
            add(1, purse, &none * &apart);
            none *= BigRational::one() - &apart;
        } else {
            add(0, purse, none);
            break;
        }
    }
    out
}

/// A thrown object's odds on one participant ([`throw_odds`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BlastOdds {
    /// The blast's odds on the participant: `hit` is P(the blast reaches him), `wounds` and
    /// `down` what it does to him.
    pub odds: Odds,
    /// P(the throw lands on its target: ≥ 1 success, P6-THROW-1).
    pub lands: BigRational,
    /// Of the 72 deviations (d12 hour, d6 metres, P6-THROW-2/3), how many land within the
    /// blast's reach of the participant.
    pub deviations_reaching: u32,
    /// The throw's dice and minimum roll.
    pub dice: (i32, i32),
}

/// The odds of the throw `act` by `who` in `state` on `victim` (the throw's target, or anyone
/// else), exactly as the fight plays it (P6-THROW-1..4): the throw roll, with the thrower's
/// boosts as its `spend` policy makes them when `boosts` (else the roll alone); on no success one
/// of the 72 deviations, each the fight's own landing point, and whether it is within
/// `throw_radius_m` of the victim; then the object's hits, all normal hits that no reaction meets
/// (P6-THROW-3), through the victim's cover rolls as the fight makes them (sources and thresholds
/// from its own code, the victim's boosts by its `spend` policy), protection against the object's
/// piercing and its wounds per hit (P6-DMG-1/3/4). `None` for anything but a throw. Every number
/// is exact: a blast of up to 60 hits (the fight's cap) meets binomial cover rolls only.
pub fn throw_odds(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    act: &Act,
    victim: CombatantId,
    boosts: bool,
) -> Option<BlastOdds> {
    let Act::Throw { item, target } = *act else { return None };
    let options = &setup.options;
    let it = setup.combatants[who.index()].items.get(usize::from(item))?;
    let one = BigRational::one();
    let (n, m) = super::run::throw_numbers(setup, state, who);
    let thrower = state.fighter(who);
    let spends = boosts && super::policy::spends_on(setup, who, super::BoostedRoll::Throw);
    let lands: BigRational =
        boosted(n, m, Purse::of(thrower), spends).into_iter().filter(|((k, _), _)| *k >= 1).map(|(_, q)| q).sum();
    let (from, aim) = (thrower.pos, state.fighter(target).pos);
    let v = state.fighter(victim);
    let deviations_reaching = (1..=12u8)
        .flat_map(|hour| (1..=6u8).map(move |metres| (hour, metres)))
        .filter(|&(hour, metres)| {
            super::run::caught(options, v.pos, super::run::deviate(options, from, aim, hour, metres))
        })
        .count() as u32;
    // On a success the object lands on the target, whom it always catches; elsewhere a victim
    // is caught where it stands within reach of the landing point (P6-THROW-4).
    let on_target =
        if victim == target || super::run::caught(options, v.pos, aim) { lands.clone() } else { BigRational::zero() };
    let reaches = if v.dead {
        BigRational::zero()
    } else {
        on_target + (&one - &lands) * BigRational::new(deviations_reaching.into(), 72.into())
    };
    // The blast's hits through the cover rolls: (normal hits left, the victim's purse) →
    // probability. No hits left, no further roll (as the fight's `cover` stops).
    let vs = &setup.combatants[victim.index()];
    let (sources, fewer) = super::run::cover_values(setup, state, victim, false);
    let spends = super::policy::spends_on(setup, victim, super::BoostedRoll::Cover);
    let hits = it.hits.clamp(0, 60) as u8;
    let mut left: BTreeMap<(u8, Purse), BigRational> = BTreeMap::from([((hits, Purse::of(v)), one.clone())]);
    for value in sources {
        let mut next: BTreeMap<(u8, Purse), BigRational> = BTreeMap::new();
        for ((normals, purse), p) in left {
            if normals == 0 {
                *next.entry((0, purse)).or_insert_with(BigRational::zero) += p;
                continue;
            }
            let dice_n = (i32::from(normals) - fewer).max(0);
            for ((removed, purse), q) in boosted(dice_n, value, purse, spends) {
                let key = (normals - (removed.min(usize::from(normals)) as u8), purse);
                *next.entry(key).or_insert_with(BigRational::zero) += &p * q;
            }
        }
        left = next;
    }
    let protection = (vs.protection(options, &v.armour_pct) - it.piercing).max(0);
    let mut wounds: BTreeMap<i32, BigRational> = BTreeMap::new();
    for ((normals, _), p) in left {
        let w = (i32::from(normals) - protection).max(0) * it.wounds_per_hit;
        *wounds.entry(w).or_insert_with(BigRational::zero) += p * &reaches;
    }
    *wounds.entry(0).or_insert_with(BigRational::zero) += &one - &reaches;
    wounds.retain(|_, p| !p.is_zero());
    let room = vs.max_wounds - v.wounds + v.boosts;
    let down: BigRational = wounds.iter().filter(|(w, _)| **w >= room && **w > 0).map(|(_, p)| p.clone()).sum();
    Some(BlastOdds {
        odds: Odds { hit: reaches, wounds, down, residual: BigRational::zero() },
        lands,
        deviations_reaching,
        dice: (n, m),
    })
}

/// The act the odds in context give for `a`'s opening on `d` in `state`: the throw at `d` when
/// `a`'s `throw = first` policy throws first there (with an action to spare under its `keep`
/// policy, [`super::policy::throw_at`]), else [`opening_attack`].
pub fn opening_act(setup: &Setup, state: &State, a: CombatantId, d: CombatantId) -> Act {
    opening_throw(setup, state, a, d).and_then(Result::ok).unwrap_or_else(|| opening_attack(setup, a, d))
}

/// Whether `a`'s `throw = first` policy throws first at `d` in `state`: `None` when the policy
/// does not throw first (or has no action to spare), else the throw or why not.
fn opening_throw(setup: &Setup, state: &State, a: CombatantId, d: CombatantId) -> Option<Result<Act, &'static str>> {
    (setup.combatants[a.index()].policy.name(8) == "first" && super::policy::spares_an_action(setup, state, a))
        .then(|| super::policy::throw_at(setup, state, a, d))
}

/// The attack the odds in context give for `a` on `d`: with the main-hand weapon, a burst when
/// `a`'s `fire` policy is `burst` and the weapon can fire one, no walk and not from behind.
pub fn opening_attack(setup: &Setup, a: CombatantId, d: CombatantId) -> Act {
    let (w, _) = weapon_of(setup, a, Hand::Main);
    let mode = match w.class {
        Class::Melee => Mode::Melee,
        Class::Thrown => Mode::Thrown,
        Class::Ranged if setup.combatants[a.index()].policy.name(3) == "burst" && w.modes & Mode::Burst.bit() != 0 => {
            Mode::Burst
        }
        Class::Ranged => Mode::Single,
    };
    Act::Attack { target: d, hand: Hand::Main, mode, special: Special::None, walk: None, from_behind: false }
}

/// `attacker`'s attack on `defender` as its policies play it, the defender holding the actions
/// his `keep` policy keeps for reactions.
pub fn attack_odds(setup: &Setup, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
    attack_odds_at(setup, attacker, defender, None)
}

/// [`attack_odds`], with `distance` (metres) as if the attacker stood that far from the defender,
/// moved along the line between them (along +x when they share a point); everyone else stays
/// put. An attack that cannot be made from there (a melee attack out of reach, a shot beyond the
/// weapon's range) is an error that says why.
pub fn attack_odds_at(
    setup: &Setup,
    attacker: &str,
    defender: &str,
    distance: Option<f64>,
) -> Result<AttackOdds, String> {
    let find = |name: &str| crate::find_combatant(setup.combatants.iter().map(|c| c.name.as_str()), name);
    let (a, d) = (find(attacker)?, find(defender)?);
    if a == d {
        return Err("an attacker cannot attack itself".into());
    }
    let mut state = PhaseSix::initial_state(setup);
    state.round = 1;
    let from = state.distance(a, d);
    if let Some(distance) = distance {
        let distance = crate::check_distance(distance, crate::MAX_ODDS_DISTANCE, "m")?;
        state.fighters[a.index()].pos = crate::placed(state.fighter(d).pos, state.fighter(a).pos, distance);
    }
    state.fighters[a.index()].actions = setup.combatants[a.index()].actions;
    // The opening attack comes before the defender's first turn: he has no actions yet and
    // cannot react (P6-ACT-1). The odds if his turn came first, holding the actions his `keep`
    // policy keeps, follow in an assumption line.
    let keep = match setup.combatants[d.index()].policy.name(1) {
        "none" => 0,
        "all" => setup.combatants[d.index()].actions,
        _ => 1,
    };
    let mut kept = state.clone();
    kept.fighters[d.index()].actions = keep;
    kept.fighters[d.index()].started = true;
    let moved = distance.map(|_| {
        format!(
            "{attacker} stands {} from {defender} ({} in the file), moved along the line between them; everyone \
             else where the file puts them",
            crate::distance_text(state.distance(a, d), "m"),
            crate::distance_text(from, "m")
        )
    });
    let (w, _) = weapon_of(setup, a, Hand::Main);
    let attack = opening_attack(setup, a, d);
    // The AI's own first act, when it is a throw (its `throw` policy): the blast's odds, the weapon
    // attack beside them.
    let throw = opening_throw(setup, &state, a, d);
    if let Some(Ok(act)) = throw {
        let weapon = match super::policy::illegal(setup, &state, a, &attack) {
            None => odds_of(setup, &state, a, &attack).map(|o| (w.name.as_str(), o)),
            Some(_) => None,
        };
        return Ok(blast_attack_odds(setup, &state, (a, attacker), (d, defender), &act, moved, weapon));
    }
    let Act::Attack { mode, .. } = attack else { unreachable!("an attack") };
    if let Some(why) = super::policy::illegal(setup, &state, a, &attack) {
        let when = match distance {
            Some(_) => format!("from {}", crate::distance_text(state.distance(a, d), "m")),
            None => "from the start".to_owned(),
        };
        // A `throw = first` policy that would not throw here either: why not.
        let no_throw = match throw {
            Some(Err(no)) if state.fighter(a).items.iter().any(|&n| n > 0) => {
                format!("; {attacker}'s `throw` policy does not throw at {defender} there: {no}")
            }
            _ => String::new(),
        };
        return Err(format!("`{attacker}` cannot attack `{defender}` {when}: {why}{no_throw}"));
    }
    let (dice_n, m, c) = super::policy::attack_numbers(setup, &state, a, &attack);
    let odds = odds_of(setup, &state, a, &attack).ok_or_else(|| {
        format!(
            "{dice_n} hit dice have more than {MAX_POOL_OUTCOMES} outcomes (normal hits and crit levels): too many to \
             follow exactly; `fray sim` estimates this attack"
        )
    })?;
    let mut assumptions: Vec<String> = moved.into_iter().collect();
    assumptions.extend([
        format!(
            "{attacker} attacks with {} ({}): {dice_n} dice at {m}+{}",
            w.name,
            mode.name(),
            if c > 0 { format!(", crits from {c}") } else { ", no crits".to_owned() }
        ),
        format!("the attack comes before {defender}'s first turn: he has no actions yet and cannot react (P6-ACT-1)"),
        "cover, shield and protection against piercing as the scenario sets them".to_owned(),
    ]);
    if keep > 0
        && let Some(after) = odds_of(setup, &kept, a, &attack)
        && after != odds
    {
        assumptions.push(format!(
            "if {defender}'s turn comes first and he keeps {keep} action(s) for a reaction (his `keep` policy), he \
             reacts by his `defend` policy: hit {}, takes {defender} out {}",
            fray_dice::fraction(&after.hit),
            fray_dice::fraction(&after.down)
        ));
    }
    // A `throw = first` policy that does not throw at this defender here: why.
    if let Some(Err(why)) = throw
        && state.fighter(a).items.iter().any(|&n| n > 0)
    {
        assumptions
            .push(format!("{attacker}'s `throw` policy throws first where it may, but not at {defender} here: {why}"));
    }
    Ok(attack_odds_of(
        &odds,
        state.distance(a, d),
        assumptions,
        format!("wounds on {defender}, given ≥ 1 hit on the hit roll"),
    ))
}

/// The [`AttackOdds`] of `odds`, given ≥ 1 hit (`hit`).
fn attack_odds_of(odds: &Odds, distance: f64, assumptions: Vec<String>, damage_heading: String) -> AttackOdds {
    let hit = odds.hit.clone();
    let wound_given_hit: Vec<crate::HitOutcome> = if hit.is_zero() {
        Vec::new()
    } else {
        let misses = BigRational::one() - &hit;
        odds.wounds
            .iter()
            .filter_map(|(w, p)| {
                let p = if *w == 0 { p - &misses } else { p.clone() };
                (!p.is_zero()).then(|| (format!("{w} wound(s)"), vec![("wounds".to_owned(), *w)], p / &hit))
            })
            .collect()
    };
    let down_given_hit = if hit.is_zero() { BigRational::zero() } else { &odds.down / &hit };
    AttackOdds {
        distance: Some(distance),
        distance_unit: "m",
        assumptions,
        hit,
        damage_heading,
        damage_given_hit: wound_given_hit,
        down_given_hit,
        down: odds.down.clone(),
        residual: odds.residual.clone(),
        residual_note: format!("megacrit levels above {LEVELS} counted at level {LEVELS}"),
    }
}

/// The odds in context of `a`'s opening throw `act` at `d`: the blast's ([`throw_odds`]), with
/// the roll alone when the thrower's boosts change them, and the weapon attack beside them.
fn blast_attack_odds(
    setup: &Setup,
    state: &State,
    (a, attacker): (CombatantId, &str),
    (d, defender): (CombatantId, &str),
    act: &Act,
    moved: Option<String>,
    weapon: Option<(&str, Odds)>,
) -> AttackOdds {
    let options = &setup.options;
    let Act::Throw { item, .. } = *act else { unreachable!("a throw") };
    let it = &setup.combatants[a.index()].items[usize::from(item)];
    let played = throw_odds(setup, state, a, act, d, true).expect("a throw");
    let alone = throw_odds(setup, state, a, act, d, false).expect("a throw");
    let (n, m) = played.dice;
    let mut assumptions: Vec<String> = moved.into_iter().collect();
    let spent = if played != alone {
        format!(
            " (the bonus dice, rerolls and destiny dice {attacker}'s `spend` policy adds to a throw with no success \
             included, P6-RES-4/5)"
        )
    } else {
        String::new()
    };
    assumptions.extend([
        format!(
            "{attacker}'s `throw` policy throws first: the {} at {defender}, {n} dice at {m}+; it lands on {defender} \
             with ≥ 1 success (P6-THROW-1): {}{spent}",
            it.name,
            fray_dice::fraction(&played.lands)
        ),
        format!(
            "with no success it deviates a d12 clock hour and a d6 metres (P6-THROW-2/3, `deviation_geometry = {}`): \
             {} of the 72 landing points are within {} of {defender} (P6-THROW-4)",
            if options.deviation_line { "line_1d" } else { "clock_2d" },
            played.deviations_reaching,
            crate::distance_text(options.throw_radius_m, "m")
        ),
        format!(
            "P(hit) is the chance the blast reaches {defender}: {} normal hit(s) of {} wound(s), piercing {}, which he \
             cannot dodge or parry (P6-THROW-3), through his cover roll and protection as the scenario sets them \
             (P6-DMG-4)",
            it.hits, it.wounds_per_hit, it.piercing
        ),
    ]);
    if played != alone {
        assumptions.push(format!(
            "the roll alone, nothing spent on the throw: the blast reaches {defender} {}, takes {defender} out {}",
            fray_dice::fraction(&alone.odds.hit),
            fray_dice::fraction(&alone.odds.down)
        ));
    }
    if let Some((name, o)) = weapon {
        assumptions.push(format!(
            "{attacker}'s {name} attack instead (once nothing is left to throw, or under `throw = never`): hit {}, takes \
             {defender} out {}",
            fray_dice::fraction(&o.hit),
            fray_dice::fraction(&o.down)
        ));
    }
    attack_odds_of(
        &played.odds,
        state.distance(a, d),
        assumptions,
        format!("wounds on {defender}, given the blast reaches him"),
    )
}
