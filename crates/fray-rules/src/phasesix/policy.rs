//! Named AI policies for every `phasesix` decision (target, actions kept for reactions, which
//! reaction, fire mode, aiming, hunkering, spending bonus and destiny dice, closing in, throwing),
//! the legality of acts and reactions, and a scripted decider for tests.

use super::run::{cost, hit_dice, main_weapon, numbers, parry_dp, two_weapons, weapon_of};
use super::setup::{Class, Mode, Setup};
use super::{Act, Boost, BoostedRoll, Choice, Cond, Hand, PhaseSix, Reaction, Request, Special, State};
use fray_engine::{CombatantId, Decider, Pending, Pos};

pub use super::setup::POLICIES;

/// How far a walk, run or crawl goes (P6-MOVE-1/4, P6-SHLD-2/4).
pub fn move_m(setup: &Setup, state: &State, who: CombatantId, kind: u8) -> f64 {
    let s = &setup.combatants[who.index()];
    let q = s.quickness;
    let base = match kind {
        0 => q + 1,
        1 => q + 5,
        _ => (q + 1).div_euclid(2) + 1,
    }
    .max(0);
    if state.fighter(who).block.is_some() {
        if setup.options.halving_down { f64::from(base / 2) } else { f64::from((base + 1) / 2) }
    } else {
        f64::from(base)
    }
}

/// Whether `who` is helpless as a coup-de-grâce target (P6-SPECIAL-11).
fn helpless_target(state: &State, t: CombatantId) -> bool {
    let x = state.fighter(t);
    x.condition(Cond::Unconscious) > 0 || x.sleeping || x.condition(Cond::Dying) > 0
}

/// Why an act is not allowed ([`illegal`]): a reason that borrows what it names from the setup,
/// so that asking whether an act is legal (the AI asks it of every act it weighs) allocates
/// nothing; its text is built only when shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Why<'a> {
    /// A reason that needs no numbers or names.
    Static(&'static str),
    /// Not enough actions left.
    Actions {
        /// Actions the act costs.
        needed: i32,
        /// Actions left.
        available: i32,
    },
    /// The weapon has no such attack mode.
    NoMode {
        /// The weapon's name.
        weapon: &'a str,
        /// The mode asked for.
        mode: Mode,
    },
    /// Too few rounds loaded.
    Rounds {
        /// The weapon's name.
        weapon: &'a str,
        /// Rounds loaded.
        loaded: i32,
        /// Rounds the mode needs.
        need: i32,
    },
    /// The target is out of reach or range.
    Reach {
        /// The weapon's name.
        weapon: &'a str,
        /// Beyond twice the range (`range_rule` = 1).
        twice: bool,
        /// A melee weapon's reach rather than a range.
        melee: bool,
    },
}

impl std::fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Why::Static(why) => f.write_str(why),
            Why::Actions { needed, available } => write!(f, "{needed} action(s) needed, {available} available"),
            Why::NoMode { weapon, mode } => write!(f, "{weapon} has no {} mode", mode.name()),
            Why::Rounds { weapon, loaded, need } => write!(f, "{weapon} has {loaded} round(s), {need} needed"),
            Why::Reach { weapon, melee: true, .. } => write!(f, "the target is beyond {weapon}'s reach"),
            Why::Reach { weapon, twice: false, .. } => write!(f, "the target is beyond {weapon}'s range"),
            Why::Reach { weapon, twice: true, .. } => write!(f, "the target is beyond twice {weapon}'s range"),
        }
    }
}

/// Why an act is not allowed now, if it is not.
#[inline(always)]
pub fn illegal<'a>(setup: &'a Setup, state: &State, who: CombatantId, act: &Act) -> Option<Why<'a>> {
    let x = state.fighter(who);
    let price = cost(setup, state, who, act);
    if price > x.actions {
        return Some(Why::Actions { needed: price, available: x.actions });
    }
    illegal_but_cost(setup, state, who, act)
}

/// Why an act is not allowed now apart from its cost, if it is not: weapon, mode, reach,
/// ammunition, readiness, position and resources ([`illegal`] checks the cost first). A reaction
/// paid with a bought action is judged by this (P6-REACT-3).
///
/// Inlined: the AI asks it of acts it has just built, most of whose fields it then knows, and
/// needs only whether there is a reason, not the reason.
#[inline(always)]
pub fn illegal_but_cost<'a>(setup: &'a Setup, state: &State, who: CombatantId, act: &Act) -> Option<Why<'a>> {
    let options = &setup.options;
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let valid = |t: CombatantId| t.index() < setup.combatants.len();
    let within = |t: CombatantId, r: f64, from: Pos| from.distance(state.fighter(t).pos) <= r + 1e-9;
    match *act {
        Act::Attack { target, hand, mode, special, walk, .. } => {
            if !valid(target) || target == who {
                return Some(Why::Static("no such target"));
            }
            if hand == Hand::Off && !two_weapons(setup, who) {
                return Some(Why::Static("an off-hand attack needs two weapons of one type and the skill"));
            }
            if hand == Hand::Main && s.main_hand.is_some() && !x.armed {
                return Some(Why::Static("the main weapon must be readied first"));
            }
            let (w, index) = weapon_of(setup, who, hand);
            if w.modes & mode.bit() == 0 {
                return Some(Why::NoMode { weapon: &w.name, mode });
            }
            if let (Some(i), Some(_)) = (index, w.capacity) {
                let loaded = x.ammo.get(i).copied().flatten().unwrap_or(0);
                let need = match mode {
                    Mode::Melee => 0,
                    Mode::Burst if options.burst_partial => 1,
                    Mode::Burst => 3,
                    _ => 1,
                };
                if loaded < need {
                    return Some(Why::Rounds { weapon: &w.name, loaded, need });
                }
            }
            let from = match walk {
                Some(to) => {
                    if !options.walk_combine {
                        return Some(Why::Static("walking is a separate act (walk_combine = off)"));
                    }
                    if x.hunkered && !options.hunkered_any_move {
                        return Some(Why::Static("a hunkered character may only crawl"));
                    }
                    // `>` → `>=` differs only at exactly the walk plus 1e-9: an equivalent
                    // mutant (TESTING.md).
                    if x.pos.distance(to) > move_m(setup, state, who, 0) + 1e-9 {
                        return Some(Why::Static("too far for a walk"));
                    }
                    to
                }
                None => x.pos,
            };
            match (w.class, options.range_rule) {
                (Class::Melee, _) if !options.melee_reach_ignore && !within(target, w.range_m, from) => {
                    return Some(Why::Reach { weapon: &w.name, twice: false, melee: true });
                }
                (Class::Ranged | Class::Thrown, 0) if !within(target, w.range_m, from) => {
                    return Some(Why::Reach { weapon: &w.name, twice: false, melee: false });
                }
                (Class::Ranged | Class::Thrown, 1) if !within(target, 2.0 * w.range_m, from) => {
                    return Some(Why::Reach { weapon: &w.name, twice: true, melee: false });
                }
                _ => {}
            }
            match special {
                Special::Ko if !(w.blunt && (index.is_some() || options.ko_unarmed)) => {
                    Some(Why::Static("a K.O. needs a blunt weapon"))
                }
                Special::Massive(n) if n == 0 || (options.massive_melee_only && w.class != Class::Melee) => {
                    Some(Why::Static("a massive attack is a melee attack with extra actions"))
                }
                Special::Coup if !helpless_target(state, target) => {
                    Some(Why::Static("a coup de grâce needs an unconscious, sleeping or dying target"))
                }
                _ => None,
            }
        }
        Act::Aim { .. } => (s.perception <= 0).then_some(Why::Static("aiming needs Perception")),
        Act::Walk(to) | Act::Run(to) => {
            if x.hunkered && !options.hunkered_any_move {
                return Some(Why::Static("a hunkered character may only crawl (stand up first)"));
            }
            let kind = u8::from(matches!(act, Act::Run(_)));
            // Here and for a crawl, `>` → `>=` differs only at exactly the move plus 1e-9: an
            // equivalent mutant (TESTING.md).
            (x.pos.distance(to) > move_m(setup, state, who, kind) + 1e-9).then_some(Why::Static("too far"))
        }
        Act::Crawl(to) => {
            if !x.hunkered {
                return Some(Why::Static("crawling needs a hunkered character"));
            }
            (x.pos.distance(to) > move_m(setup, state, who, 2) + 1e-9).then_some(Why::Static("too far to crawl"))
        }
        Act::Hunker => x.hunkered.then_some(Why::Static("already hunkered")),
        Act::StandUp => (!x.hunkered).then_some(Why::Static("not hunkered")),
        Act::RaiseShield => {
            let one_handed = main_weapon(setup, who).is_none_or(|w| w.hands == 1);
            (s.shield.is_none() || !one_handed || two_weapons(setup, who) || x.block.is_some())
                .then_some(Why::Static("a shield block needs a shield, a one-handed weapon and no block up"))
        }
        Act::LowerShield => x.block.is_none().then_some(Why::Static("no shield block is up")),
        Act::Brace => (main_weapon(setup, who).is_none_or(|w| !w.supportable) || x.braced)
            .then_some(Why::Static("the main weapon cannot be braced (or already is)")),
        Act::Reload => {
            // A thrown weapon leaves the hand (P6-MODE-4): there is no magazine to refill; it is
            // gone once thrown (P6-MODE-6 reloads only weapons with a capacity).
            if main_weapon(setup, who).is_some_and(|w| w.class == Class::Thrown) {
                return Some(Why::Static("a thrown weapon cannot be reloaded"));
            }
            let full = s.main_hand.and_then(|i| Some((x.ammo[i]?, s.weapons[i].capacity?))).is_none_or(|(a, c)| a >= c);
            full.then_some(Why::Static("nothing to reload"))
        }
        Act::Ready => (x.armed || s.main_hand.is_none()).then_some(Why::Static("nothing to ready")),
        Act::FirstAid(p) => {
            if !valid(p) || p == who || !within(p, 1.0, x.pos) {
                return Some(Why::Static("first aid needs a patient within 1 m"));
            }
            let y = state.fighter(p);
            (y.dead || (y.condition(Cond::Dying) == 0 && y.wounds == 0 && y.condition(Cond::Bleeding) == 0))
                .then_some(Why::Static("the patient needs no first aid"))
        }
        Act::Extinguish(t) => (!valid(t) || !within(t, 1.0, x.pos) || state.fighter(t).condition(Cond::Burning) == 0)
            .then_some(Why::Static("nobody burning within 1 m")),
        Act::Throw { item, target } => (!valid(target) || x.items.get(item as usize).is_none_or(|&n| n == 0))
            .then_some(Why::Static("nothing to throw")),
        Act::SpendBonus => (x.bonus_dice == 0).then_some(Why::Static("no bonus dice left")),
        Act::Steal(t) => (x.destiny_dice == 0 || !valid(t) || setup.combatants[t.index()].side == s.side)
            .then_some(Why::Static("no destiny dice or no opponent")),
        Act::End => None,
    }
}

/// Why a reaction is not allowed, if it is not (P6-DEF-2/3, P6-SHLD-3, P6-REACT-3).
///
/// Inlined: the AI asks it of every reaction it picks, needing only whether there is a reason.
#[allow(clippy::too_many_arguments, reason = "the attack reacted to, whole")]
#[inline(always)]
pub fn illegal_reaction(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    attacker: CombatantId,
    target: CombatantId,
    mode: Mode,
    r: Reaction,
    buy: u8,
) -> Option<&'static str> {
    let options = &setup.options;
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    // A destiny die steals from the attacker: from the actor only while it has an action left
    // (P6-RES-2/3).
    if buy == 2 && state.actor == Some(attacker) && state.fighter(attacker).actions < 1 {
        return Some("the attacker has no action left to steal");
    }
    let actions = x.actions
        + match buy {
            1 if x.bonus_dice > 0 => 1,
            2 if x.destiny_dice > 0 => 1,
            _ => 0,
        };
    if actions < 1 {
        return Some("no action left for a reaction");
    }
    // Defences are the attacked participant's; others react only under `reaction_menu = any`
    // (P6-REACT-1/3).
    let defence = matches!(r, Reaction::Dodge | Reaction::Parry | Reaction::ShieldParry);
    if defence && who != target {
        return Some("only the attacked participant can dodge or parry");
    }
    if who == attacker || (who != target && !options.reaction_any) {
        return Some("only the attacked participant reacts here");
    }
    match r {
        Reaction::Dodge => (mode != Mode::Melee).then_some("only a melee attack can be dodged"),
        Reaction::Parry => {
            let armed_melee = main_weapon(setup, who).is_some_and(|w| w.class == Class::Melee) && x.armed;
            (mode != Mode::Melee || !(armed_melee || options.unarmed_parry))
                .then_some("a parry needs a melee attack and a ready melee weapon")
        }
        Reaction::ShieldParry => {
            // A shield is used only beside a one-handed weapon (P6-SHLD-1).
            let one_handed = main_weapon(setup, who).is_none_or(|w| w.hands == 1);
            (s.shield_cover(options).is_none() || two_weapons(setup, who) || !one_handed)
                .then_some("a shield parry needs a shield and at most a one-handed weapon")
        }
        Reaction::Hunker => (!options.reaction_any || x.hunkered).then_some("hunkering is not a reaction here"),
        Reaction::Attack { hand, mode } => {
            let act =
                Act::Attack { target: attacker, hand, mode, special: Special::None, walk: None, from_behind: false };
            if !options.reaction_any {
                Some("an attack is not a reaction here")
            } else if cost(setup, state, who, &act) != 1 {
                Some("only an act of 1 action can be a reaction")
            } else {
                // The action itself was counted above (a bought one included): everything but
                // the cost is checked, whatever the actions in hand.
                illegal_but_cost(setup, state, who, &act)
                    .map(|_| "that attack is not possible now (weapon, mode, reach or rounds)")
            }
        }
    }
}

/// The AI.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai;

impl Decider<PhaseSix> for Ai {
    const CHECKED: bool = false;

    // Inlined into every request, whose kind is then known: only its own arm is left.
    #[inline(always)]
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(ai_choice(setup, state, who, request))
    }
}

/// `who`'s value of policy `field` (an index into its names).
fn policy(setup: &Setup, who: CombatantId, field: usize) -> u8 {
    setup.combatants[who.index()].policy.0[field]
}

crate::policy_values!(POLICIES;
    TARGET_WEAKEST = 0 "weakest",
    TARGET_FIRST = 0 "first",
    KEEP_NONE = 1 "none",
    KEEP_ALL = 1 "all",
    DEFEND_DODGE = 2 "dodge",
    DEFEND_PARRY = 2 "parry",
    DEFEND_SHIELD = 2 "shield",
    DEFEND_NEVER = 2 "never",
    FIRE_BURST = 3 "burst",
    AIM_RANGED = 4 "ranged",
    AIM_ALWAYS = 4 "always",
    HUNKER_UNDER_FIRE = 5 "under_fire",
    SPEND_TO_DEFEND = 6 "to_defend",
    SPEND_TO_HIT = 6 "to_hit",
    SPEND_ALWAYS = 6 "always",
    MOVE_CLOSE = 7 "close",
    THROW_FIRST = 8 "first",
);

/// The enemy `who` goes for (`target` policy): among the enemies not out, those still standing
/// (not helpless) first — under `out_when = dead` a Dying or Unconscious enemy is not out yet,
/// but is finished off only once nobody stands (P6-TRACK-8, P6-SPECIAL-11).
pub fn choose_target(setup: &Setup, state: &State, who: CombatantId) -> Option<CombatantId> {
    let side = setup.combatants[who.index()].side;
    let options = &setup.options;
    let not_out = |i: usize| setup.combatants[i].side != side && !state.fighters[i].out(options);
    // Only under `out_when = dead` can an enemy not out be helpless: otherwise one pass.
    let sort = options.out_when_dead
        && (0..setup.combatants.len()).any(|i| not_out(i) && !state.fighters[i].helpless(options));
    let policy = policy(setup, who, 0);
    // One pass in scenario order, an enemy replacing the best so far only when strictly better,
    // so that of equals the first is kept.
    let mut best: Option<CombatantId> = None;
    for i in (0..setup.combatants.len()).filter(|&i| not_out(i) && !(sort && state.fighters[i].helpless(options))) {
        let c = CombatantId(i as u16);
        let better = best.is_none_or(|b| match policy {
            // The most wounded.
            TARGET_WEAKEST => state.fighter(c).wounds > state.fighter(b).wounds,
            TARGET_FIRST => false,
            // The nearest.
            _ => state.distance(who, c).total_cmp(&state.distance(who, b)).is_lt(),
        });
        if better {
            best = Some(c);
        }
    }
    best
}

/// The AI's answer.
#[inline(always)]
pub fn ai_choice(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Choice {
    match request {
        Request::Act { .. } => Choice::Act(act(setup, state, who)),
        Request::React { attacker, target, mode, normals, crits, .. } => {
            react(setup, state, who, *attacker, *target, *mode, *normals, *crits)
        }
        Request::Boost { roll, totals, apart, m, .. } => {
            Choice::Boost(boost(setup, state, who, *roll, totals, apart, *m))
        }
    }
}

/// The `spend` policy on a roll just seen (P6-RES-4/5): a roll with no success gets a bonus die,
/// else a reroll, else a destiny die as a bonus die — a hit or throwing roll under `to_hit`, a
/// dodge, parry or cover roll under `to_defend`, and any of them or a check under `always`.
fn boost(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    roll: BoostedRoll,
    totals: &[u8],
    apart: &[u8],
    m: i32,
) -> Option<Boost> {
    let spends = spends_on(setup, who, roll);
    let success = totals.iter().any(|&t| i32::from(t) >= m) || apart.iter().any(|&t| i32::from(t) >= m.min(4));
    if !spends || success {
        return None;
    }
    let x = state.fighter(who);
    [Boost::BonusDie, Boost::Reroll, Boost::DestinyDie].into_iter().find(|b| b.illegal(x, totals.len()).is_none())
}

/// Whether `who`'s `spend` policy spends bonus dice, rerolls and destiny dice on a `roll` with no
/// success (P6-RES-4/5): a hit or throwing roll under `to_hit`, a dodge, parry or cover roll under
/// `to_defend`, any roll under `always`. Shared by the AI and the odds.
pub fn spends_on(setup: &Setup, who: CombatantId, roll: BoostedRoll) -> bool {
    matches!(
        (policy(setup, who, 6), roll),
        (SPEND_ALWAYS, _)
            | (SPEND_TO_HIT, BoostedRoll::Hit | BoostedRoll::Throw)
            | (SPEND_TO_DEFEND, BoostedRoll::Dodge | BoostedRoll::Parry | BoostedRoll::Cover)
    )
}

#[allow(clippy::too_many_arguments, reason = "the attack reacted to, whole")]
fn react(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    attacker: CombatantId,
    target: CombatantId,
    mode: Mode,
    normals: u8,
    crits: u8,
) -> Choice {
    // The AI defends itself; it does not react to attacks on others.
    if who != target {
        return Choice::React { reaction: None, buy: 0 };
    }
    let x = state.fighter(who);
    let can_steal = state.actor != Some(attacker) || state.fighter(attacker).actions >= 1;
    let buy = if x.actions >= 1 || !matches!(policy(setup, who, 6), SPEND_TO_DEFEND | SPEND_ALWAYS) {
        0
    } else if x.bonus_dice > 0 {
        1
    } else if x.destiny_dice > 0 && can_steal {
        2
    } else {
        0
    };
    let legal = |r: Reaction| illegal_reaction(setup, state, who, attacker, target, mode, r, buy).is_none();
    let pick = match policy(setup, who, 2) {
        DEFEND_NEVER => None,
        DEFEND_DODGE => Some(Reaction::Dodge).filter(|r| legal(*r)),
        DEFEND_PARRY => Some(Reaction::Parry).filter(|r| legal(*r)),
        DEFEND_SHIELD => Some(Reaction::ShieldParry).filter(|r| legal(*r)),
        // The legal reaction expected to stop the most, crits counted double; none when none
        // would stop anything (ties: parry, dodge, shield parry).
        _ => {
            // One pass in the order of the ties, a reaction replacing the best so far only when it
            // stops strictly more (and more than nothing); its legality asked only then.
            let mut best: Option<(Reaction, f64)> = None;
            for (r, stop) in expected_stops(setup, state, who, normals, crits) {
                if stop > best.map_or(0.0, |(_, most)| most) && legal(r) {
                    best = Some((r, stop));
                }
            }
            best.map(|(r, _)| r)
        }
    };
    Choice::React { reaction: pick, buy: if pick.is_some() { buy } else { 0 } }
}

/// P(d6! ≥ t) as a float, for the AI's comparisons (the rules use the exact fraction,
/// `dice::at_least`): 6^−k · (7 − j)/6 for t = 6k + j.
fn chance(t: i32) -> f64 {
    if t <= 1 {
        return 1.0;
    }
    let k = (t - 1) / 6;
    if k == 0 {
        // No explosion needed: the factor 6^0 is exactly 1, the product the same.
        return f64::from(7 - t) / 6.0;
    }
    f64::from(7 - (t - 6 * k)) / 6.0 * (1.0 / 6.0f64).powi(k)
}

/// The hits `who` expects each defence — parry, dodge and shield parry, in that order, the order
/// of ties — to stop out of `normals` normal hits and `crits` crits (crits counted double: they
/// ignore protection and bring megacrit wounds), by the reaction rules: a dodge stops all or
/// nothing (P6-DEF-1/2), a parry stops one normal hit per success (P6-DEF-3), a shield parry rolls
/// the shield's cover for every hit (P6-SHLD-1), worth only what it adds to the cover the hits
/// face anyway. All three at once: they share the defender's numbers.
fn expected_stops(setup: &Setup, state: &State, who: CombatantId, normals: u8, crits: u8) -> [(Reaction, f64); 3] {
    let options = &setup.options;
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let weight = f64::from(normals) + 2.0 * f64::from(crits);
    let base_m = s.min_roll + x.condition(Cond::Poisoned) + i32::from(x.hunkered);
    let shocked = x.condition(Cond::Shocked);
    let parry = {
        let dice_n = (s.hand_to_hand + parry_dp(setup, state, who) - shocked).max(0);
        let m = super::dice::floor(options, base_m + x.condition(Cond::Burning), 0);
        (f64::from(dice_n) * chance(m)).min(f64::from(normals))
    };
    let dodge = {
        let dice_n = s.derived.evasion - shocked;
        let t = base_m + i32::from(normals) + i32::from(crits);
        if dice_n <= 0 { 0.0 } else { (1.0 - (1.0 - chance(t)).powi(dice_n)) * weight }
    };
    let shield = s.shield_cover(options).map_or(0.0, |v| {
        let block = x.block.is_some_and(|rd| rd < state.round || options.block_immediately);
        let cover = [s.cover, x.hunkered.then_some(6), block.then_some(v)];
        let already = cover.into_iter().flatten().min().map_or(0.0, chance);
        (chance(v) - already).max(0.0) * weight
    });
    [(Reaction::Parry, parry), (Reaction::Dodge, dodge), (Reaction::ShieldParry, shield)]
}

/// The mode the AI attacks with using its main weapon (the `fire` policy).
fn main_mode(setup: &Setup, who: CombatantId) -> Mode {
    let (w, _) = weapon_of(setup, who, Hand::Main);
    if w.class == Class::Melee {
        Mode::Melee
    } else if w.class == Class::Thrown {
        Mode::Thrown
    } else if policy(setup, who, 3) == FIRE_BURST && w.modes & Mode::Burst.bit() != 0 {
        Mode::Burst
    } else if w.modes & Mode::Single.bit() != 0 {
        Mode::Single
    } else {
        Mode::Burst
    }
}

/// Whether some enemy still in the fight attacks in melee (a melee weapon in either hand, or bare
/// hands) and gets a turn before `who`'s next one ([`acts_before_next_turn`]): only a melee
/// attack can be dodged or parried, never a single shot, burst or throw (P6-DEF-2/3,
/// P6-MODE-2..4), and a kept action is lost at `who`'s next turn (P6-ACT-2/4), so `keep = "one"`
/// saves an action only against such an enemy.
fn reactable_foe(setup: &Setup, state: &State, who: CombatantId) -> bool {
    let side = setup.combatants[who.index()].side;
    setup.combatants.iter().zip(&state.fighters).enumerate().any(|(i, (c, f))| {
        c.side != side
            && !f.out(&setup.options)
            && c.derived.melee
            && acts_before_next_turn(setup, state, who, CombatantId(i as u16))
            && may_close_and_strike(setup, state, who, CombatantId(i as u16))
    })
}

/// Whether `foe` could come within melee reach of `who` and strike on its next turn: its longest
/// melee reach (P6-ATK-4) plus every metre the actions its pool is refilled with (P6-ACT-2) could
/// take it, one action kept for the strike (P6-ACT-5): runs or walks with the rest (P6-MOVE-1,
/// costs P6-ACT-6) and a walk combined with the strike (P6-MOVE-2/3). An overestimate (hunkering, a
/// shield block and other fighters are ignored), so the AI keeps an action when in doubt.
/// A pool holds at most 11 actions (P6-ACT-3), so the loop is short.
fn may_close_and_strike(setup: &Setup, state: &State, who: CombatantId, foe: CombatantId) -> bool {
    let options = &setup.options;
    if options.melee_reach_ignore {
        return true;
    }
    let reach = setup.combatants[foe.index()].derived.reach;
    let q = setup.combatants[foe.index()].quickness;
    let (walk_m, run_m) = ((q + 1).max(0), (q + 5).max(0));
    let walk = if options.walk_combine { f64::from(walk_m) } else { 0.0 };
    let d = state.distance(who, foe);
    // Within reach of the strike and its walk: no other action needed (the usual case).
    if d <= reach + walk + 1e-9 {
        return true;
    }
    let spare = (super::run::max_actions(setup, foe) - state.fighter(foe).steals - 1).max(0);
    let (walk_cost, run_cost) = (i32::from(options.act_cost[0]), i32::from(options.act_cost[1]));
    if walk_cost == 0 || run_cost == 0 {
        return true; // a free walk or run goes any distance
    }
    // The farthest the spare actions go: some runs, separate walks with what is left.
    let moved = (0..=spare / run_cost).map(|runs| runs * run_m + (spare - runs * run_cost) / walk_cost * walk_m).max();
    d <= reach + walk + f64::from(moved.unwrap_or(0)) + 1e-9
}

/// Whether `foe` gets a turn with actions to spend after `who`'s current turn and before its
/// next one, when `who`'s kept actions are reset (P6-ACT-2, P6-ACT-4). Initiative is rolled once
/// and the order repeats every round (P6-INIT-1, P6-ROUND-1): a foe after `who` in the order acts
/// later this round, and a foe before it acts first in the next round — if there is one: not
/// after the last round of `round_cap`. Its pool is refilled then (P6-ACT-2), so it needs
/// actions to refill: none while it is helpless (P6-ACT-3), nor when pending steals take them
/// all (P6-RES-2/3). (A helpless foe that might come round at the next round's checks is not
/// counted.)
fn acts_before_next_turn(setup: &Setup, state: &State, who: CombatantId, foe: CombatantId) -> bool {
    let f = state.fighter(foe);
    if f.helpless(&setup.options) || super::run::max_actions(setup, foe) - f.steals <= 0 {
        return false;
    }
    let place = |c: CombatantId| state.order.iter().position(|&o| o == c);
    match (place(who), place(foe)) {
        (Some(me), Some(them)) => them > me || state.round < setup.options.round_cap,
        // No order yet (before initiative): assume it acts.
        _ => true,
    }
}

/// The throw the `throw = first` policy makes at `target` when it throws first, or why it does
/// not: its first object left, unless the blast on the target would catch the thrower or a
/// friend (P6-THROW-4), the target is more than 20 m away, or the throw is not possible. Shared by
/// the AI and the odds.
#[inline(always)]
pub fn throw_at(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> Result<Act, &'static str> {
    let side = setup.combatants[who.index()].side;
    let Some(item) = state.fighter(who).items.iter().position(|&n| n > 0) else { return Err("nothing left to throw") };
    let a = Act::Throw { item: item as u8, target };
    if illegal(setup, state, who, &a).is_some() {
        return Err("the throw is not possible now");
    }
    if state.distance(who, target) > 20.0 {
        return Err("the target is more than 20 m away");
    }
    let at = state.fighter(target).pos;
    let spares_friends = (0..setup.combatants.len())
        .all(|i| setup.combatants[i].side != side || !super::run::caught(&setup.options, state.fighters[i].pos, at));
    if spares_friends { Ok(a) } else { Err("the blast on the target would catch the thrower or a friend") }
}

/// Whether `who`, holding the actions it holds, has one to spare for an act under its `keep`
/// policy (the first question of its turn), as the AI asks it.
pub fn spares_an_action(setup: &Setup, state: &State, who: CombatantId) -> bool {
    let x = state.fighter(who);
    match policy(setup, who, 1) {
        KEEP_NONE => x.actions >= 1,
        KEEP_ALL => false,
        _ => x.actions > 1 || (x.actions >= 1 && !reactable_foe(setup, state, who)),
    }
}

/// The AI's next act.
fn act(setup: &Setup, state: &State, who: CombatantId) -> Act {
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    // Whether the actions to spare — those left less those kept for reactions (the `keep`
    // policy) — reach `n`. Under `keep = one` an action is kept when a foe could make a reaction
    // worth it ([`reactable_foe`], a look at every foe): looked at only when that decides the
    // answer (not with two actions left and one needed), and once.
    let reactable = std::cell::OnceCell::new();
    let spare_reaches = |n: i32| match policy(setup, who, 1) {
        KEEP_NONE => x.actions >= n,
        KEEP_ALL => 0 >= n,
        _ => x.actions > n || (x.actions >= n && !*reactable.get_or_init(|| reactable_foe(setup, state, who))),
    };
    // Every act below but readying the weapon needs an action to spare: without one, and with
    // the weapon in hand (or none to ready), the turn ends, whoever the target would be (the
    // usual last question of a turn, answered without weighing the rest).
    let unready = main_weapon(setup, who).is_some() && !x.armed;
    if !spare_reaches(1) && !unready {
        return Act::End;
    }
    let Some(target) = choose_target(setup, state, who) else { return Act::End };
    let ok = |a: Act| illegal(setup, state, who, &a).is_none();
    // Throw first (the `throw` policy).
    if policy(setup, who, 8) == THROW_FIRST
        && spare_reaches(1)
        && let Ok(a) = throw_at(setup, state, who, target)
    {
        return a;
    }
    // Hunker under fire (the `hunker` policy): enemies with guns, no terrain cover.
    // Only a shooter hunkers: one who must close in would stand up again to move (and hunker
    // again, round after round).
    // And only one that can shoot from where it is: one out of range would stand up again to
    // close in (a hunker, stand-up loop under `move = close`).
    let shooter = main_weapon(setup, who).is_some_and(|w| w.class == Class::Ranged);
    let here = Act::Attack {
        target,
        hand: Hand::Main,
        mode: main_mode(setup, who),
        special: Special::None,
        walk: None,
        from_behind: false,
    };
    let can_shoot = shooter && illegal_but_cost(setup, state, who, &here).is_none();
    if policy(setup, who, 5) == HUNKER_UNDER_FIRE && !x.hunkered && s.cover.is_none() && spare_reaches(1) && can_shoot {
        let guns = (0..setup.combatants.len()).any(|i| {
            setup.combatants[i].side != s.side
                && !state.fighters[i].out(&setup.options)
                && main_weapon(setup, CombatantId(i as u16)).is_some_and(|w| w.class == Class::Ranged)
        });
        if guns && ok(Act::Hunker) {
            return Act::Hunker;
        }
    }
    if unready {
        return if ok(Act::Ready) { Act::Ready } else { Act::End };
    }
    let (w, index) = weapon_of(setup, who, Hand::Main);
    if let (Some(i), Some(_)) = (index, w.capacity) {
        if x.ammo[i].unwrap_or(0) == 0 {
            return if ok(Act::Reload) && spare_reaches(1) { Act::Reload } else { Act::End };
        }
    }
    let mode = main_mode(setup, who);
    // A helpless target (left in the fight under `out_when = dead`) gets a coup de grâce, which
    // raises its Dying, rather than a normal attack, whose wounds may do nothing (P6-SPECIAL-11/12,
    // P6-TRACK-4).
    let special = if helpless_target(state, target) { Special::Coup } else { Special::None };
    let attack = |walk| Act::Attack { target, hand: Hand::Main, mode, special, walk, from_behind: false };
    // No attack with a pool of no dice unless a bonus die could roll it (P6-RES-4).
    let rollable = |a: Act| {
        let dice = match a {
            Act::Attack { hand, mode, special, .. } => hit_dice(setup, state, who, hand, mode, special).dice,
            _ => 0,
        };
        dice > 0 || (x.bonus_dice > 0 && matches!(policy(setup, who, 6), SPEND_TO_HIT | SPEND_ALWAYS))
    };
    // Aim before a shot (the `aim` policy), while actions allow an attack after it.
    // Never when aiming cannot help the attack: a burst, or a throw under `thrown_aim =
    // forbidden` (P6-AIM-1, P6-MODE-4).
    let aimable = mode != Mode::Burst && !(mode == Mode::Thrown && setup.options.thrown_aim_forbidden);
    let aims = aimable
        && match policy(setup, who, 4) {
            AIM_ALWAYS => true,
            AIM_RANGED => mode == Mode::Single || mode == Mode::Thrown,
            _ => false,
        };
    if aims
        && spare_reaches(2)
        && x.aim < s.perception
        && ok(Act::Aim { accurate: false })
        && ok(attack(None))
        && rollable(attack(None))
    {
        return Act::Aim { accurate: false };
    }
    if spare_reaches(1) && ok(attack(None)) && rollable(attack(None)) {
        return attack(None);
    }
    // Too few rounds left for a burst: a single shot if the weapon has one, else a reload.
    let short = |i: usize| x.ammo[i].is_some_and(|a| a < if setup.options.burst_partial { 1 } else { 3 });
    if mode == Mode::Burst && spare_reaches(1) && index.is_some_and(short) {
        let single = Act::Attack {
            target,
            hand: Hand::Main,
            mode: Mode::Single,
            special: Special::None,
            walk: None,
            from_behind: false,
        };
        if w.modes & Mode::Single.bit() != 0 && ok(single) && rollable(single) {
            return single;
        }
        if ok(Act::Reload) {
            return Act::Reload;
        }
    }
    // Close in: a walk combined with the attack, else a run or a walk.
    if policy(setup, who, 7) == MOVE_CLOSE && spare_reaches(1) {
        let from = x.pos;
        let to = state.fighter(target).pos;
        let d = from.distance(to);
        let reach = w.range_m;
        let step = |max: f64| {
            let go = (d - reach * 0.9).clamp(0.0, max);
            Pos { x: from.x + (to.x - from.x) * go / d.max(1e-9), y: from.y + (to.y - from.y) * go / d.max(1e-9) }
        };
        let walk_to = step(move_m(setup, state, who, 0));
        if ok(attack(Some(walk_to))) && rollable(attack(Some(walk_to))) {
            return attack(Some(walk_to));
        }
        if x.hunkered && ok(Act::StandUp) {
            return Act::StandUp;
        }
        let run_to = step(move_m(setup, state, who, 1));
        if run_to.distance(from) > 1e-9 && ok(Act::Run(run_to)) {
            return Act::Run(run_to);
        }
    }
    Act::End
}

/// A scripted decider for tests and worked examples: each combatant's queued answers first, the
/// AI after them.
pub type Script = crate::Script<PhaseSix, Ai>;

/// The numbers of an attack, for prompts and odds.
pub fn attack_numbers(setup: &Setup, state: &State, who: CombatantId, act: &Act) -> (i32, i32, i32) {
    let n = numbers(setup, state, who, act);
    (n.dice, n.m, n.c)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ai_chance_is_the_exact_chance_as_a_float() {
        // rule: P6-DICE-2
        for t in -3..60 {
            let (n, d) = super::super::dice::at_least(t);
            let exact = n as f64 / d as f64;
            assert!((super::chance(t) - exact).abs() <= exact * 1e-12, "{t}");
        }
    }
}
