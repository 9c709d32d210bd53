//! `hardboiled`: USR Hard Boiled pulp combat (catalogue: shared/rules/hardboiled.md).
//!
//! Combat turns of declared intent, initiative on the Action die (the Ego die for powers) with
//! its tie rules, and resolution in order: melee and other activities as contests of attribute
//! dice with specialisms, weapon bonuses and modifiers; ranged attacks against range-band
//! difficulties with the gun's damage added; criticals and fumbles with their confirming d10; the
//! d10 hit location, cover that a location can hide behind and penetration; armour by location;
//! brawling at half damage; the knock-out tally; Second Wind. `odds.rs` gives the exact damage
//! distribution of one attack.

pub mod attack;
mod front;
pub mod guide;
pub mod odds;
pub mod options;
pub mod policy;
mod run;
pub mod scenario;
pub mod setup;
pub mod status;

use fray_engine::{CombatantId, Dice, Fight, FightError, FightResult, Pos, Ruleset, Sink, Tally};
pub use front::{HardBoiledScenario, events_schema};
pub use options::Options;
pub use setup::Setup;
use smallvec::SmallVec;

/// A short list stored inline.
pub type List<T, const N: usize> = SmallVec<[T; N]>;

/// The `hardboiled` ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct HardBoiled;

/// A body part (USR-LOC-2) and the d10 face that stands for it in a called shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Part {
    /// 1.
    Head,
    /// 2–4.
    Torso,
    /// 5.
    RightArm,
    /// 6.
    LeftArm,
    /// 7–8.
    RightLeg,
    /// 9–10.
    LeftLeg,
}

impl Part {
    /// The part a location face hits (USR-LOC-2).
    pub fn of(face: u8) -> Part {
        match face {
            1 => Part::Head,
            2..=4 => Part::Torso,
            5 => Part::RightArm,
            6 => Part::LeftArm,
            7 | 8 => Part::RightLeg,
            _ => Part::LeftLeg,
        }
    }

    /// The face a called shot at this part stands for.
    pub fn face(self) -> u8 {
        match self {
            Part::Head => 1,
            Part::Torso => 2,
            Part::RightArm => 5,
            Part::LeftArm => 6,
            Part::RightLeg => 7,
            Part::LeftLeg => 9,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        ["head", "torso", "right arm", "left arm", "right leg", "left leg"][self as usize]
    }

    /// Every part.
    pub const ALL: [Part; 6] = [Part::Head, Part::Torso, Part::RightArm, Part::LeftArm, Part::RightLeg, Part::LeftLeg];
}

/// An Other activity (USR-ACT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Activity {
    /// Grapple (Action).
    Grapple,
    /// Shove (Action).
    Shove,
    /// Trip (Action).
    Trip,
    /// Intimidate (Ego).
    Intimidate,
    /// Trick (Wits).
    Trick,
    /// Anything else, unopposed, against a difficulty (Action).
    Task,
}

impl Activity {
    /// Its name (and specialism tag).
    pub fn name(self) -> &'static str {
        // A label (its die's in the log, the text's): the rules match specialisms by the bits of
        // `attack::attacker_tags`, not by this name (TESTING.md: not rule code).
        ["grapple", "shove", "trip", "intimidate", "trick", "task"][self as usize]
    }

    /// The attribute that matches it (USR-DICE-7).
    pub fn attribute(self) -> setup::Attr {
        match self {
            Activity::Intimidate => setup::Attr::Ego,
            Activity::Trick => setup::Attr::Wits,
            _ => setup::Attr::Action,
        }
    }
}

/// What a combatant does, declared or chosen at its step.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Act {
    /// Move to a point (USR-MOVE-1).
    Move(Pos),
    /// Attack: with the wielded weapon or with fists; a called shot names a part (USR-LOC-4);
    /// `off_balance` marks a shot fired while moving (USR-RNG-7).
    Attack {
        /// The target.
        target: CombatantId,
        /// Fists instead of the wielded weapon.
        fists: bool,
        /// A called shot.
        called: Option<Part>,
        /// Marked off balance by the script or the GM.
        off_balance: bool,
    },
    /// An Ego power used as an attack: an Ego contest (USR-INIT-2, USR-DICE-7).
    Power(CombatantId),
    /// An Other activity against an opponent, or unopposed against a difficulty.
    Other {
        /// What.
        activity: Activity,
        /// The opponent, if any.
        target: Option<CombatantId>,
        /// The difficulty when unopposed.
        difficulty: i32,
    },
    /// Pick up a dropped weapon (an Other activity with no roll).
    PickUp,
    /// End the turn.
    End,
}

impl Act {
    /// The kind of action: 0 move, 1 attack (attacks, powers), 2 other.
    pub fn kind(&self) -> u8 {
        match self {
            Act::Move(_) => 0,
            Act::Attack { .. } | Act::Power(_) => 1,
            Act::Other { .. } | Act::PickUp => 2,
            Act::End => 3,
        }
    }

    /// Its target, if any.
    pub fn target(&self) -> Option<CombatantId> {
        match self {
            Act::Attack { target, .. } | Act::Power(target) => Some(*target),
            Act::Other { target, .. } => *target,
            _ => None,
        }
    }
}

/// A die roll with its natural value and total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Roll {
    /// The die (sides).
    pub die: u8,
    /// The natural face.
    pub natural: u8,
    /// The total.
    pub total: i32,
}

/// A decision request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// The Declare phase: state an intent, or none (USR-ROUND-2).
    Declare,
    /// The next thing to do at this combatant's step.
    Act {
        /// A Move is still allowed.
        can_move: bool,
        /// Attack rolls still allowed.
        attacks_left: u8,
        /// An Other activity (or attack) is still allowed.
        can_act: bool,
    },
    /// Use Second Wind now? (USR-RES-6)
    SecondWind {
        /// HP now.
        hp: i32,
        /// Maximum HP.
        max: i32,
    },
    /// `undeclared_action = gm_prompt`: does this undeclared action go ahead? (USR-ROUND-3)
    GmRuling {
        /// The action.
        act: Act,
    },
    /// `fumble_effect = gm_table`: the fumble's effect, off the GM's table (USR-FUM-4).
    GmFumble,
}

/// An answer.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Choice {
    /// A declaration, or none.
    Intent(Option<Act>),
    /// An action.
    Act(Act),
    /// Yes or no.
    Yes(bool),
    /// A fumble's effect: lose the next action, drop the weapon or none (USR-FUM-4).
    Fumble(options::FumbleEffect),
}

/// One combatant during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// HP.
    pub hp: i32,
    /// Maximum HP.
    pub hp_max: i32,
    /// Recorded damage this turn (USR-TRACK-4).
    pub tally: i32,
    /// KnockedOut through this turn (0: not; `u32::MAX`: the rest of the fight).
    pub ko_until: u32,
    /// Loses its Attack or Other activity in this turn (a fumble, USR-FUM-4).
    pub lose_action_turn: u32,
    /// Its weapon is on the floor.
    pub dropped: bool,
    /// Second Wind used.
    pub second_wind_used: bool,
    /// Moved this turn.
    pub moved: bool,
    /// Attack rolls this turn.
    pub attacks: u8,
    /// An Other activity (or a power) this turn.
    pub acted: bool,
    /// A shot fired this turn without the off-balance penalty.
    pub steady_shot: bool,
    /// Started the turn within an enemy's reach (the reach bonus, USR-INIT-6).
    pub started_engaged: bool,
    /// Moved out of an enemy's reach it stood in when its step began (USR-MOVE-2).
    pub disengaged: bool,
    /// Position.
    pub pos: Pos,
    /// Behind its cover (at its starting position).
    pub in_cover: bool,
    /// This turn's declaration.
    pub declared: Option<Act>,
    /// Attacked, moved or knocked out this turn (USR-ROUND-3).
    pub acted_on: bool,
    /// Has been within reach of an enemy before (USR-INIT-6).
    pub engaged_before: bool,
    /// Move halved by a leg wound (USR-LOC-5).
    pub lame: bool,
    /// Initiative this turn.
    pub init: i32,
    /// Taken out of the fight by the game master (and at 0 HP at most).
    pub removed: bool,
    /// Added by the game master and not yet in the fight (taken out until it joins).
    pub absent: bool,
}

impl Fighter {
    /// Down (USR-TRACK-3).
    pub fn down(&self) -> bool {
        self.hp <= 0
    }

    /// KnockedOut in `turn`.
    pub fn knocked_out(&self, turn: u32) -> bool {
        // Every caller passes a turn of 1 or more (`turn.max(1)` before the first turn), where
        // `ko_until >= turn` already means `ko_until > 0`: the second test only keeps turn 0
        // right, and cargo-mutants' `>` → `>=` in it is equivalent for them (TESTING.md).
        self.ko_until >= turn && self.ko_until > 0
    }

    /// Out of the fight (USR-ROUND-6).
    pub fn out(&self, options: &Options, turn: u32) -> bool {
        self.down() || (!options.down_only && self.knocked_out(turn))
    }

    /// Able to act (USR-ROUND-5).
    pub fn able(&self, turn: u32) -> bool {
        !self.down() && !self.knocked_out(turn)
    }
}

/// Everything that changes during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The combat turn.
    pub turn: u32,
    /// Combatants in roster order.
    pub fighters: Vec<Fighter>,
}

impl State {
    /// One fighter.
    pub fn fighter(&self, who: CombatantId) -> &Fighter {
        &self.fighters[who.index()]
    }

    /// Distance in metres.
    pub fn distance(&self, a: CombatantId, b: CombatantId) -> f64 {
        self.fighters[a.index()].pos.distance(self.fighters[b.index()].pos)
    }
}

/// What a confirm d10 was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Opportunity {
    /// A critical (USR-CRIT-2).
    Critical,
    /// A fumble (USR-FUM-2).
    Fumble,
}

/// A change to the state, or a line of the log.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Maximum HP rolled (USR-TRACK-1) or set to the largest faces (USR-TRACK-2).
    HpSet {
        /// Who.
        who: CombatantId,
        /// The Action and Wits faces (0 when not rolled).
        faces: [u8; 2],
        /// Maximum HP.
        max: i32,
    },
    /// A combat turn begins (USR-ROUND-1).
    TurnStarted {
        /// Its number.
        turn: u32,
    },
    /// A declaration (USR-ROUND-2).
    Declared {
        /// Who.
        who: CombatantId,
        /// The intent.
        intent: Act,
    },
    /// An initiative roll (USR-INIT-1/2/6).
    Initiative {
        /// Who.
        who: CombatantId,
        /// The die rolled and its natural face.
        roll: Roll,
        /// Reach bonus.
        bonus: i32,
    },
    /// A tie reroll (USR-INIT-4).
    TieBreak {
        /// Who.
        who: CombatantId,
        /// The face.
        face: u8,
    },
    /// The order of the turn: each combatant with its step.
    Order {
        /// (combatant, step) in acting order.
        order: List<(CombatantId, u8), 8>,
    },
    /// Moves.
    Moved {
        /// Who.
        who: CombatantId,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// Behind its cover afterwards.
        in_cover: bool,
    },
    /// An action fails or is lost without a roll (USR-ROUND-3/4, USR-FUM-4).
    Failed {
        /// Who.
        who: CombatantId,
        /// The action.
        act: Act,
        /// Why.
        why: &'static str,
    },
    /// A contest or unopposed roll: an attack, a power, an Other activity.
    Contest {
        /// Who acts.
        who: CombatantId,
        /// What.
        act: Act,
        /// The actor's roll.
        roll: Roll,
        /// The opponent's roll (contests).
        against: Option<Roll>,
        /// The difficulty (unopposed rolls).
        difficulty: Option<i32>,
        /// The totals itemised: each roll's total is its die plus its side's terms; a shot's
        /// difficulty is its band's plus the opponent's terms (USR-DICE-6, USR-RNG-2).
        terms: attack::ContestTerms,
        /// Margin.
        margin: i32,
        /// Success (a hit).
        success: bool,
        /// A confirmed critical (USR-CRIT-2, USR-CRIT-6).
        critical: bool,
        /// Declared (false: logged `undeclared`).
        declared: bool,
    },
    /// A weapon's damage dice, every face logged (USR-RNG-8, USR-DICE-5).
    DamageRoll {
        /// Who rolls.
        who: CombatantId,
        /// The die's sides.
        sides: u8,
        /// The faces.
        faces: List<u8, 8>,
        /// The constant added.
        plus: i32,
    },
    /// A confirm d10 (USR-CRIT-2, USR-FUM-2).
    Confirm {
        /// Who.
        who: CombatantId,
        /// What for.
        kind: Opportunity,
        /// The face.
        face: u8,
        /// Confirmed.
        confirmed: bool,
    },
    /// A hit: location, cover, armour, damage (USR-DMG-1).
    Hit {
        /// Who dealt it.
        by: CombatantId,
        /// Who took it.
        target: CombatantId,
        /// The location face (a called shot's stand-in face).
        face: u8,
        /// Called.
        called: bool,
        /// Base damage (margin, plus the gun's damage).
        base: i32,
        /// The gun's damage roll, if any.
        weapon_damage: Option<i32>,
        /// Stopped by cover.
        cover_stopped: bool,
        /// Stopping power subtracted.
        stop: i32,
        /// Ward subtracted.
        ward: i32,
        /// A critical hit (armour ignored).
        critical: bool,
        /// Recorded damage.
        recorded: i32,
        /// HP lost.
        hp_loss: i32,
        /// HP after.
        hp: i32,
        /// Tally after.
        tally: i32,
    },
    /// KnockedOut through turn `until` (USR-TRACK-4/7).
    KnockedOut {
        /// Who.
        who: CombatantId,
        /// Last turn out (`u32::MAX`: the fight).
        until: u32,
    },
    /// Down (USR-TRACK-3).
    Down {
        /// Who.
        who: CombatantId,
    },
    /// Out of the fight now (USR-ROUND-6), for the ledger.
    Out {
        /// Who.
        who: CombatantId,
    },
    /// Second Wind (USR-RES-*).
    SecondWind {
        /// Who.
        who: CombatantId,
        /// HP gained.
        gained: i32,
        /// HP after.
        hp: i32,
        /// The line acted out (USR-RES-9): a person's own words, or `None` for the stock line
        /// the simulation fills in ([`second_wind_line`]), so that no fight allocates one.
        line: Option<String>,
    },
    /// A fumble's effect (USR-FUM-4).
    Fumbled {
        /// Who.
        who: CombatantId,
        /// The effect.
        effect: options::FumbleEffect,
    },
    /// The wielded weapon is picked up again.
    PickedUp {
        /// Who.
        who: CombatantId,
    },
    /// An arm wound makes the combatant drop its weapon (USR-LOC-5).
    Dropped {
        /// Who.
        who: CombatantId,
    },
    /// A leg wound halves Move (USR-LOC-5).
    Lamed {
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
    /// The fight is over.
    #[serde(skip)]
    Ended {
        /// How.
        result: FightResult,
    },
}

impl Ruleset for HardBoiled {
    const ID: &'static str = "hardboiled";
    type Setup = Setup;
    type State = State;
    type Event = Event;
    type Request = Request;
    type Choice = Choice;

    fn initial_state(setup: &Setup) -> State {
        let mut state = State { turn: 0, fighters: Vec::with_capacity(setup.combatants.len()) };
        Self::reset_state(setup, &mut state);
        state
    }

    fn reset_state(setup: &Setup, state: &mut State) {
        state.turn = 0;
        state.fighters.clear();
        for i in 0..setup.combatants.len() {
            let mut fighter = fresh(setup, i);
            if setup.joins_late(i) {
                status::absent(&mut fighter);
            }
            state.fighters.push(fighter);
        }
    }

    // Inlined into every emit, where the event's kind is known: only its own arm is left.
    #[inline(always)]
    fn apply(setup: &Setup, state: &mut State, event: &Event) {
        match event {
            Event::HpSet { who, max, .. } => {
                let x = &mut state.fighters[who.index()];
                x.hp_max = *max;
                x.hp = setup.combatants[who.index()].hp.unwrap_or(*max);
            }
            Event::TurnStarted { turn } => {
                state.turn = *turn;
                for x in &mut state.fighters {
                    x.engaged_before |= x.started_engaged;
                    x.tally = 0;
                    x.moved = false;
                    x.attacks = 0;
                    x.acted = false;
                    x.steady_shot = false;
                    x.disengaged = false;
                    x.declared = None;
                    x.acted_on = false;
                    x.started_engaged = false;
                }
                // Who starts the turn within an enemy's reach (USR-INIT-6).
                let reach = setup.options.melee_reach_m;
                for i in 0..state.fighters.len() {
                    let engaged = (0..state.fighters.len()).any(|j| {
                        j != i
                            && setup.combatants[j].side != setup.combatants[i].side
                            && !state.fighters[j].down()
                            && state.fighters[i].pos.distance(state.fighters[j].pos) <= reach + 1e-9
                    });
                    state.fighters[i].started_engaged = engaged;
                }
            }
            Event::Declared { who, intent } => state.fighters[who.index()].declared = Some(*intent),
            Event::Initiative { who, roll, bonus } => state.fighters[who.index()].init = roll.total + bonus,
            Event::TieBreak { .. }
            | Event::Order { .. }
            | Event::Confirm { .. }
            | Event::DamageRoll { .. }
            | Event::Ended { .. } => {}
            Event::Adjusted { who, change } => status::adjust(setup, state, *who, change),
            Event::Moved { who, to, in_cover, .. } => {
                // Out of an enemy's melee reach that held it where it stood (USR-MOVE-2).
                let disengaged = policy::disengages(setup, state, *who, *to);
                let x = &mut state.fighters[who.index()];
                x.pos = *to;
                x.moved = true;
                x.in_cover = *in_cover;
                x.acted_on = true;
                x.disengaged = disengaged;
            }
            Event::Failed { who, act, .. } => {
                let x = &mut state.fighters[who.index()];
                match act.kind() {
                    1 => x.attacks = x.attacks.saturating_add(1),
                    2 => x.acted = true,
                    _ => {}
                }
            }
            Event::Contest { who, act, .. } => {
                let x = &mut state.fighters[who.index()];
                match act {
                    Act::Attack { off_balance, .. } => {
                        x.attacks = x.attacks.saturating_add(1);
                        let ranged = !matches!(act, Act::Attack { fists: true, .. })
                            && setup.combatants[who.index()].weapon.ranged
                            && !x.dropped;
                        if ranged && !off_balance && !x.moved {
                            x.steady_shot = true;
                        }
                    }
                    Act::Power(_) => x.attacks = x.attacks.saturating_add(1),
                    _ => x.acted = true,
                }
                if let Some(t) = act.target() {
                    state.fighters[t.index()].acted_on = true;
                }
            }
            Event::Hit { target, hp, tally, .. } => {
                let x = &mut state.fighters[target.index()];
                x.hp = *hp;
                x.tally = *tally;
            }
            Event::KnockedOut { who, until } => {
                let x = &mut state.fighters[who.index()];
                x.ko_until = *until;
                x.acted_on = true;
            }
            Event::Down { .. } | Event::Out { .. } => {}
            Event::SecondWind { who, hp, .. } => {
                let x = &mut state.fighters[who.index()];
                x.hp = *hp;
                x.second_wind_used = true;
            }
            Event::Fumbled { who, effect } => {
                let turn = state.turn;
                let x = &mut state.fighters[who.index()];
                match effect {
                    options::FumbleEffect::LoseNextAction => x.lose_action_turn = turn + 1,
                    options::FumbleEffect::DropWeapon => x.dropped = true,
                    _ => {}
                }
            }
            Event::PickedUp { who } => {
                let x = &mut state.fighters[who.index()];
                x.dropped = false;
                x.acted = true;
            }
            Event::Lamed { who } => state.fighters[who.index()].lame = true,
            Event::Dropped { who } => state.fighters[who.index()].dropped = true,
        }
    }

    fn end_after_adjustment(setup: &Setup, state: &State) -> Option<(FightResult, Event)> {
        let standing =
            state.fighters.iter().zip(&setup.combatants).filter(|(f, _)| !f.out(&setup.options, state.turn.max(1)));
        crate::end_after_adjustment(standing.map(|(_, c)| c.side), state.turn, |result| Event::Ended { result })
    }

    fn ended(event: &Event) -> Option<FightResult> {
        if let Event::Ended { result } = event { Some(*result) } else { None }
    }

    fn tally(event: &Event) -> Option<Tally> {
        match event {
            Event::Contest { who, act: Act::Attack { .. } | Act::Power(_), success, critical, .. } => {
                Some(Tally::Attack { by: *who, hit: *success, crit: *critical })
            }
            Event::Hit { by, target, recorded, .. } => {
                Some(Tally::Damage { by: Some(*by), to: *target, amount: *recorded })
            }
            Event::Out { who } => Some(Tally::Downed { who: *who }),
            _ => None,
        }
    }

    fn check_choice(setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
        policy::check(setup, request, choice)
    }

    fn run<D: Dice, P: fray_engine::Decider<Self>, S: Sink<Event>>(
        fight: &mut Fight<'_, Self, D, P, S>,
    ) -> Result<FightResult, FightError> {
        run::run(fight)
    }
}

/// The line a Second Wind is acted out with (USR-RES-9): the person's own, or the stock line.
pub fn second_wind_line(name: &str, line: Option<&str>) -> String {
    match line {
        Some(line) => line.to_owned(),
        None => format!("{name} grits their teeth and catches a second wind"),
    }
}

/// A combatant's fighter as the fight starts, or as it joins the fight mid-way.
pub(super) fn fresh(setup: &Setup, i: usize) -> Fighter {
    let sheet = &setup.combatants[i];
    let hp_max = sheet.hp_max.unwrap_or(0);
    Fighter {
        hp: sheet.hp.unwrap_or(hp_max),
        hp_max,
        tally: 0,
        ko_until: 0,
        lose_action_turn: 0,
        dropped: false,
        second_wind_used: sheet.second_wind_used && !setup.options.second_wind_per_fight,
        moved: false,
        attacks: 0,
        acted: false,
        steady_shot: false,
        started_engaged: false,
        disengaged: false,
        pos: sheet.position,
        in_cover: sheet.cover.is_some(),
        declared: None,
        acted_on: false,
        engaged_before: false,
        lame: false,
        removed: false,
        absent: false,
        init: 0,
    }
}
