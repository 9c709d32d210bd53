//! `fray` end to end on the `phasesix` examples.

mod common;
use common::{TempScenario, fray, fray_with_input, ok, sim_json};

use serde_json::Value as Json;

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/phasesix/sword-and-shield.toml");
const FIREFIGHT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/phasesix/firefight.toml");
const GRENADE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/phasesix/grenade.toml");

#[test]
fn fights_are_byte_identical_and_sims_thread_independent() {
    for file in [DUEL, FIREFIGHT, GRENADE] {
        let a = ok(&fray(&["fight", file, "--seed", "8"]));
        assert_eq!(a, ok(&fray(&["fight", file, "--seed", "8"])));
        assert!(a.contains("initiative") && a.contains("combat ends after"), "{a}");
    }
    let run = |threads: &str| sim_json(FIREFIGHT, "2000", "4", threads);
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["fights"], 2000);
    let json = ok(&fray(&["fight", GRENADE, "--seed", "2", "--json"]));
    let header: Json = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(header["ruleset"], "phasesix");
    assert!(json.lines().skip(1).all(|l| serde_json::from_str::<Json>(l).is_ok()));
}

#[test]
fn check_rules_odds_and_errors() {
    let text = ok(&fray(&["check", FIREFIGHT]));
    assert!(text.contains("ruleset phasesix") && text.contains("assault rifle"), "{text}");
    // rule: P6-COVER-1, P6-SHLD-1, P6-DMG-1 — what stands between a hit and a wound is shown.
    assert!(text.contains("terrain cover 5+, kevlar vest (armour, protection 2, 100%); protection against piercing 2"));
    assert!(text.contains("recoil (compensation 0)") && text.contains("1 bonus dice"), "{text}");
    assert!(text.contains("policy target=nearest keep=none defend=best fire=burst"), "{text}");
    let duel = ok(&fray(&["check", DUEL]));
    assert!(duel.contains("round shield (shield, cover 5+), leather armour (armour, protection 1, 100%)"), "{duel}");
    let rules = ok(&fray(&["rules", "phasesix"]));
    assert!(rules.contains("cover_crit_removal") && rules.contains("P6-COVER-4"), "{rules}");
    // Hagen's short sword: 4 dice at 5+; the opening attack comes before Robber's first turn, so
    // he cannot react yet (P6-ACT-1); the line for his turn coming first has his reaction.
    let odds = ok(&fray(&["odds", "--scenario", DUEL, "--attacker", "Hagen", "--defender", "Robber"]));
    assert!(odds.contains("P(hit) = 65/81"), "{odds}");
    assert!(odds.contains("4 dice at 5+, crits from 11"), "{odds}");
    assert!(
        odds.contains("(megacrit levels above 8 counted at level 8: every value is exact up to a residual of 1.3e-7)")
    );
    // The megacrit tail past a dozen outcomes is one line in the text; the JSON has each.
    assert!(
        odds.contains("  …                   3.63e-7%  (24 more outcomes up to 36 wound(s); each with --json)"),
        "{odds}"
    );
    let full = ok(&fray(&["odds", "--scenario", DUEL, "--attacker", "Hagen", "--defender", "Robber", "--json"]));
    let full: Json = serde_json::from_str(&full).unwrap();
    assert_eq!(full["damage_given_hit"].as_array().unwrap().len(), 36);
    assert!(odds.contains("before Robber's first turn") && odds.contains("if Robber's turn comes first"), "{odds}");
    // rule: P6-CRIT-1 — a burst never crits, so nothing is lumped at a megacrit level: exact.
    let burst =
        ok(&fray(&["odds", "--scenario", FIREFIGHT, "--attacker", "Soldier", "--defender", "Raider 1", "--json"]));
    let burst: Json = serde_json::from_str(&burst).unwrap();
    assert_eq!(burst["residual"], "0/1", "{burst}");
    let bad = std::fs::read_to_string(DUEL).unwrap().replace("hand_to_hand", "hand_to_hnd");
    let path = TempScenario::new(&bad);
    let out = fray(&["check", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("did you mean `hand_to_hand`?") && err.contains('^'), "{err}");
}

#[test]
fn physical_dice_and_a_person_at_the_table() {
    // Initiative 4 and 3 (6 each, the tie drawn), then the Robber's 4 hit dice 5 5 1 1.
    let out = fray_with_input(&["fight", DUEL, "--dice", "manual"], "4\n3\n5\n5\n1\n1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Hagen initiative: [4] +2 quickness → 6"), "{text}");
    assert!(text.contains("[5 5 1 1] → 0 crits, 2 normal hit(s)"), "{text}");
    // Hagen's player takes the first listed act every time, with the odds beside the attack.
    let out = fray_with_input(&["fight", DUEL, "--seed", "5", "--control", "Hagen=human"], &"1\n".repeat(300));
    let text = ok(&out);
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("Hagen — your act (2 action(s) available)"), "{prompts}");
    assert!(prompts.contains("attack Robber — ≥ 1 hit 80.2%"), "{prompts}");
    assert!(text.contains("combat ends after"), "{text}");
}

#[test]
fn physical_dice_of_a_pool_are_numbered_with_their_explosions() {
    // rule: P6-DICE-2 — a 6 is tossed again and added, for as long as 6s come up.
    // rule: P6-DICE-3 — die by die, each die's whole chain before the next die: the prompts name
    // the die of the pool and each re-roll of a 6 as an explosion of that die.
    // Hagen's initiative 6 then 1 (7), the Robber's 3; Hagen's 4 hit dice 5, 6+2, 1, 6+6+1.
    let out = fray_with_input(&["fight", DUEL, "--dice", "manual"], "6\n1\n3\n5\n6\n2\n1\n6\n6\n1\n4\n4\n4\n4\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Hagen initiative: [7] +2 quickness → 9"), "{text}");
    // The totals are the same as before the dice were numbered: 6+2 = 8 and 6+6+1 = 13.
    assert!(text.contains("at 5+, crits 11+ [5 8 1 13] → 1 crit(s), 2 normal hit(s)"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(
        prompts.starts_with(
            "roll one d6 for Hagen's initiative: roll one d6 for Hagen's initiative (explosion: the 6 rolled again): \
             roll one d6 for Robber's initiative: "
        ),
        "{prompts}"
    );
    assert!(
        prompts.contains(
            "roll 4d6 for Hagen's hit, the faces on one line: \
             roll 3d6 for Hagen's hit (dice 2 to 4 of 4), the faces on one line: \
             roll one d6 for Hagen's hit (explosion of die 2 of 4): \
             roll 2d6 for Hagen's hit (dice 3 to 4 of 4), the faces on one line: \
             roll one d6 for Hagen's hit (die 4 of 4): roll one d6 for Hagen's hit (explosion of die 4 of 4): \
             roll one d6 for Hagen's hit (explosion 2 of die 4 of 4): roll 4d6 for Robber's hit, the faces on one line: "
        ),
        "{prompts}"
    );
}

#[test]
fn odds_of_a_grenadier_who_throws_first_are_the_blast() {
    // rule: P6-THROW-1, P6-THROW-2, P6-THROW-4, P6-DMG-4
    // 3 dice at 5+ land the grenade on Cultist 1 with 1 − (2/3)³ = 19/27; a deviation of 1 m
    // (12 of the 72) still catches him: 19/27 + 8/27 · 1/6 = 61/81. No cover, no protection:
    // 3 hits × 2 wounds fill his 6 hearts whenever it reaches him. The pistol shot beside it.
    let odds = ok(&fray(&["odds", "--scenario", GRENADE, "--attacker", "Grenadier", "--defender", "Cultist 1"]));
    assert!(odds.contains("P(hit) = 61/81"), "{odds}");
    assert!(odds.contains("P(this attack takes Cultist 1 down) = 61/81"), "{odds}");
    assert!(odds.contains("lands on Cultist 1 with ≥ 1 success (P6-THROW-1): 19/27"), "{odds}");
    assert!(odds.contains("pistol attack instead") && odds.contains("hit 65/81"), "{odds}");
}
