//! The `phasesix` status board: wounds, actions in the pool, conditions, boosts, ammunition.

use super::front::PhaseSixScenario;
use super::setup::Setup;
use super::{Event, Fighter, State};
use crate::board::{Adjustable, Adjustment, Change};
use crate::board::{CombatantStatus, StatusField, ammo, condition_word, flags};

/// The conditions of [`super::Fighter::cond`], in order.
const CONDITIONS: [&str; 6] = ["Dying", "Unconscious", "Shocked", "Burning", "Bleeding", "Poisoned"];

impl PhaseSixScenario {
    /// Every combatant's status at `state`.
    pub fn board(&self, state: &State) -> Vec<CombatantStatus> {
        let setup = &self.0;
        state
            .fighters
            .iter()
            .zip(&setup.combatants)
            .map(|(f, sheet)| {
                let standing = !f.out(&setup.options);
                let mut conditions: Vec<String> = CONDITIONS
                    .iter()
                    .zip(f.cond)
                    .filter(|(_, n)| *n > 0)
                    .map(|(name, n)| format!("{name} ({n})"))
                    .collect();
                conditions.extend(flags(&[
                    (f.absent, "not yet in the fight"),
                    (f.removed && !f.absent, "taken out by the GM"),
                    (f.dead && !f.removed, "dead"),
                    (f.stabilised, "stabilised"),
                    (f.sleeping, "sleeping"),
                    (f.hunkered, "hunkered"),
                ]));
                let ammo = ammo(sheet.weapons.iter().map(|w| w.name.as_str()).zip(f.ammo.iter().copied()));
                let left = i64::from(sheet.max_wounds - f.wounds);
                CombatantStatus {
                    name: sheet.name.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(crate::pos_text(f.pos)),
                    standing,
                    hidden: false,
                    condition: condition_word(standing, left, sheet.max_wounds.into()),
                    fields: vec![
                        StatusField::of("wounds", "wounds", f.wounds.into(), sheet.max_wounds.into()),
                        StatusField::int("actions", "actions left", f.actions.into()),
                        StatusField::list("conditions", "conditions", conditions),
                        StatusField::int("boosts", "boosts", f.boosts.into()),
                        StatusField::int("bonus_dice", "bonus dice", f.bonus_dice.into()),
                        StatusField::int("destiny_dice", "destiny dice", f.destiny_dice.into()),
                        StatusField::list("ammo", "ammunition", ammo),
                        StatusField::text("armed", "weapon", if f.armed { "in hand" } else { "not in hand" }).public(),
                    ],
                }
            })
            .collect()
    }
}

/// The tracks a game master may set by hand.
pub const ADJUSTABLE: &[Adjustable] = &[
    Adjustable::new("wounds", "wounds", "0 to the wound maximum"),
    Adjustable::new("actions", "actions left", "0 to 99"),
    Adjustable::new("dying", "Dying", "its level, 0 (none) to 99"),
    Adjustable::new("unconscious", "Unconscious", "its level, 0 (none) to 99"),
    Adjustable::new("shocked", "Shocked", "its level, 0 (none) to 99"),
    Adjustable::new("burning", "Burning", "its level, 0 (none) to 99"),
    Adjustable::new("bleeding", "Bleeding", "its level, 0 (none) to 99"),
    Adjustable::new("poisoned", "Poisoned", "its level, 0 (none) to 99"),
    Adjustable::new("boosts", "boosts", "0 to 99"),
    Adjustable::new("bonus_dice", "bonus dice", "0 to 99"),
    Adjustable::new("destiny_dice", "destiny dice", "0 to 99"),
    Adjustable::per_item("ammo", "ammunition", "0 to 9999, for a weapon that counts its ammunition"),
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
                "wounds" => (0, 0, sheet.max_wounds.into()),
                "ammo" => {
                    let weapons = sheet.weapons.iter().map(|w| w.name.as_str());
                    (crate::board::counted_item(&sheet.name, item, weapons, |i| fighter.ammo[i].is_some())?, 0, 9999)
                }
                _ => (0, 0, 99),
            })
        },
    )?;
    Ok(vec![Event::Adjusted { who, change }])
}

/// Applies an adjustment to a fighter; a combatant taken out counts as dead (P6-TRACK-8).
pub(super) fn set(fighter: &mut Fighter, change: &Change) {
    match *change {
        Change::Set { track: "wounds", value, .. } => fighter.wounds = value,
        Change::Set { track: "actions", value, .. } => fighter.actions = value,
        Change::Set { track: "boosts", value, .. } => fighter.boosts = value,
        Change::Set { track: "bonus_dice", value, .. } => fighter.bonus_dice = value,
        Change::Set { track: "destiny_dice", value, .. } => fighter.destiny_dice = value,
        Change::Set { track: "ammo", item, value } => fighter.ammo[usize::from(item)] = Some(value),
        Change::Set { track, value, .. } => {
            let condition = ["dying", "unconscious", "shocked", "burning", "bleeding", "poisoned"];
            if let Some(i) = condition.iter().position(|c| *c == track) {
                fighter.cond[i] = value;
            }
        }
        Change::Join => {}
        Change::Out => {
            fighter.removed = true;
            fighter.dead = true;
        }
    }
}

/// A combatant added by the game master, absent until it joins: dead to the rules meanwhile, so
/// that no loop of theirs counts it.
pub(super) fn absent(fighter: &mut Fighter) {
    set(fighter, &Change::Out);
    fighter.absent = true;
}

/// Applies an `Adjusted` event. A combatant joining mid-fight starts as its stat block has it,
/// last in the initiative order, rolled once at the start (P6-INIT-1): its turn comes after
/// everyone else's, from the round it joins in.
pub(super) fn adjust(setup: &Setup, state: &mut State, who: fray_engine::CombatantId, change: &Change) {
    if *change == Change::Join {
        state.fighters[who.index()] = super::fresh(&setup.combatants[who.index()]);
        state.order.push(who);
    } else {
        set(&mut state.fighters[who.index()], change);
    }
}
