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
    let (w, _) = weapon_of(setup, a, Hand::Main);
    let act = opening_attack(setup, a, d);
    let Act::Attack { mode, .. } = act else { unreachable!("an attack") };
    if let Some(why) = super::policy::illegal(setup, &state, a, &act) {
        let when = match distance {
            Some(_) => format!("from {}", crate::distance_text(state.distance(a, d), "m")),
            None => "from the start".to_owned(),
        };
        return Err(format!("`{attacker}` cannot attack `{defender}` {when}: {why}"));
    }
    let (dice_n, m, c) = super::policy::attack_numbers(setup, &state, a, &act);
    let odds = odds_of(setup, &state, a, &act).ok_or_else(|| {
        format!(
            "{dice_n} hit dice have more than {MAX_POOL_OUTCOMES} outcomes (normal hits and crit levels): too many to \
             follow exactly; `fray sim` estimates this attack"
        )
    })?;
    let mut assumptions = Vec::new();
    if distance.is_some() {
        assumptions.push(format!(
            "{attacker} stands {} from {defender} ({} in the file), moved along the line between them; everyone \
             else where the file puts them",
            crate::distance_text(state.distance(a, d), "m"),
            crate::distance_text(from, "m")
        ));
    }
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
        && let Some(after) = odds_of(setup, &kept, a, &act)
        && after != odds
    {
        assumptions.push(format!(
            "if {defender}'s turn comes first and he keeps {keep} action(s) for a reaction (his `keep` policy), he \
             reacts by his `defend` policy: hit {}, takes {defender} out {}",
            fray_dice::fraction(&after.hit),
            fray_dice::fraction(&after.down)
        ));
    }
    // The AI's own first act, when it is not this attack: a throw (its `throw` policy).
    if setup.combatants[a.index()].policy.name(8) == "first" && state.fighter(a).items.iter().any(|&n| n > 0) {
        assumptions.push(format!(
            "{attacker}'s `throw` policy throws first where it may: these are the odds of the {} attack, not of the \
             throw's blast",
            w.name
        ));
    }
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
    Ok(AttackOdds {
        distance: Some(state.distance(a, d)),
        distance_unit: "m",
        assumptions,
        hit,
        damage_heading: format!("wounds on {defender}, given ≥ 1 hit on the hit roll"),
        damage_given_hit: wound_given_hit,
        down_given_hit,
        down: odds.down,
        residual: odds.residual,
        residual_note: format!("megacrit levels above {LEVELS} counted at level {LEVELS}"),
    })
}
