//! `opend6` AI answers that the rules constrain: interrupts with a defence it may roll, against
//! the attack in hand.

use fray_engine::{CombatantId, Fight, Record};
use fray_rules::opend6::policy::{self, Ai};
use fray_rules::opend6::{Action, Choice, DefKind, OpenD6, Request, Setup, scenario};

/// A waiting defender (`defender` TOML lines) 8 m from a blaster shooter.
fn standoff(defender: &str) -> Setup {
    let text = format!(
        r#"
[rules]
ruleset = "opend6"
max_rounds = 3
[rules.options]
initiative_method = "fixed_order"

[[combatants]]
name = "Defender"
side = "A"
position = 0
{defender}

[[combatants]]
name = "Shooter"
side = "B"
skills = {{ firearms = "5D" }}
position = 8
[[combatants.weapons]]
name = "blaster"
skill = "firearms"
damage = "4D"
ranges = [10, 30, 120]
"#
    );
    scenario::load("standoff.toml", &text, &[]).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_ai_never_interrupts_with_a_defence_it_has_no_dice_for() {
    // rule: OD6-DICE-7, OD6-ACT-6
    // Agility 1D: dodge 1D, and −1D for a second declared action leaves none. The fight used to
    // stop at the interrupt with an illegal choice.
    let setup = standoff(
        "agility = \"1D\"\nskills = { firearms = \"4D\" }\npolicy = { actions = \"wait_and_dodge\" }\n[[combatants.weapons]]\nname = \"rifle\"\nskill = \"firearms\"\ndamage = \"4D\"\nranges = [10, 30, 120]",
    );
    for seed in 1..=20 {
        ai_fight(&setup, seed);
    }
}

#[test]
fn the_ai_interrupts_a_shot_with_a_dodge_not_a_block() {
    // rule: OD6-DEF-5
    // A boxer (brawling 5D, dodge 3D) waiting: a block counts only against close combat.
    let setup = standoff(
        "agility = \"3D\"\nskills = { brawling = \"5D\", dodge = \"3D\" }\npolicy = { actions = \"wait_and_dodge\", move = \"hold\" }",
    );
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    state.fighters[0].declared = 2;
    state.fighters[0].waiting = true;
    let me = CombatantId(0);
    let ask = |close| {
        let request = Request::Interrupt { actor: CombatantId(1), target: Some(me), total: 20, difficulty: 10, close };
        policy::ai_choice(&setup, &state, me, &request)
    };
    assert_eq!(ask(false), Choice::Interrupt(Some(Action::Defend { kind: DefKind::Dodge, full: false })));
    assert_eq!(ask(true), Choice::Interrupt(Some(Action::Defend { kind: DefKind::Block(None), full: false })));
}

#[test]
fn a_block_that_succeeds_below_its_value_does_not_cancel_a_hit() {
    // rule: OD6-DEF-6, OD6-DEF-7
    // Tam blocks (12), Rook's club rolls 10 against difficulty 7 (the block value 12 less the
    // point-blank and other modifiers): a hit by 3. Under `below_active_value` the block also
    // "succeeds" (10 < 12), which only decides the blade rules; the hit still lands.
    let text = r#"
[rules]
ruleset = "opend6"
max_rounds = 1
order = ["Tam", "Rook"]
[rules.options]
initiative_method = "fixed_order"

[[combatants]]
name = "Tam"
side = "A"
strength = "3D"
skills = { brawling = "4D", dodge = "2D" }
position = 0
policy = { actions = "dodge_and_attack" }

[[combatants]]
name = "Rook"
side = "B"
strength = "3D+2"
skills = { melee_combat = "4D" }
position = 1
[[combatants.weapons]]
name = "club"
skill = "melee_combat"
damage = "1D"
strength_plus = true
"#;
    let faces = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
    for option in ["attack_missed", "below_active_value"] {
        let sets = [("parry_success".to_owned(), option.to_owned())];
        let setup = scenario::load("parry.toml", text, &sets).unwrap();
        let mut fight =
            Fight::<OpenD6, _, _, _>::new(&setup, fray_engine::Scripted::faces(faces), Ai, Record::default());
        fight.run().unwrap();
        let log = fight.into_parts().1.0;
        let hit = log.iter().find_map(|e| match e {
            fray_rules::opend6::Event::Attack { attacker, roll, difficulty, hit, .. }
                if *attacker == CombatantId(1) =>
            {
                Some((roll.total, *difficulty, *hit))
            }
            _ => None,
        });
        assert_eq!(hit, Some((10, 7, true)), "{option}");
        let tam_hurt =
            log.iter().any(|e| matches!(e, fray_rules::opend6::Event::Wound { who, .. } if *who == CombatantId(0)));
        assert!(tam_hurt, "{option}: {log:#?}");
    }
}

#[test]
fn a_free_partial_defence_against_close_combat_may_be_a_parry() {
    // rule: OD6-DEF-10
    // A fencer (melee 6D with a drawn sword, dodge 3D) attacked by fists before his first turn:
    // the higher of dodge and parry is the parry.
    let text = r#"
[rules]
ruleset = "opend6"
max_rounds = 1
order = ["Puncher", "Fencer"]
[rules.options]
initiative_method = "fixed_order"
free_partial_defense = true

[[combatants]]
name = "Puncher"
side = "A"
skills = { brawling = "4D" }
position = 0

[[combatants]]
name = "Fencer"
side = "B"
skills = { melee_combat = "6D", dodge = "3D" }
position = 1
[[combatants.weapons]]
name = "sword"
skill = "melee_combat"
damage = "2D"
strength_plus = true
sharp = true
"#;
    let log = ai_log(text, 1);
    let first = log.iter().find_map(|e| match e {
        fray_rules::opend6::Event::Defence { who, kind, .. } if *who == CombatantId(1) => Some(*kind),
        _ => None,
    });
    assert_eq!(first, Some(DefKind::Block(Some(0))));
}

/// Runs `text` with the AI on `seed`; the log.
fn ai_log(text: &str, seed: u64) -> Vec<fray_rules::opend6::Event> {
    ai_fight(&scenario::load("ai.toml", text, &[]).unwrap_or_else(|e| panic!("{e}")), seed)
}

/// Runs `setup` with the AI on `seed`; the log (the fight must end without an error).
fn ai_fight(setup: &Setup, seed: u64) -> Vec<fray_rules::opend6::Event> {
    let dice = fray_engine::FromSource(fray_dice::seeded(seed));
    let mut fight = Fight::<OpenD6, _, _, _>::new(setup, dice, Ai, Record::default());
    fight.run().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    fight.into_parts().1.0
}

const RIFLE: &str =
    "[[combatants.weapons]]\nname = \"rifle\"\nskill = \"firearms\"\ndamage = \"4D\"\nranges = [10, 30, 120]";

fn shootout(rounds: u32, a: &str, a_weapon: &str) -> String {
    format!(
        "[rules]\nruleset = \"opend6\"\nmax_rounds = {rounds}\n[rules.options]\ninitiative_method = \"fixed_order\"\n\
         [[combatants]]\nname = \"A\"\nside = \"A\"\nposition = 0\n{a}\n{a_weapon}\n\
         [[combatants]]\nname = \"B\"\nside = \"B\"\nstrength = \"3D\"\nskills = {{ firearms = \"1D\" }}\n\
         armor = {{ physical = \"6D\" }}\nposition = 60\npolicy = {{ actions = \"full_defense\" }}\n"
    )
}

fn attacks_by_a(log: &[fray_rules::opend6::Event]) -> usize {
    log.iter()
        .filter(|e| matches!(e, fray_rules::opend6::Event::Attack { attacker, .. } if *attacker == CombatantId(0)))
        .count()
}

#[test]
fn the_ai_falls_back_to_what_it_can_do() {
    // rule: OD6-DICE-7, OD6-ACT-8, OD6-GEAR-1
    // Wounded with dodge 2D: −1D for two actions and −1D for the wound leave no dodge dice. The
    // `dodge_and_attack` AI still attacks every round (it used to pass its whole turn).
    let wounded = shootout(
        3,
        "agility = \"2D\"\nwound_level = \"wounded\"\nskills = { firearms = \"5D\" }\npolicy = { actions = \"dodge_and_attack\" }",
        RIFLE,
    );
    for seed in 1..=5 {
        assert_eq!(attacks_by_a(&ai_log(&wounded, seed)), 3, "seed {seed}");
    }
    // A burst rifle with 7 rounds (3 a burst): two bursts, then a reload, not a round of passes.
    let burst = shootout(
        8,
        "skills = { firearms = \"2D\" }",
        "[[combatants.weapons]]\nname = \"burst rifle\"\nskill = \"firearms\"\ndamage = \"5D\"\nranges = [10, 30, 120]\nburst = true\nammo_max = 7",
    );
    let log = ai_log(&burst, 7);
    assert!(attacks_by_a(&log) >= 5, "{log:#?}");
    // `actions = double` with a once-a-round rifle declares one action, not a useless −1D.
    let double = shootout(3, "skills = { firearms = \"4D\" }\npolicy = { actions = \"double\" }", RIFLE);
    let declared: Vec<u8> = ai_log(&double, 7)
        .iter()
        .filter_map(|e| match e {
            fray_rules::opend6::Event::Declared { who, n } if *who == CombatantId(0) => Some(*n),
            _ => None,
        })
        .collect();
    assert_eq!(declared, vec![1, 1, 1]);
}

#[test]
fn a_held_and_stunned_character_passes() {
    // rule: OD6-COND-3, OD6-TRACK-5
    // A grabs B; a squeeze that leaves B Stunned under `defend_only` restricts him next round,
    // while he is still held: escape is not a defence, so he may only pass. The AI used to try an
    // escape there, and the (checked) fight stopped with an illegal choice.
    let text = "[rules]\nruleset = \"opend6\"\nmax_rounds = 30\n[rules.options]\nstunned_effect = \"defend_only\"\n\
                initiative_method = \"fixed_order\"\n\
                [[combatants]]\nname = \"A\"\nside = \"a\"\nstrength = \"5D\"\nskills = { brawling = \"6D\" }\n\
                position = 0\npolicy = { option = \"grab\" }\n\
                [[combatants]]\nname = \"B\"\nside = \"b\"\nstrength = \"2D\"\nposition = 1\n";
    let setup = scenario::load("heldstun.toml", text, &[]).unwrap_or_else(|e| panic!("{e}"));
    let b = CombatantId(1);
    let mut passed = 0;
    for seed in [2, 4, 7, 8] {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<OpenD6, _, _, _>::new(&setup, dice, Ai, Record::default());
        fight.run().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let (_, record) = fight.into_parts();
        // Replay the log to see B's state when he acts.
        let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
        for e in &record.0 {
            let both = state.fighter(b).held_by.is_some() && policy::restricted(&setup, &state, b);
            match e {
                // A pass is logged as the forfeit of the remaining actions.
                fray_rules::opend6::Event::Forfeit { who, .. } if *who == b && both => passed += 1,
                fray_rules::opend6::Event::Acted { who, action } if *who == b && both => {
                    panic!("seed {seed}: B held and restricted chose {action:?}")
                }
                _ => {}
            }
            <OpenD6 as fray_engine::Ruleset>::apply(&setup, &mut state, e);
        }
    }
    assert!(passed > 0, "no seed left B held and restricted");
}

#[test]
fn a_stunned_defend_only_ai_declares_one_full_defence() {
    // rule: OD6-TRACK-5, OD6-DEF-8, OD6-DEF-9
    // Under `stunned_effect = defend_only` a stunned `double` fighter may only defend next round.
    // The AI used to declare two actions and roll two partial dodges at −1D, the second
    // replacing the first; now it declares one action, a full defence.
    let text = "[rules]\nruleset = \"opend6\"\n[rules.options]\nstunned_effect = \"defend_only\"\n\
                [[combatants]]\nname = \"A\"\nside = \"a\"\nskills = { brawling = \"5D\", dodge = \"4D\" }\n\
                position = 0\npolicy = { actions = \"double\" }\n\
                [[combatants]]\nname = \"B\"\nside = \"b\"\nskills = { brawling = \"5D\" }\nposition = 1\n";
    let setup = scenario::load("defonly.toml", text, &[]).unwrap_or_else(|e| panic!("{e}"));
    let a = CombatantId(0);
    let mut restricted_turns = 0;
    for seed in 1..=10 {
        let log = ai_fight(&setup, seed);
        let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
        for e in &log {
            let restricted = policy::restricted(&setup, &state, a);
            match e {
                fray_rules::opend6::Event::Declared { who, n } if *who == a && restricted => {
                    assert_eq!(*n, 1, "seed {seed}, round {}", state.round);
                    restricted_turns += 1;
                }
                fray_rules::opend6::Event::Defence { who, full, .. } if *who == a && restricted => {
                    assert!(*full, "seed {seed}, round {}: a partial defence", state.round);
                }
                _ => {}
            }
            <OpenD6 as fray_engine::Ruleset>::apply(&setup, &mut state, e);
        }
    }
    assert!(restricted_turns > 0, "no seed stunned A");
    // A kind already rolled this round (his block, brawling 5D beating dodge 4D against fists)
    // is not rolled again: it could only replace the value.
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    state.round = 2;
    state.fighters[0].stun_until = 2;
    state.fighters[0].declared = 2;
    state.fighters[0].used = 1;
    state.fighters[0].defence_round = 2;
    state.fighters[0].block = Some(fray_rules::opend6::Active { value: 14, full: false, weapon: None });
    let request = policy::act_request(&setup, &state, a, true);
    assert_eq!(policy::ai_choice(&setup, &state, a, &request), Choice::Act(Action::Pass));
}

/// Every reload `who` makes in `log`, with the rounds in the magazine and its size just before.
fn reloads(setup: &Setup, log: &[fray_rules::opend6::Event], who: CombatantId) -> Vec<(Option<u32>, Option<u32>)> {
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(setup);
    let mut out = Vec::new();
    for e in log {
        if let fray_rules::opend6::Event::Acted {
            who: w,
            action: Action::Ready(weapon, fray_rules::opend6::Ready::Reload),
        } = e
            && *w == who
        {
            let i = usize::from(*weapon);
            out.push((state.fighter(who).weapons[i].ammo, setup.combatants[who.index()].weapons[i].ammo_max));
        }
        <OpenD6 as fray_engine::Ruleset>::apply(setup, &mut state, e);
    }
    out
}

#[test]
fn the_ai_never_reloads_a_full_magazine() {
    // rule: OD6-GEAR-1, OD6-GEAR-2
    // Reloading fills a magazine to `ammo_max`, so a full one cannot be reloaded. A rifle whose
    // magazine holds no round (`ammo_max = 0`) is always full, and never has the round a shot
    // needs. With B out of its reach (200 m) the AI closes in; it used to choose to reload the
    // rifle as an empty one, which is not allowed, and so passed its turns instead of moving.
    let a = CombatantId(0);
    let far = shootout(3, "skills = { firearms = \"4D\" }", &format!("{RIFLE}\nammo_max = 0"))
        .replace("position = 60", "position = 200");
    let setup = scenario::load("ai.toml", &far, &[]).unwrap_or_else(|e| panic!("{e}"));
    for seed in 1..=5 {
        let log = ai_fight(&setup, seed);
        assert_eq!(reloads(&setup, &log, a), vec![], "seed {seed}");
        let first = log.iter().find_map(|e| match e {
            fray_rules::opend6::Event::Acted { who, action } if *who == a => Some(*action),
            _ => None,
        });
        assert!(matches!(first, Some(Action::Move { .. })), "seed {seed}: {first:?}");
    }
    // A 2-round magazine: two shots, then a reload of the emptied magazine only, never of a full
    // one.
    let two = shootout(6, "skills = { firearms = \"4D\" }", &format!("{RIFLE}\nammo_max = 2"));
    let setup = scenario::load("ai.toml", &two, &[]).unwrap_or_else(|e| panic!("{e}"));
    for seed in 1..=5 {
        let log = ai_fight(&setup, seed);
        let seen = reloads(&setup, &log, a);
        assert!(!seen.is_empty(), "seed {seed}: no reload");
        assert!(seen.iter().all(|(ammo, max)| ammo < max), "seed {seed}: {seen:?}");
    }
}
