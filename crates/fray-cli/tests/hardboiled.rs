//! `fray` end to end on the `hardboiled` examples.

mod common;
use common::{TempScenario, fray, fray_with_input, ok, sim_json};

use serde_json::Value as Json;

const BRAWL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hardboiled/bar-room-brawl.toml");
const GUNFIGHT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hardboiled/gunfight.toml");
const GANG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hardboiled/thug-gang.toml");

#[test]
fn fights_are_byte_identical_and_sims_thread_independent() {
    let a = ok(&fray(&["fight", GANG, "--seed", "8"]));
    assert_eq!(a, ok(&fray(&["fight", GANG, "--seed", "8"])));
    assert!(a.contains("max HP: Action") && a.contains("combat ends after"), "{a}");
    let run = |threads: &str| sim_json(GUNFIGHT, "3000", "4", threads);
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["fights"], 3000);
    // rule: USR-ROUND-1 — USR counts combat turns, and the report says so.
    assert_eq!(one["unit"], "turns");
    assert!(ok(&fray(&["sim", BRAWL, "-n", "100"])).contains("fight length (turns)"));
    let json = ok(&fray(&["fight", BRAWL, "--seed", "2", "--json"]));
    let header: Json = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(header["ruleset"], "hardboiled");
}

#[test]
fn check_rules_odds_and_errors() {
    let text = ok(&fray(&["check", GUNFIGHT]));
    assert!(text.contains("ruleset hardboiled") && text.contains(".45 automatic"), "{text}");
    // rule: USR-COVER-3, USR-COVER-4, USR-ARM-1 — what decides a gunfight is shown: penetration,
    // the counter's hardness and the parts it hides (2–4, 7–10), armour's parts, the policies.
    assert!(text.contains(".45 automatic: ranged, damage 6, range 20 m, penetration 1 (passes cover of hardness ≤ 1)"));
    assert!(text.contains("behind cover of hardness 1, hiding torso, right leg, left leg"), "{text}");
    assert!(text.contains("armour leather jacket: stops 1 on torso, right arm, left arm"), "{text}");
    assert!(text.contains("policy target=nearest attack=best called_shot=uncovered cover=stay"), "{text}");
    let never = ok(&fray(&["check", GUNFIGHT, "--set", "cover_penetration=never"]));
    assert!(never.contains("stopped by any cover (cover_penetration = never)"), "{never}");
    let rules = ok(&fray(&["rules", "hardboiled"]));
    assert!(rules.contains("second_wind_policy") && rules.contains("USR-RES-8"), "{rules}");
    // Vito's .38 (d10 + 2) at 9 m: Medium, difficulty 7. Its penetration 1 goes through Lou's
    // counter (hardness 1), so `called_shot = uncovered` calls no shot (+2): 7 needed.
    let odds = ok(&fray(&["odds", "--scenario", GUNFIGHT, "--attacker", "Vito", "--defender", "Lou"]));
    assert!(odds.contains("P(hit) = 3/5"), "{odds}");
    // rule: USR-LOC-4, USR-COVER-3
    assert!(odds.contains("Medium band, difficulty 7)") && !odds.contains("called shot"), "{odds}");
    assert!(odds.contains("recorded"), "{odds}");
    let bad = std::fs::read_to_string(BRAWL).unwrap().replace("brass_knuckles", "brass_knuckle");
    let path = TempScenario::new(&bad);
    let out = fray(&["check", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("did you mean `brass_knuckles`?") && err.contains('^'), "{err}");
}

#[test]
fn physical_dice_and_a_person_at_the_table() {
    // The brawl with typed faces: initiative 7 and 2, Joe's punch 9 against 3, location 3.
    let out = fray_with_input(&["fight", BRAWL, "--dice", "manual"], "7\n2\n9\n3\n3\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Joe Bruno initiative: d10 → 7"), "{text}");
    assert!(text.contains("Docker hit at the torso"), "{text}");
    // rule: USR-DICE-4
    // Each total itemised: Joe's +2 brawling specialism, Docker's +1 brass knuckles.
    assert!(
        text.contains("Joe Bruno attacks Docker with fists: d10 9 +2 specialism → 11 vs d10 3 +1 weapon → 4: success"),
        "{text}"
    );
    // Joe's player: declares the first listed intent, then takes the first listed action.
    let out = fray_with_input(&["fight", BRAWL, "--seed", "5", "--control", "Joe Bruno=human"], &"2\n1\n".repeat(200));
    let text = ok(&out);
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("declare your intent for the turn"), "{prompts}");
    assert!(prompts.contains("attack Docker with unarmed — hit"), "{prompts}");
    assert!(text.contains("combat ends after"), "{text}");
}
