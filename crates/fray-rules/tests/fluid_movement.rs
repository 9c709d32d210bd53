//! `fluid` movement: Run checks, distances, timing, approach, penalties, charges (example H),
//! range bands and flanking.

mod common;

use fray_engine::{CombatantId, Fight, Pos, Record, Scripted};
use fray_rules::fluid::attack::band;
use fray_rules::fluid::{
    Choice, DeclaredAttack, Destination, Event, Fluid, Intent, MoveMode, Movement, Plan, Setup, policy, scenario,
};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

/// A at 0 with a sword (and a pistol), B at `distance` with Dodge 10; Move 4, Run skill 10.
fn field(distance: f64, extra: &str) -> Setup {
    let text = format!(
        r#"
[rules]
ruleset = "fluid"
[[combatants]]
id = "a"
side = "one"
pc = 40
skills = {{ sword = {{ value = 12, rank = 3 }}, pistol = {{ value = 12 }}, run = {{ value = 10 }} }}
position = 0.0
[[combatants.items]]
id = "sword"
skill = "sword"
damage = {{ w = 6 }}
[[combatants.items]]
id = "pistol"
kind = "ranged"
skill = "pistol"
damage = {{ w = 3 }}
[[combatants]]
id = "b"
side = "two"
pc = 40
skills = {{ dodge = {{ value = 10 }}, run = {{ value = 10 }} }}
position = {distance}
{extra}
"#
    );
    scenario::load("field.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// A's plan: one attack on B per listed item, and a move.
fn plan(items: &[u8], movement: Option<Movement>) -> Choice {
    let attacks = items.iter().map(|&item| DeclaredAttack::single(B, item, Intent::Lethal)).collect();
    Choice::Plan(Plan { attacks, full_defense: false, movement, ..Plan::default() })
}

#[track_caller]
fn run(setup: &Setup, faces: &[u32], a_plan: Choice, b_plan: Choice) -> Vec<Event> {
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        a_plan,
        b_plan,
        Choice::Defence(Some(0)),
        Choice::Defence(Some(0)),
        Choice::Defence(Some(0)),
        Choice::Defence(Some(0)),
    ];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    // Round 1 only: the round the test scripts.
    let setup = &Setup { max_rounds: 1, ..setup.clone() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), decider, Record::default());
    fight.run().unwrap();
    fight.into_parts().1.0
}

/// (who, how, metres covered, charge earned) of every move.
type MoveRecord = (CombatantId, MoveMode, f64, Option<(CombatantId, i32)>);

fn moves(log: &[Event]) -> Vec<MoveRecord> {
    log.iter()
        .filter_map(|e| match e {
            Event::Moved { who, mode, from, to, charge } => {
                Some((*who, *mode, (from.distance(*to) * 100.0).round() / 100.0, *charge))
            }
            _ => None,
        })
        .collect()
}

fn bonuses(log: &[Event]) -> Vec<i32> {
    log.iter().filter_map(|e| if let Event::Attack { check, .. } = e { Some(check.bonus) } else { None }).collect()
}

fn toward(mode: MoveMode) -> Option<Movement> {
    Some(Movement { mode, to: Destination::Toward(B) })
}

fn none() -> Choice {
    Choice::Plan(Plan::default())
}

#[test]
fn walking_covers_move_and_running_needs_a_check() {
    // rule: FLUID-MOVE-1, FLUID-MOVE-2, FLUID-MOVE-3, FLUID-MOVE-11
    // A walks 4 m towards B (10 m away): no check.
    let setup = field(10.0, "");
    let log = run(&setup, &[6, 6, 6, 1, 1, 1], plan(&[], toward(MoveMode::Walk)), none());
    assert_eq!(moves(&log), vec![(A, MoveMode::Walk, 4.0, None)]);
    assert!(!log.iter().any(|e| matches!(e, Event::RunCheck { .. })));
    // A runs (×3): Run check 4,4,4 = 12 vs 10: +2 m → 14 m, but it stops 1 m short of B: 9 m.
    let log = run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4], plan(&[], toward(MoveMode::Run)), none());
    assert_eq!(moves(&log), vec![(A, MoveMode::Run, 9.0, None)]);
    // Against a point 20 m off: run 12 + margin −3 (natural 7) = 9 m.
    let far = Some(Movement { mode: MoveMode::Run, to: Destination::Point(Pos::new(-20.0, 0.0)) });
    let log = run(&setup, &[6, 6, 6, 1, 1, 1, 2, 2, 3], plan(&[], far), none());
    assert_eq!(moves(&log), vec![(A, MoveMode::Run, 9.0, None)]);
}

#[test]
fn movement_is_simultaneous_or_at_ones_step() {
    // rule: FLUID-MOVE-8, FLUID-DICE-10
    // B (first in initiative) walks away; A walks towards B and attacks. Simultaneously, all
    // moves come before the first step; under `own_step`, at each mover's step.
    let setup = field(6.0, "");
    let b_walks = Choice::Plan(Plan {
        attacks: Default::default(),
        full_defense: false,
        movement: Some(Movement { mode: MoveMode::Walk, to: Destination::Point(Pos::new(10.0, 0.0)) }),
        ..Plan::default()
    });
    let log = run(&setup, &[1, 1, 1, 6, 6, 6], plan(&[0], toward(MoveMode::Walk)), b_walks.clone());
    let order: Vec<&Event> = log.iter().filter(|e| matches!(e, Event::Moved { .. } | Event::Step { .. })).collect();
    assert!(matches!(order[0], Event::Moved { .. }) && matches!(order[1], Event::Moved { .. }));
    let mut own = setup.clone();
    own.options.set("movement_timing", "own_step").unwrap();
    let log = run(&own, &[1, 1, 1, 6, 6, 6], plan(&[0], toward(MoveMode::Walk)), b_walks);
    let order: Vec<&Event> = log.iter().filter(|e| matches!(e, Event::Moved { .. } | Event::Step { .. })).collect();
    assert!(matches!(order[0], Event::Step { who: B }) && matches!(order[1], Event::Moved { who: B, .. }));
}

#[test]
fn example_h_running_and_attacking_costs_per_check() {
    // rule: FLUID-ACT-4, FLUID-MOVE-6, FLUID-ATK-6
    // Run (×3) and 3 melee attacks: N = 4, −4 on the Run check and on every attack (skill +2).
    let setup = field(6.0, "");
    let three = plan(&[0, 0, 0], toward(MoveMode::Run));
    let faces = [6, 6, 6, 1, 1, 1, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3];
    let log = run(&setup, &faces, three.clone(), none());
    let run_bonus =
        log.iter().find_map(|e| if let Event::RunCheck { check, .. } = e { Some(check.bonus) } else { None });
    assert_eq!(run_bonus, Some(-4));
    assert_eq!(bonuses(&log), vec![2 - 4; 3]);
    // `half_multiplier`: −5 each; `multiplier`: −7 each.
    let mut half = setup.clone();
    half.options.set("melee_run_penalty", "half_multiplier").unwrap();
    assert_eq!(bonuses(&run(&half, &faces, three.clone(), none())), vec![2 - 5; 3]);
    let mut full = setup.clone();
    full.options.set("melee_run_penalty", "multiplier").unwrap();
    assert_eq!(bonuses(&run(&full, &faces, three, none())), vec![2 - 7; 3]);
}

#[test]
fn example_h_sprinting_shooters_and_their_targets() {
    // rule: FLUID-MOVE-4, FLUID-MOVE-5
    // Sprint (×4) and one shot: N = 2: the Run check −2, the shot −2 − 4 = −6.
    let setup = field(30.0, "");
    let sprint = Some(Movement { mode: MoveMode::Sprint, to: Destination::Point(Pos::new(-20.0, 0.0)) });
    let log = run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], plan(&[1], sprint), none());
    assert_eq!(bonuses(&log), vec![2 - 2 - 4]);
    // A walking shooter takes −1; shooting at a target that sprinted this round takes −4.
    let walk = Some(Movement { mode: MoveMode::Walk, to: Destination::Point(Pos::new(-2.0, 0.0)) });
    assert_eq!(bonuses(&run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4], plan(&[1], walk), none())), vec![2 - 1]);
    let b_sprints = Choice::Plan(Plan {
        attacks: Default::default(),
        full_defense: false,
        movement: Some(Movement { mode: MoveMode::Sprint, to: Destination::Point(Pos::new(60.0, 0.0)) }),
        ..Plan::default()
    });
    let log = run(&setup, &[1, 1, 1, 6, 6, 6, 3, 3, 3, 4, 4, 4], plan(&[1], None), b_sprints);
    assert_eq!(bonuses(&log), vec![2 - 4]);
}

#[test]
fn a_charge_adds_its_multiplier_to_w() {
    // rule: FLUID-MOVE-7, FLUID-DMG-5
    // Running 5 m straight at B, then a lethal hit with 2 successes and a 6W sword: 6 + 2 + 3 = 11W.
    let setup = field(6.0, "");
    let charge = plan(&[0], toward(MoveMode::Run));
    // N = 2 (run + attack): −2. Run check 4,4,4; attack 4,4,4: 12 + 2 − 2 = 12 vs 10: 2 successes.
    let log = run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], charge.clone(), none());
    assert_eq!(moves(&log)[0].3, Some((B, 3)));
    let before = log.iter().find_map(|e| if let Event::Damage { before, .. } = e { Some(*before) } else { None });
    assert_eq!(before, Some((11, 0)));
    // A stunning charge: the bonus still goes to W, the successes to S: 6 + 3 = 9W, 2S.
    let stun = Choice::Plan(Plan {
        attacks: [DeclaredAttack::single(B, 0, Intent::Stunning)].into_iter().collect(),
        full_defense: false,
        movement: toward(MoveMode::Run),
        ..Plan::default()
    });
    let log = run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], stun, none());
    let before = log.iter().find_map(|e| if let Event::Damage { before, .. } = e { Some(*before) } else { None });
    assert_eq!(before, Some((9, 2)));
    // A walk never charges, unless `charge_walk` (+1W).
    let walk = plan(&[0], toward(MoveMode::Walk));
    let near = field(5.0, "");
    assert_eq!(moves(&run(&near, &[6, 6, 6, 1, 1, 1, 4, 4, 4], walk.clone(), none()))[0].3, None);
    let mut walking = near.clone();
    walking.options.set("charge_walk", "true").unwrap();
    assert_eq!(moves(&run(&walking, &[6, 6, 6, 1, 1, 1, 4, 4, 4], walk, none()))[0].3, Some((B, 1)));
    // `after_armor`: the bonus joins the W left after armour (B in AV 5 medium armour: 8 − 5 + 3).
    let armoured = field(6.0, "armor = { name = \"mail\", av = 5, size = \"medium\" }");
    let mut after = armoured.clone();
    after.options.set("charge_timing", "after_armor").unwrap();
    let w = |setup: &Setup| {
        let log = run(setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], charge.clone(), none());
        log.iter().find_map(|e| if let Event::Damage { w, .. } = e { Some(*w) } else { None })
    };
    assert_eq!((w(&armoured), w(&after)), (Some(11 - 5), Some(8 - 5 + 3)));
}

#[test]
fn range_bands() {
    // rule: FLUID-MOVE-9
    let setup = field(1.0, "");
    let bands: Vec<usize> =
        [0.0, 1.0, 2.0, 3.5, 4.0, 10.0, 12.0, 25.0, 50.0, 100.0, 101.0].iter().map(|&d| band(&setup, d)).collect();
    assert_eq!(bands, vec![0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7]);
    let mut custom = setup.clone();
    custom.options.set("range_bands", "[1, 2, 3, 4, 5, 6]").unwrap();
    assert_eq!(band(&custom, 3.5), 4);
    assert!(custom.options.clone().set("range_bands", "[1, 2]").is_err());
}

#[test]
fn the_ai_closes_with_a_distant_foe() {
    // rule: FLUID-MOVE-11, FLUID-MOVE-10, FLUID-MOVE-2, FLUID-MOVE-6
    let setup = field(10.0, "");
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    // 10 m: 8 m to cover to be within reach (2 m), more than a 4 m walk. A Run check is needed
    // whatever the pace, and under `melee_run_penalty = none` the melee attack pays nothing for a
    // faster one: a sprint (farthest, the largest charge bonus, the hardest to shoot).
    assert_eq!(
        policy::closing_move(&setup, &state, A, B, 1),
        Some(Movement { mode: MoveMode::Sprint, to: Destination::Toward(B) })
    );
    let near = field(4.5, "");
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&near);
    assert_eq!(policy::closing_move(&near, &state, A, B, 1).map(|m| m.mode), Some(MoveMode::Walk));
    let within = field(1.5, "");
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&within);
    assert_eq!(policy::closing_move(&within, &state, A, B, 1), None);
}

#[test]
fn under_a_melee_running_penalty_the_ai_counts_the_run_checks_margin() {
    // rule: FLUID-MOVE-2, FLUID-MOVE-6, FLUID-ACT-4
    // Run 10, the Run check and one attack (N = 2: −2), so the margin is e − 12. At 10 m the jog
    // covers 8 m + margin and needs 8: e ≥ 12, 81/216 of rolls, less than half; the run (12 m)
    // needs e ≥ 8, 181/216: the AI runs, though a jog's nominal 8 m would reach.
    let mut setup = field(10.0, "");
    setup.options.set("melee_run_penalty", "multiplier").unwrap();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    assert_eq!(policy::closing_move(&setup, &state, A, B, 1).map(|m| m.mode), Some(MoveMode::Run));
    // A better runner (Run 14: e ≥ 8 for the jog, 181/216) jogs.
    let mut runner = setup.clone();
    runner.combatants[0].skills.iter_mut().find(|s| s.name == "run").unwrap().value = 14;
    assert_eq!(policy::closing_move(&runner, &state, A, B, 1).map(|m| m.mode), Some(MoveMode::Jog));
    // Two attacks (N = 3: −3) make even the run a gamble at e ≥ 9 (160/216): still a run; at 17 m
    // (15 to cover) neither the jog nor the run arrives as often as not, so it sprints.
    assert_eq!(policy::closing_move(&setup, &state, A, B, 2).map(|m| m.mode), Some(MoveMode::Run));
    let far = {
        let mut far = field(17.0, "");
        far.options.set("melee_run_penalty", "multiplier").unwrap();
        far
    };
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&far);
    assert_eq!(policy::closing_move(&far, &state, A, B, 1).map(|m| m.mode), Some(MoveMode::Sprint));
}

#[test]
fn flanking_needs_a_foe_on_the_far_side() {
    // rule: FLUID-ATK-9
    // C (A's ally) stands 1 m beyond B: with `flank_bonus = 1`, A's melee attack gets +1.
    let ally = "[[combatants]]\nid = \"c\"\nside = \"one\"\npc = 10\nposition = 2.0";
    let mut setup = field(1.0, ally);
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    assert_eq!(fray_rules::fluid::attack::flank(&setup, &state, A, B), 0);
    setup.options.set("flank_bonus", "1").unwrap();
    assert_eq!(fray_rules::fluid::attack::flank(&setup, &state, A, B), 1);
    // On the same side as the attacker: no flank.
    let same_side = field(1.0, "[[combatants]]\nid = \"c\"\nside = \"one\"\npc = 10\nposition = 0.5");
    let mut same_side = same_side.clone();
    same_side.options.set("flank_bonus", "1").unwrap();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&same_side);
    assert_eq!(fray_rules::fluid::attack::flank(&same_side, &state, A, B), 0);
}

#[test]
fn odds_in_context_count_this_rounds_movement_charge_changes_and_a_hidden_attacker() {
    // rule: FLUID-MOVE-4, FLUID-MOVE-7, FLUID-ACT-6, FLUID-ATK-10
    use fray_engine::Ruleset;
    use fray_rules::fluid::odds::{Fire, odds_in_state};
    let setup = field(30.0, "");
    let start = Fluid::initial_state(&setup);
    let shot =
        |state: &fray_rules::fluid::State| odds_in_state(&setup, state, A, B, 1, 1, Intent::Lethal, Fire::SINGLE);
    let base = shot(&start);
    // A sprint this round (−4), a changed plan (−1 per change): each lowers the chance to hit.
    let mut sprinted = start.clone();
    sprinted.fighters[0].moved = Some(MoveMode::Sprint);
    assert!(shot(&sprinted).hit < base.hit);
    let mut changed = start.clone();
    changed.fighters[0].changes = 1;
    let changed_odds = shot(&changed);
    assert!(changed_odds.hit < base.hit && changed_odds.hit > shot(&sprinted).hit);
    // A hidden attacker: B, unaware, does not dodge.
    let mut hidden = start.clone();
    hidden.fighters[0].hidden = true;
    let unaware = shot(&hidden);
    assert!(unaware.assumptions.iter().any(|l| l.contains("does not defend")), "{:?}", unaware.assumptions);
    assert!(base.assumptions.iter().any(|l| l.contains("dodge")), "{:?}", base.assumptions);
    // A charge at B adds its bonus to the sword's W: every hit outcome moves up by 3.
    let near = field(1.0, "");
    let sword =
        |state: &fray_rules::fluid::State| odds_in_state(&near, state, A, B, 0, 1, Intent::Lethal, Fire::SINGLE);
    let plain = Fluid::initial_state(&near);
    let mut charged = plain.clone();
    charged.fighters[0].charge = Some((B, 3));
    let w_of = |o: &fray_rules::AttackOdds| -> Vec<i32> {
        o.damage_given_hit
            .iter()
            .map(|(_, parts, _)| parts.iter().find(|(k, _)| k == "W").map_or(0, |(_, v)| *v))
            .collect()
    };
    let (before, after) = (w_of(&sword(&plain)), w_of(&sword(&charged)));
    assert_eq!(after, before.iter().map(|w| w + 3).collect::<Vec<_>>(), "{before:?} {after:?}");
}

#[test]
fn a_move_towards_a_combatant_stops_the_approach_gap_short() {
    // rule: FLUID-MOVE-11
    // As in `walking_covers_move_and_running_needs_a_check`, A runs towards B 10 m off (12 m
    // with the check's +2): it stops 1 m short by default (9 m), 2.5 m short under
    // `approach_gap = 2.5` (7.5 m).
    for (gap, covered) in [(None, 9.0), (Some("2.5"), 7.5)] {
        let mut setup = field(10.0, "");
        if let Some(g) = gap {
            setup.options.set("approach_gap", g).unwrap();
        }
        let log = run(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4], plan(&[], toward(MoveMode::Run)), none());
        assert_eq!(moves(&log), vec![(A, MoveMode::Run, covered, None)], "{gap:?}");
    }
}

#[test]
fn pain_lowers_the_run_check() {
    // rule: FLUID-TRACK-4, FLUID-MOVE-2
    // A with S 8 (2 below 10): condition penalty −2, taken without a NER test; its Run check
    // (run 10) is at −2.
    let mut setup = field(10.0, "");
    setup.combatants[0].s = 8;
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        plan(&[], toward(MoveMode::Run)),
        none(),
        Choice::Pain(false),
    ];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let setup = Setup { max_rounds: 1, ..setup };
    let mut fight =
        Fight::<Fluid, _, _, _>::new(&setup, Scripted::faces([6, 6, 6, 1, 1, 1, 4, 4, 4]), decider, Record::default());
    fight.run().unwrap();
    let log = fight.into_parts().1.0;
    let run_bonus =
        log.iter().find_map(|e| if let Event::RunCheck { check, .. } = e { Some(check.bonus) } else { None });
    assert_eq!(run_bonus, Some(-2), "{log:#?}");
}
