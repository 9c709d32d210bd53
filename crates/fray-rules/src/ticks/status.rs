//! The `ticks` status board: Body, Trauma, wounds, effort, the stability penalty, the gun.

use super::front::TicksScenario;
use super::setup::Setup;
use super::{Event, Fighter, State};
use crate::board::{Adjustable, Adjustment, Change};
use crate::board::{CombatantStatus, StatusField, condition_word};

impl TicksScenario {
    /// Every combatant's status at `state`.
    pub fn board(&self, state: &State) -> Vec<CombatantStatus> {
        let setup = &self.0;
        state
            .fighters
            .iter()
            .zip(&setup.combatants)
            .map(|(f, sheet)| {
                let standing = !f.out();
                let mut conditions = Vec::new();
                if f.absent {
                    conditions.push("not yet in the fight".to_owned());
                } else if f.removed {
                    conditions.push("taken out by the GM".to_owned());
                } else if f.down {
                    conditions.push("Down".to_owned());
                }
                if f.knocked_out {
                    conditions.push("KnockedOut".to_owned());
                }
                if f.aim_ticks > 0 {
                    conditions.push(format!("aiming ({} ticks)", f.aim_ticks));
                }
                if f.string_open {
                    conditions.push(format!("firing string ({} shots)", f.string_shots));
                }
                let gun = match &sheet.gun {
                    Some(gun) => format!("{}{}", gun.name, if f.ready { " (ready)" } else { " (not ready)" }),
                    None => "none".to_owned(),
                };
                CombatantStatus {
                    name: sheet.name.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(format!("square ({}, {})", f.pos.0, f.pos.1)),
                    standing,
                    hidden: false,
                    condition: condition_word(standing, i64::from(f.body), i64::from(sheet.body_max)),
                    fields: vec![
                        StatusField::of("body", "Body", f.body.into(), sheet.body_max.into()),
                        StatusField::int("trauma", "Trauma", f.trauma.into()),
                        StatusField::int("wounds", "wounds", f.wounds.into()),
                        StatusField::int("effort", "effort", f.effort.into()),
                        StatusField::int("p", "stability penalty p", f.p.into()),
                        StatusField::list("conditions", "conditions", conditions),
                        StatusField::text("gun", "gun", gun).public(),
                    ],
                }
            })
            .collect()
    }
}

/// The tracks a game master may set by hand.
pub const ADJUSTABLE: &[Adjustable] = &[
    Adjustable::new("body", "Body", "a whole number up to the maximum"),
    Adjustable::new("trauma", "Trauma", "0 to 999"),
    Adjustable::new("wounds", "wounds", "0 to 999"),
    Adjustable::new("effort", "effort", "0 to 999"),
    Adjustable::new("p", "stability penalty p", "0 to 999"),
    Adjustable::new("down", "Down", "1 or 0"),
    Adjustable::new("knocked_out", "KnockedOut", "1 or 0"),
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
        |who, track, _| {
            Ok(match track.key {
                "body" => (0, -999, setup.combatants[who.index()].body_max.into()),
                "down" | "knocked_out" => (0, 0, 1),
                _ => (0, 0, 999),
            })
        },
    )?;
    Ok(vec![Event::Adjusted { who, change }])
}

/// Applies an adjustment to a fighter; a combatant taken out is Down (TICK-TRACK-5).
pub(super) fn set(fighter: &mut Fighter, change: &Change) {
    match *change {
        Change::Set { track: "body", value, .. } => fighter.body = value,
        Change::Set { track: "trauma", value, .. } => fighter.trauma = value,
        Change::Set { track: "wounds", value, .. } => fighter.wounds = value,
        Change::Set { track: "effort", value, .. } => fighter.effort = value,
        Change::Set { track: "p", value, .. } => fighter.p = value,
        Change::Set { track: "down", value, .. } => fighter.down = value != 0,
        Change::Set { track: "knocked_out", value, .. } => fighter.knocked_out = value != 0,
        Change::Set { .. } | Change::Join => {}
        Change::Out => {
            fighter.removed = true;
            fighter.down = true;
        }
    }
}

/// A combatant added by the game master, absent until it joins: Down to the rules meanwhile, so
/// that no loop of theirs counts it.
pub(super) fn absent(fighter: &mut Fighter) {
    set(fighter, &Change::Out);
    fighter.absent = true;
}

/// Applies an `Adjusted` event; a combatant joining mid-fight starts as its stat block has it,
/// and announces from the next tick on.
pub(super) fn adjust(setup: &Setup, state: &mut State, who: fray_engine::CombatantId, change: &Change) {
    if *change == Change::Join {
        state.fighters[who.index()] = super::fresh(setup, who.index());
    } else {
        set(&mut state.fighters[who.index()], change);
    }
}
