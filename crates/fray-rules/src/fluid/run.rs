//! The `fluid` round: round-start tests, tactics, declarations, initiative, steps (FLUID-ROUND-2).

use super::Destination;
use super::attack::{
    Hit, Situation, attack_check, defence_options, defence_tn, hit_damage, movement_penalty, named_defence,
    sunder_loss, sunder_tn, target_side,
};
use super::check::Check;
use super::options::ArmorSunderTrigger;
use super::options::InitiativeTie;
use super::setup::DefenceSkill;
use super::setup::{Amount, BOD, FIN, ItemKind, NER, Setup};
use super::{CheckKind, Choice, Condition, DeclaredAttack, Event, Fluid, Request, State, condition_penalty};
use super::{DefenceOption, List, Quality};
use fray_dice::{DiceSource, SourceError};
use fray_engine::Pos;
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Outcome, Reason, SideId, Sink};

type F<'f, 'a, D, P, S> = &'f mut Fight<'a, Fluid, D, P, S>;

pub(super) fn run<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
) -> Result<FightResult, FightError> {
    let setup = fight.setup();
    let n = setup.combatants.len();
    let ids = || (0..n).map(|i| CombatantId(i as u16));
    let mut seen = None;
    if let Some(result) = ended(fight, &mut seen) {
        return Ok(result);
    }
    loop {
        let round = fight.state().round + 1;
        if round > setup.max_rounds {
            let result = FightResult { outcome: Outcome::Stalemate, length: setup.max_rounds };
            fight.emit(Event::Ended { result });
            return Ok(result);
        }
        fight.emit(Event::RoundStarted { round });

        // (1) Round-start tests of the dying, in roster order (FLUID-TRACK-6, FLUID-TRACK-8).
        for who in ids() {
            let fighter = fight.state().fighter(who);
            if fighter.gated(&setup.options) && !fighter.dead {
                dying_tests(fight, who)?;
                if let Some(result) = ended(fight, &mut seen) {
                    return Ok(result);
                }
            }
        }

        // (2) Tactics: NPCs announce first, then players, who see the NPCs' splits; then revision
        // passes in roster order, each seeing every current split (FLUID-TAC-3).
        for players in [false, true] {
            for who in ids() {
                if setup.combatants[who.index()].player == players && fight.state().fighter(who).able() {
                    let tactics = setup.combatants[who.index()].tactics;
                    let Choice::Split { ot, dt } = fight.decide(who, &Request::Tactics { tactics })? else {
                        unreachable!("checked by check_choice")
                    };
                    fight.emit(Event::TacticsSet { who, ot, dt });
                }
            }
        }
        for _ in 0..setup.options.tactics_passes {
            for who in ids() {
                let request = Request::Tactics { tactics: setup.combatants[who.index()].tactics };
                // A revision pass is optional: "no change" is answered by keeping the split.
                if fight.state().fighter(who).able() && !fight.passes_optional(who, &request) {
                    let Choice::Split { ot, dt } = fight.decide(who, &request)? else {
                        unreachable!("checked by check_choice")
                    };
                    let now = fight.state().fighter(who);
                    if (now.ot, now.dt) != (ot, dt) {
                        fight.emit(Event::TacticsSet { who, ot, dt });
                    }
                }
            }
        }

        // (3) Declarations, then revision passes in roster order (FLUID-ACT-1).
        for pass in 0..=setup.options.declare_passes {
            for who in ids() {
                if fight.state().fighter(who).able() {
                    // Revision passes are optional: "no change" keeps the plan. Whether the
                    // decider passes depends on the request's kind alone, so it is asked before
                    // the lists are built (`Decider::passes_optional`).
                    if pass > 0 && fight.passes_optional(who, &Request::declare_kind()) {
                        continue;
                    }
                    let request = declare_request(setup, fight.state(), who);
                    let Choice::Plan(plan) = fight.decide(who, &request)? else {
                        unreachable!("checked by check_choice")
                    };
                    if pass == 0 || fight.state().fighter(who).plan != plan {
                        fight.emit(Event::Declared { who, plan });
                    }
                }
            }
        }

        // (4) Initiative (FLUID-INIT-1 … FLUID-INIT-4, FLUID-INIT-7).
        let mut order = initiative(fight)?;
        // Letting a later combatant act first: a step moves to just after its (FLUID-INIT-6).
        for who in ids() {
            if let Some(after) = fight.state().fighter(who).plan.delay_after
                && let (Some(i), Some(j)) =
                    (order.iter().position(|c| *c == who), order.iter().position(|c| *c == after))
                && j > i
            {
                order.remove(i);
                order.insert(j, who);
            }
        }
        fight.emit(Event::Order { order: List::from_slice(&order) });
        // Simultaneous movement before the first step (FLUID-MOVE-8, FLUID-MOVE-11).
        if setup.options.movement_simultaneous {
            let mut distances: List<(CombatantId, f64), 8> = List::new();
            for &who in &order {
                if let Some(d) = run_check(fight, who)? {
                    distances.push((who, d));
                }
            }
            for toward in [false, true] {
                for &(who, d) in &distances {
                    let movement = fight.state().fighter(who).plan.movement.expect("a mover");
                    if matches!(movement.to, Destination::Toward(_)) == toward {
                        move_one(fight, who, movement, d);
                    }
                }
            }
        }

        // (5) Steps, highest initiative first (FLUID-ACT-2).
        for &who in &order {
            if !fight.state().fighter(who).able() {
                continue;
            }
            revisions(fight, who, &order)?;
            if !fight.state().fighter(who).able() {
                continue;
            }
            fight.emit(Event::Step { who });
            // One that fell dying earlier this round tests at its step (FLUID-TRACK-12).
            let fighter = fight.state().fighter(who);
            if fighter.gated(&setup.options) && !fighter.act_tested {
                if setup.options.dying_midround_test {
                    let sheet = &setup.combatants[who.index()];
                    let bonus = sheet.bonus(NER) + condition_penalty(setup, fight.state(), who);
                    if test(fight, who, CheckKind::Act, bonus, "NER act test")? < 0 {
                        fight.emit(Event::Condition { who, condition: Condition::Stunned, gained: true });
                    }
                } else {
                    fight.emit(Event::Condition { who, condition: Condition::Stunned, gained: true });
                }
                if !fight.state().fighter(who).able() {
                    continue;
                }
            }
            // Movement at one's own step under `own_step` (FLUID-MOVE-8).
            if !setup.options.movement_simultaneous
                && let Some(d) = run_check(fight, who)?
            {
                let movement = fight.state().fighter(who).plan.movement.expect("a mover");
                move_one(fight, who, movement, d);
            }
            if let Some(ally) = fight.state().fighter(who).plan.heal {
                heal(fight, who, ally)?;
            }
            while let Some(&attack) = fight.state().fighter(who).plan.attacks.get(fight.state().fighter(who).done) {
                if !fight.state().fighter(who).able() {
                    break;
                }
                let declared = declared_actions(setup, fight.state(), who);
                resolve_attack(fight, who, attack, declared)?;
                fight.emit(Event::AttackDone { who });
            }
            if let Some(result) = ended(fight, &mut seen) {
                return Ok(result);
            }
        }
    }
}

/// Ends the fight if at most one side still stands (FLUID-ROUND-4). Who is out can only have
/// changed with a Dead, Unconscious or Dying condition gained or lost, so the sides are looked at
/// only when [`State::standing_changes`] has moved since `seen` (always at the first call).
fn ended<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    seen: &mut Option<u32>,
) -> Option<FightResult> {
    let setup = fight.setup();
    let state = fight.state();
    if *seen == Some(state.standing_changes) {
        debug_assert!(outcome(setup, state).is_none(), "the fight ended with no change of who stands");
        return None;
    }
    *seen = Some(state.standing_changes);
    let result = FightResult { outcome: outcome(setup, state)?, length: state.round };
    fight.emit(Event::Ended { result });
    Some(result)
}

/// The outcome if at most one side still stands; `None` while several do.
fn outcome(setup: &Setup, state: &State) -> Option<Outcome> {
    let mut standing: Option<SideId> = None;
    let mut several = false;
    for (sheet, fighter) in setup.combatants.iter().zip(&state.fighters) {
        if !fighter.out(&setup.options) {
            match standing {
                None => standing = Some(sheet.side),
                Some(side) if side != sheet.side => several = true,
                Some(_) => {}
            }
        }
    }
    if several {
        return None;
    }
    Some(standing.map_or(Outcome::Mutual, Outcome::Side))
}

/// A plain check of `who` against TN 10 with `bonus`.
fn test<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    kind: CheckKind,
    bonus: i32,
    what: &'static str,
) -> Result<i32, FightError> {
    let check = Check { edge: 0, bonus, tn: 10 };
    let options = &fight.setup().options;
    let roll = check.roll(options, &mut DiceOf { fight: &mut *fight }, Reason::new(who, what))?;
    fight.emit(Event::Check { who, kind, check, roll });
    Ok(roll.margin)
}

/// The source's own message of a fight's dice error, so that the error a check or a damage
/// program makes of it names its roll once ("dice for attack: the script ran out …").
fn source_error(e: FightError) -> SourceError {
    match e {
        FightError::Dice { message, .. } => SourceError(message),
        e => SourceError(e.to_string()),
    }
}

/// The fight's dice as a [`Dice`] (for checks) and a [`DiceSource`] (for damage programs).
struct DiceOf<'f, 'a, D: Dice, P: Decider<Fluid>, S: Sink<Event>> {
    fight: &'f mut Fight<'a, Fluid, D, P, S>,
}

impl<D: Dice, P: Decider<Fluid>, S: Sink<Event>> Dice for DiceOf<'_, '_, D, P, S> {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, SourceError> {
        self.fight.roll(sides, reason).map_err(source_error)
    }
}

/// A fray-dice source over the fight's dice, for damage dice.
struct DamageDice<'f, 'a, D: Dice, P: Decider<Fluid>, S: Sink<Event>> {
    fight: &'f mut Fight<'a, Fluid, D, P, S>,
    reason: Reason,
}

impl<D: Dice, P: Decider<Fluid>, S: Sink<Event>> DiceSource for DamageDice<'_, '_, D, P, S> {
    /// A d2 or d3 is a d6 read 1–3 → 1, 4–6 → 2, or 1–2 → 1, 3–4 → 2, 5–6 → 3 (FLUID-DICE-11): the
    /// d6 is what is rolled (and typed in under `--dice manual`); the distribution is the same.
    fn face(&mut self, sides: u32) -> Result<u32, SourceError> {
        let read = |d6: u32| match sides {
            2 => d6.div_ceil(3),
            3 => d6.div_ceil(2),
            _ => d6,
        };
        let rolled = if matches!(sides, 2 | 3) { 6 } else { sides };
        self.fight.roll(rolled, self.reason).map(read).map_err(source_error)
    }
}

/// The dying combatant's BOD test and NER act test (FLUID-TRACK-6, -7, -8).
fn dying_tests<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<(), FightError> {
    let sheet = &fight.setup().combatants[who.index()];
    if fight.state().fighter(who).dying {
        test(fight, who, CheckKind::Bod, sheet.bonus(BOD), "BOD test")?;
        update_conditions(fight, who);
    }
    let fighter = fight.state().fighter(who);
    if fighter.gated(&fight.setup().options) && !fighter.dead {
        let bonus = sheet.bonus(NER) + condition_penalty(fight.setup(), fight.state(), who);
        if test(fight, who, CheckKind::Act, bonus, "NER act test")? < 0 {
            fight.emit(Event::Condition { who, condition: Condition::Stunned, gained: true });
        }
    }
    Ok(())
}

/// Emits the condition changes that the tracks now imply (FLUID-TRACK-5, -7, -9).
fn update_conditions<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    let sheet = &fight.setup().combatants[who.index()];
    for (condition, gained) in
        implied_conditions(fight.setup(), sheet, fight.state().fighter(who)).into_iter().flatten()
    {
        fight.emit(Event::Condition { who, condition, gained });
    }
}

/// The condition changes that a fighter's tracks imply, in the order they are emitted
/// (FLUID-TRACK-5, -7, -9): none for the dead.
pub(super) fn implied_conditions(
    setup: &Setup,
    sheet: &super::setup::Sheet,
    fighter: &super::Fighter,
) -> [Option<(Condition, bool)>; 2] {
    let (was_dead, was_dying, was_unconscious, w, s) =
        (fighter.dead, fighter.dying, fighter.unconscious, fighter.w, fighter.s);
    if was_dead {
        return [None, None];
    }
    let dead = w <= -sheet.stats[BOD];
    let dying = w <= 0 && !dead;
    // Under `stress_zero = stunned_gate` S ≤ 0 is no condition of its own (FLUID-TRACK-9).
    let unconscious = s <= 0 && !setup.options.stress_zero_gate;
    if dead {
        return [was_dying.then_some((Condition::Dying, false)), Some((Condition::Dead, true))];
    }
    [
        (dying != was_dying).then_some((Condition::Dying, dying)),
        (unconscious != was_unconscious).then_some((Condition::Unconscious, unconscious)),
    ]
}

/// Every (target, weapon) within reach, and the per-item attack limit (FLUID-ACT-7, FLUID-MOVE-10).
pub(super) fn declare_request(setup: &Setup, state: &State, who: CombatantId) -> Request {
    let sheet = &setup.combatants[who.index()];
    let fighter = &state.fighters[who.index()];
    let mut options: List<(CombatantId, usize), 8> = List::new();
    for (t, target) in setup.combatants.iter().enumerate() {
        let target_state = &state.fighters[t];
        // Hidden foes cannot be picked as targets (FLUID-ROUND-5); nor can the dead, unless their
        // bodies stay in play (FLUID-TRACK-11).
        let gone = target_state.gone(&setup.options);
        if target.side == sheet.side || gone || target_state.hidden {
            continue;
        }
        for (i, item) in sheet.items.iter().enumerate() {
            // A melee attack may be declared on any foe: a declared move may bring it within reach
            // (FLUID-MOVE-8); out of reach when its turn comes, it is dropped.
            let reaches = match item.kind {
                ItemKind::Melee => true,
                // A firearm with no ammunition left cannot fire (FLUID-GEAR-4); nor can an area
                // weapon with no device left.
                ItemKind::Ranged | ItemKind::Area => fighter.ammo[i] != Some(0),
                ItemKind::Shield => false,
            };
            if reaches && item.skill.is_some() && !fighter.broken(i) {
                options.push((CombatantId(t as u16), i));
            }
        }
    }
    let max_per_item =
        super::per_item(&sheet.items, |i, item| match (&item.skill, setup.options.max_attacks_rank_plus_one) {
            (Some(_), true) => (sheet.rank_of(sheet.item_skill(i)) + 1).max(1) as u32,
            (Some(_), false) => 8,
            (None, _) => 0,
        });
    // Bursts: semi-automatic and automatic firearms (pump-action under `pump_burst`); sprays:
    // any firearm that may fire two or more (FLUID-SPECIAL-5, -7, -8, -10).
    let rounds = super::per_item(&sheet.items, |_, item| {
        if item.kind != ItemKind::Ranged {
            return (1, 0);
        }
        let max = item.fire.max_rounds();
        let burst = match item.fire {
            super::setup::Fire::Single => 1,
            super::setup::Fire::Pump if !setup.options.pump_burst => 1,
            _ => max,
        };
        (burst, if max >= 2 { max } else { 0 })
    });
    let skill_group = List::from_slice(sheet.item_groups());
    Request::Declare { options, max_per_item, skill_group, rounds }
}

/// Check actions counted for the multi-action penalty: as declared (plus any added, FLUID-ACT-5),
/// or under `current_plan` the plan as it stands: attacks (a burst or spray once), a Run check, a
/// Heal check (FLUID-ACT-3, FLUID-ACT-4, FLUID-SPECIAL-9).
pub(super) fn declared_actions(setup: &Setup, state: &State, who: CombatantId) -> i32 {
    let fighter = state.fighter(who);
    if setup.options.multi_action_declared {
        return fighter.declared_actions;
    }
    let plan = &fighter.plan;
    let attacks: i32 = plan.attacks.iter().map(|a| a.actions(&setup.options)).sum();
    attacks + i32::from(plan.movement.is_some_and(|m| m.mode.runs())) + i32::from(plan.heal.is_some())
}

/// At the start of `step`'s step, every able combatant may change the rest of its plan, asked in
/// initiative order; each changed action costs −1 on its checks for the rest of the round
/// (FLUID-ACT-5, FLUID-ACT-6, FLUID-ACT-9, FLUID-ACT-10).
fn revisions<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    step: CombatantId,
    order: &[CombatantId],
) -> Result<(), FightError> {
    for &who in order {
        let fighter = fight.state().fighter(who);
        if !fighter.able() || fighter.full_defense {
            continue;
        }
        // A revision is an optional request: "no change" is answered by not revising. The
        // decider is asked whether it passes before the list is built (`Decider::passes_optional`).
        let full_defense_allowed = !fighter.acted;
        if fight.passes_optional(who, &Request::Revise { step, remaining: List::new(), full_defense_allowed }) {
            continue;
        }
        let fighter = fight.state().fighter(who);
        let remaining: List<DeclaredAttack, 4> = fighter.plan.attacks[fighter.done..].iter().copied().collect();
        let request = Request::Revise { step, remaining, full_defense_allowed };
        let Choice::Revise(Some(plan)) = fight.decide(who, &request)? else { continue };
        let Request::Revise { remaining, .. } = request else { unreachable!("built above") };
        // A checked decider's revised attacks meet a declaration's rules: targets and weapons
        // among the options, the skill's attack limit with the attacks already made this round
        // (FLUID-ACT-6, FLUID-ACT-7). The AI never revises.
        if fight.checks_choices() {
            let fighter = fight.state().fighter(who);
            let Request::Declare { options, max_per_item, skill_group, rounds } =
                declare_request(fight.setup(), fight.state(), who)
            else {
                unreachable!("a declaration request")
            };
            let done = &fighter.plan.attacks[..fighter.done];
            super::check_attacks(fight.setup(), &plan.attacks, done, &options, &max_per_item, &skill_group, &rounds)
                .map_err(|reason| FightError::IllegalChoice { who, reason })?;
        }
        // A declared action replaced by something else is a change; an added one is a change that
        // also raises N; dropping one is neither. The attacks kept are those of the revised plan
        // found in order among the remaining ones (dropping the first of two keeps the second).
        let mut from = 0;
        let mut kept = 0;
        for attack in &plan.attacks {
            if let Some(k) = remaining[from..].iter().position(|r| r == attack) {
                from += k + 1;
                kept += 1;
            }
        }
        let new = (plan.attacks.len() - kept) as i32;
        let dropped = (remaining.len() - kept) as i32;
        let replaced = new.min(dropped);
        let added = new - replaced;
        let to_full_defense = i32::from(plan.full_defense && !remaining.is_empty());
        let changes = replaced + added + to_full_defense;
        fight.emit(Event::Revised { who, plan, changes, added });
    }
    Ok(())
}

/// A Heal check on a dying ally within Nearby: a check action, TN 10; a success stabilizes it
/// (FLUID-TRACK-10).
fn heal<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    ally: CombatantId,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let patient = fight.state().fighter(ally);
    let near = fight.state().distance(who, ally) <= setup.options.reach_m + 1e-9;
    let friend = setup.combatants[who.index()].side == setup.combatants[ally.index()].side;
    if !friend || !patient.dying || patient.dead || patient.stabilized || !near {
        return Ok(());
    }
    let multi = super::attack::multi_action_penalty(setup, declared_actions(setup, fight.state(), who));
    let changes = -fight.state().fighter(who).changes;
    let bonus =
        setup.combatants[who.index()].skill_value("heal", &setup.options) - 10 + multi + changes + pain(fight, who)?;
    if test(fight, who, CheckKind::Heal, bonus, "Heal check")? >= 0 {
        fight.emit(Event::Condition { who: ally, condition: Condition::Stabilized, gained: true });
    }
    Ok(())
}

/// The pain modifier before a check action: CP, or the NER check's result if the policy tries it
/// (FLUID-TRACK-3, FLUID-TRACK-4).
fn pain<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<i32, FightError> {
    let setup = fight.setup();
    let cp = condition_penalty(setup, fight.state(), who);
    if cp >= 0 {
        return Ok(cp);
    }
    let Choice::Pain(tries) = fight.decide(who, &Request::Pain { cp })? else {
        unreachable!("checked by check_choice")
    };
    if !tries {
        return Ok(cp);
    }
    let bonus = setup.combatants[who.index()].bonus(NER) + cp;
    let margin = test(fight, who, CheckKind::Pain, bonus, "NER pain check")?;
    Ok(if margin >= 0 { 0 } else { cp + margin })
}

/// The distance a declared move covers: Move × 1 for a walk; Move × multiplier + the Run check's
/// margin (not below 0) otherwise (FLUID-MOVE-1, FLUID-MOVE-2, FLUID-MOVE-3). `None` without a move.
fn run_check<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<Option<f64>, FightError> {
    let setup = fight.setup();
    let fighter = fight.state().fighter(who);
    let Some(movement) = fighter.plan.movement.filter(|_| fighter.able()) else { return Ok(None) };
    let sheet = &setup.combatants[who.index()];
    let base = sheet.move_m * f64::from(movement.mode.multiplier());
    if !movement.mode.runs() {
        return Ok(Some(base));
    }
    let multi = super::attack::multi_action_penalty(setup, declared_actions(setup, fight.state(), who));
    let changes = -fight.state().fighter(who).changes;
    let bonus = sheet.skill_value("run", &setup.options) - 10 + multi + changes + pain(fight, who)?;
    let check = Check { edge: 0, bonus, tn: 10 };
    let options = &setup.options;
    let roll = check.roll(options, &mut DiceOf { fight: &mut *fight }, Reason::new(who, "Run check"))?;
    fight.emit(Event::RunCheck { who, check, roll });
    Ok(Some((base + f64::from(roll.margin)).max(0.0)))
}

/// Moves a combatant up to `distance` metres along the straight line to its destination, stopping
/// `approach_gap` short of a combatant; notes a charge (FLUID-MOVE-7, FLUID-MOVE-11).
fn move_one<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    movement: super::Movement,
    distance: f64,
) {
    let event = moved(fight.setup(), fight.state(), who, movement, distance);
    fight.emit(event);
}

/// The `Moved` event of `who` moving up to `distance` metres along the straight line to its
/// destination, stopping `approach_gap` short of a combatant, with any charge it makes
/// (FLUID-MOVE-7, FLUID-MOVE-11); the fight's move and the odds' both.
pub(super) fn moved(setup: &Setup, state: &State, who: CombatantId, movement: super::Movement, distance: f64) -> Event {
    let from = state.fighter(who).pos;
    let (goal, gap) = match movement.to {
        Destination::Point(p) => (p, 0.0),
        Destination::Toward(c) => (state.fighter(c).pos, setup.options.approach_gap),
    };
    let length = from.distance(goal);
    let travel = distance.min((length - gap).max(0.0));
    let to = if length > 0.0 {
        Pos::new(from.x + (goal.x - from.x) * travel / length, from.y + (goal.y - from.y) * travel / length)
    } else {
        from
    };
    // A charge: the first melee target got at least 4 m closer by a jog, run or sprint (a walk
    // under `charge_walk`, for +1W).
    let sheet = &setup.combatants[who.index()];
    let charge =
        state.fighter(who).plan.attacks.iter().find(|a| sheet.items[a.weapon()].kind == ItemKind::Melee).and_then(
            |a| {
                let target = state.fighter(a.target).pos;
                let closer = from.distance(target) - to.distance(target);
                let counts = movement.mode.runs() || setup.options.charge_walk;
                (counts && closer >= 4.0 - 1e-9).then_some((a.target, movement.mode.multiplier()))
            },
        );
    Event::Moved { who, mode: movement.mode, from, to, charge }
}

/// Rolls initiative and orders the steps (FLUID-INIT-1, -3, -4, -7).
fn initiative<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
) -> Result<List<CombatantId, 8>, FightError> {
    let setup = fight.setup();
    let mut rolled: List<(i32, CombatantId), 8> = List::new();
    for (i, sheet) in setup.combatants.iter().enumerate() {
        let who = CombatantId(i as u16);
        let fighter = fight.state().fighter(who);
        // The incapacitated roll only under `incapacitated_initiative = roll` (FLUID-INIT-7).
        if fighter.dead || (!fighter.able() && !setup.options.incapacitated_roll) {
            continue;
        }
        let mut faces = [0u8; 3];
        for face in &mut faces {
            *face = fight.roll(6, Reason::new(who, "initiative").of(3))? as u8;
        }
        // Not a check: 3d6 + Tactics, and CP only under `initiative_cp` (FLUID-INIT-3).
        let cp = if setup.options.initiative_cp { condition_penalty(setup, fight.state(), who) } else { 0 };
        let total = faces.iter().map(|&f| i32::from(f)).sum::<i32>() + sheet.tactics + cp;
        fight.emit(Event::Initiative { who, faces, total });
        rolled.push((total, who));
    }
    // Players tied only with each other choose their own order (FLUID-INIT-5): the first of
    // them in roster order answers for the group; an empty answer leaves it to FLUID-INIT-4.
    rolled.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut chosen: List<(CombatantId, i32), 8> = List::new();
    let mut i = 0;
    while i < rolled.len() {
        let j = (i..rolled.len()).find(|&j| rolled[j].0 != rolled[i].0).unwrap_or(rolled.len());
        if j - i < 2 {
            i = j;
            continue;
        }
        let mut tied: List<CombatantId, 8> = rolled[i..j].iter().map(|r| r.1).collect();
        tied.sort();
        if tied.iter().all(|c| setup.combatants[c.index()].player) {
            let Choice::Order(order) = fight.decide(tied[0], &Request::TieOrder { tied: tied.clone() })? else {
                unreachable!("checked by check_choice")
            };
            let n = order.len() as i32;
            chosen.extend(order.iter().enumerate().map(|(rank, who)| (*who, n - rank as i32)));
        }
        i = j;
    }
    let key = |who: CombatantId| {
        if let Some((_, rank)) = chosen.iter().find(|(c, _)| *c == who) {
            return (0, 0, *rank);
        }
        let sheet = &setup.combatants[who.index()];
        match setup.options.initiative_tie {
            InitiativeTie::TacticsFinRoll => (sheet.tactics, sheet.stats[FIN], 0),
            InitiativeTie::Roll | InitiativeTie::Roster => (0, 0, 0),
        }
    };
    // Sort by total, then the tie-break key, highest first; roster order keeps the sort stable.
    rolled.sort_by_key(|r| std::cmp::Reverse((r.0, key(r.1))));
    let mut order: List<CombatantId, 8> = rolled.iter().map(|r| r.1).collect();
    if setup.options.initiative_tie != InitiativeTie::Roster {
        // Roll-offs among those still tied: each rolls 1d6 in roster order, highest first, again
        // among those still tied.
        let mut start = 0;
        while start < order.len() {
            let (total, k) = (rolled[start].0, key(rolled[start].1));
            let end =
                (start..order.len()).find(|&j| rolled[j].0 != total || key(rolled[j].1) != k).unwrap_or(order.len());
            let settled_by_choice = chosen.iter().any(|(c, _)| *c == order[start]);
            if end - start > 1 && !settled_by_choice {
                let mut group: List<CombatantId, 8> = order[start..end].iter().copied().collect();
                group.sort();
                let settled = roll_off(fight, group)?;
                order[start..end].copy_from_slice(&settled);
            }
            start = end;
        }
    }
    Ok(order)
}

fn roll_off<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    group: List<CombatantId, 8>,
) -> Result<List<CombatantId, 8>, FightError> {
    if group.len() < 2 {
        return Ok(group);
    }
    let mut faces: List<(u8, CombatantId), 8> = List::new();
    for &who in &group {
        let face = fight.roll(6, Reason::new(who, "initiative tie-break"))? as u8;
        fight.emit(Event::TieBreak { who, face });
        faces.push((face, who));
    }
    faces.sort_by_key(|f| std::cmp::Reverse(f.0));
    let mut out: List<CombatantId, 8> = List::new();
    let mut i = 0;
    while i < faces.len() {
        let j = (i..faces.len()).find(|&j| faces[j].0 != faces[i].0).unwrap_or(faces.len());
        let mut tied: List<CombatantId, 8> = faces[i..j].iter().map(|f| f.1).collect();
        tied.sort();
        out.extend(roll_off(fight, tied)?);
        i = j;
    }
    Ok(out)
}

/// One declared attack: a single attack, a burst, or a spray of separate rolls
/// (FLUID-SPECIAL-5 … FLUID-SPECIAL-11, FLUID-GEAR-4).
fn resolve_attack<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    attacker: CombatantId,
    attack: DeclaredAttack,
    declared: i32,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let weapon = &setup.combatants[attacker.index()].items[attack.weapon()];
    // A broken weapon cannot attack (FLUID-SUNDER-6), nor can a weapon at 0 ammunition counts
    // fire (FLUID-GEAR-4; an earlier attack this round may have spent the last): an attack
    // declared with it lapses.
    let shooter = fight.state().fighter(attacker);
    if shooter.broken(attack.weapon()) || shooter.ammo[attack.weapon()] == Some(0) {
        return Ok(());
    }
    if weapon.kind == ItemKind::Area {
        return resolve_area(fight, attacker, attack, declared);
    }
    // Under `per_round` the maximum burst caps every round the weapon fires this combat round.
    let mut rounds = u32::from(attack.rounds);
    if !options.burst_cap_per_attack {
        let fired = fight.state().fighter(attacker).fired[attack.weapon()];
        rounds = rounds.min(weapon.fire.max_rounds().saturating_sub(fired));
        if rounds == 0 {
            return Ok(());
        }
    }
    // Recoil: −⌊r × recoil factor⌋ (FLUID-SPECIAL-5, -6, -8).
    let penalty = |r: u32| super::attack::recoil_penalty(weapon, r);
    // A spray is one check action, with one pain check for every shot, unless `spray_counts =
    // per_shot` makes each shot its own (FLUID-TRACK-4, FLUID-SPECIAL-9).
    let mut pain = None;
    if attack.spray {
        for _ in 0..rounds {
            // Out of rounds, or broken by a shot's sunder check (FLUID-SUNDER-6).
            let shooter = fight.state().fighter(attacker);
            if shooter.ammo[attack.weapon()] == Some(0) || shooter.broken(attack.weapon()) {
                break;
            }
            if !options.spray_counts_once {
                pain = None;
            }
            roll_attack(fight, attacker, attack, declared, 1, penalty(rounds), 1, true, &mut pain)?;
        }
        Ok(())
    } else {
        let rounds = rounds.max(1);
        let multi = rounds >= 2;
        roll_attack(fight, attacker, attack, declared, rounds as u8, penalty(rounds), rounds as i32, multi, &mut pain)
    }
}

/// The blast point of an area attack: where the attacker places it, by default the target's
/// position (FLUID-SPECIAL-4).
pub(crate) fn blast_point(setup: &Setup, state: &State, attack: &DeclaredAttack) -> fray_engine::Pos {
    attack.blast.filter(|_| !setup.options.blast_on_combatant).unwrap_or(state.fighter(attack.target).pos)
}

/// An area attack: one check action, one device; one attack check and one base-damage roll per
/// affected target, nearest first, each against its own defence and dT (FLUID-SPECIAL-1 … -4).
fn resolve_area<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    attacker: CombatantId,
    attack: DeclaredAttack,
    declared: i32,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let DeclaredAttack { intent, .. } = attack;
    let item = attack.weapon();
    let weapon = &setup.combatants[attacker.index()].items[item];
    let blast = blast_point(setup, fight.state(), &attack);
    let mut affected: List<(f64, CombatantId, i32), 8> = setup
        .combatants
        .iter()
        .enumerate()
        .filter_map(|(i, _)| {
            let who = CombatantId(i as u16);
            let fighter = fight.state().fighter(who);
            let distance = fighter.pos.distance(blast);
            let edge = super::attack::area_edge(weapon.blast_band, super::attack::band(setup, distance))?;
            (!fighter.gone(options)).then_some((distance, who, edge))
        })
        .collect();
    affected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    if fight.state().fighter(attacker).ammo[item].is_some() {
        fight.emit(Event::AmmoSpent { who: attacker, item });
    }
    let pain = pain(fight, attacker)?;
    for (_, victim, band_edge) in affected {
        if fight.state().fighter(victim).gone(options) {
            continue;
        }
        let victim_state = fight.state().fighter(victim);
        let (defends, full_defense) = (victim_state.defends(options), victim_state.full_defense);
        let unaware = fight.state().fighter(attacker).hidden;
        let (defence, tn) = if unaware {
            (None, 10 + if options.unaware_dt { fight.state().fighter(victim).dt } else { 0 })
        } else if defends {
            let choices = super::attack::area_defence_options(setup, fight.state(), victim);
            let defence = if choices.is_empty() {
                None
            } else if options.defense_per_round {
                named_defence(setup, fight.state(), victim, &choices)
            } else {
                let request = Request::Defend { attacker, options: choices };
                let Choice::Defence(pick) = fight.decide(victim, &request)? else {
                    unreachable!("checked by check_choice")
                };
                let Request::Defend { options: choices, .. } = request else { unreachable!("built above") };
                pick.map(|i| choices[i])
            };
            (defence, defence_tn(setup, fight.state(), victim, defence))
        } else {
            (None, 10)
        };
        let edge = band_edge - i32::from(full_defense);
        // An area attack is a ranged attack: the thrower's movement and a running victim count
        // (FLUID-SPECIAL-1, FLUID-MOVE-4, FLUID-MOVE-5).
        let movement = movement_penalty(fight.state(), options, attacker, victim, true);
        let situation = Situation { pain, changes: -fight.state().fighter(attacker).changes, recoil: 0, movement };
        let (check, terms) =
            attack_check(setup, fight.state(), attacker, item, victim, defence, tn, edge, declared, situation);
        let roll = check.roll(options, &mut DiceOf { fight: &mut *fight }, Reason::new(attacker, "area attack"))?;
        fight.emit(Event::Attack { attacker, target: victim, item, intent, rounds: 1, defence, check, terms, roll });
        if roll.margin >= 0 {
            let base_w = amount(fight, &weapon.damage_w, attacker)?;
            let base_s = amount(fight, &weapon.damage_s, attacker)?;
            let hit = hit_damage(
                setup,
                fight.state(),
                attacker,
                item,
                victim,
                intent,
                defence,
                roll.margin,
                (base_w, 0),
                base_s,
            );
            let Hit { before, av, w, s, .. } = hit;
            fight.emit(Event::Damage { by: attacker, target: victim, before, av, w, s });
            update_conditions(fight, victim);
            // The victim's armour makes its sunder check after the hit's damage, target by target
            // (FLUID-SUNDER-9, -10, FLUID-DICE-10); an area weapon meets no blocking item.
            if options.sunder_checks {
                sunder(fight, attacker, item, victim, defence, roll.margin, false, Some(hit))?;
            }
        }
    }
    reveal(fight, attacker);
    Ok(())
}

/// One attack roll: defence, pain check, the check, ammunition, damage, sunder
/// (FLUID-ATK-*, FLUID-DEF-*, FLUID-DMG-*, FLUID-SUNDER-*).
#[allow(clippy::too_many_arguments, reason = "the roll's place in its burst or spray")]
fn roll_attack<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    attacker: CombatantId,
    attack: DeclaredAttack,
    declared: i32,
    rounds: u8,
    recoil: i32,
    multiplier: i32,
    multi_round: bool,
    pain_taken: &mut Option<i32>,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let DeclaredAttack { mut target, intent, .. } = attack;
    let item = attack.weapon();
    let sheet = &setup.combatants[attacker.index()];
    let weapon = &sheet.items[item];
    if fight.state().fighter(target).gone(options) {
        return Ok(()); // dropped: nothing to hit (not a change of plan)
    }
    let distance = fight.state().distance(attacker, target);
    let near = distance <= options.reach_m + 1e-9;
    if weapon.kind == ItemKind::Melee && !near {
        return Ok(());
    }
    let ranged = weapon.kind == ItemKind::Ranged;
    // A far shot at a stunned or unconscious combatant whose body an ally shields hits the
    // ally, who may defend only with a shield's Block (FLUID-DEF-15).
    let shielded = ranged && !near && {
        let t = fight.state().fighter(target);
        t.stunned || t.unconscious
    };
    let shielder = if shielded { shielding_ally(setup, fight.state(), target) } else { None };
    if let Some(ally) = shielder {
        fight.emit(Event::Shielded { who: ally, target });
        target = ally;
    }
    let target_sheet = &setup.combatants[target.index()];
    // A shielding ally's one defence: a shield's Block (FLUID-DEF-15).
    let shield_only = |list: &mut List<super::DefenceOption, 8>| {
        if shielder.is_some() {
            list.retain(|o| {
                o.skill == DefenceSkill::Block
                    && o.item.is_some_and(|i| target_sheet.items[usize::from(i)].kind == ItemKind::Shield)
            });
        }
    };

    // The target's defence (FLUID-ATK-3, FLUID-DEF-4, FLUID-DEF-13).
    let defends = fight.state().fighter(target).defends(options);
    let mut edge = 0;
    // A target unaware of a hidden attacker does not defend (FLUID-ATK-10).
    let unaware = fight.state().fighter(attacker).hidden;
    // Under `sunder_declare = with_attack` the sunder attack is named before the defence.
    let named_sunder = if let Some(request) = named_sunder_request(setup, attacker, item, target) {
        let Choice::Sunder(yes) = fight.decide(attacker, &request)? else { unreachable!("checked by check_choice") };
        yes
    } else {
        false
    };
    // An ally within Nearby may Parry or Block for an incapacitated friend, with its own TN and
    // dT; the attack then loses its Superior against the helpless (FLUID-DEF-14).
    let guarded = if !defends && !unaware && (!ranged || near) { guard(fight, attacker, item, target)? } else { None };
    let (defence, tn) = if let Some((option, tn)) = guarded {
        (Some(option), tn)
    } else if unaware {
        (None, 10 + if options.unaware_dt { fight.state().fighter(target).dt } else { 0 })
    } else if defends && options.defense_per_round {
        // The defence named with the declarations (FLUID-DEF-4).
        let mut options_list = defence_options(setup, fight.state(), attacker, item, target);
        shield_only(&mut options_list);
        let defence = named_defence(setup, fight.state(), target, &options_list);
        (defence, defence_tn(setup, fight.state(), target, defence))
    } else if defends {
        let mut options_list = defence_options(setup, fight.state(), attacker, item, target);
        shield_only(&mut options_list);
        let request = Request::Defend { attacker, options: options_list };
        let Choice::Defence(pick) = fight.decide(target, &request)? else { unreachable!("checked by check_choice") };
        let Request::Defend { options: options_list, .. } = request else { unreachable!("built above") };
        let defence = pick.map(|i| options_list[i]);
        (defence, defence_tn(setup, fight.state(), target, defence))
    } else {
        (None, 10)
    };
    let (tn, target_edge) = target_side(setup, fight.state(), attacker, item, target, defence, tn, guarded.is_some());
    edge += target_edge;

    // Ignoring pain (FLUID-TRACK-4), once per check action.
    let pain = match *pain_taken {
        Some(pain) => pain,
        None => {
            let taken = pain(fight, attacker)?;
            *pain_taken = Some(taken);
            taken
        }
    };
    let movement_penalty = movement_penalty(fight.state(), options, attacker, target, ranged);
    let charge = match fight.state().fighter(attacker).charge {
        Some((t, bonus)) if t == target && !ranged => bonus,
        _ => 0,
    };

    // A sunder attack: chosen once the Block is known, or named beforehand under `with_attack`,
    // when it lapses unless the target Blocks with a tiered item (FLUID-SUNDER-7, FLUID-ATK-11).
    let sunder_attack = match sunder_request(setup, attacker, item, target, defence) {
        SunderAsk::Named => named_sunder,
        SunderAsk::Ask(block) => {
            let request = Request::SunderAttack { target, weapon: item as u8, block };
            let Choice::Sunder(yes) = fight.decide(attacker, &request)? else {
                unreachable!("checked by check_choice")
            };
            yes
        }
        SunderAsk::No => false,
    };

    // The attack check (FLUID-ATK-2, FLUID-ATK-6, FLUID-ACT-4).
    let changes = -fight.state().fighter(attacker).changes;
    let situation = Situation { pain, changes, recoil, movement: movement_penalty };
    let (check, terms) =
        attack_check(setup, fight.state(), attacker, item, target, defence, tn, edge, declared, situation);
    let roll = check.roll(options, &mut DiceOf { fight: &mut *fight }, Reason::new(attacker, "attack"))?;
    fight.emit(Event::Attack { attacker, target, item, intent, rounds, defence, check, terms, roll });
    // Ammunition: a count is lost on a natural of 15+ (a single shot) or 14+ (a burst, each spray
    // shot) (FLUID-GEAR-4).
    if ranged && fight.state().fighter(attacker).ammo[item].is_some() {
        let threshold = if multi_round { 14 } else { 15 };
        if roll.natural >= threshold {
            fight.emit(Event::AmmoSpent { who: attacker, item });
        }
    }

    // Damage (FLUID-DMG-1 … FLUID-DMG-5) and armour (FLUID-ARM-2 … FLUID-ARM-4, FLUID-DEF-6); a
    // burst's successes are multiplied by its rounds for everything that follows (FLUID-SPECIAL-5);
    // a sunder attack that hits puts everything into the blocking item instead.
    let successes = roll.margin * multiplier;
    let mut hit = None;
    if roll.margin >= 0 && !sunder_attack {
        let base_w = amount(fight, &weapon.damage_w, attacker)?;
        let base_s = amount(fight, &weapon.damage_s, attacker)?;
        let damage = hit_damage(
            setup,
            fight.state(),
            attacker,
            item,
            target,
            intent,
            defence,
            successes,
            (base_w, charge),
            base_s,
        );
        let Hit { before, av, w, s, guard_s } = damage;
        fight.emit(Event::Damage { by: attacker, target, before, av, w, s });
        update_conditions(fight, target);
        if let Some(guard) = defence.and_then(|d| d.guard).filter(|_| guard_s > 0) {
            fight.emit(Event::Damage { by: attacker, target: guard, before: (0, guard_s), av: 0, w: 0, s: guard_s });
            update_conditions(fight, guard);
        }
        hit = Some(damage);
    }
    if options.sunder_checks {
        let margin = if roll.margin >= 0 { successes } else { roll.margin };
        sunder(fight, attacker, item, target, defence, margin, sunder_attack, hit)?;
    }
    reveal(fight, attacker);
    Ok(())
}

/// The attacker's request to name a sunder attack with the attack, before the defence is known,
/// under `sunder_declare = with_attack` (FLUID-ATK-11): a tiered melee weapon against a target
/// with a tiered item it could block with (FLUID-SUNDER-7, -13); `None` otherwise. The fight and
/// the odds both ask it.
pub(super) fn named_sunder_request(
    setup: &Setup,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
) -> Option<Request> {
    let options = &setup.options;
    let weapon = &setup.combatants[attacker.index()].items[item];
    let named = options.sunder_with_attack
        && weapon.kind != ItemKind::Ranged
        && options.sunder_checks
        && weapon.tier.is_some()
        && setup.combatants[target.index()].items.iter().any(|i| i.tier.is_some() && i.defends());
    named.then_some(Request::SunderAttack { target, weapon: item as u8, block: None })
}

/// Whether an attack met by `defence` can be a sunder attack, and how that is decided
/// ([`sunder_request`]).
pub(super) enum SunderAsk {
    /// A sunder attack if it was named with the attack (`sunder_declare = with_attack`) and the
    /// target Blocks with a tiered item.
    Named,
    /// The attacker is asked, the Block with this item being known (`sunder_declare =
    /// after_defense`): a [`Request::SunderAttack`] with it as `block`.
    Ask(Option<u8>),
    /// Not a sunder attack.
    No,
}

/// How an attack with `item` on `target`, met by `defence`, becomes a sunder attack
/// (FLUID-SUNDER-7, FLUID-ATK-11): only a tiered melee weapon against a Block with a tiered item
/// (FLUID-SUNDER-13). The fight and the odds both ask it.
pub(super) fn sunder_request(
    setup: &Setup,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
    defence: Option<super::DefenceOption>,
) -> SunderAsk {
    let options = &setup.options;
    let weapon = &setup.combatants[attacker.index()].items[item];
    let blocking =
        defence.filter(|d| d.skill == DefenceSkill::Block && !d.knocks_aim && d.guard.is_none()).and_then(|d| d.item);
    let tiered_block = blocking.is_some_and(|b| setup.combatants[target.index()].items[usize::from(b)].tier.is_some());
    let may_sunder = weapon.kind != ItemKind::Ranged && options.sunder_checks && weapon.tier.is_some();
    if options.sunder_with_attack {
        if tiered_block { SunderAsk::Named } else { SunderAsk::No }
    } else if may_sunder && tiered_block {
        SunderAsk::Ask(blocking)
    } else {
        SunderAsk::No
    }
}

/// Whether `who` may declare shielding `ally`'s body (FLUID-DEF-15): an incapacitated (stunned,
/// unconscious or dying) living friend within Nearby. The AI and a person's menu both ask this.
pub(super) fn can_shield(setup: &Setup, state: &State, who: CombatantId, ally: CombatantId) -> bool {
    let f = state.fighter(ally);
    ally != who
        && setup.combatants[ally.index()].side == setup.combatants[who.index()].side
        && (f.stunned || f.unconscious || f.dying)
        && !f.dead
        && state.distance(who, ally) <= setup.options.reach_m + 1e-9
}

/// The first ally (roster order) that declared shielding `target`'s body and can: able, and
/// within Nearby of it (FLUID-DEF-15).
fn shielding_ally(setup: &Setup, state: &State, target: CombatantId) -> Option<CombatantId> {
    let side = setup.combatants[target.index()].side;
    (0..setup.combatants.len()).map(|i| CombatantId(i as u16)).find(|&ally| {
        let f = state.fighter(ally);
        ally != target
            && setup.combatants[ally.index()].side == side
            && f.plan.shield == Some(target)
            && f.defends(&setup.options)
            && state.distance(ally, target) <= setup.options.reach_m + 1e-9
    })
}

/// The first ally (roster order) within Nearby of an incapacitated `target` that chooses to Parry
/// or Block for it, with that defence and its TN + the ally's dT (FLUID-DEF-14).
fn guard<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
) -> Result<Option<(DefenceOption, i32)>, FightError> {
    let setup = fight.setup();
    let side = setup.combatants[target.index()].side;
    for (i, ally_sheet) in setup.combatants.iter().enumerate() {
        let ally = CombatantId(i as u16);
        let state = fight.state();
        if ally == target
            || ally_sheet.side != side
            || !state.fighter(ally).defends(&setup.options)
            || state.distance(ally, target) > setup.options.reach_m + 1e-9
        {
            continue;
        }
        let options: List<DefenceOption, 8> = defence_options(setup, state, attacker, item, ally)
            .into_iter()
            .filter(|o| o.skill != DefenceSkill::Dodge)
            .map(|o| DefenceOption { guard: Some(ally), ..o })
            .collect();
        if options.is_empty() {
            continue;
        }
        let request = Request::Guard { target, attacker, options };
        if let Choice::Defence(Some(pick)) = fight.decide(ally, &request)? {
            let Request::Guard { options, .. } = request else { unreachable!("built above") };
            let option = options[pick];
            return Ok(Some((option, option.tn + fight.state().fighter(ally).dt)));
        }
    }
    Ok(None)
}

/// A hidden attacker is known to everyone once its attack resolves, under `on_attack`
/// (FLUID-ROUND-5).
fn reveal<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) {
    if fight.setup().options.reveal_on_attack && fight.state().fighter(who).hidden {
        fight.emit(Event::Condition { who, condition: Condition::Hidden, gained: false });
    }
}

/// The sunder checks after an attack, in the order attacker's item, defender's item, armour
/// (FLUID-SUNDER-1 … FLUID-SUNDER-11, FLUID-DICE-10).
#[allow(clippy::too_many_arguments, reason = "the attack's outcome, passed whole")]
fn sunder<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    attacker: CombatantId,
    item: usize,
    target: CombatantId,
    defence: Option<DefenceOption>,
    margin: i32,
    sunder_attack: bool,
    hit: Option<Hit>,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let weapon = &setup.combatants[attacker.index()].items[item];
    let target_sheet = &setup.combatants[target.index()];
    let weapon_size = super::attack::attack_size(setup, weapon);
    // The blocking item may be a guarding ally's (FLUID-DEF-14).
    let holder = defence.and_then(|d| d.guard).unwrap_or(target);
    if weapon.kind == ItemKind::Melee
        && let (Some(d), Some(weapon_tier)) = (defence, weapon.tier)
        && let Some(b) = d.item.map(usize::from)
        && let Some(block_tier) = setup.combatants[holder.index()].items[b].tier
    {
        let ours = (weapon_size, weapon_tier);
        let theirs = (d.size, block_tier);
        if sunder_attack && margin >= 0 {
            // All the damage goes into the blocking item: a DQ check, TN raised by the successes.
            let edge = i32::from(weapon_tier == block_tier);
            item_check(fight, holder, Quality::Dq(b), sunder_tn(ours, theirs, margin), edge)?;
        } else {
            let contact = match d.skill {
                DefenceSkill::Block => margin <= 5,
                DefenceSkill::Parry => options.sunder_on_parry && margin < 0,
                DefenceSkill::Dodge => false,
            };
            if contact {
                // The lower tier checks; equal tiers both check, each at Superior +1.
                if weapon_tier <= block_tier {
                    let edge = i32::from(weapon_tier == block_tier);
                    item_check(fight, attacker, Quality::Oq(item), sunder_tn(theirs, ours, 0), edge)?;
                }
                if block_tier <= weapon_tier {
                    let edge = i32::from(weapon_tier == block_tier);
                    item_check(fight, holder, Quality::Dq(b), sunder_tn(ours, theirs, 0), edge)?;
                }
            }
        }
    }
    // Armour: a hit by a weapon of higher tier and/or larger size than the armour.
    if let (Some(hit), Some(armor), Some(weapon_tier)) = (hit, &target_sheet.armor, weapon.tier)
        && let Some(armor_tier) = armor.tier
    {
        let triggered = match options.armor_sunder_trigger {
            ArmorSunderTrigger::Hit => true,
            ArmorSunderTrigger::Wound => hit.w > 0,
            ArmorSunderTrigger::Damage => hit.w + hit.s > 0,
        };
        // Armour compares the weapon's smallest size under either `attack_size` (FLUID-SIZE-2/-3).
        let ours = (weapon.smallest_size(), weapon_tier);
        let theirs = (armor.size, armor_tier);
        if triggered && (weapon_tier > armor_tier || ours.0 > armor.size) {
            item_check(fight, target, Quality::Av, sunder_tn(ours, theirs, 0), 0)?;
        }
        // A weapon striking tougher armour, under `sunder_weapon_on_armor` (FLUID-SUNDER-8); not
        // an area weapon's blast.
        if options.sunder_weapon_on_armor && armor_tier > weapon_tier && weapon.kind != ItemKind::Area {
            item_check(fight, attacker, Quality::Oq(item), sunder_tn(theirs, ours, 0), 0)?;
        }
    }
    Ok(())
}

/// One sunder check: 3d6 + the quality against `tn`; ⌊failures / 2⌋ points lost
/// (FLUID-SUNDER-4, -5, -11, -13: no CP, tactics or action penalties).
fn item_check<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    quality: Quality,
    tn: i32,
    edge: i32,
) -> Result<(), FightError> {
    let current = fight.state().fighter(who);
    let value = match quality {
        Quality::Oq(i) => current.oq[i],
        Quality::Dq(i) => current.dq[i],
        Quality::Av => current.av,
    };
    let check = Check { edge, bonus: value, tn };
    let options = &fight.setup().options;
    let roll = check.roll(options, &mut DiceOf { fight: &mut *fight }, Reason::new(who, "sunder check"))?;
    // The loss recorded is what the item loses: OQ and DQ stop at −5, AV at 0 (FLUID-SUNDER-6,
    // FLUID-SUNDER-11, FLUID-SUNDER-12).
    let floor = if quality == Quality::Av { 0 } else { -5 };
    let loss = sunder_loss(roll.margin).min((value - floor).max(0));
    fight.emit(Event::Sunder { who, quality, check, roll, loss });
    Ok(())
}

/// Rolls or reads a base damage amount (FLUID-DMG-1, FLUID-DICE-11).
fn amount<D: Dice, P: Decider<Fluid>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    amount: &Amount,
    who: CombatantId,
) -> Result<i32, FightError> {
    match amount {
        Amount::Fixed(v) => Ok(*v),
        Amount::Dice(program) => {
            let mut source = DamageDice { fight, reason: Reason::new(who, "damage") };
            let value =
                program.sample(&mut source).map_err(|e| FightError::Dice { what: "damage", message: e.to_string() })?;
            Ok(value.as_int().unwrap_or(0) as i32)
        }
    }
}
