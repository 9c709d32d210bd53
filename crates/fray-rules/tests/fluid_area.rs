//! `fluid` area attacks: worked example F (a grenade), the band edges, the defences, the blast
//! point.

mod common;

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Fight, Pos, Record, Scripted};
use fray_rules::fluid::attack::area_edge;
use fray_rules::fluid::check::Check;
use fray_rules::fluid::{Choice, DeclaredAttack, Event, Fluid, Intent, Options, Plan, Setup, policy, scenario};

/// The thrower (skill 15, one grenade: Nearby, 2d6W) at 0; T0…T4 at 15, 17, 19, 25, 27 m, so 0,
/// 2, 4, 10 and 12 m from a blast on T0.
fn range() -> Setup {
    let mut text = String::from(
        r#"
[rules]
ruleset = "fluid"
[[combatants]]
id = "thrower"
side = "one"
pc = 20
skills = { throw = { value = 15 } }
position = 0.0
[[combatants.items]]
id = "grenade"
kind = "area"
skill = "throw"
damage = { w = "2d6" }
ammo_counts = 1
blast_band = "nearby"
"#,
    );
    for (i, x) in [15, 17, 19, 25, 27].iter().enumerate() {
        text += &format!(
            "[[combatants]]\nid = \"t{i}\"\nside = \"two\"\npc = 40\nskills = {{ dodge = {{ value = 12 }} }}\nposition = {x}.0\n[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 2\n"
        );
    }
    scenario::load("grenade.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// Initiative: thrower 18, targets 3, 4, 5, 6, 7 (no ties).
const INIT: [u32; 18] = [6, 6, 6, 1, 1, 1, 1, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 3];

#[track_caller]
fn throw(setup: &Setup, blast: Option<Pos>, faces: &[u32]) -> Vec<Event> {
    throw_moving(setup, blast, None, faces)
}

/// [`throw`] after moving as `movement` says.
#[track_caller]
fn throw_moving(
    setup: &Setup,
    blast: Option<Pos>,
    movement: Option<fray_rules::fluid::Movement>,
    faces: &[u32],
) -> Vec<Event> {
    let attack =
        DeclaredAttack { target: CombatantId(1), item: 0, intent: Intent::Lethal, rounds: 1, spray: false, blast };
    let mut choices = vec![Choice::Plan(Plan {
        attacks: smallvec::smallvec![attack],
        full_defense: false,
        movement,
        ..Plan::default()
    })];
    choices.extend((0..4).map(|_| Choice::Defence(Some(0))));
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let all: Vec<u32> = INIT.iter().chain(faces).copied().collect();
    // One round: the throw's.
    let setup = &Setup { max_rounds: 1, ..setup.clone() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(all), decider, Record::default());
    fight.run().unwrap();
    fight.into_parts().1.0
}

fn attacks(log: &[Event]) -> Vec<(u16, i32, usize)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Attack { target, check, roll, .. } => Some((target.0, check.edge, roll.faces.as_slice().len())),
            _ => None,
        })
        .collect()
}

#[test]
fn example_f_a_grenade_hits_each_band_in_turn() {
    // rule: FLUID-SPECIAL-1, FLUID-SPECIAL-2, FLUID-SPECIAL-3
    let setup = range();
    // T0 (Contact, Superior +1): [6,5,2,1] keeps 6,5,2: 13 + 5 = 18 vs Dodge 12: margin 6; 2d6 [3,4]
    // → 7 + 6 = 13W. Then T1 (3 dice), T2 (4, Inferior +1), T3 (5, Inferior +2); T4 is spared.
    let faces = [6, 5, 2, 1, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let log = throw(&setup, None, &faces);
    assert_eq!(attacks(&log), vec![(1, 1, 4), (2, 0, 3), (3, -1, 4), (4, -2, 5)]);
    let first = log
        .iter()
        .find_map(|e| if let Event::Damage { before, target, .. } = e { Some((target.0, *before)) } else { None });
    assert_eq!(first, Some((1, (13, 0))));
    // One grenade used: a second round has none to throw.
    assert_eq!(log.iter().filter(|e| matches!(e, Event::AmmoSpent { .. })).count(), 1);
    let state = fray_engine::replay::<Fluid>(&setup, &log);
    let fray_rules::fluid::Request::Declare { options, .. } =
        policy::declare_options_for_tests(&setup, &state, CombatantId(0))
    else {
        unreachable!()
    };
    assert!(options.iter().all(|&(_, item)| item != 0), "{options:?}");
}

#[test]
fn an_area_attack_takes_the_movement_penalties_of_a_ranged_attack() {
    // rule: FLUID-SPECIAL-1, FLUID-MOVE-4
    let setup = range();
    let bonuses = |log: &[Event]| -> Vec<i32> {
        log.iter().filter_map(|e| if let Event::Attack { check, .. } = e { Some(check.bonus) } else { None }).collect()
    };
    let faces = [6, 5, 2, 1, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let standing = bonuses(&throw(&setup, None, &faces));
    // A walk (no check) before the throw: −1 on every victim's check.
    let walk = fray_rules::fluid::Movement {
        mode: fray_rules::fluid::MoveMode::Walk,
        to: fray_rules::fluid::Destination::Point(Pos::new(1.0, 0.0)),
    };
    let walking = bonuses(&throw_moving(&setup, None, Some(walk), &faces));
    assert_eq!(standing.len(), 4);
    assert_eq!(walking, standing.iter().map(|b| b - 1).collect::<Vec<_>>());
}

#[test]
fn grenade_hit_chances_by_band() {
    // rule: FLUID-SPECIAL-2
    let options = Options::default();
    let p = |band: usize| {
        let edge = area_edge(1, band).unwrap();
        let dist = Check { edge, bonus: 5, tn: 10 }.margin_distribution(&options);
        fraction(&dist.iter().filter(|(m, _)| **m >= 0).map(|(_, p)| p.clone()).sum::<BigRational>())
    };
    assert_eq!([p(0), p(1), p(2), p(3)], ["427/432", "103/108", "1127/1296", "1985/2592"]);
    assert_eq!(area_edge(1, 4), None);
}

#[test]
fn area_defences_and_blast_points() {
    // rule: FLUID-SPECIAL-3, FLUID-SPECIAL-4
    let setup = range();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    let target = CombatantId(1);
    // Dodge or a shield Block by default; Dodge only; or none at all.
    assert_eq!(fray_rules::fluid::attack::area_defence_options(&setup, &state, target).len(), 2);
    let mut dodge_only = setup.clone();
    dodge_only.options.set("area_defense", "dodge_only").unwrap();
    assert_eq!(fray_rules::fluid::attack::area_defence_options(&dodge_only, &state, target).len(), 1);
    let mut none = setup.clone();
    none.options.set("area_defense", "none").unwrap();
    assert!(fray_rules::fluid::attack::area_defence_options(&none, &state, target).is_empty());
    // The blast may be placed anywhere: at 27 m it hits T4 (0 m), T3 (2 m), T2 (8 m) and T1
    // (10 m), nearest first, and spares T0 (12 m)…
    let faces = [1; 40];
    let log = throw(&setup, Some(Pos::new(27.0, 0.0)), &faces);
    let hit: Vec<u16> = attacks(&log).iter().map(|a| a.0).collect();
    assert_eq!(hit, vec![5, 4, 3, 2]);
    // …unless it must be on a combatant: then it lands on the declared target.
    let mut on_combatant = setup.clone();
    on_combatant.options.set("blast_point", "on_combatant").unwrap();
    let log = throw(&on_combatant, Some(Pos::new(27.0, 0.0)), &faces);
    assert_eq!(attacks(&log).first().map(|a| a.0), Some(1));
}

#[test]
fn included_item_qualities_are_not_counted_twice_against_a_blast() {
    // rule: FLUID-ATK-5, FLUID-SPECIAL-3
    // A DQ +2 shield Block against the grenade: under `skill_values = include_item` the skill
    // value already holds the DQ, so the TN is 2 lower than by default (not the same).
    let setup = range();
    let mut include = setup.clone();
    include.options.set("skill_values", "include_item").unwrap();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    let block_tn = |setup: &Setup| {
        let options = fray_rules::fluid::attack::area_defence_options(setup, &state, CombatantId(1));
        options.iter().find(|o| o.item == Some(0)).map(|o| o.tn).expect("a shield block")
    };
    assert_eq!(block_tn(&setup) - block_tn(&include), 2);
}

#[test]
fn a_safe_thrower_aims_at_a_point_a_charging_target_cannot_drag_onto_it() {
    // rule: FLUID-SPECIAL-4
    // The runner charges the thrower this round; the `safe` AI aims its grenade at the point it
    // judged safe (the runner's place at the declaration), so the blast never reaches the thrower.
    let text = "[rules]\nruleset = \"fluid\"\nmax_rounds = 1\n[[combatants]]\nid = \"thrower\"\nside = \"a\"\npc = 14\nskills = { throw = { value = 15 }, dodge = { value = 12 } }\nposition = 0.0\npolicy = { area = \"safe\", move = \"hold\" }\n[[combatants.items]]\nid = \"grenade\"\nkind = \"area\"\nskill = \"throw\"\ndamage = { w = \"2d6\" }\nammo_counts = 2\n[[combatants]]\nid = \"runner\"\nside = \"b\"\npc = 14\nskills = { axe = { value = 12 }, run = { value = 12 }, dodge = { value = 12 } }\nposition = 12.0\n[[combatants.items]]\nid = \"axe\"\nskill = \"axe\"\ndamage = { w = 5 }\n";
    let setup = scenario::load("safe.toml", text, &[]).unwrap();
    for seed in 1..=5 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<Fluid, _, _, _>::new(&setup, dice, policy::Ai, Record::default());
        fight.run().unwrap();
        let log = fight.into_parts().1.0;
        assert!(log.iter().any(|e| matches!(e, Event::AmmoSpent { .. })), "it throws");
        let own = log.iter().any(|e| matches!(e, Event::Damage { by, target, .. } if by == target));
        assert!(!own, "seed {seed}: {log:#?}");
    }
}

#[test]
fn a_blast_hit_makes_the_armours_sunder_check() {
    // rule: FLUID-SUNDER-9, FLUID-SUNDER-10, FLUID-DICE-10
    // A tier-5 grenade lands on T0 (Superior +1 at the blast's centre: four dice), who wears
    // tier-1 light armour: after the damage the armour checks, 3d6 + AV against
    // 10 + 2 × (3 − 2) + (5 − 1) = 16.
    let text = r#"
[rules]
ruleset = "fluid"
max_rounds = 1
[[combatants]]
id = "thrower"
side = "one"
pc = 20
skills = { throw = { value = 15 } }
position = 0.0
[[combatants.items]]
id = "grenade"
kind = "area"
skill = "throw"
damage = { w = 4 }
ammo_counts = 1
tier = 5
sizes = [3]
[[combatants]]
id = "t0"
side = "two"
pc = 40
skills = { dodge = { value = 12 } }
position = 15.0
armor = { name = "padding", av = 2, size = 2, tier = 1 }
"#;
    let setup = scenario::load("grenade.toml", text, &[]).unwrap_or_else(|e| panic!("{e}"));
    let attack = DeclaredAttack {
        target: CombatantId(1),
        item: 0,
        intent: Intent::Lethal,
        rounds: 1,
        spray: false,
        blast: None,
    };
    let choices =
        vec![Choice::Plan(Plan { attacks: smallvec::smallvec![attack], ..Plan::default() }), Choice::Defence(Some(0))];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let faces = vec![6, 6, 6, 1, 1, 1, 6, 6, 5, 1, 1, 1, 2];
    let mut fight = Fight::<Fluid, _, _, _>::new(&setup, Scripted::faces(faces), decider, Record::default());
    fight.run().unwrap();
    let log = fight.into_parts().1.0;
    let damage = log.iter().position(|e| matches!(e, Event::Damage { .. })).expect("a hit");
    let sunder = log.iter().position(|e| matches!(e, Event::Sunder { .. })).unwrap_or_else(|| panic!("{log:#?}"));
    assert!(sunder > damage);
    let Event::Sunder { who, quality, check, .. } = &log[sunder] else { unreachable!() };
    assert_eq!((*who, *quality, check.tn), (CombatantId(1), fray_rules::fluid::Quality::Av, 16));
}

#[test]
fn a_safe_thrower_counts_where_an_ally_has_declared_to_move() {
    // rule: FLUID-SPECIAL-4, FLUID-MOVE-11
    // The thrower at 0 m, its ally at 1 m and the foe at 15 m. Where they stand, a blast on the
    // foe spares the ally, and the `safe` AI throws; once the ally has declared a sprint towards
    // the foe (ending 1 m short of it, inside the blast), the AI does not throw.
    let text = "[rules]\nruleset = \"fluid\"\n[[combatants]]\nid = \"thrower\"\nside = \"a\"\npc = 14\nskills = { throw = { value = 15 } }\nposition = 0.0\npolicy = { area = \"safe\", move = \"hold\" }\n[[combatants.items]]\nid = \"grenade\"\nkind = \"area\"\nskill = \"throw\"\ndamage = { w = \"2d6\" }\nammo_counts = 2\n[[combatants]]\nid = \"ally\"\nside = \"a\"\npc = 14\nskills = { axe = { value = 12 } }\nposition = 1.0\n[[combatants.items]]\nid = \"axe\"\nskill = \"axe\"\ndamage = { w = 5 }\n[[combatants]]\nid = \"foe\"\nside = \"b\"\npc = 14\nskills = { axe = { value = 12 } }\nposition = 15.0\n[[combatants.items]]\nid = \"axe\"\nskill = \"axe\"\ndamage = { w = 5 }\n";
    let setup = scenario::load("ally.toml", text, &[]).unwrap();
    let (thrower, ally, foe) = (CombatantId(0), CombatantId(1), CombatantId(2));
    let throws = |state: &fray_rules::fluid::State| {
        let request = policy::declare_options_for_tests(&setup, state, thrower);
        let Choice::Plan(plan) = policy::ai_choice(&setup, state, thrower, &request) else { panic!("a plan") };
        plan.attacks.iter().any(|a| a.target == foe)
    };
    let mut state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    assert!(throws(&state), "the ally stands clear");
    state.fighters[ally.index()].plan.movement = Some(fray_rules::fluid::Movement {
        mode: fray_rules::fluid::MoveMode::Sprint,
        to: fray_rules::fluid::Destination::Toward(foe),
    });
    assert!(!throws(&state), "the ally runs into the blast");
}

#[test]
fn a_safe_thrower_sees_the_moves_allies_declare_after_it() {
    // rule: FLUID-SPECIAL-4, FLUID-ACT-1
    // In the firefight example raider_1 (`area = "safe"`) declares before raider_3, who often
    // sprints at the guard raider_1 would grenade; raider_1 takes the revision pass and never
    // blasts a fellow raider.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/firefight.toml");
    let setup = scenario::load("firefight.toml", &std::fs::read_to_string(path).unwrap(), &[]).unwrap();
    let side = |c: CombatantId| setup.combatants[c.index()].side;
    for seed in 1..=40 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<Fluid, _, _, _>::new(&setup, dice, policy::Ai, Record::default());
        fight.run().unwrap();
        let log = fight.into_parts().1.0;
        let friendly = log.iter().any(|e| matches!(e, Event::Damage { by, target, .. } if side(*by) == side(*target)));
        assert!(!friendly, "seed {seed}");
    }
}
