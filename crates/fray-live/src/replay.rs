//! The replay of a journal: the fight run from its start, each person's decision and each entered
//! roll taking the next command, to where it ends or waits.

use crate::{Command, DiceMode, Ending, Journal, Pending, Snapshot};
use fray_engine::{CombatantId, Dice, FightError, Outcome, Reason};
use fray_rules::scenario::Visibility;
use fray_rules::{Line, OddsJob, Prompt, Scenario, Seats};
use std::cell::RefCell;

/// The most commands a fight takes: far beyond any fight at a table, so that a runaway script
/// is refused instead of replayed without end.
pub const MAX_COMMANDS: usize = 100_000;

/// The most faces one [`Command::Dice`] enters.
const MAX_FACES: usize = 1_000;

/// A command that did not fit: its index in the journal and why.
type Misfit = (usize, String);

/// A command in effect, with its index in the journal.
type Step<'a> = (usize, &'a Command);

/// The commands in effect after the undos and redos among the first ones: each with its index in
/// the journal; and how many undone commands can be redone.
fn fold(commands: &[Command]) -> Result<(Vec<Step<'_>>, usize), Misfit> {
    let mut active: Vec<Step<'_>> = Vec::new();
    let mut undone: Vec<Step<'_>> = Vec::new();
    for (i, command) in commands.iter().enumerate() {
        match command {
            Command::Undo(n) => {
                let n = *n as usize;
                if n == 0 || n > active.len() {
                    return Err((i, format!("cannot undo {n}: {} command(s) can be undone", active.len())));
                }
                for _ in 0..n {
                    undone.extend(active.pop());
                }
            }
            Command::Redo(n) => {
                let n = *n as usize;
                if n == 0 || n > undone.len() {
                    return Err((i, format!("cannot redo {n}: {} command(s) can be redone", undone.len())));
                }
                for _ in 0..n {
                    active.extend(undone.pop());
                }
            }
            _ => {
                undone.clear();
                active.push((i, command));
            }
        }
    }
    Ok((active, undone.len()))
}

/// Where a replay is among its commands.
struct Cursor<'a> {
    steps: Vec<Step<'a>>,
    next: usize,
    names: Vec<String>,
    sides: Vec<String>,
    side_of: Vec<usize>,
    people: Vec<bool>,
    hidden: Vec<String>,
    secret: Vec<String>,
    /// The GM ended the fight, naming this winner.
    ended: Option<Option<String>>,
    pending: Option<Pending>,
    misfit: Option<Misfit>,
    /// The dice command being entered: its step and how many of its faces are taken, and the
    /// roll they are for.
    entering: Option<(usize, usize, Option<CombatantId>, &'static str)>,
    /// The roll under way: its reason, sides and the faces taken for it.
    roll: Option<(Reason, u32, u32)>,
    /// An event came since the last die.
    event_since: bool,
    /// The journal index of the adjustment last taken.
    adjusting: Option<usize>,
    /// The combatants the GM adds mid-fight: the journal index of each one's join, and its name.
    joining: Vec<(usize, String)>,
    /// Whether the prompt the fight stops at gets the exact odds of its choices.
    odds: bool,
    /// Whether the prompt the fight stops at leaves its odds to a job ([`Seats::defers_odds`]).
    defer: bool,
    /// The odds job of the prompt being built, until it is asked.
    offered: Option<OddsJob>,
    /// The odds job of the decision the fight stops at.
    job: Option<OddsJob>,
}

impl Cursor<'_> {
    fn misfit(&mut self, at: usize, why: String) {
        self.misfit.get_or_insert((at, why));
    }

    /// Takes the control changes and the end at the head of the commands.
    fn absorb(&mut self) {
        while let Some(&(_, command)) = self.steps.get(self.next) {
            match command {
                Command::Control { who, person } => {
                    if let Some(i) = self.names.iter().position(|n| n == who) {
                        self.people[i] = *person;
                    }
                    self.next += 1;
                }
                Command::Hide { who, hidden } => {
                    self.hidden.retain(|h| h != who);
                    if *hidden {
                        self.hidden.push(who.clone());
                    }
                    self.next += 1;
                }
                Command::Secret { side, secret } => {
                    self.secret.retain(|s| s != side);
                    if *secret {
                        self.secret.push(side.clone());
                    }
                    self.next += 1;
                }
                Command::End { winner } => {
                    self.ended = Some(winner.clone());
                    self.next += 1;
                    return;
                }
                _ => return,
            }
        }
    }

    /// The adjustment at the head of the commands, taken, when the fight stops at a person's
    /// decision.
    fn adjustment(&mut self) -> Option<fray_rules::board::Adjustment> {
        self.absorb();
        if self.stopped() {
            return None;
        }
        match self.steps.get(self.next) {
            Some(&(at, Command::Adjust(adjustment))) => {
                self.adjusting = Some(at);
                self.next += 1;
                Some(adjustment.clone())
            }
            Some(&(at, Command::Join { .. })) => {
                self.adjusting = Some(at);
                self.next += 1;
                let who = self.joining.iter().find(|j| j.0 == at).map(|j| j.1.clone()).unwrap_or_default();
                Some(fray_rules::board::Adjustment::Join { who })
            }
            _ => None,
        }
    }

    /// Whether no command is left to answer the next prompt.
    fn at_end(&self) -> bool {
        self.steps[self.next..].iter().all(|(_, c)| {
            matches!(
                c,
                Command::Control { .. }
                    | Command::Hide { .. }
                    | Command::Secret { .. }
                    | Command::Adjust(_)
                    | Command::Join { .. }
            )
        })
    }

    fn stopped(&self) -> bool {
        self.ended.is_some() || self.misfit.is_some()
    }

    fn ask(&mut self, prompt: &Prompt) -> Option<usize> {
        self.absorb();
        if self.stopped() {
            self.offered = None;
            return None;
        }
        let who = self.names.iter().position(|n| *n == prompt.who).unwrap_or(0);
        // The odds job, if any, is this prompt's: kept only if the fight stops here.
        let offered = self.offered.take();
        // Control passed to the AI since the fight last asked: it takes the AI's choice.
        if !self.people[who] {
            return Some(prompt.default);
        }
        match self.steps.get(self.next) {
            None => {
                self.job = offered;
                self.pending = Some(Pending::Decision {
                    who: prompt.who.clone(),
                    combatant: who,
                    side: self.sides[self.side_of[who]].clone(),
                    question: prompt.question.clone(),
                    choices: prompt.options.clone(),
                    data: prompt.data.clone(),
                    odds: prompt.odds.clone(),
                    ai: prompt.default,
                });
                None
            }
            Some(&(at, Command::Answer(k))) => {
                if *k < prompt.options.len() {
                    self.next += 1;
                    Some(*k)
                } else {
                    let n = prompt.options.len();
                    self.misfit(
                        at,
                        format!(
                            "no choice {k}: {} has {n} choices, numbered from 0 to {}",
                            prompt.who,
                            n.saturating_sub(1)
                        ),
                    );
                    None
                }
            }
            Some(&(at, command)) => {
                let given = match command {
                    Command::Adjust(_) => "an adjustment",
                    Command::Join { .. } => "a combatant joining",
                    _ => "dice",
                };
                self.misfit(at, format!("a decision of {} is awaited ({}), not {given}", prompt.who, prompt.question));
                None
            }
        }
    }

    fn whose(&self, reason: Reason) -> String {
        match reason.who.and_then(|w| self.names.get(w.index())) {
            Some(name) => format!("{name}'s {}", reason.what),
            None => reason.what.to_owned(),
        }
    }

    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        let stop = || Err(fray_dice::SourceError("waiting for dice".into()));
        // The same roll goes on while no event has come between its dice.
        let taken = match self.roll {
            Some((r, s, n)) if r.who == reason.who && r.what == reason.what && s == sides && !self.event_since => n,
            _ => 0,
        };
        self.event_since = false;
        if let Some((step, k, who, what)) = self.entering {
            let (at, Command::Dice(faces)) = self.steps[step] else { unreachable!("entering only dice") };
            if k < faces.len() {
                if (who, what) != (reason.who, reason.what) {
                    self.misfit(at, format!("{} faces were entered, but the roll takes {k}", faces.len()));
                    return stop();
                }
                return self.face(at, faces[k], sides, reason, taken, step, k);
            }
            self.entering = None;
        }
        self.absorb();
        if self.stopped() {
            return stop();
        }
        match self.steps.get(self.next) {
            None => {
                // A pool that numbers its dice: this die and those after it (a 6's re-roll is
                // entered after its 6, with the dice after it).
                let left = match (reason.die, reason.explosion) {
                    (0, _) => u32::from(reason.dice).saturating_sub(taken),
                    (die, 0) => u32::from(reason.dice.saturating_sub(die)) + 1,
                    _ => 1,
                };
                let left = left.max(1);
                self.pending = Some(Pending::Roll {
                    who: reason.who.and_then(|w| self.names.get(w.index())).cloned(),
                    what: reason.what.to_owned(),
                    dice: left,
                    of: reason.dice,
                    die: reason.die,
                    sides,
                    explosion: reason.explosion,
                });
                stop()
            }
            Some(&(at, Command::Dice(faces))) => {
                if faces.is_empty() || faces.len() > MAX_FACES {
                    self.misfit(at, format!("expected from 1 to {MAX_FACES} faces, found {}", faces.len()));
                    return stop();
                }
                let step = self.next;
                self.next += 1;
                self.face(at, faces[0], sides, reason, taken, step, 0)
            }
            Some(&(at, Command::Adjust(_) | Command::Join { .. })) => {
                self.misfit(
                    at,
                    format!(
                        "dice are awaited ({}, d{sides}): enter them first; the GM adjusts where a decision is awaited",
                        self.whose(reason)
                    ),
                );
                stop()
            }
            Some(&(at, _)) => {
                self.misfit(at, format!("dice are awaited ({}, d{sides}), not an answer", self.whose(reason)));
                stop()
            }
        }
    }

    /// Takes face `k` of the dice command at `step` (journal index `at`) for a die of `sides`.
    #[allow(clippy::too_many_arguments)] // reason: the one place the roll's pieces meet
    fn face(
        &mut self,
        at: usize,
        face: u32,
        sides: u32,
        reason: Reason,
        taken: u32,
        step: usize,
        k: usize,
    ) -> Result<u32, fray_dice::SourceError> {
        if !(1..=sides).contains(&face) {
            self.misfit(at, format!("face {face} for {}: a d{sides} shows 1 to {sides}", self.whose(reason)));
            return Err(fray_dice::SourceError("a face off the die".into()));
        }
        self.entering = Some((step, k + 1, reason.who, reason.what));
        self.roll = Some((reason, sides, taken + 1));
        Ok(face)
    }
}

/// Entered dice: each roll takes the next faces of the journal's dice commands.
struct Entered<'c, 'a>(&'c RefCell<Cursor<'a>>);

impl Dice for Entered<'_, '_> {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        self.0.borrow_mut().roll(sides, reason)
    }
}

/// The people at the table as the journal has them.
struct Seated<'c, 'a>(&'c RefCell<Cursor<'a>>);

impl Seats for Seated<'_, '_> {
    fn person(&self, who: CombatantId) -> bool {
        self.0.borrow().people.get(who.index()).copied().unwrap_or(false)
    }

    /// Only the prompt no command answers yet is shown: the others need no odds.
    fn shown(&self) -> bool {
        let cursor = self.0.borrow();
        cursor.odds && cursor.at_end()
    }

    /// The same prompt, when the replay leaves its odds to a job.
    fn defers_odds(&self) -> bool {
        let cursor = self.0.borrow();
        cursor.defer && cursor.at_end()
    }

    /// A prompt before the last command is answered by a command (or the misfit is found).
    fn answered(&self) -> bool {
        !self.0.borrow().at_end()
    }

    fn deferred_odds(&mut self, job: OddsJob) {
        self.0.borrow_mut().offered = Some(job);
    }

    fn ask(&mut self, prompt: &Prompt) -> Option<usize> {
        self.0.borrow_mut().ask(prompt)
    }

    fn adjustment(&mut self, _who: CombatantId) -> Option<fray_rules::board::Adjustment> {
        self.0.borrow_mut().adjustment()
    }

    fn refuse(&mut self, why: String) {
        let mut cursor = self.0.borrow_mut();
        let at = cursor.adjusting.unwrap_or(0);
        cursor.misfit(at, why);
    }
}

/// How a replay treats the exact odds of the decision it stops at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Odds {
    /// Worked out with the replay.
    Now,
    /// Left to a job the replay hands back ([`Snapshot::odds_worked_out`] is then `false`).
    Later,
}

/// The fight of `journal` after its first `n` commands, or the first command that does not fit;
/// with [`Odds::Now`], the decision it stops at has the exact odds of its choices, with
/// [`Odds::Later`] the job that works them out comes along (when that decision has one). The
/// hidden combatants and secret sides start as `visibility` has them.
pub(crate) fn replay(
    scenario: &dyn Scenario,
    visibility: &Visibility,
    journal: &Journal,
    n: usize,
    odds: Odds,
) -> Result<(Snapshot, Option<OddsJob>), Misfit> {
    let (steps, can_redo) = fold(&journal.commands[..n])?;
    // Combatants added mid-fight are in the roster from the start, absent until they join.
    let joins: Vec<(usize, &str)> = steps
        .iter()
        .filter_map(|&(at, c)| if let Command::Join { stats } = c { Some((at, stats.as_str())) } else { None })
        .collect();
    let joined;
    let scenario = if joins.is_empty() {
        scenario
    } else {
        let blocks: Vec<&str> = joins.iter().map(|j| j.1).collect();
        joined = fray_rules::load_joining(&journal.file, &journal.scenario, &journal.set, &blocks)
            .map_err(|(k, e)| (k.map_or(joins[joins.len() - 1].0, |k| joins[k].0), e.to_string()))?;
        let known = scenario.sides();
        let (base, sides) = (joined.combatants().len() - joins.len(), joined.sides());
        for (k, &(at, _)) in joins.iter().enumerate() {
            let side = &sides[joined.side_of(base + k)];
            if !known.contains(side) {
                return Err((
                    at,
                    format!(
                        "no side `{side}` in this fight: a combatant joins one of its sides ({})",
                        known.join(", ")
                    ),
                ));
            }
        }
        &*joined
    };
    let names = scenario.combatants();
    let sides = scenario.sides();
    let base = names.len() - joins.len();
    let joining = joins.iter().enumerate().map(|(k, &(at, _))| (at, names[base + k].clone())).collect();
    for &(at, command) in &steps {
        match command {
            Command::Control { who, .. } | Command::Hide { who, .. } if !names.contains(who) => {
                return Err((at, format!("no combatant `{who}` (combatants: {})", names.join(", "))));
            }
            Command::End { winner: Some(side) } | Command::Secret { side, .. } if !sides.contains(side) => {
                return Err((at, format!("no side `{side}` (sides: {})", sides.join(", "))));
            }
            _ => {}
        }
    }
    let can_undo = steps.len();
    let cursor = RefCell::new(Cursor {
        steps,
        next: 0,
        side_of: (0..names.len()).map(|i| scenario.side_of(i)).collect(),
        people: names.iter().map(|n| journal.people.contains(n)).collect(),
        names,
        sides,
        // The scenario's `[visibility]` is where the GM's hide and secret commands start from.
        hidden: visibility.hidden.clone(),
        secret: visibility.secret.clone(),
        ended: None,
        pending: None,
        misfit: None,
        entering: None,
        roll: None,
        event_since: false,
        adjusting: None,
        joining,
        odds: odds == Odds::Now,
        defer: odds == Odds::Later,
        offered: None,
        job: None,
    });
    let mut log = Vec::new();
    let mut seats = Seated(&cursor);
    let mut hidden_then: Vec<(usize, Vec<String>)> = Vec::new();
    let mut out = |line: &Line| {
        let mut cursor = cursor.borrow_mut();
        cursor.event_since = true;
        if hidden_then.last().map_or(!cursor.hidden.is_empty(), |(_, then)| *then != cursor.hidden) {
            hidden_then.push((log.len(), cursor.hidden.clone()));
        }
        log.push(line.clone());
    };
    let played = match journal.dice {
        DiceMode::Fray => {
            let mut dice = fray_engine::FromSource(fray_dice::seeded(journal.seed));
            scenario.play(&mut dice, Some(journal.seed), &mut seats, &mut out)
        }
        DiceMode::Entered => scenario.play(&mut Entered(&cursor), None, &mut seats, &mut out),
    };
    let mut cursor = cursor.into_inner();
    if let Some(misfit) = cursor.misfit.take() {
        return Err(misfit);
    }
    let unit = scenario.time_unit().0;
    let (ending, pending) = match (played.result, cursor.ended.take()) {
        (Ok(result), _) => {
            let winner = match result.outcome {
                Outcome::Side(side) => cursor.sides.get(side.index()).cloned(),
                Outcome::Mutual | Outcome::Stalemate => None,
            };
            let text = fray_rules::outcome_text(&cursor.sides, &result);
            (Some(Ending { winner, text, length: Some(result.length), unit, by_gm: false }), None)
        }
        (Err(_), Some(winner)) => {
            let text = match &winner {
                Some(side) => format!("ended by the GM: {side} {}", if side.ends_with('s') { "win" } else { "wins" }),
                None => "ended by the GM, with no winner".to_owned(),
            };
            let json = serde_json::json!({ "event": "gm_end", "winner": winner });
            log.push(Line { text: Some(format!("The GM ends the fight ({text}).")), json });
            (Some(Ending { winner, text, length: None, unit, by_gm: true }), None)
        }
        (Err(FightError::Pending(_) | FightError::Dice { .. }), None) if cursor.pending.is_some() => {
            (None, cursor.pending.take())
        }
        (Err(e), None) => {
            let at = cursor.steps.get(cursor.next.min(cursor.steps.len().saturating_sub(1))).map_or(0, |s| s.0);
            return Err((at, e.to_string()));
        }
    };
    // Every command must have been taken: none may come after the end.
    if let Some(&(at, _)) = cursor.steps.get(cursor.next) {
        return Err((at, "the fight is over: no decision or dice are awaited".to_owned()));
    }
    let job = cursor.job.take().filter(|_| matches!(pending, Some(Pending::Decision { .. })));
    let odds_worked_out = job.is_none();
    let snapshot = Snapshot {
        log,
        pending,
        status: played.status,
        ending,
        people: cursor.names.iter().zip(&cursor.people).filter(|(_, p)| **p).map(|(n, _)| n.clone()).collect(),
        hidden: cursor.hidden,
        secret: cursor.secret,
        can_undo,
        can_redo,
        odds_worked_out,
        hidden_then,
    };
    Ok((snapshot, job))
}
