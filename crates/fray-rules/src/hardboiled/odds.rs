//! Odds in context: the exact chance that one attack hits and the exact distribution of what it
//! does — hit location, cover, armour, ward and brawling halving included — and the chance that
//! it takes the defender out (knocked out or down, Second Wind counted), by enumerating every
//! die: the attacker's, the defender's, the confirm d10, the location d10 and the gun's damage.

use super::attack;
use super::policy;
use super::setup::{Attr, Setup, Weapon};
use super::{Act, HardBoiled, Part, State};
use crate::AttackOdds;
use fray_dice::BigRational;
use fray_engine::{CombatantId, Ruleset};
use num_traits::{One, Zero};
use std::collections::BTreeMap;

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// One attack's exact odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(hit).
    pub hit: BigRational,
    /// Given a hit: (recorded damage, HP lost, stopped by cover) and probability.
    pub outcomes: BTreeMap<(i32, i32, bool), BigRational>,
    /// P(the defender is out after this one hit | a hit).
    pub down_given_hit: BigRational,
}

/// The distribution of a gun's damage roll.
fn damage_dist(w: &Weapon) -> Vec<(i32, BigRational)> {
    let mut dist: BTreeMap<i32, BigRational> = BTreeMap::from([(w.damage.plus, BigRational::one())]);
    for _ in 0..w.damage.dice {
        let mut next = BTreeMap::new();
        let p = r(1, i64::from(w.damage.sides));
        for (v, q) in &dist {
            for f in 1..=i32::from(w.damage.sides) {
                *next.entry(v + f).or_insert_with(BigRational::zero) += q * &p;
            }
        }
        dist = next;
    }
    dist.into_iter().collect()
}

/// The odds of `act` (an attack) by `who` in `state`.
pub fn odds_of(setup: &Setup, state: &State, who: CombatantId, act: &Act) -> Option<Odds> {
    let options = &setup.options;
    let Act::Attack { target, fists, called, off_balance } = *act else { return None };
    let sheet = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let unarmed = policy::unarmed();
    let weapon = attack::weapon_of(sheet, x, fists, unarmed).clone();
    // (probability, base damage, critical, location face or None for the d10)
    let mut hits: Vec<(BigRational, i32, bool)> = Vec::new();
    let mut hit = BigRational::zero();
    let confirm_p = r(1, 10);
    if weapon.ranged {
        let (band, base) = attack::band(options, state.distance(who, target), weapon.range_m)?;
        let (actor, opponent) = attack::shot_terms(options, sheet, x.attacks, x.moved || off_balance, called.is_some());
        let difficulty = base + opponent.sum();
        let sides = i32::from(sheet.die(Attr::Action));
        let bonus = actor.sum();
        let damage = if band == 0 && options.point_blank_max {
            vec![(weapon.damage.max(), BigRational::one())]
        } else {
            damage_dist(&weapon)
        };
        for n in 1..=sides {
            let total = n + bonus;
            let pass = if options.greater_than { total > difficulty } else { total >= difficulty };
            let p = r(1, i64::from(sides));
            // (probability, hit, margin, critical)
            let mut cases = vec![(p.clone(), pass, total - difficulty, false)];
            if options.ranged_crits && n == sides {
                let crit_hit = pass || options.crit_forces_hit;
                let margin = if pass { total - difficulty } else { 0 };
                cases =
                    vec![(&p * &confirm_p, crit_hit, margin, true), (&p * r(9, 10), pass, total - difficulty, false)];
            } else if options.ranged_crits && n == 1 {
                let fumble_hit = pass && !options.fumble_forces_miss;
                cases = vec![
                    (&p * &confirm_p, fumble_hit, total - difficulty, false),
                    (&p * r(9, 10), pass, total - difficulty, false),
                ];
            }
            for (q, ok, margin, critical) in cases {
                if ok {
                    hit += &q;
                    for (dv, dp) in &damage {
                        hits.push((&q * dp, margin.max(0) + dv, critical));
                    }
                }
            }
        }
    } else {
        let t_sheet = &setup.combatants[target.index()];
        let attr = attack::contest_attribute(options, act);
        let (a, d) = (i32::from(sheet.die(attr)), i32::from(t_sheet.die(attr)));
        let t = state.fighter(target);
        let def_weapon = attack::weapon_of(t_sheet, t, false, unarmed);
        let (actor, opponent) =
            attack::contest_terms(options, act, attr, sheet, t_sheet, &weapon, def_weapon, x.attacks, called.is_some());
        let (a_mod, d_mod, armour) = (actor.sum(), opponent.sum(), i32::from(opponent.0[2]));
        // Under `contest_tie = reroll` the ties are rerolled: condition on the pair not tying.
        let ties =
            (1..=a).flat_map(|an| (1..=d).map(move |dn| (an, dn))).filter(|&(an, dn)| an + a_mod == dn + d_mod).count();
        let pairs = i64::from(a * d) - if options.tie_reroll { ties as i64 } else { 0 };
        if pairs == 0 {
            return Some(Odds { hit, outcomes: BTreeMap::new(), down_given_hit: BigRational::zero() });
        }
        for an in 1..=a {
            for dn in 1..=d {
                let mut margin = (an + a_mod) - (dn + d_mod);
                if options.tie_reroll && margin == 0 {
                    continue;
                }
                let p = r(1, pairs);
                let mut cases = vec![(p.clone(), margin, false, false)];
                if an == a && dn == 1 {
                    let mut m = margin + armour;
                    if options.crit_forces_hit && m <= 0 {
                        m = 1;
                    }
                    cases = vec![(&p * &confirm_p, m, true, false), (&p * r(9, 10), margin, false, false)];
                } else if an == 1 && dn == d {
                    cases = vec![(&p * &confirm_p, margin, false, true), (&p * r(9, 10), margin, false, false)];
                }
                for (q, m, critical, fumbled) in cases {
                    margin = m;
                    if margin > 0 && !(fumbled && options.fumble_forces_miss) {
                        hit += &q;
                        hits.push((q, margin, critical));
                    }
                }
            }
        }
    }
    // Location, cover, armour, ward, halving (USR-DMG-1).
    let faces: Vec<(u8, BigRational)> = match called {
        Some(part) => vec![(part.face(), BigRational::one())],
        None => (1..=10).map(|f| (f, r(1, 10))).collect(),
    };
    let mut outcomes: BTreeMap<(i32, i32, bool), BigRational> = BTreeMap::new();
    for (p, base, critical) in &hits {
        for (face, fp) in &faces {
            let kind = if weapon.ranged { attack::HitKind::Ranged } else { attack::HitKind::Melee };
            let o = attack::outcome(setup, state, target, *base, *face, *critical, kind, &weapon);
            *outcomes.entry((o.recorded, o.hp_loss, o.cover_stopped)).or_insert_with(BigRational::zero) += p * fp;
        }
    }
    if hit.is_zero() {
        return Some(Odds { hit, outcomes, down_given_hit: BigRational::zero() });
    }
    for p in outcomes.values_mut() {
        *p /= &hit;
    }
    let down_given_hit = down_chance(setup, state, target, &outcomes);
    Some(Odds { hit, outcomes, down_given_hit })
}

/// P(out of the fight | the outcome distribution), over the defender's maximum HP when it is
/// still to be rolled: knocked out by the tally, or down unless Second Wind saves him.
fn down_chance(
    setup: &Setup,
    state: &State,
    target: CombatantId,
    outcomes: &BTreeMap<(i32, i32, bool), BigRational>,
) -> BigRational {
    let options = &setup.options;
    let sheet = &setup.combatants[target.index()];
    let x = state.fighter(target);
    // (max HP, current HP, probability)
    let maxes: Vec<(i32, i32, BigRational)> = if x.hp_max > 0 {
        vec![(x.hp_max, x.hp, BigRational::one())]
    } else if options.hp_maximum {
        let m = i32::from(sheet.die(Attr::Action)) + i32::from(sheet.die(Attr::Wits));
        vec![(m, sheet.hp.unwrap_or(m), BigRational::one())]
    } else {
        let (a, w) = (i32::from(sheet.die(Attr::Action)), i32::from(sheet.die(Attr::Wits)));
        (1..=a)
            .flat_map(|fa| (1..=w).map(move |fw| fa + fw))
            .map(|m| (m, sheet.hp.unwrap_or(m), r(1, i64::from(a * w))))
            .collect()
    };
    let holder = !options.second_wind_heroes || sheet.hero;
    let mut down = BigRational::zero();
    for ((recorded, loss, stopped), p) in outcomes {
        if *stopped {
            continue;
        }
        for (max, hp, q) in &maxes {
            let tally = x.tally + if options.ko_hp_lost { *loss } else { *recorded };
            let ko = tally > 0 && tally >= attack::ko_threshold(options, *max);
            let mut after = hp - loss;
            let struck = !options.second_wind_on_damage || *loss >= 1;
            if !ko && holder && struck && !x.second_wind_used {
                let choice =
                    policy::ai_choice(setup, state, target, &super::Request::SecondWind { hp: after, max: *max });
                if choice == super::Choice::Yes(true) {
                    let value = attack::second_wind(options, *max);
                    after = if options.second_wind_uncapped {
                        after + value
                    } else {
                        (after + value).min((*max).max(after))
                    };
                }
            }
            let out = after <= 0 || (ko && !options.down_only);
            if out {
                down += p * q;
            }
        }
    }
    down
}

/// `attacker`'s attack on `defender` at the start of the fight, as its policies play it.
pub fn attack_odds(setup: &Setup, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
    attack_odds_at(setup, attacker, defender, None)
}

/// [`attack_odds`], with `distance` (metres) as if the attacker stood that far from the defender,
/// moved along the line between them (along +x when they share a point), standing still (no
/// moving-shot penalty); everyone else stays put. An attacker moved off his starting point
/// leaves the cover the file gives him there. A target out of reach from there is an error.
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
    let mut state = HardBoiled::initial_state(setup);
    state.turn = 1;
    let from = state.distance(a, d);
    if let Some(distance) = distance {
        let distance = crate::check_distance(distance, crate::MAX_ODDS_DISTANCE, "m")?;
        let to = crate::placed(state.fighter(d).pos, state.fighter(a).pos, distance);
        let home = setup.combatants[a.index()].position;
        let x = &mut state.fighters[a.index()];
        x.pos = to;
        // His cover is at his starting point: a step away leaves it, as a move in the fight does.
        x.in_cover = x.in_cover && to.distance(home) < 1e-9;
    }
    // Fists or weapon, and any called shot, as the policies choose them against this defender.
    let fists = policy::fists(setup, &state, a, d);
    let sheet = &setup.combatants[a.index()];
    let weapon = if fists { policy::unarmed() } else { &sheet.weapon };
    let called = policy::called(setup, &state, a, d, weapon);
    let act = Act::Attack { target: d, fists, called, off_balance: false };
    if let Some(why) = policy::out_of_reach(setup, &state, a, d, weapon) {
        return Err(match distance {
            Some(_) => format!("`{defender}` cannot be attacked from there: {why}"),
            None => format!("`{defender}` cannot be attacked from the start: {why}"),
        });
    }
    let odds = odds_of(setup, &state, a, &act).ok_or("no attack possible")?;
    let mut assumptions = Vec::new();
    if distance.is_some() {
        assumptions.push(format!(
            "{attacker} stands {} from {defender} ({} in the file), moved along the line between them; everyone \
             else where the file puts them",
            crate::distance_text(state.distance(a, d), "m"),
            crate::distance_text(from, "m")
        ));
    }
    assumptions.push(format!(
        "{attacker} attacks with {}{} ({}), d{} Action",
        weapon.name,
        called.map_or(String::new(), |p: Part| format!(", a called shot at the {}", p.name())),
        if weapon.ranged {
            let (b, diff) = attack::band(&setup.options, state.distance(a, d), weapon.range_m).unwrap_or((4, 14));
            let band = ["Point Blank", "Close", "Medium", "Long", "Extreme"][b as usize];
            match called {
                // A called shot is harder by `called_shot_penalty` (USR-LOC-4).
                Some(_) => {
                    let penalty = setup.options.called_shot_penalty;
                    format!("{band} band, difficulty {diff} + {penalty} for the called shot = {}", diff + penalty)
                }
                None => format!("{band} band, difficulty {diff}"),
            }
        } else {
            format!("a contest against {defender}'s d{} Action", setup.combatants[d.index()].die(Attr::Action))
        },
        sheet.die(Attr::Action)
    ));
    if state.fighter(d).hp_max == 0 {
        assumptions
            .push(format!("{defender}'s maximum HP is rolled at the start (Action + Wits): averaged over the rolls"));
    }
    assumptions
        .push("the location d10, cover, armour, ward and brawling halving applied; Second Wind by policy".into());
    // A person who controls the defender decides the Second Wind: the odds if he takes none.
    let mut no_wind = state.clone();
    no_wind.fighters[d.index()].second_wind_used = true;
    if let Some(none) = odds_of(setup, &no_wind, a, &act)
        && none.down_given_hit != odds.down_given_hit
    {
        assumptions.push(format!(
            "if {defender} takes no Second Wind (a person controlling him decides): takes {defender} out {}",
            fray_dice::fraction(&(&none.hit * &none.down_given_hit))
        ));
    }
    let damage_given_hit = odds
        .outcomes
        .iter()
        .map(|((recorded, loss, stopped), p)| {
            let label =
                if *stopped { "stopped by cover".to_owned() } else { format!("{recorded} recorded, −{loss} HP") };
            (label, vec![("recorded".to_owned(), *recorded), ("hp_lost".to_owned(), *loss)], p.clone())
        })
        .collect();
    let down = &odds.hit * &odds.down_given_hit;
    Ok(AttackOdds {
        distance: Some(state.distance(a, d)),
        distance_unit: "m",
        assumptions,
        hit: odds.hit,
        damage_heading: "damage after location, cover and armour, given a hit".to_owned(),
        damage_given_hit,
        down_given_hit: odds.down_given_hit,
        down,
        residual: BigRational::zero(),
        residual_note: String::new(),
    })
}
