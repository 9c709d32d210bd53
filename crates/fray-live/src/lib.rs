//! One live fight of any fray ruleset, through one interface: what is asked now (a decision with
//! its legal choices and the AI's suggestion, or physical dice to enter), answers, entered faces,
//! undo and redo, who a person plays, the status board, the log and the journal.
//!
//! **A live fight is its journal.** A [`Session`] holds the scenario's text, its `--set`s, the
//! seed, the dice mode, who a person plays, and every command in order ([`Journal`]). Its state
//! is the replay of the commands through [`fray_rules::Scenario::play`]: the fight runs from the
//! start, each person's decision and each entered roll taking the next command, until it ends or
//! waits for a command not yet given. Undo is a replay without the last command; a saved journal
//! restores the same state, log and status board. Fights are short, so a replay is cheap.
//!
//! ```
//! use fray_live::{Command, DiceMode, Session};
//! let text = std::fs::read_to_string("../../examples/hardboiled/bar-room-brawl.toml").unwrap();
//! let mut fight = Session::open("bar-room-brawl.toml", &text, vec![], 7, DiceMode::Fray, vec!["Joe Bruno".into()]).unwrap();
//! // Joe's first decision: take the AI's suggestion.
//! let ai = fight.snapshot().pending.as_ref().and_then(|p| p.ai()).unwrap();
//! fight.command(Command::Answer(ai)).unwrap();
//! fight.command(Command::Undo(1)).unwrap();
//! assert_eq!(fight.snapshot().can_redo, 1);
//! ```

mod replay;
mod view;

use fray_rules::Line;
use fray_rules::board::CombatantStatus;
use serde::{Deserialize, Serialize};

pub use replay::MAX_COMMANDS;
pub use view::View;

/// Where a live fight's dice come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// fray rolls them, from the seed.
    Fray,
    /// A person rolls physical dice and enters the faces ([`Command::Dice`]).
    Entered,
}

/// One command of a live fight, as the journal keeps it: `{"answer": 2}`, `{"dice": [3, 4]}`,
/// `{"undo": 1}`, `{"redo": 1}`, `{"control": {"who": "Lou", "person": false}}`,
/// `{"adjust": {"set": {"who": "Lou", "field": "hp", "value": 3}}}`,
/// `{"join": {"stats": "name = \"Lou\"\n…"}}`, `{"end": {"winner": "heroes"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Answers the pending decision with the choice at this index (from 0).
    Answer(usize),
    /// Enters the faces of the awaited roll, the whole roll at once.
    Dice(Vec<u32>),
    /// Takes back this many commands (answers, dice, control changes, ends).
    Undo(u32),
    /// Puts back this many undone commands.
    Redo(u32),
    /// From now on a person (`person: true`) or the AI decides for this combatant.
    Control {
        /// The combatant's name.
        who: String,
        /// Whether a person decides for it.
        person: bool,
    },
    /// The GM hides a combatant from the other sides' views (`hidden: true`), or shows it again.
    Hide {
        /// The combatant's name.
        who: String,
        /// Whether it is hidden.
        hidden: bool,
    },
    /// The GM keeps a side's numbers (hit points, wounds, ammunition…) from the other sides'
    /// views, which then see a word for each combatant's state instead ("wounded", "badly
    /// hurt"), or shows them again.
    Secret {
        /// The side's name.
        side: String,
        /// Whether its numbers are kept from the others.
        secret: bool,
    },
    /// The GM adjusts the fight where it waits for a decision: sets a combatant's track by hand
    /// (hit points, wounds, a condition, ammunition — the ruleset's
    /// [`fray_rules::RulesetInfo::adjustable`]) or takes a combatant out:
    /// `{"adjust": {"set": {"who": "Lou", "field": "hp", "value": 3}}}`,
    /// `{"adjust": {"out": {"who": "Lou"}}}`. It becomes an event of the fight's log.
    Adjust(fray_rules::board::Adjustment),
    /// The GM adds a combatant where the fight waits for a decision, from its stat block: the
    /// keys of one `[[combatants]]` entry of the scenario's ruleset, as `key = value` lines
    /// (nested values as inline tables), its `side` one of the fight's sides:
    /// `{"join": {"stats": "name = \"Lou\"\nside = \"crooks\"\n…"}}`. It joins the fight there (an
    /// event of the log) and acts from its next turn; an AI plays it until a [`Command::Control`]
    /// gives it to a person. Undo takes it out of the fight again, as if it had never come.
    Join {
        /// The stat block.
        stats: String,
    },
    /// The GM ends the fight here, naming the winning side or none.
    End {
        /// The winning side's name, if any.
        winner: Option<String>,
    },
}

/// Everything that determines a live fight: replaying it gives the same state, log and status
/// board on any machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Journal {
    /// The version of fray that wrote it.
    pub fray: String,
    /// The scenario file's name, as given.
    pub file: String,
    /// The scenario file's text.
    pub scenario: String,
    /// The `--set NAME=VALUE` overrides, in order.
    pub set: Vec<(String, String)>,
    /// The seed of fray's dice ([`DiceMode::Fray`]).
    pub seed: u64,
    /// The generator behind the seed.
    pub generator: String,
    /// Where the dice come from.
    pub dice: DiceMode,
    /// The combatants a person decides for at the start.
    pub people: Vec<String>,
    /// Every command, in the order given, undos and redos included.
    pub commands: Vec<Command>,
}

/// What a live fight waits for.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// A person's decision.
    Decision {
        /// Who decides.
        who: String,
        /// Its index in the roster.
        combatant: usize,
        /// Its side.
        side: String,
        /// What is asked.
        question: String,
        /// The legal choices, labelled; [`Command::Answer`] takes an index into them.
        choices: Vec<String>,
        /// Each choice as structured data (its kind, target — a combatant's index in the
        /// roster —, weapon and modifiers as fields), for grouping ([`fray_rules::Prompt::data`]).
        data: Vec<serde_json::Value>,
        /// Beside each attack, its exact odds of hitting and of taking the target out.
        odds: Vec<Option<fray_rules::ChoiceOdds>>,
        /// The index of the choice the combatant's AI would make.
        ai: usize,
    },
    /// Physical dice to roll and enter.
    Roll {
        /// Who rolls, if anyone in particular.
        who: Option<String>,
        /// What for.
        what: String,
        /// How many dice to enter now: the rest of the roll when it says how many it takes, else
        /// one.
        dice: u32,
        /// How many dice the whole roll takes, when it says (0 when it does not).
        of: u8,
        /// Which die of the roll this is, from 1, when the roll numbers its dice itself (a pool
        /// of exploding dice); 0 when it does not.
        die: u8,
        /// Faces per die: each face is from 1 to this.
        sides: u32,
        /// For an exploding die, which re-roll this is (0: the die itself).
        explosion: u8,
    },
}

impl Pending {
    /// The AI's suggestion for a decision.
    pub fn ai(&self) -> Option<usize> {
        match self {
            Pending::Decision { ai, .. } => Some(*ai),
            Pending::Roll { .. } => None,
        }
    }
}

/// How a live fight ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ending {
    /// The winning side, if any.
    pub winner: Option<String>,
    /// The ending in words: "heroes win", "stalemate at the cap", "ended by the GM".
    pub text: String,
    /// The fight's length in the ruleset's unit, when the rules ended it.
    pub length: Option<u32>,
    /// The unit of `length`: "rounds", "turns", "ticks".
    pub unit: &'static str,
    /// Whether the GM ended it ([`Command::End`]).
    pub by_gm: bool,
}

/// A live fight as it stands after its commands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    /// Every event so far, as text and as JSON.
    pub log: Vec<Line>,
    /// What the fight waits for; `None` once it has ended.
    pub pending: Option<Pending>,
    /// Every combatant's status.
    pub status: Vec<CombatantStatus>,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
    /// Who a person decides for now.
    pub people: Vec<String>,
    /// The combatants hidden from the other sides: the scenario's `[visibility]`, then the
    /// GM's [`Command::Hide`]s.
    pub hidden: Vec<String>,
    /// The sides whose numbers the other sides do not see: the scenario's `[visibility]`, then
    /// the GM's [`Command::Secret`]s.
    pub secret: Vec<String>,
    /// How many commands can be undone.
    pub can_undo: usize,
    /// How many undone commands can be redone.
    pub can_redo: usize,
    /// Whether the pending decision's exact odds are worked out ([`Pending::Decision`]'s
    /// `odds`, and its labels that give them); `false` only while a session that defers them
    /// ([`Session::defer_odds`]) has not yet got them ([`Session::work_out_odds`],
    /// [`Session::put_odds`]).
    pub odds_worked_out: bool,
    /// Whom the GM hid as the log was written: from each line index on, the combatants hidden
    /// ([`Command::Hide`]), at every change. A side's view leaves a combatant out of the lines
    /// written while it was hidden, even once it is shown again.
    #[serde(skip)]
    pub(crate) hidden_then: Vec<(usize, Vec<String>)>,
}

/// Why a live fight could not be opened, or a command was refused (the fight is then as it was).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// The scenario did not load.
    #[error("{0}")]
    Scenario(#[from] fray_rules::scenario::ScenarioError),
    /// A command that does not fit what the fight waits for.
    #[error("{0}")]
    Refused(String),
    /// A journal that does not replay.
    #[error("journal: {0}")]
    Journal(String),
}

/// One live fight.
pub struct Session {
    scenario: Box<dyn fray_rules::Scenario>,
    /// What the scenario's `[visibility]` keeps from the players at the start.
    visibility: fray_rules::scenario::Visibility,
    journal: Journal,
    snapshot: std::sync::Arc<Snapshot>,
    /// Commands replay without the pending decision's odds ([`Session::defer_odds`]).
    defer_odds: bool,
    /// The work that gives the pending decision's odds, while they are deferred.
    odds_job: Option<fray_rules::OddsJob>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("journal", &self.journal).finish_non_exhaustive()
    }
}

impl Session {
    /// Opens a fight of the scenario `text` (read from `file`) with these `--set`s, seed and
    /// dice; a person decides for the combatants named in `people`, the AI for the others.
    pub fn open(
        file: &str,
        text: &str,
        set: Vec<(String, String)>,
        seed: u64,
        dice: DiceMode,
        people: Vec<String>,
    ) -> Result<Session, LiveError> {
        let journal = Journal {
            fray: env!("CARGO_PKG_VERSION").to_owned(),
            file: file.to_owned(),
            scenario: text.to_owned(),
            set,
            seed,
            generator: fray_dice::GENERATOR.to_owned(),
            dice,
            people,
            commands: Vec::new(),
        };
        Session::restore(journal)
    }

    /// The fight a journal records, replayed to where it stopped. A journal of another fray
    /// version is replayed all the same (its rules may differ); a command that no longer fits
    /// is an error naming it.
    pub fn restore(journal: Journal) -> Result<Session, LiveError> {
        let (scenario, visibility) = fray_rules::load_with_visibility(&journal.file, &journal.scenario, &journal.set)?;
        let names = scenario.combatants();
        if let Some(unknown) = journal.people.iter().find(|p| !names.contains(p)) {
            return Err(LiveError::Journal(format!(
                "no combatant `{unknown}` to be played by a person (combatants: {})",
                names.join(", ")
            )));
        }
        if journal.commands.len() > MAX_COMMANDS {
            return Err(LiveError::Journal(format!("more than {MAX_COMMANDS} commands")));
        }
        let (snapshot, _) =
            replay::replay(&*scenario, &visibility, &journal, journal.commands.len(), replay::Odds::Now).map_err(
                |(at, why)| {
                    LiveError::Journal(format!("command {} ({}): {why}", at + 1, describe(&journal.commands[at])))
                },
            )?;
        Ok(Session {
            scenario,
            visibility,
            journal,
            snapshot: std::sync::Arc::new(snapshot),
            defer_odds: false,
            odds_job: None,
        })
    }

    /// Reads a journal written by [`Session::journal_json`].
    pub fn from_json(text: &str) -> Result<Session, LiveError> {
        let journal: Journal = serde_json::from_str(text).map_err(|e| LiveError::Journal(e.to_string()))?;
        Session::restore(journal)
    }

    /// Gives the fight a command. A command that does not fit (an answer while dice are awaited,
    /// a face beyond the die, nothing to undo…) is refused with the reason, and the fight stays
    /// as it was.
    pub fn command(&mut self, command: Command) -> Result<&Snapshot, LiveError> {
        if self.journal.commands.len() >= MAX_COMMANDS {
            return Err(LiveError::Refused(format!("a fight takes at most {MAX_COMMANDS} commands")));
        }
        self.journal.commands.push(command);
        let odds = if self.defer_odds { replay::Odds::Later } else { replay::Odds::Now };
        match replay::replay(&*self.scenario, &self.visibility, &self.journal, self.journal.commands.len(), odds) {
            Ok((snapshot, job)) => {
                self.snapshot = std::sync::Arc::new(snapshot);
                self.odds_job = job;
                Ok(&self.snapshot)
            }
            Err((_, why)) => {
                self.journal.commands.pop();
                Err(LiveError::Refused(why))
            }
        }
    }

    /// From now on, whether a command leaves the exact odds of the next decision's choices (and
    /// the labels that give them) for later (`true`), so that it is answered at once: a tracker
    /// shows the new state first and the odds when they are ready, worked out here
    /// ([`Session::work_out_odds`]) or on another thread ([`Session::odds_work`],
    /// [`Session::put_odds`]). Default: `false`.
    pub fn defer_odds(&mut self, defer: bool) {
        self.defer_odds = defer;
    }

    /// Works out the exact odds of the pending decision's choices, if a command deferred them
    /// ([`Snapshot::odds_worked_out`]); whether it did. The fight is otherwise unchanged.
    pub fn work_out_odds(&mut self) -> bool {
        match self.odds_work() {
            Some(work) => self.put_odds(work.run()),
            None => false,
        }
    }

    /// The work that gives the exact odds of the pending decision, when a command deferred them
    /// and no one took it yet: it owns all it needs (no replay, no borrow of the session), so
    /// it runs anywhere, e.g. on another thread while the session takes the next command.
    /// Hand what it gives to [`Session::put_odds`].
    pub fn odds_work(&mut self) -> Option<OddsWork> {
        let job = self.odds_job.take()?;
        Some(OddsWork { version: self.version(), job })
    }

    /// Puts worked-out odds ([`OddsWork::run`]) into the pending decision, if the fight is still
    /// at the version they were worked out for and still lacks them; whether it took them (odds
    /// that came too late, after another command, are dropped).
    pub fn put_odds(&mut self, odds: WorkedOdds) -> bool {
        if odds.version != self.version() || self.snapshot.odds_worked_out {
            return false;
        }
        if !matches!(&self.snapshot.pending, Some(Pending::Decision { choices, .. }) if choices.len() == odds.odds.options.len())
        {
            return false;
        }
        let snapshot = std::sync::Arc::make_mut(&mut self.snapshot);
        if let Some(Pending::Decision { choices, odds: beside, .. }) = &mut snapshot.pending {
            *choices = odds.odds.options;
            *beside = odds.odds.odds;
        }
        snapshot.odds_worked_out = true;
        self.odds_job = None;
        true
    }

    /// The fight as it stands.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The fight as it stands, shared: to read it after letting go of the session (a later
    /// command or odds make a new one).
    pub fn shared_snapshot(&self) -> std::sync::Arc<Snapshot> {
        self.snapshot.clone()
    }

    /// The journal: everything needed to restore the fight.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// The journal as pretty JSON.
    pub fn journal_json(&self) -> String {
        serde_json::to_string_pretty(&self.journal).unwrap_or_default()
    }

    /// The version of the fight: how many commands it has had. Two commands sent on the same
    /// version conflict.
    pub fn version(&self) -> usize {
        self.journal.commands.len()
    }

    /// A stat block for [`Command::Join`], copied from the scenario file's combatant `name` (its
    /// `name` or `id`) and renamed `new_name`: its keys as `key = value` lines, nested values as
    /// inline tables — a start for a GM who adds another of the same. `None` when the file has
    /// no such combatant.
    pub fn stat_block(&self, name: &str, new_name: &str) -> Option<String> {
        let table: toml::Table = toml::from_str(&self.journal.scenario).ok()?;
        let entry = table
            .get("combatants")?
            .as_array()?
            .iter()
            .filter_map(toml::Value::as_table)
            .find(|c| ["name", "id"].iter().any(|k| c.get(*k).and_then(toml::Value::as_str) == Some(name)))?;
        // Its name and side first, a person's way of writing one.
        let first = |k: &str| ["name", "id", "side"].iter().position(|f| *f == k).unwrap_or(3);
        let mut keys: Vec<&String> = entry.keys().collect();
        keys.sort_by_key(|k| first(k));
        let mut block = String::new();
        for key in keys {
            let value = match key.as_str() {
                "name" | "id" => toml::Value::String(new_name.to_owned()),
                _ => entry[key].clone(),
            };
            block += &format!("{key} = {value}\n");
        }
        Some(block)
    }

    /// The loaded scenario, as its file has it: without the combatants the GM added mid-fight
    /// ([`Command::Join`]), which the status board lists after the others.
    pub fn scenario(&self) -> &dyn fray_rules::Scenario {
        &*self.scenario
    }
}

/// The work that gives the exact odds of a live fight's pending decision, taken from the session
/// ([`Session::odds_work`]).
pub struct OddsWork {
    version: usize,
    job: fray_rules::OddsJob,
}

impl std::fmt::Debug for OddsWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OddsWork").field("version", &self.version).finish_non_exhaustive()
    }
}

impl OddsWork {
    /// The version of the fight whose decision this is.
    pub fn version(&self) -> usize {
        self.version
    }

    /// Works the odds out (the costly part: run it off the fight's lock).
    pub fn run(self) -> WorkedOdds {
        WorkedOdds { version: self.version, odds: (self.job)() }
    }
}

/// The exact odds of a decision, worked out ([`OddsWork::run`]), for [`Session::put_odds`].
#[derive(Clone, Debug, PartialEq)]
pub struct WorkedOdds {
    /// The version of the fight they are for.
    pub version: usize,
    /// The decision's labels and odds.
    pub odds: fray_rules::PromptOdds,
}

/// A command in a few words, for an error.
fn describe(command: &Command) -> String {
    serde_json::to_string(command).unwrap_or_default()
}
