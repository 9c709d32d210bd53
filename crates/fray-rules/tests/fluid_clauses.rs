//! `fluid` clauses one by one, on small inline scenarios with scripted dice and choices.

mod common;

use fray_engine::{CombatantId, Fight, FightError, Outcome, Record, Ruleset, Scripted, SideId};
use fray_rules::fluid::policy::{self, Ai, stance_split};
use fray_rules::fluid::{
    Choice, Condition, DeclaredAttack, DefenceSkill, Event, Fluid, Intent, Plan, Request, Setup, condition_penalty,
    scenario,
};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

/// A duel: `a` attacks `b` with a sword; every number can be changed with `patch` (text edits).
fn duel(patch: &[(&str, &str)]) -> Setup {
    let mut text = String::from(
        r#"
[rules]
ruleset = "fluid"
[rules.options]
[[combatants]]
id = "a"
side = "one"
pc = 12
tactics = 0
stats = { BOD = 10, NER = 10, FIN = 10 }
skills = { sword = { value = 12, rank = 0 } }
position = 0.0
policy = { tactics = "normal" }
[[combatants.items]]
id = "sword"
kind = "melee"
skill = "sword"
damage = { w = 5 }
sizes = [3]
[[combatants]]
id = "b"
side = "two"
pc = 12
tactics = 0
stats = { BOD = 10, NER = 10, FIN = 10 }
skills = { block = { value = 11 }, parry = { value = 11 }, dodge = { value = 11 } }
position = 1.0
policy = { tactics = "normal" }
"#,
    );
    for (from, to) in patch {
        assert!(text.contains(from), "patch target `{from}` not found");
        text = text.replacen(from, to, 1);
    }
    scenario::load("duel.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

fn fight(
    setup: &Setup,
    faces: &[u32],
    choices: Vec<Choice>,
) -> (Vec<Event>, Result<fray_engine::FightResult, FightError>) {
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), decider, Record::default());
    let result = fight.run();
    (fight.into_parts().1.0, result)
}

fn attacks(log: &[Event]) -> Vec<&Event> {
    log.iter().filter(|e| matches!(e, Event::Attack { .. })).collect()
}

fn first_attack(log: &[Event]) -> (fray_rules::fluid::check::Check, fray_rules::fluid::check::CheckRoll) {
    match attacks(log).first() {
        Some(Event::Attack { check, roll, .. }) => (*check, *roll),
        _ => panic!("no attack in {log:?}"),
    }
}

fn damage(log: &[Event]) -> Vec<(i32, i32, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Damage { av, w, s, .. } => Some((*av, *w, *s)),
            _ => None,
        })
        .collect()
}

/// B only dodges (the first option), so its TN is its Dodge value.
fn dodge() -> Choice {
    Choice::Defence(Some(0))
}

#[test]
fn tactics_split_into_non_negative_parts() {
    // rule: FLUID-TAC-1, FLUID-TAC-4, FLUID-TAC-5
    let setup = duel(&[]);
    assert_eq!(stance_split(&setup, 3, "normal"), (1, 2));
    assert_eq!(stance_split(&setup, 3, "aggressive"), (3, 0));
    assert_eq!(stance_split(&setup, 3, "defensive"), (0, 3));
    assert_eq!(stance_split(&setup, -2, "aggressive"), (0, 0));
    let ceil = scenario::load(
        "x",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/fluid/barbarian-vs-marauder.toml"
        ))
        .unwrap(),
        &[("normal_split".into(), "ot_ceil".into())],
    )
    .unwrap();
    assert_eq!(stance_split(&ceil, 3, "normal"), (2, 1));
    let request = Request::Tactics { tactics: 2 };
    assert!(Fluid::check_choice(&setup, &request, &Choice::Split { ot: 1, dt: 1 }).is_ok());
    assert!(Fluid::check_choice(&setup, &request, &Choice::Split { ot: 3, dt: -1 }).is_err());
    assert!(Fluid::check_choice(&setup, &request, &Choice::Split { ot: 1, dt: 0 }).is_err());
    assert!(Fluid::check_choice(&setup, &Request::Tactics { tactics: -1 }, &Choice::Split { ot: 0, dt: 0 }).is_ok());
}

#[test]
fn ot_adds_to_attacks_and_dt_to_defence_tns() {
    // rule: FLUID-TAC-2, FLUID-TAC-6, FLUID-ATK-2, FLUID-ATK-3
    let setup = duel(&[("tactics = 0", "tactics = 2"), ("tactics = 0\nstats", "tactics = 3\nstats")]);
    // A all-out (oT 2), B defensive (dT 3); B dodges at 11 + 3.
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![Choice::Split { ot: 2, dt: 0 }, Choice::Split { ot: 0, dt: 3 }, dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert!(log.contains(&Event::TacticsSet { who: A, ot: 2, dt: 0 }));
    assert!(log.contains(&Event::TacticsSet { who: B, ot: 0, dt: 3 }));
    let (check, roll) = first_attack(&log);
    assert_eq!((check.bonus, check.tn), (2 + 2, 14));
    assert_eq!(roll.margin, 12 + 4 - 14);
}

#[test]
fn initiative_ties_go_to_tactics_then_fin_then_a_roll_off() {
    // rule: FLUID-INIT-1, FLUID-INIT-4, FLUID-INIT-2
    let order = |setup: &Setup, faces: &[u32]| {
        let (log, ended) = fight(setup, faces, vec![]);
        // The order is settled: the fight stops at the first attack, for want of its dice.
        assert!(matches!(ended, Err(FightError::Dice { what: "attack", .. })), "{ended:?}");
        // The error names its roll once.
        let said = ended.as_ref().unwrap_err().to_string();
        assert!(said.starts_with("dice for attack: ") && said.matches("dice for").count() == 1, "{said}");
        log.iter()
            .find_map(|e| match e {
                Event::Order { order } => Some(order.to_vec()),
                _ => None,
            })
            .unwrap()
    };
    // Equal totals, B has the higher FIN: B first. (A 3+3+3, B 3+3+3.)
    let fin = duel(&[("FIN = 10 }\nskills = { block", "FIN = 14 }\nskills = { block")]);
    assert_eq!(order(&fin, &[3, 3, 3, 3, 3, 3]), vec![B, A]);
    // Equal everything: a d6 roll-off in roster order, highest first (A 2, B 5).
    let same = duel(&[]);
    let (log, fought) = fight(&same, &[3, 3, 3, 3, 3, 3, 2, 5], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 8 dice");
    assert!(log.contains(&Event::TieBreak { who: A, face: 2 }) && log.contains(&Event::TieBreak { who: B, face: 5 }));
    assert_eq!(order(&same, &[3, 3, 3, 3, 3, 3, 2, 5]), vec![B, A]);
    // `roster` breaks ties by roster order without dice.
    let roster = scenario::load("x", &duel_text_with_option("initiative_tie = \"roster\""), &[]).unwrap();
    assert_eq!(order(&roster, &[3, 3, 3, 3, 3, 3]), vec![A, B]);
}

fn duel_text_with_option(option: &str) -> String {
    let setup_text = r#"
[rules]
ruleset = "fluid"
[rules.options]
OPTION
[[combatants]]
id = "a"
side = "one"
pc = 12
skills = { sword = { value = 12 } }
position = 0.0
[[combatants.items]]
id = "sword"
skill = "sword"
damage = { w = 5 }
[[combatants]]
id = "b"
side = "two"
pc = 12
position = 1.0
"#;
    setup_text.replace("OPTION", option)
}

#[test]
fn incapacitated_combatants_roll_no_initiative_and_do_not_defend() {
    // rule: FLUID-INIT-7, FLUID-DEF-13, FLUID-DEF-12, FLUID-TRACK-9, FLUID-TRACK-11
    // B starts unconscious (S 0): no initiative, TN 10 without dT, and A's attack is Superior +2.
    let setup = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
        "pc = 12\ns = 0\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
    )]);
    let (log, result) = fight(&setup, &[3, 3, 3], vec![]);
    // Unconscious is out: the fight is over before anyone acts.
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
    assert!(!log.iter().any(|e| matches!(e, Event::Initiative { .. })));
    // With only the dead out, the fight goes on and B is attacked where it lies.
    let setup = scenario::load(
        "x",
        &duel_text_with_option("side_out_when = \"dead\"")
            .replace("pc = 12\nposition = 1.0", "pc = 12\ns = 0\nposition = 1.0"),
        &[],
    )
    .unwrap();
    let (log, fought) = fight(&setup, &[3, 3, 3, 1, 1, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 8 dice");
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Initiative { .. })).count(), 1);
    let (check, _) = first_attack(&log);
    assert_eq!((check.edge, check.tn), (2, 10));
}

#[test]
fn dying_targets_are_superior_plus_one() {
    // rule: FLUID-DEF-12, FLUID-TRACK-5
    let text = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nw = 0\nposition = 1.0");
    let setup = scenario::load("x", &text, &[]).unwrap();
    let state = Fluid::initial_state(&setup);
    assert!(state.fighter(B).dying);
    // Round start: B's BOD test (margin +1 → W 1, no longer dying), its act test; then initiative.
    let (log, fought) = fight(&setup, &[4, 4, 3, 4, 4, 3, 2, 2, 2, 3, 3, 3, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for BOD test: the script ran out of faces after 15 dice");
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Condition { who, condition: Condition::Dying, gained: false } if *who == B))
    );
    // A failed BOD test (natural 7: failure of 3, W −3) keeps B dying; its act test (12 − 13 CP)
    // fails, so B is stunned and rolls no initiative; A's attack on it is Superior +1 (4 dice).
    let (log, fought) = fight(&setup, &[2, 2, 3, 4, 4, 4, 3, 3, 3, 1, 1, 1, 6], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for BOD test: the script ran out of faces after 13 dice");
    let (check, roll) = first_attack(&log);
    assert_eq!(check.edge, 1);
    assert_eq!(roll.faces.as_slice().len(), 4);
}

#[test]
fn the_multi_action_penalty_and_the_attack_limit() {
    // rule: FLUID-ACT-1, FLUID-ACT-2, FLUID-ACT-4, FLUID-ACT-7
    let setup = duel(&[("sword = { value = 12, rank = 0 }", "sword = { value = 12, rank = 1 }")]);
    let two = Plan {
        attacks: vec![DeclaredAttack::single(B, 0, Intent::Lethal); 2].into(),
        full_defense: false,
        movement: None,
        ..Plan::default()
    };
    let three = Plan {
        attacks: vec![DeclaredAttack::single(B, 0, Intent::Lethal); 3].into(),
        full_defense: false,
        movement: None,
        ..Plan::default()
    };
    let request = Request::Declare {
        options: vec![(B, 0)].into(),
        max_per_item: vec![2].into(),
        skill_group: vec![0].into(),
        rounds: vec![(1, 0)].into(),
    };
    assert!(Fluid::check_choice(&setup, &request, &Choice::Plan(two.clone())).is_ok());
    assert!(Fluid::check_choice(&setup, &request, &Choice::Plan(three)).is_err());
    // The limit is per attack skill: two swords of one skill (rank 0) make one attack between
    // them; a dagger of another skill may add its own.
    let armed = duel(&[
        (
            "skills = { sword = { value = 12, rank = 0 } }",
            "skills = { sword = { value = 12, rank = 0 }, dagger = { value = 10, rank = 0 } }",
        ),
        (
            "sizes = [3]\n[[combatants]]\nid = \"b\"",
            "sizes = [3]\n[[combatants.items]]\nid = \"sword2\"\nkind = \"melee\"\nskill = \"sword\"\n[[combatants.items]]\nid = \"dagger\"\nkind = \"melee\"\nskill = \"dagger\"\n[[combatants]]\nid = \"b\"",
        ),
    ]);
    let state = Fluid::initial_state(&armed);
    let request = fray_rules::fluid::policy::declare_options_for_tests(&armed, &state, A);
    let with = |items: &[u8]| {
        let attacks = items.iter().map(|&i| DeclaredAttack::single(B, i, Intent::Lethal)).collect();
        Fluid::check_choice(&armed, &request, &Choice::Plan(Plan { attacks, ..Plan::default() }))
    };
    assert!(with(&[0]).is_ok() && with(&[1]).is_ok());
    assert!(with(&[0, 1]).is_err(), "two attacks with the sword skill at rank 0");
    assert!(with(&[0, 2]).is_ok(), "one with each skill");
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4, 4, 4, 4],
        vec![
            Choice::Split { ot: 0, dt: 0 },
            Choice::Split { ot: 0, dt: 0 },
            Choice::Plan(two),
            Choice::Plan(Plan::default()),
            dodge(),
            dodge(),
        ],
    );
    fought.unwrap();
    assert!(log.contains(&Event::Declared { who: B, plan: Plan::default() }));
    let bonuses: Vec<i32> = attacks(&log)
        .iter()
        .map(|e| match e {
            Event::Attack { check, .. } => check.bonus,
            _ => unreachable!(),
        })
        .collect();
    // Two check actions: −2 on each (skill bonus +2).
    assert_eq!(bonuses, vec![0, 0]);
}

#[test]
fn untrained_attacks_and_common_defences() {
    // rule: FLUID-ACT-11, FLUID-DEF-2, FLUID-DEF-1
    let setup = duel(&[("skills = { sword = { value = 12, rank = 0 } }", "skills = { }")]);
    let b = &setup.combatants[1];
    let a = &setup.combatants[0];
    assert_eq!(a.skill_value("sword", &setup.options), 7);
    assert_eq!(a.skill_value("dodge", &setup.options), 10);
    assert_eq!(b.skill_value("block", &setup.options), 11);
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    let (check, _) = first_attack(&log);
    assert_eq!(check.bonus, -3);
    // `untrained_penalty = -5`: the untrained sword is 10 − 5 = 5, its bonus −5.
    let mut harsh = setup.clone();
    harsh.options.set("untrained_penalty", "-5").unwrap();
    assert_eq!(harsh.combatants[0].skill_value("sword", &harsh.options), 5);
    let (log, fought) = fight(
        &harsh,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(first_attack(&log).0.bonus, -5);
}

#[test]
fn size_differences_favour_the_attacker_against_parry_and_block() {
    // rule: FLUID-DEF-5, FLUID-DEF-7, FLUID-SIZE-2, FLUID-GEAR-2
    let setup = duel(&[(
        "position = 1.0\npolicy = { tactics = \"normal\" }\n",
        "position = 1.0\npolicy = { tactics = \"normal\" }\n[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = 1\nsizes = [2]\n[[combatants.items]]\nid = \"targe\"\nkind = \"shield\"\nsizes = [4, 3]\n[[combatants.items]]\nid = \"kite\"\nkind = \"shield\"\nsizes = [2, 3]\n",
    )]);
    let options = fray_rules::fluid::attack::defence_options(&setup, &Fluid::initial_state(&setup), A, 0, B);
    let find = |skill, item| options.iter().find(|o| o.skill == skill && o.item == item).copied().unwrap();
    // A medium sword against a small buckler: +1; against a targe that may count as medium: +0.
    assert_eq!(find(DefenceSkill::Block, Some(0)).size_bonus, 1);
    assert_eq!(find(DefenceSkill::Block, Some(0)).tn, 11 + 1);
    assert_eq!(find(DefenceSkill::Parry, Some(1)).size_bonus, 0);
    // The listed size closest to the weapon's, whichever comes first: a kite shield of 2 or 3
    // counts as 3 against the sword.
    assert_eq!(find(DefenceSkill::Block, Some(2)).size_bonus, 0);
    // Unarmed: creature size 3 − 3 = S0 against S3: +3.
    assert_eq!(find(DefenceSkill::Parry, None).size_bonus, 3);
    // Dodge takes no size bonus and no item.
    assert_eq!(find(DefenceSkill::Dodge, None).size_bonus, 0);
}

#[test]
fn base_damage_successes_and_intent() {
    // rule: FLUID-DMG-1, FLUID-DMG-2, FLUID-DMG-3, FLUID-DMG-4, FLUID-ATK-1
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = 5, s = 1 }")]);
    // A hit with 0 successes still deals base damage: 12 + 2 − 11 … natural 9 + 2 = 11 vs 11.
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 3, 3, 3],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(first_attack(&log).1.margin, 0);
    assert_eq!(damage(&log), vec![(0, 5, 1)]);
    // Stunning: successes go to S (margin 3 → 5W, 1 + 3 = 4S).
    let stun = Plan {
        attacks: vec![DeclaredAttack::single(B, 0, Intent::Stunning)].into(),
        full_defense: false,
        movement: None,
        ..Plan::default()
    };
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, Choice::Plan(stun), dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(first_attack(&log).1.margin, 3);
    assert_eq!(damage(&log), vec![(0, 5, 4)]);
    let state = fray_engine::replay::<Fluid>(&setup, &log);
    assert_eq!((state.fighters[1].w, state.fighters[1].s), (7, 8));
}

#[test]
fn damage_dice_are_rolled_after_the_check() {
    // rule: FLUID-DICE-11, FLUID-DMG-5
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = \"2d6\", s = \"1d3\" }")]);
    // Attack 4,4,4 (margin 3) then 2d6 = 6 + 1 and 1d3 = 2 (a d6 showing 3 or 4): 10W, 2S.
    let splits = || vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()];
    let (log, fought) = fight(&setup, &[3, 3, 3, 1, 1, 1, 4, 4, 4, 6, 1, 4], splits());
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
    assert_eq!(damage(&log), vec![(0, 10, 2)]);
    // A 1d3 or 1d2 is a d6 read: 1–2 → 1, 3–4 → 2, 5–6 → 3; 1–3 → 1, 4–6 → 2.
    for (dice, d6, read) in [("1d3", 1, 1), ("1d3", 3, 2), ("1d3", 6, 3), ("1d2", 3, 1), ("1d2", 4, 2)] {
        let setup = duel(&[("damage = { w = 5 }", &format!("damage = {{ w = 5, s = \"{dice}\" }}"))]);
        let (log, result) = fight(&setup, &[3, 3, 3, 1, 1, 1, 4, 4, 4, d6], splits());
        assert_eq!(
            result.as_ref().unwrap_err().to_string(),
            "dice for initiative: the script ran out of faces after 10 dice"
        );
        assert_eq!(damage(&log).first().map(|d| d.2), Some(read), "{dice} on a d6 showing {d6}: {result:?}");
    }
}

#[test]
fn armour_reduces_same_size_weapons_and_converts_larger_ones() {
    // rule: FLUID-ARM-1, FLUID-ARM-2, FLUID-ARM-3, FLUID-ARM-4, FLUID-SIZE-1, FLUID-SIZE-3
    let armoured = |armour: &str, sizes: &str, sets: &[(&str, &str)]| {
        let mut setup =
            duel(&[("position = 1.0", &format!("position = 1.0\narmor = {armour}")), ("sizes = [3]", sizes)]);
        for (k, v) in sets {
            setup.options.set(k, v).unwrap();
        }
        let (log, fought) = fight(
            &setup,
            &[3, 3, 3, 1, 1, 1, 4, 4, 4],
            vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
        );
        assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
        damage(&log)[0]
    };
    // 5 + 3 = 8W. Medium armour AV 3 against a medium sword: reduced to 5W.
    assert_eq!(armoured("{ name = \"mail\", av = 3, size = \"medium\" }", "sizes = [3]", &[]), (3, 5, 0));
    // A heavy sword (S4) against light armour (S2) converts: 3 points of W become S.
    assert_eq!(armoured("{ name = \"leather\", av = 3, size = \"light\" }", "sizes = [4]", &[]), (3, 5, 3));
    // A weapon with several sizes counts as its smallest against armour.
    assert_eq!(armoured("{ name = \"leather\", av = 3, size = \"light\" }", "sizes = [4, 2]", &[]), (3, 5, 0));
    // `smaller`: a same-size weapon converts too.
    assert_eq!(
        armoured("{ name = \"mail\", av = 3, size = \"medium\" }", "sizes = [3]", &[("armor_size_test", "smaller")]),
        (3, 5, 3)
    );
    // … and a smaller one is still reduced.
    assert_eq!(
        armoured("{ name = \"mail\", av = 3, size = \"medium\" }", "sizes = [2]", &[("armor_size_test", "smaller")]),
        (3, 5, 0)
    );
    // Leftover AV spills onto S (AV 10 against 8W and 2S), unless `armor_spill = false`.
    let with_s = |av: i32, spill: &str| {
        let mut setup = duel(&[
            ("position = 1.0", &format!("position = 1.0\narmor = {{ name = \"plate\", av = {av}, size = 4 }}")),
            ("damage = { w = 5 }", "damage = { w = 5, s = 2 }"),
        ]);
        setup.options.set("armor_spill", spill).unwrap();
        let (log, fought) = fight(
            &setup,
            &[3, 3, 3, 1, 1, 1, 4, 4, 4],
            vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
        );
        assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
        damage(&log)[0]
    };
    assert_eq!(with_s(10, "true"), (10, 0, 0));
    assert_eq!(with_s(10, "false"), (10, 0, 2));
    // The spill stops at 0 S: AV 14 leaves 6 over 8W, more than the 2S, and heals no stress.
    assert_eq!(with_s(14, "true"), (14, 0, 0));
}

#[test]
fn tracks_start_at_pc_and_give_a_condition_penalty() {
    // rule: FLUID-TRACK-1, FLUID-TRACK-2
    let setup = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
        "pc = 16\nw = 40\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
    )]);
    let mut state = Fluid::initial_state(&setup);
    assert_eq!((state.fighters[0].w, state.fighters[0].s), (16, 16));
    state.fighters[0].w = 9;
    assert_eq!(condition_penalty(&setup, &state, A), -1);
    state.fighters[0].w = 8;
    assert_eq!(condition_penalty(&setup, &state, A), -2);
    state.fighters[0].s = 7;
    assert_eq!(condition_penalty(&setup, &state, A), -5);
    let mut worst = setup.clone();
    worst.options.set("cp_combine", "worst").unwrap();
    assert_eq!(condition_penalty(&worst, &state, A), -3);
    // T = min(10, PC): a PC 6 creature at W 5 has CP −1 (fixed10 would give −5).
    let small = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
        "pc = 6\nw = 5\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
    )]);
    let state = Fluid::initial_state(&small);
    assert_eq!(condition_penalty(&small, &state, B), -1);
    let mut fixed = small.clone();
    fixed.options.set("cp_threshold", "fixed10").unwrap();
    assert_eq!(condition_penalty(&fixed, &state, B), -5 - 4);
}

#[test]
fn dying_tests_at_round_start() {
    // rule: FLUID-TRACK-6, FLUID-TRACK-7, FLUID-TRACK-8, FLUID-ROUND-2, FLUID-DICE-2
    let text = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nw = -3\nposition = 1.0");
    let setup = scenario::load("x", &text, &[]).unwrap();
    // BOD test 2,2,2 = 6 vs 10: failure of 4 → W −7; NER act test 1,1,1 fails: stunned.
    let (log, fought) = fight(&setup, &[2, 2, 2, 1, 1, 1, 6, 6, 6, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 12 dice");
    assert!(matches!(log[1], Event::Check { who: B, check, roll, .. } if check.tn == 10 && roll.margin == -4));
    assert!(log.contains(&Event::Condition { who: B, condition: Condition::Stunned, gained: true }));
    let state = fray_engine::replay::<Fluid>(&setup, &log[..4]);
    assert_eq!(state.fighters[1].w, -7);
    // A BOD test that drops W to −BOD kills: W −3, failure of 7 → −10 = −BOD 10.
    let (log, result) = fight(&setup, &[1, 1, 1], vec![]);
    assert!(log.contains(&Event::Condition { who: B, condition: Condition::Dead, gained: true }));
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
}

#[test]
fn a_bod_test_never_raises_w_above_pc() {
    // rule: FLUID-TRACK-1, FLUID-TRACK-6
    // W −1 of PC 12; a BOD test of 6,6,6 (a crit: e 31) succeeds by 21, but W stops at 12.
    let text = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nw = -1\nposition = 1.0");
    let setup = scenario::load("x", &text, &[]).unwrap();
    let (log, fought) = fight(&setup, &[6, 6, 6], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 3 dice");
    assert!(matches!(log[1], Event::Check { who: B, roll, .. } if roll.margin == 21), "{:?}", log[1]);
    let state = fray_engine::replay::<Fluid>(&setup, &log[..2]);
    assert_eq!(state.fighters[1].w, 12);
}

#[test]
fn combat_ends_when_one_side_stands() {
    // rule: FLUID-ROUND-4, FLUID-ROUND-1
    // B (W 1) drops to dying from one hit: out under `incapacitated`, so the fight ends.
    let setup = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
        "pc = 12\nw = 1\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
    )]);
    let (log, result) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
    );
    let result = result.unwrap();
    assert_eq!((result.outcome, result.length), (Outcome::Side(SideId(0)), 1));
    assert!(log.contains(&Event::Condition { who: B, condition: Condition::Dying, gained: true }));
    // Rounds are logged 3 s apart.
    let scenario = fray_rules::fluid::FluidScenario(setup);
    let text = scenario.line(&Event::RoundStarted { round: 2 }).text.unwrap();
    assert!(text.contains("t = 3 s"), "{text}");
    // A stalemate at the cap.
    let mut capped = duel(&[]);
    capped.max_rounds = 1;
    let (_, result) = fight(
        &capped,
        &[3, 3, 3, 1, 1, 1, 1, 1, 1],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
    );
    assert_eq!(result.unwrap().outcome, Outcome::Stalemate);
}

#[test]
fn the_ai_defends_with_the_best_tn_after_the_size_bonus() {
    // rule: FLUID-DEF-4
    let setup = duel(&[(
        "skills = { block = { value = 11 }, parry = { value = 11 }, dodge = { value = 11 } }",
        "skills = { block = { value = 13 }, parry = { value = 12 }, dodge = { value = 11 } }",
    )]);
    let state = Fluid::initial_state(&setup);
    let options = fray_rules::fluid::attack::defence_options(&setup, &Fluid::initial_state(&setup), A, 0, B);
    let choice = policy::ai_choice(&setup, &state, B, &Request::Defend { attacker: A, options: options.clone() });
    let Choice::Defence(Some(i)) = choice else { panic!("{choice:?}") };
    // Unarmed Block 13 against S3 gives the attacker +3 (net 10); unarmed Parry 12 −3 = 9; Dodge 11.
    assert_eq!(options[i].skill, DefenceSkill::Dodge);
    let (log, fought) = fight(&setup, &[3, 3, 3, 1, 1, 1, 4, 4, 4], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert!(matches!(attacks(&log)[0], Event::Attack { defence: Some(d), .. } if d.skill == DefenceSkill::Dodge));
    let _ = Ai;
}

fn plan(attacks: &[(CombatantId, Intent)], full_defense: bool) -> Choice {
    Choice::Plan(Plan {
        attacks: attacks.iter().map(|&(target, intent)| DeclaredAttack::single(target, 0, intent)).collect(),
        full_defense,
        movement: None,
        ..Plan::default()
    })
}

fn split() -> Choice {
    Choice::Split { ot: 0, dt: 0 }
}

#[test]
fn full_defense_makes_attacks_inferior_and_gives_up_actions() {
    // rule: FLUID-ACT-8, FLUID-ACT-10
    let setup = duel(&[]);
    let request = Request::Declare {
        options: vec![(B, 0)].into(),
        max_per_item: vec![1].into(),
        skill_group: vec![0].into(),
        rounds: vec![(1, 0)].into(),
    };
    assert!(Fluid::check_choice(&setup, &request, &plan(&[(B, Intent::Lethal)], true)).is_err());
    // B declares Full Defense: A's attack rolls 4 dice and keeps the worst 3 (Inferior +1).
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 6, 6, 6, 1],
        vec![split(), split(), plan(&[(B, Intent::Lethal)], false), plan(&[], true), dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 10 dice");
    let (check, roll) = first_attack(&log);
    assert_eq!((check.edge, roll.natural), (-1, 13));
    // It lasts to the end of the round: next round, without it, 3 dice again.
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 2, 2, 2],
        vec![
            split(),
            split(),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], true),
            dodge(),
            split(),
            split(),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], false),
            dodge(),
        ],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 19 dice");
    let edges: Vec<i32> =
        attacks(&log).iter().map(|e| if let Event::Attack { check, .. } = e { check.edge } else { 0 }).collect();
    assert_eq!(edges, vec![-1, 0]);
    // `until_next_step`: still in force in round 2 until B's step (A acts first there).
    let mut longer = setup.clone();
    longer.options.set("full_defense_duration", "until_next_step").unwrap();
    let (log, fought) = fight(
        &longer,
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 2, 2, 2, 2],
        vec![
            split(),
            split(),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], true),
            dodge(),
            split(),
            split(),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], false),
            dodge(),
        ],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 20 dice");
    let edges: Vec<i32> =
        attacks(&log).iter().map(|e| if let Event::Attack { check, .. } = e { check.edge } else { 0 }).collect();
    assert_eq!(edges, vec![-1, -1]);
}

#[test]
fn full_defense_dropped_in_a_revision_pass_no_longer_applies() {
    // rule: FLUID-ACT-8, FLUID-ACT-1
    // B declares Full Defense, then revises its declaration to a plan without it before the
    // round's steps: A's attack rolls 3 dice, not Inferior +1.
    let setup = duel(&[]);
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 6, 6, 6, 1, 1, 1],
        vec![
            split(),
            split(),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], true),
            plan(&[(B, Intent::Lethal)], false),
            plan(&[], false),
            dodge(),
        ],
    );
    fought.unwrap();
    let (check, roll) = first_attack(&log);
    assert_eq!((check.edge, roll.natural), (0, 18));
}

#[test]
fn a_parry_before_ones_step_earns_a_counterattack() {
    // rule: FLUID-ATK-7, FLUID-ATK-8
    // Both attack; A goes first and B parries (unarmed Parry, the second Parry option) a failure of
    // 7; B's attack on A then gets +7. A Block or Dodge would give nothing.
    let setup = duel(&[
        (
            "skills = { block = { value = 11 }, parry = { value = 11 }, dodge = { value = 11 } }",
            "skills = { block = { value = 11 }, parry = { value = 14 }, dodge = { value = 11 }, sword = { value = 10 } }",
        ),
        (
            "position = 1.0\npolicy = { tactics = \"normal\" }\n",
            "position = 1.0\npolicy = { tactics = \"normal\" }\n[[combatants.items]]\nid = \"blade\"\nkind = \"melee\"\nskill = \"sword\"\ndamage = { w = 2 }\nsizes = [3]\n",
        ),
    ]);
    let options = fray_rules::fluid::attack::defence_options(&setup, &Fluid::initial_state(&setup), A, 0, B);
    let parry = options.iter().position(|o| o.skill == DefenceSkill::Parry && o.item == Some(0)).unwrap();
    let block = options.iter().position(|o| o.skill == DefenceSkill::Block && o.item == Some(0)).unwrap();
    let run = |defence: usize| {
        let (log, ended) = fight(
            &setup,
            &[6, 6, 6, 1, 1, 1, 2, 2, 2, 3, 3, 3],
            vec![
                split(),
                split(),
                plan(&[(B, Intent::Lethal)], false),
                plan(&[(A, Intent::Lethal)], false),
                Choice::Defence(Some(defence)),
                dodge(),
            ],
        );
        assert_eq!(ended.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
        log
    };
    let log = run(parry);
    let bonuses: Vec<(i32, i32)> = attacks(&log)
        .iter()
        .map(|e| if let Event::Attack { check, roll, .. } = e { (check.bonus, roll.margin) } else { (0, 0) })
        .collect();
    // A: 6 + 2 = 8 vs Parry 14: failure of 6. B: skill 0 + counter 6.
    assert_eq!(bonuses[0].1, -6);
    assert_eq!(bonuses[1].0, 6);
    let log = run(block);
    let second = attacks(&log)[1];
    assert!(matches!(second, Event::Attack { check, .. } if check.bonus == 0));
}

#[test]
fn a_failed_unarmed_defence_hurts_the_arm() {
    // rule: FLUID-DEF-8, FLUID-DEF-7
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = 9 }")]);
    let options = fray_rules::fluid::attack::defence_options(&setup, &Fluid::initial_state(&setup), A, 0, B);
    let unarmed_parry = options.iter().position(|o| o.skill == DefenceSkill::Parry && o.item.is_none()).unwrap();
    let unarmed_block = options.iter().position(|o| o.skill == DefenceSkill::Block && o.item.is_none()).unwrap();
    let hit = |setup: &Setup, defence: usize| {
        // Attack 5,5,5 = 15 + 2 + size bonus 3 vs 11: success of 9 → 18W.
        let (log, ended) =
            fight(setup, &[3, 3, 3, 1, 1, 1, 5, 5, 5], vec![split(), split(), Choice::Defence(Some(defence))]);
        // The round is played out: the fight ends, or stops at the next round's initiative.
        assert!(matches!(ended, Ok(_) | Err(FightError::Dice { what: "initiative", .. })), "{ended:?}");
        damage(&log)[0]
    };
    assert_eq!(hit(&setup, unarmed_parry), (0, 18, 4));
    assert_eq!(hit(&setup, unarmed_block), (0, 18, 9));
    let mut convert = setup.clone();
    convert.options.set("unarmed_defense_fail", "convert").unwrap();
    assert_eq!(hit(&convert, unarmed_parry), (0, 0, 4));
}

#[test]
fn one_who_falls_dying_tests_at_its_step_and_does_not_defend_until_then() {
    // rule: FLUID-TRACK-12, FLUID-DEF-13
    // A (W 2) is hit first and falls dying; at its step it makes the NER act test (fails: stunned).
    let text = duel_text_with_option("side_out_when = \"dead\"").replace("pc = 12\nskills", "pc = 12\nw = 2\nskills");
    let text = text.replace("pc = 12\nposition = 1.0", "pc = 12\nposition = 1.0\nskills = { sword = { value = 12 } }\n[[combatants.items]]\nid = \"knife\"\nskill = \"sword\"\ndamage = { w = 1 }");
    let setup = scenario::load("x", &text, &[]).unwrap();
    // Initiative A 1,1,1, B 6,6,6: B first; B hits A (5,5,5: 1 + 7 = 8W, W −6); A's act test
    // 1,1,1 fails.
    let (log, fought) = fight(&setup, &[1, 1, 1, 6, 6, 6, 5, 5, 5, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for BOD test: the script ran out of faces after 12 dice");
    assert!(log.contains(&Event::Condition { who: A, condition: Condition::Dying, gained: true }));
    let act = log
        .iter()
        .position(|e| matches!(e, Event::Check { who: A, kind: fray_rules::fluid::CheckKind::Act, .. }))
        .unwrap();
    let step = log.iter().position(|e| *e == Event::Step { who: A }).unwrap();
    assert_eq!(act, step + 1);
    assert!(log.contains(&Event::Condition { who: A, condition: Condition::Stunned, gained: true }));
    assert_eq!(attacks(&log).len(), 1);
    // `lose_round`: no test, simply no more actions this round.
    let mut lose = setup.clone();
    lose.options.set("dying_midround", "lose_round").unwrap();
    let (log, fought) = fight(&lose, &[1, 1, 1, 6, 6, 6, 5, 5, 5], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for BOD test: the script ran out of faces after 9 dice");
    assert!(!log.iter().any(|e| matches!(e, Event::Check { kind: fray_rules::fluid::CheckKind::Act, .. })));
    assert!(log.contains(&Event::Condition { who: A, condition: Condition::Stunned, gained: true }));
}

#[test]
fn initiative_is_not_a_check() {
    // rule: FLUID-INIT-3
    // A hurt combatant (CP −4) rolls initiative without CP, unless `initiative_cp = true`.
    let setup = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
        "pc = 12\nw = 6\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
    )]);
    let total = |setup: &Setup| {
        let (log, fought) = fight(setup, &[3, 3, 3, 1, 1, 1], vec![]);
        assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
        log.iter()
            .find_map(|e| if let Event::Initiative { who: A, total, .. } = e { Some(*total) } else { None })
            .unwrap()
    };
    assert_eq!(total(&setup), 9);
    let mut with_cp = setup.clone();
    with_cp.options.set("initiative_cp", "true").unwrap();
    assert_eq!(total(&with_cp), 5);
}

#[test]
fn cp_applies_to_attacks_and_optionally_to_defence() {
    // rule: FLUID-TRACK-3, FLUID-TRACK-4, FLUID-ACT-3
    // A at W 7 (CP −3) with the `never` pain policy: its attack takes −3; no multi-action penalty
    // since the pain check is not a check action.
    let setup = duel(&[
        (
            "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
            "pc = 12\nw = 7\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { sword",
        ),
        (
            "policy = { tactics = \"normal\" }\n[[combatants.items]]",
            "policy = { tactics = \"normal\", pain = \"never\" }\n[[combatants.items]]",
        ),
    ]);
    let (log, fought) = fight(&setup, &[3, 3, 3, 1, 1, 1, 4, 4, 4], vec![split(), split(), dodge()]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(first_attack(&log).0.bonus, 2 - 3);
    // Trying the pain check: success (NER 6,6,6) → the attack ignores CP.
    let mut tries = setup.clone();
    tries.combatants[0].policy.set("pain", "always").unwrap();
    let (log, fought) = fight(&tries, &[3, 3, 3, 1, 1, 1, 6, 6, 6, 4, 4, 4], vec![split(), split(), dodge()]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
    assert_eq!(first_attack(&log).0.bonus, 2);
    // `cp_on_defense`: a hurt defender's TNs drop by its CP.
    let hurt_b = duel(&[(
        "pc = 12\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
        "pc = 12\nw = 8\ntactics = 0\nstats = { BOD = 10, NER = 10, FIN = 10 }\nskills = { block",
    )]);
    let tn = |setup: &Setup| {
        let (log, fought) = fight(setup, &[3, 3, 3, 1, 1, 1, 4, 4, 4], vec![split(), split(), dodge()]);
        fought.unwrap();
        first_attack(&log).0.tn
    };
    assert_eq!(tn(&hurt_b), 11);
    let mut on = hurt_b.clone();
    on.options.set("cp_on_defense", "true").unwrap();
    assert_eq!(tn(&on), 9);
}

#[test]
fn melee_needs_reach() {
    // rule: FLUID-MOVE-10, FLUID-GEAR-1
    // 3 m apart: a holding AI declares no attack; an attack declared anyway is dropped at its
    // turn; with `reach_m = 3` it is made.
    let mut far = duel(&[("position = 1.0", "position = 3.0")]);
    far.combatants[0].policy.set("move", "hold").unwrap();
    let state = Fluid::initial_state(&far);
    let request = fray_rules::fluid::policy::declare_options_for_tests(&far, &state, A);
    let Choice::Plan(ai_plan) = policy::ai_choice(&far, &state, A, &request) else { unreachable!() };
    assert!(ai_plan.attacks.is_empty());
    let (log, fought) = fight(&far, &[3, 3, 3, 1, 1, 1], vec![split(), split(), plan(&[(B, Intent::Lethal)], false)]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 6 dice");
    assert!(attacks(&log).is_empty());
    let mut long = far.clone();
    long.options.set("reach_m", "3").unwrap();
    let (log, fought) = fight(
        &long,
        &[3, 3, 3, 1, 1, 1, 4, 4, 4],
        vec![split(), split(), plan(&[(B, Intent::Lethal)], false), dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(attacks(&log).len(), 1);
    // The weapon line of the scenario: OQ, DQ and base damage.
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = 7 }\noq = 1\ndq = -1")]);
    let sword = &setup.combatants[0].items[0];
    assert_eq!((sword.oq, sword.dq, sword.damage_w.clone()), (1, -1, fray_rules::fluid::setup::Amount::Fixed(7)));
}

#[test]
fn skill_values_may_include_the_item() {
    // rule: FLUID-ATK-5
    // A sword with OQ +1 and skill value 12: bonus 2 + 1 = 3. Under `include_item` the value 12
    // already holds the sword's original OQ: bonus 2, and only a sunder loss changes it.
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = 5 }\noq = 1")]);
    let mut state = Fluid::initial_state(&setup);
    let bonus = |setup: &Setup, state: &fray_rules::fluid::State| {
        fray_rules::fluid::attack::attack_check(setup, state, A, 0, B, None, 10, 0, 1, Default::default()).0.bonus
    };
    assert_eq!(bonus(&setup, &state), 3);
    let mut include = setup.clone();
    include.options.set("skill_values", "include_item").unwrap();
    assert_eq!(bonus(&include, &state), 2);
    state.fighters[0].oq[0] = 0;
    assert_eq!((bonus(&setup, &state), bonus(&include, &state)), (2, 1));
}

#[test]
fn everyone_has_an_unarmed_attack() {
    // rule: FLUID-GEAR-5
    let setup = duel(&[]);
    let unarmed = setup.combatants[1].items.last().unwrap();
    assert!(unarmed.unarmed && unarmed.id == "unarmed");
    assert_eq!(
        (unarmed.sizes.clone(), unarmed.damage_w.clone()),
        (vec![0], fray_rules::fluid::setup::Amount::Fixed(0))
    );
    // It is not a defending item (unarmed defence is its own option).
    assert!(!unarmed.defends());
    // `unarmed_damage` sets its damage; an unarmed fighter uses it under `brawl = "when_unarmed"`.
    let mut text_sets = vec![("unarmed_damage".to_string(), "{ s = \"1d3\" }".to_string())];
    let text = duel_text_with_option("");
    let brawler = scenario::load(
        "x",
        &text.replace("pc = 12\nposition = 1.0", "pc = 12\nposition = 1.0\npolicy = { brawl = \"when_unarmed\" }"),
        &text_sets,
    )
    .unwrap();
    let fists = brawler.combatants[1].items.last().unwrap();
    assert!(matches!(fists.damage_s, fray_rules::fluid::setup::Amount::Dice(_)));
    let state = Fluid::initial_state(&brawler);
    let request = policy::declare_options_for_tests(&brawler, &state, B);
    let Choice::Plan(brawl) = policy::ai_choice(&brawler, &state, B, &request) else { unreachable!() };
    assert_eq!(brawl.attacks.iter().map(|a| a.item).collect::<Vec<_>>(), vec![0]);
    text_sets.clear();
    let plain = scenario::load("x", &text, &text_sets).unwrap();
    let state = Fluid::initial_state(&plain);
    let request = policy::declare_options_for_tests(&plain, &state, B);
    let Choice::Plan(none) = policy::ai_choice(&plain, &state, B, &request) else { unreachable!() };
    assert!(none.attacks.is_empty());
}

#[test]
fn hidden_attackers_are_unseen_until_they_strike() {
    // rule: FLUID-ROUND-3, FLUID-ROUND-5, FLUID-ATK-10
    // A is hidden: B (an `answer` policy) sees no foe to answer and cannot target A; A's attack
    // finds B unaware (TN 10 without dT, no defence request) and reveals A.
    let text =
        duel_text_with_option("").replace("pc = 12\nskills = { sword", "pc = 12\nhidden = true\nskills = { sword");
    let text = text.replace(
        "pc = 12\nposition = 1.0",
        "pc = 12\ntactics = 2\nposition = 1.0\npolicy = { tactics = \"answer\" }\nskills = { sword = { value = 12 } }\n[[combatants.items]]\nid = \"blade\"\nskill = \"sword\"\ndamage = { w = 2 }",
    );
    let setup = scenario::load("x", &text, &[]).unwrap();
    let state = Fluid::initial_state(&setup);
    let Request::Declare { options, .. } = policy::declare_options_for_tests(&setup, &state, B) else { unreachable!() };
    assert!(options.is_empty());
    // A (initiative 18) attacks first: TN 10 although B split oT 1 / dT 1.
    let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert!(log.contains(&Event::TacticsSet { who: B, ot: 1, dt: 1 }));
    let (check, _) = first_attack(&log);
    assert_eq!(check.tn, 10);
    assert!(log.contains(&Event::Condition { who: A, condition: Condition::Hidden, gained: false }));
    // `unaware_dt`: the unaware target still adds its dT.
    let mut with_dt = setup.clone();
    with_dt.options.set("unaware_dt", "true").unwrap();
    let (log, fought) = fight(&with_dt, &[6, 6, 6, 1, 1, 1, 4, 4, 4], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert_eq!(first_attack(&log).0.tn, 11);
    // `scripted`: the attack does not reveal.
    let mut stays = setup.clone();
    stays.options.set("hidden_reveal", "scripted").unwrap();
    let (log, fought) = fight(&stays, &[6, 6, 6, 1, 1, 1, 4, 4, 4], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    assert!(!log.iter().any(|e| matches!(e, Event::Condition { condition: Condition::Hidden, .. })));
}

#[test]
fn tactics_are_revised_after_the_announcements() {
    // rule: FLUID-TAC-3
    // Two `answer` players announce in roster order; in the revision pass A sees B's all-out
    // offence and turns defensive. With no revision pass, A keeps its first split.
    let text = duel_text_with_option("")
        .replace(
            "pc = 12\nskills = { sword",
            "pc = 12\nplayer = true\ntactics = 2\npolicy = { tactics = \"answer\" }\nskills = { sword",
        )
        .replace(
            "pc = 12\nposition = 1.0",
            "pc = 12\nplayer = true\ntactics = 2\nposition = 1.0\npolicy = { tactics = \"aggressive\" }",
        );
    let setup = scenario::load("x", &text, &[]).unwrap();
    let (log, fought) = fight(&setup, &[3, 3, 3, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    let splits: Vec<(i32, i32)> = log
        .iter()
        .filter_map(|e| if let Event::TacticsSet { who: A, ot, dt } = e { Some((*ot, *dt)) } else { None })
        .collect();
    assert_eq!(splits, vec![(1, 1), (0, 2)]);
    let none = scenario::load("x", &text, &[("tactics_passes".into(), "0".into())]).unwrap();
    let (log, fought) = fight(&none, &[3, 3, 3, 1, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    assert_eq!(log.iter().filter(|e| matches!(e, Event::TacticsSet { who: A, .. })).count(), 1);
}

#[test]
fn a_combatant_may_let_another_act_first() {
    // rule: FLUID-INIT-6
    // A (initiative 18) delays to just after B (3).
    let setup = duel(&[]);
    let delay = Choice::Plan(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(B, 0, Intent::Lethal)],
        delay_after: Some(B),
        ..Plan::default()
    });
    let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1], vec![split(), split(), delay]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [B, A])));
}

#[test]
fn a_heal_check_stabilizes_a_dying_ally() {
    // rule: FLUID-TRACK-10, FLUID-TRACK-6, FLUID-ACT-8
    // B (W −2, dying) and its friend C, 1 m away, with Heal 12. C heals B instead of attacking:
    // 4,4,4 + 2 = 14 vs 10 → B is stabilized; its later BOD tests ignore failures.
    let text = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nw = -2\nposition = 1.0")
        + "[[combatants]]\nid = \"c\"\nside = \"two\"\npc = 10\nskills = { heal = { value = 12 } }\nposition = 2.0\n";
    let setup = scenario::load("x", &text, &[]).unwrap();
    // Round start: B's BOD test (4,4,3: +1 → W −1) and act test (6,6,6); initiative A 1,1,1,
    // B 2,2,2, C 6,6,6; C's Heal check 4,4,4.
    let (log, fought) = fight(&setup, &[4, 4, 3, 6, 6, 6, 1, 1, 1, 2, 2, 2, 6, 6, 6, 4, 4, 4], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 18 dice");
    assert!(log.contains(&Event::Condition { who: B, condition: Condition::Stabilized, gained: true }));
    // The check's bonus: Heal 12 − 10 = +2.
    let heal = log.iter().find_map(|e| match e {
        Event::Check { who: CombatantId(2), kind: fray_rules::fluid::CheckKind::Heal, check, .. } => Some(check.bonus),
        _ => None,
    });
    assert_eq!(heal, Some(2));
    let mut state = fray_engine::replay::<Fluid>(&setup, &log);
    assert!(state.fighters[1].stabilized);
    // A failed BOD test (margin −5) leaves a stabilized W unchanged.
    let w = state.fighters[1].w;
    let check = fray_rules::fluid::check::Check { edge: 0, bonus: 0, tn: 10 };
    let roll = check.resolve(&setup.options, fray_rules::fluid::check::Faces::from_slice(&[1, 2, 2]));
    <Fluid as fray_engine::Ruleset>::apply(
        &setup,
        &mut state,
        &Event::Check { who: B, kind: fray_rules::fluid::CheckKind::Bod, check, roll },
    );
    assert_eq!(state.fighters[1].w, w);
    // Only an ally is healed: A, B's foe, declaring a Heal on B makes no Heal check; and a Heal
    // is an action Full Defense gives up (FLUID-ACT-8).
    let lone = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nw = -2\nposition = 1.0");
    let lone =
        scenario::load("x", &lone.replace("skills = { sword", "skills = { heal = { value = 12 }, sword"), &[]).unwrap();
    let heal_b = Plan { heal: Some(B), ..Plan::default() };
    let (log, fought) =
        fight(&lone, &[4, 4, 3, 6, 6, 6, 6, 6, 6, 1, 1, 1, 4, 4, 4], vec![split(), Choice::Plan(heal_b.clone())]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 15 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Declared { who: A, plan } if plan.heal == Some(B))), "{log:#?}");
    assert!(
        !log.iter().any(|e| matches!(e, Event::Check { kind: fray_rules::fluid::CheckKind::Heal, .. })),
        "{log:#?}"
    );
    let request = policy::declare_options_for_tests(&lone, &Fluid::initial_state(&lone), A);
    assert!(Fluid::check_choice(&lone, &request, &Choice::Plan(heal_b.clone())).is_ok());
    let both = Plan { full_defense: true, ..heal_b };
    assert!(Fluid::check_choice(&lone, &request, &Choice::Plan(both)).is_err());
}

#[test]
fn switching_to_full_defense_mid_round_costs_one_and_applies_at_once() {
    // rule: FLUID-ACT-6, FLUID-ACT-10, FLUID-ACT-9
    // Both declare an attack; A goes first. As A's step begins, B switches to Full Defense: one
    // change, and A's attack is already Inferior +1.
    let setup = duel(&[
        (
            "skills = { block = { value = 11 }, parry = { value = 11 }, dodge = { value = 11 } }",
            "skills = { block = { value = 11 }, parry = { value = 11 }, dodge = { value = 11 }, sword = { value = 12 } }",
        ),
        (
            "position = 1.0\npolicy = { tactics = \"normal\" }\n",
            "position = 1.0\npolicy = { tactics = \"normal\" }\n[[combatants.items]]\nid = \"blade\"\nskill = \"sword\"\ndamage = { w = 2 }\n",
        ),
    ]);
    let b_plan = Choice::Plan(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(A, 0, Intent::Lethal)],
        ..Plan::default()
    });
    let to_fd = Choice::Revise(Some(Plan { full_defense: true, ..Plan::default() }));
    let (log, fought) = fight(
        &setup,
        &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4],
        vec![split(), split(), plan(&[(B, Intent::Lethal)], false), b_plan, Choice::Revise(None), to_fd, dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 10 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Revised { who: B, changes: 1, .. })));
    let (check, roll) = first_attack(&log);
    assert_eq!((check.edge, roll.faces.as_slice().len()), (-1, 4));
    assert_eq!(attacks(&log).len(), 1);
    let round_two = log.iter().position(|e| *e == Event::RoundStarted { round: 2 }).unwrap_or(log.len());
    let state = fray_engine::replay::<Fluid>(&setup, &log[..round_two]);
    assert_eq!(state.fighters[1].changes, 1);
    // Once it has acted (other than moving), Full Defense is no longer allowed.
    let request = Request::Revise { step: A, remaining: Default::default(), full_defense_allowed: false };
    let fd = Choice::Revise(Some(Plan { full_defense: true, ..Plan::default() }));
    assert!(Fluid::check_choice(&setup, &request, &fd).is_err());
    let request = Request::Revise { step: A, remaining: Default::default(), full_defense_allowed: true };
    assert!(Fluid::check_choice(&setup, &request, &fd).is_ok());
}

#[test]
fn the_multi_action_count_is_fixed_by_the_declaration() {
    // rule: FLUID-ACT-5, FLUID-ACT-6
    // A (rank 1) declares two attacks and, as its step begins, drops the second: not a change,
    // but N stays 2 (−2) unless `multi_action_count = current_plan`.
    let setup = duel(&[("sword = { value = 12, rank = 0 }", "sword = { value = 12, rank = 1 }")]);
    let keep_one = Choice::Revise(Some(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(B, 0, Intent::Lethal)],
        ..Plan::default()
    }));
    let script = |revise: Choice| {
        vec![split(), split(), plan(&[(B, Intent::Lethal), (B, Intent::Lethal)], false), revise, dodge(), dodge()]
    };
    let bonus = |setup: &Setup, revise: Choice| {
        let (log, fought) = fight(setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], script(revise));
        assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
        attacks(&log)
            .iter()
            .map(|e| if let Event::Attack { check, .. } = e { check.bonus } else { 0 })
            .collect::<Vec<_>>()
    };
    assert_eq!(bonus(&setup, keep_one.clone()), vec![2 - 2]);
    let mut current = setup.clone();
    current.options.set("multi_action_count", "current_plan").unwrap();
    assert_eq!(bonus(&current, keep_one), vec![2]);
    // Replacing the first attack with a stunning one is a change: −1 more on every check.
    let replace = Choice::Revise(Some(Plan {
        attacks: smallvec::smallvec![
            DeclaredAttack::single(B, 0, Intent::Stunning),
            DeclaredAttack::single(B, 0, Intent::Lethal)
        ],
        ..Plan::default()
    }));
    assert_eq!(bonus(&setup, replace), vec![2 - 2 - 1, 2 - 2 - 1]);
    // Dropping the first of two different attacks keeps the second: no change either.
    let mixed = |revise: Choice| {
        let script = vec![
            split(),
            split(),
            plan(&[(B, Intent::Lethal), (B, Intent::Stunning)], false),
            revise,
            dodge(),
            dodge(),
        ];
        let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], script);
        assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
        log.iter().find_map(|e| if let Event::Revised { changes, .. } = e { Some(*changes) } else { None })
    };
    let second_only = Choice::Revise(Some(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(B, 0, Intent::Stunning)],
        ..Plan::default()
    }));
    assert_eq!(mixed(second_only), Some(0));
    // Adding a second attack after the one kept is a change that raises N (`added`).
    let add = Choice::Revise(Some(Plan {
        attacks: smallvec::smallvec![
            DeclaredAttack::single(B, 0, Intent::Lethal),
            DeclaredAttack::single(B, 0, Intent::Stunning)
        ],
        ..Plan::default()
    }));
    let script = vec![split(), split(), plan(&[(B, Intent::Lethal)], false), add, dodge(), dodge()];
    let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 4, 4, 4, 4, 4, 4], script);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 12 dice");
    let revised = log
        .iter()
        .find_map(|e| if let Event::Revised { changes, added, .. } = e { Some((*changes, *added)) } else { None });
    assert_eq!(revised, Some((1, 1)), "{log:#?}");
}

#[test]
fn tied_players_choose_their_own_order() {
    // rule: FLUID-INIT-5
    // Two players tie at 9: the first in roster order answers for both; B goes first, and no
    // tie-break die is rolled. An empty answer leaves it to FLUID-INIT-4 (a roll-off here).
    let text = duel_text_with_option("")
        .replace("pc = 12\nskills = { sword", "pc = 12\nplayer = true\nskills = { sword")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nplayer = true\nposition = 1.0");
    let setup = scenario::load("x", &text, &[]).unwrap();
    let request = Request::TieOrder { tied: smallvec::smallvec![A, B] };
    assert!(Fluid::check_choice(&setup, &request, &Choice::Order(smallvec::smallvec![A])).is_err());
    let (log, fought) = fight(&setup, &[3, 3, 3, 3, 3, 3], vec![Choice::Order(smallvec::smallvec![B, A])]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [B, A])));
    assert!(!log.iter().any(|e| matches!(e, Event::TieBreak { .. })));
    let (log, fought) = fight(&setup, &[3, 3, 3, 3, 3, 3, 2, 5], vec![Choice::Order(Default::default())]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 8 dice");
    assert!(log.iter().any(|e| matches!(e, Event::TieBreak { .. })));
}

#[test]
fn an_ally_may_guard_an_incapacitated_friend() {
    // rule: FLUID-DEF-14, FLUID-ATK-7, FLUID-DEF-8
    // B lies unconscious; C, 1 m from it, Parries A's attack with its sword: C's TN (13 + DQ 1),
    // no Superior +2 against the helpless; the damage still goes to B.
    let text = duel_text_with_option("side_out_when = \"dead\"")
        .replace("pc = 12\nposition = 1.0", "pc = 12\ns = 0\nposition = 1.0")
        + "[[combatants]]\nid = \"c\"\nside = \"two\"\npc = 10\nskills = { parry = { value = 13 }, block = { value = 13 } }\nposition = 2.0\npolicy = { move = \"hold\" }\n[[combatants.items]]\nid = \"sword\"\nskill = \"parry\"\ndq = 1\n";
    let setup = scenario::load("x", &text, &[]).unwrap();
    // Initiative: A 6,6,6, C 1,1,1 (B is unconscious: no roll). A's attack 6,6,5 (natural 17).
    let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 6, 6, 5], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 9 dice");
    let Some(Event::Attack { target, defence: Some(d), check, .. }) = attacks(&log).first().copied().cloned() else {
        panic!("{log:?}")
    };
    assert_eq!((target, d.guard, d.skill, check.tn, check.edge), (B, Some(CombatantId(2)), DefenceSkill::Parry, 14, 0));
    assert!(log.iter().any(|e| matches!(e, Event::Damage { target: B, .. })));
    // Nobody near: the attack on the helpless is Superior +2 against TN 10.
    let alone = scenario::load("x", &text.replace("position = 2.0", "position = 9.0"), &[]).unwrap();
    let (log, fought) = fight(&alone, &[6, 6, 6, 1, 1, 1, 6, 6, 5, 1, 1], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 11 dice");
    assert_eq!(first_attack(&log).0.edge, 2);
    // A parry by the guard gives the guard, not the guarded, the counterattack bonus of the
    // attack's failures (FLUID-ATK-7): A's faces 3,2,2 (natural 7, + 2) against TN 14, 5 failures.
    let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 3, 2, 2], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 9 dice");
    let at = log.iter().position(|e| matches!(e, Event::Attack { .. })).expect("an attack");
    let state = fray_engine::replay::<Fluid>(&setup, &log[..=at]);
    assert_eq!(state.fighters[2].counters.as_slice(), [(A, 5)], "{:?}", log[at]);
    assert!(state.fighters[1].counters.is_empty());
    // An unarmed guard whose defence fails hurts its own arm, not the friend's (FLUID-DEF-8):
    // the friend takes the hit's W and no S; the guard ⌊W/4⌋ S (Parry) or ⌊W/2⌋ S (Block).
    let unarmed = scenario::load(
        "x",
        &text.replace("[[combatants.items]]\nid = \"sword\"\nskill = \"parry\"\ndq = 1\n", ""),
        &[],
    )
    .unwrap();
    let (log, fought) = fight(&unarmed, &[6, 6, 6, 1, 1, 1, 6, 6, 5, 3, 3], vec![]);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 11 dice");
    let Some(Event::Attack { defence: Some(d), roll, .. }) = attacks(&log).first().copied().cloned() else {
        panic!("{log:?}")
    };
    assert!(roll.margin >= 0 && d.item.is_none() && d.guard == Some(CombatantId(2)), "{log:#?}");
    let taken = |who: CombatantId| {
        log.iter().find_map(|e| match e {
            Event::Damage { target, w, s, .. } if *target == who => Some((*w, *s)),
            _ => None,
        })
    };
    let (w, s) = taken(B).expect("the friend is hit");
    let arm = if d.skill == DefenceSkill::Parry { w / 4 } else { w / 2 };
    assert!(arm > 0 && s == 0, "{log:#?}");
    assert_eq!(taken(CombatantId(2)), Some((0, arm)));
}

#[test]
fn the_stat_blocks_bookkeeping_fields_load_and_natural_armour_takes_the_creatures_size() {
    // rule: FLUID-ARM-4
    // An item's `name`, `original` and `sunder_log`, and armour's `natural`, `original_av` and
    // `sunder_log`, are fields of the stat block; natural armour's size is the creature's.
    let setup = duel(&[
        ("id = \"sword\"\n", "id = \"sword\"\nname = \"long sword\"\noriginal = { oq = 0, dq = 0 }\nsunder_log = []\n"),
        (
            "position = 1.0",
            "position = 1.0\nsize = 5\narmor = { name = \"scales\", av = 2, natural = true, original_av = 2, sunder_log = [\"Sunder (-1 AV)\"] }",
        ),
    ]);
    assert_eq!(setup.combatants[1].armor.as_ref().map(|a| a.size), Some(5));
    // Worn armour without a size is medium (3), whatever the wearer's size.
    let worn = duel(&[("position = 1.0", "position = 1.0\nsize = 5\narmor = { name = \"mail\", av = 2 }")]);
    assert_eq!(worn.combatants[1].armor.as_ref().map(|a| a.size), Some(3));
}

#[test]
fn a_revised_plan_keeps_the_declarations_rules() {
    // rule: FLUID-ACT-6, FLUID-ACT-7
    // A (rank 0: one attack with its sword) declares one attack on B. Revising it at its step to
    // two attacks, or to an attack on itself, is refused like such a declaration; revising it to
    // a stunning attack on B is a legal change.
    let setup = duel(&[]);
    let revise = |attacks: &[(CombatantId, Intent)]| {
        let Choice::Plan(plan) = plan(attacks, false) else { unreachable!() };
        Choice::Revise(Some(plan))
    };
    let script = |revision: Choice| {
        vec![split(), split(), plan(&[(B, Intent::Lethal)], false), plan(&[], false), revision, dodge()]
    };
    let faces = [6, 6, 6, 1, 1, 1, 4, 4, 4, 1, 1, 1];
    let (_, result) = fight(&setup, &faces, script(revise(&[(B, Intent::Lethal), (B, Intent::Lethal)])));
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })), "{result:?}");
    let (_, result) = fight(&setup, &faces, script(revise(&[(A, Intent::Lethal)])));
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })), "{result:?}");
    let (log, result) = fight(&setup, &faces, script(revise(&[(B, Intent::Stunning)])));
    assert!(!matches!(result, Err(FightError::IllegalChoice { .. })), "{result:?}");
    assert!(log.iter().any(|e| matches!(e, Event::Revised { who: A, changes: 1, .. })), "{log:#?}");
}

#[test]
fn default_pain_policy_tries_the_check_only_when_it_pays() {
    // rule: FLUID-TRACK-4
    // The default `expected` policy compares the check's expected penalty (0 on a success, CP − f
    // on a failure of f) with CP. NER 10 at CP −3: 3d6 − 3 vs 10 succeeds 56 times in 216 and a
    // failure costs more than −3 on average: take CP. NER 18 at CP −1: 3d6 + 7 vs 10 fails only
    // on blunders 5, 4, 3 (−4·6 − 9·3 − 14·1 = −65 in 216 ≈ −0.3, better than −1): try it.
    let setup = duel(&[]);
    let state = Fluid::initial_state(&setup);
    let asks = |setup: &Setup, cp| match policy::ai_choice(setup, &state, A, &Request::Pain { cp }) {
        Choice::Pain(tries) => tries,
        _ => unreachable!(),
    };
    assert!(!asks(&setup, -3));
    let mut nerve = setup.clone();
    nerve.combatants[0].stats[fray_rules::fluid::setup::NER] = 18;
    assert!(asks(&nerve, -1));
    // `always` is the literal policy; `never` never tries.
    let mut always = setup.clone();
    always.combatants[0].policy.set("pain", "always").unwrap();
    assert!(asks(&always, -3));
    let mut never = nerve.clone();
    never.combatants[0].policy.set("pain", "never").unwrap();
    assert!(!asks(&never, -1));
}

#[test]
fn a_fighter_with_no_usable_weapon_brawls_or_takes_full_defense() {
    // rule: FLUID-GEAR-5, FLUID-ACT-8, FLUID-GEAR-4
    // guard_1 of the firefight, its SMG out of ammunition, with a raider moved next to it: under
    // `brawl = "when_unarmed"` it punches; otherwise it takes Full Defense rather than nothing.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/firefight.toml");
    let mut setup = scenario::load("firefight.toml", &std::fs::read_to_string(path).unwrap(), &[]).unwrap();
    let guard = A;
    let mut state = Fluid::initial_state(&setup);
    state.fighters[guard.index()].ammo[0] = Some(0);
    state.fighters[4].pos = fray_engine::Pos::new(1.0, 0.0);
    let plan = |setup: &Setup, state: &fray_rules::fluid::State| {
        let request = policy::declare_options_for_tests(setup, state, guard);
        let Choice::Plan(plan) = policy::ai_choice(setup, state, guard, &request) else { unreachable!() };
        plan
    };
    let idle = plan(&setup, &state);
    assert!(idle.full_defense && idle.attacks.is_empty(), "{idle:?}");
    setup.combatants[guard.index()].policy.set("brawl", "when_unarmed").unwrap();
    let fists = plan(&setup, &state);
    let unarmed = setup.combatants[guard.index()].items.iter().position(|i| i.unarmed).unwrap();
    assert!(!fists.full_defense, "{fists:?}");
    assert!(fists.attacks.iter().any(|a| usize::from(a.item) == unarmed), "{fists:?}");
}

#[test]
fn the_ai_walks_when_a_walk_brings_it_within_reach() {
    // rule: FLUID-MOVE-2, FLUID-MOVE-10, FLUID-MOVE-11
    // Move 4, the target 6 m away, reach 2: a 4 m walk ends 2 m off, within reach, so the AI
    // walks rather than run (an extra action and a Run check). At 7 m it must use the Run skill,
    // and then sprints (see `fluid_movement.rs`).
    let mut setup = duel(&[]);
    setup.combatants[0].policy.set("move", "close").unwrap();
    setup.combatants[0].move_m = 4.0;
    let mut state = Fluid::initial_state(&setup);
    state.fighters[1].pos = fray_engine::Pos::new(6.0, 0.0);
    let mode = |state: &fray_rules::fluid::State| policy::closing_move(&setup, state, A, B, 1).map(|m| m.mode);
    assert_eq!(mode(&state), Some(fray_rules::fluid::MoveMode::Walk));
    state.fighters[1].pos = fray_engine::Pos::new(7.0, 0.0);
    assert_eq!(mode(&state), Some(fray_rules::fluid::MoveMode::Sprint));
}

#[test]
fn a_menus_hit_odds_are_those_of_the_check_the_fight_then_rolls() {
    // rule: FLUID-TAC-2, FLUID-ACT-1, FLUID-DICE-5
    // A person's declaration menu shows each attack's exact chance to hit (the odds in the state of
    // the declaration pass, after this round's split): for every split and number of attacks it is
    // the chance of the very check the fight then rolls.
    use fray_rules::fluid::odds::{Fire, odds_in_state};
    let setup = duel(&[("tactics = 0", "tactics = 4"), ("value = 12, rank = 0", "value = 14, rank = 2")]);
    for ot in 0..=4 {
        for count in 1..=2usize {
            let split = Choice::Split { ot, dt: 4 - ot };
            let attacks = vec![DeclaredAttack::single(B, 0, Intent::Lethal); count];
            let plan = Plan { attacks: attacks.into_iter().collect(), ..Plan::default() };
            let (log, ended) = fight(
                &setup,
                &[2, 5, 4, 3, 6, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
                vec![
                    split.clone(),
                    Choice::Split { ot: 0, dt: 0 },
                    Choice::Plan(plan.clone()),
                    Choice::Plan(Plan::default()),
                ],
            );
            // A's attacks are rolled: the fight ends, or stops later for want of an attack's dice.
            assert!(matches!(ended, Ok(_) | Err(FightError::Dice { what: "attack", .. })), "{ended:?}");
            let (check, _) = first_attack(&log);
            let rolled: fray_dice::BigRational =
                check.margin_distribution(&setup.options).into_iter().filter(|(m, _)| *m >= 0).map(|(_, p)| p).sum();
            // The state the menu is built in: the round's splits set, the declarations made.
            let mut state = Fluid::initial_state(&setup);
            for event in [
                Event::RoundStarted { round: 1 },
                Event::TacticsSet { who: A, ot, dt: 4 - ot },
                Event::TacticsSet { who: B, ot: 0, dt: 0 },
                Event::Declared { who: A, plan },
                Event::Declared { who: B, plan: Plan::default() },
            ] {
                Fluid::apply(&setup, &mut state, &event);
            }
            let shown = odds_in_state(&setup, &state, A, B, 0, count as i32, Intent::Lethal, Fire::SINGLE);
            assert_eq!(shown.hit, rolled, "oT {ot}, {count} attack(s): {check:?}");
        }
    }
    // The step5 ladder makes naturals 3, 4 and 5 count −10, −5 and 0 (FLUID-DICE-5): +7 against
    // TN 9 misses on them, 10 chances in 216 — a 103/108 chance to hit, not a sure hit.
    let check = fray_rules::fluid::check::Check { edge: 0, bonus: 7, tn: 9 };
    let hit: fray_dice::BigRational =
        check.margin_distribution(&setup.options).into_iter().filter(|(m, _)| *m >= 0).map(|(_, p)| p).sum();
    assert_eq!(hit, fray_dice::BigRational::new(103.into(), 108.into()));
}

#[test]
fn the_simulators_tally_counts_hits_and_only_real_crits() {
    // Not a clause: `fray sim`'s hit and crit rates read each attack's tally. A's hit at margin
    // 0 (as in `base_damage_successes_and_intent`) is a hit and no crit.
    let setup = duel(&[("damage = { w = 5 }", "damage = { w = 5, s = 1 }")]);
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 3, 3, 3],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    let attack = attacks(&log).into_iter().next().expect("an attack");
    let Event::Attack { roll, .. } = attack else { unreachable!() };
    assert_eq!((roll.margin, roll.crit), (0, 0));
    assert_eq!(Fluid::tally(attack), Some(fray_engine::Tally::Attack { by: A, hit: true, crit: false }));
}

#[test]
fn the_multi_action_penalty_follows_its_option() {
    // rule: FLUID-ACT-4
    let penalties = |option: &str| {
        let setup = duel(&[("[rules.options]", &format!("[rules.options]\nmulti_action_penalty = \"{option}\""))]);
        [1, 2, 3].map(|n| fray_rules::fluid::attack::multi_action_penalty(&setup, n))
    };
    assert_eq!(penalties("n_if_multiple"), [0, -2, -3]);
    assert_eq!(penalties("n_minus_one"), [0, -1, -2]);
    assert_eq!(penalties("n_always"), [-1, -2, -3]);
}

#[test]
fn the_log_itemises_an_attack_checks_bonus() {
    // Not a clause: the JSON log names each non-zero term of the attack check's bonus, and the
    // text shows them; they add up to the bonus (FLUID-ATK-2). A's sword skill 12: +2.
    let setup = duel(&[]);
    let (log, fought) = fight(
        &setup,
        &[3, 3, 3, 1, 1, 1, 3, 3, 3],
        vec![Choice::Split { ot: 0, dt: 0 }, Choice::Split { ot: 0, dt: 0 }, dodge()],
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative: the script ran out of faces after 9 dice");
    let attack = attacks(&log).into_iter().next().expect("an attack");
    let json = serde_json::to_value(attack).unwrap();
    let line = fray_rules::fluid::FluidScenario(setup.clone()).line(attack).text.unwrap();
    assert_eq!(json["terms"], serde_json::json!([["skill", 2]]));
    assert_eq!(json["check"]["bonus"], 2);
    assert!(line.contains("natural 9 +2 (skill 2)"), "{line}");
}

#[test]
fn the_counterattack_bonus_is_the_largest_failure_or_the_last() {
    // rule: FLUID-ATK-8
    // As in the guard test above, C's parry of A's attack leaves C a counterattack bonus of its
    // 5 failures. A second parried attack by A with 1 failure: the bonus stays 5 under
    // `counter_bonus = largest`, becomes 1 under `last`.
    for (option, want) in [("largest", 5), ("last", 1)] {
        let text = duel_text_with_option(&format!("side_out_when = \"dead\"\ncounter_bonus = \"{option}\""))
            .replace("pc = 12\nposition = 1.0", "pc = 12\ns = 0\nposition = 1.0")
            + "[[combatants]]\nid = \"c\"\nside = \"two\"\npc = 10\nskills = { parry = { value = 13 }, block = { value = 13 } }\nposition = 2.0\npolicy = { move = \"hold\" }\n[[combatants.items]]\nid = \"sword\"\nskill = \"parry\"\ndq = 1\n";
        let setup = scenario::load("x", &text, &[]).unwrap();
        let (log, fought) = fight(&setup, &[6, 6, 6, 1, 1, 1, 3, 2, 2], vec![]);
        assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 9 dice");
        let at = log.iter().position(|e| matches!(e, Event::Attack { .. })).expect("an attack");
        let mut state = fray_engine::replay::<Fluid>(&setup, &log[..=at]);
        assert_eq!(state.fighters[2].counters.as_slice(), [(A, 5)]);
        let mut again = log[at].clone();
        let Event::Attack { roll, .. } = &mut again else { unreachable!() };
        roll.margin = -1;
        Fluid::apply(&setup, &mut state, &again);
        assert_eq!(state.fighters[2].counters.as_slice(), [(A, want)], "{option}");
    }
}

#[test]
fn a_dying_combatant_that_passed_its_test_defends_unless_never() {
    // rule: FLUID-DEF-13
    let setup = duel(&[]);
    let mut b = Fluid::initial_state(&setup).fighters[1].clone();
    b.dying = true;
    assert!(!b.defends(&setup.options), "untested");
    b.act_tested = true;
    assert!(b.defends(&setup.options));
    let mut never = setup.options.clone();
    never.set("dying_defends", "never").unwrap();
    assert!(!b.defends(&never));
}

#[test]
fn players_who_tie_with_no_one_are_not_asked_an_order() {
    // rule: FLUID-INIT-5
    // Two players, 18 and 3: no tie, so no one is asked to order a tie.
    let text = duel_text_with_option("")
        .replace("pc = 12\nskills = { sword", "pc = 12\nplayer = true\nskills = { sword")
        .replace("pc = 12\nposition = 1.0", "pc = 12\nplayer = true\nposition = 1.0");
    let setup = scenario::load("x", &text, &[]).unwrap();
    let mut asked = common::FluidAsked::default();
    let mut fight =
        Fight::<Fluid, _, _, _>::new(&setup, Scripted::faces([6, 6, 6, 1, 1, 1]), &mut asked, Record::default());
    let fought = fight.run();
    drop(fight);
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    assert!(!asked.requests.iter().any(|r| matches!(r, Request::TieOrder { .. })), "{:?}", asked.requests);
}

#[test]
fn a_bad_damage_expression_is_underlined_where_it_fails() {
    // Not a clause: the loader's error names the place in the dice expression that fails, and
    // its width, for the caret line under it.
    let text = duel_text_with_option("").replacen("damage = { w = 5 }", "damage = { w = \"2d6+\" }", 1);
    let e = scenario::load("x.toml", &text, &[]).map(|_| ()).expect_err("a bad expression");
    let line = text.lines().nth(e.line - 1).unwrap();
    let start = line.find("2d6+").unwrap() + 1;
    assert!(e.column >= start && e.column + e.width <= start + 4 + 1, "{e:?}");
    assert!(e.width <= 4, "{e:?}");
}

#[test]
fn the_odds_give_each_defence_a_person_may_choose() {
    // rule: FLUID-DEF-4
    // The marauder's AI blocks the barbarian's axe with his long sword; a person controlling him
    // may choose another legal defence. The odds give each: the parry with the long sword is the
    // marauder's own choice (and odds) once his block and dodge are too poor to prefer.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/fluid/barbarian-vs-marauder.toml"
    ))
    .unwrap();
    let load = |text: &str| fray_rules::fluid::scenario::load("bvm.toml", text, &[]).unwrap();
    let odds = fray_rules::fluid::odds::attack_odds(&load(&text), "barbarian", "marauder").unwrap();
    assert!(odds.assumptions.iter().any(|a| a.starts_with("marauder uses block with long_sword at TN 13")));
    let alternatives: Vec<&String> =
        odds.assumptions.iter().filter(|a| a.contains("instead (a person controlling him decides)")).collect();
    assert_eq!(alternatives.len(), 4, "{alternatives:#?}");
    let poor = text.replace(
        "block = { value = 12 }, parry = { value = 11 }, dodge = { value = 11 }",
        "block = { value = 1 }, parry = { value = 11 }, dodge = { value = 1 }",
    );
    assert_ne!(poor, text);
    let parrying = fray_rules::fluid::odds::attack_odds(&load(&poor), "barbarian", "marauder").unwrap();
    assert!(parrying.assumptions.iter().any(|a| a.starts_with("marauder uses parry with long_sword at TN 12")));
    let line = alternatives.iter().find(|a| a.starts_with("if marauder uses parry with long_sword instead")).unwrap();
    assert!(
        line.ends_with(&format!(
            "hit {}, takes marauder out {}",
            fray_dice::fraction(&parrying.hit),
            fray_dice::fraction(&parrying.down)
        )),
        "{line}"
    );
}
