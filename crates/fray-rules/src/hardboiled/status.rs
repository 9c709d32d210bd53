//! The `hardboiled` status board: HP, KnockedOut, the Second Wind, the weapon in hand.

use super::front::HardBoiledScenario;
use super::setup::Setup;
use super::{Event, Fighter, State};
use crate::board::{Adjustable, Adjustment, Change};
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
                if f.absent {
                    conditions.push("not yet in the fight".to_owned());
                } else if f.removed {
                    conditions.push("taken out by the GM".to_owned());
                } else if f.down() {
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
                    position: Some(crate::pos_text(f.pos)),
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
pub const ADJUSTABLE: &[Adjustable] = &[
    Adjustable::new("hp", "HP", "a whole number up to the maximum; at 0 or below down"),
    Adjustable::new("knocked_out", "KnockedOut", "1 (for the rest of the fight) or 0"),
    Adjustable::new("second_wind", "Second Wind used", "1 (used) or 0"),
    Adjustable::new("lame", "lame (move halved)", "1 or 0"),
    Adjustable::new("dropped", "weapon dropped", "1 or 0"),
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
        |who, track, _| Ok(if track.key == "hp" { (0, -999, state.fighter(who).hp_max.into()) } else { (0, 0, 1) }),
    )?;
    if change == Change::Join && setup.combatants[who.index()].hp_max.is_none() {
        return Err(format!(
            "{} needs `hp_max` to join mid-fight: roll its HP at the table (Action die + Wits die) and write it in its stat block",
            setup.combatants[who.index()].name
        ));
    }
    Ok(vec![Event::Adjusted { who, change }])
}

/// A combatant added by the game master, absent until it joins: out of the fight meanwhile, so
/// that no loop of the rules counts it.
pub(super) fn absent(fighter: &mut Fighter) {
    set(fighter, &Change::Out);
    fighter.absent = true;
}

/// Applies an `Adjusted` event; a combatant joining mid-fight starts as its stat block has it.
pub(super) fn adjust(setup: &Setup, state: &mut State, who: CombatantId, change: &Change) {
    if *change == Change::Join {
        state.fighters[who.index()] = super::fresh(setup, who.index());
    } else {
        set(&mut state.fighters[who.index()], change);
    }
}

/// Applies an adjustment to a fighter; a combatant taken out is down (USR-TRACK-3).
pub(super) fn set(fighter: &mut Fighter, change: &Change) {
    match *change {
        Change::Set { track: "hp", value, .. } => fighter.hp = value,
        Change::Set { track: "knocked_out", value, .. } => fighter.ko_until = if value != 0 { u32::MAX } else { 0 },
        Change::Set { track: "second_wind", value, .. } => fighter.second_wind_used = value != 0,
        Change::Set { track: "lame", value, .. } => fighter.lame = value != 0,
        Change::Set { track: "dropped", value, .. } => fighter.dropped = value != 0,
        Change::Set { .. } | Change::Join => {}
        Change::Out => {
            fighter.removed = true;
            fighter.hp = fighter.hp.min(0);
        }
    }
}
