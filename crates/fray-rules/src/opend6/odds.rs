//! Odds in context: one attack's chance to hit and the distribution of what it does to the
//! defender — the wound level after stacking, unconsciousness, the stay-up roll — over the attack
//! roll, the defender's active defence roll, the damage roll and the resistance roll (and, for a
//! defender who rolls his Body Points at the start, that roll), from the fight's own rule
//! functions.
//!
//! Every probability is an exact fraction. A Wild Die explodes without bound, so each chain is
//! followed to [`DEPTH`] extra tosses and the mass of longer chains (6^−(DEPTH+1) per roll) is
//! placed at the smallest total such a chain can reach. Any event decided by one roll against
//! numbers below that total (a hit against a passive or known defence, a stay-up roll) is then
//! exact; where two or more rolls meet (an active defence roll, damage against resistance or
//! against rolled Body Points), the sum of the rolls' tail masses is reported as the residual, a
//! bound on every value's error.

use super::attack::{self, action_code};
use super::options::NegativeResistance;
use super::policy;
use super::roll::{self, OneReads};
use super::setup::{DieCode, Level, SkillId};
use super::{AttackPlan, DefKind, OpenD6, State};
use crate::AttackOdds;
use fray_dice::{BigRational, BigUint};
use fray_engine::{CombatantId, Ruleset};
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Extra Wild-Die tosses followed per roll.
pub const DEPTH: u32 = 40;

/// A distribution over integers with weights over a common denominator 6^e.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    /// The smallest value.
    pub min: i32,
    /// Weights of min, min + 1, …
    pub w: Vec<BigUint>,
    /// The denominator's power of 6.
    pub e: u32,
}

impl Dist {
    fn point(v: i32) -> Dist {
        Dist { min: v, w: vec![BigUint::one()], e: 0 }
    }

    fn d6() -> Dist {
        Dist { min: 1, w: vec![BigUint::one(); 6], e: 1 }
    }

    fn convolve(&self, other: &Dist) -> Dist {
        let mut w = vec![BigUint::zero(); self.w.len() + other.w.len() - 1];
        for (i, a) in self.w.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.w.iter().enumerate() {
                if !b.is_zero() {
                    w[i + j] += a * b;
                }
            }
        }
        Dist { min: self.min + other.min, w, e: self.e + other.e }
    }

    /// Weights scaled to the denominator 6^e (e ≥ self.e).
    fn to_e(&self, e: u32) -> Dist {
        let k = BigUint::from(6u8).pow(e - self.e);
        Dist { min: self.min, w: self.w.iter().map(|w| w * &k).collect(), e }
    }

    /// Adds two weighted distributions over the same denominator.
    fn mix(&self, other: &Dist) -> Dist {
        let e = self.e.max(other.e);
        let (a, b) = (self.to_e(e), other.to_e(e));
        let min = a.min.min(b.min);
        let max = (a.min + a.w.len() as i32).max(b.min + b.w.len() as i32);
        let mut w = vec![BigUint::zero(); (max - min) as usize];
        for d in [&a, &b] {
            for (i, x) in d.w.iter().enumerate() {
                w[(d.min - min) as usize + i] += x;
            }
        }
        Dist { min, w, e }
    }

    fn shift(mut self, k: i32) -> Dist {
        self.min += k;
        self
    }

    fn map(&self, f: impl Fn(i32) -> i32) -> Dist {
        let values: Vec<i32> = (0..self.w.len()).map(|i| f(self.min + i as i32)).collect();
        let min = values.iter().copied().min().unwrap_or(0);
        let max = values.iter().copied().max().unwrap_or(0);
        let mut w = vec![BigUint::zero(); (max - min + 1) as usize];
        for (i, v) in values.iter().enumerate() {
            w[(v - min) as usize] += &self.w[i];
        }
        Dist { min, w, e: self.e }
    }

    fn denominator(&self) -> BigUint {
        BigUint::from(6u8).pow(self.e)
    }

    fn ratio(&self, w: &BigUint) -> BigRational {
        BigRational::new(w.clone().into(), self.denominator().into())
    }

    /// P(value ≥ t).
    pub fn at_least(&self, t: i32) -> BigRational {
        let from = (t - self.min).max(0) as usize;
        let sum: BigUint = self.w.iter().skip(from).sum();
        self.ratio(&sum)
    }

    /// The probabilities of the values, in order.
    pub fn outcomes(&self) -> Vec<(i32, BigRational)> {
        self.w
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(|(i, w)| (self.min + i as i32, self.ratio(w)))
            .collect()
    }
}

/// The distribution of the sum of `n` d6 less their highest die (`n` ≥ 1).
fn sum_less_highest(n: i32) -> Dist {
    // States (sum, max) with weights over 6^dice.
    let mut states: Vec<Vec<BigUint>> = vec![vec![BigUint::zero(); 7]; 1];
    states[0][0] = BigUint::one();
    for k in 0..n {
        let mut next = vec![vec![BigUint::zero(); 7]; (6 * (k + 1) + 1) as usize];
        for (sum, row) in states.iter().enumerate() {
            for (max, w) in row.iter().enumerate() {
                if w.is_zero() {
                    continue;
                }
                for f in 1..=6usize {
                    next[sum + f][max.max(f)] += w;
                }
            }
        }
        states = next;
    }
    let mut out = vec![BigUint::zero(); states.len()];
    for (sum, row) in states.iter().enumerate() {
        for (max, w) in row.iter().enumerate() {
            if !w.is_zero() {
                out[sum - max] += w;
            }
        }
    }
    Dist { min: 0, w: out, e: n as u32 }
}

/// The Wild Die when its first toss is not 1 (5/6 of its mass): 2..5, or 6 and a chain, chains
/// followed to [`DEPTH`] extra tosses.
fn wild_not_one() -> Dist {
    let e = DEPTH + 1;
    let mut wild = vec![BigUint::zero(); 6 * (DEPTH as usize + 1) + 2];
    for w in &mut wild[2..=5] {
        *w = BigUint::from(6u8).pow(DEPTH);
    }
    for j in 0..DEPTH {
        for f in 1..=5u32 {
            wild[(6 + 6 * j + f) as usize] = BigUint::from(6u8).pow(DEPTH - 1 - j);
        }
    }
    // Longer chains, 6^−(DEPTH+1) in all, at the least they can total.
    wild[(6 * (DEPTH + 1) + 1) as usize] = BigUint::one();
    Dist { min: 0, w: wild, e }
}

/// The distribution of a die-code roll with its Wild Die (OD6-DICE-3..6), chains followed to
/// [`DEPTH`] extra tosses.
pub fn code_dist(code: DieCode, one: OneReads) -> Dist {
    if code.dice < 1 {
        return Dist::point(code.pips.max(0));
    }
    let n = code.dice - 1;
    let mut regular = Dist::point(0);
    for _ in 0..n {
        regular = regular.convolve(&Dist::d6());
    }
    let otherwise = regular.convolve(&wild_not_one());
    // First toss 1, probability 1/6.
    let mut on_one = match one {
        OneReads::Cancel if n >= 1 => sum_less_highest(n),
        OneReads::Cancel => Dist::point(0),
        OneReads::Complication | OneReads::Plain => regular.clone().shift(1),
    };
    on_one.e += 1;
    otherwise.mix(&on_one).shift(code.pips)
}

/// A Character Point die (OD6-RES-1): a d6 that explodes on a 6 and reads a 1 as 1, chains
/// followed to [`DEPTH`] extra tosses like the Wild Die's.
fn cp_die(depth: u32) -> Dist {
    let e = depth + 1;
    let mut w = vec![BigUint::zero(); 6 * (depth as usize + 1) + 2];
    for x in &mut w[1..=5] {
        *x = BigUint::from(6u8).pow(depth);
    }
    for j in 0..depth {
        for f in 1..=5u32 {
            w[(6 + 6 * j + f) as usize] = BigUint::from(6u8).pow(depth - 1 - j);
        }
    }
    w[(6 * (depth + 1) + 1) as usize] = BigUint::one();
    Dist { min: 0, w, e }
}

/// Extra tosses followed per Character Point die on a resistance roll, whose spending hangs on
/// each damage total: there the damage total and the resistance roll are cut at
/// [`CP_SPAN`] too (the mass beyond placed at the cut and reported in the residual), which keeps
/// the work to a fraction of a second.
pub const CP_DEPTH: u32 = 12;

/// The values a damage total or a resistance roll keeps above its least when the defender's
/// Character Points are followed: 6 × [`CP_DEPTH`].
pub const CP_SPAN: usize = 6 * CP_DEPTH as usize;

/// `dist` with the mass above its least value + `span` placed at that value; and that mass.
fn cut(dist: &Dist, span: usize) -> (Dist, BigRational) {
    if dist.w.len() <= span.saturating_add(1) {
        return (dist.clone(), BigRational::zero());
    }
    let tail: BigUint = dist.w[span..].iter().sum();
    let above: BigUint = dist.w[span + 1..].iter().sum();
    let mut w = dist.w[..span].to_vec();
    w.push(tail);
    let mass = dist.ratio(&above);
    (Dist { min: dist.min, w, e: dist.e }, mass)
}

/// `dist` with Character Point dice added one at a time while its total is below `need`, at
/// most `n` of them, as the AI spends them under `points = threshold` (OD6-RES-1/2): the totals
/// by the number of dice spent (index k: k dice).
fn with_cp(dist: &Dist, need: i32, n: u32, depth: u32) -> Vec<Dist> {
    let part = |min: i32, w: &[BigUint], e: u32| {
        if w.is_empty() { Dist { min, w: vec![BigUint::zero()], e } } else { Dist { min, w: w.to_vec(), e } }
    };
    let die = cp_die(depth);
    let mut out = Vec::new();
    let mut rest = dist.clone();
    for _ in 0..n {
        let k = (need - rest.min).clamp(0, rest.w.len() as i32) as usize;
        let (below, above) = rest.w.split_at(k);
        out.push(part(rest.min + k as i32, above, rest.e));
        if below.iter().all(Zero::is_zero) {
            rest = part(rest.min, &[], rest.e);
            break;
        }
        rest = part(rest.min, below, rest.e).convolve(&die);
    }
    out.push(rest);
    out
}

/// [`with_cp`] over a roll of `code` itself, as the fight totals it under `cancel_cp_dice`
/// (OD6-DICE-9): with `true`, when an opening 1 cancels (OD6-DICE-5) the highest of the regular
/// dice and the Character Point dice is the one discarded, so each CP die spent adds the smaller
/// of its own value and the highest die so far, which it then replaces if larger. That part is
/// followed over (total, highest die) pairs.
fn code_with_cp(code: DieCode, one: OneReads, need: i32, n: u32, depth: u32, cancel_cp: bool) -> Vec<Dist> {
    code_with_cp_within(code, one, need, n, depth, cancel_cp, usize::MAX).0
}

/// [`code_with_cp`] with the roll's totals beyond `span` of its lowest counted at that one
/// ([`cut`]) before the Character Point dice are added: the totals, and the mass moved (at most).
fn code_with_cp_within(
    code: DieCode,
    one: OneReads,
    need: i32,
    n: u32,
    depth: u32,
    cancel_cp: bool,
    span: usize,
) -> (Vec<Dist>, BigRational) {
    if !(cancel_cp && one == OneReads::Cancel && code.dice >= 1) || n == 0 {
        let (dist, moved) = cut(&code_dist(code, one), span);
        return (with_cp(&dist, need, n, depth), moved);
    }
    let regular = code.dice - 1;
    // The first toss not 1: the CP dice add to the total.
    let mut plain = Dist::point(0);
    for _ in 0..regular {
        plain = plain.convolve(&Dist::d6());
    }
    let (otherwise, moved) = cut(&plain.convolve(&wild_not_one()).shift(code.pips), span);
    let mut out = with_cp(&otherwise, need, n, depth);
    // An opening 1: (the regular dice less the highest, the highest), over 6^(regular + 1).
    let mut states: BTreeMap<(i32, i32), BigUint> = BTreeMap::new();
    states.insert((0, 0), BigUint::one());
    for _ in 0..regular {
        let mut next = BTreeMap::new();
        for ((sum, high), w) in &states {
            for f in 1..=6 {
                *next.entry((sum + f, (*high).max(f))).or_insert_with(BigUint::zero) += w;
            }
        }
        states = next;
    }
    let mut states: BTreeMap<(i32, i32), BigUint> =
        states.into_iter().map(|((sum, high), w)| ((sum - high + code.pips, high), w)).collect();
    let mut e = regular as u32 + 1;
    let die = cp_die(depth);
    for k in 0..=n as usize {
        let last = k == n as usize;
        let (done, below): (Vec<_>, Vec<_>) = states.into_iter().partition(|((t, _), _)| last || *t >= need);
        if let Some(min) = done.iter().map(|((t, _), _)| *t).min() {
            let max = done.iter().map(|((t, _), _)| *t).max().unwrap_or(min);
            let mut w = vec![BigUint::zero(); (max - min + 1) as usize];
            for ((t, _), x) in &done {
                w[(t - min) as usize] += x;
            }
            let part = Dist { min, w, e };
            if out.len() <= k {
                out.resize(k + 1, Dist { min: 0, w: vec![BigUint::zero()], e: 0 });
            }
            out[k] = out[k].mix(&part);
        }
        if below.is_empty() {
            break;
        }
        let mut next: BTreeMap<(i32, i32), BigUint> = BTreeMap::new();
        for ((t, high), w) in &below {
            for (i, x) in die.w.iter().enumerate() {
                if x.is_zero() {
                    continue;
                }
                let c = die.min + i as i32;
                *next.entry((t + c.min(*high), (*high).max(c))).or_insert_with(BigUint::zero) += w * x;
            }
        }
        states = next;
        e += die.e;
    }
    (out, moved)
}

/// The mass a truncated roll leaves unplaced: 6^−(DEPTH+1) when its Wild Die can explode.
fn residual_of(code: DieCode) -> BigRational {
    if code.dice < 1 {
        BigRational::zero()
    } else {
        BigRational::new(BigUint::one().into(), BigUint::from(6u8).pow(DEPTH + 1).into())
    }
}

/// What one attack's odds are computed from.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The attack code.
    pub attack: DieCode,
    /// The defender's defence roll, if he rolls one: its code and what is added (+10 full).
    pub defence: Option<(DieCode, i32)>,
    /// The base when he does not roll (10 or a value in force).
    pub base: i32,
    /// The defence roll is an interrupt (OD6-ACT-6) the defender makes only against an attack
    /// that would hit: rolled only when the attack total reaches this difficulty (the base and
    /// the fixed modifiers as the fight judges the threat, at least 3); below it the attack meets
    /// `base`. `None`: the defence, if any, is rolled whatever the attack total.
    pub interrupt: Option<i32>,
    /// Fixed modifiers (range, cover, …); the dice modifiers too at their fixed values, unless
    /// they are rolled (`mod_dice`).
    pub mods: i32,
    /// Dice modifiers rolled under `difficulty_modifiers = rolled` (OD6-DIFF-3), as signed
    /// numbers of plain d6 (no Wild Die; negative ones subtracted); empty when fixed.
    pub mod_dice: Vec<i32>,
    /// The damage code.
    pub damage: DieCode,
    /// Fixed damage (hit location).
    pub fixed: i32,
    /// Whether the damage bonus applies.
    pub bonus: bool,
    /// The resistance code.
    pub resistance: DieCode,
    /// A stun weapon.
    pub stun: bool,
    /// A knockout attempt.
    pub knockout: bool,
    /// The defender's level, Body Points and maximum.
    pub level: Level,
    /// Body Points.
    pub bp: i32,
    /// Body Points maximum.
    pub bp_max: i32,
    /// Under `damage_track = body_points`, the Strength code of a defender whose Body Points are
    /// still to be rolled at the start, 20 + a roll of it (OD6-TRACK-10): the odds are then over
    /// that roll, and `bp`, `bp_max` are not used.
    pub bp_roll: Option<DieCode>,
    /// The stay-up code (the higher of stamina and willpower).
    pub stay_up: DieCode,
    /// The stay-up roll's difficulty: 15 and the defender's difficulty penalty as it stands
    /// (`negative_resistance = difficulty_penalty`, OD6-DMG-8); a larger penalty from the same
    /// hit's negative resistance total is added in [`compute`].
    pub stay_up_difficulty: i32,
    /// The defender is already unconscious.
    pub unconscious: bool,
    /// A hit does no injury: a grab, knockdown or push (it holds or fells instead,
    /// OD6-SPECIAL-9/10) or a disarm (OD6-SPECIAL-11).
    pub no_injury: bool,
    /// The attacker's AI spends Character Points on the attack roll while it is below this
    /// difficulty (the values in force, fixed modifiers), at most this many dice (OD6-RES-1/2).
    pub attack_cp: Option<(i32, u32)>,
    /// The defender's AI spends Character Points on his resistance roll while it leaves an injury
    /// margin of 9 or more, and on his stay-up roll while it is below its difficulty: the points he has and
    /// the cap per roll; (0, 0) when he spends none.
    pub defender_cp: (u32, u32),
}

/// One attack's odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(hit).
    pub hit: BigRational,
    /// Given a hit: no injury, then each level reached, with probabilities.
    pub levels: Vec<(Option<Level>, BigRational)>,
    /// P(out of the fight | hit).
    pub down_given_hit: BigRational,
    /// The unplaced mass bound.
    pub residual: BigRational,
}

/// The odds of one attack under `options`.
pub fn compute(options: &super::Options, inputs: &Inputs) -> Odds {
    let skill_one = OneReads::skill(options);
    let damage_one = OneReads::damage(options);
    let cancel = options.cancel_cp_dice;
    let mut a = code_dist(inputs.attack, skill_one);
    let mut residual = residual_of(inputs.attack) + inputs.defence.map_or(BigRational::zero(), |d| residual_of(d.0));
    let cp_residual = |n: u32| residual_of(DieCode::new(1, 0)) * BigRational::from_integer(n.into());
    if let Some((need, n)) = inputs.attack_cp {
        let mut spent = code_with_cp(inputs.attack, skill_one, need, n, DEPTH, cancel).into_iter();
        a = spent.next().unwrap_or(a);
        for more in spent {
            a = a.mix(&more);
        }
        residual += cp_residual(n);
    }
    let mut v = match inputs.defence {
        Some((code, add)) => code_dist(code, skill_one).shift(add),
        None => Dist::point(inputs.base),
    };
    // Against an attack below the interrupt's threat the base stands (no defence rolled).
    let mut unthreatened = Dist::point(inputs.base);
    // Rolled dice modifiers add to the defence before the difficulty's floor of 3, as in the
    // fight (OD6-DIFF-3): their plain d6 are convolved in.
    for &n in &inputs.mod_dice {
        let die = if n > 0 { Dist::d6() } else { Dist { min: -6, w: vec![BigUint::one(); 6], e: 1 } };
        for _ in 0..n.abs() {
            v = v.convolve(&die);
            unthreatened = unthreatened.convolve(&die);
        }
    }
    let unthreatened = unthreatened.to_e(v.e.max(unthreatened.e));
    // Hit, and the damage bonus's distribution with it (OD6-DIFF-2, OD6-DICE-8, OD6-DMG-4).
    let mut bonus_w: Vec<BigUint> = Vec::new();
    for (i, wa) in a.w.iter().enumerate() {
        if wa.is_zero() {
            continue;
        }
        let av = a.min + i as i32;
        let v = match inputs.interrupt {
            Some(threat) if av < threat => &unthreatened,
            _ => &v,
        };
        for (j, wv) in v.w.iter().enumerate() {
            if wv.is_zero() {
                continue;
            }
            let difficulty = (v.min + j as i32 + inputs.mods).max(3);
            if av >= difficulty {
                let b = if inputs.bonus { roll::damage_bonus(av - difficulty) } else { 0 } as usize;
                if bonus_w.len() <= b {
                    bonus_w.resize(b + 1, BigUint::zero());
                }
                bonus_w[b] += wa * wv;
            }
        }
    }
    let bonus = Dist { min: 0, w: if bonus_w.is_empty() { vec![BigUint::zero()] } else { bonus_w }, e: a.e + v.e };
    let hit_mass: BigUint = bonus.w.iter().sum();
    let hit = bonus.ratio(&hit_mass);
    if hit_mass.is_zero() {
        return Odds { hit, levels: Vec::new(), down_given_hit: BigRational::zero(), residual };
    }
    if inputs.no_injury {
        let down = if inputs.unconscious { BigRational::one() } else { BigRational::zero() };
        return Odds { hit, levels: vec![(None, BigRational::one())], down_given_hit: down, residual };
    }
    // Damage total T = max(0, roll + fixed + bonus), D = T − resistance (OD6-DMG-1, -7, -8).
    let x = code_dist(inputs.damage, damage_one).shift(inputs.fixed);
    let total = x.convolve(&bonus).map(|t| t.max(0));
    // A code with no dice resists with its pips, negative ones included (OD6-DMG-8).
    let raw = if inputs.resistance.dice < 1 {
        Dist::point(inputs.resistance.pips)
    } else {
        code_dist(inputs.resistance, damage_one)
    };
    let floor = |r: Dist| match options.negative_resistance {
        NegativeResistance::AddToInjury => r,
        _ => r.map(|v| v.max(0)),
    };
    // The stay-up roll's difficulty after a resistance total `r`: a negative one raises the
    // defender's difficulty penalty to its size before the stay-up roll of the same hit
    // (`negative_resistance = difficulty_penalty`, OD6-DMG-8); the parts of `r` by that
    // difficulty.
    let penalised = options.negative_resistance == NegativeResistance::DifficultyPenalty;
    let by_need = |r: Dist| -> Vec<(i32, Dist)> {
        let need = inputs.stay_up_difficulty;
        let lowest = super::roll::STAY_UP_DIFFICULTY - need;
        if !penalised || r.min >= lowest {
            return vec![(need, r)];
        }
        let k = (lowest - r.min).min(r.w.len() as i32) as usize;
        let mut parts: Vec<(i32, Dist)> = r.w[..k]
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(|(i, w)| {
                let v = r.min + i as i32;
                (super::roll::STAY_UP_DIFFICULTY - v, Dist { min: v, w: vec![w.clone()], e: r.e })
            })
            .collect();
        if r.w[k..].iter().any(|w| !w.is_zero()) {
            parts.push((need, Dist { min: r.min + k as i32, w: r.w[k..].to_vec(), e: r.e }));
        }
        parts
    };
    let minus =
        |r: &Dist| Dist { min: -(r.min + r.w.len() as i32 - 1), w: r.w.iter().rev().cloned().collect(), e: r.e };
    let (cp_left, cp_cap) = inputs.defender_cp;
    // The injury margin's distribution by the Character Point dice the defender spent on his
    // resistance (k: k dice) and the stay-up roll's difficulty, each over its own denominator: he
    // spends them while the damage total less his resistance is 9 or more (the fight asks with
    // the need total − 8).
    let ds: Vec<(usize, i32, Dist)> = if cp_left == 0 {
        by_need(raw).into_iter().map(|(need, r)| (0, need, total.convolve(&minus(&floor(r))))).collect()
    } else {
        let n = cp_left.min(cp_cap);
        let (total, cut_total) = cut(&total, CP_SPAN);
        // Under `cancel_cp_dice = true`, when an opening 1 cancels on the resistance roll too
        // (`wild_die_failure_on_damage`), a critical failure may take a Character Point die away
        // (OD6-DICE-9): the roll is followed with its dice ([`code_with_cp`]).
        let cancelling = cancel && damage_one == OneReads::Cancel && inputs.resistance.dice >= 1;
        let (raw, cut_raw) = cut(&raw, CP_SPAN);
        let spent = |t: i32| -> (Vec<Dist>, BigRational) {
            if cancelling {
                code_with_cp_within(inputs.resistance, damage_one, t - 8, n, CP_DEPTH, true, CP_SPAN)
            } else {
                (with_cp(&raw, t - 8, n, CP_DEPTH), BigRational::zero())
            }
        };
        let one = BigRational::new(BigUint::one().into(), BigUint::from(6u8).pow(CP_DEPTH + 1).into());
        // A cancelling roll is followed with its own dice, not `raw`: its cut is `moved` below.
        let cut_raw = if cancelling { BigRational::zero() } else { cut_raw };
        residual += cut_total + cut_raw + one * BigRational::from_integer(n.into());
        // The mass the cut of a cancelling roll moves: the same for every damage total.
        let mut moved = BigRational::zero();
        let mut acc: Vec<(usize, i32, Dist)> = Vec::new();
        for (i, wt) in total.w.iter().enumerate() {
            if wt.is_zero() {
                continue;
            }
            let t = total.min + i as i32;
            let (rolls, cut_roll) = spent(t);
            moved = cut_roll;
            for (k, r) in rolls.into_iter().enumerate() {
                for (need, r) in by_need(r) {
                    let mut part = minus(&floor(r)).shift(t);
                    part.w.iter_mut().for_each(|w| *w *= wt);
                    part.e += total.e;
                    match acc.iter_mut().find(|x| x.0 == k && x.1 == need) {
                        Some(x) => x.2 = x.2.mix(&part),
                        None => acc.push((k, need, part)),
                    }
                }
            }
        }
        residual += moved;
        let e = acc.iter().map(|x| x.2.e).max().unwrap_or(0);
        acc.into_iter().map(|(k, need, d)| (k, need, d.to_e(e))).collect()
    };
    residual += residual_of(inputs.damage) + residual_of(inputs.resistance) + residual_of(inputs.stay_up);
    // The defender's Body Points as they stand, or over the roll that sets them at the start:
    // 20 + a Strength roll, the maximum and the points he starts with (OD6-TRACK-10). That roll
    // is his alone, so each maximum's weight multiplies each damage result's; with wound levels,
    // or Body Points known, it is one point.
    let maxes: Vec<(i32, i32, BigUint)> = match inputs.bp_roll {
        Some(code) if options.body_points => {
            residual += residual_of(code);
            let rolled = code_dist(code, skill_one).map(|s| 20 + s.max(0));
            let min = rolled.min;
            rolled
                .w
                .into_iter()
                .enumerate()
                .filter(|(_, w)| !w.is_zero())
                .map(|(i, w)| (min + i as i32, min + i as i32, w))
                .collect()
        }
        _ => vec![(inputs.bp, inputs.bp_max, BigUint::one())],
    };
    // Weights are summed as integers over the common denominator and turned into fractions once
    // at the end: a fraction per value, reduced at every step, made a prompt's odds slow.
    let hit_w: BigUint =
        ds.iter().flat_map(|d| d.2.w.iter()).sum::<BigUint>() * maxes.iter().map(|m| &m.2).sum::<BigUint>();
    let given_hit = |w: BigUint| BigRational::new(w.into(), hit_w.clone().into());
    let mut level_w: Vec<(Option<Level>, BigUint)> = Vec::new();
    // Weight of the damage results that surely take the defender out, and of those that do
    // unless it makes its stay-up roll (with the Character Points he has left for it).
    let mut down_w = BigUint::zero();
    let mut down_unless = BigRational::zero();
    for (k, need, d) in &ds {
        let mut unless_w = BigUint::zero();
        for (i, wd) in d.w.iter().enumerate() {
            if wd.is_zero() {
                continue;
            }
            let dv = d.min + i as i32;
            for (bp, bp_max, wm) in &maxes {
                let w = &(wd * wm);
                let injury = roll::injury(options, inputs.level, *bp, *bp_max, dv, inputs.stun, inputs.knockout);
                let level = injury.map(|j| j.to);
                let out_now = |to: Level| {
                    to >= Level::MortallyWounded || (options.out_incapacitated && to >= Level::Incapacitated)
                };
                match injury {
                    _ if inputs.unconscious => down_w += w,
                    None => {}
                    Some(j) if j.unconscious_rounds > 0 || out_now(j.to) => down_w += w,
                    Some(j) if j.to == Level::Incapacitated && inputs.level < Level::Incapacitated => unless_w += w,
                    Some(_) => {}
                }
                match level_w.iter_mut().find(|(l, _)| *l == level) {
                    Some(entry) => entry.1 += w,
                    None => level_w.push((level, w.clone())),
                }
            }
        }
        if !unless_w.is_zero() {
            let n = (cp_left - *k as u32).min(cp_cap);
            if n > 0 {
                residual += cp_residual(n);
            }
            let need = *need;
            let stays_up: BigRational =
                code_with_cp(inputs.stay_up, skill_one, need, n, DEPTH, cancel).iter().map(|d| d.at_least(need)).sum();
            down_unless += given_hit(unless_w) * (BigRational::one() - &stays_up);
        }
    }
    let down = given_hit(down_w) + down_unless;
    let mut levels: Vec<(Option<Level>, BigRational)> = level_w.into_iter().map(|(l, w)| (l, given_hit(w))).collect();
    levels.sort_by_key(|(l, _)| l.map_or(-1, |l| l.index()));
    Odds { hit, levels, down_given_hit: down, residual }
}

/// The odds of `plan` by `who` in `state`, as the fight plays it: the defender's active value in
/// force (or his passive defence) as the base; a waiting defender's interrupting defence, which
/// his AI rolls only against an attack that would hit (OD6-ACT-6, the fight's own decision); the
/// attacker's declared actions and penalties as they stand.
pub fn odds_in_state(setup: &super::Setup, state: &State, who: CombatantId, plan: &AttackPlan) -> Option<Odds> {
    let (inputs, _) = inputs_in_state(setup, state, who, plan)?;
    Some(compute(&setup.options, &inputs))
}

/// [`odds_in_state`] for the roll alone: no Character Points spent on the attack roll, whatever
/// the attacker's `points` policy would spend (a person decides that at the prompt after the
/// roll); `None` as well when that changes nothing (the attacker's AI spends none).
pub fn roll_odds_in_state(setup: &super::Setup, state: &State, who: CombatantId, plan: &AttackPlan) -> Option<Odds> {
    let (mut inputs, _) = inputs_in_state(setup, state, who, plan)?;
    inputs.attack_cp.take()?;
    Some(compute(&setup.options, &inputs))
}

/// The defence a defender rolls against an attack, as [`inputs_in_state`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rolled {
    /// None: the base stands (a value in force or the passive defence).
    None,
    /// The free partial defence of a target caught before his first turn (OD6-DEF-10).
    Free(DefKind),
    /// A waiting defender's interrupt, only against an attack that would hit (OD6-ACT-6).
    Interrupt(DefKind),
}

/// The defence `d`'s AI interrupts with when threatened by `who`'s attack (`close` or not) in
/// `state`, asked as the fight asks it: `None` when it would not.
fn interrupt_defence(
    setup: &super::Setup,
    state: &State,
    who: CombatantId,
    d: CombatantId,
    close: bool,
) -> Option<DefKind> {
    let x = state.fighter(d);
    // One waiting in the attacker's own tied step interrupts only after it (OD6-INIT-4).
    if !x.waiting || !x.able() || x.used >= x.declared || state.tied(who, d) {
        return None;
    }
    let request = super::Request::Interrupt { actor: who, target: Some(d), total: i32::MAX, difficulty: 0, close };
    match policy::ai_choice(setup, state, d, &request) {
        super::Choice::Interrupt(Some(super::Action::Defend { kind, .. })) => Some(kind),
        _ => None,
    }
}

/// [`odds_in_state`]'s inputs, and the defence rolled.
fn inputs_in_state(
    setup: &super::Setup,
    state: &State,
    who: CombatantId,
    plan: &AttackPlan,
) -> Option<(Inputs, Rolled)> {
    let weapon = &setup.combatants[who.index()].weapons[plan.weapon as usize];
    let band = attack::band(setup, state, who, plan.target, weapon)?;
    let defender = state.fighter(plan.target);
    let base = attack::active_base(&setup.options, defender, weapon.close())
        .map_or_else(|| attack::passive(&setup.options, &setup.combatants[plan.target.index()]), |b| b.0);
    // A target caught before his first turn rolls the free partial defence first (OD6-DEF-10),
    // with his wound penalty and no multi-action penalty, as in the fight; a waiting one
    // interrupts when his AI would, with his declared actions' penalty.
    let rolled = match attack::free_defence(setup, state, plan.target, weapon.close()) {
        Some(kind) => Rolled::Free(kind),
        None => {
            interrupt_defence(setup, state, who, plan.target, weapon.close()).map_or(Rolled::None, Rolled::Interrupt)
        }
    };
    let defence = match rolled {
        Rolled::None => None,
        Rolled::Free(kind) => {
            let no_multi = attack::multi_penalty(&setup.combatants[plan.target.index()], defender);
            Some((action_code(setup, state, plan.target, attack::defence_skill(kind), false, no_multi), 0))
        }
        Rolled::Interrupt(kind) => {
            Some((action_code(setup, state, plan.target, attack::defence_skill(kind), false, 0), 0))
        }
    };
    let mut inputs = inputs(setup, state, who, plan, band, defence, base);
    if let Rolled::Interrupt(_) = rolled {
        // The threat is judged against the values in force with the modifiers at their fixed
        // values, as the fight asks it.
        let mods = attack::modifiers(setup, state, who, plan, band);
        inputs.interrupt = Some(attack::DifficultyTerms::fixed(base, &mods).1);
    }
    Some((inputs, rolled))
}

fn inputs(
    setup: &super::Setup,
    state: &State,
    who: CombatantId,
    plan: &AttackPlan,
    band: u8,
    defence: Option<(DieCode, i32)>,
    base: i32,
) -> Inputs {
    let options = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let weapon = &sheet.weapons[plan.weapon as usize];
    let me = state.fighter(who);
    let aim = match me.aim {
        Some((t, r, _)) if t == plan.target && weapon.skill.aimable() => i32::from(r.min(3)),
        _ => 0,
    };
    let mut attack_code = action_code(setup, state, who, weapon.skill, false, aim);
    attack_code.pips -= attack::location_penalty(me, weapon.skill);
    let (_, fixed, _) = attack::called_mods(plan.called, options);
    let bonus_on = match options.damage_bonus {
        super::options::DamageBonus::All => true,
        super::options::DamageBonus::HeroesOnly => sheet.hero,
        super::options::DamageBonus::Off => false,
    } && attack::bonus_applies(plan.called);
    let target = &setup.combatants[plan.target.index()];
    let t = state.fighter(plan.target);
    let (stamina, willpower) = (target.skill(SkillId::STAMINA), target.skill(SkillId::WILLPOWER));
    let mods = attack::modifiers(setup, state, who, plan, band);
    Inputs {
        attack: attack_code,
        defence,
        base,
        interrupt: None,
        mods: if options.rolled_modifiers { mods.fixed_sum() } else { mods.fixed_total() },
        mod_dice: if options.rolled_modifiers { mods.rolled_dice().collect() } else { Vec::new() },
        damage: attack::damage_code(setup, who, plan, false),
        fixed,
        bonus: bonus_on,
        resistance: attack::resistance_code(setup, plan.target, weapon.damage_type, false),
        stun: me.weapons[plan.weapon as usize].stun,
        knockout: plan.called == super::Called::Knockout,
        level: t.level,
        bp: t.bp,
        bp_max: t.bp_max,
        // Not yet rolled (never below 20 once rolled): the odds go over the roll.
        bp_roll: (options.body_points && target.body_points_max.is_none() && t.bp_max == 0).then(|| target.strength()),
        stay_up: if willpower.pips_value() > stamina.pips_value() { willpower } else { stamina },
        stay_up_difficulty: super::roll::STAY_UP_DIFFICULTY + t.difficulty_penalty,
        unconscious: t.unconscious(),
        no_injury: !attack::injures(plan),
        attack_cp: (me.cp > 0 && spends_cp(setup, state, who, super::RollFor::Attack)).then(|| {
            let base = attack::active_base(options, t, weapon.close())
                .map_or_else(|| attack::passive(options, target), |b| b.0);
            (attack::DifficultyTerms::fixed(base, &mods).1, me.cp.min(options.cp_cap))
        }),
        defender_cp: if t.cp > 0 && spends_cp(setup, state, plan.target, super::RollFor::Resistance) {
            (t.cp, options.cp_cap)
        } else {
            (0, 0)
        },
    }
}

/// Whether `who`'s AI spends a Character Point on a `roll` below what it needs, asked as the
/// fight asks it (OD6-RES-1/2): the odds follow it.
fn spends_cp(setup: &super::Setup, state: &State, who: CombatantId, roll: super::RollFor) -> bool {
    let request = super::Request::Cp { roll, total: 0, need: Some(1), max: 1 };
    !policy::ai_passes(setup, who, &request)
        && matches!(policy::ai_choice(setup, state, who, &request), super::Choice::Cp(n) if n > 0)
}

/// The attack the odds in context give for `a` on `d` when `a` is asked `request` (an
/// [`Request::Act`](super::Request::Act)) in `state`: its AI's attack when that is aimed at `d`,
/// else its most damaging weapon that reaches `d`; `None` when none does.
pub fn opening_attack(
    setup: &super::Setup,
    state: &State,
    a: CombatantId,
    d: CombatantId,
    request: &super::Request,
) -> Option<AttackPlan> {
    if let super::Choice::Act(super::Action::Attack(p)) = policy::ai_choice(setup, state, a, request)
        && p.target == d
    {
        return Some(p);
    }
    let only = matches!(request, super::Request::Act { only: true, .. });
    let options = attack::attack_options(setup, state, a, only);
    let weapon = options
        .iter()
        .filter(|o| o.0 == d)
        .max_by_key(|o| attack::damage_code(setup, a, &AttackPlan::new(d, o.1), false).pips_value())
        .map(|o| o.1)?;
    Some(AttackPlan::new(d, weapon))
}

/// A defence's name.
fn kind_name(kind: DefKind) -> &'static str {
    match kind {
        DefKind::Dodge => "dodge",
        DefKind::Block(None) => "block",
        DefKind::Block(Some(_)) => "parry",
    }
}

/// A probability as an exact fraction when it is short, else to four places.
fn short(p: &BigRational) -> String {
    let exact = fray_dice::fraction(p);
    if exact.len() <= 24 {
        exact
    } else {
        use num_traits::ToPrimitive;
        format!("≈ {:.4}", p.to_f64().unwrap_or(f64::NAN))
    }
}

/// If the defender's turn comes before `who`'s attack `plan` in the round: his first action by
/// his AI, when it is a defence that meets the attack (a full or partial one in force, or a
/// wait and an interrupt against an attack that would hit), described, and the attack's odds
/// then.
fn defender_first(setup: &super::Setup, state: &State, who: CombatantId, plan: &AttackPlan) -> Option<(String, Odds)> {
    use super::{Action, Choice, Event, Request};
    let d = plan.target;
    let defender = &setup.combatants[d.index()].name;
    let mut st = state.clone();
    OpenD6::apply(setup, &mut st, &Event::TurnStarted { who: d, clear: true });
    let n = match policy::ai_choice(setup, &st, d, &Request::Declare { max: 10 }) {
        Choice::Count(n) => n,
        _ => 1,
    };
    OpenD6::apply(setup, &mut st, &Event::Declared { who: d, n });
    let Choice::Act(action) = policy::ai_choice(setup, &st, d, &policy::act_request(setup, &st, d, true)) else {
        return None;
    };
    let close = setup.combatants[who.index()].weapons[plan.weapon as usize].close();
    match action {
        Action::Defend { kind, full } if close || kind == DefKind::Dodge || setup.options.block_vs_ranged => {
            let code = action_code(setup, &st, d, attack::defence_skill(kind), false, 0);
            let (mut inputs, _) = inputs_in_state(setup, &st, who, plan)?;
            inputs.defence = Some((code, if full { 10 } else { 0 }));
            let text = if full {
                format!(
                    "if {defender} acts first in the round, the AI makes a full {} ({code} roll + 10, OD6-DEF-8)",
                    kind_name(kind)
                )
            } else {
                format!(
                    "if {defender} acts first in the round, the AI makes a partial {} ({code} roll, {n} actions declared, \
                     OD6-DEF-9)",
                    kind_name(kind)
                )
            };
            Some((text, compute(&setup.options, &inputs)))
        }
        Action::Wait => {
            OpenD6::apply(setup, &mut st, &Event::Acted { who: d, action });
            let (inputs, Rolled::Interrupt(kind)) = inputs_in_state(setup, &st, who, plan)? else { return None };
            let code = inputs.defence.map_or_else(String::new, |c| c.0.to_string());
            let text = format!(
                "if {defender} acts first in the round, the AI waits and interrupts with a partial {} ({code}) only \
                 against an attack that would hit (OD6-ACT-6)",
                kind_name(kind)
            );
            Some((text, compute(&setup.options, &inputs)))
        }
        _ => None,
    }
}

/// The odds of `attacker`'s attack on `defender` at the start of the fight, as their policies
/// play it: the attacker's declared actions, weapon and combat option; the attack made before
/// the defender's turn in the round (his passive defence, or the free partial defence of
/// OD6-DEF-10), and, in an assumption line, the odds if his turn comes first and his AI then
/// defends (a full or partial defence in force, or a wait and an interrupting defence against an
/// attack that would hit).
pub fn attack_odds(setup: &super::Setup, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
    attack_odds_at(setup, attacker, defender, None)
}

/// [`attack_odds`], with `distance` (whole metres, at most 2,000: the scenario's line runs from
/// −1,000 to 1,000 m) as if the attacker stood that far from the defender on the line, on the
/// side it starts on (the + side when they share a point); everyone else stays put. A target out
/// of reach or range from there is an error.
pub fn attack_odds_at(
    setup: &super::Setup,
    attacker: &str,
    defender: &str,
    distance: Option<f64>,
) -> Result<AttackOdds, String> {
    let find = |name: &str| crate::find_combatant(setup.combatants.iter().map(|c| c.name.as_str()), name);
    let (a, d) = (find(attacker)?, find(defender)?);
    if a == d {
        return Err("an attacker cannot attack itself".into());
    }
    let mut state = OpenD6::initial_state(setup);
    state.round = 1;
    let from = state.distance(a, d);
    if let Some(distance) = distance {
        if setup.options.bands {
            return Err("under position_model = bands the scenario gives each pair's range band and nobody has a \
                        position (OD6-MOVE-1): a distance needs position_model = line"
                .to_owned());
        }
        let distance = crate::check_distance(distance, 2000.0, "m")?;
        if distance.fract() != 0.0 {
            return Err(format!(
                "opend6 places combatants on a line in whole metres: the distance must be a whole number, found \
                 {distance} m"
            ));
        }
        let (at, to) = (state.fighter(a).pos, state.fighter(d).pos);
        let side = if at < to { -1 } else { 1 };
        state.fighters[a.index()].pos = to + side * distance as i32;
    }
    // The attacker's declaration, with the defender as its target.
    let n = match policy::ai_choice(setup, &state, a, &super::Request::Declare { max: 9 }) {
        super::Choice::Count(n) => n,
        _ => 1,
    };
    state.fighters[a.index()].declared = n;
    let sheet = &setup.combatants[a.index()];
    let request = super::Request::Act {
        remaining: n,
        only: n == 1,
        move_m: 0,
        free_move_m: 0,
        held: false,
        defend_only: false,
        free_ok: false,
    };
    let plan = opening_attack(setup, &state, a, d, &request).ok_or_else(|| {
        let at = if setup.options.bands { String::new() } else { format!(" at {} m", state.distance(a, d)) };
        format!("`{defender}` is not within reach or range of any of `{attacker}`'s weapons{at}")
    })?;
    // The opening attack comes before the defender's turn in the round: he has declared nothing
    // and meets it as the fight lets him then — with his passive defence, or the free partial
    // defence of a target caught before his first turn (OD6-DEF-10).
    let (inputs, rolled) = inputs_in_state(setup, &state, a, &plan).ok_or_else(|| {
        format!(
            "`{defender}` is not within reach or range of `{attacker}`'s {}",
            sheet.weapons[plan.weapon as usize].name
        )
    })?;
    let odds = compute(&setup.options, &inputs);
    let defence = inputs.defence;
    let base = inputs.base;
    let defence_text = match rolled {
        Rolled::Free(kind) | Rolled::Interrupt(kind) => format!(
            "{defender} has not acted yet this round: a free partial {} first (OD6-DEF-10): {}",
            kind_name(kind),
            defence.map_or_else(String::new, |d| d.0.to_string())
        ),
        Rolled::None => format!(
            "the attack comes before {defender}'s turn in the round (the fight's opening attack): passive defence \
             {base}"
        ),
    };
    // The other order, labelled: the defender's first action by his AI, when it is a defence.
    let first = defender_first(setup, &state, a, &plan).map(|(text, o)| {
        let down = &o.hit * &o.down_given_hit;
        format!("{text}: hit {}, takes {defender} out {}", short(&o.hit), short(&down))
    });
    let weapon_name = &sheet.weapons[plan.weapon as usize].name;
    let mut assumptions = Vec::new();
    if distance.is_some() {
        assumptions.push(format!(
            "{attacker} stands {} m from {defender} ({from} m in the file), moved along the line; everyone else where \
             the file puts them",
            state.distance(a, d)
        ));
    }
    assumptions.extend([
        format!(
            "{attacker} declares {n} action(s) and attacks with {weapon_name}{}: {} against {}{}",
            super::front::mode_text(&plan),
            inputs.attack,
            match defence {
                None => format!(
                    "difficulty {} (passive defence {base}, {:+} for range, cover, posture, …; at least 3)",
                    (base + inputs.mods).max(3),
                    inputs.mods
                ),
                Some(_) =>
                    format!("{defender}'s defence roll {:+} (range, cover, posture, …), at least 3", inputs.mods),
            },
            if inputs.mod_dice.is_empty() {
                String::new()
            } else {
                let dice: Vec<String> = inputs.mod_dice.iter().map(|d| format!("{d:+}D")).collect();
                format!(", and the rolled modifier dice {}", dice.join(" "))
            }
        ),
        defence_text,
    ]);
    assumptions.extend(first);
    assumptions.extend([format!(
        "damage {}{}{} against resistance {}",
        inputs.damage,
        if inputs.fixed != 0 { format!(" {:+}", inputs.fixed) } else { String::new() },
        if inputs.bonus { " + the damage bonus" } else { "" },
        inputs.resistance
    )]);
    assumptions.push(match inputs.attack_cp {
        Some((need, n)) => format!(
            "{attacker} spends Character Points on the attack roll while it is below {need}, up to {n} (his `points` \
             policy, OD6-RES-1)"
        ),
        None => format!("{attacker} spends no Character Points on the attack"),
    });
    if inputs.attack_cp.is_some() {
        let alone = compute(&setup.options, &Inputs { attack_cp: None, ..inputs.clone() });
        let down = &alone.hit * &alone.down_given_hit;
        assumptions.push(format!(
            "the roll alone, no Character Points spent on it: hit {}, takes {defender} out {}",
            short(&alone.hit),
            short(&down)
        ));
    }
    if inputs.defender_cp.0 > 0 {
        assumptions.push(format!(
            "{defender} spends Character Points ({} left) on the resistance roll while the injury margin would be 9 \
             or more, and on a stay-up roll below 15 (the `points` policy)",
            inputs.defender_cp.0
        ));
        // A person who controls the defender decides those points: the odds if he spends none.
        let none = compute(&setup.options, &Inputs { defender_cp: (0, 0), ..inputs.clone() });
        if none.down_given_hit != odds.down_given_hit {
            let down = &none.hit * &none.down_given_hit;
            assumptions.push(format!(
                "if {defender} spends no Character Points (a person controlling him decides): takes {defender} out {}",
                short(&down)
            ));
        }
    }
    assumptions.push("no Fate Points spent".to_owned());
    if inputs.no_injury {
        let effect = match (plan.mode, plan.mode2) {
            (super::Mode::Grab, _) | (_, super::Mode::Grab) => "it holds him instead (OD6-COND-3)",
            (super::Mode::Knockdown, _) | (_, super::Mode::Knockdown) => "it knocks him prone instead",
            (super::Mode::Push, _) | (_, super::Mode::Push) => "it pushes him instead (−2D next Agility roll)",
            _ => "a disarm only knocks the item away",
        };
        assumptions.push(format!("a hit does no injury to {defender}: {effect}"));
    }
    if inputs.level != Level::Healthy {
        assumptions.push(format!("{defender} starts {}", inputs.level.name().replace('_', " ")));
    }
    if let Some(code) = inputs.bp_roll {
        assumptions.push(format!(
            "{defender}'s Body Points are rolled at the start (20 + a Strength roll of {code}, OD6-TRACK-10): the \
             odds are over that roll"
        ));
    }
    let damage_given_hit = odds
        .levels
        .iter()
        .map(|(level, p)| {
            let label = level.map_or("no injury".to_owned(), |l| l.name().replace('_', " "));
            (label, vec![("level".to_owned(), level.map_or(0, |l| l.index()))], p.clone())
        })
        .collect();
    let down = &odds.hit * &odds.down_given_hit;
    Ok(AttackOdds {
        distance: (!setup.options.bands).then(|| f64::from(state.distance(a, d))),
        distance_unit: "m",
        assumptions,
        hit: odds.hit,
        damage_heading: format!("{defender}'s wound level after one hit, given a hit"),
        damage_given_hit,
        down_given_hit: odds.down_given_hit,
        down,
        residual: odds.residual,
        residual_note: format!("Wild Die explosion chains followed to {DEPTH} extra tosses"),
    })
}
