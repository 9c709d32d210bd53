//! Whatever a person at the table picks from the choices a prompt lists is legal: every
//! combatant of every shipped example played by a "person" who picks at random, over many seeds,
//! never makes the fight stop with an illegal choice or an empty prompt (design.md: one decision
//! protocol; people answer the same requests as the AI, from the legal choices listed).

mod common;

use fray_engine::FightError;

/// Every example, with option settings that change what a prompt must list.
fn cases() -> Vec<(std::path::PathBuf, Vec<(String, String)>)> {
    let root = common::EXAMPLES;
    let files = common::example_files();
    let mut cases: Vec<_> = files.into_iter().map(|f| (f, vec![])).collect();
    let set = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    let fluid = format!("{root}/fluid/barbarian-vs-marauder.toml");
    cases.push((fluid.clone().into(), set("negative_tactics", "split")));
    cases.push((fluid.into(), set("defense_choice", "per_round")));
    // Anyone may react to anything with an act of one action (a reply attack among them).
    cases.push((format!("{root}/phasesix/firefight.toml").into(), set("reaction_menu", "any")));
    cases.push((format!("{root}/phasesix/sword-and-shield.toml").into(), set("reaction_menu", "any")));
    cases
}

#[test]
fn every_choice_a_person_is_offered_is_legal() {
    for (path, sets) in cases() {
        let name = format!("{} {sets:?}", path.display());
        let mut text = std::fs::read_to_string(&path).unwrap();
        // Prompts carry exact odds, and opend6's follow Wild-Die chains 40 tosses deep (a tenth of
        // a second an attack option in a test build): its examples play one seed, and the group
        // fight, whose every prompt weighs a dozen attack options, two rounds.
        let opend6 = text.contains("ruleset = \"opend6\"");
        if path.ends_with("opend6/mixed-group.toml") {
            text = text.replace("max_rounds = 60", "max_rounds = 2");
            assert!(text.contains("max_rounds = 2"), "{name}: the round cap moved");
        }
        let scenario = fray_rules::load(&name, &text, &sets).unwrap_or_else(|e| panic!("{e}"));
        let humans = scenario.combatants();
        let seeds: u64 = if opend6 { 1 } else { 3 };
        for seed in 1..=seeds {
            // A person picking at random (an LCG, so that every run picks the same).
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            // The last lines and questions, to show where a fight that never ends goes round.
            let recent = std::cell::RefCell::new(std::collections::VecDeque::new());
            let note = |s: String| {
                let mut recent = recent.borrow_mut();
                recent.push_back(s);
                if recent.len() > 40 {
                    recent.pop_front();
                }
            };
            let mut asked = 0u32;
            let mut missing = Vec::new();
            let mut ask = |prompt: &fray_rules::Prompt| {
                asked += 1;
                assert!(asked < 20_000, "{name}, seed {seed}: no end in sight:\n{:#?}", recent.borrow());
                // The AI's choice is among the ruleset's own options, wherever the fight has gone.
                missing.extend(
                    prompt
                        .options
                        .iter()
                        .filter(|o| o.starts_with(fray_rules::NOT_OFFERED))
                        .map(|o| format!("{name}, seed {seed}: {} at {:?}: {o}", prompt.who, prompt.question)),
                );
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let pick = ((state >> 33) as usize) % prompt.options.len().max(1);
                note(format!("{} ? {} → {:?}", prompt.who, prompt.question, prompt.options.get(pick)));
                Some(pick)
            };
            let mut dice = fray_engine::FromSource(fray_dice::seeded(seed));
            let mut out = |line: &fray_rules::Line| {
                if let Some(text) = &line.text {
                    note(text.clone());
                }
            };
            let result = scenario.fight(&mut dice, Some(seed), &humans, &mut ask, &mut out);
            assert!(missing.is_empty(), "the AI's choice missing from a menu:\n{}", missing.join("\n"));
            match result {
                Ok(_) => {}
                Err(e @ (FightError::IllegalChoice { .. } | FightError::Pending(_))) => {
                    panic!("{name}, seed {seed}: {e}")
                }
                Err(e) => panic!("{name}, seed {seed}: {e}"),
            }
        }
    }
}

#[test]
fn a_negative_tactics_value_is_offered_only_legal_splits() {
    // rule: FLUID-TAC-5
    use fray_engine::Ruleset;
    use fray_rules::fluid::{Choice, Fluid, FluidScenario, Request};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");
    let text = std::fs::read_to_string(root).unwrap();
    for (value, expected) in [("zero_split", vec![(0, 0)]), ("split", vec![(0, -2), (-1, -1), (-2, 0)])] {
        let sets = [("negative_tactics".to_owned(), value.to_owned())];
        let setup = fray_rules::fluid::scenario::load("x.toml", &text, &sets).unwrap();
        let state = Fluid::initial_state(&setup);
        let request = Request::Tactics { tactics: -2 };
        let scenario = FluidScenario(setup);
        let (_, choices) = scenario.prompt(&state, fray_engine::CombatantId(0), &request);
        let splits: Vec<(i32, i32)> = choices
            .iter()
            .map(|(_, c)| match c {
                Choice::Split { ot, dt } => (ot.to_owned(), dt.to_owned()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(splits, expected, "{value}");
        for (_, choice) in &choices {
            assert_eq!(Fluid::check_choice(&scenario.0, &request, choice), Ok(()), "{value}");
        }
    }
}
