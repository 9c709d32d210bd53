//! The `opend6` status board: wound level (or Body Points), actions, points, ammunition.

use super::State;
use super::front::OpenD6Scenario;
use super::setup::Level;
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
pub const ADJUSTABLE: &[crate::board::Adjustable] = &[];
