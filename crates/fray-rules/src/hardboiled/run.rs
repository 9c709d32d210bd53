//! One `hardboiled` fight: combat turns of Declare, Initiative and Resolve (USR-ROUND-1).

use super::attack;
use super::attack::{ContestTerms, HitKind, Terms};
use super::options::{InitiativeTie, SecondWindPolicy, Undeclared};
use super::setup::{Attr, Weapon};
use super::{Act, Choice, Event, HardBoiled, List, Opportunity, Part, Request, Roll};
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, Outcome, Reason, Sink};

type F<'f, 'a, D, P, S> = &'f mut Fight<'a, HardBoiled, D, P, S>;

pub(super) fn run<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: &mut Fight<'_, HardBoiled, D, P, S>,
) -> Result<FightResult, FightError> {
    let setup = fight.setup();
    // Maximum HP (USR-TRACK-1/2), in roster order: the Action die, then the Wits die.
    for (i, sheet) in setup.combatants.iter().enumerate() {
        // A combatant joining mid-fight has its HP written in its stat block.
        if sheet.hp_max.is_none() && !setup.joins_late(i) {
            let who = CombatantId(i as u16);
            let (a, w) = (sheet.die(Attr::Action), sheet.die(Attr::Wits));
            let (faces, max) = if setup.options.hp_maximum {
                ([0, 0], i32::from(a) + i32::from(w))
            } else {
                let fa = die(fight, who, a, "max HP (Action)")?;
                let fw = die(fight, who, w, "max HP (Wits)")?;
                ([fa, fw], i32::from(fa) + i32::from(fw))
            };
            fight.emit(Event::HpSet { who, faces, max });
        }
    }
    let mut ended = Ending::default();
    if let Some(result) = end_check(fight, &mut ended, 0) {
        return Ok(result);
    }
    for turn in 1..=setup.max_turns {
        fight.emit(Event::TurnStarted { turn });
        declare(fight)?;
        let order = initiative(fight, turn)?;
        // The order lists the members of each step together, step after step.
        for step in order.chunk_by(|a, b| a.1 == b.1) {
            if let [(who, _)] = *step {
                // A step of one, who acts if able.
                if fight.state().fighter(who).able(turn) {
                    act_turn(fight, &mut ended, who)?;
                    if let Some(result) = ended.result {
                        return Ok(result);
                    }
                }
                continue;
            }
            // Tied combatants under `simultaneous` all act, whatever befalls them in the step.
            let mut members: List<CombatantId, 4> = List::new();
            for &(who, _) in step {
                if fight.state().fighter(who).able(turn) {
                    members.push(who);
                }
            }
            // Only `simultaneous` puts more than one in a step: every member acts, and the end
            // check waits until each has.
            let hold = members.len() > 1;
            ended.hold = hold;
            for who in members {
                act_turn(fight, &mut ended, who)?;
                if let Some(result) = ended.result {
                    return Ok(result);
                }
            }
            ended.hold = false;
            if hold && let Some(result) = end_check(fight, &mut ended, turn) {
                return Ok(result);
            }
        }
        // Only a hit changes who is out of the fight or able to act, and each such change was
        // checked where it happened (or at the end of its simultaneous step): a new turn only
        // brings the knocked out back. So the turn ends with the fight going on.
        debug_assert!(ended.result.is_none() && standing(fight, turn).is_none(), "an end missed in turn {turn}");
    }
    let result = FightResult { outcome: Outcome::Stalemate, length: setup.max_turns };
    fight.emit(Event::Ended { result });
    Ok(result)
}

/// How the fight stands: its result once ended, and whether the end check is held back until a
/// simultaneous step is over (USR-INIT-4: tied combatants all act, whatever befalls them).
#[derive(Default)]
struct Ending {
    result: Option<FightResult>,
    hold: bool,
}

/// One face of a die with `sides` sides.
fn die<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    sides: u8,
    what: &'static str,
) -> Result<u8, FightError> {
    fight.roll(u32::from(sides), Reason::new(who, what)).map(|f| f as u8)
}

/// The end (USR-ROUND-6): combatants not out of the fight on fewer than two sides; under
/// `down_only`, also when nobody left can act (a stalemate).
fn end_check<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    turn: u32,
) -> Option<FightResult> {
    if ended.result.is_some() || ended.hold {
        return ended.result;
    }
    let outcome = standing(fight, turn)?;
    let result = FightResult { outcome, length: turn };
    fight.emit(Event::Ended { result });
    ended.result = Some(result);
    Some(result)
}

/// How the fight ends in `turn` as it stands, if it ends (USR-ROUND-6).
fn standing<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, turn: u32) -> Option<Outcome> {
    let setup = fight.setup();
    let state = fight.state();
    let now = turn.max(1);
    let standing =
        state.fighters.iter().zip(&setup.combatants).filter(|(x, _)| !x.out(&setup.options, now)).map(|(_, c)| c.side);
    match crate::standing_outcome(standing) {
        Some(outcome) => Some(outcome),
        None if setup.options.down_only && !state.fighters.iter().any(|x| x.able(now)) => Some(Outcome::Stalemate),
        None => None,
    }
}

/// The Declare phase (USR-ROUND-2): every able combatant may state an intent.
fn declare<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) -> Result<(), FightError> {
    let turn = fight.state().turn;
    for i in 0..fight.state().fighters.len() {
        let who = CombatantId(i as u16);
        if !fight.state().fighter(who).able(turn) {
            continue;
        }
        let request = Request::Declare;
        if fight.passes_optional(who, &request) {
            continue;
        }
        if let Choice::Intent(Some(intent)) = fight.decide(who, &request)? {
            fight.emit(Event::Declared { who, intent });
        }
    }
    Ok(())
}

/// Initiative (USR-INIT-1..6) and the order of the turn.
fn initiative<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    turn: u32,
) -> Result<List<(CombatantId, u8), 8>, FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let mut scores: List<(CombatantId, i32, u8), 8> = List::new();
    for (i, sheet) in setup.combatants.iter().enumerate() {
        let who = CombatantId(i as u16);
        let x = fight.state().fighter(who);
        if !x.able(turn) {
            continue;
        }
        let ego = !options.ego_initiative_never && matches!(x.declared, Some(Act::Power(_)));
        let sides = sheet.die(if ego { Attr::Ego } else { Attr::Action });
        let natural = die(fight, who, sides, "initiative")?;
        let bonus = reach_bonus(fight, who);
        fight.emit(Event::Initiative { who, roll: Roll { die: sides, natural, total: i32::from(natural) }, bonus });
        scores.push((who, i32::from(natural) + bonus, sides));
    }
    // Highest first; ties by the option (USR-INIT-4).
    scores.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut order: List<(CombatantId, u8), 8> = List::new();
    let mut step = 0u8;
    let mut k = 0;
    while k < scores.len() {
        let end = (k..scores.len()).find(|&j| scores[j].1 != scores[k].1).unwrap_or(scores.len());
        if end == k + 1 {
            // No tie: a step of its own, under every tie rule. (A shortcut: a "tie" of one would
            // come to the same step below, `break_ties` returning it as it is, so `k + 1` →
            // `k * 1` here is an equivalent mutant, TESTING.md.)
            order.push((scores[k].0, step));
            step += 1;
            k = end;
            continue;
        }
        let mut tied: List<(CombatantId, u8), 8> = scores[k..end].iter().map(|s| (s.0, s.2)).collect();
        match options.initiative_tie {
            InitiativeTie::Simultaneous => {
                for (who, _) in &tied {
                    order.push((*who, step));
                }
                step += 1;
            }
            InitiativeTie::Reroll | InitiativeTie::LargerDie => {
                if options.initiative_tie == InitiativeTie::LargerDie {
                    tied.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                }
                for who in break_ties(fight, &tied, options.initiative_tie == InitiativeTie::LargerDie)? {
                    order.push((who, step));
                    step += 1;
                }
            }
        }
        k = end;
    }
    fight.emit(Event::Order { order: List::from_slice(&order) });
    Ok(order)
}

/// Orders tied combatants by rerolls among themselves until no tie remains; under `larger_die`
/// the larger die goes first and only equal dice reroll.
fn break_ties<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    tied: &[(CombatantId, u8)],
    larger_die: bool,
) -> Result<List<CombatantId, 8>, FightError> {
    if tied.len() == 1 {
        return Ok(smallvec::smallvec![tied[0].0]);
    }
    // With every die alike the grouping below makes one group, rerolled as below: so `!=` → `==`
    // here (which always groups) is an equivalent mutant.
    if larger_die && tied.iter().any(|t| t.1 != tied[0].1) {
        let mut out = List::new();
        let mut k = 0;
        while k < tied.len() {
            let end = (k..tied.len()).find(|&j| tied[j].1 != tied[k].1).unwrap_or(tied.len());
            out.extend(break_ties(fight, &tied[k..end], false)?);
            k = end;
        }
        return Ok(out);
    }
    let mut rolls: List<(CombatantId, u8, u8), 8> = List::new();
    for &(who, sides) in tied {
        let face = die(fight, who, sides, "initiative tie")?;
        fight.emit(Event::TieBreak { who, face });
        rolls.push((who, face, sides));
    }
    rolls.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out = List::new();
    for group in rolls.chunk_by(|a, b| a.1 == b.1) {
        if let [(who, ..)] = *group {
            // Untied by this roll.
            out.push(who);
            continue;
        }
        let group: List<(CombatantId, u8), 8> = group.iter().map(|r| (r.0, r.2)).collect();
        out.extend(break_ties(fight, &group, false)?);
    }
    Ok(out)
}

/// The reach bonus to initiative (USR-INIT-6): in the first turn an enemy is within reach, a
/// longer melee weapon than every such enemy's.
fn reach_bonus<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>, who: CombatantId) -> i32 {
    let setup = fight.setup();
    let options = &setup.options;
    let x = fight.state().fighter(who);
    if options.reach_bonus == 0 || !x.started_engaged || x.engaged_before {
        return 0;
    }
    let mine = &setup.combatants[who.index()];
    if mine.weapon.ranged || x.dropped {
        return 0;
    }
    let state = fight.state();
    let longer = (0..setup.combatants.len()).all(|j| {
        let other = CombatantId(j as u16);
        setup.combatants[j].side == mine.side
            || state.fighters[j].down()
            // (`>` and `>=` differ only at exactly the reach plus 1e-9: an equivalent mutant.)
            || state.distance(who, other) > options.melee_reach_m + 1e-9
            || setup.combatants[j].weapon.ranged
            || mine.weapon.reach > setup.combatants[j].weapon.reach
    });
    if longer { options.reach_bonus } else { 0 }
}

/// One combatant's step: its Move and its Attack or Other activity (USR-ACT-2/3).
fn act_turn<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    who: CombatantId,
) -> Result<(), FightError> {
    let options = &fight.setup().options;
    // A guard: a turn is at most a Move and `max_attacks` attacks (or one Other activity), then
    // End, 2 + `max_attacks` answers. `4 *` leaves room too (`max_attacks` ≥ 1): the mutation
    // audit's `+` → `*` is equivalent.
    for _ in 0..(4 + options.max_attacks as usize) {
        let request = super::policy::act_request(fight.setup(), fight.state(), who);
        let Request::Act { can_move, attacks_left, can_act } = request else { unreachable!("an action request") };
        if !can_move && attacks_left == 0 && !can_act {
            return Ok(());
        }
        let Choice::Act(act) = fight.decide(who, &request)? else { unreachable!("checked by check_choice") };
        if act == Act::End {
            return Ok(());
        }
        if fight.checks_choices()
            && let Some(reason) = super::policy::illegal(fight.setup(), fight.state(), who, &request, &act)
        {
            return Err(FightError::IllegalChoice { who, reason });
        }
        perform(fight, ended, who, act)?;
        if ended.result.is_some() || !fight.state().fighter(who).able(fight.state().turn) && !simultaneous(fight) {
            return Ok(());
        }
    }
    Ok(())
}

fn simultaneous<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(fight: F<'_, '_, D, P, S>) -> bool {
    fight.setup().options.initiative_tie == InitiativeTie::Simultaneous
}

/// Whether an action carries out the declaration (USR-ROUND-2..4); `Err` when the declared
/// action is lost or the undeclared one fails.
fn declared<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    act: &Act,
) -> Result<Result<bool, &'static str>, FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let state = fight.state();
    let turn = state.turn;
    // An action other than the one declared is undeclared (USR-ROUND-3), with the option's
    // sanction; a power is not a declared physical attack, nor the other way round.
    let undeclared = |fight: F<'_, '_, D, P, S>| -> Result<Result<bool, &'static str>, FightError> {
        let state = fight.state();
        Ok(match fight.setup().options.undeclared {
            Undeclared::Resolve => Ok(false),
            Undeclared::FailIfTargetActedOn => match act.target() {
                Some(t) if state.fighter(t).acted_on => Err("undeclared, and its target was acted on this turn"),
                _ => Ok(false),
            },
            Undeclared::GmPrompt => {
                if fight.decide(who, &Request::GmRuling { act: *act })? == Choice::Yes(true) {
                    Ok(false)
                } else {
                    Err("undeclared: the GM rules it a failure")
                }
            }
        })
    };
    let Some(intent) = state.fighter(who).declared else { return undeclared(fight) };
    let power = |a: &Act| matches!(a, Act::Power(_));
    if intent.kind() != act.kind() || power(&intent) != power(act) {
        return undeclared(fight);
    }
    match (intent.target(), act.target()) {
        (Some(planned), Some(now)) if planned != now => {
            let gone = state.fighter(planned).out(options, turn)
                || super::policy::illegal_target(setup, state, who, &intent).is_some();
            if !gone {
                return undeclared(fight);
            }
            // The declared target is gone (USR-ROUND-4).
            Ok(if options.retarget_lost { Err("its declared target is gone: the action is lost") } else { Ok(true) })
        }
        _ => Ok(Ok(true)),
    }
}

/// Performs one action.
fn perform<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    who: CombatantId,
    act: Act,
) -> Result<(), FightError> {
    match act {
        Act::Move(to) => {
            let setup = fight.setup();
            let x = fight.state().fighter(who);
            let home = setup.combatants[who.index()].position;
            let in_cover = setup.combatants[who.index()].cover.is_some() && to.distance(home) < 1e-9;
            fight.emit(Event::Moved { who, from: x.pos, to, in_cover });
            Ok(())
        }
        Act::PickUp => {
            fight.emit(Event::PickedUp { who });
            Ok(())
        }
        // `act_turn` ends the turn on End before calling here: deleting this arm is an
        // equivalent mutant.
        Act::End => Ok(()),
        _ => {
            let declared = match declared(fight, who, &act)? {
                Ok(d) => d,
                Err(why) => {
                    fight.emit(Event::Failed { who, act, why });
                    return Ok(());
                }
            };
            // `PickUp` was taken above, so here `kind() == 2` is `Act::Other` itself: `||` → `&&`
            // is an equivalent mutant (TESTING.md).
            if act.kind() == 2 || matches!(act, Act::Other { .. }) {
                return other(fight, ended, who, act, declared);
            }
            attack(fight, ended, who, act, declared)
        }
    }
}

/// A confirm d10 rolled, waiting to be logged after the roll it confirms (USR-DICE-5: the log
/// reads in the order of the rules). A few bytes, where its event would be a whole one.
#[derive(Clone, Copy)]
struct Confirmation {
    kind: Opportunity,
    face: u8,
    confirmed: bool,
}

/// A confirm d10 on an opportunity (USR-CRIT-2, USR-FUM-2).
/// Rolls the confirming d10; it waits in `pending` to be logged after the roll it confirms.
fn confirm<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    kind: Opportunity,
    pending: &mut Option<Confirmation>,
) -> Result<bool, FightError> {
    let face = die(fight, who, 10, "confirm")?;
    let confirmed = match kind {
        Opportunity::Critical => face == 10,
        Opportunity::Fumble => face == 1,
    };
    *pending = Some(Confirmation { kind, face, confirmed });
    Ok(confirmed)
}

/// A roll against a difficulty, its critical and fumble confirmed when `options.ranged_crits`
/// (USR-RNG-*, USR-CRIT-2, USR-FUM-2): the natural top face confirmed a critical succeeds (at
/// margin 0 under `crit_forces_hit`), a natural 1 confirmed a fumble fails under
/// `fumble_forces_miss`. Gives the success, the margin, and whether it was a critical or a fumble.
#[allow(clippy::too_many_arguments)] // reason: the roll's pieces, as each caller has them
#[inline]
fn difficulty_crits<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    natural: u8,
    sides: u8,
    mut success: bool,
    mut margin: i32,
    pending: &mut Option<Confirmation>,
) -> Result<(bool, i32, bool, bool), FightError> {
    let options = &fight.setup().options;
    let (crits, forces_hit, forces_miss) = (options.ranged_crits, options.crit_forces_hit, options.fumble_forces_miss);
    let (mut critical, mut fumbled) = (false, false);
    if crits && natural == sides && confirm(fight, who, Opportunity::Critical, pending)? {
        critical = true;
        if forces_hit && !success {
            success = true;
            margin = 0;
        }
    } else if crits && natural == 1 && confirm(fight, who, Opportunity::Fumble, pending)? {
        // A confirmed fumble has its effect, as on any roll (USR-CRIT-7, USR-FUM-4).
        fumbled = true;
        if forces_miss {
            success = false;
        }
    }
    Ok((success, margin, critical, fumbled))
}

/// A contest's critical and fumble (USR-CRIT-2, USR-CRIT-6, USR-FUM-2): the actor's top face
/// against the opponent's 1, confirmed, is a critical — `on_crit` added to the margin (an
/// attack's armour, which a critical ignores), at least 1 under `crit_forces_hit`; the actor's 1
/// against the opponent's top face, confirmed, a fumble. Gives the margin, and whether it was a
/// critical or a fumble.
#[allow(clippy::too_many_arguments)] // reason: the two dice of a contest, as each caller has them
#[inline]
fn contest_crits<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    (an, a_sides): (u8, u8),
    (dn, d_sides): (u8, u8),
    mut margin: i32,
    on_crit: i32,
    pending: &mut Option<Confirmation>,
) -> Result<(i32, bool, bool), FightError> {
    let forces_hit = fight.setup().options.crit_forces_hit;
    let (mut critical, mut fumbled) = (false, false);
    if an == a_sides && dn == 1 && confirm(fight, who, Opportunity::Critical, pending)? {
        critical = true;
        margin += on_crit;
        if forces_hit && margin <= 0 {
            margin = 1;
        }
    } else if an == 1 && dn == d_sides && confirm(fight, who, Opportunity::Fumble, pending)? {
        fumbled = true;
    }
    Ok((margin, critical, fumbled))
}

/// Logs a roll's `Contest`, then its confirm die, in the order of the rules (USR-DICE-5), then a
/// confirmed fumble's effect (USR-FUM-4).
#[inline(always)]
fn log_contest<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    contest: Event,
    confirm: Option<Confirmation>,
    fumbled: bool,
) -> Result<(), FightError> {
    fight.emit(contest);
    if let Some(Confirmation { kind, face, confirmed }) = confirm {
        fight.emit(Event::Confirm { who, kind, face, confirmed });
    }
    if fumbled {
        fumble(fight, who)?;
    }
    Ok(())
}

/// The fumble's effect (USR-FUM-4); one who wields no weapon has none to drop. Under
/// `fumble_effect = gm_table` the GM reads it off a fumble table: one of the effects, asked of
/// whoever answers for the fumbler (a person at the table; the AI takes the default).
#[cold]
fn fumble<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
) -> Result<(), FightError> {
    use super::options::FumbleEffect;
    let mut effect = fight.setup().options.fumble_effect;
    if effect == FumbleEffect::GmTable {
        let Choice::Fumble(ruled) = fight.decide(who, &Request::GmFumble)? else {
            unreachable!("checked by check_choice")
        };
        effect = ruled;
    }
    if effect == FumbleEffect::DropWeapon && !wields_weapon(fight.setup(), fight.state(), who) {
        effect = FumbleEffect::None;
    }
    fight.emit(Event::Fumbled { who, effect });
    Ok(())
}

/// Whether `who` holds a weapon it could drop: one on its sheet, not already dropped.
fn wields_weapon(setup: &super::Setup, state: &super::State, who: CombatantId) -> bool {
    setup.combatants[who.index()].weapon != *super::policy::unarmed() && !state.fighter(who).dropped
}

/// An attack or a power: a melee (or Ego) contest, or a ranged roll against a difficulty.
fn attack<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    who: CombatantId,
    act: Act,
    declared: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let unarmed = super::policy::unarmed();
    let (target, fists, called, off_balance) = match act {
        Act::Attack { target, fists, called, off_balance } => (target, fists, called, off_balance),
        Act::Power(target) => (target, true, None, false),
        _ => unreachable!("an attack"),
    };
    let sheet = &setup.combatants[who.index()];
    let x = fight.state().fighter(who);
    // A power's margin is damage through the normal location and armour steps, not a blow of
    // the fists (no brawling halving, USR-DICE-7).
    let weapon: &Weapon = if matches!(act, Act::Power(_)) {
        super::policy::activity_weapon()
    } else {
        attack::weapon_of(sheet, x, fists, unarmed)
    };
    let (attacks, moved) = (x.attacks, x.moved);
    if weapon.ranged {
        // An unopposed roll against the band's difficulty (USR-RNG-1..9).
        let d = fight.state().distance(who, target);
        let (band, base) = attack::band(options, d, weapon.range_m).unwrap_or((4, 14));
        let (actor, opponent) = attack::shot_terms(options, sheet, attacks, moved || off_balance, called.is_some());
        let difficulty = base + opponent.sum();
        let sides = sheet.die(Attr::Action);
        let natural = die(fight, who, sides, "attack")?;
        let total = i32::from(natural) + actor.sum();
        let terms = ContestTerms::shot(actor, opponent, d);
        let hit = if options.greater_than { total > difficulty } else { total >= difficulty };
        let mut pending = None;
        let (hit, margin, critical, fumbled) =
            difficulty_crits(fight, who, natural, sides, hit, total - difficulty, &mut pending)?;
        let roll = Roll { die: sides, natural, total };
        log_contest(
            fight,
            who,
            Event::Contest {
                who,
                act,
                roll,
                against: None,
                difficulty: Some(difficulty),
                terms,
                margin,
                success: hit,
                critical,
                declared,
            },
            pending,
            fumbled,
        )?;
        if hit {
            let face = match called {
                Some(part) => part.face(),
                None => die(fight, who, 10, "location")?,
            };
            let point_blank = band == 0 && options.point_blank_max;
            let rolled = if point_blank { weapon.damage.max() } else { damage_roll(fight, who, weapon)? };
            let base = margin.max(0) + rolled;
            let weapon_damage = Some(rolled);
            hit_target(
                fight,
                ended,
                who,
                target,
                base,
                face,
                called.is_some(),
                weapon_damage,
                critical,
                HitKind::Ranged,
                weapon,
            )?;
        }
        return Ok(());
    }
    // A contest (USR-ATK-1..6).
    let target_sheet = &setup.combatants[target.index()];
    let attr = attack::contest_attribute(options, &act);
    let (a_sides, d_sides) = (sheet.die(attr), target_sheet.die(attr));
    let t = fight.state().fighter(target);
    let def_weapon = attack::weapon_of(target_sheet, t, false, unarmed);
    let (actor, opponent) =
        attack::contest_terms(options, &act, attr, sheet, target_sheet, weapon, def_weapon, attacks, called.is_some());
    let (a_mod, d_mod, armour) = (actor.sum(), opponent.sum(), i32::from(opponent.0[2]));
    let terms = ContestTerms { actor, opponent, distance_dm: 0 };
    let (mut an, mut dn);
    let mut tries = 0;
    loop {
        an = die(fight, who, a_sides, "attack")?;
        dn = die(fight, target, d_sides, "defence")?;
        tries += 1;
        let margin = (i32::from(an) + a_mod) - (i32::from(dn) + d_mod);
        if !(options.tie_reroll && margin == 0 && tries < 100) {
            break;
        }
    }
    let roll = Roll { die: a_sides, natural: an, total: i32::from(an) + a_mod };
    let against = Roll { die: d_sides, natural: dn, total: i32::from(dn) + d_mod };
    let mut pending = None;
    let (margin, critical, fumbled) =
        contest_crits(fight, who, (an, a_sides), (dn, d_sides), roll.total - against.total, armour, &mut pending)?;
    let mut hit = margin > 0;
    if fumbled && options.fumble_forces_miss {
        hit = false;
    }
    log_contest(
        fight,
        who,
        Event::Contest {
            who,
            act,
            roll,
            against: Some(against),
            difficulty: None,
            terms,
            margin,
            success: hit,
            critical,
            declared,
        },
        pending,
        fumbled,
    )?;
    if hit {
        let face = match called {
            Some(part) => part.face(),
            None => die(fight, who, 10, "location")?,
        };
        hit_target(fight, ended, who, target, margin, face, called.is_some(), None, critical, HitKind::Melee, weapon)?;
    }
    Ok(())
}

/// A gun's damage roll (USR-RNG-8).
fn damage_roll<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    who: CombatantId,
    weapon: &Weapon,
) -> Result<i32, FightError> {
    let mut faces: List<u8, 8> = List::new();
    let reason = Reason::new(who, "damage").of(weapon.damage.dice);
    for _ in 0..weapon.damage.dice {
        faces.push(fight.roll(u32::from(weapon.damage.sides), reason)? as u8);
    }
    let total = weapon.damage.plus + faces.iter().map(|&f| i32::from(f)).sum::<i32>();
    if !faces.is_empty() {
        fight.emit(Event::DamageRoll { who, sides: weapon.damage.sides, faces, plus: weapon.damage.plus });
    }
    Ok(total)
}

/// An Other activity (USR-ACT-4/5): a contest with an opponent, or an unopposed roll.
fn other<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    who: CombatantId,
    act: Act,
    declared: bool,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let Act::Other { activity, target, difficulty } = act else { return Ok(()) };
    let sheet = &setup.combatants[who.index()];
    let attr = attack::contest_attribute(options, &act);
    let sides = sheet.die(attr);
    let unarmed = super::policy::unarmed();
    let actor = Terms::new([sheet.specialism_bonus_of(attr, attack::attacker_tags(&act, unarmed)), 0, 0, 0]);
    let a_mod = actor.sum();
    let Some(target) = target else {
        let natural = die(fight, who, sides, activity.name())?;
        let total = i32::from(natural) + a_mod;
        let mut pending = None;
        let (success, margin, critical, fumbled) =
            difficulty_crits(fight, who, natural, sides, total >= difficulty, total - difficulty, &mut pending)?;
        let roll = Roll { die: sides, natural, total };
        log_contest(
            fight,
            who,
            Event::Contest {
                who,
                act,
                roll,
                against: None,
                difficulty: Some(difficulty),
                terms: ContestTerms { actor, ..ContestTerms::default() },
                margin,
                success,
                critical,
                declared,
            },
            pending,
            fumbled,
        )?;
        return Ok(());
    };
    let target_sheet = &setup.combatants[target.index()];
    let d_sides = target_sheet.die(attr);
    let opponent = Terms::new([target_sheet.specialism_bonus_of(attr, attack::defender_tags(&act, unarmed)), 0, 0, 0]);
    let d_mod = opponent.sum();
    let (mut an, mut dn);
    let mut tries = 0;
    loop {
        an = die(fight, who, sides, activity.name())?;
        dn = die(fight, target, d_sides, "resist")?;
        tries += 1;
        if !(options.tie_reroll && i32::from(an) + a_mod == i32::from(dn) + d_mod && tries < 100) {
            break;
        }
    }
    let roll = Roll { die: sides, natural: an, total: i32::from(an) + a_mod };
    let against = Roll { die: d_sides, natural: dn, total: i32::from(dn) + d_mod };
    let mut pending = None;
    // A critical success (USR-CRIT-6), with no armour to ignore.
    let (margin, critical, fumbled) =
        contest_crits(fight, who, (an, sides), (dn, d_sides), roll.total - against.total, 0, &mut pending)?;
    let success = margin > 0 && !(fumbled && options.fumble_forces_miss);
    log_contest(
        fight,
        who,
        Event::Contest {
            who,
            act,
            roll,
            against: Some(against),
            difficulty: None,
            terms: ContestTerms { actor, opponent, distance_dm: 0 },
            margin,
            success,
            critical,
            declared,
        },
        pending,
        fumbled,
    )?;
    if success && options.other_damage {
        let face = die(fight, who, 10, "location")?;
        let activity = super::policy::activity_weapon();
        hit_target(fight, ended, who, target, margin, face, false, None, false, HitKind::Activity, activity)?;
    }
    Ok(())
}

/// A hit on `target` (USR-DMG-1): location, cover, armour, ward, HP, the KO tally, Second Wind,
/// Down.
#[allow(clippy::too_many_arguments, reason = "the hit's whole description")]
fn hit_target<D: Dice, P: Decider<HardBoiled>, S: Sink<Event>>(
    fight: F<'_, '_, D, P, S>,
    ended: &mut Ending,
    by: CombatantId,
    target: CombatantId,
    base: i32,
    face: u8,
    called: bool,
    weapon_damage: Option<i32>,
    critical: bool,
    kind: HitKind,
    weapon: &Weapon,
) -> Result<(), FightError> {
    let setup = fight.setup();
    let options = &setup.options;
    let turn = fight.state().turn;
    let o = attack::outcome(setup, fight.state(), target, base, face, critical, kind, weapon);
    let x = fight.state().fighter(target);
    let (was_out, was_able) = (x.out(options, turn), x.able(turn));
    let hp = x.hp - o.hp_loss;
    let tally = x.tally + if options.ko_hp_lost { o.hp_loss } else { o.recorded };
    fight.emit(Event::Hit {
        by,
        target,
        face,
        called,
        base,
        weapon_damage,
        cover_stopped: o.cover_stopped,
        stop: o.stop,
        ward: o.ward,
        critical,
        recorded: o.recorded,
        hp_loss: o.hp_loss,
        hp,
        tally,
    });
    if o.cover_stopped {
        return Ok(());
    }
    let max = fight.state().fighter(target).hp_max;
    // Knocked out (USR-TRACK-4..7).
    if !fight.state().fighter(target).knocked_out(turn) && tally >= attack::ko_threshold(options, max) && tally > 0 {
        let until = options.ko_turns.map_or(u32::MAX, |n| turn + n);
        fight.emit(Event::KnockedOut { who: target, until });
    }
    // Debilitating effects (USR-LOC-5). (`max` ≥ 1 makes ⌈max / 4⌉ ≥ 1, so `hp_loss > 0` only
    // spells it out: its `>` → `>=` mutant is equivalent, TESTING.md.)
    if options.debilitating && o.hp_loss > 0 && o.hp_loss >= (max + 3) / 4 {
        match Part::of(face) {
            Part::RightArm | Part::LeftArm if wields_weapon(setup, fight.state(), target) => {
                fight.emit(Event::Dropped { who: target })
            }
            Part::RightLeg | Part::LeftLeg if !fight.state().fighter(target).lame => {
                fight.emit(Event::Lamed { who: target })
            }
            _ => {}
        }
    }
    // The Second Wind window (USR-RES-6/7): struck by an enemy, not by a friend, and while in the
    // fight — the hit that drops one to 0 HP opens it, a hit on one already out does not.
    let x = fight.state().fighter(target);
    let by_enemy = setup.combatants[by.index()].side != setup.combatants[target.index()].side;
    let holder = by_enemy && !was_out && (!options.second_wind_heroes || setup.combatants[target.index()].hero);
    let struck = !options.second_wind_on_damage || o.hp_loss >= 1;
    if holder && struck && !x.second_wind_used && !x.knocked_out(turn) {
        let request = Request::SecondWind { hp: x.hp, max };
        if matches!(fight.decide(target, &request)?, Choice::Yes(true)) {
            let value = attack::second_wind(options, max);
            let x = fight.state().fighter(target);
            let hp = if options.second_wind_uncapped { x.hp + value } else { (x.hp + value).min(max.max(x.hp)) };
            fight.emit(Event::SecondWind { who: target, gained: hp - x.hp, hp, line: None });
        }
    }
    if fight.state().fighter(target).down() {
        fight.emit(Event::Down { who: target });
    }
    let x = fight.state().fighter(target);
    let (out, able) = (x.out(options, turn), x.able(turn));
    if !was_out && out {
        fight.emit(Event::Out { who: target });
    }
    // Only a change in the target's standing can end a fight that was going on before the hit.
    // (`out` and `able` change together but for a knock-out under `out_of_fight = down_only`,
    // which ends the fight only when no one at all is left able, the hitter included: in a
    // simultaneous step, whose end check waits for the step's end anyway, or after a game
    // master's adjustment put the hitter out mid-attack: the audit's `||` → `&&` differs only
    // there, `a_knock_out_that_leaves_no_one_able_ends_the_fight_at_once_under_down_only`.)
    if out != was_out || able != was_able {
        end_check(fight, ended, turn);
    }
    Ok(())
}

/// The AI's Second Wind policy (USR-RES-8).
pub(super) fn wants_second_wind(policy: SecondWindPolicy, hp: i32, max: i32) -> bool {
    match policy {
        SecondWindPolicy::HalfHp => 2 * hp <= max,
        SecondWindPolicy::FirstHit => true,
        SecondWindPolicy::WhenDown => hp <= 0,
        SecondWindPolicy::Never => false,
    }
}
