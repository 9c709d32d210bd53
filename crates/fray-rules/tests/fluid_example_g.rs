//! `fluid` worked example G (two assassins, seed lines 84–88), round 1 with scripted choices:
//! a tactics revision pass, simultaneous walks into reach, a switch to Full Defense as the first
//! step begins, Inferior +1 dice and the parries' counterattack bonuses.

mod common;

use fray_engine::{CombatantId, Decider, Fight, Pending, Pos, Record, Scripted};
use fray_rules::fluid::policy::ai_choice;
use fray_rules::fluid::{
    Choice, DeclaredAttack, Destination, Event, Fluid, Intent, MoveMode, Movement, Plan, Request, Setup, State,
    scenario,
};
use std::collections::VecDeque;

const P: CombatantId = CombatantId(0);
const A1: CombatantId = CombatantId(1);
const A2: CombatantId = CombatantId(2);

fn setup(sets: &[(&str, &str)]) -> Setup {
    let assassin = |id: &str, x: f64| {
        format!(
            "[[combatants]]\nid = \"{id}\"\nside = \"assassins\"\npc = 10\ntactics = 1\nstats = {{ BOD = 10 }}\nskills = {{ dagger = {{ value = 13, rank = 1 }}, dodge = {{ value = 12 }}, parry = {{ value = 11 }}, block = {{ value = 10 }} }}\nposition = {x:.1}\npolicy = {{ tactics = \"aggressive\", pain = \"never\" }}\n[[combatants.items]]\nid = \"dagger\"\nskill = \"dagger\"\ndamage = {{ w = 3 }}\nsizes = [2]\n"
        )
    };
    let text = format!(
        "[rules]\nruleset = \"fluid\"\n[[combatants]]\nid = \"p\"\nside = \"player\"\nplayer = true\npc = 14\ntactics = 2\nskills = {{ sword = {{ value = 13, rank = 2 }}, parry = {{ value = 12 }}, block = {{ value = 11 }}, dodge = {{ value = 11 }} }}\nposition = 0.0\n[[combatants.items]]\nid = \"sword\"\nskill = \"sword\"\ndamage = {{ w = 5 }}\ndq = 1\nsizes = [3]\n{}{}",
        assassin("a1", -4.0),
        assassin("a2", 4.0)
    );
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("example_g.toml", &text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

/// Each combatant's scripted answers, in order; a request whose kind does not match the next
/// answer goes to the AI.
struct PerCombatant(Vec<VecDeque<Choice>>);

impl Decider<Fluid> for PerCombatant {
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        let queue = &mut self.0[who.index()];
        let fits = matches!(
            (request, queue.front()),
            (Request::Tactics { .. }, Some(Choice::Split { .. }))
                | (Request::Declare { .. }, Some(Choice::Plan(_)))
                | (Request::Revise { .. }, Some(Choice::Revise(_)))
        );
        Ok(if fits { queue.pop_front().expect("checked") } else { ai_choice(setup, state, who, request) })
    }
}

fn walk_and_stab(to: f64, target: CombatantId) -> Choice {
    Choice::Plan(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(target, 0, Intent::Lethal)],
        movement: Some(Movement { mode: MoveMode::Walk, to: Destination::Point(Pos::new(to, 0.0)) }),
        ..Plan::default()
    })
}

fn stab(target: CombatantId) -> Choice {
    Choice::Plan(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(target, 0, Intent::Lethal)],
        ..Plan::default()
    })
}

/// Round 1's choices (each plan twice: the declaration and its revision pass, FLUID-ACT-1),
/// then `more` for each combatant.
fn script(more: [Vec<Choice>; 3]) -> PerCombatant {
    let p_plan = walk_and_stab(0.0, A1);
    let [p, a1, a2] = more;
    let round_one = [
        vec![
            Choice::Split { ot: 1, dt: 1 },
            Choice::Split { ot: 0, dt: 2 },
            p_plan.clone(),
            p_plan,
            Choice::Revise(Some(Plan { full_defense: true, ..Plan::default() })),
        ],
        vec![walk_and_stab(-0.5, P), walk_and_stab(-0.5, P)],
        vec![walk_and_stab(0.5, P), walk_and_stab(0.5, P)],
    ];
    PerCombatant(round_one.into_iter().zip([p, a1, a2]).map(|(r, m)| r.into_iter().chain(m).collect()).collect())
}

/// Round 1's faces: initiative P, A1, A2; A1's attack (Inferior +1: four dice), A2's.
const ROUND_ONE: [u32; 17] = [2, 3, 3, 5, 5, 4, 4, 4, 3, 6, 4, 2, 3, 6, 2, 2, 4];

#[track_caller]
fn run(setup: &Setup, script: PerCombatant, faces: &[u32]) -> Vec<Event> {
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    common::played_out(&fight.run());
    fight.into_parts().1.0
}

/// (attacker, edge, bonus, TN, natural, margin) of each attack.
fn attacks(log: &[Event]) -> Vec<(CombatantId, i32, i32, i32, i32, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Attack { attacker, check, roll, .. } => {
                Some((*attacker, check.edge, check.bonus, check.tn, roll.natural, roll.margin))
            }
            _ => None,
        })
        .collect()
}

fn round(log: &[Event], n: u32) -> &[Event] {
    let start = log.iter().position(|e| *e == Event::RoundStarted { round: n }).expect("round started");
    let end = log.iter().position(|e| *e == Event::RoundStarted { round: n + 1 }).unwrap_or(log.len());
    &log[start..end]
}

#[test]
fn example_g_round_one() {
    // rule: FLUID-TAC-3, FLUID-ACT-1, FLUID-ACT-6, FLUID-ACT-9, FLUID-ACT-10, FLUID-MOVE-8, FLUID-ATK-7
    let setup = setup(&[]);
    let log = run(&setup, script(Default::default()), &ROUND_ONE);
    let one = round(&log, 1);
    // P's split is revised in the pass after the assassins announce theirs.
    let splits: Vec<_> = one.iter().filter(|e| matches!(e, Event::TacticsSet { who: P, .. })).collect();
    assert_eq!(splits.last(), Some(&&Event::TacticsSet { who: P, ot: 0, dt: 2 }));
    // Simultaneous walks: both assassins 0.5 m from P before the first step, no Run check.
    assert!(one.contains(&Event::Order { order: smallvec::smallvec![A1, A2, P] }));
    let moved: Vec<_> = one
        .iter()
        .filter_map(|e| if let Event::Moved { who, to, .. } = e { Some((*who, to.x)) } else { None })
        .collect();
    assert_eq!(moved, vec![(A1, -0.5), (A2, 0.5), (P, 0.0)]);
    assert!(!one.iter().any(|e| matches!(e, Event::Check { .. })));
    // P switches to Full Defense as A1's step begins: one change, applied at once.
    let revised = one.iter().position(|e| matches!(e, Event::Revised { who: P, changes: 1, .. }));
    let first_step = one.iter().position(|e| *e == Event::Step { who: A1 });
    assert!(revised.is_some() && revised < first_step);
    // Inferior +1 (edge −1, four dice keep the lowest three), +5 against TN 13 + 2.
    assert_eq!(attacks(one), vec![(A1, -1, 5, 15, 9, -1), (A2, -1, 5, 15, 8, -2)]);
    // Both parried: counterattack bonuses +1 against A1 and +2 against A2, unused.
    let end_of_round = fray_engine::replay::<Fluid>(&setup, one);
    assert_eq!(end_of_round.fighters[0].counters.as_slice(), &[(A1, 1), (A2, 2)]);
    assert!(!one.iter().any(|e| matches!(e, Event::Damage { .. })));
}

#[test]
fn example_g_round_two_with_flanking_at_own_steps() {
    // rule: FLUID-ATK-9, FLUID-MOVE-8, FLUID-ATK-7, FLUID-TRACK-3
    // The seed's narration moves P only at his own step and gives A2 a flank bonus: under
    // `movement_timing = own_step` and `flank_bonus = 1` the engine derives both from positions.
    let setup = setup(&[("movement_timing", "own_step"), ("flank_bonus", "1")]);
    let p_two = walk_and_stab(-1.0, A1);
    let more = [
        vec![Choice::Split { ot: 0, dt: 2 }, Choice::Split { ot: 0, dt: 2 }, p_two.clone(), p_two],
        vec![stab(P), stab(P)],
        vec![stab(P), stab(P)],
    ];
    // Round 2: initiative P [3,3,3], A1 [2,2,3], A2 [5,4,4]; A2's attack, P's, A1's.
    let faces: Vec<u32> =
        ROUND_ONE.iter().copied().chain([3, 3, 3, 2, 2, 3, 5, 4, 4, 4, 4, 2, 4, 3, 3, 5, 4, 3]).collect();
    let log = run(&setup, script(more), &faces);
    // Round 1 at own steps: A1 walks in alone (no flank, +5, as above); A2 arrives with A1
    // already beside P, so A2 flanks (+6): still parried, and P's counter against A2 is +1.
    assert_eq!(attacks(round(&log, 1)), vec![(A1, -1, 5, 15, 9, -1), (A2, -1, 6, 15, 8, -1)]);
    let two = round(&log, 2);
    assert!(two.contains(&Event::Order { order: smallvec::smallvec![A2, P, A1] }));
    // A2 flanks (+6): 10 + 6 = 16 vs 15, margin +1 → 3 + 1 = 4W, P's W 14 → 10.
    // P walks to −1 and hits A1's Dodge (TN 12): 10 + 3 = 13, margin +1 → 6W, A1's W 10 → 4, CP −6.
    // A1, no longer flanking: +5 − 6 = −1: 12 − 1 = 11 vs 15, parried; P has acted, so no counter.
    assert_eq!(attacks(two), vec![(A2, 0, 6, 15, 10, 1), (P, 0, 3, 12, 10, 1), (A1, 0, -1, 15, 12, -4)]);
    let damage: Vec<_> = two
        .iter()
        .filter_map(|e| if let Event::Damage { by, target, w, .. } = e { Some((*by, *target, *w)) } else { None })
        .collect();
    assert_eq!(damage, vec![(A2, P, 4), (P, A1, 6)]);
    let end = log.iter().position(|e| *e == Event::RoundStarted { round: 3 }).unwrap_or(log.len());
    let state = fray_engine::replay::<Fluid>(&setup, &log[..end]);
    assert_eq!((state.fighters[0].w, state.fighters[1].w), (10, 4));
    assert!(!two.iter().any(|e| matches!(e, Event::Check { .. })));
    assert!(state.fighters[0].counters.is_empty());
}
