//! `fluid` sunder: worked examples B, C and D, the catalogue's sunder odds, and the options.

mod common;

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Fight, Record, Scripted};
use fray_rules::fluid::attack::{sunder_loss, sunder_tn};
use fray_rules::fluid::check::{Check, Faces};
use fray_rules::fluid::{Choice, DefenceSkill, Event, Fluid, Options, Quality, Request, Setup, policy, scenario};

const KNIGHT: CombatantId = CombatantId(0);
const PEASANT: CombatantId = CombatantId(1);

/// A knight with a tiered weapon against a peasant with a tiered buckler and armour.
fn setup(weapon: &str, peasant_gear: &str, armor: &str) -> Setup {
    let text = format!(
        r#"
[rules]
ruleset = "fluid"
[[combatants]]
id = "knight"
side = "one"
pc = 30
skills = {{ sword = {{ value = 12 }} }}
position = 0.0
[[combatants.items]]
id = "weapon"
skill = "sword"
damage = {{ w = 5 }}
{weapon}
[[combatants]]
id = "peasant"
side = "two"
pc = 30
skills = {{ block = {{ value = 10 }} }}
position = 1.0
{armor}
{peasant_gear}
"#
    );
    scenario::load("sunder.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

const BUCKLER: &str = "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = 3\nsizes = [2]\ntier = 1";

#[track_caller]
fn fight(setup: &Setup, faces: &[u32], choices: Vec<Choice>) -> Vec<Event> {
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    // Round 1 only: the round the test scripts.
    let setup = &Setup { max_rounds: 1, ..setup.clone() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), decider, Record::default());
    fight.run().unwrap();
    fight.into_parts().1.0
}

fn sunders(log: &[Event]) -> Vec<(CombatantId, Quality, i32, i32, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Sunder { who, quality, check, roll, loss } => Some((*who, *quality, check.tn, roll.margin, *loss)),
            _ => None,
        })
        .collect()
}

fn block_with(setup: &Setup, item: u8) -> Choice {
    let state = <Fluid as fray_engine::Ruleset>::initial_state(setup);
    let options = fray_rules::fluid::attack::defence_options(setup, &state, KNIGHT, 0, PEASANT);
    Choice::Defence(options.iter().position(|o| o.skill == DefenceSkill::Block && o.item == Some(item)))
}

fn split() -> Choice {
    Choice::Split { ot: 0, dt: 0 }
}

#[test]
fn example_b_a_fine_sword_wears_down_a_primitive_buckler() {
    // rule: FLUID-SUNDER-1, FLUID-SUNDER-2, FLUID-SUNDER-4, FLUID-SUNDER-5, FLUID-SUNDER-12, FLUID-GEAR-3
    let setup = setup("tier = 4\nsizes = [3]", BUCKLER, "");
    // The knight's attack (2,2,2: 6 + 2 + size 1 = 9 vs Block 13) misses: contact; the buckler,
    // the lower tier, checks its DQ: TN 10 + 2 × (3 − 2) + (4 − 1) = 15; 2,3,4 + 3 = 12: failure 3,
    // loss 1.
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 2, 2, 2, 2, 3, 4], vec![split(), split(), block_with(&setup, 0)]);
    assert_eq!(sunders(&log), vec![(PEASANT, Quality::Dq(0), 15, -3, 1)]);
    let state = fray_engine::replay::<Fluid>(&setup, &log);
    assert_eq!(state.fighters[1].dq[0], 2);
    // The original DQ is kept on the sheet (repair may restore up to it).
    assert_eq!(setup.combatants[1].items[0].dq, 3);
    // The same faces at DQ +2: failure 4, loss 2.
    let check = Check { edge: 0, bonus: 2, tn: 15 };
    assert_eq!(sunder_loss(check.resolve(&Options::default(), Faces::from_slice(&[2, 3, 4])).margin), 2);
    // A hit with more than 5 successes gets past the block: no contact.
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 6, 6, 6], vec![split(), split(), block_with(&setup, 0)]);
    assert!(sunders(&log).is_empty());
}

#[test]
fn the_buckler_odds() {
    // rule: FLUID-SUNDER-4, FLUID-SUNDER-5
    let options = Options::default();
    let check = Check { edge: 0, bonus: 3, tn: sunder_tn((3, 4), (2, 1), 0) };
    assert_eq!(check.tn, 15);
    let dist = check.margin_distribution(&options);
    let p = |f: &dyn Fn(i32) -> bool| {
        fraction(&dist.iter().filter(|(m, _)| f(**m)).map(|(_, p)| p.clone()).sum::<BigRational>())
    };
    assert_eq!(p(&|m| sunder_loss(m) >= 1), "1/2");
    assert_eq!(p(&|m| sunder_loss(m) >= 2), "7/27");
    assert_eq!(p(&|m| m < 0), "5/8");
}

#[test]
fn example_c_a_masterwork_heavy_sword_breaks_light_armour() {
    // rule: FLUID-SUNDER-9, FLUID-SUNDER-10, FLUID-SUNDER-11
    let setup =
        setup("tier = 5\nsizes = [4]", "", "armor = { name = \"leather\", av = 3, size = \"light\", tier = 3 }");
    // A hit (6,6,5: natural 17 → e 26); its damage first (AV 3 converts: S4 > S2), then the armour
    // checks: TN 10 + 2 × (4 − 2) + (5 − 3) = 16; 1,2,4 + 3 = 10: failure 6, loss 3 → AV 0.
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 6, 6, 5, 1, 2, 4], vec![split(), split(), Choice::Defence(None)]);
    let damage = log.iter().position(|e| matches!(e, Event::Damage { .. })).unwrap();
    let sunder = log.iter().position(|e| matches!(e, Event::Sunder { .. })).unwrap();
    assert!(damage < sunder);
    assert_eq!(sunders(&log), vec![(PEASANT, Quality::Av, 16, -6, 3)]);
    assert_eq!(fray_engine::replay::<Fluid>(&setup, &log).fighters[1].av, 0);
    // P(broken) = P(failure of 6 or more) = 35/216; P(any loss) = 5/8.
    let check = Check { edge: 0, bonus: 3, tn: 16 };
    let dist = check.margin_distribution(&Options::default());
    let p = |f: &dyn Fn(i32) -> bool| {
        fraction(&dist.iter().filter(|(m, _)| f(**m)).map(|(_, p)| p.clone()).sum::<BigRational>())
    };
    assert_eq!(p(&|m| sunder_loss(m) >= 3), "35/216");
    assert_eq!(p(&|m| sunder_loss(m) >= 1), "5/8");
}

#[test]
fn armour_compares_the_weapons_smallest_size_under_either_attack_size() {
    // rule: FLUID-SUNDER-9, FLUID-SIZE-2, FLUID-SIZE-3
    // Example C's sword listing sizes 4 and 2: against armour its smallest (2) counts, so the TN is
    // 10 + 2 × (2 − 2) + (5 − 3) = 12 whether the attack size elsewhere is the smallest or the first.
    let mut setup =
        setup("tier = 5\nsizes = [4, 2]", "", "armor = { name = \"leather\", av = 3, size = \"light\", tier = 3 }");
    let faces = [3, 3, 3, 1, 1, 1, 6, 6, 5, 1, 2, 4];
    let choices = || vec![split(), split(), Choice::Defence(None)];
    assert_eq!(sunders(&fight(&setup, &faces, choices())), vec![(PEASANT, Quality::Av, 12, -2, 1)]);
    setup.options.set("attack_size", "first").unwrap();
    assert_eq!(sunders(&fight(&setup, &faces, choices())), vec![(PEASANT, Quality::Av, 12, -2, 1)]);
}

#[test]
fn example_d_a_fine_dagger_against_heavy_armour() {
    // rule: FLUID-SUNDER-9, FLUID-SUNDER-11, FLUID-SUNDER-13, FLUID-DICE-6
    // TN 10 + 2 × (2 − 4) + (4 − 3) = 7; 3d6 + 6: only blunders fail.
    let tn = sunder_tn((2, 4), (4, 3), 0);
    assert_eq!(tn, 7);
    let check = Check { edge: 0, bonus: 6, tn };
    let loss = |options: &Options, faces: &[u8]| sunder_loss(check.resolve(options, Faces::from_slice(faces)).margin);
    let step5 = Options::default();
    assert_eq!((loss(&step5, &[1, 1, 3]), loss(&step5, &[1, 1, 2]), loss(&step5, &[1, 1, 1])), (0, 3, 5));
    let mut shift9 = Options::default();
    shift9.set("crit_ladder", "shift9").unwrap();
    assert_eq!(loss(&shift9, &[1, 1, 3]), 2);
    let mut none = Options::default();
    none.set("crit_ladder", "none").unwrap();
    assert_eq!((1..=6u8).flat_map(|a| (1..=6u8).map(move |b| [a, b, 1])).map(|f| loss(&none, &f)).max(), Some(0));
    let dist = check.margin_distribution(&step5);
    let any: BigRational = dist.iter().filter(|(m, _)| sunder_loss(**m) >= 1).map(|(_, p)| p.clone()).sum();
    assert_eq!(fraction(&any), "1/54");
    // In a fight: the dagger hits and the armour checks (faces 1,1,2: loss 3 → AV 3).
    let setup = setup("tier = 4\nsizes = [2]", "", "armor = { name = \"plate\", av = 6, size = \"heavy\", tier = 3 }");
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 6, 6, 5, 1, 1, 2], vec![split(), split(), Choice::Defence(None)]);
    assert_eq!(sunders(&log), vec![(PEASANT, Quality::Av, 7, -6, 3)]);
}

#[test]
fn equal_tiers_both_check_at_superior_one() {
    // rule: FLUID-SUNDER-3
    let setup = setup(
        "tier = 2\nsizes = [3]",
        "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = 3\nsizes = [2]\ntier = 2",
        "",
    );
    // Miss (2,2,2), then the knight's OQ (4 dice, Superior +1) and the buckler's DQ (4 dice).
    let log = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1],
        vec![split(), split(), block_with(&setup, 0)],
    );
    let checks: Vec<(CombatantId, Quality, i32, usize)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Sunder { who, quality, check, roll, .. } => {
                Some((*who, *quality, check.tn, roll.faces.as_slice().len()))
            }
            _ => None,
        })
        .collect();
    // Knight's weapon against the buckler: 10 + 2 × (2 − 3) + 0 = 8; the buckler: 10 + 2 = 12.
    assert_eq!(checks, vec![(KNIGHT, Quality::Oq(0), 8, 4), (PEASANT, Quality::Dq(0), 12, 4)]);
}

#[test]
fn untiered_gear_never_sunders_and_the_option_turns_it_off() {
    // rule: FLUID-SUNDER-13, FLUID-SUNDER-2
    let untiered = setup("sizes = [3]", BUCKLER, "");
    let log = fight(&untiered, &[3, 3, 3, 1, 1, 1, 2, 2, 2], vec![split(), split(), block_with(&untiered, 0)]);
    assert!(sunders(&log).is_empty());
    let mut off = setup("tier = 4\nsizes = [3]", BUCKLER, "");
    off.options.set("sunder_checks", "false").unwrap();
    let log = fight(&off, &[3, 3, 3, 1, 1, 1, 2, 2, 2], vec![split(), split(), block_with(&off, 0)]);
    assert!(sunders(&log).is_empty());
    // A Parry causes no contact unless `sunder_on_parry`.
    let tiered_weapon = "[[combatants.items]]\nid = \"stick\"\nskill = \"sword\"\ndq = 0\nsizes = [3]\ntier = 1";
    let mut parry = setup("tier = 4\nsizes = [3]", tiered_weapon, "");
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&parry);
    let options = fray_rules::fluid::attack::defence_options(&parry, &state, KNIGHT, 0, PEASANT);
    let parry_choice =
        Choice::Defence(options.iter().position(|o| o.skill == DefenceSkill::Parry && o.item == Some(0)));
    let log = fight(
        &parry,
        &[3, 3, 3, 1, 1, 1, 2, 2, 2, 3, 3, 3, 1, 1, 1, 1, 1, 1],
        vec![split(), split(), parry_choice.clone()],
    );
    assert!(sunders(&log).is_empty());
    parry.options.set("sunder_on_parry", "true").unwrap();
    let log =
        fight(&parry, &[3, 3, 3, 1, 1, 1, 2, 2, 2, 3, 3, 3, 1, 1, 1, 1, 1, 1], vec![split(), split(), parry_choice]);
    // One check from the knight's parried blow (the peasant's answering blow comes after).
    let answer = log.iter().position(|e| matches!(e, Event::Attack { attacker, .. } if *attacker == PEASANT));
    assert_eq!(sunders(&log[..answer.unwrap_or(log.len())]).len(), 1, "{log:#?}");
}

#[test]
fn a_sunder_attack_puts_the_damage_into_the_block() {
    // rule: FLUID-SUNDER-7, FLUID-ATK-11
    let setup = setup("tier = 4\nsizes = [3]", BUCKLER, "");
    // A hit with 5 successes: 5,5,5 = 15, + 2 skill + 1 size = 18 against Block 13.
    let log = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 5, 5, 5, 2, 3, 4],
        vec![split(), split(), block_with(&setup, 0), Choice::Sunder(true)],
    );
    assert!(!log.iter().any(|e| matches!(e, Event::Damage { .. })));
    // The buckler's DQ check with TN 15 + 5 successes = 20.
    assert_eq!(sunders(&log), vec![(PEASANT, Quality::Dq(0), 20, -8, 4)]);
}

#[test]
fn the_superior_sunder_policy_compares_the_weapon_with_the_blocking_item() {
    // rule: FLUID-SUNDER-7
    // A T4 sword; the peasant blocks with a T5 shield but also carries a T1 knife.
    let gear = "[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 2\ntier = 5\n[[combatants.items]]\nid = \"knife\"\nkind = \"melee\"\nskill = \"block\"\ntier = 1";
    let mut setup = setup("tier = 4\nsizes = [3]", gear, "");
    setup.combatants[0].policy.set("sunder", "superior").unwrap();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&setup);
    let ask = |block| {
        let request = fray_rules::fluid::Request::SunderAttack { target: PEASANT, weapon: 0, block };
        policy::ai_choice(&setup, &state, KNIGHT, &request)
    };
    assert_eq!(ask(Some(0)), Choice::Sunder(false), "the T5 shield outclasses the T4 sword");
    assert_eq!(ask(Some(1)), Choice::Sunder(true), "the T1 knife does not");
    // Named before the defence: only when every tiered item it could block with is lower.
    assert_eq!(ask(None), Choice::Sunder(false));
}

#[test]
fn broken_gear_cannot_attack_or_defend() {
    // rule: FLUID-SUNDER-6
    let setup = setup(
        "tier = 4\nsizes = [3]",
        "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = -4\nsizes = [2]\ntier = 1",
        "",
    );
    // The buckler (DQ −4) fails its check (TN 15) by 13: DQ stops at −5, broken; it leaves the options.
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 2, 3], vec![split(), split(), block_with(&setup, 0)]);
    let state = fray_engine::replay::<Fluid>(&setup, &log);
    assert_eq!(state.fighters[1].dq[0], -5);
    assert!(state.fighters[1].broken(0));
    let options = fray_rules::fluid::attack::defence_options(&setup, &state, KNIGHT, 0, PEASANT);
    assert!(options.iter().all(|o| o.item != Some(0)));
    // The loss recorded is the loss taken: 1 (−4 to −5), not the 6 the failure asked for (FLUID-SUNDER-12).
    assert_eq!(sunders(&log), vec![(PEASANT, Quality::Dq(0), 15, -13, 1)]);
}

#[test]
fn a_weapon_broken_mid_round_makes_no_further_attack() {
    // rule: FLUID-SUNDER-6, FLUID-SUNDER-12
    // A T1 club at OQ −4 declared for two attacks; the first is blocked by a T4 shield and the
    // club's OQ check fails badly: OQ −5, broken, and the second attack lapses.
    let mut setup = setup(
        "tier = 1\noq = -4\nsizes = [3]",
        "[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 0\nsizes = [3]\ntier = 4",
        "",
    );
    setup.options.set("max_attacks", "unlimited").unwrap();
    let twice = fray_rules::fluid::Plan {
        attacks: smallvec::smallvec![
            fray_rules::fluid::DeclaredAttack::single(PEASANT, 0, fray_rules::fluid::Intent::Lethal);
            2
        ],
        ..fray_rules::fluid::Plan::default()
    };
    let log = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1, 1, 4, 4, 4, 4, 4, 4],
        vec![split(), split(), Choice::Plan(twice), block_with(&setup, 0), block_with(&setup, 0)],
    );
    let knight_attacks = log.iter().filter(|e| matches!(e, Event::Attack { attacker, .. } if *attacker == KNIGHT));
    assert_eq!(knight_attacks.count(), 1, "{log:#?}");
    let (who, quality, _, _, loss) = sunders(&log)[0];
    assert_eq!((who, quality, loss), (KNIGHT, Quality::Oq(0), 1));
    assert!(fray_engine::replay::<Fluid>(&setup, &log).fighters[0].broken(0));
}

#[test]
fn armour_trigger_and_weapons_striking_tougher_armour() {
    // rule: FLUID-SUNDER-10, FLUID-SUNDER-8
    // A T4 sword against T3 plate AV 40 that stops all damage: the check comes on a hit (`hit`),
    // not under `wound`.
    let plate = "armor = { name = \"plate\", av = 40, size = \"medium\", tier = 3 }";
    let mut s = setup("tier = 4\nsizes = [3]", "", plate);
    let faces = [3, 3, 3, 1, 1, 1, 6, 6, 5, 4, 4, 4];
    assert_eq!(sunders(&fight(&s, &faces, vec![split(), split(), Choice::Defence(None)])).len(), 1);
    s.options.set("armor_sunder_trigger", "wound").unwrap();
    assert!(sunders(&fight(&s, &faces, vec![split(), split(), Choice::Defence(None)])).is_empty());
    // A T2 sword hitting T3 armour: no check by default; an OQ check under `sunder_weapon_on_armor`.
    let mut weak = setup("tier = 2\nsizes = [3]", "", plate);
    assert!(sunders(&fight(&weak, &faces, vec![split(), split(), Choice::Defence(None)])).is_empty());
    weak.options.set("sunder_weapon_on_armor", "true").unwrap();
    let checks = sunders(&fight(&weak, &faces, vec![split(), split(), Choice::Defence(None)]));
    assert_eq!(checks.iter().map(|c| (c.0, c.1, c.2)).collect::<Vec<_>>(), vec![(KNIGHT, Quality::Oq(0), 11)]);
}

#[test]
fn armour_checks_on_damage_and_on_a_larger_weapon_of_its_own_tier() {
    // rule: FLUID-SUNDER-9, FLUID-SUNDER-10
    // Example C's hit on leather (AV 3): under `armor_sunder_trigger = damage` the damage that
    // gets through brings the check too.
    let leather = "armor = { name = \"leather\", av = 3, size = \"light\", tier = 3 }";
    let faces = [3, 3, 3, 1, 1, 1, 6, 6, 5, 1, 2, 4];
    let choices = || vec![split(), split(), Choice::Defence(None)];
    let mut damage = setup("tier = 5\nsizes = [4]", "", leather);
    damage.options.set("armor_sunder_trigger", "damage").unwrap();
    assert_eq!(sunders(&fight(&damage, &faces, choices())).len(), 1);
    // A weapon of the armour's own tier checks it when it is larger (S4 against light, S2):
    // TN 10 + 2 × (4 − 2) + 0 = 14; a smaller one (S1) does not.
    let larger = setup("tier = 3\nsizes = [4]", "", leather);
    assert_eq!(
        sunders(&fight(&larger, &faces, choices())).iter().map(|s| (s.0, s.1, s.2)).collect::<Vec<_>>(),
        vec![(PEASANT, Quality::Av, 14)]
    );
    let smaller = setup("tier = 3\nsizes = [1]", "", leather);
    assert!(sunders(&fight(&smaller, &faces, choices())).is_empty());
}

#[test]
fn a_parry_that_fails_by_nothing_makes_no_contact() {
    // rule: FLUID-SUNDER-3, FLUID-SUNDER-2
    // Under `sunder_on_parry` a parry brings contact only when it stops the blow: the knight's
    // blow at margin 0 (natural 8 + 2 against TN 10) hits, and no item checks.
    let tiered_weapon = "[[combatants.items]]\nid = \"stick\"\nskill = \"sword\"\ndq = 0\nsizes = [3]\ntier = 1";
    let mut parry = setup("tier = 4\nsizes = [3]", tiered_weapon, "");
    parry.options.set("sunder_on_parry", "true").unwrap();
    let state = <Fluid as fray_engine::Ruleset>::initial_state(&parry);
    let options = fray_rules::fluid::attack::defence_options(&parry, &state, KNIGHT, 0, PEASANT);
    let parry_choice =
        Choice::Defence(options.iter().position(|o| o.skill == DefenceSkill::Parry && o.item == Some(0)));
    let mut faces = vec![3, 3, 3, 1, 1, 1, 2, 3, 3];
    faces.extend([3; 12]);
    let log = fight(&parry, &faces, vec![split(), split(), parry_choice]);
    let first = log
        .iter()
        .find_map(|e| if let Event::Attack { roll, check, .. } = e { Some((roll.margin, check.tn)) } else { None });
    assert_eq!(first, Some((0, 10)), "{log:#?}");
    let answer = log.iter().position(|e| matches!(e, Event::Attack { attacker, .. } if *attacker == PEASANT));
    assert!(sunders(&log[..answer.unwrap_or(log.len())]).is_empty(), "{log:#?}");
}

#[test]
fn only_a_tiered_melee_weapon_against_a_tiered_block_is_offered_a_sunder_attack() {
    // rule: FLUID-SUNDER-6, FLUID-SUNDER-13
    let asked = |setup: &Setup| {
        let mut asked = common::FluidAsked { defences: vec![block_with(setup, 0)], ..Default::default() };
        let one_round = Setup { max_rounds: 1, ..setup.clone() };
        let mut fight = Fight::<Fluid, _, _, _>::new(
            &one_round,
            Scripted::faces([[3, 3, 3, 1, 1, 1, 2, 2, 2].as_slice(), &[3; 30]].concat()),
            &mut asked,
            Record::default(),
        );
        common::played_out(&fight.run());
        drop(fight);
        asked.requests.iter().any(|r| matches!(r, Request::SunderAttack { .. }))
    };
    let untiered_block = "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = 3\nsizes = [2]";
    assert!(asked(&setup("tier = 4\nsizes = [3]", BUCKLER, "")));
    assert!(!asked(&setup("sizes = [3]", BUCKLER, "")), "an untiered weapon");
    assert!(!asked(&setup("tier = 4\nsizes = [3]", untiered_block, "")), "an untiered block");
}
