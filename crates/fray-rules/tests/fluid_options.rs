//! `fluid` options and their alternatives, one test each, on small inline scenarios.

mod common;

use fray_engine::{CombatantId, Fight, Record, Ruleset, Scripted};
use fray_rules::fluid::policy::{self, stance_split};
use fray_rules::fluid::{
    Choice, Condition, DeclaredAttack, DefenceSkill, Event, Fluid, Intent, Plan, Request, Setup, scenario,
};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

/// A (sword 12) at 0 and B (Dodge 11) at 1; `a` and `b` add lines to each, `sets` options.
fn duel(a: &str, b: &str, sets: &[(&str, &str)]) -> Setup {
    let text = duel_text(a, b);
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("options.toml", &text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

/// The text of [`duel`].
fn duel_text(a: &str, b: &str) -> String {
    format!(
        "[rules]\nruleset = \"fluid\"\n[[combatants]]\nid = \"a\"\nside = \"one\"\npc = 12\nposition = 0.0\nskills = {{ sword = {{ value = 12 }} }}\n{a}\n[[combatants.items]]\nid = \"sword\"\nskill = \"sword\"\ndamage = {{ w = 5 }}\n[[combatants]]\nid = \"b\"\nside = \"two\"\npc = 12\nposition = 1.0\nskills = {{ dodge = {{ value = 11 }}, block = {{ value = 11 }} }}\n{b}\n"
    )
}

#[track_caller]
fn fight(setup: &Setup, faces: &[u32], choices: Vec<Choice>) -> Vec<Event> {
    let decider = policy::Scripted { choices: choices.into(), splits: Vec::new() };
    // Round 1 only: the round the test scripts.
    let setup = &Setup { max_rounds: 1, ..setup.clone() };
    let mut fight = Fight::<Fluid, _, _, _>::new(setup, Scripted::faces(faces), decider, Record::default());
    fight.run().unwrap();
    fight.into_parts().1.0
}

/// The events of round 1.
fn round_one(log: &[Event]) -> &[Event] {
    let end = log.iter().position(|e| *e == Event::RoundStarted { round: 2 }).unwrap_or(log.len());
    &log[..end]
}

fn attack(log: &[Event]) -> Option<(i32, i32, i32)> {
    log.iter().find_map(|e| {
        if let Event::Attack { check, roll, .. } = e { Some((check.tn, check.edge, roll.margin)) } else { None }
    })
}

#[test]
fn negative_tactics_may_be_split() {
    // rule: FLUID-TAC-5
    let zero = duel("", "", &[]);
    assert_eq!(stance_split(&zero, -3, "normal"), (0, 0));
    assert!(Fluid::check_choice(&zero, &Request::Tactics { tactics: -3 }, &Choice::Split { ot: -1, dt: -2 }).is_err());
    let split = duel("", "", &[("negative_tactics", "split")]);
    assert_eq!(stance_split(&split, -3, "normal"), (-1, -2));
    assert_eq!(stance_split(&split, -3, "aggressive"), (-3, 0));
    assert!(Fluid::check_choice(&split, &Request::Tactics { tactics: -3 }, &Choice::Split { ot: -1, dt: -2 }).is_ok());
    assert!(Fluid::check_choice(&split, &Request::Tactics { tactics: -3 }, &Choice::Split { ot: 1, dt: -4 }).is_err());
}

#[test]
fn the_incapacitated_may_roll_initiative() {
    // rule: FLUID-INIT-7
    let rolls = |sets: &[(&str, &str)]| {
        let setup = duel("", "s = 0", &[&[("side_out_when", "dead")], sets].concat());
        let log = fight(&setup, &[3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1], vec![]);
        round_one(&log).iter().filter(|e| matches!(e, Event::Initiative { .. })).count()
    };
    assert_eq!(rolls(&[]), 1);
    assert_eq!(rolls(&[("incapacitated_initiative", "roll")]), 2);
}

#[test]
fn declarations_are_revised_in_passes() {
    // rule: FLUID-ACT-1
    // With no revision pass each combatant declares once; with one, unchanged plans are not
    // declared again.
    let count = |passes: &str| {
        let setup = duel("", "", &[("declare_passes", passes)]);
        let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 1, 1, 1], vec![]);
        round_one(&log).iter().filter(|e| matches!(e, Event::Declared { .. })).count()
    };
    assert_eq!(count("0"), 2);
    assert_eq!(count("1"), 2);
    // But the second pass asks every combatant again.
    let asked = |passes: &str| {
        let setup = duel("", "", &[("declare_passes", passes)]);
        let mut counting = Counting(0, |state, request| matches!(request, Request::Declare { .. }) && state.round == 1);
        let mut fight = Fight::<Fluid, _, _, _>::new(
            &setup,
            Scripted::faces([3, 3, 3, 1, 1, 1, 1, 1, 1]),
            &mut counting,
            fray_engine::Discard,
        );
        common::played_out(&fight.run());
        drop(fight);
        counting.0
    };
    assert_eq!((asked("0"), asked("1"), asked("2")), (2, 4, 6));
    assert!(duel("", "", &[]).options.clone().set("declare_passes", "9").is_err());
}

#[test]
fn a_sunder_attack_may_be_named_before_the_defence() {
    // rule: FLUID-ATK-11
    // Under `with_attack` the attacker names it first; the target then Dodges, so it lapses and
    // the hit deals damage.
    let setup = duel(
        "",
        "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\ndq = 1\ntier = 1",
        &[("sunder_declare", "with_attack")],
    );
    let mut setup = setup;
    setup.combatants[0].items[0].tier = Some(4);
    let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 5, 5, 5], vec![Choice::Sunder(true), Choice::Defence(Some(0))]);
    let asked_first = log.iter().position(|e| matches!(e, Event::Attack { .. }));
    assert!(asked_first.is_some());
    assert!(log.iter().any(|e| matches!(e, Event::Damage { target: B, .. })));
}

#[test]
fn a_block_may_always_reduce() {
    // rule: FLUID-ARM-4
    // B Blocks with a medium shield (DQ 2) and wears light armour AV 1 (S2) against a medium
    // sword: with_armor converts the whole AV 3 (sword larger than the armour); always_reduce
    // takes the DQ off W first, then converts AV 1.
    let b = "armor = { name = \"leather\", av = 1, size = \"light\" }\n[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 2\nsizes = [3]";
    let damage = |sets: &[(&str, &str)]| {
        let setup = duel("", b, sets);
        let state = <Fluid as Ruleset>::initial_state(&setup);
        let options = fray_rules::fluid::attack::defence_options(&setup, &state, A, 0, B);
        let block = options.iter().position(|o| o.skill == DefenceSkill::Block && o.item == Some(0));
        let log = fight(&setup, &[3, 3, 3, 1, 1, 1, 5, 5, 5], vec![Choice::Defence(block)]);
        log.iter()
            .find_map(|e| if let Event::Damage { w, s, av, .. } = e { Some((*w, *s, *av)) } else { None })
            .unwrap()
    };
    // 5,5,5 + 2 = 17 vs Block 13: 4 successes → 9W. The AV the log reports is the armour's 1 and
    // the shield's DQ 2 either way, taken off in a different order.
    assert_eq!(damage(&[]), (6, 3, 3));
    assert_eq!(damage(&[("block_absorb", "always_reduce")]), (6, 1, 3));
}

#[test]
fn weight_words_map_to_sizes() {
    // rule: FLUID-SIZE-1
    let armour = "armor = { name = \"plate\", av = 2, size = \"heavy\" }";
    assert_eq!(duel("", armour, &[]).combatants[1].armor.as_ref().unwrap().size, 4);
    let custom = duel("", armour, &[("weight_sizes", "{ light = 1, medium = 2, heavy = 5 }")]);
    assert_eq!(custom.combatants[1].armor.as_ref().unwrap().size, 5);
    assert!(custom.options.clone().set("weight_sizes", "{ huge = 5 }").is_err());
}

#[test]
fn an_attacking_weapon_may_count_as_its_first_size() {
    // rule: FLUID-SIZE-3
    // A sword listed as [3, 2] against a small buckler (S2): smallest → no size bonus; first → +1.
    let bonus = |sets: &[(&str, &str)]| {
        let mut setup = duel("", "[[combatants.items]]\nid = \"buckler\"\nkind = \"shield\"\nsizes = [2]", sets);
        setup.combatants[0].items[0].sizes = vec![3, 2];
        let state = <Fluid as Ruleset>::initial_state(&setup);
        let options = fray_rules::fluid::attack::defence_options(&setup, &state, A, 0, B);
        options.iter().find(|o| o.skill == DefenceSkill::Block && o.item == Some(0)).unwrap().size_bonus
    };
    assert_eq!(bonus(&[]), 0);
    assert_eq!(bonus(&[("attack_size", "first")]), 1);
}

#[test]
fn stress_may_have_its_own_maximum() {
    // rule: FLUID-TRACK-1, FLUID-TRACK-2
    let pc = duel("", "s_max = 6", &[]);
    assert_eq!(pc.combatants[1].s, 12);
    let sheet = duel("", "s_max = 6", &[("stress_max", "sheet")]);
    assert_eq!(sheet.combatants[1].s, 6);
    // The S term of CP uses min(10, s_max): S 6 of 6 gives no penalty.
    let state = <Fluid as Ruleset>::initial_state(&sheet);
    assert_eq!(fray_rules::fluid::condition_penalty(&sheet, &state, B), 0);
}

#[test]
fn zero_stress_may_gate_acting_instead_of_knocking_out() {
    // rule: FLUID-TRACK-9
    // B at S 0: unconscious by default; under `stunned_gate` it tests NER each round to act.
    let out = duel("", "s = 0", &[]);
    assert!(<Fluid as Ruleset>::initial_state(&out).fighters[1].unconscious);
    let gated = duel("", "s = 0", &[("stress_zero", "stunned_gate")]);
    let state = <Fluid as Ruleset>::initial_state(&gated);
    assert!(!state.fighters[1].unconscious && state.fighters[1].gated(&gated.options));
    let log = fight(&gated, &[1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 1, 1], vec![]);
    assert!(log.iter().any(|e| matches!(e, Event::Check { who: B, kind: fray_rules::fluid::CheckKind::Act, .. })));
    assert!(log.contains(&Event::Condition { who: B, condition: Condition::Stunned, gained: true }));
}

#[test]
fn dead_bodies_may_stay_in_play() {
    // rule: FLUID-TRACK-11
    // B starts dead: removed, it is no target; kept, it can be attacked at TN 10 without dT.
    let removed = duel("", "w = -10", &[("side_out_when", "dead")]);
    let state = <Fluid as Ruleset>::initial_state(&removed);
    let Request::Declare { options, .. } = policy::declare_options_for_tests(&removed, &state, A) else {
        unreachable!()
    };
    assert!(options.is_empty());
    let kept = duel(
        "",
        "w = -10\n[[combatants]]\nid = \"c\"\nside = \"two\"\npc = 5\nposition = 30.0",
        &[("dead_bodies", "kept")],
    );
    let state = <Fluid as Ruleset>::initial_state(&kept);
    let Request::Declare { options, .. } = policy::declare_options_for_tests(&kept, &state, A) else { unreachable!() };
    assert!(options.iter().any(|(t, _)| *t == B));
    let plan = Choice::Plan(Plan {
        attacks: smallvec::smallvec![DeclaredAttack::single(B, 0, Intent::Lethal)],
        ..Plan::default()
    });
    let log = fight(&kept, &[6, 6, 6, 1, 1, 1, 4, 4, 4], vec![plan]);
    assert_eq!(attack(&log).map(|a| a.0), Some(10));
}

/// Counts the requests put to the deciders that match its test and answers as the AI.
struct Counting(u32, fn(&fray_rules::fluid::State, &Request) -> bool);

impl fray_engine::Decider<Fluid> for Counting {
    fn decide(
        &mut self,
        setup: &Setup,
        state: &fray_rules::fluid::State,
        who: CombatantId,
        request: &Request,
    ) -> Result<Choice, fray_engine::Pending> {
        if (self.1)(state, request) {
            self.0 += 1;
        }
        Ok(policy::ai_choice(setup, state, who, request))
    }
}

#[test]
fn a_defence_may_be_named_once_per_round() {
    // rule: FLUID-DEF-4
    // Per attack, the defender is asked at every attack; per round, never: the defence named
    // with its declarations (the AI names its best) stands against every attack.
    let run = |sets: &[(&str, &str)]| {
        let setup = duel("", "", sets);
        let mut counting = Counting(0, |_, request| matches!(request, Request::Defend { .. }));
        let mut fight = Fight::<Fluid, _, _, _>::new(
            &setup,
            fray_engine::FromSource(fray_dice::seeded(7)),
            &mut counting,
            Record::default(),
        );
        common::played_out(&fight.run());
        let log = fight.into_parts().1.0;
        let defences: Vec<_> = log
            .iter()
            .filter_map(|e| if let Event::Attack { defence, .. } = e { Some(*defence) } else { None })
            .collect();
        (counting.0, defences)
    };
    let (asked, defences) = run(&[]);
    assert_eq!(asked as usize, defences.len());
    assert!(asked > 0);
    let (asked, defences) = run(&[("defense_choice", "per_round")]);
    assert_eq!(asked, 0);
    assert!(!defences.is_empty() && defences.iter().all(|d| d.is_some()));

    // B (Dodge 11, Block 11) names its defence with a scripted plan. A named unarmed Block is
    // used (the sword's S3 against the S0 arm: +3 to A); a Parry with an item B does not have is
    // not offered, so B falls back to Dodge; naming nothing means the policy's pick (Dodge 11 beats
    // an unarmed Block at 11 − 3).
    let setup = duel("", "", &[("defense_choice", "per_round")]);
    let strike = Plan { attacks: vec![DeclaredAttack::single(B, 0, Intent::Lethal)].into(), ..Plan::default() };
    let used = |defence| {
        let named = Plan { defence, ..Plan::default() };
        let log = fight(
            &setup,
            &[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            vec![Choice::Plan(strike.clone()), Choice::Plan(named)],
        );
        log.iter().find_map(|e| match e {
            Event::Attack { defence: Some(d), check, .. } => Some((d.skill, d.item, check.tn, d.size_bonus)),
            _ => None,
        })
    };
    assert_eq!(used(Some((DefenceSkill::Block, None))), Some((DefenceSkill::Block, None, 11, 3)));
    assert_eq!(used(Some((DefenceSkill::Parry, Some(0)))), Some((DefenceSkill::Dodge, None, 11, 0)));
    assert_eq!(used(None), Some((DefenceSkill::Dodge, None, 11, 0)));
    // The list a person chooses from: best first, from the current state.
    let nameable = fray_rules::fluid::attack::nameable_defences(&setup, &Fluid::initial_state(&setup), B);
    assert_eq!(nameable.first(), Some(&((DefenceSkill::Dodge, None), 11)));
    assert!(nameable.contains(&((DefenceSkill::Block, None), 8)), "{nameable:?}");
    // The AI names one with every plan, Full Defense included.
    let fd = duel("", "policy = { attacks = \"full_defense\" }", &[("defense_choice", "per_round")]);
    let state = Fluid::initial_state(&fd);
    let request = policy::declare_options_for_tests(&fd, &state, B);
    let Choice::Plan(plan) = policy::ai_choice(&fd, &state, B, &request) else { panic!("a plan") };
    assert!(plan.full_defense);
    assert_eq!(plan.defence, Some((DefenceSkill::Dodge, None)));
}

#[test]
fn each_combatant_may_roll_from_its_own_stream() {
    // rule: FLUID-DICE-10
    // Raising A's sword skill changes which of A's attacks hit, so how many damage dice (2d6)
    // A rolls: with one stream every later roll of B moves; with per-combatant streams B's faces
    // stay the same.
    let b_faces = |skill: u32, seed: u64, sets: &[(&str, &str)]| {
        let b_sword = "[[combatants.items]]\nid = \"sword\"\nskill = \"sword\"\ndamage = { w = 5 }";
        let text = duel_text("", b_sword)
            .replacen("sword = { value = 12 }", &format!("sword = {{ value = {skill} }}"), 1)
            .replace("dodge = { value = 11 }, block", "dodge = { value = 11 }, sword = { value = 12 }, block")
            .replacen("damage = { w = 5 }", "damage = { w = \"2d6\" }", 1)
            .replace("pc = 12", "pc = 40");
        let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let scenario = fray_rules::load("duel.toml", &text, &sets).unwrap_or_else(|e| panic!("{e}"));
        let mut lines = Vec::new();
        let mut dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let _ = scenario.fight(&mut dice, Some(seed), &[], &mut |_| Some(0), &mut |line| lines.push(line.json.clone()));
        let faces: Vec<u64> = lines
            .iter()
            .filter(|l| l["who"] == "b" || l["attacker"] == "b")
            .filter_map(|l| l["faces"].as_array().cloned())
            .flatten()
            .filter_map(|f| f.as_u64())
            .collect();
        faces
    };
    let prefix = |x: &[u64], y: &[u64]| x.iter().zip(y).all(|(a, b)| a == b);
    let (low, high) = (b_faces(8, 11, &[]), b_faces(16, 11, &[]));
    assert!(low.len() > 6 && high.len() > 6);
    assert!(!prefix(&low, &high));
    let per = [("dice_stream", "per_combatant")];
    let (low, high) = (b_faces(8, 11, &per), b_faces(16, 11, &per));
    assert!(low.len() > 6 && high.len() > 6);
    assert!(prefix(&low, &high), "{low:?} vs {high:?}");
    // Another seed gives other streams.
    assert!(!prefix(&low, &b_faces(8, 12, &per)));
}

#[test]
fn odds_in_context_count_the_targets_situation() {
    // rule: FLUID-DEF-12
    // An unconscious target cannot defend: TN 10, and the attacker is Superior +2 in melee. The
    // odds come from the fight's own rule code, so they equal the check with that edge.
    let scenario = fray_rules::load("odds.toml", &duel_text("", "s = 0"), &[]).unwrap_or_else(|e| panic!("{e}"));
    let odds = scenario.attack_odds("a", "b").unwrap();
    let setup = duel("", "s = 0", &[]);
    let hit = |edge| -> fray_dice::BigRational {
        fray_rules::fluid::check::Check { edge, bonus: 2, tn: 10 }
            .margin_distribution(&setup.options)
            .into_iter()
            .filter(|(m, _)| *m >= 0)
            .map(|(_, p)| p)
            .sum()
    };
    assert_eq!(odds.hit, hit(2), "{:?}", odds.assumptions);
    assert_ne!(odds.hit, hit(0));
    assert!(
        odds.assumptions.iter().any(|a| a.contains("cannot defend") || a.contains("Superior")),
        "{:?}",
        odds.assumptions
    );
}

#[test]
fn option_values_out_of_range_are_refused_and_good_ones_taken() {
    // Not a clause: the options' input checks (each value read where its rule is).
    let mut o = fray_rules::fluid::Options::default();
    // `untrained_penalty`: −100 to 0.
    o.set("untrained_penalty", "-5").unwrap();
    assert_eq!(o.untrained_penalty, -5);
    for bad in ["1", "-101"] {
        assert!(o.set("untrained_penalty", bad).unwrap_err().contains("from -100 to 0"), "{bad}");
    }
    // `range_bands`: six increasing distances from above 0.
    o.set("range_bands", "[1, 2, 4, 8, 16, 32]").unwrap();
    for bad in ["[1, 2, 4, 4, 16, 32]", "[0, 2, 4, 8, 16, 32]", "[1, 2, 4, 8, 16]"] {
        assert!(o.set("range_bands", bad).unwrap_err().contains("six increasing distances"), "{bad}");
    }
    // `flank_bonus`: 0 or more.
    o.set("flank_bonus", "0").unwrap();
    assert_eq!(o.flank_bonus, 0);
    assert!(o.set("flank_bonus", "-1").is_err());
    // `unarmed_damage`: w and s, nothing else.
    o.set("unarmed_damage", "{ w = 2, s = 1 }").unwrap();
    assert!(o.set("unarmed_damage", "{ w = 2, x = 1 }").unwrap_err().contains("unknown damage key `x`"));
}
