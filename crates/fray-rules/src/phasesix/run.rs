//! One `phasesix` fight: initiative once, rounds of turns with action pools, acts and reactions.

use super::dice::{self, Tier};
#[allow(unused_imports)]
use super::setup::Class as _;
use super::setup::{Class, Mode, Weapon};
use super::{Act, Boost, BoostedRoll, Choice, Cond, Event, Hand, List, PhaseSix, Reaction, Request, Special, Totals};
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Outcome, Pos, Reason, Sink};

type F<'f, 'a, D, P, S> = &'f mut Fight<'a, PhaseSix, D, P, S>;

/// Most tosses of one exploding die.
const CHAIN_CAP: u32 = 40;

/// One d6! chain (P6-DICE-2), each toss rolled for `reason` with its place in the chain
/// ([`Reason::explosion`]); `enough`: stop once the total reaches it (`explode_policy =
/// when_needed`).
fn chain<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    reason: Reason,
    enough: Option<i32>,
) -> Result<i32, FightError> {
    let mut total = 0;
    for toss in 0..CHAIN_CAP {
        // `explosion` only labels the toss for a person rolling physical dice (no rule reads it):
        // fray-cli's `tests/phasesix.rs` checks the labels, outside this ruleset's rule tests.
        let face = fight.roll(6, Reason { explosion: toss as u8, ..reason })? as i32;
        total += face;
        if face != 6 || enough.is_some_and(|e| total >= e) {
            break;
        }
    }
    Ok(total)
}

/// A pool of `n` d6!, die by die (P6-DICE-3), each die numbered in its reason ("die 2 of 5").
fn pool<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    what: &'static str,
    n: i32,
    enough: Option<i32>,
) -> Result<Totals, FightError> {
    let enough = enough.filter(|_| fight.setup().options.explode_when_needed);
    let n = n.clamp(0, 60);
    let mut out = Totals::new();
    for die in 0..n {
        let reason = Reason::new(who, what).of(n as u8).die(die as u8 + 1, 0);
        out.push(chain(fight, reason, enough)?.min(255) as u8);
    }
    Ok(out)
}

/// One d6! rolled on its own (a bonus or destiny die, an initiative tie).
fn single<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    what: &'static str,
    enough: Option<i32>,
) -> Result<i32, FightError> {
    chain(fight, Reason::new(who, what).of(1).die(1, 0), enough)
}

/// A check: `n` dice at `m`, successes with crit successes (P6-DICE-5).
fn check<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    roll: BoostedRoll,
    n: i32,
    m: i32,
) -> Result<i32, FightError> {
    let options = &fight.setup().options;
    let what = roll.name();
    let stop = if options.check_crits { None } else { Some(m) };
    let mut totals = pool(fight, who, what, n, stop)?;
    let mut apart = Totals::new();
    let seen = Seen { roll, against: None, m, c: None, enough: stop };
    boost(fight, who, &seen, &mut totals, &mut apart)?;
    let count =
        |dice: &Totals, m: i32| -> i32 { dice.iter().map(|&t| dice::check_successes(options, i32::from(t), m)).sum() };
    let successes = count(&totals, m) + count(&apart, m.min(4));
    fight.emit(Event::Check { who, what, dice: n, m, totals, successes });
    Ok(successes)
}

/// A participant's own minimum roll for physical rolls: Poisoned, Hunkered (P6-COND-5/6).
#[inline(always)]
fn base_m(fight: &Fight<'_, PhaseSix, impl Dice, impl Decider<PhaseSix>, impl Sink<Event>>, who: CombatantId) -> i32 {
    base_m_of(fight.setup(), fight.state(), who)
}

/// A participant's own minimum roll for physical rolls in `state`: the minimum roll with
/// Poisoned and Hunkered (P6-COND-5/6). Shared by the fight and the odds.
#[inline(always)]
pub(super) fn base_m_of(setup: &super::Setup, state: &super::State, who: CombatantId) -> i32 {
    let x = state.fighter(who);
    setup.combatants[who.index()].min_roll + x.condition(Cond::Poisoned) + i32::from(x.hunkered)
}

/// The dice of the target's check against a K.O. attack: Resistance less Shocked (P6-SPECIAL-3,
/// P6-COND-2). Shared by the fight and the odds.
pub(super) fn ko_resistance(setup: &super::Setup, state: &super::State, target: CombatantId) -> i32 {
    setup.combatants[target.index()].resistance - state.fighter(target).condition(Cond::Shocked)
}

/// The dice of the target's check against a disarm: the attribute `disarm_resist` names
/// (Strength, Deftness or the better of the two), less Shocked (P6-SPECIAL-8, P6-COND-2).
/// Shared by the fight and the odds.
pub(super) fn disarm_resistance(setup: &super::Setup, state: &super::State, target: CombatantId) -> i32 {
    let ts = &setup.combatants[target.index()];
    let attr = match setup.options.disarm_resist {
        1 => ts.strength,
        2 => ts.deftness,
        _ => ts.strength.max(ts.deftness),
    };
    attr - state.fighter(target).condition(Cond::Shocked)
}

/// What a coup de grâce with `successes` ≥ 1 does to a target at Dying `dying` (P6-SPECIAL-12):
/// `None` under `coup_de_grace = dead` (the target dies at once), else the new Dying: raised by
/// the successes, or under `dying_plus_wounds` an already Dying target's by the attack's wounds,
/// `wph` per success and the megacrits' `extra` levels (P6-DMG-3, P6-CRIT-2). Dying 6 kills
/// (P6-TRACK-5). Shared by the fight and the odds.
pub(super) fn coup_dying(options: &super::Options, dying: i32, successes: i32, wph: i32, extra: i32) -> Option<i32> {
    match options.coup {
        1 => None,
        2 if dying > 0 => Some(dying + successes * wph + extra),
        _ => Some(dying + successes),
    }
}

pub(super) fn run<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: &mut Fight<'_, PhaseSix, D, P, S>,
) -> Result<FightResult, FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    initiative(fight)?;
    let mut ended = None;
    if let Some(r) = end_check(fight, &mut ended, 0) {
        return Ok(r);
    }
    for round in 1..=options.round_cap {
        fight.emit(Event::RoundStarted { round });
        // With no round-start check rolled nobody's state changed since the last end check.
        if round_start(fight)?
            && let Some(r) = end_check(fight, &mut ended, round)
        {
            return Ok(r);
        }
        for k in 0..fight.state().order.len() {
            let who = fight.state().order[k];
            turn(fight, &mut ended, who)?;
            if let Some(r) = ended {
                return Ok(r);
            }
        }
        // Every act of the round's turns had its end check (an attack's when it sent anyone out),
        // and nothing else in a turn sends anyone out: no check is left to make here.
        debug_assert!(over(setup, fight.state()).is_none(), "a round ended in a fight already over");
    }
    let result = FightResult { outcome: Outcome::Stalemate, length: options.round_cap };
    fight.emit(Event::Ended { result });
    Ok(result)
}

/// The end (P6-TRACK-8): one side left with participants not out.
fn end_check<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    round: u32,
) -> Option<FightResult> {
    if ended.is_some() {
        return *ended;
    }
    let outcome = over(fight.setup(), fight.state())?;
    let result = FightResult { outcome, length: round };
    fight.emit(Event::Ended { result });
    *ended = Some(result);
    Some(result)
}

/// The outcome when one side is left with participants not out (P6-TRACK-8).
pub(super) fn over(setup: &super::Setup, state: &super::State) -> Option<Outcome> {
    let standing =
        state.fighters.iter().zip(&setup.combatants).filter(|(x, _)| !x.out(&setup.options)).map(|(_, c)| c.side);
    crate::standing_outcome(standing)
}

/// Initiative, once (P6-INIT-1..3).
fn initiative<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) -> Result<(), FightError> {
    let setup = fight.setup();
    // Score, Quickness, Deftness, then the tie draws in order (compared one by one).
    let mut scores: List<(CombatantId, i32, i32, i32, List<i32, 4>), 8> = List::new();
    for (i, s) in setup.combatants.iter().enumerate() {
        if setup.joins_late(i) {
            continue; // added by the GM: last in the order when it joins
        }
        let who = CombatantId(i as u16);
        let n = if setup.options.initiative_sum { s.quickness.max(0) } else { 1 };
        let totals = pool(fight, who, "initiative", n, None)?;
        let sum: i32 = totals.iter().map(|&t| i32::from(t)).sum();
        let bonus = if setup.options.initiative_sum { 0 } else { s.quickness };
        let score = sum + bonus;
        fight.emit(Event::Initiative { who, dice: totals, bonus, score });
        scores.push((who, score, s.quickness, s.deftness, List::new()));
    }
    // Ties after Quickness and Deftness: a logged draw or a reroll (P6-INIT-2).
    loop {
        scores.sort_by(|a, b| (b.1, b.2, b.3, &b.4).cmp(&(a.1, a.2, a.3, &a.4)).then(a.0.cmp(&b.0)));
        let tied: List<usize, 8> = (0..scores.len())
            .filter(|&k| {
                let key = |j: usize| (scores[j].1, scores[j].2, scores[j].3, &scores[j].4);
                (k > 0 && key(k - 1) == key(k)) || (k + 1 < scores.len() && key(k + 1) == key(k))
            })
            .collect();
        if tied.is_empty() {
            break;
        }
        for k in tied {
            let who = scores[k].0;
            let draw = if setup.options.tie_reroll {
                single(fight, who, "initiative tie", None)?
            } else {
                fight.roll(1000, Reason::new(who, "initiative tie draw"))? as i32
            };
            fight.emit(Event::TieBreak { who, draw });
            scores[k].4.push(draw);
        }
    }
    let order = scores.iter().map(|s| s.0).collect();
    fight.emit(Event::Order { order });
    Ok(())
}

/// Round-start checks, participant by participant in initiative order (P6-COND-7); whether any
/// was rolled.
fn round_start<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) -> Result<bool, FightError> {
    let bleeding_first = fight.setup().options.bleeding_first;
    let mut rolled = false;
    let conds: [Cond; 5] = if bleeding_first {
        [Cond::Bleeding, Cond::Dying, Cond::Unconscious, Cond::Shocked, Cond::Poisoned]
    } else {
        [Cond::Dying, Cond::Unconscious, Cond::Shocked, Cond::Poisoned, Cond::Bleeding]
    };
    for k in 0..fight.state().order.len() {
        let who = fight.state().order[k];
        let x = fight.state().fighter(who);
        // Nothing to roll (the usual case): a check is rolled only for a condition it has, and
        // only its own checks change its conditions.
        if x.dead || conds.iter().all(|&c| x.condition(c) == 0) {
            continue;
        }
        let dying_at_start = fight.state().fighter(who).condition(Cond::Dying) > 0;
        for c in conds {
            let x = fight.state().fighter(who);
            let v = x.condition(c);
            if v == 0 || x.dead {
                continue;
            }
            // A Dying gained in this phase rolls first in the next round (under `dying_first`).
            if c == Cond::Dying && !dying_at_start && !bleeding_first {
                continue;
            }
            let s = &fight.setup().combatants[who.index()];
            // Hunkered: physis-attribute checks (Resistance, Endurance) at M + 1; the Willpower
            // check of Unconscious is not one (P6-COND-6).
            let m = s.min_roll + x.condition(Cond::Poisoned) + i32::from(x.hunkered && c != Cond::Unconscious);
            let (attr, what) = match c {
                Cond::Dying => (s.resistance, "dying check"),
                Cond::Unconscious => (s.willpower, "unconscious check"),
                Cond::Shocked | Cond::Bleeding => (s.endurance, "endurance check"),
                _ => (s.resistance, "poison check"),
            };
            let n = attr - x.condition(Cond::Shocked);
            rolled = true;
            let successes = check(fight, who, BoostedRoll::Check(what), n, m)?;
            match c {
                Cond::Dying if successes == 0 => {
                    if v + 1 >= 6 {
                        // Under `out_when = dead` the dying were still in: dying takes them out
                        // (P6-TRACK-8), as a death from wounds does.
                        let was_out = fight.state().fighter(who).out(&fight.setup().options);
                        fight.emit(Event::Condition { who, cond: c, value: 6 });
                        fight.emit(Event::Died { who });
                        if !was_out {
                            fight.emit(Event::Out { who });
                        }
                    } else {
                        fight.emit(Event::Condition { who, cond: c, value: v + 1 });
                    }
                }
                Cond::Unconscious if successes >= v => fight.emit(Event::Condition { who, cond: c, value: 0 }),
                Cond::Shocked | Cond::Poisoned => {
                    fight.emit(Event::Condition { who, cond: c, value: (v - successes).max(0) })
                }
                Cond::Bleeding if successes == 0 => {
                    wound(fight, who, None, v, 0, List::new(), 0)?;
                }
                _ => {}
            }
        }
    }
    Ok(rolled)
}

/// The maximum actions of a participant (P6-ACT-3, P6-SPECIAL-9).
pub(super) fn max_actions(setup: &super::Setup, who: CombatantId) -> i32 {
    setup.combatants[who.index()].derived.max_actions
}

/// Fighting with two one-handed weapons of one type (P6-SPECIAL-9).
pub(super) fn two_weapons(setup: &super::Setup, who: CombatantId) -> bool {
    setup.combatants[who.index()].derived.two_weapons
}

/// One participant's turn (P6-ROUND-2, P6-ACT-2/4).
fn turn<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let x = fight.state().fighter(who);
    // One the GM took out of the fight (fled, captured) has no more turns, not even empty ones
    // (only a table's decider adjusts: the simulator's pays nothing for this).
    if P::INTERJECTS && x.removed {
        return Ok(());
    }
    let actions = if x.helpless(&setup.options) { 0 } else { (max_actions(setup, who) - x.steals).max(0) };
    fight.emit(Event::Refreshed { who, actions });
    if fight.state().fighter(who).helpless(&setup.options) {
        return Ok(());
    }
    for _ in 0..64 {
        let actions = fight.state().fighter(who).actions;
        let request = Request::Act { actions };
        let Choice::Act(act) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
        // A pattern, not `==`: the derived comparison of acts (positions among them) is a call.
        if matches!(act, Act::End) {
            return Ok(());
        }
        if fight.checks_choices()
            && let Some(reason) = super::policy::illegal(setup, fight.state(), who, &act)
        {
            return Err(FightError::IllegalChoice { who, reason: reason.to_string() });
        }
        perform(fight, ended, who, act)?;
        if ended.is_some() || fight.state().fighter(who).helpless(&setup.options) {
            return Ok(());
        }
        // An attack (a coup de grâce too) and a throw end with this check themselves, nothing
        // happening after it: not twice.
        if !matches!(act, Act::Attack { .. } | Act::Throw { .. }) {
            end_check(fight, ended, fight.state().round);
            if ended.is_some() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The cost of `who`'s act (P6-ACT-5/6): first aid on a Dying patient costs
/// `act_cost.stabilise`; reloading and readying cost the main weapon's `reload_actions` and
/// `ready_actions` (1 with none, P6-MODE-6). What the fight charges and what the AI and the
/// odds count.
#[inline(always)]
pub(super) fn cost(setup: &super::Setup, state: &super::State, who: CombatantId, act: &Act) -> i32 {
    let c = |i: usize| i32::from(setup.options.act_cost[i]);
    match act {
        Act::Attack { special: Special::Massive(n), .. } => 1 + i32::from(*n),
        Act::Attack { .. } | Act::Aim { .. } | Act::Hunker | Act::StandUp | Act::Brace | Act::Throw { .. } => 1,
        Act::Walk(_) => c(0),
        Act::Run(_) => c(1),
        Act::Crawl(_) => c(2),
        Act::FirstAid(p) if state.fighters.get(p.index()).is_some_and(|x| x.condition(Cond::Dying) > 0) => c(5),
        Act::FirstAid(_) => c(4),
        Act::Extinguish(_) => c(6),
        Act::LowerShield => c(7),
        Act::RaiseShield => 2,
        Act::Reload => i32::from(main_weapon(setup, who).map_or(1, |w| w.reload_actions)),
        Act::Ready => i32::from(main_weapon(setup, who).map_or(1, |w| w.ready_actions)),
        Act::SpendBonus | Act::Steal(_) | Act::End => 0,
    }
}

/// Performs one act.
fn perform<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
    act: Act,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let s = &setup.combatants[who.index()];
    let cost = cost(setup, fight.state(), who, &act);
    fight.emit(Event::Acted { who, act, cost });
    match act {
        Act::Attack { .. } => attack(fight, ended, who, act, true),
        Act::Aim { accurate } => {
            let x = fight.state().fighter(who);
            let cap = s.perception.max(0);
            let (mut aim, mut acc) = (x.aim, x.accurate);
            let room = |a: i32, b: i32| if setup.options.combined_cap { a + b < cap } else { true };
            if accurate {
                if acc < cap && room(aim, acc) {
                    acc += 1;
                }
            } else if aim < cap && room(aim, acc) {
                aim += 1;
            }
            fight.emit(Event::Aimed { who, aim, accurate: acc });
            Ok(())
        }
        Act::Walk(to) | Act::Run(to) | Act::Crawl(to) => {
            let from = fight.state().fighter(who).pos;
            fight.emit(Event::Moved { who, from, to });
            Ok(())
        }
        Act::Hunker => {
            fight.emit(Event::Posture { who, hunkered: true });
            Ok(())
        }
        Act::StandUp => {
            fight.emit(Event::Posture { who, hunkered: false });
            Ok(())
        }
        Act::RaiseShield | Act::LowerShield => {
            fight.emit(Event::ShieldBlock { who, up: act == Act::RaiseShield });
            Ok(())
        }
        Act::Brace => {
            fight.emit(Event::Braced { who, on: true });
            Ok(())
        }
        Act::Reload | Act::Ready => {
            fight.emit(Event::Readied { who, reload: act == Act::Reload });
            Ok(())
        }
        Act::FirstAid(patient) => first_aid(fight, who, patient),
        Act::Extinguish(t) => {
            fight.emit(Event::Condition { who: t, cond: Cond::Burning, value: 0 });
            Ok(())
        }
        Act::Throw { item, target } => throw(fight, ended, who, item, target),
        Act::SpendBonus => {
            fight.emit(Event::Actions { who, delta: 1, steal_later: 0, bonus: 1, destiny: 0 });
            Ok(())
        }
        Act::Steal(from) => {
            steal(fight, who, from);
            Ok(())
        }
        Act::End => Ok(()),
    }
}

/// A roll its roller has just seen, as a boost request describes it.
struct Seen {
    roll: BoostedRoll,
    against: Option<CombatantId>,
    m: i32,
    c: Option<i32>,
    /// The roll's explosion stop, for the dice a boost adds (P6-DICE-3).
    enough: Option<i32>,
}

/// After seeing a roll — a hit roll, a dodge or parry, a cover roll, a check — its roller may
/// spend bonus dice, destiny dice and rerolls on it, one at a time, until it keeps the roll
/// (P6-RES-4/5). Asked only while it has any to spend (most never have: the test stays inline).
#[inline(always)]
fn boost<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    seen: &Seen,
    totals: &mut Totals,
    apart: &mut Totals,
) -> Result<(), FightError> {
    let x = fight.state().fighter(who);
    if x.bonus_dice < 1 && x.destiny_dice < 1 && x.rerolls < 1 {
        return Ok(());
    }
    boost_offered(fight, who, seen, totals, apart)
}

#[inline(never)]
fn boost_offered<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    seen: &Seen,
    totals: &mut Totals,
    apart: &mut Totals,
) -> Result<(), FightError> {
    loop {
        let x = fight.state().fighter(who);
        if x.bonus_dice < 1 && x.destiny_dice < 1 && x.rerolls < 1 {
            return Ok(());
        }
        let request = Request::Boost {
            roll: seen.roll,
            against: seen.against,
            totals: totals.clone(),
            apart: apart.clone(),
            m: seen.m,
            c: seen.c,
        };
        let Choice::Boost(pick) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
        let Some(boost) = pick else { return Ok(()) };
        if let Some(why) = boost.illegal(fight.state().fighter(who), totals.len()) {
            return Err(FightError::IllegalChoice { who, reason: why.to_owned() });
        }
        // The stop applies only under `explode_policy = when_needed`, as for the roll's own dice
        // (P6-DICE-3); `pool` filters it itself.
        let enough = seen.enough.filter(|_| fight.setup().options.explode_when_needed);
        match boost {
            Boost::BonusDie => totals.push(single(fight, who, "bonus die", enough)?.min(255) as u8),
            Boost::DestinyDie => apart.push(single(fight, who, "destiny die", enough)?.min(255) as u8),
            Boost::Reroll | Boost::DestinyReroll => {
                *totals = pool(fight, who, "reroll", totals.len() as i32, seen.enough)?;
            }
        }
        fight.emit(Event::RollBoosted { who, roll: seen.roll, boost, totals: totals.clone(), apart: apart.clone() });
    }
}

/// One success per die of a roll at `m`, its destiny dice rolled apart succeeding at 4+ or at M
/// (P6-DICE-1, P6-RES-5): dodges and parries.
fn die_successes(totals: &Totals, apart: &Totals, m: i32) -> i32 {
    let at = |dice: &Totals, m: i32| dice.iter().filter(|&&t| i32::from(t) >= m).count() as i32;
    at(totals, m) + at(apart, m.min(4))
}

/// A parry roll's successes at `m` ([`die_successes`]) and its crit successes, dice of 11 or
/// more among them, a destiny die's judged from its total (P6-DEF-3, P6-RES-5): one pass.
fn parry_successes(totals: &Totals, apart: &Totals, m: i32) -> (i32, usize) {
    let (mut successes, mut crits) = (0, 0);
    for (dice, m) in [(totals, m), (apart, m.min(4))] {
        for &t in dice.iter() {
            if i32::from(t) >= m {
                successes += 1;
                crits += usize::from(t >= 11);
            }
        }
    }
    (successes, crits)
}

/// Spending a destiny die to steal an action (P6-RES-2/3).
fn steal<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    from: CombatantId,
) {
    let options = &fight.setup().options;
    let actor = fight.state().fighter(from).started && is_actor(fight, from);
    let holds = fight.state().fighter(from).actions > 0;
    fight.emit(Event::Actions { who, delta: 1, steal_later: 0, bonus: 0, destiny: 1 });
    if holds && (actor || options.steal_saved_first) {
        fight.emit(Event::Actions { who: from, delta: -1, steal_later: 0, bonus: 0, destiny: 0 });
    } else {
        fight.emit(Event::Actions { who: from, delta: 0, steal_later: 1, bonus: 0, destiny: 0 });
    }
}

/// The actor is the participant whose turn is under way: the last one refreshed this round.
fn is_actor<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) -> bool {
    fight.state().actor == Some(who)
}

/// The main-hand weapon, if any.
pub(super) fn main_weapon(setup: &super::Setup, who: CombatantId) -> Option<&Weapon> {
    let s = &setup.combatants[who.index()];
    s.main_hand.map(|i| &s.weapons[i])
}

/// The damage potential a parry adds (P6-DEF-3/4): that of a ready melee main weapon; none for
/// a ranged or thrown main weapon, a dropped or undrawn one, or bare hands (under `unarmed_parry
/// = true` a character without a ready melee weapon parries with Hand-to-hand combat alone).
pub(super) fn parry_dp(setup: &super::Setup, state: &super::State, who: CombatantId) -> i32 {
    main_weapon(setup, who).filter(|w| w.class == Class::Melee && state.fighter(who).armed).map_or(0, |w| w.dp)
}

/// The weapon an attack uses.
pub(super) fn weapon_of(setup: &super::Setup, who: CombatantId, hand: Hand) -> (&Weapon, Option<usize>) {
    let s = &setup.combatants[who.index()];
    match hand {
        Hand::Main => s.main_hand.map_or((&s.fists, None), |i| (&s.weapons[i], Some(i))),
        Hand::Off => s.off_hand.map_or((&s.fists, None), |i| (&s.weapons[i], Some(i))),
        Hand::Unarmed => (&s.fists, None),
    }
}

/// The hit roll's numbers: dice, M, C, ammunition, chain (P6-ATK-2/3, P6-RCL-1, P6-AIM-1), and
/// the terms each of the first three is the sum of.
pub(super) struct Numbers {
    /// Hit dice.
    pub dice: i32,
    /// Minimum roll.
    pub m: i32,
    /// Crit threshold (0: none).
    pub c: i32,
    /// Ammunition used.
    pub ammo: i32,
    /// The recoil chain position.
    pub chain: u8,
    /// The terms of `dice`, `m` and `c`.
    pub terms: super::HitTerms,
}

/// The numbers of an attack by `who` in `state`, without their terms (the policy's and the
/// odds' look ahead).
pub(super) fn numbers(setup: &super::Setup, state: &super::State, who: CombatantId, act: &Act) -> Numbers {
    numbers_of::<false>(setup, state, who, act)
}

/// The hit dice of an attack ([`hit_dice`]) and the terms they are the sum of.
pub(super) struct HitDice {
    /// The dice.
    pub dice: i32,
    /// The skill rolled.
    pub skill: i32,
    /// The damage potential, or the unarmed bonus.
    pub dp: i32,
    /// Unarmed (P6-ATK-5).
    pub unarmed: bool,
    /// Massive's dice.
    pub massive: i32,
    /// Shocked's (negative).
    pub shocked: i32,
}

/// The hit dice of an attack by `who` with `hand`, in `mode`, as `special` (P6-ATK-2): skill,
/// damage potential or the unarmed bonus (P6-ATK-5), burst, massive (P6-SPECIAL-5; under
/// `massive_cap = total_dice` the whole pool stops at Strength, the term the change that makes),
/// Shocked. The first of an attack's [`numbers`], and all the AI needs to know whether it can
/// roll one.
#[inline(always)]
pub(super) fn hit_dice(
    setup: &super::Setup,
    state: &super::State,
    who: CombatantId,
    hand: Hand,
    mode: Mode,
    special: Special,
) -> HitDice {
    let options = &setup.options;
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let (w, _) = weapon_of(setup, who, hand);
    let skill = match w.class {
        Class::Melee => s.hand_to_hand,
        Class::Ranged => s.shooting,
        Class::Thrown => s.throwing,
    };
    let unarmed =
        hand == Hand::Unarmed || (hand == Hand::Main && s.main_hand.is_none()) || !x.armed && hand == Hand::Main;
    let dp = if unarmed { i32::from(s.quickness > 2) } else { w.dp };
    let burst = if mode == Mode::Burst { super::HitTerms::FIXED[0].1 } else { 0 };
    let before = skill + dp + burst;
    let massive = if let Special::Massive(n) = special {
        let n = i32::from(n);
        let strength = s.strength.max(0);
        match options.massive_cap {
            0 => (3 * n).min(strength),
            1 => 3 * n.min(strength),
            _ => (before + 3 * n).min(strength) - before,
        }
    } else {
        0
    };
    let shocked = -x.condition(Cond::Shocked);
    HitDice { dice: before + massive + shocked, skill, dp, unarmed, massive, shocked }
}

/// The numbers of an attack by `who` in `state`: each the sum of its terms, which the attack
/// event carries for the log (`TERMS`; else the terms are left empty, the sums the same).
#[inline(always)]
fn numbers_of<const TERMS: bool>(setup: &super::Setup, state: &super::State, who: CombatantId, act: &Act) -> Numbers {
    let options = &setup.options;
    let Act::Attack { target, hand, mode, special, walk, .. } = *act else {
        return Numbers { dice: 0, m: 6, c: 0, ammo: 0, chain: 0, terms: super::HitTerms::default() };
    };
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let (w, _) = weapon_of(setup, who, hand);
    let HitDice { dice, skill, dp, unarmed, massive, shocked } = hit_dice(setup, state, who, hand, mode, special);
    let burst = mode == Mode::Burst;
    // Recoil (P6-RCL-1).
    let recoil_attack = w.recoil && matches!(mode, Mode::Single | Mode::Burst);
    // A walk combined with the attack starts the chain afresh under `combined_walk_breaks_recoil`
    // (P6-RCL-3).
    let broken = walk.is_some() && options.walk_breaks_recoil;
    let chain = if recoil_attack { if broken { 1 } else { x.chain + 1 } } else { 0 };
    let step = if recoil_attack { (2 - w.recoil_compensation).max(0) * (i32::from(chain) - 1).max(0) } else { 0 };
    // M (P6-ATK-3).
    let beyond_range = matches!(mode, Mode::Single | Mode::Burst | Mode::Thrown)
        && options.range_rule == 1
        && state.distance(who, target) > w.range_m + 1e-9;
    let (walked, hunkered, off) = (walk.is_some(), x.hunkered, hand == Hand::Off);
    let disarm = special == Special::Disarm;
    let braced = x.braced && hand == Hand::Main && matches!(mode, Mode::Single | Mode::Burst);
    let (burning, poisoned) = (x.condition(Cond::Burning), x.condition(Cond::Poisoned));
    // Each term its own bit: `|` and `^` make the same flags (the mutation audit's two
    // equivalent mutants).
    let flags = u8::from(burst)
        | u8::from(walked) << 1
        | u8::from(hunkered) << 2
        | u8::from(off) << 3
        | u8::from(disarm) << 4
        | u8::from(beyond_range) << 5
        | u8::from(braced) << 6
        | u8::from(unarmed) << 7;
    let raw = s.min_roll + step + burning + poisoned + super::HitTerms::m_fixed(flags);
    let accurate = if burst { 0 } else { x.accurate };
    let m = dice::floor(options, raw, accurate);
    // C (P6-CRIT-1): 11, recoil, aim (P6-AIM-1); bursts never crit.
    let aim = if burst || (mode == Mode::Thrown && options.thrown_aim_forbidden) { 0 } else { x.aim };
    let c = if burst { 0 } else { 11 + step - aim };
    let ammo = match mode {
        Mode::Melee => 0,
        Mode::Single | Mode::Thrown => 1,
        Mode::Burst => 3,
    };
    let values =
        [skill, dp, massive, shocked, s.min_roll, step, burning, poisoned, -accurate, m - (raw - accurate), -aim];
    let terms = if TERMS { super::HitTerms::new(flags, values) } else { super::HitTerms::default() };
    Numbers { dice, m, c, ammo, chain, terms }
}

/// An attack (P6-ATK-*): hit roll, reactions, cover, protection, wounds.
fn attack<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
    act: Act,
    reactable: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let Act::Attack { target, hand, mode, special, walk, from_behind } = act else { return Ok(()) };
    let outs = fight.state().outs;
    debug_assert!(!reactable || over(setup, fight.state()).is_none(), "an act in a fight already over");
    if let Some(to) = walk {
        let from = fight.state().fighter(who).pos;
        fight.emit(Event::Moved { who, from, to });
    }
    let n = numbers_of::<true>(setup, fight.state(), who, &act);
    let (w, index) = weapon_of(setup, who, hand);
    // Ammunition, from the weapon that fires: a burst may empty it under `allow_partial`.
    let ammo = match (w.capacity, index.and_then(|i| fight.state().fighter(who).ammo.get(i))) {
        (Some(_), Some(Some(a))) if hand != Hand::Unarmed => n.ammo.min(*a),
        _ => 0,
    };
    let helpless = fight.state().fighter(target).helpless(options);
    let mut totals = pool(fight, who, "hit", n.dice, None)?;
    let mut apart = Totals::new();
    let seen = Seen { roll: BoostedRoll::Hit, against: Some(target), m: n.m, c: Some(n.c), enough: None };
    boost(fight, who, &seen, &mut totals, &mut apart)?;
    let mut normals = 0u8;
    let mut crits: List<u8, 8> = List::new();
    let mut successes = 0;
    // A destiny die rolled apart succeeds on a first toss of 4+ (a total of 4+) or at M.
    let ordinary = totals.iter().map(|&t| (t, n.m));
    for (t, m) in ordinary.chain(apart.iter().map(|&t| (t, n.m.min(4)))) {
        match dice::tier_apart(options, i32::from(t), m, n.m, n.c) {
            Tier::Miss => {}
            Tier::Normal => normals += 1,
            Tier::Crit(k) => crits.push(k),
        }
        if i32::from(t) >= m {
            successes += 1;
        }
    }
    // `n.chain` is already 0 but for a recoil weapon's single shot or burst (`numbers_of`), so
    // `||` here would give the same chain: an equivalent mutant of the audit.
    let chain = if w.recoil && matches!(mode, Mode::Single | Mode::Burst) { n.chain } else { 0 };
    fight.emit(Event::AttackRoll {
        attacker: who,
        target,
        act,
        dice: n.dice,
        m: n.m,
        c: n.c,
        terms: n.terms,
        totals,
        normals,
        // A copy of bytes (`Clone` goes element by element).
        crits: List::from_slice(&crits),
        ammo: ammo.max(0) as u8,
        chain,
    });
    // Coup de grâce (P6-SPECIAL-11/12).
    if special == Special::Coup {
        let extra: i32 = crits.iter().map(|&k| i32::from(k)).sum();
        return coup(fight, ended, who, target, successes, extra, w);
    }
    let sleeping = fight.state().fighter(target).sleeping;
    // Reactions (P6-REACT-*), after the roll, before the result: the target's defence and, under
    // `reaction_menu = any`, an act of 1 action by anyone who perceives the attacker (asked
    // target first, then in initiative order), resolved in initiative order or as declared. A
    // reaction is not reacted to (P6-REACT-3), and the act's rolled hits stand even if a reply
    // takes its attacker out: the two are "practically simultaneous".
    let mut shield_parry = false;
    if reactable {
        let hits = normals > 0 || !crits.is_empty();
        let any = options.reaction_any;
        let asked = !helpless && (hits || any) && perceives(setup, target, who) && !from_behind;
        if !any {
            if asked && let Some(r) = react(fight, target, who, target, mode, normals, crits.len() as u8)? {
                resolve_reaction(fight, ended, who, target, r, &mut normals, &mut crits, &mut shield_parry)?;
            }
        } else {
            let mut declared: List<(CombatantId, Reaction), 4> = List::new();
            if asked && let Some(r) = react(fight, target, who, target, mode, normals, crits.len() as u8)? {
                declared.push((target, r));
            }
            for i in 0..fight.state().order.len() {
                let p = fight.state().order[i];
                if p != who && p != target && perceives(setup, p, who) {
                    if let Some(r) = react(fight, p, who, target, mode, normals, crits.len() as u8)? {
                        declared.push((p, r));
                    }
                }
            }
            if !options.reaction_declaration {
                let order = &fight.state().order;
                declared.sort_by_key(|(p, _)| order.iter().position(|q| q == p));
            }
            for (p, r) in declared {
                resolve_reaction(fight, ended, who, p, r, &mut normals, &mut crits, &mut shield_parry)?;
            }
        }
    }
    // Cover (P6-COVER-*).
    let (normals, crits) = cover(fight, target, normals, crits, shield_parry)?;
    let left = i32::from(normals) + crits.len() as i32;
    // Aim lost when hit (P6-AIM-2/3, `aim_lost_on = hit`).
    if left > 0 && !options.aim_lost_on_wound && fight.state().fighter(target).holds_aim() {
        fight.emit(Event::AimLost { who: target });
    }
    match special {
        Special::Ko => {
            // Protection works as in any attack, so it wears as in any attack (P6-ARM-2).
            let (normals_p, prevented) = protect(fight, target, normals, w.piercing);
            wear_armour(fight, target, prevented);
            let hits = i32::from(normals_p) + crits.len() as i32;
            if hits >= 1 {
                let r = ko_resistance(setup, fight.state(), target);
                let m = base_m(fight, target);
                let s = check(fight, target, BoostedRoll::Check("K.O. resistance"), r, m)?;
                if s < hits {
                    let v = if options.ko_depth_hits { hits } else { hits - s };
                    knock_out(fight, target, v);
                }
            }
        }
        Special::Disarm => {
            let hits = match options.disarm_stage {
                1 => successes,
                2 => {
                    // Hits counted after protection: it works as in any attack, so it wears as in
                    // any attack (P6-ARM-2).
                    let (normals_p, prevented) = protect(fight, target, normals, w.piercing);
                    wear_armour(fight, target, prevented);
                    i32::from(normals_p) + crits.len() as i32
                }
                _ => left,
            };
            if hits >= 1 {
                let attr = disarm_resistance(setup, fight.state(), target);
                let m = base_m(fight, target);
                let s = check(fight, target, BoostedRoll::Check("disarm resistance"), attr, m)?;
                if s < hits && fight.state().fighter(target).armed {
                    fight.emit(Event::Disarmed { who: target });
                }
            }
        }
        _ => {
            let (normals_p, prevented) = protect(fight, target, normals, w.piercing);
            wear_armour(fight, target, prevented);
            let hits = i32::from(normals_p) + crits.len() as i32;
            let wounds = wound(fight, target, Some(who), 0, normals_p, crits, w.wounds_per_hit)?;
            if wounds > 0 {
                if options.aim_lost_on_wound && fight.state().fighter(target).holds_aim() {
                    fight.emit(Event::AimLost { who: target });
                }
                let times = if options.condition_per_hit { hits } else { 1 };
                add_conditions(fight, target, &w.conditions, times);
            }
        }
    }
    if sleeping && !options.sleeper_failed_coup_only && !fight.state().fighter(target).dead {
        fight.emit(Event::Woke { who: target });
    }
    // A reply attack (not reactable) is part of the act it answers: the fight can end only once
    // that act's own hits have landed, so the outer attack checks (P6-REACT-3, P6-TRACK-8). Only
    // someone going out can end it: every change that sends anyone out in an attack (wounds,
    // a K.O., a reply's wounds) emits `Out`, and the fight was not over before the attack.
    if reactable && fight.state().outs != outs {
        end_check(fight, ended, fight.state().round);
    }
    Ok(())
}

/// One reaction by `p` to `who`'s attack, resolved: a defence takes hits away (P6-DEF-*,
/// P6-SHLD-3), a hunker changes the posture, a reply attack is made whole, not to be reacted to
/// (P6-REACT-3).
#[allow(clippy::too_many_arguments, reason = "the attack's hits, changed in place")]
#[inline(always)]
fn resolve_reaction<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
    p: CombatantId,
    r: Reaction,
    normals: &mut u8,
    crits: &mut List<u8, 8>,
    shield_parry: &mut bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    // Only the attacked participant defends (`illegal_reaction`).
    let target = p;
    match r {
        Reaction::Dodge => {
            let hits = i32::from(*normals) + crits.len() as i32;
            let m = base_m(fight, target) + hits;
            let dice_n = setup.combatants[target.index()].derived.evasion
                - fight.state().fighter(target).condition(Cond::Shocked);
            let mut t = pool(fight, target, "dodge", dice_n, Some(m))?;
            let mut apart = Totals::new();
            let seen = Seen { roll: BoostedRoll::Dodge, against: Some(who), m, c: None, enough: Some(m) };
            boost(fight, target, &seen, &mut t, &mut apart)?;
            let s = die_successes(&t, &apart, m);
            fight.emit(Event::Reacted { who: target, reaction: r, dice: dice_n, m, totals: t, successes: s });
            if s >= 1 {
                *normals = 0;
                crits.clear();
            }
        }
        Reaction::Parry => {
            let ts = &setup.combatants[target.index()];
            let tx = fight.state().fighter(target);
            let dp = parry_dp(setup, fight.state(), target);
            let dice_n = ts.hand_to_hand + dp - tx.condition(Cond::Shocked);
            let m =
                dice::floor(options, base_m(fight, target) + fight.state().fighter(target).condition(Cond::Burning), 0);
            let mut t = pool(fight, target, "parry", dice_n, None)?;
            let mut apart = Totals::new();
            let seen = Seen { roll: BoostedRoll::Parry, against: Some(who), m, c: None, enough: None };
            boost(fight, target, &seen, &mut t, &mut apart)?;
            let (s, crit_s) = parry_successes(&t, &apart, m);
            fight.emit(Event::Reacted { who: target, reaction: r, dice: dice_n, m, totals: t, successes: s });
            let mut left = s as usize;
            if options.parry_crits {
                crits.sort_unstable_by(|a, b| b.cmp(a));
                let k = crit_s.min(crits.len());
                crits.drain(..k);
                left -= k;
            }
            *normals = normals.saturating_sub(left as u8);
        }
        Reaction::ShieldParry => {
            fight.emit(Event::Reacted { who: target, reaction: r, dice: 0, m: 0, totals: Totals::new(), successes: 0 });
            *shield_parry = true;
        }
        Reaction::Hunker => {
            fight.emit(Event::Reacted { who: p, reaction: r, dice: 0, m: 0, totals: Totals::new(), successes: 0 });
            fight.emit(Event::Posture { who: p, hunkered: true });
        }
        Reaction::Attack { hand, mode } => {
            fight.emit(Event::Reacted { who: p, reaction: r, dice: 0, m: 0, totals: Totals::new(), successes: 0 });
            let reply = Act::Attack { target: who, hand, mode, special: Special::None, walk: None, from_behind: false };
            attack(fight, ended, p, reply, false)?;
        }
    }
    Ok(())
}

/// Whether `who` perceives `actor` (P6-REACT-4).
pub(super) fn perceives(setup: &super::Setup, who: CombatantId, actor: CombatantId) -> bool {
    !setup.options.awareness_scenario || setup.combatants[who.index()].perceives.contains(&actor.index())
}

/// Asks `who` — the target, or anyone under `reaction_menu = any` — for a reaction to the
/// attack; pays for it (P6-REACT-1/3, P6-RES-1/2).
#[allow(clippy::too_many_arguments, reason = "the attack reacted to, whole")]
#[inline(always)]
fn react<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    attacker: CombatantId,
    target: CombatantId,
    mode: Mode,
    normals: u8,
    crits: u8,
) -> Result<Option<Reaction>, FightError> {
    let setup = fight.setup();
    let x = fight.state().fighter(who);
    if x.helpless(&setup.options) {
        return Ok(None);
    }
    let can_buy = x.bonus_dice > 0 || x.destiny_dice > 0;
    if x.actions < 1 && !can_buy {
        return Ok(None);
    }
    let request = Request::React { attacker, target, mode, normals, crits, actions: x.actions };
    let Choice::React { reaction, buy } = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
    let Some(reaction) = reaction else { return Ok(None) };
    // The AI picks only legal reactions (it asks `illegal_reaction` itself): its answers are
    // checked here in debug builds only ([`Fight::checks_choices`]), others' always.
    if fight.checks_choices()
        && let Some(why) =
            super::policy::illegal_reaction(setup, fight.state(), who, attacker, target, mode, reaction, buy)
    {
        return Err(FightError::IllegalChoice { who, reason: why.to_string() });
    }
    match buy {
        1 => fight.emit(Event::Actions { who, delta: 1, steal_later: 0, bonus: 1, destiny: 0 }),
        2 => steal(fight, who, attacker),
        _ => {}
    }
    Ok(Some(reaction))
}

/// The cover rolls an attack on `target` meets, best first, as thresholds (P6-COVER-1/4/5,
/// P6-SHLD-*): terrain cover, Hunkered (6+), an active shield block or a shield parry — only the
/// best under `cover_stacking = best_only` — and how many cover dice Shocked takes away. Shared by
/// the fight and the odds.
#[inline(always)]
pub(super) fn cover_values(
    setup: &super::Setup,
    state: &super::State,
    target: CombatantId,
    shield_parry: bool,
) -> (List<i32, 4>, i32) {
    let options = &setup.options;
    let s = &setup.combatants[target.index()];
    let x = state.fighter(target);
    let mut sources: List<i32, 4> = List::new();
    if let Some(c) = s.cover {
        sources.push(c);
    }
    if x.hunkered {
        sources.push(6);
    }
    let block_active = x.block.is_some_and(|r| r < state.round || options.block_immediately);
    if let Some(v) = s.shield_cover(options).filter(|_| block_active || shield_parry) {
        sources.push(v);
    }
    sources.sort_unstable();
    if !options.cover_sequential {
        sources.truncate(1);
    }
    if !options.cover_modifiers {
        return (sources, 0);
    }
    // Under `cover_roll_modifiers = defender_conditions` the defender's minimum roll (against the
    // usual 5), Poisoned and Hunkered raise the threshold, and Shocked takes dice away: from the
    // normal hits' cover dice first, those hits then standing (P6-COVER-5). The threshold is then
    // a minimum roll like any other: at least 2 (P6-DICE-4; under `min_roll_floor =
    // accurate_only` it is left as it is).
    let raise = (s.min_roll - 5) + x.condition(Cond::Poisoned) + i32::from(x.hunkered);
    for v in &mut sources {
        *v = dice::floor(options, *v + raise, 0);
    }
    (sources, x.condition(Cond::Shocked))
}

/// The cover roll (P6-COVER-1..5, P6-SHLD-*).
#[inline(always)]
fn cover<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    target: CombatantId,
    mut normals: u8,
    mut crits: List<u8, 8>,
    shield_parry: bool,
) -> Result<(u8, List<u8, 8>), FightError> {
    // No hits to take away (a miss, a defence that stopped them all): no cover roll, and its
    // sources need not be looked at.
    if normals == 0 && crits.is_empty() {
        return Ok((normals, crits));
    }
    let options = &fight.setup().options;
    let (sources, fewer) = cover_values(fight.setup(), fight.state(), target, shield_parry);
    for value in sources {
        if normals == 0 && crits.is_empty() {
            break;
        }
        let normal_dice = (i32::from(normals) - fewer).max(0);
        let crit_dice = (crits.len() as i32 - (fewer - i32::from(normals)).max(0)).max(0);
        // Two rolls, the crit dice first (P6-COVER-2/3); the defender may boost each once seen
        // (P6-RES-4/5), if it has hits to remove.
        let seen = Seen { roll: BoostedRoll::Cover, against: None, m: value, c: None, enough: Some(value) };
        let mut crit_totals = pool(fight, target, "cover", crit_dice, Some(value))?;
        let mut crit_apart = Totals::new();
        if !crits.is_empty() {
            boost(fight, target, &seen, &mut crit_totals, &mut crit_apart)?;
        }
        let mut normal_totals = pool(fight, target, "cover", normal_dice, Some(value))?;
        let mut normal_apart = Totals::new();
        if normals > 0 {
            boost(fight, target, &seen, &mut normal_totals, &mut normal_apart)?;
        }
        let crit_hits: List<bool, 8> = crit_totals
            .iter()
            .map(|&t| i32::from(t) >= value)
            .chain(crit_apart.iter().map(|&t| i32::from(t) >= value.min(4)))
            .collect();
        let crit_removed = crit_hits.iter().filter(|&&h| h).count().min(crits.len());
        if options.cover_roll_order {
            // The i-th cover die protects the i-th crit; crits without one (Shocked) stand, unless
            // a boost's extra die succeeded: each protects the first crit still unprotected.
            let mut spare = crit_hits.iter().skip(crit_dice as usize).filter(|&&h| h).count();
            let keep: List<u8, 8> = crits
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    if *i < crit_dice as usize && crit_hits[*i] {
                        false
                    } else if spare > 0 {
                        spare -= 1;
                        false
                    } else {
                        true
                    }
                })
                .map(|(_, c)| *c)
                .collect();
            crits = keep;
        } else {
            crits.sort_unstable_by(|a, b| b.cmp(a));
            crits.drain(..crit_removed);
        }
        let normal_removed = (die_successes(&normal_totals, &normal_apart, value) as u8).min(normals);
        normals -= normal_removed;
        fight.emit(Event::CoverRoll {
            who: target,
            value,
            crit_totals,
            normal_totals,
            crits_removed: crit_removed as u8,
            normals_removed: normal_removed,
        });
    }
    Ok((normals, crits))
}

/// Protection against piercing (P6-DMG-1/2): normal hits left and hits prevented.
// Inlined (as `wear_armour` and `cover_values`): asked once per attack, small.
#[inline(always)]
fn protect<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    target: CombatantId,
    normals: u8,
    piercing: i32,
) -> (u8, i32) {
    // No normal hit to stop: nothing prevented, no event.
    if normals == 0 {
        return (0, 0);
    }
    let setup = fight.setup();
    let x = fight.state().fighter(target);
    let p = setup.combatants[target.index()].protection(&setup.options, &x.armour_pct);
    let effective = (p - piercing).max(0);
    let prevented = effective.min(i32::from(normals));
    if prevented > 0 {
        fight.emit(Event::Protected { who: target, protection: p, piercing, stopped: prevented as u8 });
    }
    (normals - prevented as u8, prevented)
}

/// Armour damage (P6-ARM-2).
#[inline(always)]
fn wear_armour<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    target: CombatantId,
    prevented: i32,
) {
    if fight.setup().options.armor_damage == 0 || prevented < 2 {
        return;
    }
    for piece in 0..fight.state().fighter(target).armour_pct.len() {
        let pct = (fight.state().fighter(target).armour_pct[piece] - prevented / 2 * 10).max(0);
        fight.emit(Event::ArmourWorn { who: target, piece: piece as u8, pct });
    }
}

/// Wounds onto boosts and hearts, Dying (P6-DMG-3, P6-TRACK-2..4); `flat` wounds for bleeding.
// Inlined, as `cover` and `react`: steps of every attack, often with little to do (no wound,
// no cover, no reaction asked).
#[inline(always)]
fn wound<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    by: Option<CombatantId>,
    flat: i32,
    normals: u8,
    crits: List<u8, 8>,
    per_hit: i32,
) -> Result<i32, FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let wounds = flat + i32::from(normals) * per_hit + crits.iter().map(|&k| per_hit + i32::from(k)).sum::<i32>();
    if wounds == 0 {
        return Ok(0);
    }
    let x = fight.state().fighter(who);
    let was_out = x.out(options);
    let max = setup.combatants[who.index()].max_wounds;
    let boosts_used = wounds.min(x.boosts);
    let track = (x.wounds + wounds - boosts_used).min(max);
    let dying = x.condition(Cond::Dying);
    fight.emit(Event::Wounded { who, by, normals, crits, protection: 0, wounds, boosts_used, track });
    let x = fight.state().fighter(who);
    // `wounds` is at least 1 here (0 returned above; every term is ≥ 0: a bleeding value ≥ 1,
    // `wounds_per_hit` ≥ 1, crit levels ≥ 0), so `wounds >= 0` for `wounds > 0` changes
    // nothing, and `||` for `&&` only for a dead combatant, whom no caller wounds.
    if wounds > 0 && !x.dead {
        if dying > 0 {
            if options.add_to_dying {
                set_dying(fight, who, dying + wounds);
            }
        } else if x.wounds >= max && x.boosts == 0 {
            set_dying(fight, who, 1);
        }
    }
    if !was_out && fight.state().fighter(who).out(options) {
        fight.emit(Event::Out { who });
    }
    Ok(wounds)
}

/// Sets Dying, dead at 6 (P6-TRACK-3/5).
fn set_dying<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId, v: i32) {
    fight.emit(Event::Condition { who, cond: Cond::Dying, value: v.min(6) });
    if v >= 6 {
        fight.emit(Event::Died { who });
    }
}

/// Knocked out: Unconscious(v) (P6-SPECIAL-4).
fn knock_out<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId, v: i32) {
    let was_out = fight.state().fighter(who).out(&fight.setup().options);
    let now = fight.state().fighter(who).condition(Cond::Unconscious);
    fight.emit(Event::Condition { who, cond: Cond::Unconscious, value: now.max(v) });
    if !was_out && fight.state().fighter(who).out(&fight.setup().options) {
        fight.emit(Event::Out { who });
    }
}

/// A weapon's conditions (P6-DMG-5).
fn add_conditions<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    values: &[i32; 4],
    times: i32,
) {
    for (i, cond) in [Cond::Bleeding, Cond::Poisoned, Cond::Shocked, Cond::Burning].into_iter().enumerate() {
        if values[i] > 0 {
            let now = fight.state().fighter(who).condition(cond);
            fight.emit(Event::Condition { who, cond, value: now + values[i] * times });
        }
    }
}

/// Coup de grâce (P6-SPECIAL-11/12).
fn coup<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
    target: CombatantId,
    successes: i32,
    megacrit_extra: i32,
    w: &Weapon,
) -> Result<(), FightError> {
    let options = &fight.setup().options;
    let x = fight.state().fighter(target);
    let was_out = x.out(options);
    if successes == 0 {
        if x.sleeping {
            fight.emit(Event::Woke { who: target });
        }
        return Ok(());
    }
    let dying = x.condition(Cond::Dying);
    match coup_dying(options, dying, successes, w.wounds_per_hit, megacrit_extra) {
        None => fight.emit(Event::Died { who: target }),
        Some(v) => set_dying(fight, target, v),
    }
    if !was_out && fight.state().fighter(target).out(options) {
        fight.emit(Event::Out { who: target });
    }
    let _ = who;
    end_check(fight, ended, fight.state().round);
    Ok(())
}

/// First aid or stabilising (P6-TRACK-6/7).
fn first_aid<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    patient: CombatantId,
) -> Result<(), FightError> {
    let s = &fight.setup().combatants[who.index()];
    let skill = s.first_aid.max(s.medicine) - fight.state().fighter(who).condition(Cond::Shocked);
    let m = base_m(fight, who);
    let successes = check(fight, who, BoostedRoll::Check("first aid"), skill, m)?;
    let p = fight.state().fighter(patient);
    let dying = p.condition(Cond::Dying);
    let bleeding = p.condition(Cond::Bleeding);
    if dying > 0 {
        if successes >= dying {
            fight.emit(Event::Stabilised { who: patient });
        }
    } else if successes >= 1 {
        fight.emit(Event::Boosted { who: patient });
        if bleeding > 0 {
            fight.emit(Event::Condition { who: patient, cond: Cond::Bleeding, value: 0 });
        }
    }
    Ok(())
}

/// The landing point of a deviated throw (P6-THROW-2/3).
pub fn deviate(options: &super::Options, from: Pos, at: Pos, hour: u8, metres: u8) -> Pos {
    let (dx, dy) = (at.x - from.x, at.y - from.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (fx, fy) = if len > 0.0 { (dx / len, dy / len) } else { (1.0, 0.0) };
    let angle = std::f64::consts::PI / 6.0 * f64::from(hour);
    let d = f64::from(metres);
    let (right, beyond) = (d * angle.sin(), d * angle.cos());
    if options.deviation_line {
        return Pos { x: at.x + fx * beyond, y: at.y + fy * beyond };
    }
    // Right of the thrower's line of sight: the forward vector turned clockwise.
    let (rx, ry) = (fy, -fx);
    Pos { x: at.x + rx * right + fx * beyond, y: at.y + ry * right + fy * beyond }
}

/// A throw's dice and minimum roll (P6-THROW-1): Throwing less Shocked (P6-COND-2), at the
/// thrower's M with Burning, Poisoned and Hunkered (P6-COND-3/5/6), floored (P6-DICE-4). Shared
/// by the fight and the odds.
#[inline(always)]
pub(super) fn throw_numbers(setup: &super::Setup, state: &super::State, who: CombatantId) -> (i32, i32) {
    let s = &setup.combatants[who.index()];
    let x = state.fighter(who);
    let m = dice::floor(
        &setup.options,
        s.min_roll + x.condition(Cond::Burning) + x.condition(Cond::Poisoned) + i32::from(x.hunkered),
        0,
    );
    (s.throwing - x.condition(Cond::Shocked), m)
}

/// Whether a participant standing at `pos` is within a blast at `at` (P6-THROW-4): within
/// `throw_radius_m`, with a tolerance for the deviation's rounding. Shared by the fight, the AI
/// and the odds.
#[inline(always)]
pub(super) fn caught(options: &super::Options, pos: Pos, at: Pos) -> bool {
    pos.distance(at) <= options.throw_radius_m + 1e-9
}

/// Throwing an object (P6-THROW-*).
fn throw<D: Dice, P: Decider<PhaseSix>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Option<FightResult>,
    who: CombatantId,
    item: u8,
    target: CombatantId,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let it = &setup.combatants[who.index()].items[item as usize];
    let (n, m) = throw_numbers(setup, fight.state(), who);
    let successes = check(fight, who, BoostedRoll::Throw, n, m)?;
    let aim = fight.state().fighter(target).pos;
    let (at, deviation) = if successes >= 1 {
        (aim, None)
    } else {
        let hour = fight.roll(12, Reason::new(who, "deviation direction"))? as u8;
        let metres = fight.roll(6, Reason::new(who, "deviation distance"))? as u8;
        (deviate(options, fight.state().fighter(who).pos, aim, hour, metres), Some((hour, metres)))
    };
    fight.emit(Event::Landed { who, item, at, deviation });
    for i in 0..setup.combatants.len() {
        let victim = CombatantId(i as u16);
        let v = fight.state().fighter(victim);
        let near = caught(options, v.pos, at) || (deviation.is_none() && victim == target);
        if !near || v.dead {
            continue;
        }
        let sleeping = v.sleeping;
        let (normals, crits) = cover(fight, victim, it.hits.clamp(0, 60) as u8, List::new(), false)?;
        // The blast's hits count as hits (P6-DMG-4): they take the aim away (P6-AIM-2/3,
        // P6-SPECIAL-2) and wake a sleeper (P6-SPECIAL-12) as any attack's do.
        if normals > 0 && !options.aim_lost_on_wound && fight.state().fighter(victim).holds_aim() {
            fight.emit(Event::AimLost { who: victim });
        }
        // The blast's hits meet protection as an attack's do, and wear it (P6-DMG-4, P6-ARM-2).
        let (normals, prevented) = protect(fight, victim, normals, it.piercing);
        wear_armour(fight, victim, prevented);
        let wounds = wound(fight, victim, Some(who), 0, normals, crits, it.wounds_per_hit)?;
        if wounds > 0 {
            if options.aim_lost_on_wound && fight.state().fighter(victim).holds_aim() {
                fight.emit(Event::AimLost { who: victim });
            }
            add_conditions(fight, victim, &it.conditions, 1);
        }
        if sleeping && !options.sleeper_failed_coup_only && !fight.state().fighter(victim).dead {
            fight.emit(Event::Woke { who: victim });
        }
    }
    end_check(fight, ended, fight.state().round);
    Ok(())
}
