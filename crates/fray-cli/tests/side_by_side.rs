//! `fray sim A.toml B.toml …`: several scenarios side by side, on the shipped comparison examples
//! (two matched swordsmen and two matched gunmen in each of the five rulesets).

mod common;
use common::{fray, ok};

use serde_json::Value as Json;

const COMPARE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/compare");
const RULESETS: [&str; 5] = ["fluid", "hardboiled", "opend6", "phasesix", "ticks"];

fn files(fight: &str) -> Vec<String> {
    RULESETS.iter().map(|r| format!("{COMPARE}/{r}-{fight}.toml")).collect()
}

fn run(files: &[String], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["sim"];
    args.extend(files.iter().map(String::as_str));
    args.extend(extra);
    fray(&args)
}

#[test]
fn the_matched_fights_of_every_ruleset_are_even() {
    for fight in ["swords", "pistols"] {
        let doc: Json = serde_json::from_str(&ok(&run(&files(fight), &["-n", "4000", "--json"]))).unwrap();
        let rows = doc["scenarios"].as_array().unwrap();
        assert_eq!(rows.len(), 5);
        for (row, ruleset) in rows.iter().zip(RULESETS) {
            assert_eq!(row["ruleset"], ruleset);
            // Both sides the same: each side's interval holds the other's rate or comes close,
            // and the weaker side wins nearly half.
            let weaker = row["weaker_side_win_rate"].as_f64().unwrap();
            assert!(weaker > 0.45 && weaker <= 0.5, "{fight} {ruleset}: {weaker}");
            let wins = row["wins"].as_object().unwrap();
            assert_eq!(wins.keys().collect::<Vec<_>>(), ["blue", "red"]);
            // The row's report is the one `fray sim FILE` gives alone.
            let alone: Json =
                serde_json::from_str(&ok(&fray(&["sim", row["scenario"].as_str().unwrap(), "-n", "4000", "--json"])))
                    .unwrap();
            assert_eq!(row["report"]["outcomes"], alone["outcomes"], "{fight} {ruleset}");
            assert_eq!(wins["blue"]["count"], alone["outcomes"]["blue"]["count"]);
            // Lengths and the per-attack measures are there.
            assert!(row["length"]["mean"].as_f64().unwrap() > 1.0);
            let share = row["takedown_share_per_attack"].as_f64().unwrap();
            assert!(share > 0.0 && share < 1.0, "{fight} {ruleset}: {share}");
            let down = row["one_attack"]["down"].as_f64().unwrap();
            assert!((0.0..1.0).contains(&down), "{fight} {ruleset}: {down}");
        }
        // Only the tick ruleset gives its unit in seconds: half a second a tick.
        assert!(rows[4]["seconds"]["mean"].as_f64().unwrap() > 0.0);
        assert_eq!(rows[0]["seconds"], Json::Null);
    }
}

#[test]
fn the_table_has_a_row_per_scenario_and_says_what_it_measures() {
    let text = ok(&run(&files("pistols"), &["-n", "1000"]));
    assert!(text.starts_with("1000 fights per scenario, seed 1\n"), "{text}");
    for ruleset in RULESETS {
        let row = text.lines().find(|l| l.starts_with(&format!("{ruleset}-pistols "))).expect(ruleset);
        assert!(row.contains(&format!(" {ruleset} ")) && row.contains("blue ") && row.contains("red "), "{row}");
    }
    // Seconds of game time for the ticks only; a dash where the ruleset does not say.
    let row = |r: &str| text.lines().find(|l| l.starts_with(&format!("{r}-pistols "))).unwrap().to_owned();
    assert!(row("ticks").contains(" s  ") && !row("ticks").contains('—'), "{text}");
    assert!(row("fluid").contains('—') && !row("fluid").contains(" s  "), "{text}");
    assert!(text.contains("weaker side: the lower win rate"));
}

#[test]
fn flags_for_one_scenario_are_refused_with_several() {
    for flag in [&["--sweep", "x=1,2"][..], &["--shard", "1/2"], &["--precision", "0.01"], &["--plot", "x.svg"]] {
        let out = run(&files("swords")[..2], flag);
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(&format!("error: {} runs one scenario", flag[0])), "{err}");
    }
    // A bad file among them is named.
    let mut bad = files("swords");
    bad.push("/nonexistent.toml".into());
    let err = String::from_utf8(run(&bad, &["-n", "100"]).stderr).unwrap();
    assert!(err.contains("cannot read /nonexistent.toml"), "{err}");
}
