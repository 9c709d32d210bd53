//! Named AI policies for every `opend6` decision (how many actions, defence, waiting, combat
//! option, target, points, movement), the legality of choices, and a scripted decider for tests.

use super::attack;
use super::setup::{Level, Posture, Setup, SkillId};
use super::{Action, AttackPlan, Called, Choice, DefKind, Loc, Mode, OpenD6, Ready, Request, State};
use fray_engine::{CombatantId, Decider, Pending};

pub use super::setup::POLICIES;

/// Whether `who` may only defend or move away: massive damage (OD6-TRACK-9) or the stunned
/// `defend_only` effect (OD6-TRACK-5).
pub fn restricted(setup: &Setup, state: &State, who: CombatantId) -> bool {
    let x = state.fighter(who);
    massive(state, who) || setup.options.stunned_defend_only && x.stun_until == state.round && x.stun_until > 0
}

/// Whether `who` is under the massive-damage restriction this round (OD6-TRACK-9).
pub fn massive(state: &State, who: CombatantId) -> bool {
    state.fighter(who).restricted.is_some_and(|(from, until)| from <= state.round && state.round <= until)
}

/// The skill an action rolls, if it rolls one, and its base code when not the skill's own.
fn action_skill(setup: &Setup, who: CombatantId, action: &Action) -> Option<(SkillId, Option<super::setup::DieCode>)> {
    let sheet = &setup.combatants[who.index()];
    match action {
        Action::Attack(plan) => sheet.weapons.get(plan.weapon as usize).map(|w| (w.skill, None)),
        Action::Defend { kind: DefKind::Dodge, .. } => Some((SkillId::DODGE, None)),
        Action::Defend { kind: DefKind::Block(None), .. } => Some((SkillId::BRAWLING, None)),
        Action::Defend { kind: DefKind::Block(Some(_)), .. } => Some((SkillId::MELEE, None)),
        Action::Escape => Some(strength_skill(sheet)),
        Action::FirstAid(_) | Action::Revive(_) => Some((SkillId::MEDICINE, None)),
        Action::Recover => Some(stamina_skill(sheet)),
        _ => None,
    }
}

/// Lifting, or Strength when lifting is not listed.
pub fn strength_skill(sheet: &super::setup::Sheet) -> (SkillId, Option<super::setup::DieCode>) {
    if sheet.has_skill(SkillId::LIFTING) {
        (SkillId::LIFTING, None)
    } else {
        (SkillId::LIFTING, Some(sheet.strength()))
    }
}

/// The higher of stamina and willpower.
pub fn stamina_skill(sheet: &super::setup::Sheet) -> (SkillId, Option<super::setup::DieCode>) {
    let (stamina, willpower) = (sheet.skill(SkillId::STAMINA), sheet.skill(SkillId::WILLPOWER));
    if willpower.pips_value() > stamina.pips_value() { (SkillId::WILLPOWER, None) } else { (SkillId::STAMINA, None) }
}

/// Whether an action's roll has dice left (OD6-DICE-7); `None` when it rolls nothing.
pub fn dice_left(setup: &Setup, state: &State, who: CombatantId, action: &Action) -> Option<i32> {
    let (skill, base) = action_skill(setup, who, action)?;
    Some(attack::action_code_from(setup, state, who, skill, base, false, 0).dice)
}

/// Whether `action` may be chosen as far as its dice go (OD6-DICE-7): it rolls nothing, dice are
/// left, `zero_dice = pips_only`, or the dice were lost after N was declared (then it is
/// forfeited when it comes).
pub fn rollable(setup: &Setup, state: &State, who: CombatantId, action: &Action) -> bool {
    let x = state.fighter(who);
    setup.options.zero_dice_pips_only
        || dice_left(setup, state, who, action).is_none_or(|d| d > 0)
        || super::level_penalty(&setup.options, x, state.round) > x.declared_penalty
}

/// The request for `who`'s next action.
pub fn act_request(setup: &Setup, state: &State, who: CombatantId, free_ok: bool) -> Request {
    let x = state.fighter(who);
    let sheet = &setup.combatants[who.index()];
    let only = x.declared == 1 && x.used == 0;
    let held = x.held_by.is_some() && !setup.options.hold_no_move;
    let defend_only = restricted(setup, state, who);
    let aiming = x.aim.is_some_and(|a| a.2 == state.round);
    let leg = i32::from(x.locations & (1 << Loc::Leg as u8) != 0);
    let mut move_m = if x.held_by.is_some() || aiming || setup.options.bands { 0 } else { (sheet.move_m - leg).max(0) };
    // Crouching while moving halves the move (OD6-DIFF-5).
    if x.posture == Posture::Crouching {
        move_m /= 2;
    }
    let free_move_m = if free_ok && !x.free_moved { move_m / 2 } else { 0 };
    Request::Act { remaining: x.declared.saturating_sub(x.used), only, move_m, free_move_m, held, defend_only, free_ok }
}

/// Why an action is not allowed now, if it is not.
pub fn illegal_action(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    request: &Request,
    action: &Action,
) -> Option<String> {
    let Request::Act { only, move_m, free_move_m, held, defend_only, free_ok, .. } = *request else {
        return Some("not an action request".into());
    };
    let x = state.fighter(who);
    let sheet = &setup.combatants[who.index()];
    let restricted_to = |ok: bool, what: &str| (!ok).then(|| format!("{what} is not allowed now"));
    if held && !matches!(action, Action::Escape | Action::Pass) {
        return Some("a held character may only try to escape (OD6-COND-3)".into());
    }
    if defend_only
        && !matches!(
            action,
            Action::Defend { .. } | Action::Move { .. } | Action::Recover | Action::Pass | Action::Posture(_)
        )
    {
        return Some("only active defence or moving away is allowed (OD6-TRACK-5/9)".into());
    }
    // A roll with no dice cannot be chosen; one reduced after N was declared is forfeited (OD6-DICE-7).
    if !rollable(setup, state, who, action) {
        return Some("no dice are left for that roll (OD6-DICE-7)".into());
    }
    match *action {
        Action::Attack(plan) => {
            if defend_only {
                return Some("only active defence or moving away is allowed (OD6-TRACK-5/9)".into());
            }
            attack::illegal(setup, state, who, &plan, only)
        }
        Action::Defend { kind, full } => {
            if x.no_defense {
                return Some("no active defence this round (all-out attack or full auto)".into());
            }
            if full && !only {
                return Some("a full defence must be the round's only action (OD6-DEF-8)".into());
            }
            match kind {
                DefKind::Block(Some(w)) => {
                    let ok = sheet.weapons.get(w as usize).is_some_and(|wp| wp.skill == SkillId::MELEE)
                        && x.weapons.get(w as usize).is_some_and(|s| s.drawn);
                    restricted_to(ok, "parrying with that weapon")
                }
                _ => None,
            }
        }
        Action::Wait => restricted_to(!defend_only, "waiting"),
        Action::Move { to, free } => {
            let d = (to - x.pos).abs();
            let limit = if free { free_move_m } else { move_m };
            if d == 0 || d > limit {
                return Some(format!("a move of {d} m is not allowed (at most {limit} m)"));
            }
            if defend_only {
                let nearest = |pos: i32| {
                    (0..setup.combatants.len())
                        .filter(|&i| setup.combatants[i].side != sheet.side && !state.fighters[i].out(&setup.options))
                        .map(|i| (state.fighters[i].pos - pos).abs())
                        .min()
                        .unwrap_or(i32::MAX)
                };
                if nearest(to) < nearest(x.pos) {
                    return Some("only moving away from enemies is allowed".into());
                }
            }
            None
        }
        Action::Aim(target) => {
            if !only || x.free_moved || setup.combatants.get(target.index()).is_none() || target == who {
                return Some("aiming must be the round's only action, with no move (OD6-ATK-4)".into());
            }
            restricted_to(!defend_only, "aiming")
        }
        Action::Ready(w, what) => {
            let (Some(weapon), Some(state_w)) = (sheet.weapons.get(w as usize), x.weapons.get(w as usize)) else {
                return Some(format!("no weapon number {w}"));
            };
            let ok = match what {
                Ready::Draw => !state_w.drawn,
                Ready::Reload => weapon.ammo_max.is_some_and(|m| state_w.ammo.is_some_and(|a| a < m)),
                Ready::Switch => weapon.stun_capable,
            };
            restricted_to(ok && !defend_only, "readying that")
        }
        Action::StandUp => restricted_to(x.forced_down && x.posture != Posture::Standing, "standing up"),
        Action::Posture(p) => restricted_to(free_ok && !x.forced_down && p != x.posture, "that posture change"),
        Action::Escape => restricted_to(x.held_by.is_some(), "escaping"),
        Action::Squeeze => restricted_to(
            state.fighters.iter().any(|f| f.held_by == Some(who) && f.held_round < state.round),
            "squeezing (in a round after the hold began)",
        ),
        Action::FirstAid(p) | Action::Revive(p) => {
            let Some(patient) = state.fighters.get(p.index()) else { return Some("no such patient".into()) };
            let treatable = match action {
                Action::Revive(_) => patient.unconscious() && patient.level < Level::Incapacitated,
                _ => patient.level > Level::Healthy && patient.level < Level::Dead,
            };
            // Adjacent: within Point Blank (OD6-HEAL-2). Under `position_model = bands` the
            // line positions mean nothing: the pair's band must be Point Blank.
            let adjacent =
                if setup.options.bands { setup.band(who.index(), p.index()) == 0 } else { state.distance(who, p) <= 3 };
            let ok = p != who && adjacent && !patient.aided && treatable;
            restricted_to(ok, "first aid on that patient")
        }
        Action::Recover => restricted_to(massive(state, who) && x.recovery_round != state.round, "recovering"),
        Action::MoveUp => Some("moving up is offered by the rules, not chosen".into()),
        Action::Pass => None,
    }
}

/// Whether a choice has the shape its request asks for.
pub fn check(_setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
    match (request, choice) {
        (Request::QuickDraw, Choice::QuickDraw(None)) => Ok(()),
        (Request::QuickDraw, Choice::QuickDraw(Some(q))) if q.n >= 1 && q.k >= 1 => Ok(()),
        (Request::QuickDraw, Choice::QuickDraw(Some(_))) => {
            Err("a quick draw declares N ≥ 1 and moves k ≥ 1 dice".into())
        }
        (Request::Declare { max }, Choice::Count(n)) if (1..=*max).contains(n) => Ok(()),
        (Request::Declare { max }, Choice::Count(n)) => Err(format!("declare 1 to {max} actions, not {n}")),
        (Request::Act { .. }, Choice::Act(_)) => Ok(()),
        (Request::Interrupt { .. }, Choice::Interrupt(None)) => Ok(()),
        (
            Request::Interrupt { .. },
            Choice::Interrupt(Some(Action::Defend { full: false, .. } | Action::Attack(_))),
        ) => Ok(()),
        (Request::Interrupt { .. }, Choice::Interrupt(Some(_))) => {
            Err("an interrupt is an active defence or an attack".into())
        }
        (Request::Resume { .. } | Request::MoveUp, Choice::Resume(_)) => Ok(()),
        (Request::Fate { .. }, Choice::Fate(n)) if *n <= 2 => Ok(()),
        (Request::Cp { max, .. }, Choice::Cp(n)) if n <= max => Ok(()),
        (Request::Cp { max, .. }, Choice::Cp(n)) => Err(format!("at most {max} Character Points, not {n}")),
        (request, choice) => Err(format!("{choice:?} does not answer {request:?}")),
    }
}

/// The AI: answers every request from the combatant's named policies.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai;

impl Decider<OpenD6> for Ai {
    const CHECKED: bool = false;

    // Inlined into every request, whose kind is then known: only its own arm is left.
    #[inline(always)]
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(ai_choice(setup, state, who, request))
    }

    fn passes_optional(&self, setup: &Setup, who: CombatantId, request: &Request) -> bool {
        ai_passes(setup, who, request)
    }
}

/// Whether the AI answers an optional request (Fate, Character Points, resuming early) with no.
pub(crate) fn ai_passes(setup: &Setup, who: CombatantId, request: &Request) -> bool {
    match request {
        Request::Fate { .. } | Request::QuickDraw => true,
        Request::MoveUp => false,
        Request::Cp { .. } => !spends_cp(setup, who),
        Request::Resume { last } => !last,
        _ => false,
    }
}

/// Whether `who` spends Character Points under its `points` policy (OD6-RES-5).
fn spends_cp(setup: &Setup, who: CombatantId) -> bool {
    match setup.combatants[who.index()].policy.points {
        0 => setup.options.ai_threshold,
        1 => false,
        _ => true,
    }
}

/// The AI's answer.
#[inline(always)]
pub fn ai_choice(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Choice {
    match request {
        Request::QuickDraw => Choice::QuickDraw(None),
        Request::Declare { max } => Choice::Count(declare(setup, state, who).clamp(1, *max)),
        Request::Act { .. } => {
            // The AI never chooses a roll with no dice left (OD6-DICE-7), nor anything else the
            // rules forbid now (a held and restricted character, OD6-COND-3 with OD6-TRACK-5/9):
            // it passes instead, which is always allowed.
            let action = act(setup, state, who, request);
            // `act` attacks only with a plan `attack::check_attack` has just allowed, and never
            // when held or restricted: of the whole check only the dice are left to look at.
            let legal = match action {
                Action::Attack(_) => rollable(setup, state, who, &action),
                _ => illegal_action(setup, state, who, request, &action).is_none(),
            };
            debug_assert_eq!(legal, illegal_action(setup, state, who, request, &action).is_none());
            Choice::Act(if legal { action } else { Action::Pass })
        }
        Request::Interrupt { target, total, difficulty, close, .. } => {
            // A threatened target defends with its best defence against this attack (a block
            // only against close combat, OD6-DEF-5), when it may (dice left, OD6-DICE-7).
            let x = state.fighter(who);
            let threatened = *target == Some(who) && total >= difficulty && x.used < x.declared && !x.no_defense;
            let defend = Action::Defend { kind: best_defence(setup, state, who, *close), full: false };
            let may = threatened
                && illegal_action(setup, state, who, &act_request(setup, state, who, false), &defend).is_none();
            Choice::Interrupt(may.then_some(defend))
        }
        Request::Resume { last } => Choice::Resume(*last),
        Request::MoveUp => Choice::Resume(true),
        Request::Fate { .. } => Choice::Fate(0),
        Request::Cp { total, need, .. } => {
            Choice::Cp(u32::from(spends_cp(setup, who) && need.is_some_and(|n| *total < n)))
        }
    }
}

/// `who`'s value of policy `field`.
fn policy(setup: &Setup, who: CombatantId, field: usize) -> u8 {
    setup.combatants[who.index()].policy.value(field)
}

crate::policy_values!(POLICIES;
    ACTIONS_DOUBLE = 0 "double",
    ACTIONS_DODGE_AND_ATTACK = 0 "dodge_and_attack",
    ACTIONS_WAIT_AND_DODGE = 0 "wait_and_dodge",
    ACTIONS_FULL_DEFENSE = 0 "full_defense",
    ACTIONS_CAUTIOUS = 0 "cautious",
    ACTIONS_AIM = 0 "aim",
    TARGET_WEAKEST = 1 "weakest",
    TARGET_FIRST = 1 "first",
    OPTION_ALL_OUT = 2 "all_out",
    OPTION_FULL_AUTO = 2 "full_auto",
    OPTION_HEAD = 2 "head",
    OPTION_KNOCKOUT = 2 "knockout",
    OPTION_LUNGE = 2 "lunge",
    OPTION_GRAB = 2 "grab",
    OPTION_KNOCKDOWN = 2 "knockdown",
    MOVE_CLOSE = 4 "close",
);

/// The enemy `who` goes for (`target` policy), among those not out of the fight.
pub fn choose_target(setup: &Setup, state: &State, who: CombatantId) -> Option<CombatantId> {
    let side = setup.combatants[who.index()].side;
    let enemy = |i: usize| {
        setup.combatants[i].side != side
            && !state.fighters[i].out(&setup.options)
            && setup.cover(who.index(), i).object < 100
    };
    let mut enemies = (0..setup.combatants.len()).filter(|&i| enemy(i)).map(|i| CombatantId(i as u16));
    match policy(setup, who, 1) {
        TARGET_WEAKEST => enemies.max_by_key(|&c| (state.fighter(c).level, std::cmp::Reverse(state.distance(who, c)))),
        TARGET_FIRST => enemies.next(),
        _ => {
            // The nearest, the first in scenario order among the nearest: a plain scan, as this
            // is asked for every declaration and every action.
            let pos = state.fighter(who).pos;
            let mut best: Option<(i32, usize)> = None;
            for i in 0..setup.combatants.len() {
                if enemy(i) {
                    let d = (state.fighters[i].pos - pos).abs();
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, i));
                    }
                }
            }
            best.map(|(_, i)| CombatantId(i as u16))
        }
    }
}

/// The weapon `who` prefers: the highest damage among drawn weapons that reach `target`, else
/// among all its weapons.
fn best_weapon(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> (u8, bool) {
    let sheet = &setup.combatants[who.index()];
    let x = state.fighter(who);
    // A normal attack's damage code, as pips (OD6-DMG-2/3): the listed code plus Strength Damage,
    // worked out only for a "+" weapon that is weighed (often none: the fists out of reach).
    let value = |w: usize| {
        let weapon = &sheet.weapons[w];
        weapon.damage.pips_value()
            + if weapon.strength_plus { 3 * super::roll::strength_damage(sheet, &setup.options) } else { 0 }
    };
    let d = state.distance(who, target);
    let usable = |w: usize| {
        let weapon = &sheet.weapons[w];
        let loaded = x.weapons[w].ammo.is_none_or(|a| a >= attack::ammo_needed(weapon, super::Mode::Normal))
            || !setup.options.ammo_tracking;
        loaded && (attack::band_at(d, weapon).is_some() || setup.options.bands)
    };
    // The highest value, the first listed among equals: a plain scan, as this is asked for
    // every declaration and every action.
    let mut best: Option<(i32, usize)> = None;
    for w in 0..sheet.weapons.len() {
        if x.weapons[w].drawn && usable(w) {
            let v = value(w);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, w));
            }
        }
    }
    if let Some((_, w)) = best {
        return (w as u8, true);
    }
    // Nothing reaches: the longest-reaching weapon to close with, preferring drawn ones.
    let reach = |w: usize| sheet.weapons[w].ranges.map_or(3, |r| r[2] as i32);
    let w = (0..sheet.weapons.len())
        .max_by_key(|&w| (x.weapons[w].drawn || sheet.weapons[w].ammo_max.is_none(), reach(w), value(w)))
        .unwrap_or(sheet.unarmed());
    (w as u8, false)
}

/// The farthest distance a weapon strikes from.
fn reach(setup: &Setup, who: CombatantId, weapon: u8) -> i32 {
    let w = &setup.combatants[who.index()].weapons[weapon as usize];
    match w.ranges {
        Some(r) => r[2] as i32,
        None if w.long => w.reach_short_m as i32,
        None => 3,
    }
}

/// The best active defence: dodge, or for close combat a block or parry when its code is higher.
pub fn best_defence(setup: &Setup, state: &State, who: CombatantId, close: bool) -> DefKind {
    let sheet = &setup.combatants[who.index()];
    let dodge = sheet.skill(SkillId::DODGE).pips_value();
    if !close {
        return DefKind::Dodge;
    }
    let x = state.fighter(who);
    let parry = (0..sheet.weapons.len())
        .find(|&w| sheet.weapons[w].skill == SkillId::MELEE && x.weapons[w].drawn)
        .map(|w| (sheet.skill(SkillId::MELEE).pips_value(), DefKind::Block(Some(w as u8))));
    let block = (sheet.skill(SkillId::BRAWLING).pips_value(), DefKind::Block(None));
    let best = parry.map_or(block, |p| if p.0 >= block.0 { p } else { block });
    if best.0 > dodge { best.1 } else { DefKind::Dodge }
}

/// Whether the nearest threat to `who` fights in close combat.
fn threat_is_close(setup: &Setup, state: &State, who: CombatantId) -> bool {
    choose_target(setup, state, who).is_some_and(|t| {
        let (w, _) = best_weapon(setup, state, t, who);
        setup.combatants[t.index()].weapons[w as usize].close()
    })
}

/// How many actions to declare (`actions` policy).
fn declare(setup: &Setup, state: &State, who: CombatantId) -> u8 {
    let Some(target) = choose_target(setup, state, who) else { return 1 };
    let sheet = &setup.combatants[who.index()];
    let x = state.fighter(who);
    // Restricted to defence or moving away (OD6-TRACK-5/9): a single defence is a full one
    // (+10, OD6-DEF-8), where two would be partial and each at −1D. Under massive damage a
    // second action is kept for the recovery roll while it is still to make.
    if restricted(setup, state, who) {
        let recovering = massive(state, who)
            && x.recovery_round != state.round
            && dice_left(setup, state, who, &Action::Recover).is_some_and(|d| d > 0);
        return if recovering { 2 } else { 1 };
    }
    let (weapon, _) = best_weapon(setup, state, who, target);
    let d = state.distance(who, target);
    let r = reach(setup, who, weapon);
    let half = sheet.move_m / 2;
    let closing = !setup.options.bands && d > r + half && policy(setup, who, 4) == MOVE_CLOSE;
    let wounded = x.level >= Level::Wounded;
    let n = match policy(setup, who, 0) {
        ACTIONS_FULL_DEFENSE => 1,
        ACTIONS_CAUTIOUS if wounded => 1,
        ACTIONS_AIM => 1,
        _ if closing => {
            if d > r + half + sheet.move_m {
                1
            } else {
                2
            }
        }
        // Two attacks only with a weapon that can make two this round (OD6-ACT-8).
        ACTIONS_DOUBLE => {
            let w = &sheet.weapons[weapon as usize];
            if w.quick { 2 } else { w.rate.clamp(1, 2) }
        }
        ACTIONS_DODGE_AND_ATTACK | ACTIONS_WAIT_AND_DODGE => 2,
        _ => 1,
    };
    if n <= 1 {
        // One action is always allowed: the cap below is at least 1.
        return n;
    }
    // Keep at least one die in the attack skill after the penalties.
    let dice = sheet.skill(sheet.weapons[weapon as usize].skill).dice
        - super::level_penalty(&setup.options, x, state.round)
        - i32::from(x.knock_pending);
    let most = (dice - 1 + sheet.allotment).clamp(1, 9) as u8;
    n.min(most)
}

/// The next action (`actions`, `option`, `move` policies).
fn act(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Action {
    let Request::Act { only, move_m, free_move_m, held, defend_only, .. } = request else {
        return Action::Pass;
    };
    let x = state.fighter(who);
    // A held character may only escape (OD6-COND-3), and a restricted one only defend or move
    // away (OD6-TRACK-5/9): both at once leave nothing but passing (escape is not a defence).
    if *held {
        return if *defend_only { Action::Pass } else { Action::Escape };
    }
    if massive(state, who)
        && x.recovery_round != state.round
        && dice_left(setup, state, who, &Action::Recover).is_some_and(|d| d > 0)
    {
        return Action::Recover;
    }
    // A second defence of a kind already rolled this round would replace the first value
    // (OD6-DEF-9: the value holds "from that moment"), at the same penalty: it is as likely to
    // lower it as to raise it, so the AI keeps the value it has and does not roll again.
    let defend = |kind: DefKind, full: bool| {
        let action = Action::Defend { kind, full };
        let set = x.defence_round == state.round
            && match kind {
                DefKind::Dodge => x.dodge.is_some(),
                DefKind::Block(_) => x.block.is_some(),
            };
        if !set && dice_left(setup, state, who, &action).is_some_and(|d| d > 0) { action } else { Action::Pass }
    };
    let can_defend = !x.no_defense;
    if *defend_only {
        return if can_defend {
            defend(best_defence(setup, state, who, threat_is_close(setup, state, who)), *only)
        } else {
            Action::Pass
        };
    }
    if state.fighters.iter().any(|f| f.held_by == Some(who) && f.held_round < state.round) {
        return Action::Squeeze;
    }
    let actions = policy(setup, who, 0);
    let full = |close: bool| defend(best_defence(setup, state, who, close), true);
    match actions {
        ACTIONS_FULL_DEFENSE if *only && can_defend => return full(threat_is_close(setup, state, who)),
        ACTIONS_CAUTIOUS if *only && can_defend && x.level >= Level::Wounded => {
            return full(threat_is_close(setup, state, who));
        }
        ACTIONS_WAIT_AND_DODGE if x.used == 0 && x.declared >= 2 => return Action::Wait,
        ACTIONS_DODGE_AND_ATTACK if x.used == 0 && x.declared >= 2 && can_defend => {
            // A defence with no dice left is skipped, not the whole turn (OD6-DICE-7).
            let action = Action::Defend {
                kind: best_defence(setup, state, who, threat_is_close(setup, state, who)),
                full: false,
            };
            if dice_left(setup, state, who, &action).is_some_and(|d| d > 0) {
                return action;
            }
        }
        _ => {}
    }
    let Some(target) = choose_target(setup, state, who) else { return Action::Pass };
    if x.forced_down && x.declared.saturating_sub(x.used) >= 2 {
        return Action::StandUp;
    }
    let (weapon, _) = best_weapon(setup, state, who, target);
    let ws = &x.weapons[weapon as usize];
    let sheet = &setup.combatants[who.index()];
    if !ws.drawn {
        return Action::Ready(weapon, Ready::Draw);
    }
    // Reload when a normal attack's rounds are not left (a burst weapon low but not empty too).
    let needed = attack::ammo_needed(&sheet.weapons[weapon as usize], super::Mode::Normal);
    // Never on a full magazine: reloading it is not allowed (OD6-GEAR-1).
    if setup.options.ammo_tracking
        && ws.ammo.is_some_and(|a| a < needed && sheet.weapons[weapon as usize].ammo_max.is_some_and(|m| a < m))
    {
        return Action::Ready(weapon, Ready::Reload);
    }
    // Under `move = close`, a target in the weapon's Long band is first closed on with the free
    // move (OD6-MOVE-2), up to the Medium band's edge: it costs no action, and the shot from
    // Medium is 5 easier (OD6-MOVE-3). (Not under the `aim` policy: aiming forbids moving,
    // OD6-ATK-4.)
    if *free_move_m > 0
        && actions != ACTIONS_AIM
        && policy(setup, who, 4) == MOVE_CLOSE
        && !setup.options.bands
        && let Some([_, medium, _]) = sheet.weapons[weapon as usize].ranges
        && attack::band(setup, state, who, target, &sheet.weapons[weapon as usize]) == Some(3)
    {
        let d = state.distance(who, target);
        let dir = (state.fighter(target).pos - x.pos).signum();
        let step = (*free_move_m).min(d - medium as i32).max(0);
        if step > 0 {
            return Action::Move { to: x.pos + dir * step, free: true };
        }
    }
    // Aim at a far target first (the `aim` policy), but only while unhurt: a wound of Stunned or
    // worse breaks the aim (OD6-ATK-4), so one being shot fires what aim it has instead of
    // starting over. Under `aim_interrupted_by = any_attack` a miss breaks it too, so one
    // under fire — attacked since the start of the last round by enemies one of whom can still
    // reach it — expects the next attack before its aimed shot and fires rather than aim for
    // nothing.
    if actions == ACTIONS_AIM
        && *only
        && x.level == Level::Healthy
        && !(setup.options.aim_any_attack && under_fire(setup, state, who))
        && x.bp >= x.bp_max
        && sheet.weapons[weapon as usize].skill.aimable()
        && attack::band(setup, state, who, target, &sheet.weapons[weapon as usize]).is_some_and(|b| b >= 2)
        && x.aim.is_none_or(|a| a.0 != target || a.1 < 3)
    {
        return Action::Aim(target);
    }
    let preferred = AttackPlan::new(target, weapon);
    if attack::check_attack(setup, state, who, &preferred, *only).is_ok() {
        return Action::Attack(with_option(setup, state, who, preferred, *only));
    }
    // Another weapon on the target, or the nearest enemy within reach.
    let attacks = attack::attack_options(setup, state, who, *only);
    let choice =
        attacks.iter().filter(|a| a.0 == target).max_by_key(|a| damage_value(setup, who, a.0, a.1)).or_else(|| {
            attacks
                .iter()
                .filter(|a| {
                    setup.combatants[a.0.index()].side != sheet.side && !state.fighters[a.0.index()].out(&setup.options)
                })
                .min_by_key(|a| a.2)
        });
    if let Some(&(target, weapon, _)) = choice {
        return Action::Attack(with_option(setup, state, who, AttackPlan::new(target, weapon), *only));
    }
    // Close in (the `move` policy).
    if policy(setup, who, 4) == MOVE_CLOSE && !setup.options.bands {
        let r = reach(setup, who, weapon);
        let d = state.distance(who, target);
        let toward = |step: i32| {
            let t = state.fighter(target).pos;
            let dir = (t - x.pos).signum();
            x.pos + dir * step.min(d - r.min(d)).max(0)
        };
        if *free_move_m > 0 && d > r {
            return Action::Move { to: toward(*free_move_m), free: true };
        }
        if *move_m > 0 && d > r {
            return Action::Move { to: toward(*move_m), free: false };
        }
    }
    Action::Pass
}

/// Whether `who` is under fire (OD6-ATK-4, `any_attack`): an attack was rolled at it this round
/// or the last, and an enemy still able to act has a weapon that reaches it (OD6-MOVE-3, -5)
/// once the enemy has made its free move and one move action (OD6-MOVE-2; nobody moves under
/// `position_model = bands`). A shooter since downed, or one who cannot come within reach, threatens no aim.
fn under_fire(setup: &Setup, state: &State, who: CombatantId) -> bool {
    let x = state.fighter(who);
    if x.attacked_round == 0 || x.attacked_round + 1 < state.round {
        return false;
    }
    let side = setup.combatants[who.index()].side;
    setup.combatants.iter().zip(&state.fighters).enumerate().any(|(i, (c, f))| {
        let enemy = CombatantId(i as u16);
        let reaches = |w: &super::setup::Weapon| {
            if setup.options.bands {
                attack::band(setup, state, enemy, who, w).is_some()
            } else {
                let closer = (state.distance(enemy, who) - c.move_m / 2 - c.move_m).max(0);
                attack::band_at(closer, w).is_some()
            }
        };
        c.side != side && f.able() && !f.out(&setup.options) && c.weapons.iter().any(reaches)
    })
}

fn damage_value(setup: &Setup, who: CombatantId, target: CombatantId, weapon: u8) -> i32 {
    attack::damage_code(setup, who, &AttackPlan::new(target, weapon), false).pips_value()
}

/// The `option` policy applied to a plan where it fits, else a normal attack.
fn with_option(setup: &Setup, state: &State, who: CombatantId, plan: AttackPlan, only: bool) -> AttackPlan {
    let mut with = plan;
    match policy(setup, who, 2) {
        OPTION_ALL_OUT => with.mode = Mode::AllOut,
        OPTION_FULL_AUTO => with.mode = Mode::FullAuto,
        OPTION_HEAD => with.called = Called::Location(Loc::Head),
        OPTION_KNOCKOUT => with.called = Called::Knockout,
        OPTION_LUNGE => with.mode = Mode::Lunge,
        OPTION_GRAB => with.mode = Mode::Grab,
        OPTION_KNOCKDOWN => with.mode = Mode::Knockdown,
        _ => return plan,
    }
    if attack::check_attack(setup, state, who, &with, only).is_ok() { with } else { plan }
}

/// A scripted decider for tests and worked examples: each combatant's queued answers first, the
/// AI after them.
pub type Script = crate::Script<OpenD6, Ai>;
