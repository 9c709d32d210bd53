//! `fray` end to end on the `ticks` examples.

mod common;
use common::{TempScenario, fray, fray_with_input, ok, sim_json};

use serde_json::Value as Json;

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/pistol-duel.toml");
const RIFLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/rifle-vs-pistol.toml");
const KNIFE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/knife-fight.toml");

#[test]
fn fights_are_byte_identical_and_sims_thread_independent() {
    for file in [DUEL, RIFLE, KNIFE] {
        let a = ok(&fray(&["fight", file, "--seed", "8"]));
        assert_eq!(a, ok(&fray(&["fight", file, "--seed", "8"])));
        // The log shows the tick and each character's stability and effort.
        assert!(a.contains("— tick 1 (0.5 s) —") && a.contains("[end of tick 1:") && a.contains(" effort "), "{a}");
        assert!(a.contains("combat ends after"), "{a}");
    }
    let run = |threads: &str| sim_json(DUEL, "3000", "4", threads);
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["fights"], 3000);
    // Length in ticks and in seconds.
    assert_eq!(one["unit"], "ticks");
    let ticks = one["rounds"]["mean"].as_f64().unwrap();
    assert!((one["seconds"]["mean"].as_f64().unwrap() - ticks / 2.0).abs() < 1e-9);
    let text = ok(&fray(&["sim", KNIFE, "-n", "500"]));
    assert!(text.contains("ticks: mean") && text.contains("fight length (ticks; mean"), "{text}");
    let json = ok(&fray(&["fight", RIFLE, "--seed", "2", "--json"]));
    let header: Json = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(header["ruleset"], "ticks");
    assert!(json.lines().skip(1).all(|l| serde_json::from_str::<Json>(l).is_ok()));
    assert!(json.contains("\"event\":\"status\""));
}

#[test]
fn check_rules_odds_and_errors() {
    let text = ok(&fray(&["check", RIFLE]));
    assert!(text.contains("ruleset ticks") && text.contains("2 cover square(s)"), "{text}");
    // The recovery table, corrected or as the draft printed it.
    assert!(text.contains("    14  11   8   6   4   2   1     7"), "{text}");
    let printed = ok(&fray(&["check", RIFLE, "--set", "stability_recovery=printed_table"]));
    assert!(printed.contains("    14  11   9   6   4   2   1     7"), "{printed}");
    let rules = ok(&fray(&["rules", "ticks"]));
    assert!(rules.contains("stability_recovery") && rules.contains("TICK-STAB-5"), "{rules}");
    // Sam's snap shot: 1 + 5 + 0 − 10 against Vic's evade 6, a d20 each: 9/80.
    let odds = ok(&fray(&["odds", "--scenario", DUEL, "--attacker", "Sam", "--defender", "Vic"]));
    assert!(odds.contains("P(hit) = 9/80"), "{odds}");
    // The shots Sam declines as hopeless once rolled (his d20 at 11 or less, TICK-GUN-11) meet no
    // defence: Vic spends effort on the other 9/20 only (10 were every shot carried through).
    assert!(odds.contains("expected effort Vic spends on this defence: 105/16"), "{odds}");
    assert!(odds.contains("declines the shot by decline_policy = hopeless (TICK-GUN-11): 11/20 of the time"), "{odds}");
    let bad = std::fs::read_to_string(DUEL).unwrap().replace("\"pistol\"", "\"pistl\"");
    let path = TempScenario::new(&bad);
    let out = fray(&["check", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("did you mean `pistol`?") && err.contains('^'), "{err}");
}

#[test]
fn physical_dice_and_a_person_at_the_table() {
    // The order die 1 puts Tia first: she steps in, and Max is blocked.
    let out = fray_with_input(&["fight", KNIFE, "--dice", "manual"], "1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Tia moves from (2, 0) to (1, 0)") && text.contains("Max is blocked at (1, 0)"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("roll one d2 for announcement order"), "{prompts}");
    // Sam's player always takes the second choice: a shot, with its exact odds listed.
    let out = fray_with_input(&["fight", DUEL, "--seed", "3", "--control", "Sam=human"], &"2\n".repeat(300));
    let text = ok(&out);
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("tick 1: announce (p 0, effort 60, Body 30)"), "{prompts}");
    assert!(prompts.contains("fire 1 shot(s) at Vic — wins 11.2% (9/80)"), "{prompts}");
    assert!(prompts.contains("Pull the trigger?"), "{prompts}");
    assert!(text.contains("combat ends after"), "{text}");
}
