//! Odds in context: the exact distribution of the wounds one attack inflicts through the whole
//! pipeline — hit roll with crits and megacrits, the defender's reaction as his policy makes it
//! (dodge, parry, shield parry), the cover roll, protection against piercing, with the bonus
//! dice, rerolls and destiny dice each side's `spend` policy spends on its rolls — and the chance
//! it drops him. A K.O. attack and a disarm follow the same pipeline to the target's check
//! against the hits left (with what his `spend` policy spends on it), a coup de grâce its hit
//! roll's successes (P6-SPECIAL-3..12). Every die's tiers follow the exploding d6's closed
//! form P(d6! ≥ t) = 6^−k·(7 − j)/6 (t = 6k + j); megacrit levels above [`LEVELS`] are counted
//! at that level, and their mass is reported as the residual.

use super::dice::{self, Tier};
use super::run::{numbers, weapon_of};
use super::setup::{Class, Mode, Setup};
use super::{Act, Choice, Cond, Hand, PhaseSix, Reaction, Request, Special, State};
use crate::AttackOdds;
use fray_dice::BigRational;
use fray_engine::{CombatantId, Ruleset};
use num_bigint::BigInt;
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
    die_tiers_apart(options, m, m, c)
}

/// [`die_tiers`] of a die that succeeds at `success_m` in a roll whose minimum roll is `roll_m`
/// ([`dice::tier_apart`]): a destiny die rolled apart succeeds at min(M, 4), its crit tier judged
/// like any die of the roll (P6-RES-5, P6-CRIT-4).
fn die_tiers_apart(options: &super::Options, success_m: i32, roll_m: i32, c: i32) -> Vec<(Tier, BigRational)> {
    let (m, one) = (success_m, BigRational::one());
    let hit = p_at_least(m);
    let mut out = vec![(Tier::Miss, &one - &hit)];
    if c == 0 {
        out.push((Tier::Normal, hit));
        return out;
    }
    let c_eff = dice::crit_threshold(options, c, roll_m);
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
/// (a dodge takes them all), which crits the cover (and a crit parry) stops, what is left in the
/// defender's purse for a resistance check after the attack (K.O., disarm; [`Purse::default`]
/// when nothing comes after), and the probability (under [`Stopped::Random`], of each set of
/// crits stopped).
type Branch = (u8, bool, Stopped, Purse, BigRational);

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
    /// P(≥ 1 hit on the hit roll) (of a coup de grâce: ≥ 1 success).
    pub hit: BigRational,
    /// Wounds inflicted, with probabilities (over all outcomes, misses included as 0). A K.O.
    /// attack, a disarm and a coup de grâce inflict none.
    pub wounds: BTreeMap<i32, BigRational>,
    /// P(the defender drops: Dying or dead from the wounds, knocked out by a K.O. attack, dead
    /// from a coup de grâce).
    pub down: BigRational,
    /// P(a disarming attack disarms the defender); 0 for any other attack.
    pub disarms: BigRational,
    /// Mass counted at the top megacrit level.
    pub residual: BigRational,
}

/// How an attack ends once its hits are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// In wounds through protection: a plain or massive attack.
    Wounds,
    /// In the target's check of `dice` dice at `m` against the hits counted at `stage`, fewer
    /// successes than hits doing what the attack is for (K.O., P6-SPECIAL-3/4; disarm,
    /// P6-SPECIAL-7/8, which needs a target `armed`).
    Check { dice: i32, m: i32, stage: Stage, roll: super::BoostedRoll, armed: bool, ko: bool },
    /// In the hit roll's successes alone: a coup de grâce (P6-SPECIAL-11/12).
    Coup,
}

/// Where a check's hits are counted (`disarm_hits_stage`, P6-SPECIAL-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The hit roll's successes.
    Raw,
    /// Left after the reaction and the cover.
    AfterCover,
    /// Left after protection too.
    AfterProtection,
}

/// The odds of `act` by `who` in `state`, the defender reacting by his policy with the actions
/// he holds (and only to an attacker he perceives), the cover rolls as the fight makes them, and
/// the bonus dice, rerolls and destiny dice the attacker spends on the hit roll and the defender
/// on his dodge, parry and cover rolls by their `spend` policies (P6-RES-4/5), what one roll
/// leaves in the defender's purse carried to the next ([`odds_as`] with `boosts`).
pub fn odds_of(setup: &Setup, state: &State, who: CombatantId, act: &Act) -> Option<Odds> {
    odds_as(setup, state, who, act, true)
}

/// Whether `who`'s AI would spend anything (a bonus die, a reroll, a destiny die) on the roll of
/// `act` — an attack's hit roll, a throw roll — were it to show no success, holding what it
/// holds in `state` (its `spend` policy, P6-RES-4/5): when not, [`odds_as`] is the same with and
/// without `boosts`.
pub fn spends_on_roll(setup: &Setup, state: &State, who: CombatantId, act: &Act) -> bool {
    let purse = Purse::of(state.fighter(who));
    let (roll, dice, m) = match act {
        Act::Attack { .. } => {
            let n = numbers(setup, state, who, act);
            (super::BoostedRoll::Hit, n.dice, n.m)
        }
        Act::Throw { .. } => {
            let (n, m) = super::run::throw_numbers(setup, state, who);
            (super::BoostedRoll::Throw, n, m)
        }
        _ => return false,
    };
    !purse.is_empty() && Roller { setup, state, who, roll, m }.spends(purse, dice).is_some()
}

/// The odds of `act` by `who` in `state` ([`odds_of`]), with what its AI spends on its own roll
/// (the hit roll, a throw roll) when `boosts`, else with the roll alone, as a person who decides
/// that himself may leave it; the defender's decisions are his policies' either way.
/// Under `cover_crit_removal = roll_order` a pool outcome keeps its crit levels, not their order;
/// the dice are exchangeable, so the levels stand in a uniformly random order, and the crits the
/// cover stops are any set of their number, every set alike (after a crit parry, which leaves
/// them highest first, the places are followed instead): exact too.
pub fn odds_as(setup: &Setup, state: &State, who: CombatantId, act: &Act, boosts: bool) -> Option<Odds> {
    if let Act::Throw { target, .. } = *act {
        return throw_odds(setup, state, who, act, target, boosts).map(|t| t.odds);
    }
    let options = &setup.options;
    let Act::Attack { target, hand, mode, special, from_behind, .. } = *act else { return None };
    let n = numbers(setup, state, who, act);
    let (w, _) = weapon_of(setup, who, hand);
    let ts = &setup.combatants[target.index()];
    let tx = state.fighter(target);
    // How the attack ends once its hits are known. A massive attack (P6-SPECIAL-5) is an attack
    // with more dice, paid with more actions: the fight's own numbers and cost give both. A K.O.
    // attack and a disarm end in the target's check against the hits (P6-SPECIAL-3/4/7/8), a
    // coup de grâce in the hit roll's successes alone (P6-SPECIAL-11/12).
    let base_m = super::run::base_m_of(setup, state, target);
    let end = match special {
        Special::None | Special::Massive(_) => End::Wounds,
        Special::Ko => End::Check {
            dice: super::run::ko_resistance(setup, state, target),
            m: base_m,
            stage: Stage::AfterProtection,
            roll: super::BoostedRoll::Check("K.O. resistance"),
            armed: true,
            ko: true,
        },
        Special::Disarm => End::Check {
            dice: super::run::disarm_resistance(setup, state, target),
            m: base_m,
            stage: match options.disarm_stage {
                1 => Stage::Raw,
                2 => Stage::AfterProtection,
                _ => Stage::AfterCover,
            },
            roll: super::BoostedRoll::Check("disarm resistance"),
            armed: tx.armed,
            ko: false,
        },
        Special::Coup => End::Coup,
    };
    let check = matches!(end, End::Check { .. });
    // The mass lumped at the top megacrit level: none without crits (the last tier is then a
    // normal hit), else at most P(a die reaches it) per die.
    let top = match die_tiers(options, n.m, n.c).last() {
        Some((Tier::Crit(LEVELS), p)) => p.clone(),
        _ => BigRational::zero(),
    };
    let purse = Purse::of(state.fighter(who));
    let roller = Roller { setup, state, who, roll: super::BoostedRoll::Hit, m: n.m };
    let (dist, total, mut residual) = if boosts && spends_on_roll(setup, state, who, act) {
        // What the attacker spends on a hit roll with no success (P6-RES-4/5): the mass of the
        // outcomes with a die at the top level is what is counted there.
        let (dist, total) = boosted_hits(options, n.dice, n.m, n.c, roller, purse)?;
        let top_mass: BigInt =
            dist.iter().filter(|((_, crits), _)| crits.first() == Some(&LEVELS)).map(|(_, w)| w).sum();
        let residual = if top.is_zero() { BigRational::zero() } else { BigRational::new(top_mass, total.clone()) };
        (dist, total, residual)
    } else {
        let (dist, total) = pool_weights(options, n.dice, n.m, n.c)?;
        (dist, total, top * BigRational::from_integer(n.dice.max(0).into()))
    };
    let protection = (ts.protection(options, &tx.armour_pct) - w.piercing).max(0);
    let wph = w.wounds_per_hit;
    if end != End::Wounds {
        // Only the number of hits counts, and how many of them are crits: the crit levels lumped
        // at the top make no difference.
        residual = BigRational::zero();
    }
    if end == End::Coup {
        return Some(coup_odds(options, tx, &dist, &total, wph));
    }
    // The state the defender reacts in: the attack paid for (P6-ACT-5), its attacker the actor,
    // as the fight asks him (a destiny die steals only from an actor with an action left, P6-RES-3).
    let mut at_roll = state.clone();
    at_roll.fighters[who.index()].actions -= super::run::cost(setup, state, who, act);
    at_roll.actor = Some(who);
    let at_roll = &at_roll;
    // The same few rolls serve every pool outcome: computed once each. A roll the defender does
    // not boost (no purse, a `spend` policy that does not, no hits of its kind) is the roll alone.
    type Counts = std::rc::Rc<BTreeMap<(usize, Purse), BigRational>>;
    let mut rolls: BTreeMap<(i32, i32, Option<&str>, Purse), Counts> = BTreeMap::new();
    let mut cached = |n: i32, t: i32, roll: Option<super::BoostedRoll>, purse: Purse| -> Counts {
        let roller = roll.map(|roll| Roller { setup, state: at_roll, who: target, roll, m: t });
        let key = (n, t, roll.map(super::BoostedRoll::name), purse);
        rolls.entry(key).or_insert_with(|| boosted(n, t, roller, purse).into()).clone()
    };
    // What the defender's reaction and the cover roll do depends only on how many normal hits and
    // crits the pool shows. Per such group the branches are worked out once: (normal hits left,
    // crits kept at all, which crits the cover stops, probability). Each pool outcome's integer
    // weight is added to the (group, branch, wounds) it leads to, and the fractions are
    // multiplied out once per such key.
    let mut branches_of = |normals: u8, n_crits: usize| -> Vec<Branch> {
        // (normal hits left, crits kept at all, a shield parry, the highest crits a parry took,
        // the defender's purse) → probability.
        let mut branches: BTreeMap<(u8, bool, bool, usize, Purse), BigRational> =
            BTreeMap::from([((normals, true, false, 0, Purse::of(tx)), BigRational::one())]);
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
            if let Choice::React { reaction: Some(reaction), buy } =
                super::policy::ai_choice(setup, at_roll, target, &request)
            {
                // The action bought with a bonus die or a destiny die (P6-RES-1/2).
                let mut purse = Purse::of(tx);
                match buy {
                    1 => purse.bonus -= 1,
                    2 => purse.destiny -= 1,
                    _ => {}
                }
                let base_m = super::run::base_m_of(setup, state, target);
                let mut out: BTreeMap<(u8, bool, bool, usize, Purse), BigRational> = BTreeMap::new();
                let mut add = |key, q: BigRational| *out.entry(key).or_insert_with(BigRational::zero) += q;
                match reaction {
                    Reaction::Dodge => {
                        let t = base_m + i32::from(normals) + n_crits as i32;
                        let dice_n = ts.evasion() - tx.condition(Cond::Shocked);
                        for ((k, left), q) in cached(dice_n, t, Some(super::BoostedRoll::Dodge), purse).iter() {
                            let dodged = *k >= 1;
                            add((if dodged { 0 } else { normals }, !dodged, false, 0, *left), q.clone());
                        }
                    }
                    Reaction::Parry => {
                        let dp = super::run::parry_dp(setup, state, target);
                        let m = dice::floor(options, base_m + tx.condition(Cond::Burning), 0);
                        let dice_n = ts.hand_to_hand + dp - tx.condition(Cond::Shocked);
                        if options.parry_crits {
                            // Under `parry_vs_crits = crit_successes` a parry die of 11+ takes
                            // the highest crit first, other successes normal hits (P6-DEF-5).
                            crit_parry = true;
                            let roller =
                                Roller { setup, state: at_roll, who: target, roll: super::BoostedRoll::Parry, m };
                            for (((cs, s), left), q) in boosted_parry(dice_n, m, roller, purse) {
                                let k = cs.min(n_crits);
                                add((normals.saturating_sub((s - k) as u8), true, false, k, left), q);
                            }
                        } else {
                            for ((k, left), q) in cached(dice_n, m, Some(super::BoostedRoll::Parry), purse).iter() {
                                add((normals.saturating_sub(*k as u8), true, false, 0, *left), q.clone());
                            }
                        }
                    }
                    Reaction::ShieldParry => add((normals, true, true, 0, purse), BigRational::one()),
                    // The AI reacts to an attack on itself with a defence only; a hunker or an
                    // attack in reply leaves these hits as rolled.
                    Reaction::Hunker | Reaction::Attack { .. } => {
                        add((normals, true, false, 0, purse), BigRational::one())
                    }
                }
                branches = out;
            }
        }
        let mut out = Vec::new();
        for ((normals, kept, shield, parried, purse), q) in branches {
            let crits = if kept { n_crits - parried.min(n_crits) } else { 0 };
            // The cover rolls as the fight makes them (P6-COVER-1..5): the sources and thresholds
            // from the fight's own code, one roll per source under `sequential`, each on the hits
            // still left, Shocked taking cover dice from the normal hits first; the crit dice
            // rolled first, then the normal hits', each boosted by the defender's `spend` policy
            // if it has hits of its kind to remove (P6-RES-4/5). Successes among the crit dice
            // stop the highest crits (`highest_first`), or under `roll_order` the crits their
            // dice stand for: the i-th crit die the i-th crit still standing, and a success of a
            // die a boost added the first crit still unprotected.
            let (sources, fewer) = super::run::cover_values(setup, state, target, shield);
            if options.cover_roll_order && crit_parry {
                // The crits stand highest first: which of them the crit dice cover, and which
                // go without a die (Shocked), is known, so the places are followed.
                let mut states: BTreeMap<(u8, u32, Purse), BigRational> = BTreeMap::from([((normals, 0, purse), q)]);
                for v in &sources {
                    let mut next: BTreeMap<(u8, u32, Purse), BigRational> = BTreeMap::new();
                    for ((n_left, mask, purse), p) in states {
                        let standing: Vec<usize> = (0..crits).filter(|i| mask & (1 << i) == 0).collect();
                        if n_left == 0 && standing.is_empty() {
                            *next.entry((n_left, mask, purse)).or_insert_with(BigRational::zero) += p;
                            continue;
                        }
                        let normal_dice = (i32::from(n_left) - fewer).max(0);
                        let crit_dice = (standing.len() as i32 - (fewer - i32::from(n_left)).max(0)).max(0) as usize;
                        let roller = (!standing.is_empty()).then_some(Roller {
                            setup,
                            state: at_roll,
                            who: target,
                            roll: super::BoostedRoll::Cover,
                            m: *v,
                        });
                        for (((own, spares), purse), pc) in boosted_places(crit_dice as i32, *v, roller, purse) {
                            let mut after = mask;
                            let mut spare = spares;
                            for (i, place) in standing.iter().enumerate() {
                                if i < crit_dice && own & (1 << i) != 0 {
                                    after |= 1 << place;
                                } else if spare > 0 {
                                    spare -= 1;
                                    after |= 1 << place;
                                }
                            }
                            let roll = (n_left > 0).then_some(super::BoostedRoll::Cover);
                            for ((rn, purse), qn) in cached(normal_dice, *v, roll, purse).iter() {
                                let key = (n_left - (*rn).min(usize::from(n_left)) as u8, after, *purse);
                                *next.entry(key).or_insert_with(BigRational::zero) += &p * &pc * qn;
                            }
                        }
                    }
                    states = next;
                }
                let mut merged: BTreeMap<(u8, u32, Purse), BigRational> = BTreeMap::new();
                for ((n_left, mask, purse), p) in states {
                    let purse = if check { purse } else { Purse::default() };
                    *merged.entry((n_left, mask, purse)).or_insert_with(BigRational::zero) += p;
                }
                for ((n_left, mask, purse), p) in merged {
                    out.push((n_left, kept, Stopped::Places { parried, mask }, purse, p));
                }
                continue;
            }
            let mut states: BTreeMap<(u8, usize, Purse), BigRational> = BTreeMap::from([((normals, 0, purse), q)]);
            for &v in &sources {
                let mut next: BTreeMap<(u8, usize, Purse), BigRational> = BTreeMap::new();
                for ((n_left, stopped, purse), p) in states {
                    let c_left = crits - stopped;
                    if n_left == 0 && c_left == 0 {
                        *next.entry((n_left, stopped, purse)).or_insert_with(BigRational::zero) += p;
                        continue;
                    }
                    let normal_dice = (i32::from(n_left) - fewer).max(0);
                    let crit_dice = (c_left as i32 - (fewer - i32::from(n_left)).max(0)).max(0);
                    let bc = cached(crit_dice, v, (c_left > 0).then_some(super::BoostedRoll::Cover), purse);
                    for ((rc, purse), qc) in bc.iter() {
                        let bn = cached(normal_dice, v, (n_left > 0).then_some(super::BoostedRoll::Cover), *purse);
                        for ((rn, purse), qn) in bn.iter() {
                            let key =
                                (n_left - (*rn).min(usize::from(n_left)) as u8, stopped + (*rc).min(c_left), *purse);
                            *next.entry(key).or_insert_with(BigRational::zero) += &p * qc * qn;
                        }
                    }
                }
                states = next;
            }
            let mut merged: BTreeMap<(u8, usize, Purse), BigRational> = BTreeMap::new();
            for ((n_left, stopped, purse), p) in states {
                let purse = if check { purse } else { Purse::default() };
                *merged.entry((n_left, stopped, purse)).or_insert_with(BigRational::zero) += p;
            }
            for ((n_left, stopped, purse), p) in merged {
                // A check counts the crits left, not which: every set of them alike.
                if options.cover_roll_order && kept && !check {
                    // In roll order (no crit parry here, so `parried` is 0) the crits stopped
                    // are any `stopped` of them, every such set alike: the probability of each.
                    // (A success of a die a boost added stops the first crit still unprotected,
                    // a place that does not depend on the levels either.)
                    let sets = BigRational::from_integer(choose(crits, stopped).into());
                    out.push((n_left, kept, Stopped::Random(stopped), purse, p / sets));
                } else {
                    out.push((n_left, kept, Stopped::Highest(parried + stopped), purse, p));
                }
            }
        }
        out
    };
    if let End::Check { dice: check_dice, m: check_m, stage, roll, armed, ko } = end {
        // The hits a check is against hang on the pool outcome's group (normal hits, crits) and
        // the branch alone: the outcomes' weights summed by group.
        let mut by_group: BTreeMap<(u8, usize), BigInt> = BTreeMap::new();
        let mut hit_weight = BigInt::zero();
        for ((normals, crits), weight) in &dist {
            if *normals > 0 || !crits.is_empty() {
                hit_weight += weight;
            }
            *by_group.entry((*normals, crits.len())).or_insert_with(BigInt::zero) += weight;
        }
        // P(fewer successes than the hits), per hits and purse: the check as the target rolls
        // it, with what his `spend` policy spends on it (P6-RES-4/5), from what the reaction and
        // the cover rolls left him.
        let mut fails: BTreeMap<(i32, Purse), BigRational> = BTreeMap::new();
        let mut ends = BigRational::zero();
        for ((g0, g1), weight) in by_group {
            let mut sum = BigRational::zero();
            for (left, kept, stopped, purse, q) in branches_of(g0, g1) {
                let standing = match stopped {
                    _ if !kept => 0,
                    // (`Random` is not made for a check: every set of crits stopped counts alike.)
                    Stopped::Highest(k) | Stopped::Random(k) => g1 - k.min(g1),
                    Stopped::Places { parried, mask } => {
                        (g1 - parried.min(g1)).saturating_sub(mask.count_ones() as usize)
                    }
                } as i32;
                let left = i32::from(left);
                let hits = match stage {
                    Stage::Raw => i32::from(g0) + g1 as i32,
                    Stage::AfterCover => left + standing,
                    Stage::AfterProtection => left - protection.min(left) + standing,
                };
                if hits < 1 || !armed {
                    continue;
                }
                let roller = Roller { setup, state: at_roll, who: target, roll, m: check_m };
                let p = fails
                    .entry((hits, purse))
                    .or_insert_with(|| check_fails(options, check_dice, check_m, hits, roller, purse));
                sum += q * &*p;
            }
            ends += BigRational::new(weight, total.clone()) * sum;
        }
        let hit = BigRational::new(hit_weight, total);
        let wounds = BTreeMap::from([(0, BigRational::one())]);
        let (down, disarms) = if ko { (ends, BigRational::zero()) } else { (BigRational::zero(), ends) };
        return Some(Odds { hit, wounds, down, disarms, residual });
    }
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
        for (i, (left, kept, stopped, _, _)) in branches.iter().enumerate() {
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
        for (i, (left, kept, stopped, _, _)) in branches.iter().enumerate() {
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
        let q = &groups[&(g0, g1)][i].4;
        *wounds.entry(total_wounds).or_insert_with(BigRational::zero) += BigRational::new(weight, total.clone()) * q;
    }
    let hit = BigRational::new(hit_weight, total);
    let room = ts.max_wounds - tx.wounds + tx.boosts;
    let down: BigRational = wounds.iter().filter(|(w, _)| **w >= room && **w > 0).map(|(_, p)| p.clone()).sum();
    Some(Odds { hit, wounds, down, disarms: BigRational::zero(), residual })
}

/// The odds of a coup de grâce on the helpless `tx` (P6-SPECIAL-11/12), from its hit roll's
/// outcomes `dist` (weights over `total`): no reaction, cover or protection; each die at M a
/// success, a crit one too; ≥ 1 success raises Dying by the successes (or kills at once under
/// `coup_de_grace = dead`, or under `dying_plus_wounds` raises an already Dying target's by the
/// attack's wounds, megacrits adding their levels), and Dying 6 kills (P6-TRACK-5). `down` is
/// the chance it kills. Crit levels lumped at [`LEVELS`] (≥ 8) kill under `dying_plus_wounds`
/// wherever they stand, as the exact levels would: exact.
fn coup_odds(
    options: &super::Options,
    tx: &super::Fighter,
    dist: &BTreeMap<PoolOutcome, BigInt>,
    total: &BigInt,
    wph: i32,
) -> Odds {
    let dying = tx.condition(Cond::Dying);
    let (mut hit, mut dead) = (BigInt::zero(), BigInt::zero());
    for ((normals, crits), weight) in dist {
        let successes = i32::from(*normals) + crits.len() as i32;
        if successes == 0 {
            continue;
        }
        hit += weight;
        let extra: i32 = crits.iter().map(|&k| i32::from(k)).sum();
        if super::run::coup_dying(options, dying, successes, wph, extra).is_none_or(|after| after >= 6) {
            dead += weight;
        }
    }
    Odds {
        hit: BigRational::new(hit, total.clone()),
        wounds: BTreeMap::from([(0, BigRational::one())]),
        down: BigRational::new(dead, total.clone()),
        disarms: BigRational::zero(),
        residual: BigRational::zero(),
    }
}

/// P(a check of `n` dice at `m` shows fewer than `hits` successes), each die 1 success at `m` and,
/// under `check_crit_successes = on`, 2 + k at 11 + 6k (P6-DICE-5), with what `roller` spends
/// on a check with no success ([`spend_on`]). Successes are counted up to `hits`, which is all
/// the comparison needs: exact.
fn check_fails(options: &super::Options, n: i32, m: i32, hits: i32, roller: Roller<'_>, purse: Purse) -> BigRational {
    let cap = hits.max(1) as usize;
    // One die's successes at `m`, those of `cap` or more counted as `cap`.
    let die = |m: i32| -> Vec<BigRational> {
        let at_least =
            |j: usize| dice::check_threshold(options, j as i32, m).map_or_else(BigRational::zero, p_at_least);
        (0..=cap).map(|j| if j == cap { at_least(j) } else { at_least(j) - at_least(j + 1) }).collect()
    };
    let one = die(m);
    let weights = |p: &[BigRational]| weights_of(p.iter().cloned().enumerate());
    let roll = |len: i32| {
        let mut dist = vec![BigRational::zero(); cap + 1];
        dist[0] = BigRational::one();
        for _ in 0..len.clamp(0, 60) {
            let mut next = vec![BigRational::zero(); cap + 1];
            for (a, pa) in dist.iter().enumerate().filter(|(_, p)| !p.is_zero()) {
                for (b, pb) in one.iter().enumerate() {
                    next[(a + b).min(cap)] += pa * pb;
                }
            }
            dist = next;
        }
        Some(weights(&dist))
    };
    let (bonus, destiny) = (weights(&one), weights(&die(m.min(4))));
    let roller = (!purse.is_empty()).then_some(roller);
    let (w, den) = spend_on(n.clamp(0, 60), roller, purse, roll, &bonus, &destiny, |k| *k >= 1, 0)
        .expect("a check's successes are always followed");
    let short: BigInt = w.iter().filter(|((k, _), _)| (*k as i32) < hits).map(|(_, w)| w).sum();
    BigRational::new(short, den)
}

/// What a roller holds to boost a roll with (P6-RES-4/5): bonus dice, rerolls, destiny dice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Purse {
    bonus: i32,
    rerolls: i32,
    destiny: i32,
}

impl Purse {
    fn of(x: &super::Fighter) -> Purse {
        Purse { bonus: x.bonus_dice, rerolls: x.rerolls, destiny: x.destiny_dice }
    }

    /// Nothing left to spend.
    fn is_empty(self) -> bool {
        self.bonus < 1 && self.rerolls < 1 && self.destiny < 1
    }
}

/// Outcomes with integer weights over one denominator (beside them).
type Weights<K> = (BTreeMap<K, BigInt>, BigInt);

/// The [`Weights`] of outcomes given as fractions: over the least common denominator.
fn weights_of<K: Ord>(dist: impl IntoIterator<Item = (K, BigRational)>) -> Weights<K> {
    use num_integer::Integer;
    let dist: Vec<(K, BigRational)> = dist.into_iter().collect();
    let den = dist.iter().fold(BigInt::one(), |acc, (_, p)| acc.lcm(p.denom()));
    let mut out: BTreeMap<K, BigInt> = BTreeMap::new();
    for (k, p) in dist {
        *out.entry(k).or_insert_with(BigInt::zero) += p.numer() * (&den / p.denom());
    }
    (out, den)
}

/// Who rolls a roll the AI may boost, on what, and at which minimum roll: what its `spend`
/// policy is asked about.
#[derive(Clone, Copy)]
struct Roller<'a> {
    setup: &'a Setup,
    state: &'a State,
    who: CombatantId,
    roll: super::BoostedRoll,
    m: i32,
}

impl Roller<'_> {
    /// What the AI spends on a roll of `dice` dice with no success, holding `purse`: its own
    /// answer to the fight's boost request ([`super::policy::ai_choice`], P6-RES-4/5).
    fn spends(&self, purse: Purse, dice: i32) -> Option<super::Boost> {
        let mut state = self.state.clone();
        let x = &mut state.fighters[self.who.index()];
        (x.bonus_dice, x.rerolls, x.destiny_dice) = (purse.bonus, purse.rerolls, purse.destiny);
        // Every die short of any minimum roll (at least 2, P6-DICE-4): a roll with no success.
        let request = Request::Boost {
            roll: self.roll,
            against: None,
            totals: super::Totals::from_elem(1, dice.clamp(0, 255) as usize),
            apart: super::Totals::new(),
            m: self.m,
            c: None,
        };
        match super::policy::ai_choice(self.setup, &state, self.who, &request) {
            Choice::Boost(b) => b,
            _ => None,
        }
    }
}

/// A roll of `n` dice as the fight makes it, with what the roller spends on it (P6-RES-4/5):
/// after seeing a roll with no success its AI may spend a bonus die (one more die), a reroll of
/// the whole pool (the bonus dice added included), a destiny die rolled apart or a destiny die as
/// a reroll, one at a time, asked again after each, until the roll has a success or it spends
/// nothing more ([`Roller::spends`]; `None`: the roll alone). `roll(len)` gives the outcomes of
/// a pool of `len` dice (the roll's own first, then the bonus dice added), `bonus` and `destiny`
/// those of one added die or destiny die rolled apart with the pool's dice all failed; `nothing`
/// is the outcome with no success. Since a boost is spent only on a roll with no success, each
/// outcome is that of the last roll or die alone. Each outcome comes with what is left in the
/// purse. `None` when a pool has too many outcomes to follow.
#[allow(clippy::too_many_arguments, reason = "the roll and its three kinds of dice")]
fn spend_on<K: Ord + Clone>(
    n: i32,
    roller: Option<Roller<'_>>,
    purse: Purse,
    mut roll: impl FnMut(i32) -> Option<Weights<K>>,
    bonus: &Weights<K>,
    destiny: &Weights<K>,
    success: impl Fn(&K) -> bool,
    nothing: K,
) -> Option<Weights<(K, Purse)>> {
    let mut out: BTreeMap<(K, Purse), BigInt> = BTreeMap::new();
    let mut den = BigInt::one();
    // Adds the successes of `dist`, times the mass `scale`, at `purse`; returns the mass of its
    // failures, times `scale`.
    let add =
        |out: &mut BTreeMap<(K, Purse), BigInt>, den: &mut BigInt, dist: &Weights<K>, scale: &BigRational, purse| {
            let f = rescale(out, den, &(scale.denom() * &dist.1)) * scale.numer();
            let mut failed = BigInt::zero();
            for (k, w) in &dist.0 {
                if success(k) {
                    *out.entry((k.clone(), purse)).or_insert_with(BigInt::zero) += w * &f;
                } else {
                    failed += w;
                }
            }
            scale * BigRational::new(failed, dist.1.clone())
        };
    let first = roll(n)?;
    let mut none = add(&mut out, &mut den, &first, &BigRational::one(), purse);
    let (mut len, mut purse) = (n.max(0), purse);
    while !none.is_zero() {
        let spent = match roller {
            Some(r) if !purse.is_empty() => r.spends(purse, len),
            _ => None,
        };
        let dist = match spent {
            Some(super::Boost::BonusDie) => {
                purse.bonus -= 1;
                len += 1;
                bonus.clone()
            }
            Some(super::Boost::DestinyDie) => {
                purse.destiny -= 1;
                destiny.clone()
            }
            Some(super::Boost::Reroll) => {
                purse.rerolls -= 1;
                roll(len)?
            }
            Some(super::Boost::DestinyReroll) => {
                purse.destiny -= 1;
                roll(len)?
            }
            None => {
                // The roll kept as it is: no success.
                let f = rescale(&mut out, &mut den, none.denom()) * none.numer();
                *out.entry((nothing, purse)).or_insert_with(BigInt::zero) += f;
                break;
            }
        };
        none = add(&mut out, &mut den, &dist, &none, purse);
    }
    Some((out, den))
}

/// Puts `out` (weights over `den`) over the least common multiple of `den` and `d`; returns the
/// factor that puts weights over `d` over it.
fn rescale<K>(out: &mut BTreeMap<K, BigInt>, den: &mut BigInt, d: &BigInt) -> BigInt {
    use num_integer::Integer;
    let lcm = den.lcm(d);
    if lcm != *den {
        let f = &lcm / &*den;
        for v in out.values_mut() {
            *v *= &f;
        }
        *den = lcm;
    }
    &*den / d
}

/// The [`Weights`] of one die at `t` and apart at min(t, 4) (P6-RES-5): 1 success or none.
fn one_die(t: i32) -> (Weights<usize>, Weights<usize>) {
    let die = |t: i32| {
        let p = p_at_least(t);
        weights_of([(1, p.clone()), (0, BigRational::one() - p)])
    };
    (die(t), die(t.min(4)))
}

/// The successes of `n` dice at `t` (one per die that reaches it: a dodge, a parry without crit
/// parries, a cover roll's hits removed, or whether a throw lands), with what `roller` spends on
/// a roll with no success ([`spend_on`]; `None`: the roll alone), each with what is left in the
/// purse.
fn boosted(n: i32, t: i32, roller: Option<Roller<'_>>, purse: Purse) -> BTreeMap<(usize, Purse), BigRational> {
    let (bonus, destiny) = one_die(t);
    let roll = |len: i32| Some(weights_of(binomial(len, t).into_iter().enumerate()));
    let (w, den) = spend_on(n.clamp(0, 60), roller, purse, roll, &bonus, &destiny, |k| *k >= 1, 0)
        .expect("binomials are always followed");
    w.into_iter().map(|(k, w)| (k, BigRational::new(w, den.clone()))).collect()
}

/// A cover roll's crit dice under `cover_crit_removal = roll_order`, with what `roller` spends on
/// it ([`spend_on`]): which of its `n` own dice (bits) succeed, and how many successes the dice
/// added by a bonus die or rolled apart show, each protecting the first crit still unprotected
/// (P6-COVER-3, P6-RES-4/5), with what is left in the purse.
fn boosted_places(
    n: i32,
    t: i32,
    roller: Option<Roller<'_>>,
    purse: Purse,
) -> BTreeMap<((u32, usize), Purse), BigRational> {
    let n = n.clamp(0, 16);
    let (p, q) = (p_at_least(t), BigRational::one() - p_at_least(t));
    let roll = |len: i32| {
        let len = len.clamp(0, 16);
        let mut dist: BTreeMap<(u32, usize), BigRational> = BTreeMap::new();
        for mask in 0u32..(1 << len) {
            let hits = mask.count_ones() as usize;
            let pr = (0..hits).fold(BigRational::one(), |a, _| a * &p)
                * (0..len as usize - hits).fold(BigRational::one(), |a, _| a * &q);
            let key = (mask & ((1 << n) - 1), (mask >> n).count_ones() as usize);
            *dist.entry(key).or_insert_with(BigRational::zero) += pr;
        }
        Some(weights_of(dist))
    };
    let die = |t: i32| {
        let p = p_at_least(t);
        weights_of([((0, 1), p.clone()), ((0, 0), BigRational::one() - p)])
    };
    let success = |k: &(u32, usize)| k.0 != 0 || k.1 > 0;
    let (w, den) = spend_on(n, roller, purse, roll, &die(t), &die(t.min(4)), success, (0, 0))
        .expect("a few dice are always followed");
    w.into_iter().map(|(k, w)| (k, BigRational::new(w, den.clone()))).collect()
}

/// A hit roll of `n` dice at `m`, crits from `c` ([`pool_weights`]), with what `roller` spends
/// on a roll with no hit (P6-RES-4/5): a bonus die is one more hit die, a destiny die rolled apart
/// hits at min(M, 4) and crits as any die of the roll ([`dice::tier_apart`]); the purse left
/// does not matter to the rest of the attack. `None` when a pool has too many outcomes.
fn boosted_hits(
    options: &super::Options,
    n: i32,
    m: i32,
    c: i32,
    roller: Roller<'_>,
    purse: Purse,
) -> Option<Weights<PoolOutcome>> {
    let single = |success_m: i32| {
        weights_of(die_tiers_apart(options, success_m, m, c).into_iter().map(|(t, p)| {
            let key = match t {
                Tier::Miss => (0, Vec::new()),
                Tier::Normal => (1, Vec::new()),
                Tier::Crit(k) => (0, vec![k]),
            };
            (key, p)
        }))
    };
    let roll = |len: i32| pool_weights(options, len, m, c);
    let hit = |k: &PoolOutcome| k.0 > 0 || !k.1.is_empty();
    let (w, den) = spend_on(n, Some(roller), purse, roll, &single(m), &single(m.min(4)), hit, (0, Vec::new()))?;
    let mut out: BTreeMap<PoolOutcome, BigInt> = BTreeMap::new();
    for ((k, _), w) in w {
        *out.entry(k).or_insert_with(BigInt::zero) += w;
    }
    Some((out, den))
}

/// A parry of `n` dice at `m` under `parry_vs_crits = crit_successes` ([`parry_split`]: crit
/// successes and successes), with what `roller` spends on a parry with no success (P6-RES-4/5):
/// a destiny die rolled apart succeeds at min(M, 4) and is a crit success at 11+, as the fight's
/// parry counts it (P6-DEF-5).
fn boosted_parry(n: i32, m: i32, roller: Roller<'_>, purse: Purse) -> BTreeMap<((usize, usize), Purse), BigRational> {
    let roll = |len: i32| Some(weights_of(parry_split(len, m)));
    let die = |success_m: i32| {
        let (hit, crit) = (p_at_least(success_m), p_at_least(success_m.max(11)));
        weights_of([((1, 1), crit.clone()), ((0, 1), &hit - crit), ((0, 0), BigRational::one() - hit)])
    };
    let (w, den) = spend_on(n.max(0), Some(roller), purse, roll, &die(m), &die(m.min(4)), |k| k.1 >= 1, (0, 0))
        .expect("a parry's pool is always followed");
    w.into_iter().map(|(k, w)| (k, BigRational::new(w, den.clone()))).collect()
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
    let roller = boosts.then_some(Roller { setup, state, who, roll: super::BoostedRoll::Throw, m });
    let lands: BigRational =
        boosted(n, m, roller, Purse::of(thrower)).into_iter().filter(|((k, _), _)| *k >= 1).map(|(_, q)| q).sum();
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
            let roller = Roller { setup, state, who: victim, roll: super::BoostedRoll::Cover, m: value };
            for ((removed, purse), q) in boosted(dice_n, value, Some(roller), purse) {
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
        odds: Odds { hit: reaches, wounds, down, disarms: BigRational::zero(), residual: BigRational::zero() },
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
        // A reroll after a bonus die rolls a larger pool than the attack's own.
        let more = if odds_as(setup, &state, a, &attack, false).is_some() {
            format!(" (with the bonus dice {attacker}'s `spend` policy adds before a reroll)")
        } else {
            String::new()
        };
        format!(
            "{dice_n} hit dice{more} have more than {MAX_POOL_OUTCOMES} outcomes (normal hits and crit levels): too \
             many to follow exactly; `fray sim` estimates this attack"
        )
    })?;
    let alone = spends_on_roll(setup, &state, a, &attack).then(|| odds_as(setup, &state, a, &attack, false)).flatten();
    let spent = alone.as_ref().is_some_and(|o| *o != odds);
    let mut assumptions: Vec<String> = moved.into_iter().collect();
    let defends = |roll| super::policy::spends_on(setup, d, roll);
    let dx = state.fighter(d);
    let buys = (dx.bonus_dice > 0 || dx.destiny_dice > 0) && defends(super::BoostedRoll::Dodge);
    assumptions.extend([
        format!(
            "{attacker} attacks with {} ({}): {dice_n} dice at {m}+{}{}",
            w.name,
            mode.name(),
            if c > 0 { format!(", crits from {c}") } else { ", no crits".to_owned() },
            if spent {
                format!(
                    ", with the bonus dice, rerolls and destiny dice {attacker}'s `spend` policy adds to a hit roll \
                     with no hit (P6-RES-4/5)"
                )
            } else {
                String::new()
            }
        ),
        if buys {
            format!(
                "the attack comes before {defender}'s first turn: he has no actions yet (P6-ACT-1), and reacts only \
                 with an action he buys with a bonus die or a destiny die, as his `spend` policy does (P6-RES-1/2)"
            )
        } else {
            format!(
                "the attack comes before {defender}'s first turn: he has no actions yet and cannot react (P6-ACT-1)"
            )
        },
        "cover, shield and protection against piercing as the scenario sets them".to_owned(),
    ]);
    let holds = !Purse::of(dx).is_empty();
    if holds
        && [super::BoostedRoll::Dodge, super::BoostedRoll::Parry, super::BoostedRoll::Cover].into_iter().any(defends)
    {
        assumptions.push(format!(
            "{defender} spends bonus dice, rerolls and destiny dice on a dodge, parry or cover roll with no success \
             by his `spend` policy, one at a time, what one roll leaves carrying to the next (P6-RES-4/5)"
        ));
        // A person who controls the defender decides that spending: the odds if he spends nothing
        // (no action bought to react with either), as for a defender with nothing to spend.
        let mut spent_nothing = state.clone();
        let x = &mut spent_nothing.fighters[d.index()];
        (x.bonus_dice, x.rerolls, x.destiny_dice) = (0, 0, 0);
        if let Some(none) = odds_of(setup, &spent_nothing, a, &attack)
            && none != odds
        {
            assumptions.push(format!(
                "if {defender} spends nothing (a person controlling him decides): hit {}, takes {defender} out {}",
                fray_dice::fraction(&none.hit),
                fray_dice::fraction(&none.down)
            ));
        }
    }
    if let Some(alone) = alone.filter(|_| spent) {
        assumptions.push(format!(
            "the roll alone, nothing spent on the hit roll: hit {}, takes {defender} out {}",
            fray_dice::fraction(&alone.hit),
            fray_dice::fraction(&alone.down)
        ));
    }
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
