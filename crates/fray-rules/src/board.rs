//! The status board: what a live fight shows of each combatant, as typed fields with labels, and
//! a fight played as far as its answers go ([`Played`]).

use fray_engine::{FightError, FightResult};
use serde::{Deserialize, Serialize};

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

/// A game master's adjustment of a live fight, as a command gives it: set one of a combatant's
/// tracks by hand, or take a combatant out of the fight. A ruleset turns it into an event of its
/// own (so that replay gives the same state) or refuses it with the reason. JSON:
/// `{"set": {"who": "Lou", "field": "hp", "value": 3}}`,
/// `{"set": {"who": "Lou", "field": "ammo", "item": "pistol", "value": 6}}`,
/// `{"out": {"who": "Lou"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjustment {
    /// Sets one of a combatant's tracks ([`Adjustable`]) to a value.
    Set {
        /// The combatant's name.
        who: String,
        /// The track's key: one of the ruleset's [`Adjustable`] keys (the status board's).
        field: String,
        /// For a track kept per item (ammunition), the item's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
        /// The new value: a number, or 1 and 0 for a condition that holds or not.
        value: i64,
    },
    /// Takes a combatant out of the fight (fled, captured, or down by the GM's word).
    Out {
        /// The combatant's name.
        who: String,
    },
    /// Brings a combatant the game master added mid-fight into it (it was in the roster from the
    /// start, absent until now). A live fight makes it from its own join command, so it is never
    /// read from JSON.
    #[serde(skip)]
    Join {
        /// The combatant's name.
        who: String,
    },
}

impl Adjustment {
    /// The name of the combatant it adjusts.
    pub fn who(&self) -> &str {
        match self {
            Adjustment::Set { who, .. } | Adjustment::Out { who } | Adjustment::Join { who } => who,
        }
    }
}

/// One track a ruleset lets a game master set by hand ([`Adjustment::Set`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Adjustable {
    /// Its key, the same as the status board's field.
    pub key: &'static str,
    /// What it is, for a person.
    pub label: &'static str,
    /// The values it takes, for a person: "a whole number", "0 to the sheet's maximum".
    pub values: &'static str,
    /// Whether it is kept per item and needs the item's name (ammunition).
    pub per_item: bool,
}

impl Adjustable {
    /// A track of a combatant.
    pub const fn new(key: &'static str, label: &'static str, values: &'static str) -> Adjustable {
        Adjustable { key, label, values, per_item: false }
    }

    /// A track kept per item.
    pub const fn per_item(key: &'static str, label: &'static str, values: &'static str) -> Adjustable {
        Adjustable { key, label, values, per_item: true }
    }
}

/// What a game master's adjustment changes, checked: the combatant it names (an id into
/// `names`, the roster) and the [`Change`]. Refused, with the reason, for a name not in the
/// roster, a combatant that has not joined the fight yet (`absent`, except to join it) or has
/// already joined it, a combatant already out of the fight (`out`, which only an undo brings back), a track
/// not among `tracks`, or a value outside the range `limits` gives for the track: the ruleset's
/// part, which names the item's index for a per-item track ([`counted_item`]) and the smallest and
/// largest value, or refuses.
pub fn change<'n>(
    tracks: &'static [Adjustable],
    names: impl Iterator<Item = &'n str> + Clone,
    adjustment: &Adjustment,
    absent: impl Fn(fray_engine::CombatantId) -> bool,
    out: impl Fn(fray_engine::CombatantId) -> bool,
    limits: impl FnOnce(fray_engine::CombatantId, &Adjustable, Option<&str>) -> Result<(u8, i64, i64), String>,
) -> Result<(fray_engine::CombatantId, Change), String> {
    let who = crate::find_combatant(names, adjustment.who())?;
    match (adjustment, absent(who)) {
        (Adjustment::Join { .. }, true) => return Ok((who, Change::Join)),
        (Adjustment::Join { who: name }, false) => return Err(format!("{name} is already in the fight")),
        (_, true) => return Err(format!("{} has not joined the fight yet", adjustment.who())),
        _ => {}
    }
    if out(who) {
        return Err(format!("{} is out of the fight: undo to bring it back", adjustment.who()));
    }
    let Adjustment::Set { field, item, value, .. } = adjustment else { return Ok((who, Change::Out)) };
    let Some(track) = tracks.iter().find(|t| t.key == field) else {
        return Err(unknown_track(field, tracks));
    };
    let (item, min, max) = limits(who, track, item.as_deref())?;
    if !(min..=max).contains(value) {
        return Err(format!("{field} takes a whole number from {min} to {max} ({}), found {value}", track.values));
    }
    Ok((who, Change::Set { track: track.key, item, value: *value as i32 }))
}

/// The index of the item named `item` among `items` for a per-item track of `who`'s, when it
/// `counts` (its ammunition, say); or the refusal.
pub fn counted_item<'a>(
    who: &str,
    item: Option<&str>,
    items: impl Iterator<Item = &'a str> + Clone,
    counts: impl Fn(usize) -> bool,
) -> Result<u8, String> {
    let all: Vec<&str> = items.clone().collect();
    let Some(item) = item else {
        return Err(format!("the track is kept per item: name the item (items: {})", all.join(", ")));
    };
    let i = items
        .clone()
        .position(|name| name == item)
        .ok_or_else(|| format!("no item `{item}` (items: {})", all.join(", ")))?;
    if counts(i) { Ok(i as u8) } else { Err(format!("{who}'s {item} does not count its ammunition")) }
}

/// The refusal of a track the ruleset does not let a game master set, listing those it does.
pub fn unknown_track(field: &str, tracks: &[Adjustable]) -> String {
    let keys: Vec<&str> = tracks.iter().map(|t| t.key).collect();
    match crate::did_you_mean(field, keys.iter().copied()) {
        Some(close) => format!("no track `{field}`; did you mean `{close}`? (tracks: {})", keys.join(", ")),
        None => format!("no track `{field}` to set (tracks: {})", keys.join(", ")),
    }
}

/// What a game master's adjustment changed, as a ruleset's `Adjusted` event carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A track ([`Adjustable::key`]) set to a value; `item` is the item's index for a track kept
    /// per item, else 0.
    Set {
        /// The track's key.
        track: &'static str,
        /// The item's index, for a per-item track.
        item: u8,
        /// The new value.
        value: i32,
    },
    /// The combatant is taken out of the fight.
    Out,
    /// The combatant, added by the game master mid-fight and absent until now, joins the fight
    /// as its stat block describes it.
    Join,
}

/// The log line of an adjustment of `name`'s tracks: `label` is the track's label and `item` the
/// item's name for a per-item track. The same in every ruleset.
pub fn adjusted_text(name: &str, change: &Change, label: &str, item: Option<&str>) -> String {
    match change {
        Change::Set { value, .. } => {
            let what = match item {
                Some(item) => format!("{label} ({item})"),
                None => label.to_owned(),
            };
            format!("The GM sets {name}'s {what} to {value}.")
        }
        Change::Out => format!("The GM takes {name} out of the fight."),
        Change::Join => format!("{name} joins the fight."),
    }
}

/// The text of a ruleset's `Adjusted` event: `tracks` are its [`Adjustable`]s, `item` names an
/// item of the combatant by its index (for a per-item track).
pub fn adjusted_event_text<'a>(
    name: &str,
    change: &Change,
    tracks: &[Adjustable],
    item: impl Fn(u8) -> &'a str,
) -> String {
    match change {
        Change::Set { track, item: i, .. } => {
            let track = tracks.iter().find(|t| t.key == *track);
            let label = track.map_or("track", |t| t.label);
            adjusted_text(name, change, label, track.filter(|t| t.per_item).map(|_| item(*i)))
        }
        Change::Out | Change::Join => adjusted_text(name, change, "", None),
    }
}
