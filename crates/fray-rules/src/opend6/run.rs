//! One `opend6` fight: rounds of initiative and turns (OD6-ROUND-1/2), actions, attacks,
//! defences, damage and the wound ladder.

use super::attack::{self, DifficultyTerms, Modifiers};
use super::roll::{self, OneReads};
use super::setup::{DamageType, DieCode, Level, Posture, SkillId};
use super::{
    Action, Active, AttackPlan, Called, Choice, DamageCause, DefKind, Event, List, Mode, OpenD6, Request, RollFor,
    Rolled,
};
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Outcome, Reason, Sink};

type F<'f, 'a, D, P, S> = &'f mut Fight<'a, OpenD6, D, P, S>;

/// A hit waiting to be resolved: now, at the end of a simultaneous step (OD6-INIT-4) or at the
/// end of the round (`damage_timing = end_of_round`, OD6-ROUND-3).
#[derive(Clone, Copy, Debug)]
struct Hit {
    /// Who deals the damage.
    dealer: CombatantId,
    /// Who takes it.
    victim: CombatantId,
    /// The weapon's owner and index.
    owner: CombatantId,
    weapon: u8,
    /// The attack's plan (mode, called shot).
    plan: AttackPlan,
    /// The attack's margin over its difficulty.
    margin: i32,
    /// Why: a hit, or the listed damage of a parry or body block (OD6-DEF-6/7), or Strength
    /// Damage alone for a holder's squeeze (OD6-SPECIAL-10).
    cause: DamageCause,
}

/// What the round loop carries besides the state.
#[derive(Default)]
struct Ctx {
    /// Inside a simultaneous step: its members.
    step: List<CombatantId, 8>,
    /// Events held to the end of the step (inline: no allocation in an ordinary fight).
    held_events: List<Event, 8>,
    /// Hits held to the end of the step or the round.
    held_hits: List<Hit, 8>,
    /// Hits held to the end of the round.
    round_hits: List<Hit, 8>,
    /// Interrupters who continue once the interrupted action is resolved.
    after: List<CombatantId, 8>,
    /// The end, once reached.
    ended: Option<FightResult>,
}

impl Ctx {
    fn in_step(&self) -> bool {
        self.step.len() > 1
    }
}

pub(super) fn run<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: &mut Fight<'_, OpenD6, D, P, S>,
) -> Result<FightResult, FightError> {
    let setup = fight.setup();
    let mut ctx = Ctx::default();
    if let Some(result) = end_check(fight, &mut ctx, 0) {
        return Ok(result);
    }
    if setup.options.body_points {
        for (i, sheet) in setup.combatants.iter().enumerate() {
            if sheet.body_points_max.is_none() {
                let who = CombatantId(i as u16);
                let options = &setup.options;
                let rolled = roll::roll(
                    fight.dice_mut(),
                    who,
                    "body points",
                    sheet.strength(),
                    0,
                    OneReads::skill(options),
                    options,
                )?;
                let max = 20 + rolled.total.max(0);
                fight.emit(Event::BodyPoints { who, roll: rolled, max });
            }
        }
    }
    for round in 1..=setup.max_rounds {
        fight.emit(Event::RoundStarted { round });
        round_start(fight);
        initiative(fight, round)?;
        // Copied, not cloned element by element: the lists are short and their items plain.
        let order = List::<(CombatantId, u8), 8>::from_slice(&fight.state().order);
        let steps = order.last().map_or(0, |o| o.1 + 1);
        for step in 0..steps {
            ctx.step.clear();
            for &(who, s) in &order {
                if s == step {
                    ctx.step.push(who);
                }
            }
            let members = List::<CombatantId, 8>::from_slice(&ctx.step);
            for &who in &members {
                turn(fight, &mut ctx, who)?;
                if let Some(result) = ctx.ended {
                    return Ok(result);
                }
            }
            if ctx.in_step() {
                flush_step(fight, &mut ctx, &members)?;
            }
            ctx.step.clear();
            if let Some(result) = end_check(fight, &mut ctx, round) {
                return Ok(result);
            }
        }
        // Waited actions still to use (OD6-ROUND-2).
        for &(who, _) in &order {
            let x = fight.state().fighter(who);
            if x.waiting && x.able() && x.used < x.declared {
                let choice = fight.decide(who, &Request::Resume { last: true })?;
                if choice == Choice::Resume(true) {
                    fight.emit(Event::Resumed { who, interrupting: None });
                    act_loop(fight, &mut ctx, who)?;
                    if let Some(result) = ctx.ended {
                        return Ok(result);
                    }
                }
            }
        }
        // Taken only when there is something to take: an inline list is moved byte by byte.
        if !ctx.round_hits.is_empty() {
            for hit in std::mem::take(&mut ctx.round_hits) {
                resolve(fight, &mut ctx, hit)?;
            }
        }
        round_end(fight, &mut ctx, round)?;
        if let Some(result) = end_check(fight, &mut ctx, round) {
            return Ok(result);
        }
    }
    let result = FightResult { outcome: Outcome::Stalemate, length: setup.max_rounds };
    fight.emit(Event::Ended { result });
    Ok(result)
}

/// The end of the fight (OD6-ROUND-4): fewer than two sides with someone not out.
fn end_check<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    round: u32,
) -> Option<FightResult> {
    if ctx.ended.is_some() {
        return ctx.ended;
    }
    let setup = fight.setup();
    let state = fight.state();
    let standing =
        state.fighters.iter().zip(&setup.combatants).filter(|(x, _)| !x.out(&setup.options)).map(|(_, c)| c.side);
    let outcome = crate::standing_outcome(standing)?;
    let result = FightResult { outcome, length: round };
    fight.emit(Event::Ended { result });
    ctx.ended = Some(result);
    Some(result)
}

/// Checks the end after an action.
fn done<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, ctx: &mut Ctx) -> bool {
    let round = fight.state().round;
    end_check(fight, ctx, round).is_some()
}

/// Round-start bookkeeping: a Stunned level clears after a quiet minute (OD6-HEAL-1).
fn round_start<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) {
    for i in 0..fight.state().fighters.len() {
        let x = &fight.state().fighters[i];
        if x.level == Level::Stunned && x.idle_rounds >= 12 && x.able() {
            fight.emit(Event::Recovered { who: CombatantId(i as u16) });
        }
    }
}

/// Initiative (OD6-INIT-1..9) and the order of the round.
fn initiative<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    round: u32,
) -> Result<(), FightError> {
    use super::options::InitiativeMethod;
    let setup = fight.setup();
    let options = &setup.options;
    let n = setup.combatants.len();
    match options.initiative_method {
        InitiativeMethod::Fixed => {
            if round == 1 {
                let order =
                    setup.fixed_order.iter().enumerate().map(|(s, &i)| (CombatantId(i as u16), s as u8)).collect();
                fight.emit(Event::Order { order });
            }
            return Ok(());
        }
        InitiativeMethod::RollOnce if round > 1 => return Ok(()),
        _ => {}
    }
    let surprise_first = round == 1 && !options.surprise_bonus;
    let mut first: List<CombatantId, 8> = List::new();
    let mut totals: List<(CombatantId, i32), 8> = List::new();
    for i in 0..n {
        let who = CombatantId(i as u16);
        let sheet = &setup.combatants[i];
        if fight.state().fighters[i].absent {
            continue; // added by the GM, not yet in the fight
        }
        if surprise_first && sheet.surprise {
            first.push(who);
            continue;
        }
        if totals.iter().any(|t| t.0 == who) {
            continue;
        }
        let group = sheet.group.as_ref().filter(|_| options.group_initiative);
        let members: List<CombatantId, 8> = match group {
            Some(g) => (i..n)
                .filter(|&j| {
                    setup.combatants[j].group.as_ref() == Some(g)
                        && !(surprise_first && setup.combatants[j].surprise)
                        && fight.state().fighters[j].able()
                })
                .map(|j| CombatantId(j as u16))
                .collect(),
            None => smallvec::smallvec![who],
        };
        if !fight.state().fighters[i].able() {
            // Down: no roll, no turn (OD6-INIT-5); a group rolls at its next able member.
            continue;
        }
        let mut code = sheet.perception();
        if let Some(draw) = quick_draw(fight, who)? {
            code = code.add_dice(i32::from(draw.k));
        }
        let x = fight.state().fighter(who);
        if options.wound_penalty_on_initiative {
            code = code.add_dice(-super::level_penalty(options, x, round));
        }
        // The head is bit 0, so its `<<` → `>>` is an equivalent mutant (`1 >> 0` is `1 << 0`).
        let location = i32::from(x.locations & (1 << super::Loc::Head as u8) != 0)
            + i32::from(x.locations & (1 << super::Loc::Leg as u8) != 0);
        let mut rolled = roll::roll(fight.dice_mut(), who, "initiative", code, 0, OneReads::skill(options), options)?;
        ask_cp(fight, who, RollFor::Initiative, &mut rolled, None)?;
        let bonus = roll::initiative_bonus(sheet, options) - location;
        let total = rolled.total + bonus;
        for m in &members {
            totals.push((*m, total));
        }
        fight.emit(Event::Initiative { who, members, roll: Some(rolled), bonus, total });
    }
    // Highest first; ties share a step (OD6-INIT-4) or are broken by the parent's order.
    let key = |id: CombatantId| {
        let s = &setup.combatants[id.index()];
        [
            s.perception().pips_value(),
            s.skill(SkillId::SEARCH).pips_value(),
            s.agility().pips_value(),
            s.skill(SkillId::DODGE).pips_value(),
        ]
    };
    totals.sort_by(|a, b| {
        b.1.cmp(&a.1).then_with(|| {
            if options.ties_simultaneous { a.0.cmp(&b.0) } else { key(b.0).cmp(&key(a.0)).then(a.0.cmp(&b.0)) }
        })
    });
    let mut order: List<(CombatantId, u8), 8> = List::new();
    let mut step = 0u8;
    for who in first {
        order.push((who, step));
        step += 1;
    }
    for (k, &(who, total)) in totals.iter().enumerate() {
        if k > 0 && !(options.ties_simultaneous && totals[k - 1].1 == total) {
            step += 1;
        } else if k == 0 && !order.is_empty() {
            // The first rolled combatant follows the surprisers.
        }
        order.push((who, step));
    }
    fight.emit(Event::Order { order });
    Ok(())
}

/// Asks `who` about a quick draw before initiative (OD6-INIT-10).
fn quick_draw<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<Option<super::QuickDraw>, FightError> {
    let request = Request::QuickDraw;
    if fight.passes_optional(who, &request) {
        return Ok(None);
    }
    let Choice::QuickDraw(Some(draw)) = fight.decide(who, &request)? else { return Ok(None) };
    let setup = fight.setup();
    let sheet = &setup.combatants[who.index()];
    let Some(weapon) = sheet.weapons.get(draw.weapon as usize) else {
        return Err(FightError::IllegalChoice { who, reason: format!("no weapon number {}", draw.weapon) });
    };
    // At least 1D must stay in the skill after the multi-action penalty and the move.
    let left = sheet.skill(weapon.skill).dice - (i32::from(draw.n) - sheet.allotment).max(0) - i32::from(draw.k);
    if left < 1 {
        return Err(FightError::IllegalChoice {
            who,
            reason: format!("moving {}D leaves {left}D in {} (at least 1D must stay)", draw.k, weapon.skill.name()),
        });
    }
    fight.emit(Event::QuickDrawn { who, draw });
    Ok(Some(draw))
}

/// One combatant's turn (OD6-ACT-1).
fn turn<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
) -> Result<(), FightError> {
    let round = fight.state().round;
    let x = fight.state().fighter(who);
    // One the GM took out of the fight (fled, captured) has no more turns, not even lost ones
    // (only a table's decider adjusts: the simulator's pays nothing for this).
    if x.turn_done || (P::INTERJECTS && x.removed) {
        return Ok(());
    }
    if !x.able() || x.no_actions_round == round {
        fight.emit(Event::TurnLost { who });
        return Ok(());
    }
    release_if_holder_gone(fight, who);
    fight.emit(Event::TurnStarted { who, clear: !ctx.in_step() });
    if fight.state().fighter(who).declared == 0 {
        let max = 10;
        let choice = fight.decide(who, &Request::Declare { max })?;
        let Choice::Count(n) = choice else { unreachable!("checked by check_choice") };
        fight.emit(Event::Declared { who, n });
    }
    act_loop(fight, ctx, who)
}

/// A held character whose holder can no longer act, or has moved away, is free (OD6-COND-3).
fn release_if_holder_gone<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    if let Some(holder) = fight.state().fighter(who).held_by
        && (!fight.state().fighter(holder).able() || fight.state().distance(who, holder) > 3)
    {
        fight.emit(Event::Held { who, by: None });
    }
}

/// Actions until the declared ones are used, the character waits, or the fight ends.
fn act_loop<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
) -> Result<(), FightError> {
    let mut free_actions = 0;
    loop {
        if ctx.ended.is_some() {
            return Ok(());
        }
        let x = fight.state().fighter(who);
        if !x.able() || x.waiting || x.used >= x.declared {
            return Ok(());
        }
        let request = super::policy::act_request(fight.setup(), fight.state(), who, free_actions < 4);
        let Choice::Act(action) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
        if fight.checks_choices()
            && let Some(reason) = super::policy::illegal_action(fight.setup(), fight.state(), who, &request, &action)
        {
            return Err(FightError::IllegalChoice { who, reason });
        }
        if action == Action::Pass {
            fight.emit(Event::Forfeit { who, why: "passes; the remaining actions are lost" });
            return Ok(());
        }
        if matches!(action, Action::Posture(_) | Action::Move { free: true, .. }) {
            free_actions += 1;
        }
        perform(fight, ctx, who, action)?;
        while let Some(c) = ctx.after.pop() {
            act_loop(fight, ctx, c)?;
        }
        if done(fight, ctx) {
            return Ok(());
        }
        resume_waiters(fight, ctx, who)?;
    }
}

/// Whether `c` (`x`), waiting, may resume or interrupt after `actor`'s action: able, with
/// declared actions left, and not sharing the tied step being played (OD6-ACT-5/6, OD6-INIT-4).
fn may_act_from_wait(ctx: &Ctx, x: &super::Fighter, c: CombatantId, actor: CombatantId) -> bool {
    c != actor && x.waiting && x.able() && x.used < x.declared && !(ctx.in_step() && ctx.step.contains(&c))
}

/// After another's action, waiting characters may resume (OD6-ACT-5).
fn resume_waiters<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    actor: CombatantId,
) -> Result<(), FightError> {
    for i in 0..fight.state().fighters.len() {
        let c = CombatantId(i as u16);
        let x = fight.state().fighter(c);
        if !may_act_from_wait(ctx, x, c, actor) {
            continue;
        }
        let request = Request::Resume { last: false };
        if fight.passes_optional(c, &request) {
            continue;
        }
        if fight.decide(c, &request)? == Choice::Resume(true) {
            fight.emit(Event::Resumed { who: c, interrupting: None });
            act_loop(fight, ctx, c)?;
            if ctx.ended.is_some() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Performs one action.
fn perform<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
    action: Action,
) -> Result<(), FightError> {
    fight.emit(Event::Acted { who, action });
    let round = fight.state().round;
    // Waiting characters may interrupt any action: after its roll for an action that rolls (an
    // attack, a defence, an escape, first aid, a recovery; OD6-ACT-6), here for the others.
    if !matches!(
        action,
        Action::Attack(_)
            | Action::Defend { .. }
            | Action::Escape
            | Action::FirstAid(_)
            | Action::Revive(_)
            | Action::Recover
            | Action::Wait
            | Action::Pass
            | Action::Posture(_)
            | Action::Move { free: true, .. }
    ) {
        interrupts(fight, ctx, who, None, 0, 0, false)?;
        // The action was under way: it resolves even if the interrupt left its actor unable to
        // act, unless `interrupted_action = void_if_unable` (OD6-ACT-10).
        let void = fight.setup().options.void_if_unable && !fight.state().fighter(who).able();
        if ctx.ended.is_some() || void {
            return Ok(());
        }
    }
    match action {
        Action::Attack(plan) => attack(fight, ctx, who, plan),
        Action::Defend { kind, full } => defend(fight, ctx, who, kind, full, false),
        Action::Wait | Action::Pass => Ok(()),
        Action::Move { to, free } => {
            let from = fight.state().fighter(who).pos;
            fight.emit(Event::Moved { who, from, to, free });
            if fight.state().fighter(who).aim.is_some() {
                fight.emit(Event::AimEnded { who });
            }
            for i in 0..fight.state().fighters.len() {
                let c = CombatantId(i as u16);
                if fight.state().fighter(c).held_by == Some(who) && fight.state().distance(c, who) > 3 {
                    fight.emit(Event::Held { who: c, by: None });
                }
            }
            Ok(())
        }
        Action::Aim(target) => {
            let rounds = match fight.state().fighter(who).aim {
                Some((t, r, last)) if t == target && last + 1 == round => (r + 1).min(3),
                Some((t, r, last)) if t == target && last == round => r,
                _ => 1,
            };
            fight.emit(Event::Aimed { who, target, rounds });
            Ok(())
        }
        Action::Ready(weapon, what) => {
            fight.emit(Event::Readied { who, weapon, what });
            Ok(())
        }
        Action::StandUp => {
            fight.emit(Event::PostureChanged { who, posture: Posture::Standing, forced: false });
            Ok(())
        }
        Action::Posture(posture) => {
            fight.emit(Event::PostureChanged { who, posture, forced: false });
            Ok(())
        }
        Action::Escape => escape(fight, ctx, who),
        Action::Squeeze => {
            let setup = fight.setup();
            let Some(victim) = (0..setup.combatants.len())
                .map(|i| CombatantId(i as u16))
                .find(|&c| fight.state().fighter(c).held_by == Some(who))
            else {
                return Ok(());
            };
            let unarmed = setup.combatants[who.index()].unarmed() as u8;
            let plan = AttackPlan::new(victim, unarmed);
            let hit =
                Hit { dealer: who, victim, owner: who, weapon: unarmed, plan, margin: 0, cause: DamageCause::Squeeze };
            land(fight, ctx, hit)
        }
        Action::FirstAid(patient) => first_aid(fight, ctx, who, patient, false),
        Action::Revive(patient) => first_aid(fight, ctx, who, patient, true),
        Action::MoveUp => Ok(()),
        Action::Recover => {
            let Some(rolled) = stamina_roll(fight, who, "recovery", true)? else { return Ok(()) };
            if interrupted(fight, ctx, who, rolled.total)? {
                return Ok(());
            }
            let difficulty = 10 + fight.state().fighter(who).difficulty_penalty;
            let ok = rolled.total >= difficulty;
            fight.emit(Event::Recovery { who, roll: rolled, difficulty, ok });
            // Normal actions again from the following round.
            if ok && let Some((from, _)) = fight.state().fighter(who).restricted {
                fight.emit(Event::Restricted { who, from, until: round, recovered: true });
            }
            Ok(())
        }
    }
}

/// Asks for a Fate Point on a roll (OD6-RES-3/4); true when one is spent.
fn ask_fate<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    roll: RollFor,
) -> Result<bool, FightError> {
    let x = fight.state().fighter(who);
    if roll == RollFor::Initiative {
        return Ok(false);
    }
    // A climactic Fate Point doubles every eligible roll for the rest of its round (OD6-RES-4).
    // (Rounds count from 1, so `> 0` only keeps the unset 0 from matching: `>= 0` is an
    // equivalent mutant.)
    if x.climactic_round == fight.state().round && x.climactic_round > 0 {
        return Ok(true);
    }
    if x.fp == 0 {
        return Ok(false);
    }
    let request = Request::Fate { roll };
    if fight.passes_optional(who, &request) {
        return Ok(false);
    }
    let Choice::Fate(n) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
    let n = if n == 2 && fight.state().fighter(who).climactic_used { 1 } else { n };
    if n > 0 {
        fight.emit(Event::Points { who, cp: 0, fp: n });
    }
    Ok(n > 0)
}

/// Asks for Character Points after a roll (OD6-RES-1/2), one request at a time until the answer
/// is none or the cap is reached.
///
/// Inlined for its first test: most rolls are by characters with no points left, and every
/// roll of the fight asks.
#[inline]
fn ask_cp<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    roll: RollFor,
    rolled: &mut Rolled,
    need: Option<i32>,
) -> Result<(), FightError> {
    if rolled.fate || fight.state().fighter(who).cp == 0 {
        return Ok(());
    }
    ask_cp_requests(fight, who, roll, rolled, need)
}

/// [`ask_cp`]'s requests.
fn ask_cp_requests<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    roll: RollFor,
    rolled: &mut Rolled,
    need: Option<i32>,
) -> Result<(), FightError> {
    let cap = fight.setup().options.cp_cap;
    loop {
        let left = fight.state().fighter(who).cp;
        let spent = u32::from(rolled.cp);
        if left == 0 || spent >= cap {
            return Ok(());
        }
        let request = Request::Cp { roll, total: rolled.total, need, max: left.min(cap - spent) };
        if fight.passes_optional(who, &request) {
            return Ok(());
        }
        let Choice::Cp(n) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
        if n == 0 {
            return Ok(());
        }
        fight.emit(Event::Points { who, cp: n, fp: 0 });
        let setup = fight.setup();
        roll::add_cp(fight.dice_mut(), who, rolled, n, &setup.options)?;
    }
}

/// A skill or attribute roll made as an action, with its penalties; `None` when no dice are left
/// (OD6-DICE-7, the action forfeited).
#[allow(clippy::too_many_arguments, reason = "the roll's whole description")]
fn skill_roll<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    what: &'static str,
    (skill, base): (SkillId, Option<DieCode>),
    bonus: i32,
    extra: DieCode,
    roll_for: RollFor,
    need: Option<i32>,
) -> Result<Option<Rolled>, FightError> {
    let setup = fight.setup();
    let fate = ask_fate(fight, who, roll_for)?;
    let me = fight.state().fighter(who);
    let mut code = attack::action_code_from(setup, fight.state(), who, skill, base, fate, bonus).plus(extra);
    code.pips -= attack::location_penalty(me, skill);
    let agility = setup.combatants[who.index()].agility_based(skill);
    let (knock, surprise) = (me.knock_pending && agility, me.surprise_bonus);
    if knock {
        fight.emit(Event::KnockPenalty { who, pending: false });
    }
    if surprise {
        fight.emit(Event::SurpriseUsed { who });
    }
    if code.dice <= 0 && !setup.options.zero_dice_pips_only {
        fight.emit(Event::Forfeit { who, why: "no dice left to roll (OD6-DICE-7)" });
        return Ok(None);
    }
    let mut rolled = roll::roll(fight.dice_mut(), who, what, code, 0, OneReads::skill(&setup.options), &setup.options)?;
    rolled.fate = fate;
    ask_cp(fight, who, roll_for, &mut rolled, need)?;
    Ok(Some(rolled))
}

/// An active defence (OD6-DEF-1, -8, -9), or the free partial one of OD6-DEF-10.
fn defend<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
    kind: DefKind,
    full: bool,
    free: bool,
) -> Result<(), FightError> {
    let skill = attack::defence_skill(kind);
    // A free defence takes no multi-action penalty (OD6-DEF-10).
    let bonus = if free {
        attack::multi_penalty(&fight.setup().combatants[who.index()], fight.state().fighter(who))
    } else {
        0
    };
    let Some(rolled) =
        skill_roll(fight, who, "defence", (skill, None), bonus, DieCode::default(), RollFor::Defence, None)?
    else {
        return Ok(());
    };
    // A defence taken as an action may be interrupted after its roll (a free one may not).
    if !free && interrupted(fight, ctx, who, rolled.total)? {
        return Ok(());
    }
    let value = rolled.total + if full { 10 } else { 0 };
    let weapon = match kind {
        DefKind::Block(w) => w,
        DefKind::Dodge => None,
    };
    fight.emit(Event::Defence { who, kind, full, roll: rolled, value });
    let set = Event::DefenceSet { who, kind, active: Active { value, full, weapon } };
    if ctx.in_step() && ctx.step.contains(&who) {
        ctx.held_events.push(set);
    } else {
        fight.emit(set);
    }
    Ok(())
}

/// The difficulty against the values now in force, the active defence it rests on, its base and
/// its terms beyond the base.
type Difficulty = (i32, Option<DefKind>, i32, DifficultyTerms);

/// The base of the difficulty and the modifiers' terms, against the values now in force.
fn difficulty<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    plan: &AttackPlan,
    roll_dice: bool,
) -> Result<Option<Difficulty>, FightError> {
    let setup = fight.setup();
    let state = fight.state();
    let weapon = &setup.combatants[who.index()].weapons[plan.weapon as usize];
    let Some(band) = attack::band(setup, state, who, plan.target, weapon) else { return Ok(None) };
    let defender = state.fighter(plan.target);
    let (base, kind) = match attack::active_base(&setup.options, defender, weapon.close()) {
        Some((value, kind)) => (value, Some(kind)),
        None => (attack::passive(&setup.options, &setup.combatants[plan.target.index()]), None),
    };
    let mods: Modifiers = attack::modifiers(setup, state, who, plan, band);
    let (terms, difficulty) = if roll_dice && setup.options.rolled_modifiers {
        // Rolled modifiers: plain d6, no Wild Die, negative dice subtracted (OD6-DIFF-3).
        let mut terms = mods.fixed_terms();
        let dice = mods.dice.iter().copied().chain(std::iter::once(mods.per_die));
        for (term, d) in terms[3..].iter_mut().zip(dice) {
            let mut sum = 0;
            for _ in 0..d.abs() {
                let face = fight.roll(6, Reason::new(who, "difficulty modifier"))? as i32;
                // `d` is not 0 here, so its sign is ±1 and `face / d.signum()` is the same (an
                // equivalent mutant).
                sum += face * d.signum();
            }
            *term = sum;
        }
        DifficultyTerms::new(base, terms)
    } else {
        DifficultyTerms::fixed(base, &mods)
    };
    Ok(Some((difficulty, kind, base, terms)))
}

/// One attack (OD6-ATK-2).
fn attack<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
    plan: AttackPlan,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let weapon = &setup.combatants[who.index()].weapons[plan.weapon as usize];
    let aim = fight.state().fighter(who).aim;
    let aim_bonus = match aim {
        Some((t, r, _)) if t == plan.target && weapon.skill.aimable() => i32::from(r.min(3)),
        _ => 0,
    };
    // The difficulty before the roll, for Character Points and interrupts (only when needed:
    // `ask_cp` reads it only with points left, `interrupts` only with a waiter, so `cp >= 0`
    // would change nothing but the work, an equivalent mutant of the audit).
    let asks = fight.state().fighter(who).cp > 0 || fight.state().fighters.iter().any(|x| x.waiting);
    let need = if asks { difficulty(fight, who, &plan, false)?.map(|d| d.0) } else { None };
    let Some(rolled) =
        skill_roll(fight, who, "attack", (weapon.skill, None), aim_bonus, DieCode::default(), RollFor::Attack, need)?
    else {
        return Ok(());
    };
    if aim.is_some() {
        fight.emit(Event::AimEnded { who });
    }
    interrupts(fight, ctx, who, Some(plan.target), rolled.total, need.unwrap_or(0), weapon.close())?;
    if options.void_if_unable && !fight.state().fighter(who).able() {
        fight.emit(Event::Forfeit {
            who,
            why: "the interrupted action has no effect (interrupted_action = void_if_unable)",
        });
        return Ok(());
    }
    // A target caught before his first turn may dodge for free (OD6-DEF-10).
    if let Some(kind) = attack::free_defence(setup, fight.state(), plan.target, weapon.close()) {
        defend(fight, ctx, plan.target, kind, false, true)?;
    }
    let (hit, difficulty, kind, base, terms) = match difficulty(fight, who, &plan, true)? {
        Some((difficulty, kind, base, terms)) => (rolled.total >= difficulty, difficulty, kind, base, terms),
        None => (false, i32::MAX, None, 10, DifficultyTerms::default()),
    };
    let total = rolled.total;
    fight.emit(Event::Attack {
        attacker: who,
        target: plan.target,
        weapon: plan.weapon,
        plan,
        roll: rolled,
        base,
        difficulty,
        terms,
        hit,
    });
    if options.ammo_tracking && fight.state().fighter(who).weapons[plan.weapon as usize].ammo.is_some() {
        fight.emit(Event::Ammo { who, weapon: plan.weapon, used: attack::plan_ammo(weapon, &plan) });
    }
    if options.aim_any_attack && fight.state().fighter(plan.target).aim.is_some() {
        // A broken aim of a target in the same tied step is held back to the step's end
        // (OD6-INIT-4): he still fires with it in his own turn of the step.
        let ended = Event::AimEnded { who: plan.target };
        if ctx.in_step() && ctx.step.contains(&plan.target) {
            ctx.held_events.push(ended);
        } else {
            fight.emit(ended);
        }
    }
    // A successful block or parry (OD6-DEF-6/7). Under `parry_success = below_active_value` a
    // block can succeed while the attack still hits (its difficulty lowered by other
    // modifiers): the parry's backlash comes, and the hit lands too; a body block hit by a blade
    // is then a normal hit.
    if let Some(DefKind::Block(parry)) = kind {
        let value = fight.state().fighter(plan.target).block.map_or(base, |a| a.value);
        let success = if options.parry_below_value { total < value } else { !hit };
        if success {
            let defender = &setup.combatants[plan.target.index()];
            match parry {
                Some(pw) if weapon.skill == SkillId::BRAWLING && defender.weapons[pw as usize].sharp => {
                    let backlash = Hit {
                        dealer: plan.target,
                        victim: who,
                        owner: plan.target,
                        weapon: pw,
                        plan: AttackPlan::new(who, pw),
                        margin: 0,
                        cause: DamageCause::ParryCut,
                    };
                    land(fight, ctx, backlash)?;
                    if !hit || ctx.ended.is_some() {
                        return Ok(());
                    }
                }
                None if !hit
                    && weapon.sharp
                    && weapon.close()
                    && !attack::armored_against(setup, plan.target, weapon.damage_type)
                    && !defender.block_bladed =>
                {
                    let hit = Hit {
                        dealer: who,
                        victim: plan.target,
                        owner: who,
                        weapon: plan.weapon,
                        plan,
                        margin: 0,
                        cause: DamageCause::BodyBlock,
                    };
                    return land(fight, ctx, hit);
                }
                _ if !hit => return Ok(()),
                _ => {}
            }
        }
    }
    if hit {
        let hit = Hit {
            dealer: who,
            victim: plan.target,
            owner: who,
            weapon: plan.weapon,
            plan,
            margin: total - difficulty,
            cause: DamageCause::Hit,
        };
        land(fight, ctx, hit)?;
    }
    Ok(())
}

/// A hit lands: resolved now, or held to the end of the step or round.
fn land<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    hit: Hit,
) -> Result<(), FightError> {
    if fight.setup().options.damage_end_of_round {
        ctx.round_hits.push(hit);
        Ok(())
    } else if ctx.in_step() && ctx.step.contains(&hit.dealer) {
        ctx.held_hits.push(hit);
        Ok(())
    } else {
        resolve(fight, ctx, hit)
    }
}

/// Waiting characters may interrupt `who`'s action once its roll (`total`) is made (OD6-ACT-6);
/// whether the action then stops: the fight ended, or `interrupted_action = void_if_unable` and
/// the interrupt left `who` unable to act (OD6-ACT-10; by default it resolves with its roll).
fn interrupted<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
    total: i32,
) -> Result<bool, FightError> {
    interrupts(fight, ctx, who, None, total, 0, false)?;
    if ctx.ended.is_some() {
        return Ok(true);
    }
    if fight.setup().options.void_if_unable && !fight.state().fighter(who).able() {
        fight.emit(Event::Forfeit {
            who,
            why: "the interrupted action has no effect (interrupted_action = void_if_unable)",
        });
        return Ok(true);
    }
    Ok(false)
}

/// Waiting characters may interrupt an action after its roll (OD6-ACT-6).
///
/// Inlined for its first test: most actions find nobody waiting.
#[inline]
fn interrupts<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    actor: CombatantId,
    target: Option<CombatantId>,
    total: i32,
    difficulty: i32,
    close: bool,
) -> Result<(), FightError> {
    if !fight.state().fighters.iter().any(|x| x.waiting) {
        return Ok(());
    }
    ask_interrupts(fight, ctx, actor, target, total, difficulty, close)
}

/// [`interrupts`]' requests to the waiting characters.
fn ask_interrupts<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    actor: CombatantId,
    target: Option<CombatantId>,
    total: i32,
    difficulty: i32,
    close: bool,
) -> Result<(), FightError> {
    for i in 0..fight.state().fighters.len() {
        let c = CombatantId(i as u16);
        let x = fight.state().fighter(c);
        if !may_act_from_wait(ctx, x, c, actor) {
            continue;
        }
        let request = Request::Interrupt { actor, target, total, difficulty, close };
        let Choice::Interrupt(action) = fight.decide(c, &request)? else { unreachable!("checked by check_choice") };
        let Some(action) = action else { continue };
        let act_request = super::policy::act_request(fight.setup(), fight.state(), c, false);
        if let Some(reason) = super::policy::illegal_action(fight.setup(), fight.state(), c, &act_request, &action) {
            return Err(FightError::IllegalChoice { who: c, reason });
        }
        fight.emit(Event::Resumed { who: c, interrupting: Some((actor, total)) });
        perform(fight, ctx, c, action)?;
        ctx.after.push(c);
    }
    Ok(())
}

/// Resolves a hit: manoeuvre effects, or damage against resistance.
fn resolve<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    hit: Hit,
) -> Result<(), FightError> {
    let modes = [hit.plan.mode, hit.plan.mode2];
    let effect = [Mode::Knockdown, Mode::Push, Mode::Grab, Mode::Tackle].into_iter().find(|m| modes.contains(m));
    if !hit.cause.listed_only()
        && hit.cause != DamageCause::Squeeze
        && let Some(effect) = effect
    {
        match effect {
            Mode::Knockdown | Mode::Push => {
                fight.emit(Event::KnockPenalty { who: hit.victim, pending: true });
                if effect == Mode::Knockdown {
                    fight.emit(Event::PostureChanged { who: hit.victim, posture: Posture::Prone, forced: true });
                    if fight.state().fighter(hit.victim).aim.is_some() {
                        fight.emit(Event::AimEnded { who: hit.victim });
                    }
                }
                return Ok(());
            }
            Mode::Grab => {
                fight.emit(Event::Held { who: hit.victim, by: Some(hit.dealer) });
                return Ok(());
            }
            Mode::Tackle => fight.emit(Event::Held { who: hit.victim, by: Some(hit.dealer) }),
            _ => {}
        }
    }
    damage(fight, ctx, hit, hit.cause == DamageCause::Squeeze)
}

/// Damage against resistance (OD6-DMG-1..10), or a disarm (OD6-SPECIAL-11).
fn damage<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    hit: Hit,
    strength_only: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let weapon = &setup.combatants[hit.owner.index()].weapons[hit.weapon as usize];
    let fate = if hit.cause.listed_only() { false } else { ask_fate(fight, hit.dealer, RollFor::Damage)? };
    let code = if hit.cause.listed_only() {
        weapon.damage
    } else if strength_only {
        let sd = roll::strength_damage(&setup.combatants[hit.dealer.index()], options);
        DieCode::new(if fate { 2 * sd } else { sd }, 0)
    } else {
        attack::damage_code(setup, hit.dealer, &hit.plan, fate)
    };
    let mut rolled = roll::roll(fight.dice_mut(), hit.dealer, "damage", code, 0, OneReads::damage(options), options)?;
    rolled.fate = fate;
    if !hit.cause.listed_only() {
        ask_cp(fight, hit.dealer, RollFor::Damage, &mut rolled, None)?;
    }
    let plain = hit.cause.listed_only() || strength_only;
    let (_, fixed, _) = if plain { (0, 0, 0) } else { attack::called_mods(hit.plan.called, options) };
    let bonus_on = match options.damage_bonus {
        super::options::DamageBonus::All => true,
        super::options::DamageBonus::HeroesOnly => setup.combatants[hit.dealer.index()].hero,
        super::options::DamageBonus::Off => false,
    };
    let bonus =
        if !plain && bonus_on && attack::bonus_applies(hit.plan.called) { roll::damage_bonus(hit.margin) } else { 0 };
    let total = (rolled.total + fixed + bonus).max(0);
    fight.emit(Event::Damage {
        cause: hit.cause,
        by: Some(hit.dealer),
        target: hit.victim,
        roll: rolled,
        fixed,
        bonus,
        total,
    });
    if let Called::Small { disarm: true, .. } = hit.plan.called
        && !plain
    {
        return disarm(fight, hit, total);
    }
    let resistance = resist(fight, hit.victim, weapon.damage_type, total)?;
    let stun = !plain && fight.state().fighter(hit.owner).weapons[hit.weapon as usize].stun;
    let knockout = !plain && hit.plan.called == Called::Knockout;
    let located = match hit.plan.called {
        Called::Location(loc) if !plain => Some(loc),
        _ => None,
    };
    injure(fight, ctx, hit.victim, Some(hit.dealer), total - resistance, stun, knockout, located)
}

/// The disarm: the target may move up and roll Strength to keep the item (OD6-SPECIAL-11).
fn disarm<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    hit: Hit,
    total: i32,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let victim = hit.victim;
    let x = fight.state().fighter(victim);
    let sheet = &setup.combatants[victim.index()];
    let held = (0..sheet.weapons.len() - 1).find(|&w| x.weapons[w].drawn);
    let Some(item) = held else { return Ok(()) };
    let mut kept = false;
    // He may move up, using one of his actions (OD6-ACT-7), and roll Strength to keep it.
    if !x.turn_done && x.able() && fight.decide(victim, &Request::MoveUp)? == Choice::Resume(true) {
        if fight.state().fighter(victim).declared == 0 {
            let Choice::Count(n) = fight.decide(victim, &Request::Declare { max: 10 })? else {
                unreachable!("checked by check_choice")
            };
            fight.emit(Event::Declared { who: victim, n });
        }
        let x = fight.state().fighter(victim);
        if x.used < x.declared {
            fight.emit(Event::Acted { who: victim, action: Action::MoveUp });
            let skill = super::policy::strength_skill(sheet);
            let roll_for = RollFor::Attack;
            if let Some(rolled) =
                skill_roll(fight, victim, "keep item", skill, 0, DieCode::default(), roll_for, Some(total + 1))?
            {
                kept = rolled.total > total;
                fight.emit(Event::Opposed { who: victim, what: "keep item", roll: rolled, against: total, ok: kept });
            }
        }
    }
    if !kept {
        fight.emit(Event::Dropped { who: victim, weapon: item as u8 });
    }
    Ok(())
}

/// The resistance total (OD6-DMG-6, OD6-DMG-8, OD6-TRACK-10).
fn resist<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    damage_type: DamageType,
    damage: i32,
) -> Result<i32, FightError> {
    use super::options::NegativeResistance;
    let setup = fight.setup();
    let options = &setup.options;
    let fate = ask_fate(fight, who, RollFor::Resistance)?;
    let code = attack::resistance_code(setup, who, damage_type, fate);
    let mut rolled = if code.dice <= 0 && code.pips == 0 {
        // `code` is 0D+0 here, the default's: naming it only says so.
        Rolled { code, ..Rolled::default() }
    } else {
        roll::roll(fight.dice_mut(), who, "resistance", code, 0, OneReads::damage(options), options)?
    };
    rolled.fate = fate;
    ask_cp(fight, who, RollFor::Resistance, &mut rolled, Some(damage - 8))?;
    // A code with no dice resists with its pips, negative ones included (OD6-DMG-8).
    let raw = if code.dice < 1 { rolled.total - code.pips.max(0) + code.pips } else { rolled.total };
    let total = match options.negative_resistance {
        NegativeResistance::AddToInjury => raw,
        _ => raw.max(0),
    };
    let rolled_any = code.dice > 0 || code.pips != 0 || rolled.cp > 0;
    fight.emit(Event::Resist { who, roll: rolled_any.then_some(rolled), total });
    if raw < 0 && options.negative_resistance == NegativeResistance::DifficultyPenalty {
        fight.emit(Event::DifficultyPenalty { who, penalty: -raw });
    }
    Ok(total)
}

/// An injury margin D applied (OD6-DMG-7..10, OD6-TRACK-2..11).
#[allow(clippy::too_many_arguments, reason = "the injury's whole description")]
fn injure<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    _ctx: &mut Ctx,
    who: CombatantId,
    by: Option<CombatantId>,
    d: i32,
    stun: bool,
    knockout: bool,
    located: Option<super::Loc>,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let round = fight.state().round;
    let x = fight.state().fighter(who);
    let was_out = x.out(options);
    let from = x.level;
    let Some(injury) = roll::injury(options, from, x.bp, x.bp_max, d, stun, knockout) else { return Ok(()) };
    let (incoming, to, bp) = (injury.incoming, injury.to, injury.bp);
    let unconscious_until = match injury.unconscious_rounds {
        0 => 0,
        u32::MAX => u32::MAX,
        r => round + r,
    };
    let deepest_before = fight.state().fighter(who).deepest;
    fight.emit(Event::Wound { who, by, margin: d, incoming, from, to, bp });
    // Under Body Points a level's effects trigger on entering it for the first time.
    let entering = !options.body_points || to > deepest_before;
    if to == Level::Stunned && entering {
        fight.emit(Event::StunWindow { who, until: round + 1 });
    }
    if to >= Level::Stunned && fight.state().fighter(who).aim.is_some() {
        fight.emit(Event::AimEnded { who });
    }
    if unconscious_until > 0 && to < Level::MortallyWounded {
        fight.emit(Event::Unconscious { who, until: unconscious_until });
    } else if to == Level::Incapacitated && from < Level::Incapacitated && entering {
        stay_up(fight, who)?;
    } else if to == Level::MortallyWounded && !fight.state().fighter(who).unconscious() {
        // Mortally Wounded: unconscious at once, no stay-up roll (OD6-TRACK-7).
        fight.emit(Event::Unconscious { who, until: u32::MAX });
    }
    if options.massive_damage {
        let x = fight.state().fighter(who);
        if to.index() - x.level_at_round_start.index() >= 2 && x.restricted.is_none_or(|r| r.1 <= round) {
            fight.emit(Event::Restricted { who, from: round + 1, until: round + 2, recovered: false });
        }
    }
    if options.hit_location_effects
        && to >= Level::Wounded
        && let Some(loc) = located
    {
        fight.emit(Event::LocationEffect { who, loc });
    }
    if to >= Level::MortallyWounded {
        // Holds end when the holder drops (OD6-COND-3).
        for i in 0..fight.state().fighters.len() {
            let c = CombatantId(i as u16);
            if fight.state().fighter(c).held_by == Some(who) {
                fight.emit(Event::Held { who: c, by: None });
            }
        }
    }
    if !was_out && fight.state().fighter(who).out(options) {
        fight.emit(Event::Out { who });
    }
    Ok(())
}

/// A roll of the higher of stamina and willpower, with no penalties (OD6-TRACK-6, -9); `action`
/// applies the action penalties (the massive-damage recovery roll).
fn stamina_roll<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    what: &'static str,
    action: bool,
) -> Result<Option<Rolled>, FightError> {
    let setup = fight.setup();
    let sheet = &setup.combatants[who.index()];
    let (stamina, willpower) = (sheet.skill(SkillId::STAMINA), sheet.skill(SkillId::WILLPOWER));
    let skill = if willpower.pips_value() > stamina.pips_value() { SkillId::WILLPOWER } else { SkillId::STAMINA };
    // The targets the Character Point prompts show carry the difficulty penalty as the checks
    // do (`negative_resistance = difficulty_penalty`, OD6-DMG-8).
    let penalty = fight.state().fighter(who).difficulty_penalty;
    if action {
        return skill_roll(fight, who, what, (skill, None), 0, DieCode::default(), RollFor::StayUp, Some(10 + penalty));
    }
    let fate = ask_fate(fight, who, RollFor::StayUp)?;
    let code = if fate { roll::doubled(sheet.skill(skill)) } else { sheet.skill(skill) };
    let mut rolled = roll::roll(fight.dice_mut(), who, what, code, 0, OneReads::skill(&setup.options), &setup.options)?;
    rolled.fate = fate;
    ask_cp(fight, who, RollFor::StayUp, &mut rolled, Some(roll::STAY_UP_DIFFICULTY + penalty))?;
    Ok(Some(rolled))
}

/// The stay-up roll on reaching Incapacitated (OD6-TRACK-6).
fn stay_up<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<(), FightError> {
    let Some(rolled) = stamina_roll(fight, who, "stay up", false)? else { return Ok(()) };
    let difficulty = roll::STAY_UP_DIFFICULTY + fight.state().fighter(who).difficulty_penalty;
    let ok = rolled.total >= difficulty;
    fight.emit(Event::StayUp { who, roll: rolled, difficulty, ok });
    if !ok {
        let setup = fight.setup();
        let until = if setup.options.roll_unconscious_duration {
            let rolled = roll::roll(
                fight.dice_mut(),
                who,
                "unconscious minutes",
                DieCode::new(10, 0),
                0,
                OneReads::skill(&setup.options),
                &setup.options,
            )?;
            fight.state().round + 12 * rolled.total.max(1) as u32
        } else {
            u32::MAX
        };
        fight.emit(Event::Unconscious { who, until });
    }
    Ok(())
}

/// Escaping a hold: lifting (or Strength) against the holder's, ties to the holder (OD6-SPECIAL-10).
fn escape<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let Some(holder) = fight.state().fighter(who).held_by else { return Ok(()) };
    let skill = super::policy::strength_skill(&setup.combatants[who.index()]);
    let Some(rolled) = skill_roll(fight, who, "escape", skill, 0, DieCode::default(), RollFor::Attack, None)? else {
        return Ok(());
    };
    if interrupted(fight, ctx, who, rolled.total)? {
        return Ok(());
    }
    let hs = &setup.combatants[holder.index()];
    let code = if hs.has_skill(SkillId::LIFTING) { hs.skill(SkillId::LIFTING) } else { hs.strength() };
    // The holder's roll is not an action, so no wound penalty (OD6-TRACK-4), but it is a roll
    // he makes: his multi-action penalty falls on it (OD6-ACT-2).
    let code = code.add_dice(-attack::multi_penalty(hs, fight.state().fighter(holder)));
    let theirs =
        roll::roll(fight.dice_mut(), holder, "hold", code, 0, OneReads::skill(&setup.options), &setup.options)?;
    let ok = rolled.total > theirs.total;
    fight.emit(Event::Opposed { who, what: "escape", roll: rolled, against: theirs.total, ok });
    if ok {
        fight.emit(Event::Held { who, by: None });
    }
    Ok(())
}

/// First aid (OD6-HEAL-2).
fn first_aid<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    who: CombatantId,
    patient: CombatantId,
    wake_only: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let p = fight.state().fighter(patient);
    let difficulty = if wake_only {
        10
    } else {
        match p.level {
            Level::Stunned => 10,
            Level::Wounded | Level::SeverelyWounded => 15,
            Level::Incapacitated => 20,
            _ => 30,
        }
    } + fight.state().fighter(who).difficulty_penalty;
    let medkit = setup.combatants[who.index()].medkit;
    let Some(rolled) =
        skill_roll(fight, who, "first aid", (SkillId::MEDICINE, None), 0, medkit, RollFor::Attack, Some(difficulty))?
    else {
        return Ok(());
    };
    if interrupted(fight, ctx, who, rolled.total)? {
        return Ok(());
    }
    let ok = rolled.total >= difficulty;
    let from = fight.state().fighter(patient).level;
    let to = if ok && !wake_only { Level::from_index(from.index() - 1) } else { from };
    fight.emit(Event::Aid { who, patient, roll: rolled, difficulty, to, ok });
    let p = fight.state().fighter(patient);
    if ok && p.unconscious() && (wake_only || to < Level::Incapacitated) {
        fight.emit(Event::Woke { who: patient });
    }
    Ok(())
}

/// The end of a simultaneous step: held results take effect (OD6-INIT-4).
fn flush_step<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    members: &[CombatantId],
) -> Result<(), FightError> {
    ctx.step.clear();
    for &who in members {
        let x = fight.state().fighter(who);
        if x.turn_done && !x.lost_turn && (x.dodge.is_some() || x.block.is_some()) {
            fight.emit(Event::DefenceEnded { who });
        }
    }
    // Taken only when there is something to take: an inline list is moved byte by byte.
    if !ctx.held_events.is_empty() {
        for event in std::mem::take(&mut ctx.held_events) {
            fight.emit(event);
        }
    }
    if !ctx.held_hits.is_empty() {
        for hit in std::mem::take(&mut ctx.held_hits) {
            resolve(fight, ctx, hit)?;
        }
    }
    Ok(())
}

/// The end of a round: lost turns end defence windows (OD6-DEF-3), the unconscious wake
/// (OD6-DMG-10), mortal checks (OD6-TRACK-7), unused aims reset (OD6-ATK-4).
fn round_end<D: Dice, P: Decider<OpenD6>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ctx: &mut Ctx,
    round: u32,
) -> Result<(), FightError> {
    use super::options::MortalCheck;
    let setup = fight.setup();
    for i in 0..fight.state().fighters.len() {
        let who = CombatantId(i as u16);
        let x = fight.state().fighter(who);
        // A defender who lost (or had no) turn this round keeps his value only to its end (OD6-DEF-3).
        if (x.lost_turn || !x.turn_done) && x.defence_round < round && (x.dodge.is_some() || x.block.is_some()) {
            fight.emit(Event::DefenceEnded { who });
        }
        let x = fight.state().fighter(who);
        if x.unconscious_until != u32::MAX && x.unconscious_until > 0 && x.unconscious_until <= round {
            fight.emit(Event::Woke { who });
        }
        let x = fight.state().fighter(who);
        if let Some((_, _, last)) = x.aim
            && last < round
        {
            fight.emit(Event::AimEnded { who });
        }
        let x = fight.state().fighter(who);
        if x.level == Level::MortallyWounded
            && let Some(since) = x.mortal_since
            && round > since
        {
            let k = round - since;
            let need = match setup.options.mortal_check {
                MortalCheck::PerMinute if k % 12 == 0 => Some(k / 12),
                MortalCheck::PerRound => Some(k),
                _ => None,
            };
            if let Some(need) = need {
                let fate = ask_fate(fight, who, RollFor::StayUp)?;
                let sheet = &setup.combatants[i];
                let code = if fate { roll::doubled(sheet.strength()) } else { sheet.strength() };
                let mut rolled = roll::roll(
                    fight.dice_mut(),
                    who,
                    "survival",
                    code,
                    0,
                    OneReads::skill(&setup.options),
                    &setup.options,
                )?;
                rolled.fate = fate;
                ask_cp(fight, who, RollFor::StayUp, &mut rolled, Some(need as i32))?;
                let died = rolled.total < need as i32;
                fight.emit(Event::Survival { who, roll: rolled, need: need as i32, died });
            }
        }
    }
    let _ = ctx;
    Ok(())
}
