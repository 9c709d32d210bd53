//! The attack lines itemise their totals: over many seeded fights of every shipped example of a
//! ruleset, the terms an attack event carries sum exactly to the total the fight used.

use fray_engine::{Fight, FromSource, Record, Ruleset};

/// Every shipped example of `ruleset` (examples/RULESET/*.toml), loaded.
fn examples<T>(ruleset: &str, load: impl Fn(&str, &str) -> T) -> Vec<(String, T)> {
    let dir = format!("{}/../../examples/{ruleset}", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no examples in {dir}");
    paths
        .into_iter()
        .map(|p| {
            let path = p.display().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let setup = load(&path, &text);
            (path, setup)
        })
        .collect()
}

/// The events of `fights` seeded fights of `setup` under the ruleset's AI.
fn logs<R: Ruleset, P: fray_engine::Decider<R> + Clone>(setup: &R::Setup, ai: P, fights: u64) -> Vec<Vec<R::Event>> {
    (0..fights)
        .map(|seed| {
            let dice = FromSource(fray_dice::seeded(seed));
            let mut fight = Fight::<R, _, _, _>::new(setup, dice, ai.clone(), Record::default());
            fight.run().unwrap();
            fight.into_parts().1.0
        })
        .collect()
}

#[test]
fn fluid_attack_terms_sum_to_the_bonus() {
    // rule: FLUID-ATK-2
    use fray_rules::fluid::{Event, Fluid, policy::Ai, scenario};
    let mut attacks = 0;
    for (path, setup) in examples("fluid", |path, text| scenario::load(path, text, &[]).unwrap()) {
        for log in logs::<Fluid, _>(&setup, Ai, 300) {
            for event in &log {
                if let Event::Attack { check, terms, .. } = event {
                    assert_eq!(terms.sum(), check.bonus, "{path}: {event:?}");
                    attacks += 1;
                }
            }
        }
    }
    assert!(attacks > 1000, "{attacks}");
}

#[test]
fn hardboiled_contest_terms_sum_to_the_totals() {
    // rule: USR-DICE-4
    use fray_rules::hardboiled::attack::{BAND_DIFFICULTY, shot_band};
    use fray_rules::hardboiled::{Act, Event, HardBoiled, policy::Ai, scenario};
    let (mut rolls, mut shots) = (0, 0);
    for (path, setup) in examples("hardboiled", |path, text| scenario::load(path, text, &[]).unwrap()) {
        for log in logs::<HardBoiled, _>(&setup, Ai, 300) {
            for event in &log {
                if let Event::Contest { act, roll, against, difficulty, terms, .. } = event {
                    assert_eq!(i32::from(roll.natural) + terms.actor.sum(), roll.total, "{path}: {event:?}");
                    if let Some(d) = against {
                        assert_eq!(i32::from(d.natural) + terms.opponent.sum(), d.total, "{path}: {event:?}");
                    }
                    if let (Act::Attack { .. }, Some(difficulty)) = (act, difficulty) {
                        let band = shot_band(*difficulty, terms).expect("a shot's band");
                        assert_eq!(BAND_DIFFICULTY[band] + terms.opponent.sum(), *difficulty, "{path}");
                        shots += 1;
                    }
                    rolls += 1;
                }
            }
        }
    }
    assert!(rolls > 1000 && shots > 100, "{rolls} rolls, {shots} shots");
}

#[test]
fn opend6_difficulty_terms_sum_to_the_difficulty() {
    // rule: OD6-DIFF-2
    use fray_rules::opend6::{Event, OpenD6, policy::Ai, scenario};
    let mut attacks = 0;
    for rolled in ["fixed", "rolled"] {
        let sets = [("difficulty_modifiers".to_owned(), rolled.to_owned())];
        for (path, setup) in examples("opend6", |path, text| scenario::load(path, text, &sets).unwrap()) {
            for log in logs::<OpenD6, _>(&setup, Ai, 200) {
                for event in &log {
                    if let Event::Attack { base, difficulty, terms, .. } = event
                        && *difficulty != i32::MAX
                    {
                        assert_eq!(base + terms.sum(), *difficulty, "{path} ({rolled}): {event:?}");
                        assert!(*difficulty >= 3);
                        attacks += 1;
                    }
                }
            }
        }
    }
    assert!(attacks > 1000, "{attacks}");
}

#[test]
fn totals_stay_exact_however_large_a_term() {
    // rule: USR-RNG-7, USR-ACT-3, USR-LOC-4 — penalties at the options' limits (1,000 an attack,
    // 20 attacks a turn) are kept whole, so a total made of the terms is the rules' total.
    use fray_rules::hardboiled::{attack::shot_terms, scenario};
    let sets: Vec<(String, String)> = [
        ("moving_shot_penalty", "1000"),
        ("multi_attack_penalty", "1000"),
        ("called_shot_penalty", "1000"),
        ("max_attacks_per_turn", "20"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let (_, setup) = examples("hardboiled", |path, text| scenario::load(path, text, &sets).unwrap()).remove(0);
    let sheet = &setup.combatants[0];
    let specialism = sheet.specialism_bonus(fray_rules::hardboiled::setup::Attr::Action, &["shooting"]);
    let (actor, opponent) = shot_terms(&setup.options, sheet, 19, true, true);
    assert_eq!(actor.sum(), specialism - 19_000 - 1000);
    assert_eq!(opponent.sum(), 1000);
    // fluid keeps a term in a byte; what a byte cannot hold is shown as `beyond`, so the log's
    // terms add up to the bonus the check used.
    let terms = fray_rules::fluid::attack::AttackTerms([100, 0, 50, 0, 0, 0, 0, 0, 0, 0, 0]);
    let shown: Vec<(&str, i32)> = terms.named_for(-850).filter(|(_, v)| *v != 0).collect();
    assert_eq!(shown, [("skill", 100), ("oT", 50), ("beyond", -1000)]);
}

#[test]
fn phasesix_hit_and_initiative_terms_sum_to_the_totals() {
    use fray_rules::phasesix::{Event, HitTerms, PhaseSix, policy::Ai, scenario};
    let sum = |terms: &[(&str, i32)]| terms.iter().map(|t| t.1).sum::<i32>();
    let (mut attacks, mut initiatives) = (0, 0);
    let variants: [&[(&str, &str)]; 2] = [
        &[],
        &[("initiative_roll", "quickness_d6_sum"), ("range_rule", "wrong_distance"), ("massive_cap", "total_dice")],
    ];
    for variant in variants {
        let sets: Vec<(String, String)> = variant.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        for (path, setup) in examples("phasesix", |path, text| scenario::load(path, text, &sets).unwrap()) {
            for log in logs::<PhaseSix, _>(&setup, Ai, 200) {
                for event in &log {
                    match event {
                        Event::AttackRoll { dice, m, c, terms, .. } => {
                            // rule: P6-ATK-2 — the hit dice.
                            assert_eq!(sum(&terms.dice("skill")), *dice, "{path}: {event:?}");
                            // rule: P6-ATK-3 — M, after P6-DICE-4's floor.
                            assert_eq!(sum(&terms.m()), *m, "{path}: {event:?}");
                            // rule: P6-CRIT-1 — C, moved by recoil (P6-RCL-1) and aim (P6-AIM-1).
                            assert_eq!(sum(&terms.c()), *c, "{path}: {event:?}");
                            assert_eq!(HitTerms::named_for(terms.m(), *m).last(), Some(("beyond", 0)));
                            attacks += 1;
                        }
                        Event::Initiative { dice, bonus, score, .. } => {
                            // rule: P6-INIT-1
                            assert_eq!(dice.iter().map(|&t| i32::from(t)).sum::<i32>() + bonus, *score, "{path}");
                            initiatives += 1;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    assert!(attacks > 1000 && initiatives > 100, "{attacks} attacks, {initiatives} initiatives");
    // A term beyond a byte is kept in part; the log shows the rest as `beyond`, so the terms it
    // shows still add up to the total the fight used.
    let terms = HitTerms::new(0, [200, 1, 0, 0, 5, 0, 0, 0, 0, 0, 0]);
    let shown: Vec<(&str, i32)> = HitTerms::named_for(terms.dice("shooting"), 201).filter(|t| t.1 != 0).collect();
    assert_eq!(shown, [("shooting", 127), ("DP", 1), ("beyond", 73)]);
}
