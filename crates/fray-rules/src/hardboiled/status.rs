//! The `hardboiled` status board: HP, KnockedOut, the Second Wind, the weapon in hand.

use super::State;
use super::front::HardBoiledScenario;
use crate::board::{CombatantStatus, StatusField, condition_word};
use fray_engine::CombatantId;

impl HardBoiledScenario {
    /// Every combatant's status at `state`.
    pub fn board(&self, state: &State) -> Vec<CombatantStatus> {
        let setup = &self.0;
        let turn = state.turn.max(1);
        (0..setup.combatants.len())
            .map(|i| {
                let (sheet, f) = (&setup.combatants[i], state.fighter(CombatantId(i as u16)));
                let standing = !f.out(&setup.options, turn);
                let mut conditions = Vec::new();
                if f.down() {
                    conditions.push("down".to_owned());
                } else if f.knocked_out(turn) {
                    conditions.push(if f.ko_until == u32::MAX {
                        "KnockedOut for the fight".to_owned()
                    } else {
                        format!("KnockedOut through turn {}", f.ko_until)
                    });
                }
                if f.lame {
                    conditions.push("lame (move halved)".to_owned());
                }
                if f.lose_action_turn >= turn && f.lose_action_turn > 0 {
                    conditions.push(format!("loses its action in turn {}", f.lose_action_turn));
                }
                let weapon =
                    if f.dropped { format!("{} (dropped)", sheet.weapon.name) } else { sheet.weapon.name.clone() };
                CombatantStatus {
                    name: sheet.name.clone(),
                    side: setup.sides[sheet.side.index()].clone(),
                    position: Some(super::front::pos_text(f.pos)),
                    standing,
                    hidden: false,
                    condition: condition_word(standing, i64::from(f.hp), i64::from(f.hp_max)),
                    fields: vec![
                        StatusField::of("hp", "HP", f.hp.into(), f.hp_max.into()),
                        StatusField::int("damage_this_turn", "damage this turn", f.tally.into()),
                        StatusField::list("conditions", "conditions", conditions),
                        StatusField::text("weapon", "weapon", weapon).public(),
                        StatusField::text(
                            "second_wind",
                            "Second Wind",
                            if f.second_wind_used { "used" } else { "unused" },
                        ),
                        StatusField::text("cover", "cover", if f.in_cover { "in cover" } else { "in the open" })
                            .public(),
                    ],
                }
            })
            .collect()
    }
}

/// The tracks a game master may set by hand.
pub const ADJUSTABLE: &[crate::board::Adjustable] = &[];
