//! The `phasesix` status board: wounds, actions in the pool, conditions, boosts, ammunition.

use super::State;
use super::front::PhaseSixScenario;
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
                    (f.dead, "dead"),
                    (f.stabilised, "stabilised"),
                    (f.sleeping, "sleeping"),
                    (f.hunkered, "hunkered"),
                ]));
                let ammo = ammo(sheet.weapons.iter().map(|w| w.name.as_str()).zip(f.ammo.iter().copied()));
                let left = i64::from(sheet.max_wounds - f.wounds);
                CombatantStatus {
                    name: sheet.name.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(super::front::pos_text(f.pos)),
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
pub const ADJUSTABLE: &[crate::board::Adjustable] = &[];
