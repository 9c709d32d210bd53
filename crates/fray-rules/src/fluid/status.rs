//! The `fluid` status board: W and S, the tactics split, conditions, item qualities, ammunition.

use super::front::FluidScenario;
use super::setup::Setup;
use super::{Event, State};
use crate::board::{Adjustable, Adjustment, Change};
use crate::board::{CombatantStatus, StatusField, ammo, condition_word, flags};
use fray_engine::CombatantId;

impl FluidScenario {
    /// Every combatant's status at `state`.
    pub fn board(&self, state: &State) -> Vec<CombatantStatus> {
        let setup = &self.0;
        state
            .fighters
            .iter()
            .zip(&setup.combatants)
            .map(|(f, sheet)| {
                let standing = !f.out(&setup.options);
                let conditions = flags(&[
                    (f.absent, "not yet in the fight"),
                    (f.removed && !f.absent, "taken out by the GM"),
                    (f.dead && !f.removed, "Dead"),
                    (f.dying, "Dying"),
                    (f.unconscious, "Unconscious"),
                    (f.stunned, "Stunned (this round)"),
                    (f.stabilized, "stabilized"),
                    (f.hidden, "hidden"),
                    (f.full_defense, "Full Defense"),
                ]);
                let ammo = ammo(sheet.items.iter().map(|item| item.id.as_str()).zip(f.ammo.iter().copied()));
                let left = i64::from(f.w.min(sheet.w)) + i64::from(f.s.min(sheet.s_max));
                CombatantStatus {
                    name: sheet.id.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(format!("({:.1}, {:.1}) m", f.pos.x, f.pos.y)),
                    standing,
                    hidden: f.hidden,
                    condition: condition_word(standing, left, i64::from(sheet.w) + i64::from(sheet.s_max)),
                    fields: vec![
                        StatusField::of("w", "W", f.w.into(), sheet.w.into()),
                        StatusField::of("s", "S", f.s.into(), sheet.s_max.into()),
                        StatusField::text("tactics", "tactics", format!("oT {} dT {}", f.ot, f.dt)),
                        StatusField::list("conditions", "conditions", conditions),
                        StatusField::int("av", "armour AV", f.av.into()),
                        StatusField::int("changes", "changed declarations", f.changes.into()),
                        StatusField::list("ammo", "ammunition", ammo),
                    ],
                }
            })
            .collect()
    }
}

/// The tracks a game master may set by hand.
pub const ADJUSTABLE: &[Adjustable] = &[
    Adjustable::new("w", "W", "a whole number up to PC; at 0 or below Dying, at −BOD or below Dead"),
    Adjustable::new("s", "S", "a whole number up to the S maximum; at 0 or below Unconscious"),
    Adjustable::new("av", "armour AV", "0 to 99"),
    Adjustable::new("stunned", "Stunned (this round)", "1 (stunned) or 0"),
    Adjustable::new("stabilized", "stabilized", "1 (stabilized) or 0"),
    Adjustable::per_item("ammo", "ammunition", "0 to 9999, for an item that counts its ammunition"),
];

/// The events of a game master's adjustment at `state`: the `Adjusted` event and the conditions
/// the new tracks imply, as damage would give them (FLUID-TRACK-5, -7, -9); or why it is refused.
pub(super) fn adjust_events(setup: &Setup, state: &State, adjustment: &Adjustment) -> Result<Vec<Event>, String> {
    let names = setup.combatants.iter().map(|c| c.id.as_str());
    let (who, change) = crate::board::change(
        ADJUSTABLE,
        names,
        adjustment,
        |w| state.fighter(w).absent,
        |w| state.fighter(w).dead,
        |who, track, item| {
            let (sheet, fighter) = (&setup.combatants[who.index()], state.fighter(who));
            Ok(match track.key {
                "w" => (0, -999, sheet.pc.into()),
                "s" => (0, -999, sheet.s_max.into()),
                "av" => (0, 0, 99),
                "ammo" => {
                    let items = sheet.items.iter().map(|i| i.id.as_str());
                    (crate::board::counted_item(&sheet.id, item, items, |i| fighter.ammo[i].is_some())?, 0, 9999)
                }
                _ => (0, 0, 1),
            })
        },
    )?;
    let mut events = vec![Event::Adjusted { who, change }];
    if let Change::Set { track: "w" | "s", .. } = change {
        let mut after = state.fighter(who).clone();
        set(&mut after, &change);
        let implied = super::run::implied_conditions(setup, &setup.combatants[who.index()], &after);
        events.extend(implied.into_iter().flatten().map(|(condition, gained)| Event::Condition {
            who,
            condition,
            gained,
        }));
    }
    Ok(events)
}

/// Sets a fighter's track as `change` says.
fn set(fighter: &mut super::Fighter, change: &Change) {
    match *change {
        Change::Set { track: "w", value, .. } => fighter.w = value,
        Change::Set { track: "s", value, .. } => fighter.s = value,
        Change::Set { track: "av", value, .. } => fighter.av = value,
        Change::Set { track: "stunned", value, .. } => fighter.stunned = value != 0,
        Change::Set { track: "stabilized", value, .. } => fighter.stabilized = value != 0,
        Change::Set { track: "ammo", item, value } => fighter.ammo[usize::from(item)] = Some(value),
        Change::Set { .. } | Change::Join => {}
        Change::Out => {
            fighter.removed = true;
            fighter.dead = true;
        }
    }
}

/// Applies an `Adjusted` event: a taken-out combatant counts as dead, and who stands may have
/// changed (FLUID-ROUND-4).
pub(super) fn adjust(setup: &Setup, state: &mut State, who: CombatantId, change: &Change) {
    match change {
        Change::Out => state.standing_changes += 1,
        // A combatant joining mid-fight starts as its stat block has it, and acts from the next
        // round's tactics on.
        Change::Join => {
            state.standing_changes += 1;
            state.fighters[who.index()] = super::Fighter::initial(setup, &setup.combatants[who.index()]);
            return;
        }
        Change::Set { .. } => {}
    }
    set(&mut state.fighters[who.index()], change);
}

/// A combatant added by the game master, absent until it joins: dead to the rules meanwhile, so
/// that no loop of theirs counts it.
pub(super) fn absent(fighter: &mut super::Fighter) {
    set(fighter, &Change::Out);
    fighter.absent = true;
}
