//! The ruleset trait and the fight that drives one.

use crate::dice::{Dice, Reason};
use crate::ids::{CombatantId, SideId};
use crate::sink::Sink;
use std::fmt::Debug;

/// A ruleset: one game's combat chapter.
pub trait Ruleset: Sized {
    /// The stable name used in scenario files, e.g. `"fluid"`.
    const ID: &'static str;
    /// A validated scenario: combatants, options, cap.
    type Setup;
    /// Everything that changes during a fight.
    type State: Clone + Debug + PartialEq;
    /// A change to the state. The state changes only by applying events.
    type Event: Clone + Debug;
    /// A decision request: who must choose what, listing the legal choices.
    type Request: Debug;
    /// An answer to a request.
    type Choice: Clone + Debug;

    /// The state before the first event.
    fn initial_state(setup: &Self::Setup) -> Self::State;

    /// Puts `state` back to [`Ruleset::initial_state`], reusing its storage where the ruleset can,
    /// so that a simulation runs fight after fight without allocating.
    fn reset_state(setup: &Self::Setup, state: &mut Self::State) {
        *state = Self::initial_state(setup);
    }

    /// Applies one event to the state.
    fn apply(setup: &Self::Setup, state: &mut Self::State, event: &Self::Event);

    /// What the simulator's ledger counts in this event, if anything.
    fn tally(event: &Self::Event) -> Option<Tally>;

    /// The fight's result, when `event` is the one that ends the fight.
    fn ended(event: &Self::Event) -> Option<FightResult>;

    /// Whether `choice` answers `request` legally; the reason when it does not.
    fn check_choice(setup: &Self::Setup, request: &Self::Request, choice: &Self::Choice) -> Result<(), String>;

    /// The end of the fight as it stands after a game master's adjustment
    /// ([`Decider::interject`]), if it has ended: the result and the event that says so.
    /// Default: none (a ruleset without adjustments).
    fn end_after_adjustment(_setup: &Self::Setup, _state: &Self::State) -> Option<(FightResult, Self::Event)> {
        None
    }

    /// Runs one fight to its end.
    fn run<D: Dice, P: Decider<Self>, S: Sink<Self::Event>>(
        fight: &mut Fight<'_, Self, D, P, S>,
    ) -> Result<FightResult, FightError>;
}

/// Answers decision requests: an AI policy, a script or a person.
pub trait Decider<R: Ruleset> {
    /// Whether [`Fight::decide`] checks this decider's answers against their requests in every
    /// build. A ruleset's own AI, whose policies pick only legal choices, says `false`: its answers
    /// are then checked in debug builds (every test run) but not on the simulator's hot path.
    /// Scripts and people are always checked.
    const CHECKED: bool = true;

    /// Whether this decider may interject a game master's adjustments ([`Decider::interject`]):
    /// `false` for an AI or a script, so that [`Fight::decide`] does no work for them at all.
    const INTERJECTS: bool = false;

    /// The choice of `who` for `request`, given the setup and the current state. `Err(Pending)`
    /// when no answer is available yet (a person who has not answered).
    fn decide(
        &mut self,
        setup: &R::Setup,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
    ) -> Result<R::Choice, Pending>;

    /// Whether this decider would answer `request`, an *optional* request of `who` (one a ruleset
    /// documents as a revision of an earlier answer, where "no change" is an answer), with no
    /// change, so the ruleset may skip asking it. Skipping must not change the fight's events.
    /// A ruleset may ask this before it builds the request's legal-choice lists, passing the
    /// request with those lists empty: the answer must depend on the request's kind and `who`
    /// only. Default: `false` (always ask).
    fn passes_optional(&self, _setup: &R::Setup, _who: CombatantId, _request: &R::Request) -> bool {
        false
    }

    /// The events of a game master's adjustment to make before `who` is asked (a track set by
    /// hand, a combatant taken out), at a live table; empty when there is none. [`Fight::decide`]
    /// applies them and asks again until none is left, when [`Decider::INTERJECTS`]. Default:
    /// none.
    #[inline(always)]
    fn interject(&mut self, _setup: &R::Setup, _state: &R::State, _who: CombatantId) -> Vec<R::Event> {
        Vec::new()
    }
}

impl<R: Ruleset, P: Decider<R> + ?Sized> Decider<R> for &mut P {
    const CHECKED: bool = P::CHECKED;
    const INTERJECTS: bool = P::INTERJECTS;

    fn decide(
        &mut self,
        setup: &R::Setup,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
    ) -> Result<R::Choice, Pending> {
        (**self).decide(setup, state, who, request)
    }

    fn passes_optional(&self, setup: &R::Setup, who: CombatantId, request: &R::Request) -> bool {
        (**self).passes_optional(setup, who, request)
    }

    #[inline(always)]
    fn interject(&mut self, setup: &R::Setup, state: &R::State, who: CombatantId) -> Vec<R::Event> {
        (**self).interject(setup, state, who)
    }
}

/// What a ruleset reports from an event for the per-combatant ledger of a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// An attack was resolved.
    Attack {
        /// The attacker.
        by: CombatantId,
        /// Whether it hit.
        hit: bool,
        /// Whether its check was a crit.
        crit: bool,
    },
    /// Damage was taken (after armour).
    Damage {
        /// Who dealt it, if anyone.
        by: Option<CombatantId>,
        /// Who took it.
        to: CombatantId,
        /// How much, in the ruleset's unit.
        amount: i32,
    },
    /// A combatant went down (out of the fight).
    Downed {
        /// Who.
        who: CombatantId,
    },
}

/// No answer yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending;

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// One side is left standing.
    Side(SideId),
    /// Nobody is left standing.
    Mutual,
    /// The cap was reached with more than one side standing.
    Stalemate,
}

/// The end of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightResult {
    /// Who won, if anyone.
    pub outcome: Outcome,
    /// Length in the ruleset's time unit (rounds, ticks).
    pub length: u32,
}

/// Why a fight could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FightError {
    /// The dice source failed (a script ran out, a face did not fit).
    #[error("dice for {what}: {message}")]
    Dice {
        /// What the die was for.
        what: &'static str,
        /// The source's message.
        message: String,
    },
    /// A decision is needed and its decider has no answer yet.
    #[error("waiting for a decision of combatant {0}")]
    Pending(CombatantId),
    /// A game master's adjustment ended the fight where a decision was asked
    /// ([`Ruleset::end_after_adjustment`]); [`Fight::run`] returns the result.
    #[error("the fight ended after an adjustment")]
    Over(FightResult),
    /// A decider answered with a choice the request does not allow.
    #[error("illegal choice for combatant {who}: {reason}")]
    IllegalChoice {
        /// Who chose.
        who: CombatantId,
        /// What is wrong with it.
        reason: String,
    },
}

/// One fight in progress: the setup, the state, and the fight's dice, decider and sink.
pub struct Fight<'a, R: Ruleset, D, P, S> {
    setup: &'a R::Setup,
    state: R::State,
    dice: D,
    decider: P,
    sink: S,
}

impl<'a, R: Ruleset, D: Dice, P: Decider<R>, S: Sink<R::Event>> Fight<'a, R, D, P, S> {
    /// A fight at its initial state.
    pub fn new(setup: &'a R::Setup, dice: D, decider: P, sink: S) -> Self {
        Fight { state: R::initial_state(setup), setup, dice, decider, sink }
    }

    /// Starts the fight again from its initial state (the dice, decider and sink stay).
    pub fn restart(&mut self) {
        R::reset_state(self.setup, &mut self.state);
    }

    /// The fight's dice, e.g. to reseed them between fights.
    pub fn dice_mut(&mut self) -> &mut D {
        &mut self.dice
    }

    /// Runs the fight to its end.
    pub fn run(&mut self) -> Result<FightResult, FightError> {
        match R::run(self) {
            Err(FightError::Over(result)) => Ok(result),
            other => other,
        }
    }

    /// The setup.
    pub fn setup(&self) -> &'a R::Setup {
        self.setup
    }

    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The sink, e.g. to read a record after the fight.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Takes the fight apart: state and sink.
    pub fn into_parts(self) -> (R::State, S) {
        (self.state, self.sink)
    }

    /// Applies an event to the state, then hands it to the sink.
    #[inline(always)]
    pub fn emit(&mut self, event: R::Event) {
        R::apply(self.setup, &mut self.state, &event);
        self.sink.event(&event);
    }

    /// Rolls one die.
    pub fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, FightError> {
        self.dice.roll(sides, reason).map_err(|e| FightError::Dice { what: reason.what, message: e.0 })
    }

    /// Whether the decider would answer `who`'s optional requests with no change
    /// ([`Decider::passes_optional`]).
    pub fn passes_optional(&self, who: CombatantId, request: &R::Request) -> bool {
        self.decider.passes_optional(self.setup, who, request)
    }

    /// Whether this fight checks its decider's answers ([`Decider::CHECKED`], or any debug
    /// build). A ruleset that checks an answer's legality itself, beyond
    /// [`Ruleset::check_choice`], asks this first.
    pub fn checks_choices(&self) -> bool {
        P::CHECKED || cfg!(debug_assertions)
    }

    /// Asks `who` to answer `request`, after any adjustments its decider interjects
    /// ([`Decider::interject`]), and checks that the answer is legal. Inlined, so that a
    /// decider that is inlined too sees which request it answers.
    #[inline(always)]
    pub fn decide(&mut self, who: CombatantId, request: &R::Request) -> Result<R::Choice, FightError> {
        // A game master's adjustments come first ([`Decider::interject`]), and may end the fight.
        if P::INTERJECTS {
            loop {
                let events = self.decider.interject(self.setup, &self.state, who);
                if events.is_empty() {
                    break;
                }
                for event in events {
                    self.emit(event);
                }
                if let Some((result, event)) = R::end_after_adjustment(self.setup, &self.state) {
                    self.emit(event);
                    return Err(FightError::Over(result));
                }
            }
        }
        let choice =
            self.decider.decide(self.setup, &self.state, who, request).map_err(|Pending| FightError::Pending(who))?;
        if self.checks_choices() {
            R::check_choice(self.setup, request, &choice)
                .map_err(|reason| FightError::IllegalChoice { who, reason })?;
        }
        Ok(choice)
    }
}

/// The state a recorded log leads to: the fold of its events over the initial state.
pub fn replay<R: Ruleset>(setup: &R::Setup, events: &[R::Event]) -> R::State {
    let mut state = R::initial_state(setup);
    for event in events {
        R::apply(setup, &mut state, event);
    }
    state
}
