//! The pure arithmetic of an attack, shared by the fight, the AI and the odds: range and aim
//! modifiers, cover bonus and slowing, effort costs, and what a hit does through cover, armour
//! and limbs.

use super::options::Options;
use super::setup::{Armour, Cover, Gun, Setup, Sheet};

/// The range modifier (TICK-RANGE-1/2) and the range penalty ⌊d / step⌋.
pub fn range_modifier(options: &Options, gun: &Gun, distance_m: f64, adjacent: bool) -> (i32, i32) {
    // Capped so that no roll total can overflow, however far apart and however fine the step.
    // The quotient is never negative (a distance, and a step from 0.1 to 1000 m): the cast's
    // truncation is its floor, without a call to `floor`.
    let penalty = (distance_m / gun.range_step_m + 1e-9).min(10_000.0) as i32;
    if options.pb_only {
        if adjacent { (gun.pb_bonus, penalty) } else { (-penalty, penalty) }
    } else {
        (gun.pb_bonus - penalty, penalty)
    }
}

/// The aim bonus after `ticks` aim ticks against a range penalty (TICK-AIM-1/3).
pub fn aim_bonus(options: &Options, ticks: i32, penalty: i32) -> i32 {
    let half = (penalty + 1) / 2;
    let cap = if ticks > 4 && !options.aimed_half { penalty } else { half };
    ticks.min(cap).max(0)
}

/// The cover bonus a shot meets (TICK-COVER-2/5): halved when the penetration exceeds the
/// cover's resistance.
pub fn cover_bonus(cover: Cover, penetration: i32) -> i32 {
    if penetration > cover.resistance { cover.bonus() / 2 } else { cover.bonus() }
}

/// The delta below which a shot through cover is slowed (TICK-COVER-6/9), or `None` when it is
/// never slowed (penetration not above the resistance, or 5 or more above).
pub fn slowed_below(options: &Options, cover: Cover, penetration: i32) -> Option<i32> {
    let over = penetration - cover.resistance;
    if cover.rating == 0 || !(1..=4).contains(&over) {
        return None;
    }
    Some(if options.slowed_halved { (cover.bonus() / 2 + 1) / 2 } else { cover.rating / 10 })
}

/// What a defender pays (TICK-DEF-1/2/4, TICK-MELEE-7): the base, less its winning margin when it
/// wins, never below 0.
pub fn effort_cost(options: &Options, base: i32, delta: i32) -> i32 {
    if delta >= 1 { if options.effort_on_loss_zero { 0 } else { base } } else { (base + delta).max(0) }
}

/// The weapon side of a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// The weapon's graze (its damage value).
    pub graze: i32,
    /// A blow's graze modifier (TICK-MELEE-3), added to the graze, the sum not below 0.
    pub graze_mod: i32,
    /// Damage per point of delta.
    pub delta_damage: i32,
    /// Penetration (with ammunition).
    pub penetration: i32,
    /// Lethal: damage goes to Body (fists are not, TICK-MELEE-9).
    pub lethal: bool,
}

impl Weapon {
    /// A gun's side of a hit.
    pub fn gun(gun: &Gun) -> Weapon {
        Weapon {
            graze: gun.damage,
            graze_mod: 0,
            delta_damage: gun.delta_damage,
            penetration: gun.penetration,
            lethal: true,
        }
    }

    /// A melee weapon's side of a blow.
    pub fn melee(setup: &Setup, sheet: &Sheet, blow: super::Blow) -> Weapon {
        let w = &sheet.melee_weapon;
        Weapon {
            graze: w.damage,
            graze_mod: setup.blow(blow).graze,
            delta_damage: w.delta_damage,
            penetration: w.penetration,
            lethal: !(w.unarmed && setup.options.unarmed_nonlethal),
        }
    }
}

/// Whether a wound follows a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WoundRule {
    /// No wound.
    No,
    /// One wound.
    Yes,
    /// One wound with this chance (a shot stopped by armour, TICK-ARM-4/5).
    Chance(super::options::Ratio),
}

/// What a hit does (TICK-DMG-5 order: raw → slowing → armour → limbs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Harm {
    /// Damage before cover, armour and limbs.
    pub raw: i32,
    /// Slowed by cover.
    pub slowed: bool,
    /// Armour met: (hard, resistance, held).
    pub armour: Option<(bool, i32, bool)>,
    /// Body lost.
    pub body: i32,
    /// Trauma.
    pub trauma: i32,
    /// The wound.
    pub wound: WoundRule,
}

/// Whether a d10 face is a limb (TICK-DMG-4: 5–10).
pub fn limb(face: u32) -> bool {
    face >= 5
}

/// The harm of a hit with `delta` (≥ 0), on d10 face `face` (0 for the torso without a roll),
/// through `cover` (shots only) and `armour`.
#[allow(clippy::too_many_arguments, reason = "the catalogue's inputs to one hit")]
pub fn harm(
    options: &Options,
    weapon: Weapon,
    delta: i32,
    weak_point: bool,
    cover: Option<Cover>,
    face: u32,
    armour: Option<&Armour>,
    body_max: i32,
) -> Harm {
    let to_pen = if weak_point { if options.odd_point_penetration { delta - delta / 2 } else { delta / 2 } } else { 0 };
    let (graze, per) = if options.graze_fixed_source {
        (options.graze_fixed, weapon.graze)
    } else {
        (weapon.graze, weapon.delta_damage)
    };
    let graze = (graze + weapon.graze_mod).max(0);
    let raw = graze + (delta - to_pen) * per;
    let mut damage = raw;
    let mut slowed = false;
    if let Some(c) = cover {
        let pen = weapon.penetration + if options.cover_pen_weak_point { to_pen } else { 0 };
        if slowed_below(options, c, pen).is_some_and(|t| delta < t) {
            slowed = true;
            damage = options.half(damage);
        }
    }
    let pen = weapon.penetration + to_pen;
    let limb = limb(face);
    let halve_limb = |x: i32| if limb { options.half(x) } else { x };
    let mut met = None;
    let mut wound = WoundRule::No;
    let (body, trauma);
    match armour {
        Some(a) if pen < a.resistance => {
            met = Some((a.hard, a.resistance, true));
            let t = if a.hard { options.div(damage, 10) } else { options.half(damage) };
            trauma = if options.limb_halving_all { halve_limb(t) } else { t };
            body = 0;
            let chance = if a.hard { options.hard_block_wound } else { options.soft_block_wound };
            if chance.num > 0 && weapon.lethal {
                wound = if chance.num >= chance.den { WoundRule::Yes } else { WoundRule::Chance(chance) };
            }
        }
        Some(a) => {
            met = Some((a.hard, a.resistance, false));
            if (a.hard || options.soft_pierce_delta) && pen - a.resistance <= 4 {
                damage = options.half(damage);
            }
            (body, trauma) = reach(options, weapon, halve_limb(damage), body_max, &mut wound);
        }
        None => (body, trauma) = reach(options, weapon, halve_limb(damage), body_max, &mut wound),
    }
    Harm { raw, slowed, armour: met, body, trauma, wound }
}

fn reach(options: &Options, weapon: Weapon, damage: i32, body_max: i32, wound: &mut WoundRule) -> (i32, i32) {
    if !weapon.lethal {
        return (0, damage);
    }
    let t = options.wound_threshold;
    if damage > 0 && i64::from(damage) * i64::from(t.den) >= i64::from(body_max) * i64::from(t.num) {
        *wound = WoundRule::Yes;
    }
    (damage, 0)
}
