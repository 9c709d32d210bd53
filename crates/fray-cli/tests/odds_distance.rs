//! `fray odds --scenario … --distance D`: the odds as if the attacker stood D from the defender,
//! in every ruleset, computed by the same rule code as the fight.

mod common;
use common::{fray, ok};

use serde_json::Value as Json;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/");

fn example(name: &str) -> String {
    format!("{EXAMPLES}{name}.toml")
}

/// `fray odds --scenario FILE --attacker A --defender D [--distance X] [extra…] --json`, parsed.
fn odds_json(file: &str, attacker: &str, defender: &str, distance: Option<&str>, extra: &[&str]) -> Json {
    let mut args = vec!["odds", "--scenario", file, "--attacker", attacker, "--defender", defender, "--json"];
    if let Some(d) = distance {
        args.extend(["--distance", d]);
    }
    args.extend(extra);
    serde_json::from_str(&ok(&fray(&args))).unwrap()
}

/// The error `fray odds` answers with (exit code 2, nothing on standard output).
fn odds_error(file: &str, attacker: &str, defender: &str, distance: &str, extra: &[&str]) -> String {
    let mut args = vec!["odds", "--scenario", file, "--attacker", attacker, "--defender", defender];
    args.extend(["--distance", distance]);
    args.extend(extra);
    let out = fray(&args);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).unwrap()
}

fn assumptions(doc: &Json) -> String {
    doc["assumptions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect::<Vec<_>>().join("\n")
}

/// A probability given as a fraction "n/d", as a float (only to order them).
fn p(doc: &Json, key: &str) -> f64 {
    let text = doc[key].as_str().unwrap();
    match text.split_once('/') {
        Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
        None => text.parse().unwrap(),
    }
}

#[test]
fn hardboiled_difficulty_follows_the_range_bands() {
    // rule: USR-RNG-2, USR-RNG-3, USR-RNG-4
    // Vito's .38 revolver (R = 20 m) at Lou: Point Blank ≤ 2 m (2), Close ≤ R/4 = 5 m (4),
    // Medium ≤ 10 m (7), Long ≤ 20 m (10), Extreme ≤ 40 m (14), and no shot beyond 2R.
    let file = example("hardboiled/gunfight");
    let asked = |d: &str| odds_json(&file, "Vito", "Lou", Some(d), &[]);
    let mut last = 2.0;
    for (d, band) in [
        ("2", "Point Blank band, difficulty 2"),
        ("3", "Close band, difficulty 4"),
        ("9", "Medium band, difficulty 7"),
        ("20", "Long band, difficulty 10"),
        ("40", "Extreme band, difficulty 14"),
    ] {
        let doc = asked(d);
        assert!(assumptions(&doc).contains(band), "at {d} m: {}", assumptions(&doc));
        assert_eq!(doc["distance"], d.parse::<f64>().unwrap());
        assert_eq!(doc["distance_unit"], "m");
        assert!(p(&doc, "hit") < last, "at {d} m the shot is harder than nearer");
        last = p(&doc, "hit");
    }
    // The file's own 9 m gives the same odds as asking for 9 m.
    let file_odds = odds_json(&file, "Vito", "Lou", None, &[]);
    assert_eq!(file_odds["distance"], 9.0);
    assert_eq!(file_odds["hit"], asked("9")["hit"]);
    assert_eq!(file_odds["down"], asked("9")["down"]);
    let err = odds_error(&file, "Vito", "Lou", "41", &[]);
    assert!(err.contains("41.0 m is beyond the .38 revolver's reach (2 × 20 m)"), "{err}");
    // The text header names the distance used.
    let text = ok(&fray(&["odds", "--scenario", &file, "--attacker", "Vito", "--defender", "Lou", "--distance", "3"]));
    assert!(text.lines().next().unwrap().ends_with("at the start of the fight, from 3 m (--distance):"), "{text}");
    assert!(text.contains("Vito stands 3 m from Lou (9 m in the file)"), "{text}");
}

#[test]
fn hardboiled_melee_out_of_reach_is_refused() {
    // rule: USR-MOVE-1
    // Fists and brass knuckles reach 2 m (`melee_reach_m`): asked about 5 m, the brawler is told
    // why not.
    let file = example("hardboiled/bar-room-brawl");
    let near = odds_json(&file, "Docker", "Joe Bruno", Some("2"), &[]);
    assert_eq!(near["distance"], 2.0);
    assert_eq!(near["hit"], odds_json(&file, "Docker", "Joe Bruno", None, &[])["hit"]);
    let err = odds_error(&file, "Docker", "Joe Bruno", "5", &[]);
    assert!(err.contains("5.0 m is out of melee reach"), "{err}");
}

#[test]
fn opend6_difficulty_follows_the_range_bands() {
    // rule: OD6-MOVE-3, OD6-DIFF-2
    // The hunter's blaster pistol (ranges 10/30/120 m) at the smuggler behind 50% cover (+6):
    // Point Blank −5, Short 0, Medium +5, Long +10 on passive defence 10; nothing beyond 120 m.
    let file = example("opend6/blaster-duel");
    for (d, difficulty) in [("3", 11), ("10", 16), ("18", 21), ("30", 21), ("120", 26)] {
        let doc = odds_json(&file, "Hunter", "Smuggler", Some(d), &[]);
        let text = assumptions(&doc);
        assert!(text.contains(&format!("against difficulty {difficulty} ")), "at {d} m: {text}");
        assert_eq!(doc["distance"], d.parse::<f64>().unwrap());
    }
    // The catalogue's 5D-against-20 entry at the file's 18 m, asked for or not.
    let asked = odds_json(&file, "Hunter", "Smuggler", Some("18"), &[]);
    assert_eq!(asked["hit"], "1169/3456");
    assert_eq!(odds_json(&file, "Hunter", "Smuggler", None, &[])["hit"], "1169/3456");
    let err = odds_error(&file, "Hunter", "Smuggler", "121", &[]);
    assert!(err.contains("not within reach or range of any of `Hunter`'s weapons at 121 m"), "{err}");
    // rule: OD6-MOVE-1
    // Positions are whole metres on a line.
    let err = odds_error(&file, "Hunter", "Smuggler", "2.5", &[]);
    assert!(err.contains("whole metres") && err.contains("2.5"), "{err}");
}

#[test]
fn phasesix_wrong_distance_raises_the_minimum_roll() {
    // rule: P6-RANGE-1, P6-RANGE-2
    // The soldier's assault rifle (range 100 m): within range the burst rolls at 5+; under
    // `range_rule = wrong_distance` up to twice the range at 7+ (M + 2), and beyond, no attack.
    let file = example("phasesix/firefight");
    let wrong = ["--set", "range_rule=wrong_distance"];
    let at = |d: &str, extra: &[&str]| odds_json(&file, "Soldier", "Raider 1", Some(d), extra);
    let near = at("100", &wrong);
    assert!(assumptions(&near).contains("7 dice at 5+"), "{}", assumptions(&near));
    let far = at("150", &wrong);
    assert!(assumptions(&far).contains("7 dice at 7+"), "{}", assumptions(&far));
    assert!(p(&far, "hit") < p(&near, "hit"));
    let err = odds_error(&file, "Soldier", "Raider 1", "201", &wrong);
    assert!(err.contains("cannot attack `Raider 1` from 201 m"), "{err}");
    // Under the default `max_range` the range is a hard limit.
    let err = odds_error(&file, "Soldier", "Raider 1", "150", &[]);
    assert!(err.contains("beyond assault rifle's range"), "{err}");
}

#[test]
fn phasesix_melee_needs_the_target_within_the_weapons_range() {
    // rule: P6-ATK-4
    let file = example("phasesix/sword-and-shield");
    let close = odds_json(&file, "Hagen", "Robber", Some("1"), &[]);
    let file_odds = odds_json(&file, "Hagen", "Robber", None, &[]);
    assert_eq!(
        (&close["hit"], &close["down"], &close["distance"]),
        (&file_odds["hit"], &file_odds["down"], &file_odds["distance"])
    );
    let err = odds_error(&file, "Hagen", "Robber", "2", &[]);
    assert!(err.contains("cannot attack `Robber` from 2 m: the target is beyond short sword's reach"), "{err}");
}

#[test]
fn ticks_range_modifier_follows_the_distance_in_squares() {
    // rule: TICK-RANGE-2, TICK-MOVE-2
    // The placeholder pistol: PB +5, −1 per 2 m; "6 m → +2, 10 m → 0, 20 m → −5" (a square is
    // 1 m by default; 2 m under `square_m = 2`).
    let file = example("ticks/pistol-duel");
    for (d, range) in [("1", "+5"), ("6", "+2"), ("10", "+0"), ("20", "-5")] {
        let doc = odds_json(&file, "Sam", "Vic", Some(d), &[]);
        assert!(assumptions(&doc).contains(&format!("range {range},")), "at {d}: {}", assumptions(&doc));
        assert_eq!(doc["distance_unit"], "squares");
    }
    let doubled = odds_json(&file, "Sam", "Vic", Some("3"), &["--set", "square_m=2"]);
    assert!(assumptions(&doubled).contains("range +2,"), "{}", assumptions(&doubled));
    assert!(assumptions(&doubled).contains("3 squares (6 m) from Vic"), "{}", assumptions(&doubled));
    // rule: TICK-MOVE-5
    // Vic's own square is taken; under `square_occupancy = shared` it may be shared.
    let err = odds_error(&file, "Sam", "Vic", "0", &[]);
    assert!(err.contains("square (10, 0), 0 squares from `Vic`, is taken by `Vic`"), "{err}");
    let shared = odds_json(&file, "Sam", "Vic", Some("0"), &["--set", "square_occupancy=shared"]);
    assert_eq!(shared["distance"], 0.0);
}

#[test]
fn ticks_melee_reaches_adjacent_squares_only() {
    // rule: TICK-MELEE-8
    // The knife fighters start 2 squares apart: no blow reaches from there, one does from 1.
    let file = example("ticks/knife-fight");
    let out = fray(&["odds", "--scenario", &file, "--attacker", "Max", "--defender", "Tia"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("`Tia` is 2 squares away: beyond melee reach (1 square"), "{err}");
    assert!(err.contains("; `--distance 1` gives the odds once in reach"), "{err}");
    let near = odds_json(&file, "Max", "Tia", Some("1"), &[]);
    assert!(assumptions(&near).contains("Max makes a strike at Tia with knife"), "{}", assumptions(&near));
    assert!(p(&near, "hit") > 0.0);
    let err = odds_error(&file, "Max", "Tia", "3", &[]);
    assert!(err.contains("beyond melee reach"), "{err}");
    assert!(!err.contains("gives the odds once in reach"), "{err}");
}

#[test]
fn fluid_distance_replaces_the_opening_approach() {
    // rule: FLUID-MOVE-10
    // raider_3 sprints at guard_1 with his machete and attacks at the end of it; asked about
    // 1 m, he stands there and attacks without moving (no sprint, its multiple-action cost gone).
    let file = example("fluid/firefight");
    let approach = odds_json(&file, "raider_3", "guard_1", None, &[]);
    assert!(assumptions(&approach).contains("raider_3 first moves (Sprint"), "{}", assumptions(&approach));
    assert_eq!(approach["distance_asked"], false);
    let standing = odds_json(&file, "raider_3", "guard_1", Some("1"), &[]);
    let text = assumptions(&standing);
    assert!(!text.contains("first moves") && text.contains("no approach this round"), "{text}");
    assert_eq!(standing["distance"], 1.0);
    assert_eq!(standing["distance_asked"], true);
    assert_ne!(standing["hit"], approach["hit"]);
    // A melee weapon needs the target within reach (2 m): from 3 m there is no attack.
    let err = odds_error(&example("fluid/barbarian-vs-marauder"), "barbarian", "marauder", "3", &[]);
    assert!(err.contains("`barbarian`'s axe does not reach `marauder` from 3 m (melee reach 2 m"), "{err}");
    let reach = odds_json(&example("fluid/barbarian-vs-marauder"), "barbarian", "marauder", Some("2"), &[]);
    assert_eq!(reach["distance"], 2.0);
}

#[test]
fn bad_distances_are_refused_with_a_reason() {
    let file = example("hardboiled/gunfight");
    for (d, says) in [
        ("-3", "must not be negative, found -3 m"),
        ("NaN", "must be a finite number, found NaN"),
        ("inf", "must be a finite number, found inf"),
        ("1e9", "must be at most 100000 m"),
    ] {
        let err = odds_error(&file, "Vito", "Lou", d, &[]);
        assert!(err.contains(says), "{d}: {err}");
    }
    let err = odds_error(&example("ticks/pistol-duel"), "Sam", "Vic", "200000", &[]);
    assert!(err.contains("must be at most 100000 squares"), "{err}");
    let err = odds_error(&example("opend6/blaster-duel"), "Hunter", "Smuggler", "2001", &[]);
    assert!(err.contains("must be at most 2000 m"), "{err}");
    // Not a number at all, or without --scenario: the flag parser says so.
    let out = fray(&["odds", "--scenario", &file, "--attacker", "Vito", "--defender", "Lou", "--distance", "near"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'near'"));
    let out = fray(&["odds", "3d6", "--distance", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--scenario"));
}
