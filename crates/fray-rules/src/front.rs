//! The glue every ruleset's front end shares, written once. A ruleset's loaded scenario (its
//! `front.rs`) implements [`Front`]: which ruleset it is, its setup and roster, its AI, how a
//! batch of simulated fights and a fight at the table run, its summary and its odds in context.
//! From that alone it is a [`Scenario`], the object the command line, the simulator and the
//! live fight hold: the roster's names and sides, the cap and the time unit come from here, as
//! do the simulator's batch loop and the tail of every log line. [`Script`] is the scripted
//! decider of the tests and the worked examples, for any ruleset.

use crate::board::Played;
use crate::{AttackOdds, Line, Scenario, Seats};
use fray_engine::{CombatantId, Decider, Dice, FightError, FightResult, Pending, Ruleset, SideId};
use fray_sim::{BatchDice, Ledger};
use std::collections::VecDeque;

/// A setup's roster: its combatants' sheets in roster order (`M`, a ruleset's sheet), how to
/// read a sheet's name and side, the sides' names, and the cap on a fight's length.
pub struct Roster<'a, M> {
    /// Every combatant's sheet, in roster order.
    pub combatants: &'a [M],
    /// The sides' names, in order.
    pub sides: &'a [String],
    /// The cap on a fight's length, in the ruleset's unit (`max_rounds`, `max_turns`,
    /// `round_cap` or `tick_cap`).
    pub cap: u32,
    /// A sheet's name.
    pub name: fn(&M) -> &str,
    /// A sheet's side.
    pub side: fn(&M) -> SideId,
}

impl<'a, M> Roster<'a, M> {
    /// The roster of `combatants` on `sides`, capped at `cap`, each sheet's name and side read
    /// by `name` and `side`.
    pub fn new(
        combatants: &'a [M],
        sides: &'a [String],
        cap: u32,
        name: fn(&M) -> &str,
        side: fn(&M) -> SideId,
    ) -> Roster<'a, M> {
        Roster { combatants, sides, cap, name, side }
    }

    /// The name of the combatant at `i` in roster order.
    pub fn name_of(&self, i: usize) -> &'a str {
        (self.name)(&self.combatants[i])
    }
}

/// A ruleset's loaded scenario, as the glue every ruleset shares sees it: what is the ruleset's
/// own. Every `Front` is a [`Scenario`].
pub trait Front: Send + Sync {
    /// The ruleset.
    type Rules: Ruleset<Event: serde::Serialize>;
    /// One combatant's sheet in its setup.
    type Sheet;
    /// The AI policies' decider, which simulated fights and the combatants nobody plays use.
    type Ai: Decider<Self::Rules> + Default;
    /// The unit a fight's length is counted in: "rounds", "turns" or "ticks".
    const UNIT: &'static str = "rounds";
    /// The length of [`Front::UNIT`] in seconds of game time, when it has a fixed one.
    const SECONDS: Option<f64> = None;
    /// The unit distances are given in: `"m"`, or `"squares"` on a grid.
    const DISTANCE_UNIT: &'static str = "m";

    /// The validated setup.
    fn setup(&self) -> &<Self::Rules as Ruleset>::Setup;
    /// The setup's roster.
    fn roster(&self) -> Roster<'_, Self::Sheet>;
    /// What `fray check` says of one combatant ([`Scenario::explain`], after a first line
    /// naming the ruleset, the numbers of combatants and sides, and the cap): its lines, each
    /// ending in a newline.
    fn explain_combatant(&self, sheet: &Self::Sheet) -> String;
    /// What `fray check` says after the combatants (a ruleset's map, its tables). Default:
    /// nothing.
    fn explain_more(&self) -> String {
        String::new()
    }
    /// Odds in context ([`Scenario::attack_odds_at`]).
    fn attack_odds_at(&self, attacker: &str, defender: &str, distance: Option<f64>) -> Result<AttackOdds, String>;
    /// Marks the last `n` combatants of the roster as joining mid-fight ([`Scenario::join_late`]).
    fn join_late(&mut self, n: usize);
    /// One fight with people at the table ([`Scenario::play`]); most rulesets play it through
    /// [`crate::play_at_table`].
    fn play(&self, dice: &mut dyn Dice, seed: Option<u64>, seats: &mut dyn Seats, out: &mut dyn FnMut(&Line))
    -> Played;

    /// `fights` simulated fights, answered by the AI, tallied into `ledger`. Default: the
    /// batch's dice as they come ([`fray_sim::run_fights`]); a ruleset that draws some of its dice
    /// from streams of their own derives them here.
    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError> {
        let dice = fray_engine::FromSource(dice);
        fray_sim::run_fights::<Self::Rules, _, _>(self.setup(), dice, Self::Ai::default(), fights, ledger, |_| ())
    }

    /// The name of combatant `who`.
    fn name(&self, who: CombatantId) -> &str {
        self.roster().name_of(who.index())
    }

    /// A line of the log: `text` (the ruleset's words for `event`) and the event as JSON, each
    /// combatant and side named; or, when `event` ends the fight, the end's line
    /// ([`Front::end_text`], whatever `text` says) and the shared `end` event.
    fn log_line(&self, event: &<Self::Rules as Ruleset>::Event, text: Option<String>) -> Line {
        let roster = self.roster();
        let ended = Self::Rules::ended(event);
        let text = match &ended {
            Some(result) => Some(self.end_text(result)),
            None => text,
        };
        let name = |i: usize| roster.name_of(i);
        let names = crate::events::Roster { combatant: &name, sides: roster.sides };
        crate::events::line(event, text, ended.as_ref(), Self::UNIT, names)
    }

    /// "combat ends after 3 round(s): heroes win", "combat ends after 12 tick(s) (6.0 s): mutual
    /// destruction": the log's line for the end of a fight.
    fn end_text(&self, result: &FightResult) -> String {
        let unit = Self::UNIT.strip_suffix('s').unwrap_or(Self::UNIT);
        let seconds = Self::SECONDS.map_or(String::new(), |s| format!(" ({:.1} s)", f64::from(result.length) * s));
        let outcome = crate::outcome_text(self.roster().sides, result);
        format!("combat ends after {} {unit}(s){seconds}: {outcome}", result.length)
    }

    /// The name of item `item` of combatant `who`, for a track the game master sets per item
    /// (ammunition). Default: none (a ruleset without such tracks).
    fn item_name(&self, _who: CombatantId, _item: u8) -> &str {
        ""
    }

    /// "The GM sets Sal's HP to 2.": the log's line for a game master's adjustment, in the terms
    /// of the ruleset's adjustable tracks ([`crate::RulesetInfo::adjustable`]).
    fn adjusted_text(&self, who: CombatantId, change: &crate::board::Change) -> String {
        let tracks = crate::ruleset_info(Self::Rules::ID).map_or(&[][..], |r| r.adjustable);
        crate::board::adjusted_event_text(self.name(who), change, tracks, |i| self.item_name(who, i))
    }
}

impl<F: Front> Scenario for F {
    fn ruleset(&self) -> &'static str {
        F::Rules::ID
    }

    fn combatants(&self) -> Vec<String> {
        let roster = self.roster();
        roster.combatants.iter().map(|c| (roster.name)(c).to_owned()).collect()
    }

    fn sides(&self) -> Vec<String> {
        self.roster().sides.to_vec()
    }

    fn side_of(&self, combatant: usize) -> usize {
        let roster = self.roster();
        (roster.side)(&roster.combatants[combatant]).index()
    }

    fn time_unit(&self) -> (&'static str, Option<f64>) {
        (F::UNIT, F::SECONDS)
    }

    fn cap(&self) -> u32 {
        self.roster().cap
    }

    fn join_late(&mut self, n: usize) {
        Front::join_late(self, n);
    }

    fn explain(&self) -> String {
        let roster = self.roster();
        let (id, unit, cap) = (F::Rules::ID, F::UNIT, roster.cap);
        let seconds = F::SECONDS.map_or(String::new(), |s| format!(" ({:.0} s)", f64::from(cap) * s));
        let (combatants, sides) = (roster.combatants.len(), roster.sides.len());
        let mut out = format!("ruleset {id}, {combatants} combatants on {sides} sides, cap {cap} {unit}{seconds}\n");
        for sheet in roster.combatants {
            out += &self.explain_combatant(sheet);
        }
        out + &self.explain_more()
    }

    fn attack_odds_at(&self, attacker: &str, defender: &str, distance: Option<f64>) -> Result<AttackOdds, String> {
        Front::attack_odds_at(self, attacker, defender, distance)
    }

    fn distance_unit(&self) -> &'static str {
        F::DISTANCE_UNIT
    }

    fn play(
        &self,
        dice: &mut dyn Dice,
        seed: Option<u64>,
        seats: &mut dyn Seats,
        out: &mut dyn FnMut(&Line),
    ) -> Played {
        Front::play(self, dice, seed, seats, out)
    }

    fn combatant_count(&self) -> usize {
        self.roster().combatants.len()
    }

    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError> {
        Front::run_batch(self, dice, fights, ledger)
    }
}

/// Any scenario is simulated through its own batches.
impl fray_sim::Simulate for dyn Scenario + '_ {
    fn combatant_count(&self) -> usize {
        Scenario::combatant_count(self)
    }

    fn run_batch(&self, dice: &mut BatchDice, fights: u64, ledger: &mut Ledger) -> Result<(), FightError> {
        Scenario::run_batch(self, dice, fights, ledger)
    }
}

/// A scripted decider for tests and worked examples, for any ruleset `R`: each combatant's
/// queued answers first, while the next one has the shape the request asks for
/// ([`Ruleset::check_choice`]); the AI `A` for every other request.
pub struct Script<R: Ruleset, A> {
    queues: Vec<VecDeque<R::Choice>>,
    ai: A,
}

impl<R: Ruleset, A: Default> Script<R, A> {
    /// An empty script for `n` combatants.
    pub fn new(n: usize) -> Self {
        Script { queues: vec![VecDeque::new(); n], ai: A::default() }
    }

    /// Queues `choice` as `who`'s next answer.
    pub fn push(&mut self, who: usize, choice: R::Choice) -> &mut Self {
        self.queues[who].push_back(choice);
        self
    }

    /// Whether `who`'s next scripted answer fits `request`.
    fn fits(&self, setup: &R::Setup, who: CombatantId, request: &R::Request) -> bool {
        self.queues[who.index()].front().is_some_and(|c| R::check_choice(setup, request, c).is_ok())
    }
}

impl<R: Ruleset, A: Default> Default for Script<R, A> {
    fn default() -> Self {
        Script::new(0)
    }
}

impl<R: Ruleset, A: Clone> Clone for Script<R, A> {
    fn clone(&self) -> Self {
        Script { queues: self.queues.clone(), ai: self.ai.clone() }
    }
}

impl<R: Ruleset, A> std::fmt::Debug for Script<R, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script").field("queues", &self.queues).finish_non_exhaustive()
    }
}

impl<R: Ruleset, A: Decider<R> + Default> Decider<R> for Script<R, A> {
    fn decide(
        &mut self,
        setup: &R::Setup,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
    ) -> Result<R::Choice, Pending> {
        if self.fits(setup, who, request)
            && let Some(choice) = self.queues[who.index()].pop_front()
        {
            return Ok(choice);
        }
        self.ai.decide(setup, state, who, request)
    }

    fn passes_optional(&self, setup: &R::Setup, who: CombatantId, request: &R::Request) -> bool {
        !self.fits(setup, who, request) && self.ai.passes_optional(setup, who, request)
    }
}
