//! The `fluid` status board: W and S, the tactics split, conditions, item qualities, ammunition.

use super::State;
use super::front::FluidScenario;
use crate::board::{CombatantStatus, StatusField, ammo, condition_word, flags};

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
                    (f.dead, "Dead"),
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
