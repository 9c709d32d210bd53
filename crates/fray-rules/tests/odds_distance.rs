//! Odds in context at a distance (`Scenario::attack_odds_at`) over every shipped example: any
//! distance gets an answer — odds from where it was asked, or an error that says why — and never
//! a panic.

use fray_dice::BigRational;
use num_traits::{One, Zero};

mod common;

/// Every example: its path and its loaded scenario.
fn examples() -> Vec<(String, Box<dyn fray_rules::Scenario>)> {
    common::example_files()
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(&p).expect("example");
            let scenario = fray_rules::load(&name, &text, &[]).unwrap_or_else(|e| panic!("{e}"));
            (name, scenario)
        })
        .collect()
}

#[test]
fn every_example_answers_any_distance() {
    for (name, scenario) in examples() {
        let names = scenario.combatants();
        let unit = scenario.distance_unit();
        let mut answered = 0;
        // Each combatant against its first enemy.
        for (a, attacker) in names.iter().enumerate() {
            let Some(defender) = (0..names.len()).find(|&d| scenario.side_of(d) != scenario.side_of(a)) else {
                continue;
            };
            let defender = &names[defender];
            for d in [0.0, 1.0, 1.5, 7.0, 60.0, 100_000.0] {
                match scenario.attack_odds_at(attacker, defender, Some(d)) {
                    Ok(odds) => {
                        // Where it was asked: exactly, or on a grid the nearest square (half a
                        // diagonal away at most).
                        let at = odds.distance.expect("a distance");
                        let slack = if unit == "squares" { 0.71 } else { 1e-9 };
                        assert!((at - d).abs() <= slack, "{name}: {attacker} at {d} {unit}, odds at {at}");
                        assert_eq!(odds.distance_unit, unit);
                        assert!(
                            odds.assumptions[0].contains("stands"),
                            "{name}: the move is stated first: {:?}",
                            odds.assumptions
                        );
                        assert!(odds.hit >= BigRational::zero() && odds.hit <= BigRational::one(), "{name}");
                        assert!(odds.down <= odds.hit, "{name}");
                        answered += 1;
                    }
                    Err(why) => assert!(!why.is_empty(), "{name}: {attacker} at {d} {unit}"),
                }
            }
            for bad in [-1.0, f64::NAN, f64::INFINITY, 1e12] {
                let err = scenario.attack_odds_at(attacker, defender, Some(bad)).unwrap_err();
                assert!(err.contains("distance"), "{name}: {bad}: {err}");
            }
        }
        // Some distance suits every example's attacks.
        assert!(answered > 0, "{name}: no distance gave odds");
    }
}
