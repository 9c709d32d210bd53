//! Exact odds: the delta distribution of an opposed roll, the effort a defence costs, and the
//! harm of one shot through cover, hit location and armour — with the fight's own functions.

use super::attack::{self, Harm, Weapon, WoundRule};
use super::policy::{defence_numbers, dice_counts, effort_available, shot_numbers};
use super::setup::{Cover, Setup, Square};
use super::{Kind, State, Ticks};
use crate::AttackOdds;
use fray_dice::BigRational;
use fray_engine::{CombatantId, Ruleset};
use num_traits::Zero;
use std::collections::BTreeMap;

fn q(n: u64, d: u64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// The exact distribution of delta = A − D for an attacker with `a` and a defender with `d`
/// added to their dice (TICK-DICE-1/2/3): (delta, probability), ascending. Under
/// `delta_tie = reroll` a tie is rerolled, so the distribution is conditioned on no tie.
pub fn delta_distribution(setup: &Setup, a: i32, d: i32) -> Vec<(i32, BigRational)> {
    let counts = dice_counts(setup);
    let mut by: BTreeMap<i32, u64> = BTreeMap::new();
    for (x, &wx) in counts.iter().enumerate().filter(|(_, w)| **w > 0) {
        for (y, &wy) in counts.iter().enumerate().filter(|(_, w)| **w > 0) {
            *by.entry(x as i32 + a - y as i32 - d).or_default() += wx * wy;
        }
    }
    if setup.options.tie_reroll {
        by.remove(&0);
    }
    let total: u64 = by.values().sum();
    by.into_iter().map(|(k, w)| (k, q(w, total))).collect()
}

/// P(the attacker wins): delta ≥ 1.
pub fn p_attacker_wins(dist: &[(i32, BigRational)]) -> BigRational {
    dist.iter().filter(|(k, _)| *k >= 1).fold(BigRational::zero(), |acc, (_, p)| acc + p)
}

/// The expected effort a defence costs with this base (TICK-DEF-1/2/4), effort never short.
pub fn expected_effort(setup: &Setup, dist: &[(i32, BigRational)], base: i32) -> BigRational {
    dist.iter().fold(BigRational::zero(), |acc, (k, p)| {
        acc + p * BigRational::from_integer(attack::effort_cost(&setup.options, base, *k).into())
    })
}

/// One outcome of a hit: (Body lost, Trauma, wound) with its probability, given a hit with
/// `delta`, over the location d10 and any wound check.
pub fn harm_outcomes(
    setup: &Setup,
    weapon: Weapon,
    delta: i32,
    weak_point: bool,
    cover: Option<Cover>,
    target: usize,
    melee: bool,
) -> Vec<((i32, i32, bool), BigRational)> {
    let o = &setup.options;
    let sheet = &setup.combatants[target];
    let faces: Vec<u32> = if o.torso_only || (melee && o.melee_no_location) { vec![0] } else { (1..=10).collect() };
    let each = q(1, faces.len() as u64);
    let mut out: BTreeMap<(i32, i32, bool), BigRational> = BTreeMap::new();
    for face in faces {
        let armour = sheet.armour_at(if face == 0 { 3 } else { face });
        let h: Harm = attack::harm(o, weapon, delta, weak_point, cover, face, armour, sheet.body_max);
        let mut add = |wound: bool, p: BigRational| {
            *out.entry((h.body, h.trauma, wound)).or_insert_with(BigRational::zero) += p;
        };
        match h.wound {
            WoundRule::No => add(false, each.clone()),
            WoundRule::Yes => add(true, each.clone()),
            WoundRule::Chance(r) => {
                add(true, &each * q(u64::from(r.num), u64::from(r.den)));
                add(false, &each * q(u64::from(r.den - r.num), u64::from(r.den)));
            }
        }
    }
    out.into_iter().collect()
}

/// The exact odds of `who`'s default attack on `target` in `state`: a shot (a snap shot when the
/// gun is down), or a strike when it has no gun, weak-point aim as its policy would declare it.
pub fn odds_in_state(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> AttackOdds {
    let kind = if setup.combatants[who.index()].gun.is_some() { Kind::Shot } else { Kind::Melee(super::Blow::Strike) };
    odds_of(setup, state, who, target, kind, None)
}

/// One attack's numbers, as the fight takes them: the attacker's total, its weapon, range and aim,
/// and the defence it meets.
struct Numbers {
    kind: Kind,
    a: i32,
    weapon: Weapon,
    range: i32,
    aim: i32,
    dn: super::policy::DefenceNumbers,
}

fn numbers(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, kind: Kind) -> Numbers {
    let sheet = &setup.combatants[who.index()];
    // Without a gun, a shot is a strike.
    let kind = if sheet.gun.is_none() && kind == Kind::Shot { Kind::Melee(super::Blow::Strike) } else { kind };
    let (a, weapon, range, aim) = match (kind, sheet.gun.as_ref()) {
        (Kind::Shot, Some(gun)) => {
            let n = shot_numbers(setup, state, who, target, false);
            (n.total, Weapon::gun(gun), n.range, n.aim)
        }
        (kind, _) => {
            let blow = if let Kind::Melee(blow) = kind { blow } else { super::Blow::Strike };
            let n = super::policy::melee_numbers(setup, state, who, false);
            (n.total, Weapon::melee(setup, sheet, blow), 0, 0)
        }
    };
    // The weapon's own penetration meets the cover, a blow's too (TICK-COVER-5/8).
    let dn = defence_numbers(setup, state, target, kind, weapon.penetration);
    Numbers { kind, a, weapon, range, aim, dn }
}

/// The exact distribution of the attacker's result A alone, for a target that does not defend.
fn result_distribution(setup: &Setup, a: i32) -> Vec<(i32, BigRational)> {
    let counts = dice_counts(setup);
    let total: u64 = counts.iter().sum();
    counts.iter().enumerate().filter(|(_, w)| **w > 0).map(|(x, &w)| (x as i32 + a, q(w, total))).collect()
}

/// The exact distribution of delta for an attack of `kind` by `who` on `target` in `state` as the
/// attacker's AI plays it, with `a` and `d` added to the attacker's and the defender's dice: once
/// the attacker has rolled, a blow whose chance of landing is too poor is aborted
/// (`abort_policy`, TICK-MELEE-5/10) and a shot declined (`decline_policy`, TICK-GUN-8/11), by
/// the AI's own decision ([`super::policy::ai_choice`]); neither then meets a defence. Returns
/// the deltas of the attacks carried through, whose probabilities sum to 1 less the second
/// value, the chance that the attack is called off. Under `delta_tie = reroll` a tie is rolled
/// again from scratch (both sides, TICK-DICE-3) with no second decision, as in the fight.
pub fn played_distribution(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    a: i32,
    d: i32,
) -> (Vec<(i32, BigRational)>, BigRational) {
    use super::{Choice, Request};
    let counts = dice_counts(setup);
    let n: u64 = counts.iter().sum();
    let fresh = delta_distribution(setup, a, d);
    let mut by: BTreeMap<i32, BigRational> = BTreeMap::new();
    let mut off = 0u64;
    let mut ties = 0u64;
    for (x, &wx) in counts.iter().enumerate().filter(|(_, w)| **w > 0) {
        let result = x as i32 + a;
        let request = match kind {
            Kind::Shot => Request::Decline { target, a: result, base: a },
            Kind::Melee(_) => Request::Abort { target, a: result, base: a },
        };
        if super::policy::ai_choice(setup, state, who, &request) == Choice::Yes(true) {
            off += wx;
            continue;
        }
        for (y, &wy) in counts.iter().enumerate().filter(|(_, w)| **w > 0) {
            let delta = result - (y as i32 + d);
            if setup.options.tie_reroll && delta == 0 {
                ties += wx * wy;
            } else {
                *by.entry(delta).or_insert_with(BigRational::zero) += q(wx * wy, n * n);
            }
        }
    }
    if ties > 0 {
        let tied = q(ties, n * n);
        for (k, p) in &fresh {
            *by.entry(*k).or_insert_with(BigRational::zero) += &tied * p;
        }
    }
    (by.into_iter().filter(|(_, p)| !p.is_zero()).collect(), q(off, n))
}

/// The policy that calls off an attack of `kind` once rolled, as an option's value: (option,
/// value, clause).
fn call_off_policy(setup: &Setup, kind: Kind) -> (&'static str, &'static str, &'static str) {
    match kind {
        Kind::Shot => (
            "decline_policy",
            match setup.options.decline_policy {
                1 => "never",
                2 => "below_one_third",
                _ => "hopeless",
            },
            "TICK-GUN-11",
        ),
        Kind::Melee(_) => (
            "abort_policy",
            match setup.options.abort_policy {
                1 => "never",
                2 => "below_half",
                _ => "below_one_third",
            },
            "TICK-MELEE-10",
        ),
    }
}

/// The exact odds of one attack of `kind` by `who` on `target` in `state` — a shot, or a melee
/// blow of the given type — with weak-point aim declared or not (`None`: as the policy would):
/// hit chance, harm given a hit, and the chance of taking the target out, as the attacker's AI
/// plays it: a blow it would abort or a shot it would decline once rolled does not land
/// ([`played_distribution`]). [`roll_odds_of`] gives the roll alone, every roll carried through.
///
/// As in the fight: a defence the target wins but cannot pay for with the effort it has left
/// this tick lands as a graze (TICK-DEF-5, TICK-DEF-8), and a target already out of the fight,
/// attackable under `out_targetable = true`, does not defend, so the attack lands with
/// delta = max(A, 0) and meets no cover (TICK-TRACK-5).
pub fn odds_of(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    weak_point: Option<bool>,
) -> AttackOdds {
    odds_played(setup, state, who, target, kind, weak_point, true)
}

/// [`odds_of`] for the roll alone: every roll carried through, whatever the attacker's abort and
/// decline policies would make of it — the odds for a person who decides that themselves.
pub fn roll_odds_of(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    weak_point: Option<bool>,
) -> AttackOdds {
    odds_played(setup, state, who, target, kind, weak_point, false)
}

fn odds_played(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    weak_point: Option<bool>,
    as_played: bool,
) -> AttackOdds {
    let sheet = &setup.combatants[who.index()];
    let Numbers { kind, a, weapon, range, aim, dn } = numbers(setup, state, who, target, kind);
    let weak_point = weak_point.unwrap_or_else(|| super::policy::wants_weak_point(setup, target, weapon.penetration));
    let tf = state.fighter(target);
    let defends = !tf.out();
    let (dist, off) = if !defends {
        // A target out of the fight is never worth calling an attack off against.
        (result_distribution(setup, a), BigRational::zero())
    } else if as_played {
        played_distribution(setup, state, who, target, kind, a, dn.total)
    } else {
        (delta_distribution(setup, a, dn.total), BigRational::zero())
    };
    let tsheet = &setup.combatants[target.index()];
    let cover = if defends && (kind == Kind::Shot || setup.options.cover_vs_melee) { dn.cover } else { None };
    let effort = effort_available(setup, state, target);
    let mut hit = BigRational::zero();
    let mut outcomes: BTreeMap<(i32, i32, bool), BigRational> = BTreeMap::new();
    for (delta, p) in &dist {
        let cost = attack::effort_cost(&setup.options, dn.effort_base, *delta);
        let shortfall = *delta < 1 && effort < cost && !setup.options.shortfall_ignore;
        let d = if !defends {
            (*delta).max(0)
        } else if *delta >= 1 {
            *delta
        } else if shortfall {
            0
        } else {
            continue;
        };
        hit += p;
        for (k, ph) in harm_outcomes(setup, weapon, d, weak_point, cover, target.index(), kind != Kind::Shot) {
            *outcomes.entry(k).or_insert_with(BigRational::zero) += p * ph;
        }
    }
    let mut down = BigRational::zero();
    let mut given = Vec::new();
    for ((body, trauma, wound), p) in outcomes {
        let cond = if hit.is_zero() { BigRational::zero() } else { &p / &hit };
        // The fight's check comes after the hit's damage (TICK-TIME-10 (h)): under
        // `trauma_ko = vs_current_body` the Trauma is compared with the Body the hit leaves.
        let ko_at = if setup.options.trauma_vs_current { tf.body - body } else { tsheet.body_max };
        if tf.body - body <= 0 || tf.trauma + trauma >= ko_at {
            down += &p;
        }
        let label = format!("−{body} Body, +{trauma} Trauma{}", if wound { ", a wound" } else { "" });
        given.push((
            label,
            vec![("body".to_owned(), body), ("trauma".to_owned(), trauma), ("wound".to_owned(), i32::from(wound))],
            cond,
        ));
    }
    let down_given_hit = if hit.is_zero() { BigRational::zero() } else { &down / &hit };
    let name = |c: CombatantId| setup.combatants[c.index()].name.clone();
    let mut assumptions = vec![match kind {
        Kind::Shot => format!(
            "{} fires {} at {}: d20-scale roll {:+} (range {range:+}, aim {aim:+}, p and wounds counted{})",
            name(who),
            sheet.gun.as_ref().map_or("", |g| g.name.as_str()),
            name(target),
            a,
            if state.fighter(who).ready { "" } else { ", a snap shot: the ready penalty counted" }
        ),
        Kind::Melee(blow) => {
            format!(
                "{} makes a {} at {} with {}: roll {a:+}",
                name(who),
                blow.label(),
                name(target),
                sheet.melee_weapon.name
            )
        }
    }];
    assumptions.push(if defends {
        format!(
            "{} defends {:+} (cover bonus {:+}{}), effort base {}",
            name(target),
            dn.total,
            dn.cover_bonus,
            if dn.dive.is_some() { ", diving for cover" } else { "" },
            dn.effort_base
        )
    } else {
        format!("{} is out of the fight and does not defend: the attack lands with delta A, at least 0", name(target))
    });
    if weak_point {
        assumptions.push("weak-point aim declared".to_owned());
    }
    let (option, value, clause) = call_off_policy(setup, kind);
    let what = if kind == Kind::Shot { "declines the shot" } else { "aborts the blow" };
    assumptions.push(if as_played {
        format!(
            "as {}'s AI plays it: once rolled, {what} by {option} = {value} ({clause}): {} of the time",
            name(who),
            fray_dice::fraction(&off)
        )
    } else {
        format!("the roll alone: every roll carried through, whatever {option} would make of it")
    });
    AttackOdds {
        distance: Some(squares_apart(state.fighter(who).pos, state.fighter(target).pos)),
        distance_unit: "squares",
        assumptions,
        hit,
        damage_heading: "Body lost, Trauma and wounds, given a hit".to_owned(),
        damage_given_hit: given,
        residual: BigRational::zero(),
        residual_note: String::new(),
        down_given_hit,
        down,
    }
}

/// Metres for a person: whole when whole, else two places.
fn fmt_m(m: f64) -> String {
    crate::distance_text(m, "").trim_end().to_owned()
}

/// The straight-line distance between two squares' centres, in squares (TICK-MOVE-2).
fn squares_apart(a: Square, b: Square) -> f64 {
    let (dx, dy) = (f64::from(a.0) - f64::from(b.0), f64::from(a.1) - f64::from(b.1));
    (dx * dx + dy * dy).sqrt()
}

/// `fray odds --scenario` for `ticks`: the odds at the start of the fight (tick 1's state).
pub fn attack_odds(setup: &Setup, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
    attack_odds_at(setup, attacker, defender, None)
}

/// [`attack_odds`], with `distance` in squares (a square is `square_m` metres, TICK-MOVE-2) as if
/// the attacker stood that far from the defender: on the square nearest the point that far along
/// the line between them (along +x when they share a square), which may be a little nearer or
/// farther on a slant (the odds give the distance of that square). Everyone else stays put. The
/// square must be free under `square_occupancy = exclusive`. A melee blow on a target beyond
/// `melee_reach_squares` is an error (TICK-MELEE-8), with or without a distance.
pub fn attack_odds_at(
    setup: &Setup,
    attacker: &str,
    defender: &str,
    distance: Option<f64>,
) -> Result<AttackOdds, String> {
    let find = |name: &str| crate::find_combatant(setup.combatants.iter().map(|c| c.name.as_str()), name);
    let (a, d) = (find(attacker)?, find(defender)?);
    if a == d {
        return Err("the attacker and the defender must differ".to_owned());
    }
    let mut state = Ticks::initial_state(setup);
    let from = state.fighter(a).pos;
    if let Some(distance) = distance {
        let distance = crate::check_distance(distance, crate::MAX_ODDS_DISTANCE, "squares")?;
        let centre = |sq: Square| fray_engine::Pos::new(f64::from(sq.0), f64::from(sq.1));
        let to = crate::placed(centre(state.fighter(d).pos), centre(from), distance);
        // Within i32: |coordinates| ≤ 100,000 in a file and distance ≤ 100,000.
        let square = (to.x.round() as i32, to.y.round() as i32);
        if !setup.options.shared_squares
            && let Some(other) = state.occupant(square).filter(|o| *o != a)
        {
            return Err(format!(
                "square {square:?}, {} from `{defender}`, is taken by `{}` (square_occupancy = exclusive, \
                 TICK-MOVE-5)",
                crate::distance_text(squares_apart(square, state.fighter(d).pos), "squares"),
                setup.combatants[other.index()].name
            ));
        }
        // The square it stands in, and the one it held at the tick's start (its cover's).
        let x = &mut state.fighters[a.index()];
        x.pos = square;
        x.square0 = square;
    }
    if setup.combatants[a.index()].gun.is_none() {
        let apart = super::setup::chebyshev(state.fighter(a).pos, state.fighter(d).pos);
        if apart > setup.options.melee_reach {
            return Err(format!(
                "`{attacker}` has no gun, and `{defender}` is {} away: beyond melee reach ({}, diagonals counting as \
                 one, TICK-MELEE-8){}",
                crate::distance_text(squares_apart(state.fighter(a).pos, state.fighter(d).pos), "squares"),
                crate::distance_text(f64::from(setup.options.melee_reach), "squares"),
                if distance.is_none() {
                    format!("; `--distance {}` gives the odds once in reach", setup.options.melee_reach)
                } else {
                    String::new()
                },
            ));
        }
    }
    let mut odds = odds_in_state(setup, &state, a, d);
    if distance.is_some() {
        let at = state.fighter(a).pos;
        let apart = squares_apart(at, state.fighter(d).pos);
        odds.assumptions.insert(
            0,
            format!(
                "{attacker} stands in square {at:?}, {} ({} m) from {defender} ({} in the file), moved along the \
                 line between them; everyone else where the file puts them",
                crate::distance_text(apart, "squares"),
                fmt_m(apart * setup.options.square_m),
                crate::distance_text(squares_apart(from, state.fighter(d).pos), "squares"),
            ),
        );
    }
    // The defence the attack meets, with the weapon's own penetration (TICK-COVER-5/8).
    let kind = if setup.combatants[a.index()].gun.is_some() { Kind::Shot } else { Kind::Melee(super::Blow::Strike) };
    let n = numbers(setup, &state, a, d, kind);
    // What the fight deducts: the cost, or the effort left when that is less (TICK-DEF-5); a
    // target out of the fight does not defend (TICK-TRACK-5).
    let e = if state.fighter(d).out() {
        BigRational::zero()
    } else {
        // A blow aborted or a shot declined meets no defence (TICK-MELEE-5, TICK-GUN-8).
        let (dist, _) = played_distribution(setup, &state, a, d, n.kind, n.a, n.dn.total);
        let effort = effort_available(setup, &state, d);
        dist.iter().fold(BigRational::zero(), |acc, (k, p)| {
            let cost = attack::effort_cost(&setup.options, n.dn.effort_base, *k).min(effort);
            acc + p * BigRational::from_integer(cost.into())
        })
    };
    odds.assumptions.push(format!("expected effort {defender} spends on this defence: {}", fray_dice::fraction(&e)));
    // The roll alone, for a person who decides the abort or the decline themselves.
    let alone = roll_odds_of(setup, &state, a, d, kind, None);
    if alone.hit != odds.hit || alone.down != odds.down {
        odds.assumptions.push(format!(
            "the roll alone, every roll carried through: hit {}, takes {defender} out {}",
            fray_dice::fraction(&alone.hit),
            fray_dice::fraction(&alone.down)
        ));
    }
    Ok(odds)
}
