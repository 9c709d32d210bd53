//! Odds in context: the exact chance that an attack hits a defender (the attacker's default
//! attack at the start of the fight for `fray odds --scenario`, any attack in the current state
//! for a person's prompt), its damage distribution, and the chance that one such hit takes the
//! defender down — computed with the fight's own functions (policies, check, armour).

use super::attack::{attack_check, defence_options, defence_tn, hit_damage, named_defence, target_side};
use super::policy::{ai_choice, tries_pain_check};
use super::run::declare_request;
use super::setup::{Amount, BOD, NER};
use super::{Choice, Event, Fluid, Intent, Request, condition_penalty};
use crate::AttackOdds;
use fray_dice::{BigRational, Options as DiceOptions};
use fray_engine::{CombatantId, Ruleset};
use std::collections::BTreeMap;

fn one() -> BigRational {
    BigRational::from_integer(1.into())
}

fn zero() -> BigRational {
    BigRational::from_integer(0.into())
}

fn distribution(amount: &Amount) -> Vec<(i32, BigRational)> {
    match amount {
        Amount::Fixed(v) => vec![(*v, BigRational::from_integer(1.into()))],
        Amount::Dice(program) => program
            .distribution(&DiceOptions::default())
            .map(|d| d.outcomes().filter_map(|(v, p)| v.as_int().map(|v| (v as i32, p))).collect())
            .unwrap_or_default(),
    }
}

/// The odds of `attacker`'s default attack on `defender` at the start of the fight.
pub fn attack_odds(setup: &super::Setup, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
    attack_odds_at(setup, attacker, defender, None)
}

/// The odds of `attacker`'s default attack on `defender` at the start of the fight; with
/// `distance` (metres), as if the attacker stood that far from the defender, moved along the line
/// between them (along +x when they share a point). A given distance replaces the opening
/// approach: the attacker declares from there and attacks without moving this round (no move,
/// no charge, no movement penalty); a melee weapon out of reach from there is an error.
pub fn attack_odds_at(
    setup: &super::Setup,
    attacker: &str,
    defender: &str,
    distance: Option<f64>,
) -> Result<AttackOdds, String> {
    let find = |name: &str| crate::find_combatant(setup.combatants.iter().map(|c| c.id.as_str()), name);
    let (a, d) = (find(attacker)?, find(defender)?);
    if setup.combatants[a.index()].side == setup.combatants[d.index()].side {
        return Err(format!("`{attacker}` and `{defender}` are on the same side"));
    }
    // Round 1 as the fight opens it: tactics as the policies split them, NPCs first, then players,
    // then the revision passes (FLUID-TAC-3); every able combatant's declaration and the
    // declaration revision passes as the AI takes them (FLUID-ACT-1) — so a defender's Full
    // Defense counts.
    let mut state = Fluid::initial_state(setup);
    let from = state.distance(a, d);
    if let Some(distance) = distance {
        let distance = crate::check_distance(distance, crate::MAX_ODDS_DISTANCE, "m")?;
        let to = crate::placed(state.fighter(d).pos, state.fighter(a).pos, distance);
        state.fighters[a.index()].pos = to;
    }
    Fluid::apply(setup, &mut state, &Event::RoundStarted { round: 1 });
    let ids = || (0..setup.combatants.len()).map(|i| CombatantId(i as u16));
    let split = |state: &mut super::State, who: CombatantId| {
        let tactics = setup.combatants[who.index()].tactics;
        if let Choice::Split { ot, dt } = ai_choice(setup, state, who, &Request::Tactics { tactics }) {
            Fluid::apply(setup, state, &Event::TacticsSet { who, ot, dt });
        }
    };
    for players in [false, true] {
        for who in ids().filter(|w| setup.combatants[w.index()].player == players) {
            if state.fighter(who).able() {
                split(&mut state, who);
            }
        }
    }
    for _ in 0..setup.options.tactics_passes {
        for who in ids() {
            if state.fighter(who).able() {
                split(&mut state, who);
            }
        }
    }
    // The attacker's declaration is its policy's, aimed at the defender: weapon, fire mode,
    // intent, number of attacks, any move to close in; then the revision passes, where an AI
    // that takes them (a `safe` thrower, who sees the moves its allies declared after it) may
    // change its plan (FLUID-ACT-1).
    let mut plan_of_a = None;
    let mut first_of_a = None;
    for pass in 0..=setup.options.declare_passes {
        for who in ids() {
            if !state.fighter(who).able()
                || (pass > 0 && super::policy::ai_passes(setup, who, &Request::declare_kind()))
            {
                continue;
            }
            let mut request = declare_request(setup, &state, who);
            if who == a
                && let Request::Declare { options, .. } = &mut request
            {
                options.retain(|(t, _)| *t == d);
                if options.is_empty() {
                    return Err(format!("`{defender}` is not within reach of any of `{attacker}`'s weapons"));
                }
            }
            if let Choice::Plan(mut plan) = ai_choice(setup, &state, who, &request) {
                if who == a && distance.is_some() {
                    // The distance asked for is the one the attack is made from: no approach.
                    plan.movement = None;
                }
                if pass > 0 && state.fighter(who).plan == plan {
                    continue;
                }
                if who == a {
                    first_of_a.get_or_insert_with(|| plan.clone());
                    plan_of_a = Some(plan.clone());
                }
                Fluid::apply(setup, &mut state, &Event::Declared { who, plan });
            }
        }
    }
    let plan = plan_of_a.ok_or_else(|| format!("`{attacker}` cannot act"))?;
    if plan.full_defense {
        return Err(format!("`{attacker}`'s policy is Full Defense: it does not attack"));
    }
    let Some(attack) = plan.attacks.iter().find(|x| x.target == d).copied() else {
        return Err(format!("`{attacker}`'s policies declare no attack on `{defender}`"));
    };
    // A declared move covers Move × multiplier + its Run check's margin (FLUID-MOVE-2): the odds
    // are the mixture over where the movers arrive, each place weighted by the margins that bring
    // it there; a melee attack out of reach after a short run is not made. Under simultaneous
    // movement (FLUID-MOVE-8) every mover moves before the first step, the attacker, the
    // defender and anyone else, as the fight moves them: those going to a point first, then those
    // closing on someone (in roster order here, where the fight takes initiative order); at one's
    // own step only the attacker has moved when it attacks.
    let movers: Vec<CombatantId> = if distance.is_some() {
        // The moment asked for: everyone where the file puts them, the attacker at the distance.
        Vec::new()
    } else if setup.options.movement_simultaneous {
        let plan_of = |w: CombatantId| state.fighter(w).plan.movement.filter(|_| state.fighter(w).able());
        let (to_point, toward): (Vec<CombatantId>, Vec<CombatantId>) = ids()
            .filter(|&w| plan_of(w).is_some())
            .partition(|&w| plan_of(w).is_some_and(|m| !matches!(m.to, super::Destination::Toward(_))));
        to_point.into_iter().chain(toward).collect()
    } else {
        ids().filter(|&w| w == a && state.fighter(w).plan.movement.is_some()).collect()
    };
    let mut arrivals: Vec<(super::State, BigRational)> = vec![(state.clone(), one())];
    let mut moving = None;
    let mut others_moving: Vec<CombatantId> = Vec::new();
    for &m in &movers {
        let Some(movement) = state.fighter(m).plan.movement else { continue };
        let full = setup.combatants[m.index()].move_m * f64::from(movement.mode.multiplier());
        // Every Run check is rolled before anyone moves.
        let margins = if movement.mode.runs() { run_margins(setup, &state, m) } else { vec![(0, one())] };
        let mut next: Vec<(super::State, BigRational)> = Vec::new();
        for (from, p_from) in &arrivals {
            for (margin, p) in &margins {
                let mut arrived = from.clone();
                let moved = super::run::moved(setup, from, m, movement, (full + f64::from(*margin)).max(0.0));
                Fluid::apply(setup, &mut arrived, &moved);
                let p = p_from * p;
                match next.iter_mut().find(|(s, _)| *s == arrived) {
                    Some((_, q)) => *q += p,
                    None => next.push((arrived, p)),
                }
            }
        }
        arrivals = next;
        if m == a {
            moving = Some(movement.mode);
        } else {
            others_moving.push(m);
        }
    }
    let item = attack.weapon();
    let kind = setup.combatants[a.index()].items[item].kind;
    // A melee attack needs reach; a blast reaches a defender within its bands (FLUID-SPECIAL-1).
    let reaches = |state: &super::State| match kind {
        super::setup::ItemKind::Melee => state.distance(a, d) <= setup.options.reach_m + 1e-9,
        super::setup::ItemKind::Area => blast_edge(setup, state, a, d, item).is_some(),
        _ => true,
    };
    // The place the attack is most likely made from, for the distance and the assumptions.
    let likeliest = arrivals.iter().filter(|(s, _)| reaches(s)).max_by(|x, y| x.1.cmp(&y.1)).map(|(s, _)| s.clone());
    let Some(state) = likeliest else {
        if distance.is_some() {
            return Err(format!(
                "`{attacker}`'s {} does not reach `{defender}` from {} (melee reach {}, FLUID-MOVE-10)",
                setup.combatants[a.index()].items[item].id,
                crate::distance_text(state.distance(a, d), "m"),
                crate::distance_text(setup.options.reach_m, "m")
            ));
        }
        return Err(format!("`{attacker}` does not reach `{defender}` this round"));
    };
    let declared = super::run::declared_actions(setup, &state, a);
    let fire = Fire { rounds: u32::from(attack.rounds.max(1)), spray: attack.spray };
    let each =
        |odds: fn(&super::Setup, &super::State, CombatantId, CombatantId, usize, i32, Intent, Fire) -> AttackOdds| {
            let parts = arrivals.iter().map(|(s, p)| {
                (p.clone(), reaches(s).then(|| odds(setup, s, a, d, item, declared, attack.intent, fire)))
            });
            mixed(parts.collect(), &state, a, d)
        };
    let mut odds = each(odds_in_state);
    // The roll alone, for a person who decides the sunder themselves.
    let alone = each(roll_odds_in_state);
    if alone.hit != odds.hit || alone.down != odds.down {
        odds.assumptions.push(format!(
            "the roll alone, every hit doing its damage: hit {}, takes {defender} out {}",
            fray_dice::fraction(&alone.hit),
            fray_dice::fraction(&alone.down)
        ));
    }
    // A person who controls the defender chooses his defence (FLUID-DEF-4): the odds of each other
    // legal defence, where his AI chooses one.
    for (label, skill_item) in other_defences(setup, &state, a, d, item) {
        let parts = arrivals.iter().map(|(s, p)| {
            let odds = odds_played(setup, s, a, d, item, declared, attack.intent, fire, true, Some(skill_item));
            (p.clone(), reaches(s).then_some(odds))
        });
        let other = mixed(parts.collect(), &state, a, d);
        if other.hit != odds.hit || other.down != odds.down {
            odds.assumptions.push(format!(
                "if {defender} uses {label} instead (a person controlling him decides): hit {}, takes {defender} out {}",
                fray_dice::fraction(&other.hit),
                fray_dice::fraction(&other.down)
            ));
        }
    }
    if let Some(first) = first_of_a.filter(|first| *first != plan) {
        let items = |plan: &super::Plan| {
            let names: Vec<&str> =
                plan.attacks.iter().map(|x| setup.combatants[a.index()].items[x.weapon()].id.as_str()).collect();
            if names.is_empty() { "no attack".to_owned() } else { names.join(", ") }
        };
        odds.assumptions.push(format!(
            "{attacker} first declares {}, then changes its plan to {} in a revision pass, having seen the others' \
             declarations (FLUID-ACT-1)",
            items(&first),
            items(&plan)
        ));
    }
    if distance.is_some() {
        odds.assumptions.insert(
            0,
            format!(
                "{attacker} stands {} from {defender} ({} in the file), moved along the line between them; \
                 no approach this round, everyone else where the file puts them",
                crate::distance_text(state.distance(a, d), "m"),
                crate::distance_text(from, "m")
            ),
        );
    }
    if !others_moving.is_empty() {
        let names: Vec<&str> = others_moving.iter().map(|m| setup.combatants[m.index()].id.as_str()).collect();
        odds.assumptions.push(format!(
            "{} move{} before the attack too (simultaneous movement, FLUID-MOVE-8): the odds are those over where \
             everyone arrives, {defender} most likely {:.1} m from {attacker}",
            names.join(", "),
            if names.len() == 1 { "s" } else { "" },
            state.distance(a, d)
        ));
    }
    if let Some(mode) = moving {
        let made: BigRational = arrivals.iter().filter(|(s, _)| reaches(s)).map(|(_, p)| p.clone()).sum();
        let short = if made == one() {
            String::new()
        } else {
            format!(
                "; its Run check falls short of {defender}'s reach with probability {}",
                fray_dice::fraction(&(one() - &made))
            )
        };
        odds.assumptions.push(format!(
            "{attacker} first moves ({mode:?}, most likely to {:.1} m from {defender}{short}: the odds are those over where it arrives, FLUID-MOVE-2)",
            state.distance(a, d)
        ));
    }
    Ok(odds)
}

/// The margins of `a`'s Run check in `state` and their probabilities, as the fight rolls it: its
/// Run skill, the multi-action penalty, plan changes and the pain check its policy tries
/// (FLUID-MOVE-2, FLUID-TRACK-4).
fn run_margins(setup: &super::Setup, state: &super::State, a: CombatantId) -> Vec<(i32, BigRational)> {
    let sheet = &setup.combatants[a.index()];
    let multi = super::attack::multi_action_penalty(setup, super::run::declared_actions(setup, state, a));
    let base = sheet.skill_value("run", &setup.options) - 10 + multi - state.fighter(a).changes;
    let cp = condition_penalty(setup, state, a);
    let pains: Vec<(i32, BigRational)> = if cp < 0 && tries_pain_check(setup, a, cp) {
        let ner = super::check::Check { edge: 0, bonus: sheet.bonus(NER) + cp, tn: 10 };
        ner.margin_distribution(&setup.options).into_iter().map(|(m, p)| (if m >= 0 { 0 } else { cp + m }, p)).collect()
    } else {
        vec![(cp, one())]
    };
    let mut margins: BTreeMap<i32, BigRational> = BTreeMap::new();
    for (pain, p_pain) in pains {
        let check = super::check::Check { edge: 0, bonus: base + pain, tn: 10 };
        for (margin, p) in check.margin_distribution(&setup.options) {
            *margins.entry(margin).or_insert_with(zero) += &p_pain * p;
        }
    }
    margins.into_iter().collect()
}

/// The odds of one attack made from one of several places, each with its probability: `None`
/// where the attack cannot be made (it then neither hits nor takes anyone out). The assumptions
/// are those of the attack from `state`, the likeliest place it is made from.
fn mixed(
    parts: Vec<(BigRational, Option<AttackOdds>)>,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
) -> AttackOdds {
    let mut made = parts.iter().filter_map(|(p, o)| o.as_ref().map(|o| (p, o)));
    let Some((_, first)) = made.clone().find(|(_, o)| o.distance == Some(state.distance(a, d))).or(made.next()) else {
        unreachable!("an attack made from somewhere")
    };
    if parts.len() == 1 {
        return first.clone();
    }
    let mut odds = first.clone();
    let (mut hit, mut down) = (zero(), zero());
    let mut outcomes: Vec<crate::HitOutcome> = Vec::new();
    for (p, o) in parts.iter().filter_map(|(p, o)| o.as_ref().map(|o| (p, o))) {
        hit += p * &o.hit;
        down += p * &o.down;
        for (label, parts_of, q) in &o.damage_given_hit {
            let weight = p * &o.hit * q;
            match outcomes.iter_mut().find(|x| &x.0 == label) {
                Some(x) => x.2 += weight,
                None => outcomes.push((label.clone(), parts_of.clone(), weight)),
            }
        }
    }
    if hit != zero() {
        for x in &mut outcomes {
            x.2 = &x.2 / &hit;
        }
    }
    odds.damage_given_hit = if hit == zero() { Vec::new() } else { outcomes };
    odds.down_given_hit = if hit == zero() { zero() } else { &down / &hit };
    odds.hit = hit;
    odds.down = down;
    odds
}

/// How an attack fires: `rounds` at once as one burst, or as a spray of separate shots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fire {
    /// Rounds fired.
    pub rounds: u32,
    /// A spray: each round its own roll (the odds are those of one shot).
    pub spray: bool,
}

impl Fire {
    /// A single attack.
    pub const SINGLE: Fire = Fire { rounds: 1, spray: false };
}

/// The exact odds of one attack of `a` on `d` with `item` in `state`, `declared` attacks having
/// been declared: the defender's policy picks its defence; the pain check, if `a` is hurt, is a
/// mixture over its margins; the target's side (interference, Superior against the helpless,
/// Inferior against Full Defense, a projectile's edge) comes from the fight's own rule code, as do
/// this round's movement penalties, a charge's bonus, plan changes and a hidden attacker's
/// unawareness (FLUID-MOVE-4..6, FLUID-ACT-6, FLUID-ATK-10). An ally's guard is not, nor an
/// ally shielding a helpless target's body (FLUID-DEF-14, -15). A burst
/// takes its recoil and multiplies its successes (FLUID-SPECIAL-5, -6); a spray's odds are those
/// of one of its shots (FLUID-SPECIAL-8); an area weapon's are those of the victim at the blast
/// point, with the band's edge (FLUID-SPECIAL-2).
///
/// The odds follow the attacker's AI through the decisions after the defence is known: a Blocked
/// attack its `sunder` policy puts into the blocking item does no damage to the target
/// (FLUID-SUNDER-7, FLUID-ATK-11). [`roll_odds_in_state`] gives the roll alone, for a person who
/// decides that.
#[allow(clippy::too_many_arguments, reason = "the attack as declared")]
pub fn odds_in_state(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
    declared: i32,
    intent: Intent,
    fire: Fire,
) -> AttackOdds {
    odds_played(setup, state, a, d, item, declared, intent, fire, true, None)
}

/// [`odds_in_state`] for the roll alone: every hit does its damage, whatever the attacker's
/// `sunder` policy would make of a Block — the odds for a person who decides that.
#[allow(clippy::too_many_arguments, reason = "the attack as declared")]
pub fn roll_odds_in_state(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
    declared: i32,
    intent: Intent,
    fire: Fire,
) -> AttackOdds {
    odds_played(setup, state, a, d, item, declared, intent, fire, false, None)
}

/// The edge of `a`'s area attack with `item` on `d`, from `d`'s band off the blast point as the
/// fight measures it: the point `a` declared (FLUID-SPECIAL-4), which stays where it was put while
/// `d` moves, else where `d` stands; `None` when `d` is beyond the blast (FLUID-SPECIAL-1, -2).
fn blast_edge(setup: &super::Setup, state: &super::State, a: CombatantId, d: CombatantId, item: usize) -> Option<i32> {
    let declared = state.fighter(a).plan.attacks.iter().find(|x| x.target == d && x.weapon() == item).copied();
    let attack = declared.unwrap_or(super::DeclaredAttack::single(d, item as u8, Intent::Lethal));
    let blast = super::run::blast_point(setup, state, &attack);
    let band = super::attack::band(setup, state.fighter(d).pos.distance(blast));
    super::attack::area_edge(setup.combatants[a.index()].items[item].blast_band, band)
}

/// The legal defences of `d` against `a`'s attack with `item` in `state`: against a blast, Dodge
/// or a shield's Block (FLUID-SPECIAL-3).
fn legal_defences(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
) -> super::List<super::DefenceOption, 8> {
    if setup.combatants[a.index()].items[item].kind == super::setup::ItemKind::Area {
        super::attack::area_defence_options(setup, state, d)
    } else {
        defence_options(setup, state, a, item, d)
    }
}

/// The legal defences of `d` against `a`'s attack with `item` in `state` other than the one his
/// AI chooses, each labelled ("parry with sword"): none when he does not choose one there (he
/// cannot defend, is unaware of a hidden attacker, or names his defence for the round).
fn other_defences(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
) -> Vec<(String, (super::DefenceSkill, Option<u8>))> {
    if !state.fighter(d).defends(&setup.options) || state.fighter(a).hidden || setup.options.defense_per_round {
        return Vec::new();
    }
    let defences = legal_defences(setup, state, a, d, item);
    let chosen = match ai_choice(setup, state, d, &Request::Defend { attacker: a, options: defences.clone() }) {
        Choice::Defence(Some(i)) => Some((defences[i].skill, defences[i].item)),
        _ => None,
    };
    defences
        .iter()
        .filter(|o| Some((o.skill, o.item)) != chosen)
        .map(|o| (defence_label(setup, d, o), (o.skill, o.item)))
        .collect()
}

/// A defence as the assumptions name it: "dodge", "parry with long_sword", "unarmed block".
fn defence_label(setup: &super::Setup, d: CombatantId, o: &super::DefenceOption) -> String {
    let name = format!("{:?}", o.skill).to_lowercase();
    match o.item {
        Some(i) => format!("{name} with {}", setup.combatants[d.index()].items[usize::from(i)].id),
        None if o.skill == super::DefenceSkill::Dodge => name,
        None => format!("unarmed {name}"),
    }
}

/// Whether `a`'s AI makes its attack with `item` on `d`, met by `defence`, a sunder attack: the
/// fight's own questions ([`super::run::sunder_request`]), answered by the AI.
fn ai_sunders(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
    defence: Option<super::DefenceOption>,
) -> bool {
    let yes = |request: &Request| ai_choice(setup, state, a, request) == Choice::Sunder(true);
    match super::run::sunder_request(setup, a, item, d, defence) {
        super::run::SunderAsk::Named => super::run::named_sunder_request(setup, a, item, d).is_some_and(|r| yes(&r)),
        super::run::SunderAsk::Ask(block) => yes(&Request::SunderAttack { target: d, weapon: item as u8, block }),
        super::run::SunderAsk::No => false,
    }
}

#[allow(clippy::too_many_arguments, reason = "the attack as declared")]
fn odds_played(
    setup: &super::Setup,
    state: &super::State,
    a: CombatantId,
    d: CombatantId,
    item: usize,
    declared: i32,
    intent: Intent,
    fire: Fire,
    as_played: bool,
    forced: Option<(super::DefenceSkill, Option<u8>)>,
) -> AttackOdds {
    let (attacker, defender) = (&setup.combatants[a.index()].id, &setup.combatants[d.index()].id);
    // The defender's choice of defence (FLUID-DEF-4); against a blast, Dodge or a shield's
    // Block (FLUID-SPECIAL-3).
    let weapon_item = &setup.combatants[a.index()].items[item];
    let area = weapon_item.kind == super::setup::ItemKind::Area;
    let defences = legal_defences(setup, state, a, d, item);
    let dt = state.fighter(d).dt;
    let defends = state.fighter(d).defends(&setup.options);
    // A target unaware of a hidden attacker does not defend (FLUID-ATK-10).
    let unaware = state.fighter(a).hidden;
    let defence = if !defends || unaware || defences.is_empty() {
        None
    } else if let Some(o) = forced.and_then(|f| defences.iter().find(|o| (o.skill, o.item) == f)) {
        // Another legal defence than the AI's, as a person controlling the defender may choose.
        Some(*o)
    } else if setup.options.defense_per_round {
        // The defence named for the round (FLUID-DEF-4).
        named_defence(setup, state, d, &defences)
    } else {
        match ai_choice(setup, state, d, &Request::Defend { attacker: a, options: defences.clone() }) {
            Choice::Defence(Some(i)) => Some(defences[i]),
            _ => None,
        }
    };
    let base_tn = if unaware {
        10 + if setup.options.unaware_dt { dt } else { 0 }
    } else if defends {
        defence_tn(setup, state, d, defence)
    } else {
        10
    };
    // A blast has its band's edge and Full Defense's, and none of a single attack's target side
    // (as the fight resolves it, FLUID-SPECIAL-2).
    let (tn, edge) = if area {
        let band = blast_edge(setup, state, a, d, item).unwrap_or(0);
        (base_tn, band - i32::from(state.fighter(d).full_defense))
    } else {
        target_side(setup, state, a, item, d, defence, base_tn, false)
    };
    // A Blocked attack the attacker puts into the blocking item (FLUID-SUNDER-7).
    let sunder_rule = !area && ai_sunders(setup, state, a, d, item, defence);
    let sunder = as_played && sunder_rule;
    let recoil = super::attack::recoil_penalty(weapon_item, fire.rounds);
    let ranged = matches!(weapon_item.kind, super::setup::ItemKind::Ranged | super::setup::ItemKind::Area);
    let movement = super::attack::movement_penalty(state, &setup.options, a, d, ranged);
    let changes = -state.fighter(a).changes;
    let charge = match state.fighter(a).charge {
        Some((t, bonus)) if t == d && !ranged => bonus,
        _ => 0,
    };
    let multiplier = if fire.spray { 1 } else { fire.rounds.max(1) as i32 };
    // The pain check, if the attacker starts hurt (FLUID-TRACK-4): a mixture over its margins.
    let sheet = &setup.combatants[a.index()];
    let cp = condition_penalty(setup, state, a);
    let one = BigRational::from_integer(1.into());
    let pains: Vec<(i32, BigRational)> = if cp < 0 && tries_pain_check(setup, a, cp) {
        let ner = super::check::Check { edge: 0, bonus: sheet.bonus(NER) + cp, tn: 10 };
        ner.margin_distribution(&setup.options).into_iter().map(|(m, p)| (if m >= 0 { 0 } else { cp + m }, p)).collect()
    } else {
        vec![(cp, one.clone())]
    };
    let (base_w, base_s) = (distribution(&sheet.items[item].damage_w), distribution(&sheet.items[item].damage_s));
    let target = &setup.combatants[d.index()];
    let target_state = state.fighter(d);
    let mut hit = zero();
    let mut down = zero();
    let mut damage: BTreeMap<(i32, i32), BigRational> = BTreeMap::new();
    for (pain, p_pain) in &pains {
        let situation = super::attack::Situation { pain: *pain, changes, recoil, movement };
        let (check, _) = attack_check(setup, state, a, item, d, defence, tn, edge, declared, situation);
        for (margin, p_margin) in check.margin_distribution(&setup.options) {
            if margin < 0 {
                continue;
            }
            let p = p_pain * &p_margin;
            hit += &p;
            for (bw, pw) in &base_w {
                for (bs, ps) in &base_s {
                    let p = &p * pw * ps;
                    let (hw, hs) = if sunder {
                        // All of it into the blocking item: none to the target (FLUID-SUNDER-7).
                        (0, 0)
                    } else {
                        let h = hit_damage(
                            setup,
                            state,
                            a,
                            item,
                            d,
                            intent,
                            defence,
                            margin * multiplier,
                            (*bw, charge),
                            *bs,
                        );
                        (h.w, h.s)
                    };
                    let (w_after, s_after) = (target_state.w - hw, target_state.s - hs);
                    // Out as `Fighter::out` says: S ≤ 0 is no condition of its own under
                    // `stress_zero = stunned_gate` (FLUID-TRACK-9).
                    let dead = w_after <= -target.stats[BOD];
                    let unconscious = s_after <= 0 && !setup.options.stress_zero_gate;
                    let out = match setup.options.side_out_when {
                        super::options::SideOutWhen::Dead => dead,
                        super::options::SideOutWhen::Incapacitated => dead || w_after <= 0 || unconscious,
                    };
                    if out {
                        down += &p;
                    }
                    *damage.entry((hw, hs)).or_insert_with(zero) += p;
                }
            }
        }
    }
    let weapon = &sheet.items[item].id;
    let mut assumptions = vec![
        format!(
            "{attacker} ({}), oT {}, attacks {defender} with {weapon}, {}, {declared} attack(s) declared",
            sheet.policy.name(0),
            state.fighter(a).ot,
            if intent == Intent::Lethal { "lethal" } else { "stunning" }
        ),
        match defence {
            Some(o) => format!("{defender} uses {} at TN {} + dT {dt} = {base_tn}", defence_label(setup, d, &o), o.tn),
            None if defends => format!("{defender} does not defend: TN 10 + dT {dt} = {base_tn}"),
            None => format!("{defender} cannot defend: TN {base_tn}"),
        },
    ];
    if fire.rounds >= 2 {
        assumptions.push(if fire.spray {
            format!("one shot of a {}-round spray at {recoil:+}", fire.rounds)
        } else {
            format!("a {}-round burst at {recoil:+}, its successes × {}", fire.rounds, fire.rounds)
        });
    }
    if tn != base_tn {
        assumptions.push(format!("TN {tn} after the target's situation (interference, a far shot at the helpless)"));
    }
    if edge != 0 {
        assumptions.push(format!("edge {edge:+} ({})", if edge > 0 { "Superior" } else { "Inferior" }));
    }
    if cp < 0 {
        assumptions.push(format!("{attacker} starts with CP {cp} (pain policy: {})", sheet.policy.name(4)));
    }
    if sunder_rule {
        assumptions.push(if as_played {
            format!(
                "as {attacker}'s AI plays it (sunder = {}): a hit on the Block goes into the blocking item, no damage \
                 to {defender} (FLUID-SUNDER-7)",
                sheet.policy.name(5)
            )
        } else {
            format!(
                "the roll alone: every hit does its damage, whatever {attacker}'s sunder policy would make of the Block"
            )
        });
    }
    let damage_given_hit = if hit == zero() {
        Vec::new()
    } else {
        damage
            .into_iter()
            .map(|((w, s), p)| (format!("{w}W {s}S"), vec![("W".to_owned(), w), ("S".to_owned(), s)], p / &hit))
            .collect()
    };
    let down_given_hit = if hit == zero() { zero() } else { &down / &hit };
    let damage_heading = "damage after armour, given a hit".to_owned();
    AttackOdds {
        distance: Some(state.distance(a, d)),
        distance_unit: "m",
        assumptions,
        hit,
        damage_heading,
        damage_given_hit,
        down_given_hit,
        down,
        residual: zero(),
        residual_note: String::new(),
    }
}
