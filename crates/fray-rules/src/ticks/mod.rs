//! `ticks`: the half-second gunfight draft. No rounds and no
//! initiative: in each tick everyone may announce one action, and the announced actions resolve
//! together; every attack is an opposed delta roll whose margin buys damage or costs the defender
//! Effort; exertion builds a Stability penalty that recovers by ⌊√p⌋ a tick.
//!
//! The fight is [`Ticks`] on the shared engine: [`run`] asks every combatant for an announcement
//! each tick ([`Request::Announce`]), then resolves the tick in the order of TICK-TIME-10, asking
//! attackers for an abort or a decline after their own roll ([`Request::Abort`],
//! [`Request::Decline`]). Effects on others wait in each fighter's pending tallies until the
//! end-of-tick step ([`Event::Settled`]) unless `simultaneity = immediate`.

pub mod attack;
pub mod front;
pub mod guide;
pub mod odds;
pub mod options;
pub mod policy;
pub mod run;
pub mod scenario;
pub mod setup;
pub mod status;

pub use front::{TicksScenario, events_schema};
pub use options::Options;
pub use setup::{Blow, Setup, Square};

use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Ruleset, Sink, Tally};

/// A list of combatants, inline up to eight.
pub type Roster = smallvec::SmallVec<[CombatantId; 8]>;

/// What a combatant announces for a tick (TICK-TIME-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Action {
    /// Nothing this tick.
    Nothing,
    /// Move one square toward this square (TICK-MOVE-1).
    Move(Square),
    /// Run toward this square, optionally with one attack on the way (TICK-MOVE-3/4): a shot
    /// (`None` blow) or, under `running_melee = penalty`, a blow.
    Run {
        /// Where to.
        to: Square,
        /// The attack: target, blow (`None`: a shot) and weak-point aim.
        attack: Option<(CombatantId, Option<Blow>, bool)>,
    },
    /// Bring the gun up (TICK-GUN-3).
    Ready,
    /// Lower the gun (an action only under `lower_gun_cost = action`).
    Lower,
    /// Aim at a target (TICK-AIM-1).
    Aim(CombatantId),
    /// Fire 1 to `rate` shots, each at a named target; a lowered gun makes it a snap shot
    /// (TICK-GUN-3/10, TICK-TIME-12).
    Fire {
        /// The target of each shot (the first `shots` count).
        targets: [CombatantId; 3],
        /// Shots this tick.
        shots: u8,
        /// Weak-point aim (TICK-ARM-9).
        weak_point: bool,
    },
    /// A melee attack (TICK-MELEE-3).
    Melee {
        /// The target.
        target: CombatantId,
        /// The attack type.
        blow: Blow,
        /// Weak-point aim.
        weak_point: bool,
    },
    /// A reaction strike at an adjacent character who announced a move (TICK-TIME-7).
    Strike {
        /// The mover.
        target: CombatantId,
        /// The attack type.
        blow: Blow,
        /// Weak-point aim.
        weak_point: bool,
    },
    /// Follow a character who announced a move (TICK-TIME-7, TICK-MOVE-6).
    Follow(CombatantId),
}

impl Action {
    /// `shots` shots at one target.
    pub const fn fire(target: CombatantId, shots: u8, weak_point: bool) -> Action {
        Action::Fire { targets: [target; 3], shots, weak_point }
    }

    /// Whether the action is a move, a run or a follow.
    pub fn moves(&self) -> bool {
        matches!(self, Action::Move(_) | Action::Run { .. } | Action::Follow(_))
    }
}

/// A decision request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Announce this tick's action (TICK-TIME-2).
    Announce {
        /// The tick.
        tick: u32,
    },
    /// A melee attacker's own roll is made: abort before the defender rolls (TICK-MELEE-4)?
    Abort {
        /// The target.
        target: CombatantId,
        /// The attacker's result A.
        a: i32,
        /// Everything added to the attacker's dice: what it rolls again with after a tie under
        /// `delta_tie = reroll` (TICK-DICE-3).
        base: i32,
    },
    /// A shooter's own roll is made: decline the shot (TICK-GUN-8)?
    Decline {
        /// The target.
        target: CombatantId,
        /// The shooter's result A.
        a: i32,
        /// Everything added to the attacker's dice: what it rolls again with after a tie under
        /// `delta_tie = reroll` (TICK-DICE-3).
        base: i32,
    },
}

/// An answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Choice {
    /// An announcement.
    Announce(Action),
    /// Yes (abort, decline) or no.
    Yes(bool),
}

/// What an attack is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Kind {
    /// A shot.
    Shot,
    /// A melee blow of this type.
    Melee(Blow),
}

/// Where armour met a hit (TICK-ARM-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ArmourMet {
    /// Hard armour.
    pub hard: bool,
    /// Its resistance.
    pub resistance: i32,
    /// Whether it held.
    pub held: bool,
}

/// Everything that happens in a fight.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A tick begins: each fighter's start-of-tick state is taken (TICK-TIME-4).
    TickStarted {
        /// The tick, from 1.
        tick: u32,
    },
    /// The announcement order was drawn (TICK-TIME-6).
    Order {
        /// Who announces, in order.
        order: Roster,
    },
    /// An announcement.
    Announced {
        /// Who.
        who: CombatantId,
        /// What.
        action: Action,
    },
    /// Moved (one square, a run's squares, a follow, a dive).
    Moved {
        /// Who.
        who: CombatantId,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// Running.
        run: bool,
    },
    /// A step was blocked by an occupied square (TICK-MOVE-5).
    Blocked {
        /// Who.
        who: CombatantId,
        /// The square.
        at: Square,
    },
    /// The gun came up (TICK-GUN-2/3).
    Readied {
        /// Who.
        who: CombatantId,
        /// The ready penalty added to p.
        penalty: i32,
    },
    /// The gun went down.
    Lowered {
        /// Who.
        who: CombatantId,
    },
    /// An aim tick (TICK-AIM-1).
    Aimed {
        /// Who.
        who: CombatantId,
        /// At whom.
        target: CombatantId,
        /// Consecutive aim ticks now.
        ticks: i32,
    },
    /// The aim ended (TICK-AIM-5) or was spoiled (TICK-AIM-4).
    AimEnded {
        /// Who.
        who: CombatantId,
        /// Spoiled by being attacked.
        spoiled: bool,
    },
    /// An attacker's own roll (TICK-DICE-2/4).
    AttackRoll {
        /// The attacker.
        who: CombatantId,
        /// The target.
        target: CombatantId,
        /// Shot or blow.
        kind: Kind,
        /// The dice.
        faces: [u8; 3],
        /// The result A.
        a: i32,
        /// Range modifier (shots).
        range: i32,
        /// Aim bonus (shots).
        aim: i32,
        /// Own p at the roll.
        p: i32,
    },
    /// The attacker declined the shot (TICK-GUN-8).
    Declined {
        /// Who.
        who: CombatantId,
    },
    /// The attacker aborted the blow (TICK-MELEE-5).
    Aborted {
        /// Who.
        who: CombatantId,
    },
    /// A melee attack found nobody in reach (TICK-MELEE-11).
    OutOfReach {
        /// Who.
        who: CombatantId,
        /// The target.
        target: CombatantId,
    },
    /// Own costs, applied at once: p and effort (ready, shots, blows, aborts, recoil).
    Cost {
        /// Who.
        who: CombatantId,
        /// Added to p.
        p: i32,
        /// Effort spent.
        effort: i32,
        /// Shot penalty held back (TICK-GUN-7).
        held: i32,
        /// Whether this was a shot or a decline (the firing string).
        string: bool,
        /// Whether this was an attack (no effort regeneration).
        attack: bool,
    },
    /// The held-back penalty is added (TICK-GUN-7).
    Released {
        /// Who.
        who: CombatantId,
        /// p added.
        p: i32,
    },
    /// The defender's roll (TICK-DICE-1).
    Defence {
        /// The defender.
        who: CombatantId,
        /// Against a shot or a blow.
        kind: Kind,
        /// The dice.
        faces: [u8; 3],
        /// The result D.
        d: i32,
        /// The defence skill counted.
        skill: i32,
        /// The cover bonus counted.
        cover: i32,
        /// The stability penalty p counted.
        p: i32,
        /// The wound penalty counted.
        wounds: i32,
        /// Diving for cover (TICK-DEF-3).
        dive: Option<Square>,
    },
    /// A tie rerolled (`delta_tie = reroll`).
    TieRerolled,
    /// The exchange: who won and the defender's effort (TICK-DEF-*).
    Exchange {
        /// The attacker.
        attacker: CombatantId,
        /// The defender.
        target: CombatantId,
        /// A − D.
        delta: i32,
        /// Effort the defender spends (pending to the end of the tick).
        effort: i32,
        /// p from that effort (TICK-DEF-6).
        p: i32,
        /// The attacker won (a shortfall graze included).
        hit: bool,
        /// A graze from an effort shortfall (TICK-DEF-5).
        shortfall: bool,
    },
    /// A hit's damage (TICK-DMG-*, TICK-ARM-*), pending to the end of the tick.
    Hit {
        /// The attacker.
        by: CombatantId,
        /// The target.
        target: CombatantId,
        /// The d10 location (0 when none was rolled: the torso).
        face: u8,
        /// Damage before cover, armour and limbs.
        raw: i32,
        /// Slowed by cover (TICK-COVER-6).
        slowed: bool,
        /// Armour met.
        armour: Option<ArmourMet>,
        /// Body lost.
        body: i32,
        /// Trauma taken.
        trauma: i32,
        /// Wounds.
        wounds: i32,
    },
    /// The wound check of a shot stopped by armour (TICK-ARM-4/5).
    WoundCheck {
        /// The target.
        who: CombatantId,
        /// The die's face.
        face: u32,
        /// Sides.
        sides: u32,
        /// A wound.
        wound: bool,
    },
    /// Pending effects applied (end of tick, or at once under `simultaneity = immediate`).
    Settled {
        /// Who.
        who: CombatantId,
        /// Body lost.
        body: i32,
        /// Trauma.
        trauma: i32,
        /// Wounds.
        wounds: i32,
        /// Effort spent defending.
        effort: i32,
        /// p from that effort.
        p: i32,
        /// The effort tally is settled too (the end of the tick, or `simultaneity = immediate`);
        /// otherwise only damage (`firearm_initiative`), the effort waiting for the tick's end.
        all: bool,
    },
    /// Under `string_penalty_scope = tick`, a tick with a shot or a decline adds the string
    /// penalty at its end, the string staying open (TICK-GUN-5, -7).
    StringPenalty {
        /// Who.
        who: CombatantId,
        /// p added.
        p: i32,
    },
    /// A firing string closed (TICK-GUN-5): its penalty and any held-back shots.
    StringClosed {
        /// Who.
        who: CombatantId,
        /// p added.
        p: i32,
    },
    /// Stability recovery (TICK-STAB-2).
    Recovered {
        /// Who.
        who: CombatantId,
        /// p before.
        from: i32,
        /// p after.
        to: i32,
    },
    /// Effort regenerated (TICK-TRACK-2).
    Rested {
        /// Who.
        who: CombatantId,
        /// Effort gained.
        effort: i32,
    },
    /// Down: Body ≤ 0 (TICK-TRACK-1).
    Down {
        /// Who.
        who: CombatantId,
    },
    /// KnockedOut: Trauma too high (TICK-TRACK-3).
    KnockedOut {
        /// Who.
        who: CombatantId,
    },
    /// A game master's adjustment at a live table: a track set by hand, or the combatant taken
    /// out of the fight.
    Adjusted {
        /// Whose.
        who: CombatantId,
        /// What changed.
        change: crate::board::Change,
    },
    /// The fight is over (TICK-TRACK-6).
    #[serde(skip)]
    Ended {
        /// The result.
        result: FightResult,
    },
}

/// One combatant during the fight.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Fighter {
    /// Square.
    pub pos: Square,
    /// Body.
    pub body: i32,
    /// Trauma.
    pub trauma: i32,
    /// Wounds.
    pub wounds: i32,
    /// Effort.
    pub effort: i32,
    /// Stability penalty.
    pub p: i32,
    /// p at the start of the tick (defence rolls, TICK-TIME-4).
    pub p0: i32,
    /// p from its own costs this tick (ready, shots, blows): never counted in its defence.
    pub own_p: i32,
    /// Aiming at the start of the tick (TICK-DEF-6 under `effort_stability_scope = aiming_only`).
    pub aiming0: bool,
    /// Effort at the start of the tick (TICK-DEF-8).
    pub effort0: i32,
    /// The square held at the start of the tick (its cover counts this tick).
    pub square0: Square,
    /// Gun ready.
    pub ready: bool,
    /// Aim target.
    pub aim_target: Option<CombatantId>,
    /// Consecutive aim ticks.
    pub aim_ticks: i32,
    /// A firing string is open.
    pub string_open: bool,
    /// Shots in the open string.
    pub string_shots: i32,
    /// Held-back shot penalty (TICK-GUN-7).
    pub held: i32,
    /// Consecutive running ticks.
    pub run_ticks: i32,
    /// Down.
    pub down: bool,
    /// KnockedOut.
    pub knocked_out: bool,
    /// This tick's announcement.
    pub announced: Option<Action>,
    /// This tick: fired or declined.
    pub fired: bool,
    /// This tick: attacked (aborts and declines included).
    pub attacked: bool,
    /// This tick: defended.
    pub defended: bool,
    /// This tick: ran.
    pub ran: bool,
    /// This tick: p rose.
    pub p_rose: bool,
    /// This tick: an attack roll was made against it (aim spoiling).
    pub attacked_upon: bool,
    /// Last tick: an attack roll was made against it (the `steady` policy's "under fire").
    pub under_fire: bool,
    /// This tick: an attack roll, of any kind, was made at it (aborted and declined ones too).
    pub rolled_at: bool,
    /// Last tick: an attack roll was made at it (the melee policy's "pressed", whatever
    /// `aim_spoil` says).
    pub pressed: bool,
    /// This tick's dive square.
    pub dive: Option<Square>,
    /// Pending Body loss.
    pub pend_body: i32,
    /// Pending Trauma.
    pub pend_trauma: i32,
    /// Pending wounds.
    pub pend_wounds: i32,
    /// Pending effort spent defending.
    pub pend_effort: i32,
    /// Pending p from that effort.
    pub pend_p: i32,
    /// Idle ticks in a row, and p when the streak began (TICK-STAB-5).
    pub idle: (i32, i32),
    /// Taken out of the fight by the game master (and Down).
    pub removed: bool,
    /// Added by the game master and not yet in the fight (taken out until it joins).
    pub absent: bool,
}

impl Fighter {
    /// Out of the fight (TICK-TRACK-5).
    pub fn out(&self) -> bool {
        self.down || self.knocked_out
    }

    /// Whether the tick so far has been idle for it (TICK-STAB-5): nothing announced but
    /// nothing, not attacked upon, no defence.
    pub fn idle_tick(&self) -> bool {
        !(self.announced.is_some_and(|a| a != Action::Nothing) || self.attacked_upon || self.defended)
    }
}

/// The state of a fight.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct State {
    /// The current tick (0 before the first).
    pub tick: u32,
    /// The fighters, by `CombatantId`.
    pub fighters: Vec<Fighter>,
}

impl State {
    /// One fighter.
    pub fn fighter(&self, who: CombatantId) -> &Fighter {
        &self.fighters[who.index()]
    }

    fn at(&mut self, who: CombatantId) -> &mut Fighter {
        &mut self.fighters[who.index()]
    }

    /// Who stands in a square, if anyone.
    pub fn occupant(&self, square: Square) -> Option<CombatantId> {
        self.fighters.iter().position(|f| f.pos == square && !f.out()).map(|i| CombatantId(i as u16))
    }
}

/// Wounds stop counting here (each is −`wound_penalty`; a bound keeps every roll total finite).
pub const MAX_WOUNDS: i32 = 1000;

/// The stability after one tick of recovery (TICK-STAB-2): p − ⌊√p⌋.
pub fn recover(p: i32) -> i32 {
    if p <= 0 {
        return 0;
    }
    let r = (f64::from(p)).sqrt() as i32;
    // A guard: the square root of an `i32` in `f64` is exact enough that its floor is ⌊√p⌋
    // already, so neither correction below ever applies, and cargo-mutants' mutants of their
    // tests are equivalent (TESTING.md). They keep the floor exact if the type ever widens.
    let r = if (r + 1) * (r + 1) <= p {
        r + 1
    } else if r * r > p {
        r - 1
    } else {
        r
    };
    p - r
}

/// p after `k` ticks of recovery (TICK-STAB-3: k single steps).
pub fn recover_ticks(p: i32, k: u32) -> i32 {
    (0..k).fold(p, |p, _| recover(p))
}

/// The draft's printed table (TICK-STAB-5): the formula, except 14 after 2 ticks, printed 9.
pub fn printed_table(p: i32, k: u32) -> i32 {
    if p == 14 && k == 2 { 9 } else { recover_ticks(p, k) }
}

/// The ruleset.
#[derive(Clone, Copy, Debug)]
pub struct Ticks;

impl Ruleset for Ticks {
    const ID: &'static str = "ticks";
    type Setup = Setup;
    type State = State;
    type Event = Event;
    type Request = Request;
    type Choice = Choice;

    fn initial_state(setup: &Setup) -> State {
        let mut state = State::default();
        Self::reset_state(setup, &mut state);
        state
    }

    fn reset_state(setup: &Setup, state: &mut State) {
        state.tick = 0;
        state.fighters.clear();
        state.fighters.extend((0..setup.combatants.len()).map(|i| {
            let mut fighter = fresh(setup, i);
            if setup.joins_late(i) {
                status::absent(&mut fighter);
            }
            fighter
        }));
    }

    // Inlined into every emit, where the event's kind is known: only its own arm is left.
    #[inline(always)]
    fn apply(setup: &Setup, state: &mut State, event: &Event) {
        match *event {
            Event::TickStarted { tick } => {
                state.tick = tick;
                for f in &mut state.fighters {
                    if !f.ran {
                        f.run_ticks = 0;
                    }
                    f.p0 = f.p;
                    f.own_p = 0;
                    f.aiming0 = f.aim_target.is_some();
                    f.effort0 = f.effort;
                    f.square0 = f.pos;
                    f.announced = None;
                    f.fired = false;
                    f.attacked = false;
                    f.defended = false;
                    f.ran = false;
                    f.p_rose = false;
                    f.under_fire = f.attacked_upon;
                    f.pressed = f.rolled_at;
                    f.rolled_at = false;
                    f.attacked_upon = false;
                    f.dive = None;
                }
            }
            Event::Order { .. } | Event::Blocked { .. } | Event::TieRerolled | Event::OutOfReach { .. } => {}
            Event::Announced { who, action } => state.at(who).announced = Some(action),
            Event::Moved { who, to, run, .. } => {
                let f = state.at(who);
                f.pos = to;
                if run {
                    f.ran = true;
                    f.run_ticks += 1;
                }
            }
            Event::Readied { who, penalty } => {
                let f = state.at(who);
                f.ready = true;
                f.p += penalty;
                f.own_p += penalty;
                f.p_rose |= penalty > 0;
            }
            Event::Lowered { who } => state.at(who).ready = false,
            Event::Aimed { who, target, ticks } => {
                let f = state.at(who);
                f.aim_target = Some(target);
                f.aim_ticks = ticks;
            }
            Event::AimEnded { who, .. } => {
                let f = state.at(who);
                f.aim_target = None;
                f.aim_ticks = 0;
            }
            Event::AttackRoll { who, target, kind, .. } => {
                state.at(who).attacked = true;
                state.at(target).rolled_at = true;
                // Any attack roll at an aimer spoils its aim (TICK-AIM-4): a blow's roll at once,
                // an aborted one included; a shot's only when fired (the defence), since a
                // declined shot does not (TICK-GUN-8).
                if kind != Kind::Shot && !setup.options.spoil_shots_only {
                    state.at(target).attacked_upon = true;
                }
            }
            Event::Declined { who } => {
                let f = state.at(who);
                f.fired = true;
                f.string_open = true;
            }
            Event::Aborted { .. } => {}
            Event::Cost { who, p, effort, held, string, attack } => {
                let f = state.at(who);
                f.p += p;
                f.own_p += p;
                f.p_rose |= p > 0;
                f.effort = (f.effort - effort).max(0);
                f.held += held;
                if string {
                    f.fired = true;
                    f.string_open = true;
                    f.string_shots += 1;
                }
                if attack {
                    f.attacked = true;
                }
            }
            Event::Released { who, p } => {
                let f = state.at(who);
                f.p += p;
                f.own_p += p;
                f.held -= p;
                f.p_rose |= p > 0;
            }
            Event::Defence { who, dive, kind, .. } => {
                let f = state.at(who);
                f.defended = true;
                // Fired upon: an answered attack roll spoils an aim (TICK-AIM-4); a declined
                // shot or an aborted blow is never answered.
                if !setup.options.spoil_shots_only || kind == Kind::Shot {
                    f.attacked_upon = true;
                }
                if dive.is_some() {
                    f.dive = dive;
                }
            }
            Event::Exchange { target, effort, p, .. } => {
                let f = state.at(target);
                f.pend_effort += effort;
                f.pend_p += p;
            }
            Event::Hit { target, body, trauma, wounds, .. } => {
                let f = state.at(target);
                f.pend_body += body;
                f.pend_trauma += trauma;
                f.pend_wounds += wounds;
            }
            Event::WoundCheck { who, wound, .. } => {
                if wound {
                    state.at(who).pend_wounds += 1;
                }
            }
            Event::Settled { who, body, trauma, wounds, effort, p, all } => {
                let f = state.at(who);
                f.body -= body;
                f.trauma += trauma;
                f.wounds = (f.wounds + wounds).min(MAX_WOUNDS);
                f.effort = (f.effort - effort).max(0);
                f.p += p;
                f.p_rose |= p > 0;
                f.pend_body -= body;
                f.pend_trauma -= trauma;
                f.pend_wounds -= wounds;
                if all {
                    // The tick's whole tally is settled, whatever stopped at 0.
                    f.pend_effort = 0;
                    f.pend_p = 0;
                }
            }
            Event::StringPenalty { who, p } => {
                let f = state.at(who);
                f.p += p;
                f.p_rose |= p > 0;
            }
            Event::StringClosed { who, p } => {
                let f = state.at(who);
                f.p += p;
                f.p_rose |= p > 0;
                f.string_open = false;
                f.string_shots = 0;
                f.held = 0;
            }
            Event::Recovered { who, to, .. } => {
                let f = state.at(who);
                f.idle =
                    if f.idle_tick() { (f.idle.0 + 1, if f.idle.0 == 0 { f.p } else { f.idle.1 }) } else { (0, to) };
                f.p = to;
            }
            Event::Rested { who, effort } => state.at(who).effort += effort,
            Event::Down { who } => {
                let f = state.at(who);
                f.down = true;
                f.string_open = false;
                f.aim_target = None;
                f.aim_ticks = 0;
            }
            Event::KnockedOut { who } => {
                let f = state.at(who);
                f.knocked_out = true;
                f.string_open = false;
                f.aim_target = None;
                f.aim_ticks = 0;
            }
            Event::Ended { .. } => {}
            Event::Adjusted { who, change } => status::adjust(setup, state, who, &change),
        }
    }

    fn end_after_adjustment(setup: &Setup, state: &State) -> Option<(FightResult, Event)> {
        let standing = state.fighters.iter().zip(&setup.combatants).filter(|(f, _)| !f.out());
        crate::end_after_adjustment(standing.map(|(_, c)| c.side), state.tick, |result| Event::Ended { result })
    }

    fn ended(event: &Event) -> Option<FightResult> {
        if let Event::Ended { result } = event { Some(*result) } else { None }
    }

    fn tally(event: &Event) -> Option<Tally> {
        match *event {
            Event::Exchange { attacker, hit, .. } => Some(Tally::Attack { by: attacker, hit, crit: false }),
            Event::Hit { by, target, body, trauma, .. } => {
                Some(Tally::Damage { by: Some(by), to: target, amount: body + trauma })
            }
            Event::Down { who } | Event::KnockedOut { who } => Some(Tally::Downed { who }),
            _ => None,
        }
    }

    fn check_choice(_setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
        match (request, choice) {
            (Request::Announce { .. }, Choice::Announce(_)) => Ok(()),
            (Request::Abort { .. } | Request::Decline { .. }, Choice::Yes(_)) => Ok(()),
            _ => Err(format!("{choice:?} does not answer {request:?}")),
        }
    }

    fn run<D: Dice, P: Decider<Self>, S: Sink<Event>>(
        fight: &mut Fight<'_, Self, D, P, S>,
    ) -> Result<FightResult, FightError> {
        run::run(fight)
    }
}

/// A combatant's fighter as the fight starts, or as it joins the fight mid-way.
pub(super) fn fresh(setup: &Setup, i: usize) -> Fighter {
    let c = &setup.combatants[i];
    Fighter {
        pos: c.position,
        square0: c.position,
        body: c.body,
        trauma: c.trauma,
        wounds: c.wounds,
        effort: c.effort,
        effort0: c.effort,
        p: c.stability,
        p0: c.stability,
        ready: c.gun_ready && c.gun.is_some(),
        down: c.body <= 0,
        knocked_out: c.body > 0 && c.trauma >= if setup.options.trauma_vs_current { c.body } else { c.body_max },
        // Its p is read only after an idle tick (`idle.0 > 0`), and the first idle tick takes
        // the p of its own: the field deleted (0) is an equivalent mutant (TESTING.md).
        idle: (0, c.stability),
        ..Fighter::default()
    }
}
