//! The `ticks` status board: Body, Trauma, wounds, effort, the stability penalty, the gun.

use super::State;
use super::front::TicksScenario;
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
                if f.down {
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
pub const ADJUSTABLE: &[crate::board::Adjustable] = &[];
