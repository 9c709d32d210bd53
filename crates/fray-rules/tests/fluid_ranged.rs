//! `fluid` shooting: worked example E (bursts, sprays, recoil, ammunition) and the defences
//! against shots.

mod common;

use fray_engine::{CombatantId, Fight, Record, Ruleset, Scripted};
use fray_rules::fluid::{
    Choice, DeclaredAttack, DefenceSkill, Event, Fluid, Intent, Plan, Request, Setup, policy, scenario,
};

const SHOOTER: CombatantId = CombatantId(0);
const TARGET: CombatantId = CombatantId(1);

/// Example E's shooter (skill 14, a burst-fire SMG, 3W, 10 counts) and a target 10 m away with
/// Dodge 12; `extra` adds combatants or edits.
fn range(gun: &str, target_extra: &str, distance: f64) -> Setup {
    range_of("ranged", gun, target_extra, distance)
}

/// [`range`] with the item of `kind` (`ranged` or `thrown`).
fn range_of(kind: &str, gun: &str, target_extra: &str, distance: f64) -> Setup {
    let text = range_text(kind, gun, target_extra, distance);
    scenario::load("range.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// The scenario text of [`range_of`].
fn range_text(kind: &str, gun: &str, target_extra: &str, distance: f64) -> String {
    format!(
        r#"
[rules]
ruleset = "fluid"
[[combatants]]
id = "shooter"
side = "one"
pc = 20
skills = {{ smg = {{ value = 14 }} }}
position = 0.0
[[combatants.items]]
id = "gun"
kind = "{kind}"
skill = "smg"
damage = {{ w = 3 }}
{gun}
[[combatants]]
id = "target"
side = "two"
pc = 40
skills = {{ dodge = {{ value = 12 }}, parry = {{ value = 12 }}, block = {{ value = 12 }} }}
position = {distance}
{target_extra}
"#
    )
}

const SMG: &str = "fire = \"burst\"\nammo_counts = 10";

#[track_caller]
fn shoot(setup: &Setup, attack: DeclaredAttack, defence: Option<usize>, faces: &[u32]) -> Vec<Event> {
    shoot_with(setup, attack, &[defence; 3], faces)
}

/// [`shoot`], the target's defences scripted one by one (any other defence is the AI's).
#[track_caller]
fn shoot_with(setup: &Setup, attack: DeclaredAttack, defences: &[Option<usize>], faces: &[u32]) -> Vec<Event> {
    let mut choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        Choice::Plan(Plan {
            attacks: smallvec::smallvec![attack],
            full_defense: false,
            movement: None,
            ..Plan::default()
        }),
    ];
    choices.extend(defences.iter().map(|&d| Choice::Defence(d)));
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    // Round 1 only: the round the test scripts.
    let setup = &Setup { max_rounds: 1, ..setup.clone() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), decider, Record::default());
    fight.run().unwrap();
    fight.into_parts().1.0
}

fn rolls(log: &[Event]) -> Vec<(u8, i32, i32, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Attack { rounds, check, roll, .. } => Some((*rounds, check.bonus, roll.natural, roll.margin)),
            _ => None,
        })
        .collect()
}

fn damage(log: &[Event]) -> Vec<(i32, i32)> {
    log.iter().filter_map(|e| if let Event::Damage { before, .. } = e { Some(*before) } else { None }).collect()
}

fn ammo_lost(log: &[Event]) -> usize {
    log.iter().filter(|e| matches!(e, Event::AmmoSpent { .. })).count()
}

fn burst(r: u8) -> DeclaredAttack {
    DeclaredAttack { target: TARGET, item: 0, intent: Intent::Lethal, rounds: r, spray: false, blast: None }
}

/// Initiative faces: the shooter first.
const INIT: [u32; 6] = [6, 6, 6, 1, 1, 1];

fn with(faces: &[u32]) -> Vec<u32> {
    INIT.iter().chain(faces).copied().collect()
}

#[test]
fn example_e_bursts_multiply_successes() {
    // rule: FLUID-SPECIAL-5, FLUID-GEAR-4
    let setup = range(SMG, "", 10.0);
    // 1. A 2-round burst, [4,4,5]: 13 + 4 − 2 = 15 vs Dodge 12: margin 3 → 6 successes → 9W.
    let log = shoot(&setup, burst(2), Some(0), &with(&[4, 4, 5]));
    assert_eq!(rolls(&log), vec![(2, 4 - 2, 13, 3)]);
    assert_eq!(damage(&log), vec![(9, 0)]);
    assert_eq!(ammo_lost(&log), 0);
    // 2. [4,4,4]: margin 2 → 4 successes; a single shot with the same faces: margin 4 → 4.
    let log = shoot(&setup, burst(2), Some(0), &with(&[4, 4, 4]));
    assert_eq!(damage(&log), vec![(3 + 4, 0)]);
    let log = shoot(&setup, burst(1), Some(0), &with(&[4, 4, 4]));
    assert_eq!(damage(&log), vec![(3 + 4, 0)]);
    // 3. [5,5,4]: margin 4 → 8 successes, and one count lost (natural 14 ≥ 14 for a burst).
    let log = shoot(&setup, burst(2), Some(0), &with(&[5, 5, 4]));
    assert_eq!(damage(&log), vec![(11, 0)]);
    assert_eq!(ammo_lost(&log), 1);
    assert_eq!(fray_engine::replay::<Fluid>(&setup, &log).fighters[0].ammo[0], Some(9));
    // A single shot on natural 14 keeps its count; on 15 it loses one.
    assert_eq!(ammo_lost(&shoot(&setup, burst(1), Some(0), &with(&[5, 5, 4]))), 0);
    assert_eq!(ammo_lost(&shoot(&setup, burst(1), Some(0), &with(&[5, 5, 5]))), 1);
}

#[test]
fn recoil_suppressors_halve_the_burst_penalty() {
    // rule: FLUID-SPECIAL-6
    let setup = range("fire = \"burst\"\nrecoil_factor = 0.5", "", 10.0);
    let log = shoot(&setup, burst(3), Some(0), &with(&[4, 4, 4]));
    assert_eq!(rolls(&log)[0].1, 4 - 1);
}

#[test]
fn sprays_are_separate_rolls_each_at_minus_k() {
    // rule: FLUID-SPECIAL-8, FLUID-SPECIAL-9, FLUID-GEAR-4
    let setup = range(SMG, "", 10.0);
    let spray = DeclaredAttack { target: TARGET, item: 0, intent: Intent::Lethal, rounds: 3, spray: true, blast: None };
    let log = shoot(&setup, spray, Some(0), &with(&[4, 4, 4, 5, 5, 4, 1, 2, 3]));
    let all = rolls(&log);
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(|r| r.0 == 1 && r.1 == 4 - 3), "{all:?}");
    // Each shot checks ammunition at 14+.
    assert_eq!(ammo_lost(&log), 1);
    // One check action: the declared N is 1 (no multi-action penalty) unless `per_shot`, where
    // each shot is also one of the skill's attacks (FLUID-ACT-7): rank 2 allows three.
    let ranked = range_text("ranged", SMG, "", 10.0).replace("smg = { value = 14 }", "smg = { value = 14, rank = 2 }");
    let per_shot = scenario::load("x", &ranked, &[("spray_counts".into(), "per_shot".into())]).unwrap();
    let log = shoot(&per_shot, spray, Some(0), &with(&[4, 4, 4, 5, 5, 4, 1, 2, 3]));
    assert_eq!(rolls(&log).len(), 3);
    assert!(rolls(&log).iter().all(|r| r.1 == 4 - 3 - 3), "{:?}", rolls(&log));
}

#[test]
fn under_per_shot_a_sprays_shots_count_against_the_attack_limit() {
    // rule: FLUID-SPECIAL-9, FLUID-ACT-7
    // Rank 1: two attacks with the skill. A spray of 3 counts as one attack by default, as three
    // under `spray_counts = per_shot`, where it is refused and the AI sprays only 2 (not the
    // SMG's 6).
    let ranked = range_text("ranged", SMG, "", 10.0)
        .replace("smg = { value = 14 }", "smg = { value = 14, rank = 1 }")
        .replace("position = 0.0\n", "position = 0.0\npolicy = { fire = \"spray\" }\n");
    let once = scenario::load("x", &ranked, &[]).unwrap();
    let per_shot = scenario::load("x", &ranked, &[("spray_counts".into(), "per_shot".into())]).unwrap();
    let spray = DeclaredAttack { target: TARGET, item: 0, intent: Intent::Lethal, rounds: 3, spray: true, blast: None };
    let plan = Choice::Plan(Plan { attacks: smallvec::smallvec![spray], ..Plan::default() });
    for (setup, ok) in [(&once, true), (&per_shot, false)] {
        let request = policy::declare_options_for_tests(setup, &Fluid::initial_state(setup), SHOOTER);
        assert_eq!(Fluid::check_choice(setup, &request, &plan).is_ok(), ok);
        let Choice::Plan(ai) = policy::ai_choice(setup, &Fluid::initial_state(setup), SHOOTER, &request) else {
            unreachable!()
        };
        assert!(Fluid::check_choice(setup, &request, &Choice::Plan(ai.clone())).is_ok(), "{ai:?}");
        let rounds: Vec<(bool, u8)> = ai.attacks.iter().map(|a| (a.spray, a.rounds)).collect();
        assert_eq!(rounds, if ok { vec![(true, 6)] } else { vec![(true, 2)] });
    }
}

#[test]
fn a_spray_takes_one_pain_check() {
    // rule: FLUID-TRACK-4, FLUID-SPECIAL-9, FLUID-SPECIAL-8
    // The shooter at W 5 of PC 20 (CP −5) sprays 3 shots: one NER pain check (failed by 10 on
    // 1,1,1: −15 on every shot), not one per shot.
    let text = range_text("ranged", SMG, "", 10.0).replacen("pc = 20\n", "pc = 20\nw = 5\n", 1);
    let mut setup = scenario::load("range.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"));
    // At CP −5 the default `expected` pain policy would not try; `always` does.
    setup.combatants[0].policy.set("pain", "always").unwrap();
    let spray = DeclaredAttack { target: TARGET, item: 0, intent: Intent::Lethal, rounds: 3, spray: true, blast: None };
    let log = shoot(&setup, spray, Some(0), &with(&[1, 1, 1, 4, 4, 4, 5, 5, 4, 1, 2, 3]));
    let pain_checks = log.iter().filter(|e| matches!(e, Event::Check { kind: fray_rules::fluid::CheckKind::Pain, .. }));
    assert_eq!(pain_checks.count(), 1, "{log:#?}");
    let all = rolls(&log);
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(|r| r.1 == all[0].1), "{all:?}");
    // Under `spray_counts = per_shot` each shot is its own check action, with its own pain check
    // (and one of the skill's attacks: rank 2 allows three, FLUID-ACT-7).
    let per_shot = scenario::load(
        "range.toml",
        &text.replace("smg = { value = 14 }", "smg = { value = 14, rank = 2 }"),
        &[("spray_counts".into(), "per_shot".into())],
    )
    .unwrap();
    let mut per_shot = per_shot;
    per_shot.combatants[0].policy.set("pain", "always").unwrap();
    let faces = with(&[1, 1, 1, 4, 4, 4, 1, 1, 1, 5, 5, 4, 1, 1, 1, 1, 2, 3]);
    let log = shoot(&per_shot, spray, Some(0), &faces);
    let pain_checks = log.iter().filter(|e| matches!(e, Event::Check { kind: fray_rules::fluid::CheckKind::Pain, .. }));
    assert_eq!(pain_checks.count(), 3, "{log:#?}");
}

#[test]
fn fire_modes_cap_bursts_and_sprays() {
    // rule: FLUID-SPECIAL-7, FLUID-SPECIAL-10, FLUID-SPECIAL-11
    let cap = |fire: &str, sets: &[(&str, &str)]| {
        let mut setup = range(&format!("fire = \"{fire}\""), "", 10.0);
        for (k, v) in sets {
            setup.options.set(k, v).unwrap();
        }
        let state = Fluid::initial_state(&setup);
        let Request::Declare { rounds, .. } = policy::declare_options_for_tests(&setup, &state, SHOOTER) else {
            unreachable!()
        };
        rounds[0]
    };
    assert_eq!(cap("single", &[]), (1, 0));
    assert_eq!(cap("pump", &[]), (1, 2));
    assert_eq!(cap("pump", &[("pump_burst", "true")]), (2, 2));
    assert_eq!(cap("semi", &[]), (4, 4));
    assert_eq!(cap("burst", &[]), (6, 6));
    assert_eq!(cap("auto", &[]), (8, 8));
    let setup = range("fire = \"semi\"", "", 10.0);
    let request = policy::declare_options_for_tests(&setup, &Fluid::initial_state(&setup), SHOOTER);
    let plan = |r: u8, spray: bool| {
        Choice::Plan(Plan {
            attacks: smallvec::smallvec![DeclaredAttack { rounds: r, spray, ..burst(1) }],
            full_defense: false,
            movement: None,
            ..Plan::default()
        })
    };
    assert!(Fluid::check_choice(&setup, &request, &plan(4, false)).is_ok());
    assert!(Fluid::check_choice(&setup, &request, &plan(5, false)).is_err());
    assert!(Fluid::check_choice(&setup, &request, &plan(1, true)).is_err());
    // `per_round`: a second burst in the round fires only what the cap leaves (4 − 3 = 1).
    let mut per_round = range("fire = \"semi\"", "", 10.0);
    per_round.combatants[0].skills[0].rank = 1;
    per_round.options.set("burst_cap_scope", "per_round").unwrap();
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        Choice::Plan(Plan {
            attacks: smallvec::smallvec![burst(3), burst(3)],
            full_defense: false,
            movement: None,
            ..Plan::default()
        }),
        Choice::Defence(Some(0)),
        Choice::Defence(Some(0)),
    ];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let mut fight = Fight::<Fluid, _, _, _>::new(
        &per_round,
        Scripted::faces(with(&[1, 1, 2, 1, 1, 2])),
        decider,
        Record::default(),
    );
    common::played_out(&fight.run());
    let log = fight.into_parts().1.0;
    assert_eq!(rolls(&log).iter().map(|r| r.0).collect::<Vec<_>>(), vec![3, 1]);
}

#[test]
fn an_empty_gun_cannot_fire() {
    // rule: FLUID-GEAR-4
    let setup = range("fire = \"single\"\nammo_counts = 0", "", 10.0);
    let Request::Declare { options, .. } =
        policy::declare_options_for_tests(&setup, &Fluid::initial_state(&setup), SHOOTER)
    else {
        unreachable!()
    };
    // Only the unarmed pseudo-item (item 1) is left.
    assert!(options.iter().all(|&(_, item)| item != 0), "{options:?}");
    // Without ammunition tracking the count is ignored.
    let untracked = scenario::load(
        "x",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/fluid/barbarian-vs-marauder.toml"
        ))
        .unwrap()
        .replace("damage = { w = 7 }", "damage = { w = 7 }\nammo_counts = 0")
        .replace("kind = \"melee\"\nskill = \"axe\"", "kind = \"ranged\"\nskill = \"axe\""),
        &[("ammo_tracking".into(), "false".into())],
    )
    .unwrap();
    let Request::Declare { options, .. } =
        policy::declare_options_for_tests(&untracked, &Fluid::initial_state(&untracked), SHOOTER)
    else {
        unreachable!()
    };
    assert!(options.iter().any(|&(_, item)| item == 0), "{options:?}");
    // Two shots declared with one count left: the first, a natural 18, spends it; the second
    // lapses instead of firing an empty gun.
    let text = range_text("ranged", "fire = \"single\"\nammo_counts = 1", "", 10.0)
        .replace("smg = { value = 14 }", "smg = { value = 14, rank = 1 }");
    let two_shots = scenario::load("x", &text, &[]).unwrap_or_else(|e| panic!("{e}"));
    let single = DeclaredAttack { rounds: 1, ..burst(1) };
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        Choice::Plan(Plan { attacks: smallvec::smallvec![single, single], ..Plan::default() }),
        Choice::Defence(Some(0)),
        Choice::Defence(Some(0)),
    ];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let faces = Scripted::faces(with(&[6, 6, 6, 4, 4, 4, 1, 1, 1, 4, 4, 4]));
    let two_shots = Setup { max_rounds: 1, ..two_shots };
    let mut fight = Fight::<Fluid, _, _, _>::new(&two_shots, faces, decider, Record::default());
    common::played_out(&fight.run());
    let log = fight.into_parts().1.0;
    assert_eq!(ammo_lost(&log), 1);
    assert_eq!(rolls(&log).len(), 1, "{log:#?}");
}

#[test]
fn defences_against_shots() {
    // rule: FLUID-DEF-3, FLUID-DEF-10, FLUID-DEF-11
    let shield = "[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 1\n[[combatants.items]]\nid = \"sword\"\nkind = \"melee\"\nskill = \"parry\"\ndq = 0";
    let options = |setup: &Setup| {
        fray_rules::fluid::attack::defence_options(setup, &Fluid::initial_state(setup), SHOOTER, 0, TARGET)
    };
    // Farther than Nearby, bullets: Dodge; Parry with the sword (Superior +1); Block with the
    // shield (+3) or the sword (Superior +1); never unarmed.
    let far = options(&range("", shield, 10.0));
    let find = |opts: &[fray_rules::fluid::DefenceOption], skill, item| {
        opts.iter().find(|o| o.skill == skill && o.item == item).copied()
    };
    assert!(find(&far, DefenceSkill::Dodge, None).is_some());
    assert_eq!(find(&far, DefenceSkill::Parry, Some(1)).unwrap().projectile, (0, 1));
    assert_eq!(find(&far, DefenceSkill::Block, Some(0)).unwrap().projectile, (3, 0));
    assert_eq!(find(&far, DefenceSkill::Block, Some(1)).unwrap().projectile, (0, 1));
    assert!(find(&far, DefenceSkill::Parry, None).is_none());
    // Arrows: +3 against a Parry, nothing against a shield Block.
    let arrows = options(&range("projectile = \"arrow\"", shield, 10.0));
    assert_eq!(find(&arrows, DefenceSkill::Parry, Some(1)).unwrap().projectile, (3, 0));
    assert_eq!(find(&arrows, DefenceSkill::Block, Some(0)).unwrap().projectile, (0, 0));
    // A thrown weapon is a ranged attack whose projectile is an arrow unless it says otherwise.
    let thrown = options(&range_of("thrown", "", shield, 10.0));
    assert_eq!(find(&thrown, DefenceSkill::Parry, Some(1)).unwrap().projectile, (3, 0));
    assert!(find(&thrown, DefenceSkill::Dodge, None).is_some() && find(&thrown, DefenceSkill::Parry, None).is_none());
    let bullets = options(&range_of("thrown", "projectile = \"bullet\"", shield, 10.0));
    assert_eq!(find(&bullets, DefenceSkill::Parry, Some(1)).unwrap().projectile, (0, 1));
    // Within Nearby: Parry or Block as against melee, unarmed too, knocking the aim away.
    let near = options(&range("", shield, 1.0));
    let unarmed = find(&near, DefenceSkill::Parry, None).unwrap();
    assert!(unarmed.knocks_aim && unarmed.projectile == (0, 0) && unarmed.size_bonus == 0);
    // A point-blank Block gives no absorption: 3 + 4 = 7W against no armour stays 7W.
    let setup = range("", shield, 1.0);
    let block = options(&setup).iter().position(|o| o.skill == DefenceSkill::Block && o.item == Some(0));
    // (The target then strikes back, and the shooter's AI defends.)
    let log = shoot_with(&setup, burst(1), &[block], &with(&[6, 6, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
    assert_eq!(damage(&log), vec![(3 + rolls(&log)[0].3, 0)]);
    assert!(log.iter().any(|e| matches!(e, Event::Damage { av: 0, .. })));
}

#[test]
fn the_ai_weighs_projectile_modifiers_when_it_picks_a_defence() {
    // rule: FLUID-DEF-4, FLUID-DEF-11
    // Dodge 12, and a Parry with a sword at 12 + 1 DQ = 13: against bullets the Parry gives the
    // shooter Superior +1 (about +3), against arrows a flat +3; Dodge is better against both.
    let sword = "[[combatants.items]]\nid = \"sword\"\nkind = \"melee\"\nskill = \"parry\"\ndq = 1";
    for gun in ["", "projectile = \"arrow\""] {
        let setup = range(gun, sword, 10.0);
        let state = Fluid::initial_state(&setup);
        let options = fray_rules::fluid::attack::defence_options(&setup, &state, SHOOTER, 0, TARGET);
        let parry = options.iter().find(|o| o.skill == DefenceSkill::Parry).expect("a parry");
        assert!(parry.tn > options.iter().find(|o| o.skill == DefenceSkill::Dodge).unwrap().tn, "{options:?}");
        let request = Request::Defend { attacker: SHOOTER, options: options.clone() };
        let Choice::Defence(Some(pick)) = policy::ai_choice(&setup, &state, TARGET, &request) else { unreachable!() };
        assert_eq!(options[pick].skill, DefenceSkill::Dodge, "{gun}: {options:?}");
    }
}

#[test]
fn foes_near_the_shooter_interfere() {
    // rule: FLUID-DEF-9, FLUID-TRACK-11, FLUID-ROUND-5
    // A friend of the target stands 1 m from the shooter with Parry 13 and a DQ +1 sword: +4 to
    // the target's TN; the target itself never counts.
    let friend = "[[combatants]]\nid = \"friend\"\nside = \"two\"\npc = 10\nskills = { parry = { value = 13 } }\nposition = 1.0\n[[combatants.items]]\nid = \"sword\"\nskill = \"parry\"\ndq = 1";
    let setup = range("", friend, 10.0);
    assert_eq!(fray_rules::fluid::attack::interference(&setup, &Fluid::initial_state(&setup), SHOOTER, TARGET), 4);
    // (The friend's own attack on the shooter follows.)
    let log = shoot(&setup, burst(1), Some(0), &[6, 6, 6, 1, 1, 1, 2, 2, 2, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let tn = log.iter().find_map(|e| if let Event::Attack { check, .. } = e { Some(check.tn) } else { None });
    assert_eq!(tn, Some(12 + 4));
    // Only a free foe interferes: not a dying one, even one that passed its act test and may
    // defend itself, and no one against a shooter nobody knows of.
    let mut state = Fluid::initial_state(&setup);
    state.fighters[2].dying = true;
    state.fighters[2].act_tested = true;
    assert!(state.fighters[2].defends(&setup.options));
    assert_eq!(fray_rules::fluid::attack::interference(&setup, &state, SHOOTER, TARGET), 0);
    let mut state = Fluid::initial_state(&setup);
    state.fighters[SHOOTER.index()].hidden = true;
    assert_eq!(fray_rules::fluid::attack::interference(&setup, &state, SHOOTER, TARGET), 0);
}

#[test]
fn far_shots_at_the_helpless_are_plain_tn_10() {
    // rule: FLUID-DEF-15, FLUID-DEF-12
    let far = range("", "s = 0", 10.0);
    let mut far = far.clone();
    far.options.set("side_out_when", "dead").unwrap();
    let log = shoot(&far, burst(1), None, &[6, 6, 6, 4, 4, 4]);
    let check = log.iter().find_map(|e| if let Event::Attack { check, .. } = e { Some(*check) } else { None }).unwrap();
    assert_eq!((check.tn, check.edge), (10, 0));
    // From within Nearby the unconscious target is Superior +2.
    let mut near = range("", "s = 0", 1.0);
    near.options.set("side_out_when", "dead").unwrap();
    let log = shoot(&near, burst(1), None, &[6, 6, 6, 4, 4, 4, 4, 4]);
    let check = log.iter().find_map(|e| if let Event::Attack { check, .. } = e { Some(*check) } else { None }).unwrap();
    assert_eq!(check.edge, 2);
}

#[test]
fn odds_in_context_follow_the_fire_policy() {
    // rule: FLUID-SPECIAL-5, FLUID-SPECIAL-8, FLUID-ATK-4
    // A 6-round burst is at −6: its hit chance is that of a single shot with the skill 6 lower,
    // and each success counts 6 times (3W + 6 × margin against an unarmoured target).
    let odds = |setup: &Setup| {
        let scenario = fray_rules::fluid::FluidScenario(setup.clone());
        fray_rules::Scenario::attack_odds(&scenario, "shooter", "target").unwrap()
    };
    let mut burst = range(SMG, "", 10.0);
    burst.combatants[0].policy.set("fire", "burst").unwrap();
    let weaker_text = range_text("ranged", SMG, "", 10.0).replace("value = 14", "value = 8");
    let weaker = scenario::load("weaker.toml", &weaker_text, &[]).unwrap_or_else(|e| panic!("{e}"));
    let (b, w) = (odds(&burst), odds(&weaker));
    assert_eq!(b.hit, w.hit);
    assert!(b.assumptions.iter().any(|a| a.contains("6-round burst")), "{:?}", b.assumptions);
    for (label, parts, _) in &b.damage_given_hit {
        assert_eq!((parts[0].1 - 3) % 6, 0, "{label}");
    }
    // A spray's odds are those of one shot at −6, its successes counted once.
    let mut spray = range(SMG, "", 10.0);
    spray.combatants[0].policy.set("fire", "spray").unwrap();
    let s = odds(&spray);
    assert_eq!(s.hit, w.hit);
    assert!(s.damage_given_hit.iter().any(|(_, parts, _)| (parts[0].1 - 3) % 6 != 0));
}

#[test]
fn an_ally_shields_a_helpless_friends_body_from_far_shots() {
    // rule: FLUID-DEF-15
    // The target lies unconscious 10 m off; its friend, 1 m from it with a shield, declared
    // shielding its body (policy `shield = "allies"`): the shot hits the friend instead, who may
    // defend only with the shield's Block (TN 12 + DQ 2). Without the declaration, the shot is at
    // the helpless target, TN 10.
    let friend = |policy: &str| {
        format!(
            "s = 0\n[[combatants]]\nid = \"friend\"\nside = \"two\"\npc = 20\nskills = {{ block = {{ value = 12 }}, parry = {{ value = 14 }}, dodge = {{ value = 14 }} }}\nposition = 11.0\npolicy = {{ shield = \"{policy}\", move = \"hold\" }}\n[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 2\n"
        )
    };
    let shooting = |policy: &str| {
        let text = range_text("ranged", "", &friend(policy), 10.0);
        scenario::load("x", &text, &[("side_out_when".into(), "dead".into())]).unwrap_or_else(|e| panic!("{e}"))
    };
    let setup = shooting("allies");
    let state = Fluid::initial_state(&setup);
    let request = policy::declare_options_for_tests(&setup, &state, CombatantId(2));
    let Choice::Plan(plan) = policy::ai_choice(&setup, &state, CombatantId(2), &request) else { unreachable!() };
    assert_eq!(plan.shield, Some(TARGET));
    // Initiative: shooter 6,6,6, friend 1,1,1 (the target is unconscious); the shot 4,4,4.
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        Choice::Plan(Plan { attacks: smallvec::smallvec![burst(1)], ..Plan::default() }),
    ];
    let run = |setup: &Setup| {
        let decider = policy::Scripted { choices: choices.clone().into(), splits: Vec::new() };
        let faces = Scripted::faces(vec![6, 6, 6, 1, 1, 1, 4, 4, 4, 3, 3, 3]);
        let mut fight = Fight::<Fluid, _, _, _>::new(setup, faces, decider, Record::default());
        common::played_out(&fight.run());
        fight.into_parts().1.0
    };
    let log = run(&setup);
    assert!(log.contains(&Event::Shielded { who: CombatantId(2), target: TARGET }), "{log:#?}");
    let Some(Event::Attack { target, defence, check, .. }) = log.iter().find(|e| matches!(e, Event::Attack { .. }))
    else {
        panic!("{log:#?}")
    };
    assert_eq!(*target, CombatantId(2));
    let d = defence.expect("the shield's Block");
    assert_eq!((d.skill, d.item, check.tn), (DefenceSkill::Block, Some(0), 14));
    let log = run(&shooting("never"));
    assert!(!log.iter().any(|e| matches!(e, Event::Shielded { .. })));
    let Some(Event::Attack { target, check, .. }) = log.iter().find(|e| matches!(e, Event::Attack { .. })) else {
        panic!("{log:#?}")
    };
    assert_eq!((*target, check.tn), (TARGET, 10));
}

#[test]
fn odds_at_a_distance_follow_the_nearby_rules() {
    // rule: FLUID-DEF-15, FLUID-DEF-12
    // An unconscious target 10 m off in the file: a shot from beyond Nearby is a plain TN 10 with
    // no edge; asked about 1 m, the same shot is from within Nearby and Superior +2. The odds are
    // those of the fight's own check either way.
    let mut setup = range("", "s = 0", 10.0);
    setup.options.set("side_out_when", "dead").unwrap();
    let at = |d: Option<f64>| fray_rules::fluid::odds::attack_odds_at(&setup, "shooter", "target", d).unwrap();
    let (file, far, near) = (at(None), at(Some(10.0)), at(Some(1.0)));
    assert_eq!(file.hit, far.hit);
    assert_eq!((file.distance, far.distance, near.distance), (Some(10.0), Some(10.0), Some(1.0)));
    assert!(near.assumptions.iter().any(|a| a == "edge +2 (Superior)"), "{:?}", near.assumptions);
    assert!(!far.assumptions.iter().any(|a| a.starts_with("edge")), "{:?}", far.assumptions);
    assert!(near.hit > far.hit);
    // A shot from the target's own point (0 m) is within Nearby too.
    assert_eq!(at(Some(0.0)).hit, near.hit);
    assert!(fray_rules::fluid::odds::attack_odds_at(&setup, "shooter", "target", Some(-1.0)).is_err());
}

#[test]
fn far_shots_at_the_stunned_are_plain_tn_10_too() {
    // rule: FLUID-DEF-15
    // A stunned (not unconscious) target 10 m off: a shot's TN is 10 whatever its defence TN
    // (14 here); from within reach it is Superior +1 instead.
    for (distance, want) in [(10.0, (10, 0)), (1.0, (14, 1))] {
        let setup = range("", "", distance);
        let mut state = Fluid::initial_state(&setup);
        state.fighters[TARGET.index()].stunned = true;
        assert_eq!(
            fray_rules::fluid::attack::target_side(&setup, &state, SHOOTER, 0, TARGET, None, 14, false),
            want,
            "at {distance} m"
        );
    }
}

#[test]
fn a_named_unarmed_defence_takes_the_size_gap_to_a_medium_weapon() {
    // rule: FLUID-DEF-5, FLUID-DEF-7
    // The target's parry and block without an item: bare hands (size 0) against a medium
    // weapon, −3; a buckler of size 2 named for the round: −1.
    let setup = range("", "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\nsizes = [2]\n", 10.0);
    let named = fray_rules::fluid::attack::nameable_defences(&setup, &Fluid::initial_state(&setup), TARGET);
    let value = |skill| setup.combatants[TARGET.index()].defence_value(skill, &setup.options);
    for skill in [DefenceSkill::Parry, DefenceSkill::Block] {
        assert!(named.contains(&((skill, None), value(skill) - 3)), "{named:?}");
        let buckler = named.iter().find(|d| d.0 == (skill, Some(0))).expect("the buckler");
        assert_eq!(buckler.1 - value(skill) - setup.combatants[TARGET.index()].items[0].dq, -1, "{named:?}");
    }
}

#[test]
fn a_shot_from_within_reach_at_the_helpless_is_guarded_not_shielded() {
    // rule: FLUID-DEF-15, FLUID-DEF-14
    // As in `an_ally_shields_a_helpless_friends_body_from_far_shots`, but the shooter stands
    // 2 m from the unconscious target (within reach) and the friend exactly 2 m from it on the
    // other side: no body is shielded from a shot that close; the friend guards the target.
    let friend = "s = 0\n[[combatants]]\nid = \"friend\"\nside = \"two\"\npc = 20\nskills = { block = { value = 12 }, parry = { value = 14 }, dodge = { value = 14 } }\nposition = 4.0\npolicy = { shield = \"allies\", move = \"hold\" }\n[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 2\n";
    let text = range_text("ranged", "", friend, 2.0);
    let setup =
        scenario::load("x", &text, &[("side_out_when".into(), "dead".into())]).unwrap_or_else(|e| panic!("{e}"));
    let choices = vec![
        Choice::Split { ot: 0, dt: 0 },
        Choice::Split { ot: 0, dt: 0 },
        Choice::Plan(Plan { attacks: smallvec::smallvec![burst(1)], ..Plan::default() }),
    ];
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let faces = Scripted::faces(vec![6, 6, 6, 1, 1, 1, 4, 4, 4, 3, 3, 3]);
    let mut fight = Fight::<Fluid, _, _, _>::new(&setup, faces, decider, Record::default());
    common::played_out(&fight.run());
    let log = fight.into_parts().1.0;
    assert!(!log.iter().any(|e| matches!(e, Event::Shielded { .. })), "{log:#?}");
    let Some(Event::Attack { target, defence, .. }) = log.iter().find(|e| matches!(e, Event::Attack { .. })) else {
        panic!("{log:#?}")
    };
    assert_eq!(*target, TARGET);
    assert_eq!(defence.and_then(|d| d.guard), Some(CombatantId(2)), "{log:#?}");
}
