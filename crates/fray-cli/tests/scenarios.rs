//! `fray check`, `fight`, `sim` and `rules` end to end on the shipped examples.

mod common;
use common::{TempScenario, fray, fray_with_input, ok};

use serde_json::Value as Json;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");

fn scenario(text: &str) -> TempScenario {
    TempScenario::new(text)
}

#[test]
fn a_fight_log_is_byte_identical_for_a_seed() {
    let a = ok(&fray(&["fight", EXAMPLE, "--seed", "42"]));
    let b = ok(&fray(&["fight", EXAMPLE, "--seed", "42"]));
    assert_eq!(a, b);
    assert!(a.starts_with("fray 0.1.0 — fluid — ") && a.contains("seed 42 (ChaCha8)"), "{a}");
    assert!(a.contains("combat ends after"), "{a}");
    let c = ok(&fray(&["fight", EXAMPLE, "--seed", "43"]));
    assert_ne!(a, c);
}

#[test]
fn json_events_follow_a_header() {
    let out = ok(&fray(&["fight", EXAMPLE, "--seed", "7", "--json"]));
    let lines: Vec<Json> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let header = &lines[0];
    assert_eq!(
        (header["fray"].as_str(), header["generator"].as_str(), header["seed"].as_u64()),
        (Some("0.1.0"), Some("ChaCha8"), Some(7))
    );
    assert_eq!(header["combatants"], serde_json::json!(["barbarian", "marauder"]));
    assert_eq!(lines[1]["event"], "round_started");
    assert_eq!(lines.last().unwrap()["event"], "end");
    assert!(
        lines.iter().any(|l| l["event"] == "attack" && l["roll"]["faces"].as_array().is_some_and(|f| f.len() == 3))
    );
    assert_eq!(header["set"], serde_json::json!({}));
}

#[test]
fn a_run_records_its_sets_so_it_can_be_run_again() {
    let set = ["--set", "crit_ladder=none", "--set", "normal_split = ot_ceil"];
    let fight = ok(&fray(&[&["fight", EXAMPLE, "--seed", "7", "--json"][..], &set].concat()));
    let header: Json = serde_json::from_str(fight.lines().next().unwrap()).unwrap();
    assert_eq!(header["set"], serde_json::json!({"crit_ladder": "none", "normal_split": "ot_ceil"}));
    let text = ok(&fray(&[&["fight", EXAMPLE, "--seed", "7"][..], &set].concat()));
    assert!(text.lines().next().unwrap().ends_with("— set crit_ladder=none, normal_split=ot_ceil"), "{text}");
    let sim = ok(&fray(&[&["sim", EXAMPLE, "-n", "100", "--json"][..], &set].concat()));
    let sim: Json = serde_json::from_str(&sim).unwrap();
    assert_eq!(sim["set"]["crit_ladder"], "none");
    assert!(sim["scenario"].as_str().unwrap().ends_with("barbarian-vs-marauder.toml"));
    let text = ok(&fray(&[&["sim", EXAMPLE, "-n", "100"][..], &set].concat()));
    assert!(text.starts_with("100 fights, seed 1 — set crit_ladder=none, normal_split=ot_ceil\n"), "{text}");
}

#[test]
fn sim_numbers_do_not_depend_on_threads() {
    let run_with = |threads: &str, sets: &[&str]| {
        let args = [&["sim", EXAMPLE, "-n", "5000", "--seed", "9", "--threads", threads, "--json"], sets].concat();
        let mut doc: Json = serde_json::from_str(&ok(&fray(&args))).unwrap();
        assert!(doc["fights_per_second"].as_f64().unwrap() > 0.0);
        doc.as_object_mut().unwrap().remove("fights_per_second");
        doc
    };
    let run = |threads: &str| run_with(threads, &[]);
    let one = run("1");
    assert_eq!(one, run("2"));
    // Also with a stream per combatant, seeded per fight from the batch's generator.
    let per = ["--set", "dice_stream=per_combatant"];
    assert_eq!(run_with("1", &per), run_with("2", &per));
    assert_ne!(run_with("1", &per), one);
    assert_eq!(one["fights"], 5000);
    assert_eq!(one["seed"], 9);
    let heroes = &one["outcomes"]["heroes"];
    let (rate, lo, hi) =
        (heroes["rate"].as_f64().unwrap(), heroes["ci95"][0].as_f64().unwrap(), heroes["ci95"][1].as_f64().unwrap());
    assert!(lo < rate && rate < hi && rate > 0.8, "{heroes}");
    for key in ["raiders", "mutual", "stalemate"] {
        assert!(one["outcomes"][key]["count"].is_u64(), "{key}");
    }
    let histogram: u64 = one["rounds"]["histogram"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(histogram, 5000);
    assert!(one["combatants"]["barbarian"]["attacks"].as_u64().unwrap() > 5000);
    // A different seed gives different numbers; --set changes the rules.
    let other: Json =
        serde_json::from_str(&ok(&fray(&["sim", EXAMPLE, "-n", "5000", "--seed", "10", "--json"]))).unwrap();
    assert_ne!(other["outcomes"], one["outcomes"]);
    let under: Json = serde_json::from_str(&ok(&fray(&[
        "sim",
        EXAMPLE,
        "-n",
        "5000",
        "--seed",
        "9",
        "--json",
        "--set",
        "check_direction=roll_under",
    ])))
    .unwrap();
    assert_ne!(under["outcomes"], one["outcomes"]);
}

#[test]
fn the_text_report_has_outcomes_lengths_and_ledgers() {
    let text = ok(&fray(&["sim", EXAMPLE, "-n", "2000"]));
    for needle in
        ["2000 fights, seed 1", "heroes", "95% interval", "fight length (rounds)", "barbarian", "fights per second"]
    {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn check_explains_and_rules_lists() {
    let text = ok(&fray(&["check", EXAMPLE]));
    assert!(text.contains(": ok") && text.contains("barbarian (heroes, player) at (0, 0): PC 16"), "{text}");
    // rule: FLUID-DEF-1 — the barbarian's Block 15, the catalogue's number.
    assert!(text.contains("defence skills: dodge 12, parry 13, block 15"), "{text}");
    let text = ok(&fray(&["rules"]));
    assert!(text.starts_with("fluid"), "{text}");
    let text = ok(&fray(&["rules", "fluid"]));
    assert!(text.contains("check_direction") && text.contains("roll_under") && text.contains("FLUID-DICE-9"), "{text}");
    assert!(text.contains("tactics: normal, aggressive, defensive, answer"), "{text}");
    assert_eq!(fray(&["rules", "flud"]).status.code(), Some(2));
}

#[test]
fn scenario_errors_name_file_line_and_column() {
    let base = std::fs::read_to_string(EXAMPLE).unwrap();
    for (from, to, want_line, want) in [
        ("tactics = 2\n", "tactics = 2\nsklls = {}\n", None, "unknown field `sklls`"),
        (
            "check_direction = \"roll_high\"",
            "check_direction = \"roll_hihg\"",
            Some(10),
            "expected one of roll_high, roll_under",
        ),
        (
            "check_direction = \"roll_high\"",
            "check_drection = \"roll_high\"",
            Some(10),
            "did you mean `check_direction`?",
        ),
        ("ruleset = \"fluid\"", "ruleset = \"flud\"", Some(6), "unknown ruleset `flud`"),
        (
            "policy = { tactics = \"aggressive\" }",
            "policy = { tactics = \"agressive\" }",
            None,
            "did you mean `aggressive`?",
        ),
        ("stats = { BOD = 10, NER = 10 }", "stats = { BOD = 10, NRE = 10 }", None, "did you mean `NER`?"),
        ("pc = 12", "pc = 0", None, "expected a PC from 1 to 1000, found 0"),
        // rule: FLUID-ACT-11
        // Numbers far beyond any sheet's are refused rather than wrapped around in a fight; a
        // skill a slip away from one on the sheet is not taken as an untrained one.
        ("oq = 1\n", "oq = 2147483647\n", Some(29), "expected an OQ from -20 to 20, found 2147483647"),
        ("damage = { w = 7 }", "damage = { w = 2147483647 }", Some(28), "expected a damage from 0 to 1000"),
        ("value = 15, rank = 1", "value = 150, rank = 1", Some(19), "expected a skill value from 0 to 60"),
        ("tactics = 2\n", "tactics = -99\n", Some(43), "expected a Tactics from -50 to 50"),
        ("av = 2", "av = 500", Some(20), "expected an AV from 0 to 100"),
        (
            "skill = \"long_sword\"",
            "skill = \"longsword\"",
            Some(52),
            "skill `longsword` is not on the sheet (it would be used untrained); did you mean `long_sword`?",
        ),
        ("damage = { w = 6 }", "damage = { w = \"2d+1\" }", None, "expected the number of sides"),
    ] {
        assert!(base.contains(from), "{from}");
        let file = scenario(&base.replacen(from, to, 1));
        let out = fray(&["check", file.path()]);
        assert_eq!(out.status.code(), Some(2), "{to}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{to}: {err}");
        let location = match want_line {
            Some(line) => format!("{}:{line}:", file.path()),
            None => format!("{}:", file.path()),
        };
        assert!(err.contains(&location), "{to}: {err}");
        assert!(err.contains('^'), "{to}: a caret: {err}");
    }
    let unknown_key = scenario(&base.replacen("tactics = 2\n", "tactics = 2\nsklls = {}\n", 1));
    let err = String::from_utf8(fray(&["check", unknown_key.path()]).stderr).unwrap();
    assert!(err.contains("did you mean `skills`?"), "{err}");
    assert_eq!(fray(&["check", "/nonexistent.toml"]).status.code(), Some(2));
    assert_eq!(fray(&["fight", EXAMPLE, "--set", "edge_cap=0"]).status.code(), Some(2));
    // Item numbers are kept in a byte: a combatant carries at most 64 items.
    let shield = "[[combatants.items]]\nid = \"shield\"\nkind = \"shield\"\ndq = 0\nsizes = [3]\n";
    let many = |n: usize| {
        let extra: String = (0..n).map(|i| shield.replace("\"shield\"\nkind", &format!("\"s{i}\"\nkind"))).collect();
        scenario(&base.replacen(shield, &format!("{shield}\n{extra}"), 1))
    };
    let (fits, too_many) = (many(62), many(63)); // the barbarian carries two already
    assert_eq!(fray(&["check", fits.path()]).status.code(), Some(0));
    let out = fray(&["check", too_many.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("expected at most 64 items per combatant") && err.contains('^'), "{err}");
}

#[test]
fn manual_dice_reproduce_worked_example_a1() {
    // The faces of example A1 typed at the prompt give its log: the marauder dies in round 1.
    let faces = "2\n3\n4\n3\n4\n5\n1\n2\n4\n3\n4\n5\n1\n1\n2\n";
    let out = fray_with_input(&["fight", EXAMPLE, "--dice", "manual", "--set", "check_direction=roll_under"], faces);
    let text = ok(&out);
    assert!(
        text.contains(
            "marauder attacks barbarian with long_sword (block, TN 15): [1,2,4] natural 7 +5 (skill 2, OQ 1, oT 2) \
             → hit, success of 3"
        ),
        "{text}"
    );
    assert!(text.contains("barbarian takes 7W 0S (9W 0S before AV 2)"), "{text}");
    // rule: FLUID-ATK-2
    // The bonus itemised: the barbarian's +4 is skill 5, OQ 1 and the pain check's CP − 1 = −2.
    assert!(text.contains("natural 4 (crit level 2, e -5) +4 (skill 5, OQ 1, pain −2) → hit, success of 16"), "{text}");
    assert!(text.contains("marauder is now dead") && text.contains("heroes win"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("roll one d6 for barbarian's initiative"), "{prompts}");
    assert!(text.lines().next().unwrap().ends_with("— physical dice — set check_direction=roll_under"), "{text}");
}

#[test]
fn a_person_can_control_a_combatant() {
    // The barbarian's player splits, declares no attack each round; the marauder's AI wins.
    let answers = "1\n1\n".repeat(200);
    let out = fray_with_input(&["fight", EXAMPLE, "--seed", "5", "--control", "barbarian=human"], &answers);
    let text = ok(&out);
    assert!(text.contains("barbarian declares: nothing"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("barbarian — split Tactics 0") && prompts.contains("1. no attack"), "{prompts}");
    // Each attack option shows its exact odds in the current state: in round 1 the same as
    // `fray odds --scenario` (49/54 to hit, 7/27 to take the marauder out); two attacks at −2.
    assert!(
        prompts.contains("3. 1 × lethal attack on marauder with axe (each: hit 49/54 ≈ 90.7%, takes out 7/27 ≈ 25.9%)"),
        "{prompts}"
    );
    assert!(prompts.contains("2 × lethal attack on marauder with axe (each: hit 20/27"), "{prompts}");
    // Under `defense_choice = per_round` the person also names the round's defence.
    let out = fray_with_input(
        &["fight", EXAMPLE, "--seed", "5", "--control", "barbarian=human", "--set", "defense_choice=per_round"],
        &answers,
    );
    let text = ok(&out);
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("barbarian — name your defence for the round"), "{prompts}");
    assert!(text.contains("barbarian declares: nothing; defends by "), "{text}");
    assert_eq!(fray(&["fight", EXAMPLE, "--control", "nobody=human"]).status.code(), Some(2));
}

#[test]
fn every_shipped_example_checks_fights_and_simulates() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files = Vec::new();
    for ruleset in std::fs::read_dir(root).unwrap() {
        for file in std::fs::read_dir(ruleset.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                files.push(path.to_str().unwrap().to_owned());
            }
        }
    }
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for file in &files {
        // Every example produces a winner: its trial has no warning.
        let text = ok(&fray(&["check", file]));
        assert!(text.contains("trial of 200 fights (seed 1): ") && !text.contains("warning"), "{file}: {text}");
        let log = ok(&fray(&["fight", file, "--seed", "1"]));
        assert!(log.contains("combat ends after"), "{file}: {log}");
        let doc: Json = serde_json::from_str(&ok(&fray(&["sim", file, "-n", "300", "--json"]))).unwrap();
        assert_eq!(doc["fights"], 300, "{file}");
    }
}

#[test]
fn set_edits_a_combatant_as_if_the_file_said_so() {
    let json = |args: &[&str]| -> Json { serde_json::from_str(&ok(&fray(args))).unwrap() };
    let strip = |mut doc: Json| {
        for key in ["fights_per_second", "set", "scenario"] {
            doc.as_object_mut().unwrap().remove(key);
        }
        doc
    };
    let text = std::fs::read_to_string(EXAMPLE).unwrap();
    // The marauder's PC, a skill in an inline table, and the axe's OQ in `[[combatants.items]]`:
    // the same fights as the file with those values written in.
    let edited = text
        .replacen("pc = 12", "pc = 15", 1)
        .replacen("long_sword = { value = 12 }", "long_sword = { value = 14 }", 1)
        .replacen("oq = 1\ndq = -1", "oq = 3\ndq = -1", 1);
    assert_ne!(edited, text);
    let file = TempScenario::new(&edited);
    let by_set = json(&[
        "sim",
        EXAMPLE,
        "-n",
        "1500",
        "--set",
        "marauder.pc=15",
        "--set",
        "marauder.skills.long_sword.value=14",
        "--set",
        "barbarian.items.axe.oq=3",
        "--json",
    ]);
    let by_file = json(&["sim", file.path(), "-n", "1500", "--json"]);
    assert_eq!(strip(by_set.clone()), strip(by_file));
    assert_eq!(by_set["set"]["marauder.pc"], "15");
    // `fray check` shows the edited entry, and lists the edits apart from the options.
    let check = ok(&fray(&["check", EXAMPLE, "--set", "marauder.pc=30", "--set", "crit_ladder=none"]));
    assert!(check.contains("marauder (raiders) at (1, 0): PC 30, W 30, S 30"), "{check}");
    assert!(check.contains("combatants edited by --set (as shown above):\n  marauder.pc = 30\n"), "{check}");
    assert!(check.contains("  crit_ladder = none (--set)") && !check.contains("marauder.pc = 30 (--set)"), "{check}");
    // A sweep over a combatant's field: the heroes win less as the marauder grows tougher.
    let sweep = json(&["sim", EXAMPLE, "-n", "2000", "--sweep", "marauder.pc=12,18", "--json"]);
    let heroes = |i: usize| sweep["points"][i]["report"]["outcomes"]["heroes"]["rate"].as_f64().unwrap();
    assert!(heroes(1) < heroes(0) - 0.05, "{} {}", heroes(0), heroes(1));
    // Mistakes: an unknown field is reported in the edited file, named as such; a path that does
    // not exist is pointed at in the `--set`; an option `--set` after an edit keeps its place.
    let err = |sets: &[&str]| {
        let mut args = vec!["sim", EXAMPLE, "-n", "5"];
        for set in sets {
            args.extend(["--set", set]);
        }
        let out = fray(&args);
        assert_eq!(out.status.code(), Some(2), "{sets:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let e = err(&["marauder.pcc=14"]);
    assert!(e.contains("barbarian-vs-marauder.toml (as edited by marauder.pcc=14):"), "{e}");
    assert!(e.contains("unknown field `pcc`") && e.contains("did you mean `pc`?") && e.contains("| pcc = 14"), "{e}");
    let e = err(&["marauder.pc=abc"]);
    assert!(e.contains("expected a whole number") && e.contains("pc = \"abc\""), "{e}");
    let e = err(&["barbarian.items.sword.oq=2"]);
    assert!(e.contains("--set:1:17: `items` has no element `sword` (by id, name or index 0 to 1)"), "{e}");
    let e = err(&["barbarian.pc.x=1"]);
    assert!(e.contains("--set:1:14: `pc` is not a table or an array, so it has no `x`"), "{e}");
    let e = err(&["barbarian.items.axe=3"]);
    assert!(e.contains("`items.axe` is a whole entry"), "{e}");
    let e = err(&["marauder.pc=14", "crit_lader=none"]);
    assert!(e.contains("--set:2:1: unknown option `crit_lader`"), "{e}");
    // Under `--compare` and `--sweep`: their own edits and options are named as theirs, and a
    // variant that changes the sides or the names (which the reports pair by place) is refused.
    let flagged = |args: &[&str], want: &str| {
        let out = fray(&[&["sim", EXAMPLE, "-n", "5", "--set", "marauder.pc=14"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8(out.stderr).unwrap();
        assert!(e.contains(want), "{args:?}: {e}");
    };
    flagged(
        &["--compare", "marauder.pc=15", "--compare", "crit_lader=none"],
        "--compare:2:1: unknown option `crit_lader`",
    );
    flagged(&["--compare", "barbarian.items.sword.oq=1"], "--compare:1:17: `items` has no element `sword`");
    flagged(&["--sweep", "marauder.pcc=1,2"], "(as edited by marauder.pc=14, marauder.pcc=1):");
    flagged(&["--compare", "marauder.side=rogues"], "--compare: the variant changes the sides");
    flagged(&["--sweep", "marauder.id=x,y"], "--sweep: the value `x` changes the sides or the combatants' names");
    // A name with a space or a dot in it.
    let brawl = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hardboiled/bar-room-brawl.toml");
    let hardier = json(&["sim", brawl, "-n", "300", "--set", "Joe Bruno.hp_max=30", "--json"]);
    let plain = json(&["sim", brawl, "-n", "300", "--json"]);
    let joe = |doc: &Json| doc["outcomes"]["Joe"]["rate"].as_f64().expect("Joe's rate");
    assert!(joe(&hardier) > joe(&plain), "{} {}", joe(&hardier), joe(&plain));
    let dotted = TempScenario::new(&text.replace("\"marauder\"", "\"Dr. No\""));
    let d = json(&["sim", dotted.path(), "-n", "1500", "--set", "Dr. No.pc=15", "--json"]);
    let p = json(&["sim", dotted.path(), "-n", "1500", "--set", "Dr. No.pc=12", "--json"]);
    assert_ne!(d["outcomes"], p["outcomes"]);
}

#[test]
fn sweep_runs_the_same_fights_at_each_value_of_an_option() {
    let json = |args: &[&str]| -> Json { serde_json::from_str(&ok(&fray(args))).unwrap() };
    let strip = |mut doc: Json| {
        doc.as_object_mut().unwrap().remove("fights_per_second");
        doc
    };
    let base = ["sim", EXAMPLE, "-n", "2000", "--seed", "5", "--set", "normal_split=ot_ceil"];
    let sweep = json(&[&base[..], &["--sweep", "crit_ladder = step5, none,shift9", "--json"]].concat());
    assert_eq!(sweep["sweep"], serde_json::json!({"option": "crit_ladder", "values": ["step5", "none", "shift9"]}));
    assert_eq!((sweep["fights"].clone(), sweep["seed"].clone()), (2000.into(), 5.into()));
    assert_eq!(sweep["set"], serde_json::json!({"normal_split": "ot_ceil"}));
    // Each point is exactly the run of the file and `--set`s with that value set as well.
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for point in points {
        let value = point["value"].as_str().unwrap();
        let alone = json(&[&base[..], &["--set", &format!("crit_ladder={value}"), "--json"]].concat());
        assert_eq!(strip(point["report"].clone()), strip(alone), "{value}");
    }
    // The ladders differ, so the rows do.
    assert_ne!(points[0]["report"]["outcomes"], points[1]["report"]["outcomes"]);
    let text = ok(&fray(&["sim", EXAMPLE, "-n", "300", "--sweep", "crit_ladder=step5,none"]));
    assert!(text.contains("300 fights per value, seed 1\nsweep of crit_ladder"), "{text}");
    let row = text.lines().find(|l| l.starts_with("none ")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(row.matches('%').count(), 4, "{row}");
    // Bad sweeps are refused before any fight, naming `--sweep`.
    let refused = |sweep: &str, want: &str| {
        let out = fray(&["sim", EXAMPLE, "-n", "5", "--sweep", sweep]);
        assert_eq!(out.status.code(), Some(2), "{sweep}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{sweep}: {err}");
    };
    // Errors point into the `--sweep` as typed, at a range when a value came from one.
    refused("crit_ladder=step5,bogus", "--sweep:1:19: expected one of step5, shift9, none, found `bogus`");
    refused("crit_ladder=step5, bogus", "1 | crit_ladder=step5, bogus\n  |                    ^^^^^");
    refused(
        "edge_cap=0..3",
        "--sweep:1:10: expected an integer 1 or more, found 0\n1 | edge_cap=0..3\n  |          ^^^^",
    );
    refused("crit_lader=none", "--sweep:1:1: unknown option `crit_lader`");
    refused("crit_ladder", "expected NAME=V1,V2,…");
    refused("crit_ladder=none,,step5", "no empty name or value");
    refused("crit_ladder=none,none", "`none` is given twice");
    let many: Vec<String> = (1..=65).map(|i| i.to_string()).collect();
    refused(&format!("tactics_passes={}", many.join(",")), "more than 64 values");
    refused("tactics_passes=1..1000", "more than 64 values");
    refused("tactics_passes=3..1", "expected a range from low to high, found 3..1");
    refused("tactics_passes=1..3:0", "expected a step of 1 or more");
    // A range of integers stands for its values.
    let range = json(&["sim", EXAMPLE, "-n", "200", "--sweep", "marauder.pc=10..16:3, 20", "--json"]);
    assert_eq!(range["sweep"]["values"], serde_json::json!(["10", "13", "16", "20"]));
    let both = fray(&["sim", EXAMPLE, "--sweep", "crit_ladder=none", "--compare", "crit_ladder=none"]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn compare_runs_the_same_fights_with_an_option_changed() {
    let json = |args: &[&str]| -> Json { serde_json::from_str(&ok(&fray(args))).unwrap() };
    let strip = |mut doc: Json| {
        doc.as_object_mut().unwrap().remove("fights_per_second");
        doc.as_object_mut().unwrap().remove("set");
        doc
    };
    let both = json(&["sim", EXAMPLE, "-n", "3000", "--seed", "5", "--compare", "crit_ladder=none", "--json"]);
    // Each side is exactly the run it stands for.
    let baseline = json(&["sim", EXAMPLE, "-n", "3000", "--seed", "5", "--json"]);
    let variant = json(&["sim", EXAMPLE, "-n", "3000", "--seed", "5", "--set", "crit_ladder=none", "--json"]);
    assert_eq!(strip(both["baseline"].clone()), strip(baseline));
    assert_eq!(strip(both["variant"].clone()), strip(variant.clone()));
    assert_eq!(both["compare"], serde_json::json!({"crit_ladder": "none"}));
    assert_eq!(both["variant"]["set"], variant["set"]);
    for side in ["heroes", "raiders", "mutual", "stalemate"] {
        let rate = |doc: &Json| doc["outcomes"][side]["rate"].as_f64().unwrap();
        let d = &both["difference"][side];
        let want = rate(&both["variant"]) - rate(&both["baseline"]);
        assert!((d["rate"].as_f64().unwrap() - want).abs() < 1e-12, "{side}: {d}");
        let (lo, hi) = (d["ci95"][0].as_f64().unwrap(), d["ci95"][1].as_f64().unwrap());
        assert!(lo <= want && want <= hi && hi - lo < 0.1, "{side}: {d}");
    }
    // A change that changes nothing shows no difference.
    let same = json(&["sim", EXAMPLE, "-n", "500", "--compare", "crit_ladder=step5", "--json"]);
    assert_eq!(strip(same["baseline"].clone()), strip(same["variant"].clone()));
    assert_eq!(same["difference"]["heroes"]["rate"], 0.0);
    let text =
        ok(&fray(&["sim", EXAMPLE, "-n", "500", "--set", "normal_split=ot_ceil", "--compare", "crit_ladder=none"]));
    assert!(text.contains("baseline: set normal_split=ot_ceil\nvariant:  the same, and crit_ladder=none"), "{text}");
    assert!(text.contains("variant − baseline") && text.contains("hits per attack"), "{text}");
    let out = fray(&["sim", EXAMPLE, "-n", "5", "--set", "normal_split=ot_ceil", "--compare", "crit_lader=none"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--compare:1:1: unknown option `crit_lader`"), "{err}");
}

/// Two unarmed fighters 300 m apart who hold their ground, in each ruleset's scenario format,
/// with a short cap (the trial runs them to it).
const STALEMATES: [(&str, &str); 5] = [
    (
        "round cap (20 rounds)",
        "[rules]\nruleset = \"fluid\"\nmax_rounds = 20\n\n\
         [[combatants]]\nid = \"hero\"\nside = \"heroes\"\npc = 12\nstats = { BOD = 10, NER = 10 }\n\
         skills = { dodge = { value = 10 } }\nposition = 0.0\npolicy = { move = \"hold\" }\n\n\
         [[combatants]]\nid = \"raider\"\nside = \"raiders\"\npc = 12\nstats = { BOD = 10, NER = 10 }\n\
         skills = { dodge = { value = 10 } }\nposition = 300.0\npolicy = { move = \"hold\" }\n",
    ),
    (
        "round cap (20 rounds)",
        "[rules]\nruleset = \"opend6\"\nmax_rounds = 20\n\n\
         [[combatants]]\nname = \"Hero\"\nside = \"heroes\"\nagility = \"2D\"\nstrength = \"2D\"\nperception = \"2D\"\n\
         position = 0\npolicy = { move = \"hold\" }\n\n\
         [[combatants]]\nname = \"Raider\"\nside = \"raiders\"\nagility = \"2D\"\nstrength = \"2D\"\nperception = \"2D\"\n\
         position = 300\npolicy = { move = \"hold\" }\n",
    ),
    (
        "turn cap (20 turns)",
        "[rules]\nruleset = \"hardboiled\"\nmax_turns = 20\n\n\
         [[combatants]]\nname = \"Hero\"\nside = \"heroes\"\naction = 6\nwits = 8\nego = 10\nposition = 0\n\
         policy = { move = \"hold\" }\n\n\
         [[combatants]]\nname = \"Raider\"\nside = \"raiders\"\naction = 6\nwits = 8\nego = 10\nposition = 300\n\
         policy = { move = \"hold\" }\n",
    ),
    (
        "round cap (20 rounds)",
        "[rules]\nruleset = \"phasesix\"\n\n[rules.options]\nround_cap = 20\n\n\
         [[combatants]]\nname = \"Hero\"\nside = \"heroes\"\nquickness = 2\ndeftness = 2\nstrength = 2\n\
         endurance = 2\nresistance = 2\nposition = 0\npolicy = { move = \"hold\" }\n\n\
         [[combatants]]\nname = \"Raider\"\nside = \"raiders\"\nquickness = 2\ndeftness = 2\nstrength = 2\n\
         endurance = 2\nresistance = 2\nposition = 300\npolicy = { move = \"hold\" }\n",
    ),
    (
        "tick cap (40 ticks)",
        "[rules]\nruleset = \"ticks\"\n\n[rules.options]\ntick_cap = 40\n\n\
         [[combatants]]\nname = \"Hero\"\nside = \"heroes\"\nskills = { melee = 5, evade = 5 }\nposition = [0, 0]\n\
         policy = { move = \"hold\" }\n\n\
         [[combatants]]\nname = \"Raider\"\nside = \"raiders\"\nskills = { melee = 5, evade = 5 }\n\
         position = [300, 0]\npolicy = { move = \"hold\" }\n",
    ),
];

#[test]
fn check_warns_when_the_trial_fights_reach_the_cap() {
    // rule: FLUID-ROUND-4 — combat ends only when at most one side has anyone left, so fighters
    // who never reach each other fight to the cap.
    // rule: OD6-ROUND-4
    // rule: USR-ROUND-6 — a fight not ended by the length cap ends there as a stalemate.
    // rule: P6-TRACK-8 — the same after `round_cap` rounds.
    // rule: TICK-TRACK-6 — the same after `tick_cap` ticks.
    for (cap, text) in STALEMATES {
        let file = scenario(text);
        let out = ok(&fray(&["check", file.path()]));
        assert!(out.contains(": ok\n"), "{out}");
        assert!(
            out.contains("trial of 200 fights (seed 1): heroes 0%, raiders 0%, mutual 0%, stalemate 100%\n"),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "warning: 100% of the trial fights reached the {cap} with no winner; check positions, weapons and policies\n"
            )),
            "{out}"
        );
    }
}

#[test]
fn check_runs_a_trial_of_the_fights_sim_runs() {
    // An ordinary fight: the trial's rates are those of `fray sim -n 200 --seed 1`, with no warning.
    let text = ok(&fray(&["check", EXAMPLE]));
    assert!(
        text.ends_with("trial of 200 fights (seed 1): heroes 93%, raiders 7%, mutual 0%, stalemate 0%\n"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
    let doc: Json = serde_json::from_str(&ok(&fray(&["sim", EXAMPLE, "-n", "200", "--seed", "1", "--json"]))).unwrap();
    assert_eq!(
        (doc["outcomes"]["heroes"]["count"].as_u64(), doc["outcomes"]["raiders"]["count"].as_u64()),
        (Some(186), Some(14))
    );
    // A fight that could run too long for a quick trial is not run, and check says so.
    let file = scenario(STALEMATES[4].1);
    let text = ok(&fray(&["check", file.path(), "--set", "tick_cap=1000000"]));
    assert!(
        text.contains("trial: skipped, since a fight of 2 combatants to the tick cap of 1000000 ticks is too long"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
}
