//! `opend6`: the OpenD6 / D6 Space combat chapter (catalogue: shared/rules/opend6.md).
//!
//! Die codes with the Wild Die (Critical Success and Failure, Character Point dice, Fate Point
//! doubling); Perception initiative rerolled each round, NPC group rolls, simultaneous ties and
//! surprise; declaring the number of actions with −1D per extra action; waiting, resuming and
//! interrupting; passive, partial and full defence with its window until the defender's next turn;
//! range, cover, posture and environment difficulty with the floor of 3; aiming; Strength Damage
//! and the damage bonus; damage against a resistance roll on the wound ladder (stacking, killing
//! blow, stun weapons, the stay-up roll, mortal checks, Body Points); the combat options (fire
//! modes, all-out, lunge, sweeps, knockdown, push, grab and tackle, called shots, hit locations,
//! knockout, disarm); ammunition and readying; first aid. `odds.rs` gives the exact odds of one
//! attack.

pub mod attack;
mod front;
pub mod guide;
pub mod odds;
pub mod options;
pub mod policy;
pub mod roll;
mod run;
pub mod scenario;
pub mod setup;
pub mod status;

use fray_engine::{CombatantId, Dice, Fight, FightError, FightResult, Ruleset, Sink, Tally};
pub use front::{OpenD6Scenario, events_schema};
pub use options::Options;
pub use setup::Setup;
use setup::{DieCode, Level, Posture};
use smallvec::SmallVec;

/// A short list stored inline.
pub type List<T, const N: usize> = SmallVec<[T; N]>;

/// The `opend6` ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenD6;

/// One die-code roll as it fell (OD6-DICE-3..9): faces in the scripted order (regular dice, the
/// Wild Die's tosses, each Character Point die with its explosions).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Rolled {
    /// The code rolled (after Fate Point doubling and penalties).
    pub code: DieCode,
    /// Every face, in order.
    pub faces: List<u8, 16>,
    /// How many of the faces are regular dice.
    pub regular: u8,
    /// How many are Wild Die tosses.
    pub wild: u8,
    /// Character Point dice rolled.
    pub cp: u8,
    /// A Fate Point doubled the character's own dice.
    pub fate: bool,
    /// The total.
    pub total: i32,
    /// A Critical Failure cancelled the Wild Die and the highest die.
    pub critical_failure: bool,
    /// A Wild-Die 1 under `wild_die_failure = complication`.
    pub complication: bool,
    /// No dice were left: the roll could not be made (OD6-DICE-7).
    pub forfeited: bool,
}

/// Why a damage roll is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DamageCause {
    /// An attack that hit (OD6-ATK-2).
    Hit,
    /// A parry of an unarmed attack with a sharp weapon: the attacker takes the weapon's listed
    /// damage (OD6-DEF-6).
    ParryCut,
    /// A bare-handed block of a blade: the blocker takes the blade's listed damage (OD6-DEF-7).
    BodyBlock,
    /// A holder's squeeze: Strength Damage alone (OD6-SPECIAL-10).
    Squeeze,
}

impl DamageCause {
    /// The damage is the weapon's listed code alone: no Strength Damage, no bonus (OD6-DEF-6/7).
    pub fn listed_only(self) -> bool {
        matches!(self, DamageCause::ParryCut | DamageCause::BodyBlock)
    }
}

/// An active defence's kind (OD6-DEF-4, OD6-DEF-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum DefKind {
    /// Dodge: against everything.
    Dodge,
    /// Brawling block or melee parry (with a weapon): close combat only.
    Block(Option<u8>),
}

/// An active defence value in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Active {
    /// The value (roll, +10 for a full defence).
    pub value: i32,
    /// A full defence.
    pub full: bool,
    /// The parrying weapon, if any.
    pub weapon: Option<u8>,
}

/// Fire mode or close-combat manoeuvre (OD6-SPECIAL-1..10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Mode {
    /// A normal attack.
    #[default]
    Normal,
    /// Burst fire as single (OD6-SPECIAL-2).
    BurstSingle,
    /// Full auto (OD6-SPECIAL-3).
    FullAuto,
    /// Single fire as multi with e extra shots (OD6-SPECIAL-4).
    Multi(u8),
    /// Ranged sweep (OD6-SPECIAL-5).
    SweepRanged,
    /// All-out attack (OD6-SPECIAL-6).
    AllOut,
    /// Lunge (OD6-SPECIAL-7).
    Lunge,
    /// Close-combat sweep (OD6-SPECIAL-8).
    SweepClose,
    /// Knockdown or trip (OD6-SPECIAL-9).
    Knockdown,
    /// Push (OD6-SPECIAL-9).
    Push,
    /// Grab (OD6-SPECIAL-10).
    Grab,
    /// Tackle (OD6-SPECIAL-10).
    Tackle,
}

/// A hit location (OD6-SPECIAL-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Loc {
    /// +1D / +12.
    Head,
    /// +4D / +12.
    Heart,
    /// 0 / 0.
    Chest,
    /// +1D / −2.
    Arm,
    /// +1D / −1.
    Leg,
    /// +4D / −2.
    Hand,
}

/// A called shot (OD6-SPECIAL-11..13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Called {
    /// None.
    #[default]
    None,
    /// A small target: size step 1 (10–50 cm), 2 (1–10 cm) or 3 (< 1 cm); disarm or +1D damage.
    Small {
        /// Size step.
        size: u8,
        /// Disarm instead of +1D damage.
        disarm: bool,
    },
    /// A hit location.
    Location(Loc),
    /// Knockout (OD6-SPECIAL-13).
    Knockout,
}

/// One planned attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct AttackPlan {
    /// The target.
    pub target: CombatantId,
    /// The weapon (index into the sheet's weapons; the last is unarmed).
    pub weapon: u8,
    /// Fire mode or manoeuvre.
    pub mode: Mode,
    /// A second manoeuvre, only under `maneuver_stacking = free`.
    pub mode2: Mode,
    /// Called shot.
    pub called: Called,
}

impl AttackPlan {
    /// A normal attack.
    pub fn new(target: CombatantId, weapon: u8) -> AttackPlan {
        AttackPlan { target, weapon, mode: Mode::Normal, mode2: Mode::Normal, called: Called::None }
    }
}

/// What readying does (OD6-GEAR-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Ready {
    /// Draw or pick up the weapon.
    Draw,
    /// Reload to `ammo_max`.
    Reload,
    /// Switch stun ↔ normal.
    Switch,
}

/// One action (or a free move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Action {
    /// An attack.
    Attack(AttackPlan),
    /// A partial active defence (OD6-DEF-9), or a full one (OD6-DEF-8).
    Defend {
        /// Dodge or block/parry.
        kind: DefKind,
        /// Full defence: the only action of the round.
        full: bool,
    },
    /// Wait (OD6-ACT-5).
    Wait,
    /// Move to a point; `free` is the free half move (OD6-MOVE-2).
    Move {
        /// Where to.
        to: i32,
        /// The free half move, not an action.
        free: bool,
    },
    /// Aim at a target this round (OD6-ATK-4).
    Aim(CombatantId),
    /// Ready a weapon (OD6-GEAR-2).
    Ready(u8, Ready),
    /// Stand up after being forced down (OD6-DIFF-5).
    StandUp,
    /// Drop prone or crouch, or rise from a chosen posture: free (OD6-DIFF-5).
    Posture(Posture),
    /// Try to escape a hold (OD6-SPECIAL-10).
    Escape,
    /// Squeeze a held target: Strength Damage, no roll to hit (OD6-SPECIAL-10).
    Squeeze,
    /// First aid on a patient's wound level (OD6-HEAL-2).
    FirstAid(CombatantId),
    /// First aid on the unconsciousness alone of a stun-weapon or knockout victim (OD6-HEAL-2).
    Revive(CombatantId),
    /// Moving up to keep an item against a disarm (OD6-ACT-7, OD6-SPECIAL-11); not chosen directly.
    MoveUp,
    /// The Easy roll to shake off massive damage (OD6-TRACK-9).
    Recover,
    /// End the turn; the remaining declared actions are lost.
    Pass,
}

/// What a roll is for, in requests for points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollFor {
    /// An attack.
    Attack,
    /// Initiative (CP only, OD6-INIT-6).
    Initiative,
    /// Damage.
    Damage,
    /// Resistance.
    Resistance,
    /// The stay-up roll.
    StayUp,
    /// An active defence.
    Defence,
}

/// A decision request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Before initiative: declare a quick draw? (OD6-INIT-10; optional, the AI never does.)
    QuickDraw,
    /// How many actions this round (OD6-ACT-1): 1 ..= `max`.
    Declare {
        /// Most actions that leave a die to roll.
        max: u8,
    },
    /// The next action of the turn.
    Act {
        /// Actions left.
        remaining: u8,
        /// Whether this is the turn's only action (full defence, aiming, all-out allowed).
        only: bool,
        /// Farthest an action move goes; 0 = none.
        move_m: i32,
        /// Farthest the free move goes; 0 = used or none.
        free_move_m: i32,
        /// Restricted to escape attempts (held).
        held: bool,
        /// Restricted to defence and moving away (stunned `defend_only`, massive damage).
        defend_only: bool,
        /// Free posture changes and the free move are still offered.
        free_ok: bool,
    },
    /// A waiting combatant may interrupt `actor`'s action (OD6-ACT-6).
    Interrupt {
        /// Who acts.
        actor: CombatantId,
        /// The attack's target, if it is an attack.
        target: Option<CombatantId>,
        /// The attack's total so far.
        total: i32,
        /// Its difficulty against the values now in force.
        difficulty: i32,
        /// Whether it is a close-combat attack (a block or parry counts only against those,
        /// OD6-DEF-5).
        close: bool,
    },
    /// A waiting combatant may resume now (OD6-ACT-5).
    Resume {
        /// Whether the round is ending (last chance).
        last: bool,
    },
    /// A disarm: move up (one action now) and roll Strength to keep the item? (OD6-SPECIAL-11)
    MoveUp,
    /// Spend a Fate Point on the coming roll (OD6-RES-3/4): 0 no, 1 yes, 2 a climactic one.
    Fate {
        /// The roll.
        roll: RollFor,
    },
    /// Spend Character Points after seeing the roll (OD6-RES-1/2).
    Cp {
        /// The roll.
        roll: RollFor,
        /// Its total so far.
        total: i32,
        /// What it needs (the difficulty), if known.
        need: Option<i32>,
        /// Most points allowed now.
        max: u32,
    },
}

/// A quick draw (OD6-INIT-10): the weapon, the actions declared for the round, and the dice
/// moved from its skill to Perception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct QuickDraw {
    /// The weapon drawn.
    pub weapon: u8,
    /// N for the round.
    pub n: u8,
    /// Dice moved (≥ 1).
    pub k: u8,
}

/// An answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Choice {
    /// A quick draw, or none.
    QuickDraw(Option<QuickDraw>),
    /// Number of actions.
    Count(u8),
    /// An action.
    Act(Action),
    /// An interrupt, or none.
    Interrupt(Option<Action>),
    /// Resume or keep waiting.
    Resume(bool),
    /// Fate Point: 0, 1, 2 (climactic).
    Fate(u8),
    /// Character Points.
    Cp(u32),
}

/// A combatant's weapon state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeaponState {
    /// Rounds left (`None` unlimited).
    pub ammo: Option<u32>,
    /// Uses this round.
    pub uses: u8,
    /// In hand.
    pub drawn: bool,
    /// On stun.
    pub stun: bool,
}

/// One combatant during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Wound level.
    pub level: Level,
    /// Body Points (`damage_track = body_points`).
    pub bp: i32,
    /// Body Points maximum.
    pub bp_max: i32,
    /// Deepest level entered (Body Points: effects trigger once).
    pub deepest: Level,
    /// Position on the line.
    pub pos: i32,
    /// Posture.
    pub posture: Posture,
    /// Forced down: standing costs an action.
    pub forced_down: bool,
    /// The stun window is open through the end of this round (0: none).
    pub stun_until: u32,
    /// Unconscious through the end of this round (0 awake, `u32::MAX` the rest of the fight).
    pub unconscious_until: u32,
    /// Round in which he became Mortally Wounded (0 before the fight).
    pub mortal_since: Option<u32>,
    /// Actions declared this round.
    pub declared: u8,
    /// Actions used this round.
    pub used: u8,
    /// Waiting (OD6-ACT-5).
    pub waiting: bool,
    /// Turn taken (or lost) this round.
    pub turn_done: bool,
    /// Turn lost this round (OD6-DEF-3).
    pub lost_turn: bool,
    /// Free move used this round.
    pub free_moved: bool,
    /// Active dodge.
    pub dodge: Option<Active>,
    /// Active block or parry.
    pub block: Option<Active>,
    /// Aim: target, rounds, last round aimed.
    pub aim: Option<(CombatantId, u8, u32)>,
    /// Character Points left.
    pub cp: u32,
    /// Fate Points left.
    pub fp: u32,
    /// A climactic Fate Point doubles every roll this round (0: none).
    pub climactic_round: u32,
    /// The climactic Fate Point is used.
    pub climactic_used: bool,
    /// Weapons.
    pub weapons: List<WeaponState, 4>,
    /// Held by.
    pub held_by: Option<CombatantId>,
    /// −2D on the next Agility roll (knockdown, push).
    pub knock_pending: bool,
    /// Massive damage: defence and move-away only from the first round through the second
    /// (OD6-TRACK-9).
    pub restricted: Option<(u32, u32)>,
    /// The round of the last massive-damage recovery roll.
    pub recovery_round: u32,
    /// The round the active defence values were set in (OD6-DEF-3).
    pub defence_round: u32,
    /// The round the hold began (a squeeze comes in later rounds, OD6-SPECIAL-10).
    pub held_round: u32,
    /// The round of the last move (crouching while moving, OD6-DIFF-5).
    pub moved_round: u32,
    /// The level penalty when N was declared (OD6-DICE-7: a later reduction forfeits).
    pub declared_penalty: i32,
    /// Level at the start of the round (massive damage).
    pub level_at_round_start: Level,
    /// Initiative total this round.
    pub init: i32,
    /// Difficulty penalty (`negative_resistance = difficulty_penalty`).
    pub difficulty_penalty: i32,
    /// Consecutive rounds without actions (OD6-HEAL-1).
    pub idle_rounds: u32,
    /// Lasting hit-location effects: bit per [`Loc`].
    pub locations: u8,
    /// First aid received (once per day).
    pub aided: bool,
    /// +1D on the first skill roll of round 1 (`surprise_effect = bonus_1d`).
    pub surprise_bonus: bool,
    /// No active defence this round (full auto under `no_active_defense`, all-out).
    pub no_defense: bool,
    /// No actions next round (chest hit effect): the round number.
    pub no_actions_round: u32,
    /// This round's quick draw: the skill and the dice moved (OD6-INIT-10).
    pub quick_draw: Option<(setup::SkillId, u8)>,
    /// The last round an attack was rolled at him, hit or miss (0: never). Under
    /// `aim_interrupted_by = any_attack` such an attack breaks an aim (OD6-ATK-4).
    pub attacked_round: u32,
    /// Taken out of the fight by the game master (and counted as dead).
    pub removed: bool,
    /// Added by the game master and not yet in the fight (taken out until it joins).
    pub absent: bool,
}

impl Fighter {
    /// Unconscious.
    pub fn unconscious(&self) -> bool {
        self.unconscious_until > 0
    }

    /// Out of the fight (OD6-ROUND-4).
    pub fn out(&self, options: &Options) -> bool {
        self.unconscious()
            || self.level >= Level::MortallyWounded
            || (options.out_incapacitated && self.level >= Level::Incapacitated)
    }

    /// Able to act (OD6-INIT-5, OD6-COND-1).
    pub fn able(&self) -> bool {
        !self.unconscious() && self.level < Level::MortallyWounded
    }
}

/// Everything that changes during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The round.
    pub round: u32,
    /// Combatants, in scenario order.
    pub fighters: Vec<Fighter>,
    /// The turn order of the round: each combatant with its step.
    pub order: List<(CombatantId, u8), 8>,
}

impl State {
    /// One fighter.
    pub fn fighter(&self, who: CombatantId) -> &Fighter {
        &self.fighters[who.index()]
    }

    /// Whether `a` and `b` share a step of this round's order with a tie (OD6-INIT-4): a waiting
    /// combatant in that step may interrupt only after it.
    pub fn tied(&self, a: CombatantId, b: CombatantId) -> bool {
        let step = |w: CombatantId| self.order.iter().find(|o| o.0 == w).map(|o| o.1);
        step(a).is_some_and(|s| step(b) == Some(s) && self.order.iter().filter(|o| o.1 == s).count() > 1)
    }

    /// Distance on the line.
    pub fn distance(&self, a: CombatantId, b: CombatantId) -> i32 {
        (self.fighters[a.index()].pos - self.fighters[b.index()].pos).abs()
    }
}

/// A change to the state, or a line of the log.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A round begins.
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// An initiative roll (for a group: its first member, shared by all).
    Initiative {
        /// Who rolled.
        who: CombatantId,
        /// Members sharing it (the group), `who` first.
        members: List<CombatantId, 8>,
        /// The roll (`None` under surprise or a fixed order).
        roll: Option<Rolled>,
        /// The initiative bonus (OD6-INIT-7).
        bonus: i32,
        /// The total.
        total: i32,
    },
    /// The order of the round: each combatant with its step; tied combatants share a step.
    Order {
        /// (combatant, step), in acting order.
        order: List<(CombatantId, u8), 8>,
    },
    /// A turn lost: unable to act (OD6-INIT-5).
    TurnLost {
        /// Who.
        who: CombatantId,
    },
    /// A turn begins; active defences from before end (OD6-DEF-1), or at the end of a
    /// simultaneous step (`clear = false`, OD6-INIT-4).
    TurnStarted {
        /// Who.
        who: CombatantId,
        /// Whether the old active values end now.
        clear: bool,
    },
    /// The surprise bonus die is used (`surprise_effect = bonus_1d`, OD6-INIT-9).
    SurpriseUsed {
        /// Who.
        who: CombatantId,
    },
    /// N declared (OD6-ACT-1).
    Declared {
        /// Who.
        who: CombatantId,
        /// Actions.
        n: u8,
    },
    /// An action forfeited: no dice left to roll (OD6-DICE-7), or passed.
    Forfeit {
        /// Who.
        who: CombatantId,
        /// Why.
        why: &'static str,
    },
    /// An action begins (counted toward N unless free, OD6-ACT-9); a wait starts waiting.
    Acted {
        /// Who.
        who: CombatantId,
        /// The action.
        action: Action,
    },
    /// An active defence takes effect (held back to the end of a simultaneous step, OD6-INIT-4).
    DefenceSet {
        /// Who.
        who: CombatantId,
        /// Dodge, block or parry.
        kind: DefKind,
        /// The value.
        active: Active,
    },
    /// A combatant is out of the fight (OD6-ROUND-4), for the ledger.
    Out {
        /// Who.
        who: CombatantId,
    },
    /// Resumes after a wait, or interrupts.
    Resumed {
        /// Who.
        who: CombatantId,
        /// As an interrupt of this combatant's action, after its roll of this total.
        interrupting: Option<(CombatantId, i32)>,
    },
    /// Points spent.
    Points {
        /// Who.
        who: CombatantId,
        /// Character Points.
        cp: u32,
        /// Fate Points (2: the climactic one).
        fp: u8,
    },
    /// An active defence roll (OD6-DEF-1, -8, -9).
    Defence {
        /// Who.
        who: CombatantId,
        /// Dodge, block or parry.
        kind: DefKind,
        /// Full defence.
        full: bool,
        /// The roll.
        roll: Rolled,
        /// The value in force.
        value: i32,
    },
    /// Active defence values end.
    DefenceEnded {
        /// Who.
        who: CombatantId,
    },
    /// An attack.
    Attack {
        /// Attacker.
        attacker: CombatantId,
        /// Target.
        target: CombatantId,
        /// Weapon.
        weapon: u8,
        /// The plan.
        plan: AttackPlan,
        /// The roll.
        roll: Rolled,
        /// Base of the difficulty (10 or the active value).
        base: i32,
        /// The difficulty.
        difficulty: i32,
        /// The difficulty's terms beyond its base: `base` plus their sum is the difficulty
        /// (OD6-DIFF-1..6).
        terms: attack::DifficultyTerms,
        /// Hit.
        hit: bool,
    },
    /// Ammunition used (OD6-GEAR-1).
    Ammo {
        /// Who.
        who: CombatantId,
        /// Weapon.
        weapon: u8,
        /// Rounds used.
        used: u32,
    },
    /// A damage roll.
    Damage {
        /// Why it is rolled: a hit, or a defence's backlash.
        cause: DamageCause,
        /// Who dealt it.
        by: Option<CombatantId>,
        /// Who takes it.
        target: CombatantId,
        /// The roll.
        roll: Rolled,
        /// Fixed modifiers (hit location).
        fixed: i32,
        /// Damage bonus (OD6-DMG-4).
        bonus: i32,
        /// The damage total.
        total: i32,
    },
    /// A resistance roll (OD6-DMG-6).
    Resist {
        /// Who.
        who: CombatantId,
        /// The roll (`None`: no dice, e.g. Body Points without armour).
        roll: Option<Rolled>,
        /// The total used.
        total: i32,
    },
    /// A wound result (OD6-DMG-7..10, OD6-TRACK-2).
    Wound {
        /// Who.
        who: CombatantId,
        /// Who dealt it.
        by: Option<CombatantId>,
        /// Injury margin D (or Body Points lost).
        margin: i32,
        /// The incoming level after killing blow, stun and knockout reductions.
        incoming: Level,
        /// Level before.
        from: Level,
        /// Level after.
        to: Level,
        /// Body Points after (Body Points track).
        bp: i32,
    },
    /// The stun window opens through the end of `until` (OD6-TRACK-5).
    StunWindow {
        /// Who.
        who: CombatantId,
        /// Last round of the window.
        until: u32,
    },
    /// The stay-up roll (OD6-TRACK-6).
    StayUp {
        /// Who.
        who: CombatantId,
        /// The roll.
        roll: Rolled,
        /// Its difficulty: 15 and any difficulty penalty in force.
        difficulty: i32,
        /// Stays conscious.
        ok: bool,
    },
    /// Falls unconscious through the end of round `until` (`u32::MAX`: the rest of the fight).
    Unconscious {
        /// Who.
        who: CombatantId,
        /// Last round out.
        until: u32,
    },
    /// Wakes.
    Woke {
        /// Who.
        who: CombatantId,
    },
    /// A mortal survival check (OD6-TRACK-7).
    Survival {
        /// Who.
        who: CombatantId,
        /// The roll.
        roll: Rolled,
        /// The total needed.
        need: i32,
        /// Died.
        died: bool,
    },
    /// Moves.
    Moved {
        /// Who.
        who: CombatantId,
        /// From.
        from: i32,
        /// To.
        to: i32,
        /// The free move.
        free: bool,
    },
    /// Aims (OD6-ATK-4).
    Aimed {
        /// Who.
        who: CombatantId,
        /// Target.
        target: CombatantId,
        /// Rounds of aim so far.
        rounds: u8,
    },
    /// The aim is broken or spent.
    AimEnded {
        /// Who.
        who: CombatantId,
    },
    /// A weapon readied (OD6-GEAR-2).
    Readied {
        /// Who.
        who: CombatantId,
        /// Weapon.
        weapon: u8,
        /// What.
        what: Ready,
    },
    /// A weapon dropped (disarm).
    Dropped {
        /// Who.
        who: CombatantId,
        /// Weapon.
        weapon: u8,
    },
    /// Posture changes.
    PostureChanged {
        /// Who.
        who: CombatantId,
        /// New posture.
        posture: Posture,
        /// Forced (knockdown): standing up costs an action.
        forced: bool,
    },
    /// The −2D knockdown/push penalty pending on the next Agility roll (or used).
    KnockPenalty {
        /// Who.
        who: CombatantId,
        /// Pending (true) or spent (false).
        pending: bool,
    },
    /// Held by someone, or released (`by = None`).
    Held {
        /// Who.
        who: CombatantId,
        /// The holder.
        by: Option<CombatantId>,
    },
    /// An opposed roll: escape, or keeping an item against a disarm.
    Opposed {
        /// Who tries.
        who: CombatantId,
        /// What.
        what: &'static str,
        /// The roll.
        roll: Rolled,
        /// The total to beat.
        against: i32,
        /// Succeeded.
        ok: bool,
    },
    /// First aid (OD6-HEAL-2).
    Aid {
        /// Healer.
        who: CombatantId,
        /// Patient.
        patient: CombatantId,
        /// The roll.
        roll: Rolled,
        /// Difficulty.
        difficulty: i32,
        /// The patient's level after.
        to: Level,
        /// Succeeded.
        ok: bool,
    },
    /// Massive damage: restricted from round `from` through `until` (OD6-TRACK-9).
    Restricted {
        /// Who.
        who: CombatantId,
        /// First restricted round.
        from: u32,
        /// Last restricted round (0 lifts it).
        until: u32,
        /// Cut short by a successful recovery roll (OD6-TRACK-9).
        recovered: bool,
    },
    /// The Easy recovery roll against massive damage (OD6-TRACK-9).
    Recovery {
        /// Who.
        who: CombatantId,
        /// The roll.
        roll: Rolled,
        /// Its difficulty: 10 and any difficulty penalty in force.
        difficulty: i32,
        /// Succeeded.
        ok: bool,
    },
    /// A lasting hit-location effect (OD6-SPECIAL-12).
    LocationEffect {
        /// Who.
        who: CombatantId,
        /// Where.
        loc: Loc,
    },
    /// A difficulty penalty from a negative resistance (OD6-DMG-8).
    DifficultyPenalty {
        /// Who.
        who: CombatantId,
        /// The penalty.
        penalty: i32,
    },
    /// A Stunned level clears after a quiet minute (OD6-HEAL-1).
    Recovered {
        /// Who.
        who: CombatantId,
    },
    /// Body Points rolled at the start: 20 + a Strength roll (OD6-TRACK-10).
    BodyPoints {
        /// Who.
        who: CombatantId,
        /// The Strength roll.
        roll: Rolled,
        /// The maximum.
        max: i32,
    },
    /// A quick draw declared (OD6-INIT-10): N fixed, dice moved to initiative, the weapon drawn.
    QuickDrawn {
        /// Who.
        who: CombatantId,
        /// The draw.
        draw: QuickDraw,
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

impl Ruleset for OpenD6 {
    const ID: &'static str = "opend6";
    type Setup = Setup;
    type State = State;
    type Event = Event;
    type Request = Request;
    type Choice = Choice;

    fn initial_state(setup: &Setup) -> State {
        let mut state = State { round: 0, fighters: Vec::with_capacity(setup.combatants.len()), order: List::new() };
        Self::reset_state(setup, &mut state);
        state
    }

    fn reset_state(setup: &Setup, state: &mut State) {
        state.round = 0;
        state.order.clear();
        state.fighters.truncate(setup.combatants.len());
        for (i, sheet) in setup.combatants.iter().enumerate() {
            let mut fighter = fresh(sheet);
            if setup.joins_late(i) {
                status::absent(&mut fighter);
            }
            if i < state.fighters.len() {
                state.fighters[i] = fighter;
            } else {
                state.fighters.push(fighter);
            }
        }
    }

    // Inlined into every emit, where the event's kind is known: only its own arm is left.
    #[inline(always)]
    fn apply(setup: &Setup, state: &mut State, event: &Event) {
        match event {
            Event::RoundStarted { round } => {
                state.round = *round;
                for (i, x) in state.fighters.iter_mut().enumerate() {
                    if *round > 1 {
                        x.idle_rounds = if x.used == 0 { x.idle_rounds + 1 } else { 0 };
                    }
                    x.declared = 0;
                    x.used = 0;
                    x.waiting = false;
                    x.turn_done = false;
                    x.lost_turn = false;
                    x.free_moved = false;
                    x.no_defense = false;
                    x.quick_draw = None;
                    x.level_at_round_start = x.level;
                    x.surprise_bonus = *round == 1 && setup.options.surprise_bonus && setup.combatants[i].surprise;
                    for w in &mut x.weapons {
                        w.uses = 0;
                    }
                }
            }
            Event::Initiative { members, total, .. } => {
                for m in members {
                    let i = m.index();
                    state.fighters[i].init = *total;
                }
            }
            Event::Order { order } => {
                // Copied, not cloned element by element.
                state.order.clear();
                state.order.extend_from_slice(order);
            }
            Event::TurnLost { who } => {
                let x = &mut state.fighters[who.index()];
                x.turn_done = true;
                x.lost_turn = true;
            }
            Event::TurnStarted { who, clear } => {
                let x = &mut state.fighters[who.index()];
                x.turn_done = true;
                if *clear {
                    x.dodge = None;
                    x.block = None;
                }
            }
            Event::SurpriseUsed { who } => state.fighters[who.index()].surprise_bonus = false,
            Event::Declared { who, n } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.declared = *n;
                x.declared_penalty = level_penalty(&setup.options, x, round);
            }
            Event::Forfeit { .. } | Event::Out { .. } => {}
            Event::Acted { who, action } => {
                let x = &mut state.fighters[who.index()];
                let free = match action {
                    Action::Move { free, .. } => *free,
                    Action::Posture(_) => true,
                    _ => false,
                };
                if !free {
                    x.used = x.used.saturating_add(1);
                }
                if *action == Action::Wait {
                    x.waiting = true;
                }
            }
            Event::DefenceSet { who, kind, active } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.defence_round = round;
                match kind {
                    DefKind::Dodge => x.dodge = Some(*active),
                    DefKind::Block(_) => x.block = Some(*active),
                }
            }
            Event::Resumed { who, .. } => state.fighters[who.index()].waiting = false,
            Event::Points { who, cp, fp } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.cp = x.cp.saturating_sub(*cp);
                if *fp > 0 {
                    x.fp = x.fp.saturating_sub(1);
                }
                if *fp == 2 {
                    x.climactic_used = true;
                    x.climactic_round = round;
                }
            }
            Event::Defence { .. } => {}
            Event::DefenceEnded { who } => {
                let x = &mut state.fighters[who.index()];
                x.dodge = None;
                x.block = None;
            }
            Event::Attack { attacker, target, weapon, plan, .. } => {
                state.fighters[target.index()].attacked_round = state.round;
                let x = &mut state.fighters[attacker.index()];
                if let Some(w) = x.weapons.get_mut(*weapon as usize) {
                    w.uses = w.uses.saturating_add(1);
                }
                let modes = [plan.mode, plan.mode2];
                if modes.contains(&Mode::AllOut)
                    || (modes.contains(&Mode::FullAuto) && setup.options.full_auto_no_defense)
                {
                    x.no_defense = true;
                    if modes.contains(&Mode::AllOut) {
                        x.dodge = None;
                        x.block = None;
                    }
                }
            }
            Event::Ammo { who, weapon, used } => {
                let x = &mut state.fighters[who.index()];
                if let Some(Some(a)) = x.weapons.get_mut(*weapon as usize).map(|w| w.ammo.as_mut()) {
                    *a = a.saturating_sub(*used);
                }
            }
            Event::Damage { .. } | Event::Resist { .. } | Event::Opposed { .. } => {}
            Event::Recovery { who, .. } => state.fighters[who.index()].recovery_round = state.round,
            Event::Wound { who, to, bp, .. } => {
                let x = &mut state.fighters[who.index()];
                x.level = *to;
                x.deepest = x.deepest.max(*to);
                if *to == Level::Stunned {
                    x.idle_rounds = 0;
                }
                x.bp = *bp;
                if *to == Level::MortallyWounded && x.mortal_since.is_none() {
                    x.mortal_since = Some(state.round);
                }
                if *to >= Level::MortallyWounded && setup.options.defense_ends_when_helpless {
                    x.dodge = None;
                    x.block = None;
                }
            }
            Event::StunWindow { who, until } => state.fighters[who.index()].stun_until = *until,
            Event::StayUp { .. } | Event::Survival { .. } => {
                if let Event::Survival { who, died: true, .. } = event {
                    state.fighters[who.index()].level = Level::Dead;
                }
            }
            Event::Unconscious { who, until } => {
                let x = &mut state.fighters[who.index()];
                x.unconscious_until = (*until).max(x.unconscious_until);
                x.waiting = false;
                if setup.options.defense_ends_when_helpless {
                    x.dodge = None;
                    x.block = None;
                }
            }
            Event::Woke { who } => state.fighters[who.index()].unconscious_until = 0,
            Event::Moved { who, to, free, .. } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.pos = *to;
                x.moved_round = round;
                if *free {
                    x.free_moved = true;
                }
            }
            Event::Aimed { who, target, rounds } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.aim = Some((*target, *rounds, round));
            }
            Event::AimEnded { who } => state.fighters[who.index()].aim = None,
            Event::Readied { who, weapon, what } => {
                let x = &mut state.fighters[who.index()];
                let max = setup.combatants[who.index()].weapons[*weapon as usize].ammo_max;
                let w = &mut x.weapons[*weapon as usize];
                match what {
                    Ready::Draw => w.drawn = true,
                    Ready::Reload => w.ammo = max,
                    Ready::Switch => w.stun = !w.stun,
                }
            }
            Event::Dropped { who, weapon } => {
                let x = &mut state.fighters[who.index()];
                if let Some(w) = x.weapons.get_mut(*weapon as usize) {
                    w.drawn = false;
                }
            }
            Event::PostureChanged { who, posture, forced } => {
                let x = &mut state.fighters[who.index()];
                x.posture = *posture;
                x.forced_down = *forced;
            }
            Event::KnockPenalty { who, pending } => state.fighters[who.index()].knock_pending = *pending,
            Event::Held { who, by } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.held_by = *by;
                x.held_round = round;
            }
            Event::Aid { patient, to, ok, .. } => {
                let p = &mut state.fighters[patient.index()];
                p.aided = true;
                if *ok {
                    p.level = *to;
                    p.difficulty_penalty = 0;
                    if *to < Level::MortallyWounded {
                        p.mortal_since = None;
                    }
                    if *to < Level::Incapacitated && p.unconscious_until == u32::MAX {
                        p.unconscious_until = 0;
                    }
                }
            }
            Event::Restricted { who, from, until, .. } => {
                state.fighters[who.index()].restricted = (*until > 0).then_some((*from, *until));
            }
            Event::LocationEffect { who, loc } => {
                let round = state.round;
                let x = &mut state.fighters[who.index()];
                x.locations |= 1 << (*loc as u8);
                if *loc == Loc::Chest {
                    x.no_actions_round = round + 1;
                }
            }
            Event::DifficultyPenalty { who, penalty } => {
                let x = &mut state.fighters[who.index()];
                x.difficulty_penalty = x.difficulty_penalty.max(*penalty);
            }
            Event::Recovered { who } => {
                let x = &mut state.fighters[who.index()];
                if x.level == Level::Stunned {
                    x.level = Level::Healthy;
                }
            }
            Event::BodyPoints { who, max, .. } => {
                let x = &mut state.fighters[who.index()];
                x.bp = *max;
                x.bp_max = *max;
            }
            Event::QuickDrawn { who, draw } => {
                let skill = setup.combatants[who.index()].weapons[draw.weapon as usize].skill;
                let x = &mut state.fighters[who.index()];
                x.declared = draw.n;
                x.quick_draw = Some((skill, draw.k));
                x.weapons[draw.weapon as usize].drawn = true;
            }
            Event::Adjusted { who, change } => status::adjust(setup, state, *who, change),
            Event::Ended { .. } => {}
        }
    }

    fn end_after_adjustment(setup: &Setup, state: &State) -> Option<(FightResult, Event)> {
        let standing = state.fighters.iter().zip(&setup.combatants).filter(|(f, _)| !f.out(&setup.options));
        crate::end_after_adjustment(standing.map(|(_, c)| c.side), state.round, |result| Event::Ended { result })
    }

    fn ended(event: &Event) -> Option<FightResult> {
        if let Event::Ended { result } = event { Some(*result) } else { None }
    }

    fn tally(event: &Event) -> Option<Tally> {
        match event {
            Event::Attack { attacker, hit, roll, .. } => {
                Some(Tally::Attack { by: *attacker, hit: *hit, crit: roll.wild > 1 })
            }
            Event::Wound { who, by, margin, .. } => Some(Tally::Damage { by: *by, to: *who, amount: *margin }),
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

/// The stun-free level penalty in dice of a fighter (OD6-TRACK-4).
pub fn level_penalty(options: &Options, x: &Fighter, round: u32) -> i32 {
    let level = match x.level {
        Level::Wounded => 1,
        Level::SeverelyWounded => 2,
        Level::Incapacitated => 3,
        _ => 0,
    };
    let stun = i32::from(!options.stunned_defend_only && x.stun_until >= round && x.stun_until > 0);
    level.max(stun)
}

/// A combatant's fighter as the fight starts, or as it joins the fight mid-way.
pub(super) fn fresh(sheet: &setup::Sheet) -> Fighter {
    let weapons =
        sheet.weapons.iter().map(|w| WeaponState { ammo: w.ammo, uses: 0, drawn: w.drawn, stun: w.stun }).collect();
    let bp_max = sheet.body_points_max.map_or(0, |b| b as i32);
    Fighter {
        level: sheet.level,
        bp: bp_max,
        bp_max,
        deepest: sheet.level,
        pos: sheet.position,
        posture: sheet.posture,
        forced_down: false,
        stun_until: 0,
        unconscious_until: if sheet.level >= Level::MortallyWounded { u32::MAX } else { 0 },
        mortal_since: (sheet.level == Level::MortallyWounded).then_some(0),
        declared: 0,
        used: 0,
        waiting: false,
        turn_done: false,
        lost_turn: false,
        free_moved: false,
        dodge: None,
        block: None,
        aim: None,
        cp: sheet.cp,
        fp: sheet.fp,
        climactic_round: 0,
        climactic_used: false,
        weapons,
        held_by: None,
        knock_pending: false,
        restricted: None,
        recovery_round: 0,
        defence_round: 0,
        held_round: 0,
        moved_round: 0,
        declared_penalty: 0,
        level_at_round_start: sheet.level,
        init: 0,
        difficulty_penalty: 0,
        idle_rounds: 0,
        locations: 0,
        aided: false,
        surprise_bonus: false,
        no_defense: false,
        no_actions_round: 0,
        quick_draw: None,
        attacked_round: 0,
        removed: false,
        absent: false,
    }
}
