//! The `opend6` status board: wound level (or Body Points), actions, points, ammunition.

use super::front::OpenD6Scenario;
use super::setup::Level;
use super::setup::{LEVELS, Setup};
use super::{Event, Fighter, State};
use crate::board::{Adjustable, Adjustment, Change};
use crate::board::{CombatantStatus, StatusField};

impl OpenD6Scenario {
    /// Every combatant's status at `state`.
    pub fn board(&self, state: &State) -> Vec<CombatantStatus> {
        let setup = &self.0;
        state
            .fighters
            .iter()
            .zip(&setup.combatants)
            .map(|(f, sheet)| {
                let standing = !f.out(&setup.options);
                let mut fields = vec![StatusField::text("level", "wound level", f.level.name().replace('_', " "))];
                if sheet.body_points_max.is_some() {
                    fields.push(StatusField::of("bp", "Body Points", f.bp.into(), f.bp_max.into()));
                }
                let mut conditions = Vec::new();
                if f.waiting {
                    conditions.push("waiting".to_owned());
                }
                if f.held_by.is_some() {
                    conditions.push("held".to_owned());
                }
                if f.unconscious_until > 0 {
                    conditions.push("unconscious".to_owned());
                }
                if f.absent {
                    conditions.push("not yet in the fight".to_owned());
                } else if f.removed {
                    conditions.push("taken out by the GM".to_owned());
                }
                let ammo: Vec<String> = sheet
                    .weapons
                    .iter()
                    .zip(f.weapons.iter())
                    .filter_map(|(w, s)| s.ammo.map(|a| format!("{} {a}", w.name)))
                    .collect();
                fields.extend([
                    StatusField::text("actions", "actions", format!("{} of {} used", f.used, f.declared)),
                    StatusField::text("posture", "posture", format!("{:?}", f.posture).to_lowercase()).public(),
                    StatusField::list("conditions", "conditions", conditions),
                    StatusField::int("cp", "Character Points", f.cp.into()),
                    StatusField::int("fp", "Fate Points", f.fp.into()),
                    StatusField::list("ammo", "ammunition", ammo),
                ]);
                let condition = match f.level {
                    _ if !standing => "down",
                    Level::Healthy => "unhurt",
                    Level::Stunned | Level::Wounded => "wounded",
                    _ => "badly hurt",
                };
                CombatantStatus {
                    name: sheet.name.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(format!("{} m", f.pos)),
                    standing,
                    hidden: false,
                    condition,
                    fields,
                }
            })
            .collect()
    }
}

/// The tracks a game master may set by hand.
pub const ADJUSTABLE: &[Adjustable] = &[
    Adjustable::new(
        "level",
        "wound level",
        "0 Healthy, 1 Stunned, 2 Wounded, 3 Severely Wounded, 4 Incapacitated, 5 Mortally Wounded, 6 Dead",
    ),
    Adjustable::new("bp", "Body Points", "0 to the maximum (under damage_track = body_points)"),
    Adjustable::new("unconscious", "unconscious", "1 (for the rest of the fight) or 0"),
    Adjustable::new("cp", "Character Points", "0 to 999"),
    Adjustable::new("fp", "Fate Points", "0 to 99"),
    Adjustable::per_item("ammo", "ammunition", "0 to 9999, for a weapon that counts its shots"),
];

/// The event of a game master's adjustment at `state`, or why it is refused.
pub(super) fn adjust_events(setup: &Setup, state: &State, adjustment: &Adjustment) -> Result<Vec<Event>, String> {
    let names = setup.combatants.iter().map(|c| c.name.as_str());
    let (who, change) = crate::board::change(
        ADJUSTABLE,
        names,
        adjustment,
        |w| state.fighter(w).absent,
        |w| state.fighter(w).removed,
        |who, track, item| {
            let (sheet, fighter) = (&setup.combatants[who.index()], state.fighter(who));
            Ok(match track.key {
                "level" => (0, 0, LEVELS.len() as i64 - 1),
                "bp" => match sheet.body_points_max.filter(|_| fighter.bp_max > 0) {
                    Some(max) => (0, 0, max.into()),
                    None => return Err(format!("{} has no Body Points (damage_track = body_points)", sheet.name)),
                },
                "unconscious" => (0, 0, 1),
                "cp" => (0, 0, 999),
                "fp" => (0, 0, 99),
                _ => {
                    let weapons = sheet.weapons.iter().map(|w| w.name.as_str());
                    (
                        crate::board::counted_item(&sheet.name, item, weapons, |i| fighter.weapons[i].ammo.is_some())?,
                        0,
                        9999,
                    )
                }
            })
        },
    )?;
    Ok(vec![Event::Adjusted { who, change }])
}

/// Applies an adjustment to a fighter: a wound level set by hand is the deepest entered if it
/// is deeper; a combatant taken out counts as dead (OD6-ROUND-4).
pub(super) fn set(fighter: &mut Fighter, change: &Change) {
    match *change {
        Change::Set { track: "level", value, .. } => {
            fighter.level = LEVELS[value.clamp(0, LEVELS.len() as i32 - 1) as usize];
            fighter.deepest = fighter.deepest.max(fighter.level);
        }
        Change::Set { track: "bp", value, .. } => fighter.bp = value,
        Change::Set { track: "unconscious", value, .. } => {
            fighter.unconscious_until = if value != 0 { u32::MAX } else { 0 };
        }
        Change::Set { track: "cp", value, .. } => fighter.cp = value.max(0) as u32,
        Change::Set { track: "fp", value, .. } => fighter.fp = value.max(0) as u32,
        Change::Set { track: "ammo", item, value } => {
            fighter.weapons[usize::from(item)].ammo = Some(value.max(0) as u32)
        }
        Change::Set { .. } | Change::Join => {}
        Change::Out => {
            fighter.removed = true;
            fighter.level = super::setup::Level::Dead;
            fighter.deepest = fighter.level;
        }
    }
}

/// A combatant added by the game master, absent until it joins: dead to the rules meanwhile, so
/// that no loop of theirs counts it.
pub(super) fn absent(fighter: &mut Fighter) {
    set(fighter, &Change::Out);
    fighter.absent = true;
}

/// Applies an `Adjusted` event; a combatant joining mid-fight starts as its stat block has it,
/// and acts from the next round on: it rolls initiative with everyone, or, where the order is set
/// once (`initiative_method = roll_once` or `fixed_order`), it takes the step after the last.
pub(super) fn adjust(setup: &Setup, state: &mut State, who: fray_engine::CombatantId, change: &Change) {
    if *change == Change::Join {
        state.fighters[who.index()] = super::fresh(&setup.combatants[who.index()]);
        let step = state.order.iter().map(|s| s.1 + 1).max().unwrap_or(0);
        state.order.push((who, step));
    } else {
        set(&mut state.fighters[who.index()], change);
    }
}
