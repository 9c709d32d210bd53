//! One fight: the tick loop of TICK-TIME-10.

use super::attack::{self, Weapon, WoundRule};
use super::policy::{
    defence_numbers, dive_reachable, dive_square, effort_available, illegal, melee_numbers, shot_numbers,
};
use super::setup::{Square, chebyshev};
use super::{Action, ArmourMet, Choice, Event, Kind, Request, Ticks};
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Outcome, Reason, Sink};

type F<'f, 'a, D, P, S> = &'f mut Fight<'a, Ticks, D, P, S>;

/// Runs one fight to its end.
pub fn run<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) -> Result<FightResult, FightError> {
    let setup = fight.setup();
    let n = setup.combatants.len();
    if let Some(result) = finished(fight, 0) {
        fight.emit(Event::Ended { result });
        return Ok(result);
    }
    let mut order = super::Roster::new();
    let mut rest = super::Roster::new();
    for tick in 1..=setup.options.tick_cap {
        fight.emit(Event::TickStarted { tick });
        // (1) Announcements, in a seeded random order or the roster's (TICK-TIME-5/6).
        order.clear();
        order.extend((0..n).map(|i| CombatantId(i as u16)).filter(|&c| !fight.state().fighter(c).out()));
        // (With one combatant the shuffle below draws nothing: `> 1` → `>= 1` is equivalent.)
        if !setup.options.announce_roster && order.len() > 1 {
            for i in (1..order.len()).rev() {
                let j = fight.roll(i as u32 + 1, Reason::anyone(super::front::ORDER))? as usize - 1;
                order.swap(i, j);
            }
            fight.emit(Event::Order { order: super::Roster::from_slice(&order) });
        }
        for &who in &order {
            let mut action = announcement(fight, who, tick)?;
            // At a live table the GM may take `who` out (or set it down) just before its
            // question: it then announces nothing, as Down takes no actions (TICK-TRACK-5). Only a
            // table's decider adjusts (`INTERJECTS`): the simulator's pays nothing for this.
            if P::INTERJECTS && fight.state().fighter(who).out() {
                continue;
            }
            // Lowering a gun is free under `lower_gun_cost = free` (TICK-TIME-12): it goes with
            // the tick's real announcement, asked for again.
            if action == Action::Lower && !setup.options.lower_is_action {
                fight.emit(Event::Lowered { who });
                action = announcement(fight, who, tick)?;
            }
            fight.emit(Event::Announced { who, action });
        }
        if setup.options.resolve_roster {
            order.sort_unstable();
        }
        let act = |fight: &Fight<'_, Ticks, D, P, S>, who: CombatantId| {
            let f = fight.state().fighter(who);
            if f.out() { None } else { f.announced }
        };
        // (2) Reaction strikes, before the moves they answer.
        for &who in &order {
            if let Some(Action::Strike { target, blow, weak_point }) = act(fight, who) {
                melee(fight, who, target, blow, weak_point, false)?;
            }
        }
        // (3) Moves and runs (at the end of the tick under `tick_order = moves_last`).
        if !setup.options.moves_last {
            moves(fight, &order)?;
        }
        // (5) Every other action. Shots in ascending p under `firearm_initiative`.
        rest.clone_from(&order);
        // A shooter's place, fixed for the tick (its announcement and its p at the tick's start):
        // shooters first, by p; everyone else after them, together.
        let shooting_p = |fight: &Fight<'_, Ticks, D, P, S>, c: CombatantId| {
            let f = fight.state().fighter(c);
            let shooting =
                matches!(f.announced, Some(Action::Fire { .. } | Action::Run { attack: Some((_, None, _)), .. }));
            shooting.then_some(f.p0)
        };
        if setup.options.low_stability_first {
            rest.sort_by_key(|&c| shooting_p(fight, c).map_or((true, 0), |p| (false, p)));
        }
        for (k, &who) in rest.iter().enumerate() {
            // Under `firearm_initiative`, a group of shooters with equal p fires together and its
            // damage lands before the next group, the last group's before anyone else acts
            // (TICK-TIME-11).
            if setup.options.low_stability_first && k > 0 {
                let before = shooting_p(fight, rest[k - 1]);
                if before.is_some() && before != shooting_p(fight, who) {
                    for c in order.iter().copied() {
                        settle_damage(fight, c);
                        down_checks(fight, c);
                    }
                }
            }
            let Some(action) = act(fight, who) else { continue };
            match action {
                Action::Ready => {
                    let penalty = setup.combatants[who.index()].gun.as_ref().map_or(0, |g| g.ready_penalty);
                    fight.emit(Event::Readied { who, penalty });
                }
                Action::Lower => fight.emit(Event::Lowered { who }),
                Action::Aim(target) => {
                    if !fight.state().fighter(who).ready {
                        let penalty = setup.combatants[who.index()].gun.as_ref().map_or(0, |g| g.ready_penalty);
                        fight.emit(Event::Readied { who, penalty });
                    }
                    let f = fight.state().fighter(who);
                    let ticks = if f.aim_target == Some(target) { f.aim_ticks + 1 } else { 1 };
                    fight.emit(Event::Aimed { who, target, ticks });
                }
                Action::Fire { targets, shots, weak_point } => {
                    for &target in targets.iter().take(usize::from(shots)) {
                        if fight.state().fighter(who).out() {
                            break;
                        }
                        shot(fight, who, target, weak_point, false)?;
                    }
                }
                Action::Run { attack: Some((target, None, weak)), .. } => shot(fight, who, target, weak, true)?,
                Action::Run { attack: Some((target, Some(blow), weak)), .. } => {
                    melee(fight, who, target, blow, weak, true)?
                }
                Action::Melee { target, blow, weak_point } => melee(fight, who, target, blow, weak_point, false)?,
                _ => {}
            }
        }
        if setup.options.moves_last {
            moves(fight, &order)?;
        }
        end_of_tick(fight, &order)?;
        if let Some(result) = finished(fight, tick) {
            fight.emit(Event::Ended { result });
            return Ok(result);
        }
    }
    let result = FightResult { outcome: Outcome::Stalemate, length: setup.options.tick_cap };
    fight.emit(Event::Ended { result });
    Ok(result)
}

/// One legal announcement of `who`.
fn announcement<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    tick: u32,
) -> Result<Action, FightError> {
    let choice = fight.decide(who, &Request::Announce { tick })?;
    let Choice::Announce(action) = choice else { unreachable!("checked by check_choice") };
    if fight.checks_choices()
        && let Some(reason) = illegal(fight.setup(), fight.state(), who, &action)
    {
        return Err(FightError::IllegalChoice { who, reason: reason.to_owned() });
    }
    Ok(action)
}

/// Steps (3) and (4): moves and runs, then follows.
fn moves<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    order: &[CombatantId],
) -> Result<(), FightError> {
    for &who in order {
        let f = fight.state().fighter(who);
        if f.out() {
            continue;
        }
        match f.announced {
            Some(Action::Move(to)) => step_toward(fight, who, to, 1, false),
            Some(Action::Run { to, .. }) => {
                let squares = if f.run_ticks > 0 { 2 } else { 1 };
                step_toward(fight, who, to, squares, true);
                // Under `armour_encumbrance = stability` a running tick costs the encumbrance (TICK-ARM-8).
                let enc = fight.setup().combatants[who.index()].encumbrance();
                if fight.setup().options.encumbrance_stability && enc > 0 {
                    fight.emit(Event::Cost { who, p: enc, effort: 0, held: 0, string: false, attack: false });
                }
            }
            _ => {}
        }
    }
    for &who in order {
        let f = fight.state().fighter(who);
        if let (false, Some(Action::Follow(target))) = (f.out(), f.announced) {
            follow(fight, who, target);
        }
    }
    Ok(())
}

fn free(
    fight: &Fight<'_, Ticks, impl Dice, impl Decider<Ticks>, impl Sink<Event>>,
    square: Square,
    who: CombatantId,
) -> bool {
    fight.setup().options.shared_squares || fight.state().occupant(square).is_none_or(|o| o == who)
}

/// Moves up to `squares` king steps toward `to` (TICK-MOVE-1/3/5).
fn step_toward<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    to: Square,
    squares: i32,
    run: bool,
) {
    let from = fight.state().fighter(who).pos;
    let mut at = from;
    for _ in 0..squares {
        if at == to {
            break;
        }
        let next = (at.0 + (to.0 - at.0).signum(), at.1 + (to.1 - at.1).signum());
        if !free(fight, next, who) {
            fight.emit(Event::Blocked { who, at: next });
            break;
        }
        at = next;
    }
    fight.emit(Event::Moved { who, from, to: at, run });
}

/// A follow (TICK-MOVE-6): `follow_squares` steps, one square at a time (TICK-MOVE-5), each to
/// the free square next to the follower, or its own, nearest the followed character's square
/// (so one adjacent to it when it can), ties to the lowest (x, y); it stops once adjacent, or
/// when no step brings it nearer. A step never passes an occupied square: a follower walled in
/// stays put.
fn follow<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    target: CombatantId,
) {
    let from = fight.state().fighter(who).pos;
    let goal = fight.state().fighter(target).pos;
    let mut at = from;
    for _ in 0..fight.setup().options.follow_squares {
        if chebyshev(at, goal) <= 1 {
            break;
        }
        let mut best: Option<(i64, Square)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                // Every neighbour is looked at and the best kept by (distance, square), so the
                // order of the look does not matter (`+ dy` → `- dy` is equivalent, TESTING.md).
                // The look goes in increasing order of square, so `sq < s` below never holds:
                // the tie clause only keeps the order from mattering, and its `==` → `!=` is
                // equivalent too, as is `sq < s` → `sq == s` (each square is looked at once).
                let sq = (at.0 + dx, at.1 + dy);
                if sq == goal || !free(fight, sq, who) {
                    continue;
                }
                let (ex, ey) = (i64::from(sq.0 - goal.0), i64::from(sq.1 - goal.1));
                let key = ex * ex + ey * ey;
                if best.is_none_or(|(k, s)| key < k || (key == k && sq < s)) {
                    best = Some((key, sq));
                }
            }
        }
        match best {
            Some((_, sq)) if sq != at => at = sq,
            _ => break,
        }
    }
    fight.emit(Event::Moved { who, from, to: at, run: false });
}

/// Rolls the delta dice (TICK-DICE-2).
fn delta_dice<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    what: &'static str,
) -> Result<([u8; 3], i32), FightError> {
    let (count, sides) = fight.setup().options.delta_die.dice();
    let mut faces = [0u8; 3];
    let mut sum = 0;
    for face in faces.iter_mut().take(count as usize) {
        let f = fight.roll(sides, Reason::new(who, what).of(count as u8))?;
        *face = f as u8;
        sum += f as i32;
    }
    Ok((faces, sum))
}

/// One shot (TICK-GUN-*): a snap ready, the roll, a decline, the shot's penalties, the defence.
fn shot<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    target: CombatantId,
    weak_point: bool,
    running: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let Some(gun) = setup.combatants[who.index()].gun.as_ref() else { return Ok(()) };
    if !valid_target(fight, target) {
        return Ok(());
    }
    if !fight.state().fighter(who).ready {
        fight.emit(Event::Readied { who, penalty: gun.ready_penalty });
    }
    let n = shot_numbers(setup, fight.state(), who, target, running);
    let (faces, sum) = delta_dice(fight, who, "shot")?;
    let a = sum + n.total;
    let base = n.total;
    fight.emit(Event::AttackRoll { who, target, kind: Kind::Shot, faces, a, range: n.range, aim: n.aim, p: n.p });
    if let Choice::Yes(true) = fight.decide(who, &Request::Decline { target, a, base })? {
        fight.emit(Event::Declined { who });
        return Ok(());
    }
    // The shot's penalties, at once (TICK-GUN-4/7/9).
    let f = fight.state().fighter(who);
    let sheet = &setup.combatants[who.index()];
    let strength = sheet.strength;
    let recoil = if setup.options.recoil { (gun.min_strength - strength).max(0) } else { 0 };
    let deferred = f.string_shots < gun.deferred_shots;
    let (p, held) = if deferred { (recoil, gun.shot_penalty) } else { (gun.shot_penalty + recoil, 0) };
    fight.emit(Event::Cost { who, p, effort: 0, held, string: true, attack: true });
    let f = fight.state().fighter(who);
    if deferred && !setup.options.deferral_string_end && f.string_shots == gun.deferred_shots && f.held > 0 {
        fight.emit(Event::Released { who, p: f.held });
    }
    // The aim serves one shot (TICK-AIM-5).
    let f = fight.state().fighter(who);
    if f.aim_target.is_some() && !(setup.options.aim_keep && f.aim_target == Some(target)) {
        fight.emit(Event::AimEnded { who, spoiled: false });
    }
    let weapon = Weapon::gun(gun);
    resolve(fight, who, target, Kind::Shot, (a, base), weapon, weak_point)
}

fn valid_target<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, target: CombatantId) -> bool {
    let x = fight.state().fighter(target);
    !x.out() || (fight.setup().options.out_targetable && !x.removed)
}

/// A melee attack (TICK-MELEE-*): reach, the roll, an abort, the costs, the defence.
fn melee<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    target: CombatantId,
    blow: super::Blow,
    weak_point: bool,
    running: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let o = &setup.options;
    let cost = setup.blow(blow);
    let enc = if o.encumbrance_stability { setup.combatants[who.index()].encumbrance() } else { 0 };
    let abort_half = |x: i32| if o.abort_floor { x / 2 } else { (x + 1) / 2 };
    let reach = chebyshev(fight.state().fighter(who).pos, fight.state().fighter(target).pos);
    if reach > o.melee_reach || !valid_target(fight, target) {
        fight.emit(Event::OutOfReach { who, target });
        if o.out_of_reach_pays {
            let (p, effort) = (abort_half(cost.stability + enc), abort_half(cost.effort));
            fight.emit(Event::Cost { who, p, effort, held: 0, string: false, attack: true });
        }
        return Ok(());
    }
    let n = melee_numbers(setup, fight.state(), who, running);
    let (faces, sum) = delta_dice(fight, who, "blow")?;
    let a = sum + n.total;
    let base = n.total;
    fight.emit(Event::AttackRoll { who, target, kind: Kind::Melee(blow), faces, a, range: 0, aim: 0, p: n.p });
    if let Choice::Yes(true) = fight.decide(who, &Request::Abort { target, a, base })? {
        fight.emit(Event::Aborted { who });
        let (p, effort) = (abort_half(cost.stability + enc), abort_half(cost.effort));
        fight.emit(Event::Cost { who, p, effort, held: 0, string: false, attack: true });
        return Ok(());
    }
    fight.emit(Event::Cost { who, p: cost.stability + enc, effort: cost.effort, held: 0, string: false, attack: true });
    if fight.state().fighter(who).ready {
        fight.emit(Event::Lowered { who });
    }
    if fight.state().fighter(who).aim_target.is_some() {
        fight.emit(Event::AimEnded { who, spoiled: false });
    }
    let weapon = Weapon::melee(setup, &setup.combatants[who.index()], blow);
    resolve(fight, who, target, Kind::Melee(blow), (a, base), weapon, weak_point)
}

/// The defender's roll, the effort, and the hit (TICK-DICE-1/3, TICK-DEF-*, TICK-DMG-*).
#[allow(clippy::too_many_arguments, reason = "one attack's inputs")]
fn resolve<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    (mut a, a_base): (i32, i32),
    weapon: Weapon,
    weak_point: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let o = &setup.options;
    if fight.state().fighter(target).out() {
        // Down and KnockedOut characters do not defend (TICK-TRACK-5, `out_targetable = true`):
        // the attack lands with delta A, at least a graze.
        let delta = a.max(0);
        fight.emit(Event::Exchange { attacker: who, target, delta, effort: 0, p: 0, hit: true, shortfall: false });
        return land(fight, who, target, kind, delta, weapon, weak_point, None);
    }
    let dn = defence_numbers(setup, fight.state(), target, kind, weapon.penetration);
    let (faces, sum) = delta_dice(fight, target, "defence")?;
    let mut d = sum + dn.total;
    let defence = |faces: [u8; 3], d: i32| Event::Defence {
        who: target,
        kind,
        faces,
        d,
        skill: dn.skill,
        cover: dn.cover_bonus,
        p: dn.p,
        wounds: dn.wounds,
        dive: dn.dive,
    };
    fight.emit(defence(faces, d));
    let mut guard = 0;
    while o.tie_reroll && a == d && guard < 100 {
        guard += 1;
        fight.emit(Event::TieRerolled);
        let (_, s) = delta_dice(fight, who, "tie reroll")?;
        a = a_base + s;
        let (faces, s2) = delta_dice(fight, target, "tie reroll")?;
        d = s2 + dn.total;
        fight.emit(defence(faces, d));
    }
    let mut delta = a - d;
    let base = dn.effort_base;
    let cost = attack::effort_cost(o, base, delta);
    let f = fight.state().fighter(target);
    let available = effort_available(setup, fight.state(), target);
    let mut shortfall = false;
    let spent = if available < cost {
        if delta < 1 && !o.shortfall_ignore {
            shortfall = true;
            delta = 0;
        }
        available
    } else {
        cost
    };
    let aiming = f.aiming0;
    let p = if o.effort_stability_aiming_only && !aiming { 0 } else { spent };
    let hit = delta >= 1 || shortfall;
    fight.emit(Event::Exchange { attacker: who, target, delta, effort: spent, p, hit, shortfall });
    if hit {
        // (`defence_numbers` keeps only a cover rated above 0 already: `> 0` → `>= 0` here is
        // an equivalent mutant, TESTING.md.)
        let cover = if kind == Kind::Shot || o.cover_vs_melee { dn.cover.filter(|c| c.rating > 0) } else { None };
        land(fight, who, target, kind, delta, weapon, weak_point, cover)?;
    }
    if o.immediate {
        settle(fight, target);
        down_checks(fight, target);
    }
    Ok(())
}

/// A hit with `delta` (≥ 0): the location, then harm through cover, armour and limbs, and any
/// wound check (TICK-DMG-*, TICK-ARM-*).
#[allow(clippy::too_many_arguments, reason = "one hit's inputs")]
fn land<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    target: CombatantId,
    kind: Kind,
    delta: i32,
    weapon: Weapon,
    weak_point: bool,
    cover: Option<super::setup::Cover>,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let o = &setup.options;
    let sheet = &setup.combatants[target.index()];
    let face = if o.torso_only || (o.melee_no_location && kind != Kind::Shot) {
        0
    } else {
        fight.roll(10, Reason::new(who, "hit location"))?
    };
    let armour = sheet.armour_at(if face == 0 { 3 } else { face });
    let h = attack::harm(o, weapon, delta.max(0), weak_point, cover, face, armour, sheet.body_max);
    let wounds = i32::from(h.wound == WoundRule::Yes);
    fight.emit(Event::Hit {
        by: who,
        target,
        face: face as u8,
        raw: h.raw,
        slowed: h.slowed,
        armour: h.armour.map(|(hard, resistance, held)| ArmourMet { hard, resistance, held }),
        body: h.body,
        trauma: h.trauma,
        wounds,
    });
    if let WoundRule::Chance(r) = h.wound {
        let face = fight.roll(r.den, Reason::new(target, "wound check"))?;
        fight.emit(Event::WoundCheck { who: target, face, sides: r.den, wound: face <= r.num });
    }
    Ok(())
}

/// Applies a fighter's pending Body, Trauma and wounds, leaving effort and its p to the end of
/// the tick.
fn settle_damage<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    let f = fight.state().fighter(who);
    if (f.pend_body, f.pend_trauma, f.pend_wounds) != (0, 0, 0) {
        fight.emit(Event::Settled {
            who,
            body: f.pend_body,
            trauma: f.pend_trauma,
            wounds: f.pend_wounds,
            effort: 0,
            p: 0,
            all: false,
        });
    }
}

/// Applies a fighter's pending effects.
fn settle<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    let f = fight.state().fighter(who);
    if (f.pend_body, f.pend_trauma, f.pend_wounds, f.pend_effort, f.pend_p) != (0, 0, 0, 0, 0) {
        // The effort deducted stops at 0 (`effort_tally = start_of_tick`), and so does the p it
        // brings (TICK-DEF-6, TICK-DEF-8).
        let effort = f.pend_effort.min(f.effort);
        fight.emit(Event::Settled {
            who,
            body: f.pend_body,
            trauma: f.pend_trauma,
            wounds: f.pend_wounds,
            effort,
            p: f.pend_p.min(effort),
            all: true,
        });
    }
}

fn down_checks<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    let setup = fight.setup();
    let f = fight.state().fighter(who);
    if f.out() {
        return;
    }
    let max = setup.combatants[who.index()].body_max;
    if f.body <= 0 {
        fight.emit(Event::Down { who });
    } else if f.trauma >= if setup.options.trauma_vs_current { f.body } else { max } {
        fight.emit(Event::KnockedOut { who });
    }
}

/// Step (6), the end of the tick.
fn end_of_tick<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    order: &[CombatantId],
) -> Result<(), FightError> {
    let setup = fight.setup();
    let o = &setup.options;
    let n = setup.combatants.len();
    let ids = || (0..n).map(|i| CombatantId(i as u16));
    // (a, b) Damage, Trauma, wounds; effort and its stability.
    for who in ids() {
        settle(fight, who);
    }
    // (c) Divers into cover, in resolution order, square by square (TICK-MOVE-5), after every
    // run: a square or path taken since the dive was chosen (a run under `moves_last`, an earlier
    // diver) sends the diver to the nearest cover it can still reach (TICK-DEF-3).
    for &who in order {
        let f = fight.state().fighter(who);
        if let (false, Some(chosen)) = (f.out(), f.dive) {
            let to = if dive_reachable(setup, fight.state(), who, chosen) {
                chosen
            } else {
                dive_square(setup, fight.state(), who).unwrap_or(chosen)
            };
            if to != f.pos {
                step_toward(fight, who, to, i32::MAX, false);
            }
        }
    }
    // (d) Spoiled aims; aims ended by moving, or by a tick not spent aiming at the same target
    // (TICK-AIM-1: consecutive ticks; under `aim_after_shot = keep` a shot at it keeps it too).
    for who in ids() {
        let f = fight.state().fighter(who);
        let Some(t) = f.aim_target else { continue };
        let kept = match f.announced {
            Some(Action::Aim(x)) => x == t,
            Some(Action::Fire { targets, .. }) => o.aim_keep && targets[0] == t,
            _ => false,
        };
        if f.attacked_upon || !kept {
            fight.emit(Event::AimEnded { who, spoiled: f.attacked_upon });
        }
    }
    // (e) Firing strings.
    for who in ids() {
        let f = fight.state().fighter(who);
        let Some(gun) = setup.combatants[who.index()].gun.as_ref() else { continue };
        // A string closes in the first tick with neither a shot nor a decline, with its penalty
        // and any held-back shot penalty. Under `string_penalty_scope = tick` the penalty comes
        // at the end of every tick with a shot or a decline instead, and the string, which still
        // runs over consecutive ticks for the held-back shots (TICK-GUN-7), closes with those.
        if o.string_per_tick && f.fired {
            fight.emit(Event::StringPenalty { who, p: gun.string_penalty });
        }
        let f = fight.state().fighter(who);
        if f.string_open && (!f.fired || f.out()) {
            let penalty = if o.string_per_tick { 0 } else { gun.string_penalty };
            fight.emit(Event::StringClosed { who, p: penalty + f.held });
        }
    }
    // (f) Recovery.
    for who in ids() {
        let f = fight.state().fighter(who);
        let mut to = super::recover(f.p);
        if o.skip_cost_tick && f.p_rose {
            to = f.p;
        }
        if o.printed_table && f.idle_tick() {
            let (k, start) = if f.idle.0 == 0 { (1, f.p) } else { (f.idle.0 + 1, f.idle.1) };
            if k <= 6 && start <= 20 {
                to = super::printed_table(start, k as u32);
            }
        }
        if to != f.p || o.printed_table {
            fight.emit(Event::Recovered { who, from: f.p, to });
        }
    }
    // (g) Effort regeneration.
    for who in ids() {
        let f = fight.state().fighter(who);
        let max = setup.combatants[who.index()].effort_max;
        if !f.out() && !f.attacked && !f.defended && !f.ran && f.effort < max && o.effort_regen > 0 {
            fight.emit(Event::Rested { who, effort: o.effort_regen.min(max - f.effort) });
        }
    }
    // (h) Down and KnockedOut.
    for who in ids() {
        down_checks(fight, who);
    }
    // A run ends in a tick without running.
    Ok(())
}

/// The result if at most one side has anyone standing (TICK-TRACK-6).
fn finished<D: Dice, P: Decider<Ticks>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, tick: u32) -> Option<FightResult> {
    let setup = fight.setup();
    let standing = setup.combatants.iter().zip(&fight.state().fighters).filter(|(_, f)| !f.out()).map(|(c, _)| c.side);
    crate::standing_outcome(standing).map(|outcome| FightResult { outcome, length: tick })
}
