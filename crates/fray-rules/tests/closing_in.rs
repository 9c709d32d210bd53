//! Closing in under `move = close`: in every ruleset a duel fought from any distance ends, because
//! a fighter out of its weapon's useful range, or with nothing worth doing where it stands, moves
//! in. Each duel example is swept from 1 m to 200 m (the examples' own combatants, one moved along
//! the line from the other), and stalemates at the fight-length cap stay under 1% at every
//! distance: in every duel example both sides carry a weapon that can reach the other once close.

use fray_engine::Outcome;

mod common {
    /// The examples directory.
    pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
}

/// The distances swept, in metres (squares of 1 m in `ticks`).
const DISTANCES: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 200];

/// The example at `path` under `examples/`, with `sets` (`--set` edits and options).
fn load(path: &str, sets: &[(String, String)]) -> Box<dyn fray_rules::Scenario> {
    let file = format!("{}/{path}", common::EXAMPLES);
    let text = std::fs::read_to_string(&file).unwrap();
    fray_rules::load(&file, &text, sets).unwrap_or_else(|e| panic!("{e}"))
}

/// Stalemates in `fights` simulated fights of `scenario` (one batch, seed 11).
fn stalemates(scenario: &dyn fray_rules::Scenario, fights: u64) -> u64 {
    let mut ledger = fray_sim::Ledger::new(scenario.combatant_count());
    scenario.run_batch(&mut fray_sim::batch_dice(11, 0), fights, &mut ledger).unwrap();
    assert_eq!(ledger.fights(), fights);
    ledger.outcomes.get(&Outcome::Stalemate).copied().unwrap_or(0)
}

/// `mover` placed `d` metres from `anchor` (at the origin) for every swept `d`: the positions
/// as a number on the line, or as `[d, 0]` on the plane (`plane`).
fn placed(anchor: &str, mover: &str, d: u32, plane: bool, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let at = |x: u32| if plane { format!("[{x}, 0]") } else { x.to_string() };
    let mut sets = vec![(format!("{anchor}.position"), at(0)), (format!("{mover}.position"), at(d))];
    sets.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    sets
}

/// A duel cut from the example at `path`: its combatants before the one named `first_left_out`.
fn duel_from(path: &str, first_left_out: &str) -> String {
    let text = std::fs::read_to_string(format!("{}/{path}", common::EXAMPLES)).unwrap();
    let cut = text.find(&format!("[[combatants]]\nname = \"{first_left_out}\"")).unwrap();
    text[..cut].to_owned()
}

/// Stalemates under 1% of `fights` at every swept distance of `mover` from `anchor` in the
/// scenario `text`.
fn sweep_text(name: &str, text: &str, anchor: &str, mover: &str, fights: u64) {
    for d in DISTANCES {
        let scenario = fray_rules::load(name, text, &placed(anchor, mover, d, false, &[])).unwrap();
        let n = stalemates(scenario.as_ref(), fights);
        assert!(100 * n < fights, "{name}: {n} stalemates of {fights} at {d} m");
    }
}

/// Sweeps the duel example `path` over [`DISTANCES`] and asserts stalemates under 1% of `fights`
/// at each; returns the stalemates per distance.
fn sweep(path: &str, anchor: &str, mover: &str, plane: bool, fights: u64) -> Vec<u64> {
    let mut found = Vec::new();
    let mut bad = Vec::new();
    for d in DISTANCES {
        let scenario = load(path, &placed(anchor, mover, d, plane, &[]));
        let n = stalemates(scenario.as_ref(), fights);
        if 100 * n >= fights {
            bad.push(format!("{d} m: {n} of {fights}"));
        }
        found.push(n);
    }
    assert!(bad.is_empty(), "{path}: stalemates of 1% or more at {}", bad.join(", "));
    found
}

#[test]
fn fluid_duels_end_at_every_distance() {
    sweep("fluid/barbarian-vs-marauder.toml", "barbarian", "marauder", false, 300);
    sweep("fluid/tiered-duel.toml", "knight", "militiaman", false, 300);
}

#[test]
fn hardboiled_duels_end_at_every_distance() {
    sweep("hardboiled/bar-room-brawl.toml", "Joe Bruno", "Docker", false, 500);
    // A gun duel: the gunfight's Lou against Vito alone.
    let text = duel_from("hardboiled/gunfight.toml", "Sal");
    sweep_text("gunfight (Lou, Vito)", &text, "Lou", "Vito", 300);
}

#[test]
fn phasesix_duels_end_at_every_distance() {
    sweep("phasesix/sword-and-shield.toml", "Hagen", "Robber", false, 300);
    // A gun duel: the firefight's soldier against one raider with a 30 m pistol.
    let text = duel_from("phasesix/firefight.toml", "Raider 2");
    sweep_text("firefight (Soldier, Raider 1)", &text, "Soldier", "Raider 1", 300);
}

#[test]
fn opend6_duels_end_at_every_distance() {
    sweep("opend6/blaster-duel.toml", "Smuggler", "Hunter", false, 2000);
    sweep("opend6/brawl.toml", "Dockhand", "Vex", false, 300);
}

#[test]
fn opend6_closes_from_long_range_with_the_free_move() {
    // Held where they stand, the two blasters trade shots at Long range (+10, OD6-MOVE-3) and a
    // fight at 100 m often reaches the round cap; closing in, it ends (the sweep above).
    let hold = [
        ("Smuggler.policy", "{ actions = \"single\", move = \"hold\" }"),
        ("Hunter.policy", "{ actions = \"single\", move = \"hold\" }"),
    ];
    let held =
        stalemates(load("opend6/blaster-duel.toml", &placed("Smuggler", "Hunter", 100, false, &hold)).as_ref(), 2000);
    assert!(held >= 100, "{held}");
    // A fight at 100 m: the Smuggler's heavy blaster reaches 50 m, the Hunter's pistol 120 m.
    // Each spends its free move (OD6-MOVE-2) closing to its weapon's Medium band before shooting.
    let scenario = load("opend6/blaster-duel.toml", &placed("Smuggler", "Hunter", 100, false, &[]));
    let mut moves = Vec::new();
    let mut dice = fray_engine::FromSource(fray_dice::seeded(5));
    let mut out = |line: &fray_rules::Line| {
        if line.json["event"] == "acted" && line.json["action"].get("Move").is_some() {
            moves.push((line.json["who"].as_str().unwrap().to_owned(), line.json["action"]["Move"].clone()));
        }
    };
    scenario.fight(&mut dice, Some(5), &[], &mut |_| None, &mut out).unwrap();
    let hunter: Vec<_> = moves.iter().filter(|(who, _)| who == "Hunter").collect();
    assert!(!hunter.is_empty(), "{moves:?}");
    assert!(
        hunter.iter().all(|(_, m)| m["free"] == true),
        "the Hunter shoots from where his pistol reaches: {moves:?}"
    );
    // The Hunter stops at the edge of his pistol's Medium band (30 m) from the Smuggler, who
    // starts at 0 and only comes nearer: never nearer by his own moves.
    assert!(hunter.iter().all(|(_, m)| m["to"].as_i64().unwrap() >= 30), "{moves:?}");
}

#[test]
fn ticks_duels_end_at_every_distance() {
    sweep("ticks/knife-fight.toml", "Max", "Tia", true, 300);
    sweep("ticks/pistol-duel.toml", "Sam", "Vic", true, 300);
    sweep("ticks/rifle-vs-pistol.toml", "Rhea", "Tom", true, 300);
}

#[test]
fn ticks_gunmen_held_where_they_stand_stalemate_at_fifty_metres() {
    // What closing in fixes: both gunmen holding at 50 m aim and decline hopeless shots until the
    // tick cap.
    let hold = [
        ("Sam.policy", "{ fire = \"steady\", move = \"hold\" }"),
        ("Vic.policy", "{ fire = \"snap\", move = \"hold\" }"),
    ];
    let scenario = load("ticks/pistol-duel.toml", &placed("Sam", "Vic", 50, true, &hold));
    let n = stalemates(scenario.as_ref(), 200);
    assert!(n >= 150, "{n} of 200");
}

/// The squares `who` stands on at the end of each tick of one fight (seed 1).
fn squares(scenario: &dyn fray_rules::Scenario, who: &str) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let mut dice = fray_engine::FromSource(fray_dice::seeded(1));
    let mut sink = |line: &fray_rules::Line| {
        if line.json["event"] == "status" {
            for f in line.json["fighters"].as_array().unwrap() {
                if f["who"] == who {
                    out.push((f["square"][0].as_i64().unwrap(), f["square"][1].as_i64().unwrap()));
                }
            }
        }
    };
    scenario.fight(&mut dice, Some(1), &[], &mut |_| None, &mut sink).unwrap();
    out
}

#[test]
fn ticks_gunman_runs_in_until_the_shot_is_worth_it() {
    use fray_engine::{CombatantId, Ruleset};
    use fray_rules::ticks::{Action, Ticks, policy};
    let text = std::fs::read_to_string(format!("{}/ticks/pistol-duel.toml", common::EXAMPLES)).unwrap();
    let (sam, vic) = (CombatantId(0), CombatantId(1));
    for (d, worth) in [(10, true), (20, true), (30, false), (50, false), (200, false)] {
        let at = text.replace("position = [10, 0]", &format!("position = [{d}, 0]"));
        let setup = fray_rules::ticks::scenario::load("pistol-duel.toml", &at, &[]).unwrap();
        let state = Ticks::initial_state(&setup);
        // Sam (Shoot 6): pistol +5 at point blank, −1 per 2 m, five ticks' aim (up to half the
        // penalty); Vic's Evade 6. At 30 m: 6 + 5 − 15 + 5 = 1 against 6, under a third.
        assert_eq!(policy::worth_shooting(&setup, &state, sam, vic), worth, "{d} m");
        let action = policy::announce(&setup, &state, sam);
        if worth {
            assert!(!matches!(action, Action::Run { .. } | Action::Move(_)), "{d} m: {action:?}");
        } else {
            assert_eq!(action, Action::Run { to: (d, 0), attack: None }, "{d} m");
        }
        // Held (`move = hold`), it stays and aims.
        let held = fray_rules::ticks::scenario::load(
            "pistol-duel.toml",
            &at.replace("policy = { fire = \"steady\" }", "policy = { fire = \"steady\", move = \"hold\" }"),
            &[],
        )
        .unwrap();
        assert_eq!(policy::announce(&held, &state, sam), Action::Aim(vic), "{d} m");
    }
}

#[test]
fn ticks_gunman_closing_in_takes_cover_on_the_way() {
    // Tom starts 100 m from Rhea; the car body at (24, 2) lies on his way in. Under
    // `cover = seek` he runs to it and shoots from there; under `cover = stay` he runs straight in
    // along y = 0 and never stands in it.
    let far = [("Tom.position", "[100, 0]")];
    let sets = |extra: &[(&str, &str)]| -> Vec<(String, String)> {
        far.iter().chain(extra).map(|(k, v)| (k.to_string(), v.to_string())).collect()
    };
    // (Rhea's aimed rifle may drop him on the way: what counts is where he heads.)
    let seek = squares(load("ticks/rifle-vs-pistol.toml", &sets(&[])).as_ref(), "Tom");
    assert!(seek.len() >= 3, "{seek:?}");
    assert!(seek[1..].iter().all(|s| s.1 == 2 && s.0 >= 24), "{seek:?}");
    assert!(seek.windows(2).all(|w| w[1].0 <= w[0].0), "{seek:?}");
    let stay = sets(&[("Tom.policy", "{ fire = \"steady\", cover = \"stay\" }")]);
    let stay = squares(load("ticks/rifle-vs-pistol.toml", &stay).as_ref(), "Tom");
    assert!(stay.iter().all(|s| s.1 == 0), "{stay:?}");
    assert!(stay.last().unwrap().0 < 100, "{stay:?}");
}

#[test]
fn a_ticks_gunman_awaits_a_knife_fighter_who_comes_to_him() {
    use fray_engine::{CombatantId, Ruleset};
    use fray_rules::ticks::{Action, Ticks, policy};
    // Sam's pistol against a knife fighter 50 m off: the knife closes in itself, so Sam aims and
    // waits for him; a knife fighter who holds is run at, as a gunman is.
    let duel = |knife_policy: &str| {
        format!(
            "[rules]\nruleset = \"ticks\"\n[[combatants]]\nname = \"Sam\"\nside = \"a\"\nposition = [0, 0]\n\
             skills = {{ shoot = 6, melee = 4, evade = 5 }}\ngun = \"pistol\"\n[[combatants]]\nname = \"Kit\"\n\
             side = \"b\"\nposition = [50, 0]\nmelee_weapon = \"knife\"\npolicy = {knife_policy}\n"
        )
    };
    let (sam, kit) = (CombatantId(0), CombatantId(1));
    let comes = fray_rules::ticks::scenario::load("duel.toml", &duel("{ move = \"close\" }"), &[]).unwrap();
    assert_eq!(policy::announce(&comes, &Ticks::initial_state(&comes), sam), Action::Aim(kit));
    let holds = fray_rules::ticks::scenario::load("duel.toml", &duel("{ move = \"hold\" }"), &[]).unwrap();
    assert_eq!(policy::announce(&holds, &Ticks::initial_state(&holds), sam), Action::Run { to: (50, 0), attack: None });
    // Fought out, the gun-and-knife duel ends at every distance.
    for d in DISTANCES {
        let text = duel("{ move = \"close\" }").replace("position = [50, 0]", &format!("position = [{d}, 0]"));
        let scenario = fray_rules::load("duel.toml", &text, &[]).unwrap();
        let n = stalemates(scenario.as_ref(), 300);
        assert!(100 * n < 300, "{d} m: {n} stalemates of 300");
    }
}
