//! `fray sim --solve NAME=LO..HI --target OUTCOME=RATE`: the balancing value, checked against what
//! a sweep of the same values shows.

mod common;
use common::{fray, ok};

use serde_json::Value as Json;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");

fn json(args: &[&str]) -> Json {
    serde_json::from_str(&ok(&fray(&[&["sim", EXAMPLE][..], args, &["--json"]].concat()))).unwrap()
}

#[test]
fn the_search_finds_the_value_a_sweep_shows() {
    // The sweep of the marauder's PC from 20 to 30: the heroes' rate falls with it.
    let sweep = json(&["--sweep", "marauder.pc=20..30"]);
    let rates: Vec<(String, f64)> = sweep["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["value"].as_str().unwrap().to_owned(), p["report"]["outcomes"]["heroes"]["rate"].as_f64().unwrap()))
        .collect();
    // Aim at the rate the sweep gives PC 24: the search must choose 24.
    let target = rates.iter().find(|(v, _)| v == "24").unwrap().1;
    let solved = json(&["--solve", "marauder.pc=20..30", "--target", &format!("heroes={target}")]);
    assert_eq!(solved["chosen"]["value"], "24");
    assert_eq!(solved["separated"], true);
    assert_eq!(solved["chosen"]["rate"].as_f64().unwrap(), target);
    // Its first round is the sweep's run: the same fights, so every candidate's rate is the sweep's.
    for c in solved["candidates"].as_array().unwrap() {
        if c["fights"] == 10_000 {
            let want = rates.iter().find(|(v, _)| *v == c["value"]).unwrap().1;
            assert_eq!(c["rate"].as_f64().unwrap(), want, "{c}");
        }
    }
    let neighbours: Vec<&str> =
        solved["neighbours"].as_array().unwrap().iter().map(|n| n["value"].as_str().unwrap()).collect();
    assert_eq!(neighbours, ["23", "25"]);
    // A target between two values the sweep cannot split: nearer one of them, by the sweep.
    let (a, b) = (rates[3].1, rates[4].1); // PCs 23 and 24
    let between = a * 0.3 + b * 0.7; // nearer 24
    let solved = json(&["--solve", "marauder.pc=20..30", "--target", &format!("heroes={between}")]);
    assert_eq!(solved["chosen"]["value"], "24", "{solved}");
    assert!(solved["fights"].as_u64().unwrap() > 11 * 10_000, "more fights were needed: {solved}");
}

#[test]
fn a_budget_too_small_says_which_values_it_cannot_tell_apart() {
    // 50% lies between PC 29 and 30 (see docs/designer.md): 200,000 fights cannot split them.
    let args = ["--solve", "marauder.pc=26..33", "--target", "heroes=50%", "--max-fights", "200000"];
    let solved = json(&args);
    assert_eq!(solved["separated"], false);
    assert!(solved["fights"].as_u64().unwrap() <= 200_000);
    let chosen = solved["chosen"]["value"].as_str().unwrap().to_owned();
    let tied: Vec<String> =
        solved["not_told_apart"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    let mut both = [chosen, tied[0].clone()];
    both.sort();
    assert_eq!(both, ["29", "30"], "{solved}");
    let text = ok(&fray(&[&["sim", EXAMPLE][..], &args].concat()));
    assert!(text.contains("NOT told apart from marauder.pc = "), "{text}");
    // The same answer on any thread count.
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
}

#[test]
fn bad_searches_are_refused() {
    for (args, want) in [
        (
            &["--solve", "marauder.pc=20..30", "--target", "orcs=0.5"][..],
            "--target orcs: no such outcome; the outcomes are heroes, raiders, mutual, stalemate",
        ),
        (&["--solve", "marauder.pc=30..20", "--target", "heroes=0.5"], "expected NAME=LO..HI with integers LO < HI"),
        (&["--solve", "marauder.pc=20..30", "--target", "heroes=1.5"], "expected a rate from 0 to 1"),
        (&["--solve", "marauder.pcc=20..22", "--target", "heroes=0.5"], "unknown field `pcc`"),
        (
            &["--solve", "marauder.pc=20..30", "--target", "heroes=0.5", "--max-fights", "50000"],
            "the first round alone (11 values × 10000 fights)",
        ),
        (&["--solve", "marauder.pc=20..30", "--target", "heroes=0.5", "--sweep", "x=1"], "does not go with --sweep"),
    ] {
        let out = fray(&[&["sim", EXAMPLE][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
    }
    let out = fray(&["sim", EXAMPLE, "--target", "heroes=0.5"]);
    assert_eq!(out.status.code(), Some(2));
}
