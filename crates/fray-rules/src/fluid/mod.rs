//! `fluid`: the Fluid Game System combat chapter (catalogue: shared/rules/fluid.md).
//!
//! Every clause of the catalogue and every option is implemented: the round (round-start tests,
//! tactics, declarations with revision passes, initiative, steps with plan revisions, delays), the
//! check with its crit ladder, edges and both check directions, melee, ranged and area attacks
//! (bursts, sprays, blasts, cover), Dodge, Parry and Block (size bonus, block absorption, unarmed
//! defences), Full Defense and guarding, lethal and stunning damage, armour that reduces or
//! converts by size, the W and S tracks with CP, the NER pain check, dying, Heal checks, death
//! and unconsciousness, movement on a line, hidden combatants, sunder, and the end of combat.
//! `odds.rs` gives the exact odds of an attack in any state (the opening position for
//! `fray odds --scenario`, the current one beside a person's attack options).

pub mod attack;
pub mod check;
mod front;
pub mod guide;
pub mod odds;
pub mod options;
pub mod policy;
mod run;
pub mod scenario;
pub mod setup;
pub mod status;

use check::{Check, CheckRoll};
use fray_engine::{CombatantId, Dice, Fight, FightError, FightResult, Ruleset, Sink, Tally};
use smallvec::SmallVec;

/// A short list stored inline (no allocation for typical fights; larger ones spill to the heap).
pub type List<T, const N: usize> = SmallVec<[T; N]>;
pub use front::{FluidScenario, events_schema};
pub use options::Options;
pub use setup::{DefenceSkill, Setup};

/// The `fluid` ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fluid;

/// Lethal or stunning (FLUID-ATK-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Intent {
    /// Successes go to W.
    Lethal,
    /// Successes go to S.
    Stunning,
}

/// One declared attack.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct DeclaredAttack {
    /// The target.
    pub target: CombatantId,
    /// The weapon (index into the attacker's items).
    pub item: u8,
    /// Lethal or stunning.
    pub intent: Intent,
    /// Rounds fired: 1 for a single attack, r for a burst, k shots for a spray.
    pub rounds: u8,
    /// A spray-n-pray: `rounds` separate rolls (FLUID-SPECIAL-8).
    pub spray: bool,
    /// The blast point of an area attack, when not the target's position (FLUID-SPECIAL-4).
    pub blast: Option<fray_engine::Pos>,
}

impl DeclaredAttack {
    /// A single attack (one round).
    pub fn single(target: CombatantId, item: u8, intent: Intent) -> DeclaredAttack {
        DeclaredAttack { target, item, intent, rounds: 1, spray: false, blast: None }
    }

    /// The weapon's index into the attacker's items.
    pub fn weapon(&self) -> usize {
        usize::from(self.item)
    }

    /// Check actions it counts as (FLUID-SPECIAL-9).
    pub fn actions(&self, options: &Options) -> i32 {
        if self.spray && !options.spray_counts_once { i32::from(self.rounds) } else { 1 }
    }
}

/// How a combatant moves (FLUID-MOVE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub enum MoveMode {
    /// ×1, no check.
    Walk,
    /// ×2, a Run check.
    Jog,
    /// ×3, a Run check.
    Run,
    /// ×4, a Run check.
    Sprint,
}

impl MoveMode {
    /// The multiplier of Move.
    pub fn multiplier(self) -> i32 {
        match self {
            MoveMode::Walk => 1,
            MoveMode::Jog => 2,
            MoveMode::Run => 3,
            MoveMode::Sprint => 4,
        }
    }

    /// Whether it uses the Run skill (a Run check, a check action).
    pub fn runs(self) -> bool {
        self != MoveMode::Walk
    }
}

/// Where a declared move goes (FLUID-MOVE-11).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Destination {
    /// To a point.
    Point(fray_engine::Pos),
    /// Towards a combatant, stopping `approach_gap` short.
    Toward(CombatantId),
}

/// A declared move.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Movement {
    /// Walk, jog, run or sprint.
    pub mode: MoveMode,
    /// Where to.
    pub to: Destination,
}

/// A combatant's plan for the round (FLUID-ACT-1).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Plan {
    /// Attacks, in the order they will be made.
    pub attacks: List<DeclaredAttack, 4>,
    /// Full Defense: no actions, and attacks against it are Inferior +1 (FLUID-ACT-8).
    pub full_defense: bool,
    /// A move, if any.
    pub movement: Option<Movement>,
    /// Let this combatant act first: its step comes just after that one's (FLUID-INIT-6).
    pub delay_after: Option<CombatantId>,
    /// A Heal check on a dying ally within Nearby (FLUID-TRACK-10).
    pub heal: Option<CombatantId>,
    /// Shielding the body of a stunned or unconscious ally within Nearby: far shots at it hit
    /// this combatant instead (FLUID-DEF-15).
    pub shield: Option<CombatantId>,
    /// Under `defense_choice = per_round`: the defence (skill and item, `None` for Dodge or
    /// unarmed) used against every attack this round (FLUID-DEF-4).
    pub defence: Option<(DefenceSkill, Option<u8>)>,
}

/// A defence the target may use against one attack (FLUID-DEF-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct DefenceOption {
    /// Dodge, Parry or Block.
    pub skill: DefenceSkill,
    /// The defending item (index into the defender's items); `None` for Dodge or unarmed.
    pub item: Option<u8>,
    /// The defence TN before dT.
    pub tn: i32,
    /// The attacker's size bonus against it (FLUID-DEF-5).
    pub size_bonus: i32,
    /// The size the defending item counts as for this contact (FLUID-SIZE-3).
    pub size: i32,
    /// The shooter's projectile modifier against it: a flat bonus and an edge (FLUID-DEF-11).
    pub projectile: (i32, i32),
    /// It knocks a shot's aim away (a point-blank Parry or Block, FLUID-DEF-10): no absorption,
    /// no sunder, no stress from a failed unarmed defence.
    pub knocks_aim: bool,
    /// An ally guarding an incapacitated target, whose item and TN these are (FLUID-DEF-14).
    pub guard: Option<CombatantId>,
}

/// A decision request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Split Tactics into oT and dT (FLUID-TAC-1).
    Tactics {
        /// The Tactics value.
        tactics: i32,
    },
    /// Declare the round's attacks (FLUID-ACT-1): any sequence of the options, at most
    /// `max_per_item[i]` with item `i` (FLUID-ACT-7).
    Declare {
        /// Every (target, weapon) pair within reach, with lethal and stunning allowed.
        options: List<(CombatantId, usize), 8>,
        /// Most attacks allowed per item this round: the limit of the item's attack skill, shared
        /// by the items of that skill (FLUID-ACT-7).
        max_per_item: List<u32, 4>,
        /// Per item: the first item with the same attack skill (whose count the limit applies to).
        skill_group: List<u8, 4>,
        /// Per item: the largest burst and the largest spray it may fire now (FLUID-SPECIAL-5 …
        /// FLUID-SPECIAL-11, FLUID-GEAR-4); (1, 0) for a weapon that only makes single attacks.
        rounds: List<(u32, u32), 4>,
    },
    /// Choose a defence against an incoming attack (FLUID-DEF-4); `None` is not defending.
    Defend {
        /// The attacker.
        attacker: CombatantId,
        /// The legal defences.
        options: List<DefenceOption, 8>,
    },
    /// May this ally Parry or Block an attack on an incapacitated friend? `None` is no.
    Guard {
        /// The incapacitated friend.
        target: CombatantId,
        /// The attacker.
        attacker: CombatantId,
        /// The ally's Parry and Block options.
        options: List<DefenceOption, 8>,
    },
    /// Players tied on initiative choose their order (FLUID-INIT-5).
    TieOrder {
        /// The tied players, in roster order.
        tied: List<CombatantId, 8>,
    },
    /// At the start of a step: change the rest of the round's plan? (FLUID-ACT-6)
    Revise {
        /// Whose step begins.
        step: CombatantId,
        /// Attacks still to be made, in order.
        remaining: List<DeclaredAttack, 4>,
        /// Whether Full Defense may still be taken (no action but movement yet, FLUID-ACT-9).
        full_defense_allowed: bool,
    },
    /// Whether to make a sunder attack on the blocking item (FLUID-SUNDER-7, FLUID-ATK-11).
    SunderAttack {
        /// The target whose item blocks.
        target: CombatantId,
        /// The attacker's weapon (index into its items).
        weapon: u8,
        /// The blocking item (index into the target's items); `None` when the sunder attack is
        /// named with the attack, before the defence is known (`sunder_declare = with_attack`).
        block: Option<u8>,
    },
    /// Whether to make the NER check to ignore pain before a check action (FLUID-TRACK-4).
    Pain {
        /// The current CP.
        cp: i32,
    },
}

impl Request {
    /// A declaration request with its lists left empty: the kind of request alone, for asking
    /// [`Decider::passes_optional`](fray_engine::Decider::passes_optional) before the lists are
    /// built.
    pub fn declare_kind() -> Request {
        Request::Declare {
            options: List::new(),
            max_per_item: List::new(),
            skill_group: List::new(),
            rounds: List::new(),
        }
    }
}

/// An answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Choice {
    /// oT and dT.
    Split {
        /// Offensive tactics.
        ot: i32,
        /// Defensive tactics.
        dt: i32,
    },
    /// The round's plan.
    Plan(Plan),
    /// Index into the request's defence options, or `None`.
    Defence(Option<usize>),
    /// Try the pain check or not.
    Pain(bool),
    /// Make a sunder attack or not.
    Sunder(bool),
    /// Keep the plan (`None`) or replace the remaining attacks (and possibly take Full Defense).
    Revise(Option<Plan>),
    /// The tied players' order, first to act first; empty to let FLUID-INIT-4 decide.
    Order(List<CombatantId, 8>),
}

/// A condition (FLUID-TRACK-5 … FLUID-TRACK-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Condition {
    /// W ≤ 0.
    Dying,
    /// W ≤ −BOD.
    Dead,
    /// S ≤ 0.
    Unconscious,
    /// Failed its act test: no actions this round.
    Stunned,
    /// Stabilized by a Heal check (FLUID-TRACK-10).
    Stabilized,
    /// Hidden from the other sides (lost when revealed, FLUID-ROUND-5).
    Hidden,
}

/// An item quality that sunder wears down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Quality {
    /// The OQ of an item.
    Oq(usize),
    /// The DQ of an item.
    Dq(usize),
    /// The armour's AV.
    Av,
}

/// What a check was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum CheckKind {
    /// The dying BOD test (FLUID-TRACK-6).
    Bod,
    /// The dying NER act test (FLUID-TRACK-8).
    Act,
    /// The NER pain check (FLUID-TRACK-4).
    Pain,
    /// A Heal check (FLUID-TRACK-10).
    Heal,
}

/// Everything that happens in a `fluid` fight.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A round begins.
    RoundStarted {
        /// Its number, from 1.
        round: u32,
    },
    /// A test or check outside an attack.
    Check {
        /// Who rolled.
        who: CombatantId,
        /// What for.
        kind: CheckKind,
        /// The check.
        check: Check,
        /// The roll.
        roll: CheckRoll,
    },
    /// The final split for the round (FLUID-TAC-6).
    TacticsSet {
        /// Who.
        who: CombatantId,
        /// Offensive tactics.
        ot: i32,
        /// Defensive tactics.
        dt: i32,
    },
    /// The final plan for the round (FLUID-ACT-1).
    Declared {
        /// Who.
        who: CombatantId,
        /// The plan.
        plan: Plan,
    },
    /// A plan changed during resolution (FLUID-ACT-6).
    Revised {
        /// Who.
        who: CombatantId,
        /// The new remaining attacks and Full Defense.
        plan: Plan,
        /// Declared actions changed to something else (−1 each for the rest of the round).
        changes: i32,
        /// Check actions added (N grows by this, FLUID-ACT-5).
        added: i32,
    },
    /// An initiative roll (FLUID-INIT-1).
    Initiative {
        /// Who.
        who: CombatantId,
        /// The three faces.
        faces: [u8; 3],
        /// 3d6 + Tactics.
        total: i32,
    },
    /// A tie-break die (FLUID-INIT-4).
    TieBreak {
        /// Who.
        who: CombatantId,
        /// The face.
        face: u8,
    },
    /// The order of the round's steps (FLUID-INIT-1).
    Order {
        /// Highest first.
        order: List<CombatantId, 8>,
    },
    /// One declared attack (a burst, a spray, an area attack) has been made.
    AttackDone {
        /// Whose.
        who: CombatantId,
    },
    /// A combatant's step begins (FLUID-ACT-2).
    Step {
        /// Whose step.
        who: CombatantId,
    },
    /// An attack check (FLUID-ATK-2).
    Attack {
        /// The attacker.
        attacker: CombatantId,
        /// The target.
        target: CombatantId,
        /// The weapon.
        item: usize,
        /// Lethal or stunning.
        intent: Intent,
        /// Rounds fired by this roll (a burst's r; 1 for each spray shot and single attacks).
        rounds: u8,
        /// The defence used, if any.
        defence: Option<DefenceOption>,
        /// The check.
        check: Check,
        /// The check's bonus itemised: its terms sum to `check.bonus` (FLUID-ATK-2).
        terms: attack::AttackTerms,
        /// The roll.
        roll: CheckRoll,
    },
    /// Damage after armour (FLUID-DMG-4).
    Damage {
        /// Who dealt it.
        by: CombatantId,
        /// Who took it.
        target: CombatantId,
        /// W and S damage before armour.
        before: (i32, i32),
        /// The AV that applied (armour plus block absorption).
        av: i32,
        /// W damage taken.
        w: i32,
        /// S damage taken.
        s: i32,
    },
    /// A sunder check (FLUID-SUNDER-4, -9) and its loss (FLUID-SUNDER-5, -11).
    Sunder {
        /// Whose item.
        who: CombatantId,
        /// Which quality of which item.
        quality: Quality,
        /// The check.
        check: Check,
        /// The roll.
        roll: CheckRoll,
        /// Points lost.
        loss: i32,
    },
    /// A Run check before a jog, run or sprint (FLUID-MOVE-2).
    RunCheck {
        /// Who.
        who: CombatantId,
        /// The check.
        check: Check,
        /// The roll.
        roll: CheckRoll,
    },
    /// A combatant moved (FLUID-MOVE-2, FLUID-MOVE-8).
    Moved {
        /// Who.
        who: CombatantId,
        /// How.
        mode: MoveMode,
        /// From where.
        from: fray_engine::Pos,
        /// To where.
        to: fray_engine::Pos,
        /// A charge earned by the move: the target and the W bonus (FLUID-MOVE-7).
        charge: Option<(CombatantId, i32)>,
    },
    /// An ally shielding a helpless friend's body takes a far shot meant for it (FLUID-DEF-15).
    Shielded {
        /// The shielding ally, now the shot's target.
        who: CombatantId,
        /// The friend it shields.
        target: CombatantId,
    },
    /// A firearm loses one ammunition count (FLUID-GEAR-4).
    AmmoSpent {
        /// Whose weapon.
        who: CombatantId,
        /// Which item.
        item: usize,
    },
    /// A condition gained or lost.
    Condition {
        /// Who.
        who: CombatantId,
        /// Which.
        condition: Condition,
        /// Gained (true) or lost.
        gained: bool,
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
        /// How it ended.
        result: FightResult,
    },
}

/// The state of one combatant during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Where it stands.
    pub pos: fray_engine::Pos,
    /// How it moved this round, if it did.
    pub moved: Option<MoveMode>,
    /// A charge bonus for its first melee attack on a combatant this round (FLUID-MOVE-7).
    pub charge: Option<(CombatantId, i32)>,
    /// Current W.
    pub w: i32,
    /// Current S.
    pub s: i32,
    /// This round's oT.
    pub ot: i32,
    /// This round's dT.
    pub dt: i32,
    /// This round's plan.
    pub plan: Plan,
    /// Dying.
    pub dying: bool,
    /// Dead.
    pub dead: bool,
    /// Unconscious.
    pub unconscious: bool,
    /// Stunned for the round.
    pub stunned: bool,
    /// Stabilized: its BOD tests ignore failures (FLUID-TRACK-6, FLUID-TRACK-10).
    pub stabilized: bool,
    /// Attacks of its plan already made this round.
    pub done: usize,
    /// Declared actions it changed this round: −1 each on its checks (FLUID-ACT-6).
    pub changes: i32,
    /// It performed an action other than movement this round (FLUID-ACT-9).
    pub acted: bool,
    /// Check actions counted for the multi-action penalty this round (FLUID-ACT-5).
    pub declared_actions: i32,
    /// Hidden from the other sides (FLUID-ROUND-3, FLUID-ROUND-5).
    pub hidden: bool,
    /// In Full Defense (FLUID-ACT-8, FLUID-ACT-10).
    pub full_defense: bool,
    /// The round its Full Defense was declared.
    pub full_defense_round: u32,
    /// Its step has begun this round.
    pub stepped: bool,
    /// It made its act test this round (FLUID-TRACK-8, FLUID-TRACK-12).
    pub act_tested: bool,
    /// Counterattack bonuses this round: (the attacker it parried, the bonus) (FLUID-ATK-7).
    pub counters: List<(CombatantId, i32), 4>,
    /// Current OQ of each item (sunder lowers it; the sheet keeps the original, FLUID-SUNDER-12).
    pub oq: List<i32, 4>,
    /// Current DQ of each item.
    pub dq: List<i32, 4>,
    /// Current armour AV.
    pub av: i32,
    /// Taken out of the fight by the game master (and counted as dead).
    pub removed: bool,
    /// Added by the game master and not yet in the fight (taken out until it joins).
    pub absent: bool,
    /// Ammunition counts left per item (`None`: not tracked) (FLUID-GEAR-4).
    pub ammo: List<Option<i32>, 4>,
    /// Rounds each item fired this round (FLUID-SPECIAL-11 `per_round`).
    pub fired: List<u32, 4>,
}

impl Fighter {
    /// Out of the fight for its side (FLUID-ROUND-4).
    pub fn out(&self, options: &Options) -> bool {
        match options.side_out_when {
            options::SideOutWhen::Dead => self.dead,
            options::SideOutWhen::Incapacitated => self.dead || self.unconscious || self.dying,
        }
    }

    /// Able to take its turn: not dead, unconscious or stunned (a dying combatant that passed
    /// its act test may act).
    pub fn able(&self) -> bool {
        !(self.dead || self.unconscious || self.stunned)
    }

    /// No longer in play as a target: dead, unless bodies stay in play (FLUID-TRACK-11); and
    /// always when the game master took it out or it has not joined yet.
    #[inline]
    pub fn gone(&self, options: &Options) -> bool {
        self.dead && (!options.dead_bodies_kept || self.removed)
    }

    /// Dying, or at S ≤ 0 under `stress_zero = stunned_gate`: it must pass an act test each round
    /// to act (FLUID-TRACK-8, FLUID-TRACK-9).
    pub fn gated(&self, options: &Options) -> bool {
        self.dying || (options.stress_zero_gate && self.s <= 0 && !self.dead)
    }

    /// Able to defend (FLUID-DEF-13): able, and if gated, it passed its act test this round.
    pub fn defends(&self, options: &Options) -> bool {
        self.able() && (!self.gated(options) || (self.act_tested && options.dying_defends_when_acting))
    }

    /// Whether an item is broken: OQ or DQ at −5 (FLUID-SUNDER-6).
    pub fn broken(&self, item: usize) -> bool {
        self.oq[item] <= -5 || self.dq[item] <= -5
    }

    /// Its counterattack bonus against `attacker` this round (FLUID-ATK-7).
    pub fn counter(&self, attacker: CombatantId) -> i32 {
        self.counters.iter().find(|(who, _)| *who == attacker).map_or(0, |(_, bonus)| *bonus)
    }
}

/// The state of a `fluid` fight.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The current round (0 before the first).
    pub round: u32,
    /// Every combatant, in roster order.
    pub fighters: Vec<Fighter>,
    /// This round's step order.
    pub order: List<CombatantId, 8>,
    /// The end, once reached.
    pub ended: Option<FightResult>,
    /// Dead, Unconscious and Dying gained or lost so far: who is out of the fight can only have
    /// changed when this has (FLUID-ROUND-4), so the end is looked for only then.
    pub standing_changes: u32,
}

impl State {
    /// One combatant's state.
    pub fn fighter(&self, who: CombatantId) -> &Fighter {
        &self.fighters[who.index()]
    }

    /// The distance between two combatants now, in metres.
    pub fn distance(&self, a: CombatantId, b: CombatantId) -> f64 {
        self.fighter(a).pos.distance(self.fighter(b).pos)
    }
}

/// The condition penalty (FLUID-TRACK-2).
pub fn condition_penalty(setup: &Setup, state: &State, who: CombatantId) -> i32 {
    let sheet = &setup.combatants[who.index()];
    let fighter = state.fighter(who);
    let threshold = |max: i32| if setup.options.cp_threshold_min10_pc { max.min(10) } else { 10 };
    let s_max = if setup.options.stress_max_sheet { sheet.s_max } else { sheet.pc };
    let (w, s) = ((fighter.w - threshold(sheet.pc)).min(0), (fighter.s - threshold(s_max)).min(0));
    if setup.options.cp_combine_sum { w + s } else { w.min(s) }
}

impl Fighter {
    /// A combatant as the fight starts, from its sheet.
    fn initial(setup: &Setup, sheet: &setup::Sheet) -> Fighter {
        Fighter {
            pos: sheet.position,
            moved: None,
            charge: None,
            w: sheet.w,
            s: sheet.s,
            ot: 0,
            dt: 0,
            plan: Plan::default(),
            dying: sheet.w <= 0 && sheet.w > -sheet.stats[setup::BOD],
            dead: sheet.w <= -sheet.stats[setup::BOD],
            unconscious: sheet.s <= 0 && !setup.options.stress_zero_gate,
            stunned: false,
            stabilized: sheet.stabilized,
            done: 0,
            changes: 0,
            acted: false,
            declared_actions: 0,
            hidden: sheet.hidden,
            full_defense: false,
            full_defense_round: 0,
            stepped: false,
            act_tested: false,
            counters: List::new(),
            oq: per_item(&sheet.items, |_, i| i.oq),
            dq: per_item(&sheet.items, |_, i| i.dq),
            av: sheet.armor.as_ref().map_or(0, |a| a.av),
            removed: false,
            absent: false,
            ammo: per_item(&sheet.items, |_, i| i.ammo.filter(|_| setup.options.ammo_tracking)),
            fired: per_item(&sheet.items, |_, _| 0),
        }
    }
}

/// A value per item, built in place when the items fit inline (a fight's start, every simulated
/// fight: cheaper than collecting an iterator into the list).
pub(crate) fn per_item<T: Copy + Default>(items: &[setup::Item], f: impl Fn(usize, &setup::Item) -> T) -> List<T, 4> {
    if items.len() > 4 {
        return items.iter().enumerate().map(|(i, item)| f(i, item)).collect();
    }
    let mut buf = [T::default(); 4];
    for (i, (slot, item)) in buf.iter_mut().zip(items).enumerate() {
        *slot = f(i, item);
    }
    List::from_buf_and_len(buf, items.len())
}

/// Whether declared `attacks` are legal against a declaration's lists: each among the options,
/// its burst or spray within the weapon's, and the skill's attack limit kept with `counted`
/// (attacks already made this round) included (FLUID-ACT-7, FLUID-SPECIAL-5, -8, -9).
pub(crate) fn check_attacks(
    setup: &Setup,
    attacks: &[DeclaredAttack],
    counted: &[DeclaredAttack],
    options: &[(CombatantId, usize)],
    max_per_item: &[u32],
    skill_group: &[u8],
    rounds: &[(u32, u32)],
) -> Result<(), String> {
    let group_of = |a: &DeclaredAttack| skill_group.get(a.weapon()).map_or(a.weapon(), |&g| usize::from(g));
    let mut used: List<u32, 4> = smallvec::smallvec![0; max_per_item.len()];
    for attack in counted {
        if let Some(u) = used.get_mut(group_of(attack)) {
            *u += attack.actions(&setup.options) as u32;
        }
    }
    for attack in attacks {
        let (burst, spray) = rounds.get(attack.weapon()).copied().unwrap_or((1, 0));
        let allowed = match (attack.spray, attack.rounds) {
            (false, r) => r >= 1 && u32::from(r) <= burst.max(1),
            (true, k) => k >= 2 && u32::from(k) <= spray,
        };
        if !allowed {
            let kind = if attack.spray { "spray" } else { "burst" };
            return Err(format!("a {kind} of {} rounds with item {} is not allowed", attack.rounds, attack.weapon()));
        }
        if !options.contains(&(attack.target, attack.weapon())) {
            return Err(format!("attack on {} with item {} is not among the options", attack.target, attack.weapon()));
        }
        // Counted per attack skill: items of one skill share its limit (FLUID-ACT-7); under
        // `spray_counts = per_shot` each shot of a spray counts (FLUID-SPECIAL-9).
        let group = group_of(attack);
        used[group] += attack.actions(&setup.options) as u32;
        if used[group] > max_per_item[attack.weapon()] {
            return Err(format!(
                "more than {} attacks with the skill of item {}",
                max_per_item[attack.weapon()],
                attack.weapon()
            ));
        }
    }
    Ok(())
}

impl Ruleset for Fluid {
    const ID: &'static str = "fluid";
    type Setup = Setup;
    type State = State;
    type Event = Event;
    type Request = Request;
    type Choice = Choice;

    fn initial_state(setup: &Setup) -> State {
        let mut state = State { round: 0, fighters: Vec::new(), order: List::new(), ended: None, standing_changes: 0 };
        Self::reset_state(setup, &mut state);
        state
    }

    fn reset_state(setup: &Setup, state: &mut State) {
        // The fighters' vector keeps its capacity: no allocation between simulated fights.
        state.fighters.clear();
        state.fighters.extend(setup.combatants.iter().enumerate().map(|(i, sheet)| {
            let mut fighter = Fighter::initial(setup, sheet);
            if setup.joins_late(i) {
                status::absent(&mut fighter);
            }
            fighter
        }));
        state.round = 0;
        state.order.clear();
        state.ended = None;
        state.standing_changes = 0;
    }

    // Inlined into every emit, where the event's kind is known: only its own arm is left.
    #[inline(always)]
    fn apply(setup: &Setup, state: &mut State, event: &Event) {
        match event {
            Event::RoundStarted { round } => {
                state.round = *round;
                state.order.clear();
                for fighter in &mut state.fighters {
                    fighter.ot = 0;
                    fighter.dt = 0;
                    fighter.plan.attacks.clear();
                    fighter.plan.full_defense = false;
                    fighter.plan.movement = None;
                    fighter.plan.delay_after = None;
                    fighter.plan.heal = None;
                    fighter.plan.defence = None;
                    fighter.done = 0;
                    fighter.changes = 0;
                    fighter.acted = false;
                    fighter.declared_actions = 0;
                    fighter.moved = None;
                    fighter.charge = None;
                    fighter.stunned = false;
                    fighter.stepped = false;
                    fighter.act_tested = false;
                    fighter.counters.clear();
                    fighter.fired.iter_mut().for_each(|f| *f = 0);
                    if setup.options.full_defense_round {
                        fighter.full_defense = false;
                    }
                }
            }
            Event::Check { who, kind: CheckKind::Bod, roll, .. } => {
                // The margin is added to W; a stabilized combatant ignores failures (FLUID-TRACK-6);
                // W never exceeds PC (FLUID-TRACK-1).
                let fighter = &mut state.fighters[who.index()];
                let w = fighter.w + if fighter.stabilized { roll.margin.max(0) } else { roll.margin };
                fighter.w = w.min(setup.combatants[who.index()].pc);
            }
            Event::Check { who, kind: CheckKind::Act, .. } => state.fighters[who.index()].act_tested = true,
            Event::Check { who, kind: CheckKind::Heal, .. } => state.fighters[who.index()].acted = true,
            Event::Check { .. } => {}
            Event::TacticsSet { who, ot, dt } => {
                let fighter = &mut state.fighters[who.index()];
                fighter.ot = *ot;
                fighter.dt = *dt;
            }
            Event::Declared { who, plan } => {
                let actions = plan.attacks.iter().map(|a| a.actions(&setup.options)).sum::<i32>()
                    + i32::from(plan.movement.is_some_and(|m| m.mode.runs()))
                    + i32::from(plan.heal.is_some());
                let fighter = &mut state.fighters[who.index()];
                fighter.declared_actions = actions;
                // Field by field, the attacks as a slice copy: cheaper than a clone of the list.
                let Plan { attacks, full_defense, movement, delay_after, heal, shield, defence } = plan;
                let to = &mut fighter.plan;
                to.attacks.clear();
                to.attacks.extend_from_slice(attacks);
                (to.full_defense, to.movement, to.delay_after) = (*full_defense, *movement, *delay_after);
                (to.heal, to.shield, to.defence) = (*heal, *shield, *defence);
                if plan.full_defense {
                    fighter.full_defense = true;
                    fighter.full_defense_round = state.round;
                } else if fighter.full_defense && fighter.full_defense_round == state.round {
                    // A revision pass dropped this round's Full Defense (FLUID-ACT-1); one that
                    // lasts from the last round (`until_next_step`) ends at the step instead.
                    fighter.full_defense = false;
                }
            }
            Event::AttackDone { who } => state.fighters[who.index()].done += 1,
            Event::Revised { who, plan, changes, added } => {
                let fighter = &mut state.fighters[who.index()];
                let done = fighter.done;
                fighter.plan.attacks.truncate(done);
                fighter.plan.attacks.extend(plan.attacks.iter().copied());
                fighter.changes += changes;
                fighter.declared_actions += added;
                if plan.full_defense && !fighter.full_defense {
                    // Full Defense applies at once (FLUID-ACT-10).
                    fighter.full_defense = true;
                    fighter.full_defense_round = state.round;
                    fighter.plan.full_defense = true;
                }
            }
            Event::Step { who } => {
                let fighter = &mut state.fighters[who.index()];
                fighter.stepped = true;
                // `until_next_step`: Full Defense ends at the step of a later round (FLUID-ACT-10).
                if fighter.full_defense && fighter.full_defense_round < state.round {
                    fighter.full_defense = false;
                }
            }
            Event::Attack { attacker, target, item, rounds, defence, roll, .. } => {
                state.fighters[attacker.index()].fired[*item] += u32::from(*rounds);
                state.fighters[attacker.index()].acted = true;
                // A charge bonus goes to the first melee attack on its target (FLUID-MOVE-7).
                let melee = setup.combatants[attacker.index()].items[*item].kind == setup::ItemKind::Melee;
                if melee && state.fighters[attacker.index()].charge.is_some_and(|(t, _)| t == *target) {
                    state.fighters[attacker.index()].charge = None;
                }
                // The attacker's first attack on a combatant uses up its counter bonus against it.
                state.fighters[attacker.index()].counters.retain(|(who, _)| who != target);
                // A parried attack gives the parrier, before its own step, a counterattack bonus
                // of the attack's failures (FLUID-ATK-7, FLUID-ATK-8): an ally that guards the
                // target parries it (FLUID-DEF-14), the target itself otherwise.
                let parried = defence.is_some_and(|d| d.skill == DefenceSkill::Parry) && roll.margin < 0;
                let parrier = defence.and_then(|d| d.guard).unwrap_or(*target);
                let defender = &mut state.fighters[parrier.index()];
                if parried && !defender.stepped {
                    let failures = -roll.margin;
                    match defender.counters.iter_mut().find(|(who, _)| who == attacker) {
                        Some((_, bonus)) if setup.options.counter_largest => *bonus = (*bonus).max(failures),
                        Some((_, bonus)) => *bonus = failures,
                        None => defender.counters.push((*attacker, failures)),
                    }
                }
            }
            Event::Sunder { who, quality, loss, .. } => {
                let fighter = &mut state.fighters[who.index()];
                // OQ and DQ stop at −5 (broken), AV at 0 (FLUID-SUNDER-6, FLUID-SUNDER-11).
                match quality {
                    Quality::Oq(i) => fighter.oq[*i] = (fighter.oq[*i] - loss).max(-5),
                    Quality::Dq(i) => fighter.dq[*i] = (fighter.dq[*i] - loss).max(-5),
                    Quality::Av => fighter.av = (fighter.av - loss).max(0),
                }
            }
            Event::RunCheck { .. } | Event::Shielded { .. } => {}
            Event::Moved { who, mode, to, charge, .. } => {
                let fighter = &mut state.fighters[who.index()];
                fighter.pos = *to;
                fighter.moved = Some(*mode);
                fighter.charge = *charge;
            }
            Event::AmmoSpent { who, item } => {
                if let Some(count) = &mut state.fighters[who.index()].ammo[*item] {
                    *count = (*count - 1).max(0);
                }
            }
            Event::Initiative { .. } | Event::TieBreak { .. } => {}
            Event::Order { order } => {
                state.order.clear();
                state.order.extend_from_slice(order);
            }
            Event::Damage { target, w, s, .. } => {
                let fighter = &mut state.fighters[target.index()];
                fighter.w -= w;
                fighter.s -= s;
            }
            Event::Condition { who, condition, gained } => {
                if matches!(condition, Condition::Dying | Condition::Dead | Condition::Unconscious) {
                    state.standing_changes += 1;
                }
                let fighter = &mut state.fighters[who.index()];
                let flag = match condition {
                    Condition::Dying => &mut fighter.dying,
                    Condition::Dead => &mut fighter.dead,
                    Condition::Unconscious => &mut fighter.unconscious,
                    Condition::Stunned => &mut fighter.stunned,
                    Condition::Stabilized => &mut fighter.stabilized,
                    Condition::Hidden => &mut fighter.hidden,
                };
                *flag = *gained;
            }
            Event::Adjusted { who, change } => status::adjust(setup, state, *who, change),
            Event::Ended { result } => state.ended = Some(*result),
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
            Event::Attack { attacker, roll, .. } => {
                Some(Tally::Attack { by: *attacker, hit: roll.margin >= 0, crit: roll.crit > 0 })
            }
            Event::Damage { by, target, w, s, .. } => Some(Tally::Damage { by: Some(*by), to: *target, amount: w + s }),
            Event::Condition {
                who,
                condition: Condition::Dying | Condition::Dead | Condition::Unconscious,
                gained: true,
            } => Some(Tally::Downed { who: *who }),
            _ => None,
        }
    }

    fn check_choice(setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
        match (request, choice) {
            (Request::Tactics { tactics }, Choice::Split { ot, dt }) => {
                let legal = match (*tactics < 0, setup.options.negative_tactics_split) {
                    (true, false) => *ot == 0 && *dt == 0,
                    (true, true) => *ot <= 0 && *dt <= 0 && ot + dt == *tactics,
                    (false, _) => *ot >= 0 && *dt >= 0 && ot + dt == *tactics,
                };
                if legal { Ok(()) } else { Err(format!("oT {ot} + dT {dt} is not a legal split of Tactics {tactics}")) }
            }
            (Request::Declare { options, max_per_item, skill_group, rounds }, Choice::Plan(plan)) => {
                // It may still move (FLUID-ACT-8), but neither attack nor heal.
                if plan.full_defense && (!plan.attacks.is_empty() || plan.heal.is_some()) {
                    return Err("Full Defense gives up every other action".into());
                }
                if let Some(Movement { to: Destination::Toward(who), .. }) = plan.movement
                    && who.index() >= setup.combatants.len()
                {
                    return Err(format!("no combatant {who} to move towards"));
                }
                for who in plan.delay_after.into_iter().chain(plan.heal).chain(plan.shield) {
                    if who.index() >= setup.combatants.len() {
                        return Err(format!("no combatant {who}"));
                    }
                }
                check_attacks(setup, &plan.attacks, &[], options, max_per_item, skill_group, rounds)?;
                Ok(())
            }
            (Request::Defend { options, .. } | Request::Guard { options, .. }, Choice::Defence(pick)) => match pick {
                Some(i) if *i >= options.len() => {
                    Err(format!("defence {i} is not among the {} options", options.len()))
                }
                _ => Ok(()),
            },
            (Request::Pain { .. }, Choice::Pain(_)) | (Request::SunderAttack { .. }, Choice::Sunder(_)) => Ok(()),
            (Request::TieOrder { tied }, Choice::Order(order)) => {
                let mut sorted = order.clone();
                sorted.sort();
                if order.is_empty() || sorted == *tied {
                    Ok(())
                } else {
                    Err("the order must list each tied player once".into())
                }
            }
            (Request::Revise { full_defense_allowed, .. }, Choice::Revise(plan)) => match plan {
                Some(p) if p.full_defense && !full_defense_allowed => {
                    Err("Full Defense cannot be taken after an action other than movement".into())
                }
                Some(p) if p.full_defense && !p.attacks.is_empty() => {
                    Err("Full Defense gives up every other action".into())
                }
                _ => Ok(()),
            },
            _ => Err("the choice does not answer this request".into()),
        }
    }

    fn run<D: Dice, P: fray_engine::Decider<Self>, S: Sink<Event>>(
        fight: &mut Fight<'_, Self, D, P, S>,
    ) -> Result<FightResult, FightError> {
        run::run(fight)
    }
}
