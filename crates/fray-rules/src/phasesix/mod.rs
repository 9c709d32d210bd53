//! `phasesix`: the Phase Six combat chapter (catalogue: shared/rules/phasesix.md).
//!
//! Initiative once (an exploding d6 + Quickness); action pools refilled at each participant's own
//! turn, kept actions spent as reactions (dodge, parry, shield parry) to an attack, bonus dice
//! buying and destiny dice stealing actions; the hit pipeline in the catalogue's order — a pool of
//! exploding dice against the minimum roll, crits and megacrits from 11 (moved by recoil and
//! aim), reactions, the cover roll (crits and normal hits apart, shields), protection against
//! piercing, wounds onto boosts and hearts, Dying — with attack modes, recoil, aim and accurate
//! attacks, movement and hunkering, special attacks, thrown objects and their deviation, and the
//! round-start condition checks. `odds.rs` gives the exact wound distribution of one attack.

pub mod dice;
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
pub use front::{PhaseSixScenario, events_schema};
pub use options::Options;
pub use run::deviate;
use setup::Mode;
pub use setup::Setup;
use smallvec::SmallVec;

/// A short list stored inline.
pub type List<T, const N: usize> = SmallVec<[T; N]>;

/// The `phasesix` ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseSix;

/// Which weapon an attack uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Hand {
    /// The main-hand weapon.
    Main,
    /// The off-hand weapon (M + 1).
    Off,
    /// Bare hands.
    Unarmed,
}

/// A special attack (P6-SPECIAL-*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Special {
    /// None.
    #[default]
    None,
    /// K.O. (blunt weapons).
    Ko,
    /// Massive: extra actions for +3 dice each.
    Massive(u8),
    /// Disarm: M + 3, no wounds.
    Disarm,
    /// Coup de grâce on a helpless target.
    Coup,
}

/// A condition with a value (P6-TRACK-3/5, P6-COND-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Cond {
    /// Dying.
    Dying,
    /// Unconscious.
    Unconscious,
    /// Shocked.
    Shocked,
    /// Burning.
    Burning,
    /// Bleeding.
    Bleeding,
    /// Poisoned.
    Poisoned,
}

impl Cond {
    /// Its name.
    pub fn name(self) -> &'static str {
        ["dying", "unconscious", "shocked", "burning", "bleeding", "poisoned"][self as usize]
    }
}

/// One act (P6-ACT-*).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Act {
    /// An attack.
    Attack {
        /// The target.
        target: CombatantId,
        /// The weapon.
        hand: Hand,
        /// The mode.
        mode: Mode,
        /// A special attack.
        special: Special,
        /// A walk combined with it (P6-MOVE-2).
        walk: Option<Pos>,
        /// From behind: the target cannot react (P6-REACT-4).
        from_behind: bool,
    },
    /// One aiming action: C − 1 (`accurate = false`, P6-AIM-1) or M − 1 (P6-SPECIAL-1).
    Aim {
        /// An accurate-attack point instead of an aim point.
        accurate: bool,
    },
    /// Walk (P6-MOVE-1).
    Walk(Pos),
    /// Run.
    Run(Pos),
    /// Crawl (Hunkered, P6-MOVE-4).
    Crawl(Pos),
    /// Hunker down (P6-COND-6).
    Hunker,
    /// Stand up.
    StandUp,
    /// Raise a shield block (P6-SHLD-2).
    RaiseShield,
    /// Lower it.
    LowerShield,
    /// Brace the main weapon (P6-SPECIAL-10).
    Brace,
    /// Reload the main weapon (P6-MODE-6).
    Reload,
    /// Ready (draw or pick up) the main weapon.
    Ready,
    /// First aid or stabilising on a patient within 1 m (P6-TRACK-6/7).
    FirstAid(CombatantId),
    /// Put out a fire on someone within 1 m, oneself included.
    Extinguish(CombatantId),
    /// Throw an object (an index into the items) at a target (P6-THROW-*).
    Throw {
        /// The item.
        item: u8,
        /// The target.
        target: CombatantId,
    },
    /// Spend a bonus die for 1 action (P6-RES-1).
    SpendBonus,
    /// Spend a destiny die to steal an action (P6-RES-2).
    Steal(CombatantId),
    /// End the turn, keeping the actions left for reactions.
    End,
}

/// A reaction to an attack (P6-REACT-*, P6-DEF-*, P6-SHLD-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Reaction {
    /// Dodge: all or nothing.
    Dodge,
    /// Parry with the main weapon.
    Parry,
    /// Shield parry: the shield's cover roll.
    ShieldParry,
    /// Hunker (under `reaction_menu = any`).
    Hunker,
    /// An attack on the actor, of 1 action, resolved before the act it answers (under
    /// `reaction_menu = any`, P6-REACT-3); nobody reacts to it.
    Attack {
        /// The weapon.
        hand: Hand,
        /// The mode.
        mode: Mode,
    },
}

impl Reaction {
    /// The reaction's name in logs.
    pub fn name(self) -> &'static str {
        match self {
            Reaction::Dodge => "dodge",
            Reaction::Parry => "parry",
            Reaction::ShieldParry => "shieldparry",
            Reaction::Hunker => "hunker",
            Reaction::Attack { .. } => "attack",
        }
    }
}

/// A resource spent on a roll already seen (P6-RES-4/5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Boost {
    /// A bonus die: one more ordinary die of the roll.
    BonusDie,
    /// A destiny die as a bonus die: rolled apart, a success on a first toss of 4+ or a total
    /// reaching M, its crit tier from its total.
    DestinyDie,
    /// A reroll: the whole roll again, the new result replacing the old.
    Reroll,
    /// A destiny die spent as a reroll.
    DestinyReroll,
}

impl Boost {
    /// Every boost, in the order prompts list them.
    pub const ALL: [Boost; 4] = [Boost::BonusDie, Boost::DestinyDie, Boost::Reroll, Boost::DestinyReroll];

    /// Why `who` cannot spend it on a roll of `dice` dice now, if it cannot: none of that
    /// resource left, or a reroll of a pool of no dice (P6-RES-4/5).
    pub fn illegal(self, fighter: &Fighter, dice: usize) -> Option<&'static str> {
        match self {
            Boost::BonusDie => (fighter.bonus_dice < 1).then_some("no bonus die left"),
            Boost::DestinyDie => (fighter.destiny_dice < 1).then_some("no destiny die left"),
            Boost::Reroll | Boost::DestinyReroll if dice == 0 => Some("a pool of no dice cannot be rerolled"),
            Boost::Reroll => (fighter.rerolls < 1).then_some("no reroll left"),
            Boost::DestinyReroll => (fighter.destiny_dice < 1).then_some("no destiny die left"),
        }
    }
}

/// The roll a boost is offered on (P6-RES-4): any roll its roller has just seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum BoostedRoll {
    /// An attack's hit roll, by the attacker.
    Hit,
    /// A dodge roll, by the target.
    Dodge,
    /// A parry roll, by the target.
    Parry,
    /// A throwing roll, by the thrower (P6-THROW-1).
    Throw,
    /// A cover roll — its crit dice or its normal-hit dice —, by the target (P6-COVER-1/2).
    Cover,
    /// A check (resistance, endurance, first aid …), named as its `Check` event names it.
    Check(&'static str),
}

impl BoostedRoll {
    /// The roll's name in prompts and logs.
    pub fn name(self) -> &'static str {
        match self {
            BoostedRoll::Hit => "hit",
            BoostedRoll::Dodge => "dodge",
            BoostedRoll::Parry => "parry",
            BoostedRoll::Throw => "throw",
            BoostedRoll::Cover => "cover",
            BoostedRoll::Check(what) => what,
        }
    }
}

/// A decision request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// The actor's next act.
    Act {
        /// Actions available.
        actions: i32,
    },
    /// After seeing a roll of its own — a hit roll, a dodge or parry, a check — its roller may
    /// spend a bonus die, a destiny die or a reroll on it, one at a time (P6-RES-4/5); `None`
    /// keeps the roll.
    Boost {
        /// Which roll.
        roll: BoostedRoll,
        /// The other side of it: the target of a hit roll, the attacker of a dodge or parry.
        against: Option<CombatantId>,
        /// The roll's dice so far, ordinary ones.
        totals: Totals,
        /// Destiny dice rolled apart as bonus dice.
        apart: Totals,
        /// The minimum roll.
        m: i32,
        /// The crit threshold of a hit roll.
        c: Option<i32>,
    },
    /// A reaction to an attack (after its roll, before its result).
    React {
        /// The attacker.
        attacker: CombatantId,
        /// The attacked: the one asked, or another under `reaction_menu = any`.
        target: CombatantId,
        /// The mode.
        mode: Mode,
        /// Normal hits scored.
        normals: u8,
        /// Crits scored.
        crits: u8,
        /// Actions available (a bonus or destiny die may add one).
        actions: i32,
    },
}

/// An answer.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub enum Choice {
    /// An act.
    Act(Act),
    /// A boost spent on a roll, or none (the roll stands).
    Boost(Option<Boost>),
    /// A reaction or none; `buy` spends a bonus (1) or destiny (2) die first for the action.
    React {
        /// The reaction.
        reaction: Option<Reaction>,
        /// 0 none, 1 a bonus die, 2 a destiny die (stealing from the attacker).
        buy: u8,
    },
}

/// One combatant during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Available actions.
    pub actions: i32,
    /// Steals to apply at the next refresh.
    pub steals: i32,
    /// Has had a turn.
    pub started: bool,
    /// Initiative score.
    pub init: i32,
    /// Aim points (C − 1 each).
    pub aim: i32,
    /// Accurate points (M − 1 each).
    pub accurate: i32,
    /// The recoil chain: attacks in a row this round with a recoil weapon.
    pub chain: u8,
    /// The shield block: raised in this round (`None`: down).
    pub block: Option<u32>,
    /// The main weapon is braced.
    pub braced: bool,
    /// Ammunition per weapon.
    pub ammo: List<Option<i32>, 4>,
    /// The main weapon is in hand (false after a disarm or before readying).
    pub armed: bool,
    /// Wounds taken.
    pub wounds: i32,
    /// Boosts.
    pub boosts: i32,
    /// Dying, Unconscious, Shocked, Burning, Bleeding, Poisoned.
    pub cond: [i32; 6],
    /// Hunkered.
    pub hunkered: bool,
    /// Sleeping.
    pub sleeping: bool,
    /// Dead.
    pub dead: bool,
    /// Stabilised (fainted).
    pub stabilised: bool,
    /// Bonus dice, destiny dice, rerolls left.
    pub bonus_dice: i32,
    /// Destiny dice.
    pub destiny_dice: i32,
    /// Rerolls.
    pub rerolls: i32,
    /// Position.
    pub pos: Pos,
    /// Armour conditions (percent) per piece.
    pub armour_pct: List<i32, 4>,
    /// Throwables left per item.
    pub items: List<u8, 4>,
    /// Taken out of the fight by the game master (and counted as dead).
    pub removed: bool,
    /// Added by the game master and not yet in the fight (taken out until it joins).
    pub absent: bool,
}

impl Fighter {
    /// Has 0 actions and cannot react: Unconscious, Dying, Sleeping, dead, stabilised and fainted.
    pub fn helpless(&self, options: &Options) -> bool {
        self.dead
            || self.cond[0] > 0
            || self.cond[1] > 0
            || self.sleeping
            || (self.stabilised && !(options.stabilised_awake && self.boosts > 0))
    }

    /// Holds an aim or accurate bonus that being hit would take away (P6-AIM-2, P6-SPECIAL-2).
    pub fn holds_aim(&self) -> bool {
        self.aim > 0 || self.accurate > 0
    }

    /// Out of the fight (P6-TRACK-8).
    pub fn out(&self, options: &Options) -> bool {
        if options.out_when_dead { self.dead } else { self.helpless(options) }
    }

    /// A condition's value.
    pub fn condition(&self, c: Cond) -> i32 {
        self.cond[c as usize]
    }
}

/// Everything that changes during a fight.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The round.
    pub round: u32,
    /// The fixed order.
    pub order: List<CombatantId, 8>,
    /// The participant whose turn is under way.
    pub actor: Option<CombatantId>,
    /// Combatants in scenario order.
    pub fighters: Vec<Fighter>,
    /// How many `Out` events the fight has had: a fight can end only when someone goes out, so
    /// an attack that sent nobody out needs no end check (P6-TRACK-8).
    pub outs: u32,
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

/// A pool as it fell: each die's total.
pub type Totals = List<u8, 8>;

/// The terms of a hit roll's three numbers — its dice, its minimum roll M and its crit threshold
/// C (P6-ATK-2/3, P6-RCL-1, P6-CRIT-1, P6-AIM-1, P6-DICE-4) —, carried by the attack event so that
/// the log can itemise them. The fight computes each number as the sum of its terms; the event
/// keeps the terms of a fixed size as one bit each ([`HitTerms::FIXED`]) and the others in a byte
/// each ([`HitTerms::VALUES`]); what a byte cannot hold (only in scenarios far beyond any stat
/// block's numbers) the log shows as `beyond`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HitTerms {
    /// Which fixed terms apply, bit k for `FIXED[k]`; bit 7: the second dice term is the unarmed
    /// Quickness bonus (P6-ATK-5), not a damage potential.
    pub flags: u8,
    /// The other terms, in the order of [`HitTerms::VALUES`].
    pub values: [i8; 11],
}

/// [`HitTerms`] as the events write them.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct HitTermsJson {
    /// The dice's terms: the skill (named `skill`), damage potential or the unarmed bonus, and
    /// the rest (P6-ATK-1).
    dice: crate::events::TermList,
    /// M's terms (P6-ATK-2).
    m: crate::events::TermList,
    /// C's terms (P6-CRIT-1); none for a burst.
    c: crate::events::TermList,
}

impl serde::Serialize for HitTerms {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use crate::events::TermList;
        let json = HitTermsJson {
            dice: TermList(self.dice("skill").to_vec()),
            m: TermList(self.m().to_vec()),
            c: TermList(self.c().to_vec()),
        };
        json.serialize(serializer)
    }
}

impl schemars::JsonSchema for HitTerms {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HitTerms".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        HitTermsJson::json_schema(generator)
    }
}

impl HitTerms {
    /// The terms of a fixed size, name and value: the burst's (dice), then M's.
    pub const FIXED: [(&'static str, i32); 7] =
        [("burst", 2), ("walk", 1), ("hunkered", 1), ("off-hand", 1), ("disarm", 3), ("range", 2), ("braced", -1)];

    /// The sum of M's fixed terms for each combination of them: entry i for bits 1..=6 of the
    /// flags shifted down by one (so that M adds them with one look-up). (An index below 64 has
    /// no bit 6, so the audit's `k < 6` → `k <= 6` adds nothing: equivalent.)
    const M_FIXED: [i8; 64] = {
        let mut table = [0; 64];
        let mut i = 0;
        while i < 64 {
            let (mut k, mut sum) = (0, 0);
            while k < 6 {
                if i & (1 << k) != 0 {
                    sum += Self::FIXED[k + 1].1;
                }
                k += 1;
            }
            table[i] = sum as i8;
            i += 1;
        }
        table
    };

    /// The sum of M's fixed terms among `flags` (bits 1..=6).
    #[inline(always)]
    pub fn m_fixed(flags: u8) -> i32 {
        i32::from(Self::M_FIXED[usize::from(flags >> 1 & 63)])
    }

    /// The other terms' names: the skill, the damage potential (or the unarmed bonus), massive
    /// and Shocked (dice); the attacker's minimum roll, recoil, Burning, Poisoned, the accurate
    /// reduction and the floor of P6-DICE-4 (M); the aim bonus (C, whose other terms are 11 and
    /// the recoil M has too).
    pub const VALUES: [&'static str; 11] =
        ["skill", "DP", "massive", "shocked", "M", "recoil", "burning", "poisoned", "accurate", "floor", "aim"];

    /// The terms of the numbers whose exact terms are `values` (in the order of
    /// [`HitTerms::VALUES`]) and `flags` (bit k: `FIXED[k]` applies; bit 7: the attack is
    /// unarmed).
    #[inline(always)]
    pub fn new(flags: u8, values: [i32; 11]) -> HitTerms {
        // Every term within a byte (all but scenarios far beyond a stat block's numbers): kept
        // as it is, one test for all; otherwise each saturates, the log showing the rest as
        // `beyond`.
        let within = values.iter().fold(0, |a, &v| a | (v as u32).wrapping_add(128)) < 256;
        if !within {
            return Self::saturated(flags, values);
        }
        let mut bytes = [0; 11];
        for (b, v) in bytes.iter_mut().zip(values) {
            *b = v as i8;
        }
        HitTerms { flags, values: bytes }
    }

    #[cold]
    fn saturated(flags: u8, values: [i32; 11]) -> HitTerms {
        HitTerms { flags, values: values.map(|v| v.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8) }
    }

    fn value(&self, k: usize) -> i32 {
        i32::from(self.values[k])
    }

    fn fixed(&self, k: usize) -> i32 {
        if self.flags & (1 << k) != 0 { Self::FIXED[k].1 } else { 0 }
    }

    /// Bursts never crit (P6-CRIT-1): a burst's C has no terms.
    pub fn can_crit(&self) -> bool {
        self.flags & 1 == 0
    }

    /// The dice's terms, named, zeros included; `skill` names the skill rolled (P6-ATK-1/2/5).
    pub fn dice(&self, skill: &'static str) -> [(&'static str, i32); 5] {
        let dp = if self.flags & 0x80 != 0 { "unarmed" } else { "DP" };
        [
            (skill, self.value(0)),
            (dp, self.value(1)),
            ("burst", self.fixed(0)),
            ("massive", self.value(2)),
            ("shocked", self.value(3)),
        ]
    }

    /// M's terms, named, zeros included (P6-ATK-3, P6-RCL-1, P6-SPECIAL-1, P6-DICE-4).
    pub fn m(&self) -> [(&'static str, i32); 12] {
        [
            ("M", self.value(4)),
            ("recoil", self.value(5)),
            ("walk", self.fixed(1)),
            ("hunkered", self.fixed(2)),
            ("off-hand", self.fixed(3)),
            ("disarm", self.fixed(4)),
            ("range", self.fixed(5)),
            ("burning", self.value(6)),
            ("poisoned", self.value(7)),
            ("braced", self.fixed(6)),
            ("accurate", self.value(8)),
            ("floor", self.value(9)),
        ]
    }

    /// C's terms, named, zeros included: C 11, recoil and aim (P6-CRIT-1, P6-RCL-1, P6-AIM-1);
    /// all zero for a burst, which has no C.
    pub fn c(&self) -> [(&'static str, i32); 3] {
        if self.can_crit() { [("C", 11), ("recoil", self.value(5)), ("aim", self.value(10))] } else { [("C", 0); 3] }
    }

    /// The terms with their names, and last what a byte could not hold of them (`beyond`, zero
    /// in any scenario within a stat block's numbers), so that they always add up to `total`.
    pub fn named_for<const N: usize>(
        terms: [(&'static str, i32); N],
        total: i32,
    ) -> impl Iterator<Item = (&'static str, i32)> {
        crate::with_beyond(terms, total)
    }
}

/// A change to the state, or a line of the log.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// An initiative roll (P6-INIT-1/3).
    Initiative {
        /// Who.
        who: CombatantId,
        /// Each die's total.
        dice: Totals,
        /// What the score adds to the dice: Quickness (P6-INIT-1), none under `initiative_roll =
        /// quickness_d6_sum` (P6-INIT-3). The score is the dice's sum plus this.
        bonus: i32,
        /// Score.
        score: i32,
    },
    /// A tie draw or reroll (P6-INIT-2).
    TieBreak {
        /// Who.
        who: CombatantId,
        /// The draw.
        draw: i32,
    },
    /// The fixed order.
    Order {
        /// In acting order.
        order: List<CombatantId, 8>,
    },
    /// A round begins.
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// A check: round-start, K.O. or disarm resistance, first aid, a throw.
    Check {
        /// Who rolls.
        who: CombatantId,
        /// What for.
        what: &'static str,
        /// Dice.
        dice: i32,
        /// Minimum roll.
        m: i32,
        /// Totals.
        totals: Totals,
        /// Successes.
        successes: i32,
    },
    /// A condition's new value.
    Condition {
        /// Who.
        who: CombatantId,
        /// Which.
        cond: Cond,
        /// New value (0 ends it).
        value: i32,
    },
    /// Dead.
    Died {
        /// Who.
        who: CombatantId,
    },
    /// Out of the fight now (for the ledger).
    Out {
        /// Who.
        who: CombatantId,
    },
    /// The pool is refilled at the turn's start (P6-ACT-2).
    Refreshed {
        /// Who.
        who: CombatantId,
        /// Actions now.
        actions: i32,
    },
    /// An act declared and its cost paid.
    Acted {
        /// Who.
        who: CombatantId,
        /// The act.
        act: Act,
        /// Actions paid.
        cost: i32,
    },
    /// Actions gained (bonus or destiny die) or stolen.
    Actions {
        /// Who.
        who: CombatantId,
        /// Change now.
        delta: i32,
        /// Added to the pending steals.
        steal_later: i32,
        /// Bonus dice spent.
        bonus: i32,
        /// Destiny dice spent.
        destiny: i32,
    },
    /// Moved.
    Moved {
        /// Who.
        who: CombatantId,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// Hunkered or stood up.
    Posture {
        /// Who.
        who: CombatantId,
        /// Hunkered now.
        hunkered: bool,
    },
    /// Aim or accurate points now.
    Aimed {
        /// Who.
        who: CombatantId,
        /// Aim points.
        aim: i32,
        /// Accurate points.
        accurate: i32,
    },
    /// A hit roll (P6-ATK-*).
    AttackRoll {
        /// Attacker.
        attacker: CombatantId,
        /// Target.
        target: CombatantId,
        /// The act.
        act: Act,
        /// Dice.
        dice: i32,
        /// Minimum roll.
        m: i32,
        /// Crit threshold (0: none possible).
        c: i32,
        /// The terms of `dice`, `m` and `c`.
        terms: HitTerms,
        /// Each die's total.
        totals: Totals,
        /// Normal hits.
        normals: u8,
        /// Crit levels, one per crit.
        crits: List<u8, 8>,
        /// Ammunition used (at most 3, a burst's).
        ammo: u8,
        /// The recoil chain position after it.
        chain: u8,
    },
    /// A reaction roll (P6-DEF-2/3, P6-SHLD-3).
    Reacted {
        /// Who.
        who: CombatantId,
        /// What.
        reaction: Reaction,
        /// Dice.
        dice: i32,
        /// Minimum roll.
        m: i32,
        /// Totals.
        totals: Totals,
        /// Successes.
        successes: i32,
    },
    /// A cover roll (P6-COVER-*).
    CoverRoll {
        /// Whose cover.
        who: CombatantId,
        /// The cover value.
        value: i32,
        /// Crit dice totals.
        crit_totals: Totals,
        /// Normal-hit dice totals.
        normal_totals: Totals,
        /// Crits removed.
        crits_removed: u8,
        /// Normal hits removed.
        normals_removed: u8,
    },
    /// What an attack did (P6-DMG-*).
    Wounded {
        /// Who.
        who: CombatantId,
        /// By whom.
        by: Option<CombatantId>,
        /// Normal hits left after protection.
        normals: u8,
        /// Crit levels left.
        crits: List<u8, 8>,
        /// Protection used.
        protection: i32,
        /// Wounds caused.
        wounds: i32,
        /// Boosts used.
        boosts_used: i32,
        /// Wounds on the track after.
        track: i32,
    },
    /// A boost spent on a roll (P6-RES-4/5), and the roll after it.
    RollBoosted {
        /// Who spends it.
        who: CombatantId,
        /// On which roll.
        roll: BoostedRoll,
        /// What.
        boost: Boost,
        /// The roll's ordinary dice now.
        totals: Totals,
        /// Its destiny dice rolled apart now.
        apart: Totals,
    },
    /// The aim and accurate bonuses are lost (P6-AIM-2/3, P6-SPECIAL-2).
    AimLost {
        /// Who.
        who: CombatantId,
    },
    /// Shield block up or down.
    ShieldBlock {
        /// Who.
        who: CombatantId,
        /// Up.
        up: bool,
    },
    /// Braced or picked up.
    Braced {
        /// Who.
        who: CombatantId,
        /// Braced now.
        on: bool,
    },
    /// Reloaded or readied.
    Readied {
        /// Who.
        who: CombatantId,
        /// Reloaded (else drawn).
        reload: bool,
    },
    /// Disarmed: the main weapon falls (P6-SPECIAL-7/8).
    Disarmed {
        /// Who.
        who: CombatantId,
    },
    /// A throwable lands (P6-THROW-*).
    Landed {
        /// The thrower.
        who: CombatantId,
        /// The item.
        item: u8,
        /// Where.
        at: Pos,
        /// The deviation d12 and d6, if it deviated.
        deviation: Option<(u8, u8)>,
    },
    /// Normal hits stopped by protection (P6-DMG-1/2); changes nothing of the state, and says
    /// in the log where hits went.
    Protected {
        /// Who.
        who: CombatantId,
        /// The protection, before piercing.
        protection: i32,
        /// The weapon's piercing.
        piercing: i32,
        /// Normal hits stopped.
        stopped: u8,
    },
    /// Armour worn down (P6-ARM-2).
    ArmourWorn {
        /// Who.
        who: CombatantId,
        /// The piece.
        piece: u8,
        /// Condition after.
        pct: i32,
    },
    /// A boost gained (first aid).
    Boosted {
        /// Who.
        who: CombatantId,
    },
    /// Stabilised (P6-TRACK-6/7).
    Stabilised {
        /// Who.
        who: CombatantId,
    },
    /// A sleeper wakes (P6-SPECIAL-12).
    Woke {
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

impl Ruleset for PhaseSix {
    const ID: &'static str = "phasesix";
    type Setup = Setup;
    type State = State;
    type Event = Event;
    type Request = Request;
    type Choice = Choice;

    fn initial_state(setup: &Setup) -> State {
        let mut state = State { round: 0, order: List::new(), actor: None, fighters: Vec::new(), outs: 0 };
        Self::reset_state(setup, &mut state);
        state
    }

    fn reset_state(setup: &Setup, state: &mut State) {
        debug_assert!(
            setup.combatants.iter().all(|s| s.derived == setup::Derived::of(s)),
            "a sheet changed after loading without being derived again"
        );
        state.round = 0;
        state.order.clear();
        state.actor = None;
        state.outs = 0;
        state.fighters.clear();
        for i in 0..setup.combatants.len() {
            let mut fighter = fresh(&setup.combatants[i]);
            if setup.joins_late(i) {
                status::absent(&mut fighter);
            }
            state.fighters.push(fighter);
        }
    }

    // Inlined into every emit, where the event's kind is known: only its own arm is left.
    #[inline(always)]
    fn apply(setup: &Setup, state: &mut State, event: &Event) {
        let round = state.round;
        match event {
            Event::Initiative { who, score, .. } => state.fighters[who.index()].init = *score,
            Event::TieBreak { .. } | Event::Check { .. } | Event::Reacted { .. } | Event::CoverRoll { .. } => {}
            Event::Landed { who, item, .. } => {
                let x = &mut state.fighters[who.index()];
                if let Some(n) = x.items.get_mut(*item as usize) {
                    *n = n.saturating_sub(1);
                }
            }
            Event::Order { order } => state.order.clone_from(order),
            Event::RoundStarted { round } => {
                state.round = *round;
                for x in &mut state.fighters {
                    x.chain = 0;
                }
            }
            Event::Condition { who, cond, value } => {
                let x = &mut state.fighters[who.index()];
                x.cond[*cond as usize] = *value;
                if (*cond == Cond::Dying || *cond == Cond::Unconscious) && *value > 0 {
                    x.actions = 0;
                }
                if *cond == Cond::Dying && *value == 0 {
                    x.stabilised = true;
                }
            }
            Event::Died { who } => {
                let x = &mut state.fighters[who.index()];
                x.dead = true;
                x.actions = 0;
            }
            Event::Out { .. } => state.outs += 1,
            Event::Ended { .. } => {}
            Event::Adjusted { who, change } => status::adjust(setup, state, *who, change),
            Event::Refreshed { who, actions } => {
                state.actor = Some(*who);
                let x = &mut state.fighters[who.index()];
                x.actions = *actions;
                x.steals = 0;
                x.started = true;
                x.chain = 0;
            }
            Event::Acted { who, act, cost } => {
                let x = &mut state.fighters[who.index()];
                x.actions -= cost;
                // Spending a bonus or destiny die takes no action (P6-RES-1/2), so it is no act
                // between two attacks and keeps the recoil chain (P6-RCL-2).
                let keeps_chain = matches!(act, Act::Attack { .. } | Act::SpendBonus | Act::Steal(_));
                if !keeps_chain {
                    x.chain = 0;
                }
                if !matches!(act, Act::Aim { .. } | Act::Attack { .. } | Act::SpendBonus | Act::Steal(_)) {
                    x.accurate = 0;
                    if !setup.options.aim_persists {
                        x.aim = 0;
                    }
                }
            }
            Event::Actions { who, delta, steal_later, bonus, destiny } => {
                let x = &mut state.fighters[who.index()];
                x.actions = (x.actions + delta).max(0);
                x.steals += steal_later;
                x.bonus_dice -= bonus;
                x.destiny_dice -= destiny;
            }
            Event::Moved { who, to, .. } => {
                let x = &mut state.fighters[who.index()];
                x.pos = *to;
                x.braced = false;
            }
            Event::Posture { who, hunkered } => state.fighters[who.index()].hunkered = *hunkered,
            Event::Aimed { who, aim, accurate } => {
                let x = &mut state.fighters[who.index()];
                x.aim = *aim;
                x.accurate = *accurate;
            }
            Event::AttackRoll { attacker, act, ammo, chain, .. } => {
                let x = &mut state.fighters[attacker.index()];
                x.aim = 0;
                x.accurate = 0;
                x.chain = *chain;
                if let Act::Attack { hand, .. } = act {
                    let w = match hand {
                        Hand::Main => setup.combatants[attacker.index()].main_hand,
                        Hand::Off => setup.combatants[attacker.index()].off_hand,
                        Hand::Unarmed => None,
                    };
                    if let Some(Some(a)) = w.and_then(|w| x.ammo.get_mut(w)) {
                        *a = (*a - i32::from(*ammo)).max(0);
                    }
                }
            }
            Event::Wounded { who, wounds, boosts_used, track, .. } => {
                let x = &mut state.fighters[who.index()];
                let _ = wounds;
                x.boosts -= boosts_used;
                x.wounds = *track;
            }
            Event::RollBoosted { who, boost, .. } => {
                let x = &mut state.fighters[who.index()];
                match boost {
                    Boost::BonusDie => x.bonus_dice -= 1,
                    Boost::DestinyDie | Boost::DestinyReroll => x.destiny_dice -= 1,
                    Boost::Reroll => x.rerolls -= 1,
                }
            }
            Event::AimLost { who } => {
                // Being hit loses the aim bonus and the accurate bonus (P6-AIM-2, P6-SPECIAL-2).
                let x = &mut state.fighters[who.index()];
                x.aim = 0;
                x.accurate = 0;
            }
            Event::ShieldBlock { who, up } => state.fighters[who.index()].block = up.then_some(round),
            Event::Braced { who, on } => state.fighters[who.index()].braced = *on,
            Event::Readied { who, reload } => {
                let main = setup.combatants[who.index()].main_hand;
                let x = &mut state.fighters[who.index()];
                if *reload {
                    if let Some(w) = main {
                        x.ammo[w] = setup.combatants[who.index()].weapons[w].capacity;
                    }
                } else {
                    x.armed = true;
                }
            }
            Event::Disarmed { who } => {
                let x = &mut state.fighters[who.index()];
                x.armed = false;
                x.braced = false;
            }
            Event::Protected { .. } => {}
            Event::ArmourWorn { who, piece, pct } => {
                if let Some(p) = state.fighters[who.index()].armour_pct.get_mut(*piece as usize) {
                    *p = *pct;
                }
            }
            Event::Boosted { who } => state.fighters[who.index()].boosts += 1,
            Event::Stabilised { who } => {
                let x = &mut state.fighters[who.index()];
                x.cond[Cond::Dying as usize] = 0;
                x.stabilised = true;
            }
            Event::Woke { who } => state.fighters[who.index()].sleeping = false,
        }
        if let Event::Reacted { who, .. } = event {
            let x = &mut state.fighters[who.index()];
            x.actions -= 1;
            x.chain = 0;
            x.accurate = 0;
            // A reaction is an act of the character: under `aim_persists = false` it cancels the
            // aim bonus as any other act does (P6-AIM-4).
            if !setup.options.aim_persists {
                x.aim = 0;
            }
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
            Event::AttackRoll { attacker, normals, crits, .. } => {
                Some(Tally::Attack { by: *attacker, hit: *normals > 0 || !crits.is_empty(), crit: !crits.is_empty() })
            }
            Event::Wounded { who, by, wounds, .. } => Some(Tally::Damage { by: *by, to: *who, amount: *wounds }),
            Event::Out { who } => Some(Tally::Downed { who: *who }),
            _ => None,
        }
    }

    fn check_choice(_setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
        match (request, choice) {
            (Request::Act { .. }, Choice::Act(_)) => Ok(()),
            (Request::React { .. }, Choice::React { buy, .. }) if *buy <= 2 => Ok(()),
            (Request::Boost { .. }, Choice::Boost(_)) => Ok(()),
            (request, choice) => Err(format!("{choice:?} does not answer {request:?}")),
        }
    }

    fn run<D: Dice, P: fray_engine::Decider<Self>, S: Sink<Event>>(
        fight: &mut Fight<'_, Self, D, P, S>,
    ) -> Result<FightResult, FightError> {
        run::run(fight)
    }
}

/// A combatant's fighter as the fight starts, or as it joins the fight mid-way.
pub(super) fn fresh(s: &setup::Sheet) -> Fighter {
    let mut cond = [0; 6];
    cond.copy_from_slice(&s.conditions);
    Fighter {
        actions: 0,
        steals: 0,
        started: false,
        init: 0,
        aim: 0,
        accurate: 0,
        chain: 0,
        block: None,
        braced: false,
        ammo: s.weapons.iter().map(|w| w.ammo.or(w.capacity)).collect(),
        armed: s.main_hand.is_some(),
        wounds: s.wounds,
        boosts: s.boosts,
        cond,
        hunkered: s.hunkered,
        sleeping: s.sleeping,
        dead: s.dead,
        stabilised: false,
        bonus_dice: s.bonus_dice,
        destiny_dice: s.destiny_dice,
        rerolls: s.rerolls,
        pos: s.position,
        armour_pct: s.armour.iter().map(|a| a.condition_pct).collect(),
        items: s.items.iter().map(|i| i.count).collect(),
        removed: false,
        absent: false,
    }
}
