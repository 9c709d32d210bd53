//! The status board: what a live fight shows of each combatant, as typed fields with labels, and
//! a fight played as far as its answers go ([`Played`]).

use fray_engine::{FightError, FightResult};
use serde::Serialize;

/// One thing a ruleset tracks of a combatant, as a status board shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatusField {
    /// A stable key for scripts, e.g. `"hp"`.
    pub key: &'static str,
    /// The label a person reads, e.g. `"HP"`.
    pub label: &'static str,
    /// The value, typed: a number, a flag, a text, or `{"now": n, "max": m}`.
    pub value: serde_json::Value,
    /// The value as a person reads it, e.g. `"7 of 12"`.
    pub text: String,
    /// Whether the field is one of the combatant's numbers that a scenario may hide from the
    /// other sides (hit points, wounds, ammunition…), rather than what everyone at the table
    /// sees (position, standing).
    pub secret: bool,
}

impl StatusField {
    /// A number.
    pub fn int(key: &'static str, label: &'static str, value: i64) -> StatusField {
        StatusField { key, label, value: value.into(), text: value.to_string(), secret: true }
    }

    /// A number out of a maximum: `"7 of 12"`.
    pub fn of(key: &'static str, label: &'static str, now: i64, max: i64) -> StatusField {
        let value = serde_json::json!({ "now": now, "max": max });
        StatusField { key, label, value, text: format!("{now} of {max}"), secret: true }
    }

    /// A text, e.g. a wound level.
    pub fn text(key: &'static str, label: &'static str, text: impl Into<String>) -> StatusField {
        let text = text.into();
        StatusField { key, label, value: text.clone().into(), text, secret: true }
    }

    /// A list of conditions, `"none"` when empty.
    pub fn list(key: &'static str, label: &'static str, items: Vec<String>) -> StatusField {
        let text = if items.is_empty() { "none".to_owned() } else { items.join(", ") };
        StatusField { key, label, value: items.into(), text, secret: true }
    }

    /// The same field, shown to everyone (not a secret number).
    pub fn public(self) -> StatusField {
        StatusField { secret: false, ..self }
    }
}

/// One combatant on the status board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatantStatus {
    /// Its name (the roster's).
    pub name: String,
    /// Its side's name.
    pub side: String,
    /// Where it stands, as a person reads it; `None` where the scenario has no positions.
    pub position: Option<String>,
    /// Whether it is still in the fight.
    pub standing: bool,
    /// Whether the rules hide it from the other sides now (e.g. `fluid`'s hidden approach).
    pub hidden: bool,
    /// A word for its state when its numbers are hidden: "unhurt", "wounded", "badly hurt",
    /// "down".
    pub condition: &'static str,
    /// Everything its ruleset tracks of it, in the order a person reads them.
    pub fields: Vec<StatusField>,
}

/// The names of the conditions that hold, in order: `flags(&[(dead, "dead"), (stunned, "stunned")])`.
pub fn flags(conditions: &[(bool, &str)]) -> Vec<String> {
    conditions.iter().filter(|(on, _)| *on).map(|(_, name)| (*name).to_owned()).collect()
}

/// What a combatant has left of each item that counts its ammunition: "pistol 5", in the items'
/// order, `None` for an item that does not count.
pub fn ammo<'a>(items: impl Iterator<Item = (&'a str, Option<i32>)>) -> Vec<String> {
    items.filter_map(|(name, left)| left.map(|left| format!("{name} {left}"))).collect()
}

/// The word for a combatant's state when its numbers are hidden: from the share of its capacity
/// left (`left` of `max`) and whether it still stands.
pub fn condition_word(standing: bool, left: i64, max: i64) -> &'static str {
    if !standing {
        "down"
    } else if left >= max {
        "unhurt"
    } else if left * 2 > max {
        "wounded"
    } else {
        "badly hurt"
    }
}

/// A fight played as far as its answers and dice went: how it stopped (an end, or an error such
/// as [`FightError::Pending`] when a person's answer is awaited) and the status board there.
#[derive(Clone, Debug)]
pub struct Played {
    /// The end of the fight, or why it stopped before it.
    pub result: Result<FightResult, FightError>,
    /// The status board where it stopped.
    pub status: Vec<CombatantStatus>,
}
