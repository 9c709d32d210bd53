//! Who sees what: a side's view of a live fight ([`Snapshot::view`]).
//!
//! - A combatant hidden from a side — by the rules (`fluid`'s hidden approach) or by the GM
//!   ([`crate::Command::Hide`]) — is not in that side's view at all: not on its status board, and
//!   no log line that names it. Once it is no longer hidden, the lines written while it was
//!   visible show again; those written while the GM hid it do not (`Snapshot::hidden_then`),
//!   so showing a combatant never tells what it did unseen. (`fluid`'s hidden approach ends with
//!   the attack that reveals it, whose lines the defender must see: once revealed, its lines
//!   show.)
//! - A side whose numbers the GM keeps secret ([`crate::Command::Secret`]) shows the other sides
//!   only what everyone at the table sees of its combatants (position, standing, weapon in hand)
//!   and a word for their state ("unhurt", "wounded", "badly hurt", "down"); log lines that give
//!   the numbers of its combatants' tracks are left out of the other sides' views.
//! - A decision is shown to its own side only; the others see whom the fight waits for. In its
//!   question and choices, a combatant hidden from the side is called "someone" (the choices
//!   keep their order, so an answer's index is the same).

use crate::{Ending, Pending, Snapshot};
use fray_rules::Line;
use fray_rules::board::CombatantStatus;
use serde::Serialize;

/// The JSON keys of a log line that give a combatant's tracks (the field names of the rulesets'
/// events, as their schemas list them): a line with one of them about a combatant of a secret
/// side is left out of the other sides' views.
const TRACK_KEYS: &[&str] = &[
    "hp", "hp_loss", "max", "tally", "recorded", "w", "s", "body", "trauma", "wounds", "bp", "level", "effort", "p",
    "ammo", "actions", "boosts", "value", "track", "gained", "n",
];

/// What one side may see of a live fight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The side.
    pub side: String,
    /// The log lines it may see.
    pub log: Vec<Line>,
    /// The combatants it may see, with the fields it may see.
    pub status: Vec<CombatantStatus>,
    /// Its own side's pending decision, if the fight waits for one. Choices that name a
    /// combatant hidden from the side are left out of it (and a hidden name in its question is
    /// "someone"): [`View::answers`] maps the choices shown back to the decision's own.
    pub pending: Option<Pending>,
    /// For each choice of [`View::pending`], the index of that choice in the decision itself (what
    /// [`crate::Command::Answer`] takes).
    pub answers: Vec<usize>,
    /// Whom the fight waits for, when it is not this side: a combatant's name, "dice", or
    /// "someone" (a combatant hidden from this side).
    pub waiting_for: Option<String>,
    /// How the fight ended, once it has.
    pub ending: Option<Ending>,
}

/// Whether any string in `value` names `name` (equal to it, or in a text containing it).
fn mentions(value: &serde_json::Value, name: &str) -> bool {
    match value {
        serde_json::Value::String(s) => s.contains(name),
        serde_json::Value::Array(items) => items.iter().any(|v| mentions(v, name)),
        serde_json::Value::Object(map) => map.values().any(|v| mentions(v, name)),
        _ => false,
    }
}

/// Whether `value` has a track key anywhere.
fn has_tracks(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Array(items) => items.iter().any(has_tracks),
        serde_json::Value::Object(map) => map.iter().any(|(k, v)| TRACK_KEYS.contains(&k.as_str()) || has_tracks(v)),
        _ => false,
    }
}

impl Snapshot {
    /// Whether `combatant` is hidden from `side` now.
    fn hidden_from(&self, combatant: &CombatantStatus, side: &str) -> bool {
        combatant.side != side && (combatant.hidden || self.hidden.contains(&combatant.name))
    }

    /// The combatants hidden from `side`, and those whose numbers it does not see.
    fn unseen(&self, side: &str) -> (Vec<&str>, Vec<&str>) {
        let hidden: Vec<&str> =
            self.status.iter().filter(|c| self.hidden_from(c, side)).map(|c| c.name.as_str()).collect();
        let secret: Vec<&str> = self
            .status
            .iter()
            .filter(|c| c.side != side && self.secret.contains(&c.side))
            .map(|c| c.name.as_str())
            .collect();
        (hidden, secret)
    }

    /// Exactly what `side` may see of the fight.
    pub fn view(&self, side: &str) -> View {
        let mut view = self.view_without_log(side);
        view.log = self.view_log(side).into_iter().cloned().collect();
        view
    }

    /// The log lines `side` may see ([`View::log`]), borrowed from the fight's log.
    pub fn view_log(&self, side: &str) -> Vec<&Line> {
        let (hidden, secret) = self.unseen(side);
        // Whom the GM hid from this side when each line was written (a combatant shown again
        // stays out of what it did while hidden).
        let mut then: &[String] = &[];
        let mut changes = self.hidden_then.iter().peekable();
        let mut shown = |i: usize, line: &Line| {
            while let Some((_, hid)) = changes.next_if(|(from, _)| *from <= i) {
                then = hid;
            }
            let names =
                |name: &&str| mentions(&line.json, name) || line.text.as_deref().is_some_and(|t| t.contains(*name));
            let secret_numbers = has_tracks(&line.json) && secret.iter().any(names);
            let hidden_then = then.iter().filter(|h| self.status.iter().any(|c| &c.name == *h && c.side != side));
            !hidden.iter().any(names) && !hidden_then.map(String::as_str).any(|h| names(&h)) && !secret_numbers
        };
        self.log.iter().enumerate().filter(|(i, l)| shown(*i, l)).map(|(_, l)| l).collect()
    }

    /// What `side` may see of the fight ([`Snapshot::view`]) but its log, left empty (for a
    /// page that renders [`Snapshot::view_log`] without copying it).
    pub fn view_without_log(&self, side: &str) -> View {
        let (hidden, secret) = self.unseen(side);
        let status = self
            .status
            .iter()
            .filter(|c| !hidden.contains(&c.name.as_str()))
            .map(|c| {
                let mut c = c.clone();
                if secret.contains(&c.name.as_str()) {
                    c.fields.retain(|f| !f.secret);
                }
                c
            })
            .collect();
        let mut answers = Vec::new();
        let (pending, waiting_for) = match &self.pending {
            Some(Pending::Decision { who, combatant, side: own, question, choices, data, odds, ai }) if own == side => {
                let mut shown = Vec::new();
                for (i, choice) in choices.iter().enumerate() {
                    if !hidden.iter().any(|h| choice.contains(h)) {
                        answers.push(i);
                        shown.push(choice.clone());
                    }
                }
                let data = answers.iter().map(|&i| data.get(i).cloned().unwrap_or_default()).collect();
                let odds = answers.iter().map(|&i| odds.get(i).cloned().flatten()).collect();
                let question = hidden.iter().fold(question.clone(), |q, h| q.replace(h, "someone"));
                let ai = answers.iter().position(|i| i == ai).unwrap_or(0);
                let decision = Pending::Decision {
                    who: who.clone(),
                    combatant: *combatant,
                    side: own.clone(),
                    question,
                    choices: shown,
                    data,
                    odds,
                    ai,
                };
                (Some(decision), None)
            }
            Some(Pending::Decision { who, .. }) if hidden.contains(&who.as_str()) => (None, Some("someone".to_owned())),
            Some(Pending::Decision { who, .. }) => (None, Some(who.clone())),
            Some(Pending::Roll { .. }) => (None, Some("dice".to_owned())),
            None => (None, None),
        };
        View {
            side: side.to_owned(),
            log: Vec::new(),
            status,
            pending,
            answers,
            waiting_for,
            ending: self.ending.clone(),
        }
    }
}
