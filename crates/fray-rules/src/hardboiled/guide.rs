//! The `hardboiled` guide: its turn structure in plain words, what each AI policy does and every
//! field a scenario file may have (`fray rules hardboiled`, `docs/rulesets/hardboiled.md`).

use crate::reference::{self, FieldInfo, Guide, PolicyInfo};

/// The guide to this ruleset.
pub const GUIDE: Guide = Guide { turn: TURN, policies: POLICIES, fields: FIELDS };

/// How a fight goes, in plain words.
const TURN: &str = "A fight runs in combat turns. Each turn:

1. **Declare.** Each combatant may state its intended action and target (optional: an
   undeclared action is chosen at its step, see `undeclared_action`).
2. **Initiative.** Everyone rolls its Action die; the highest goes first, ties reroll
   (`initiative_tie`).
3. **Resolve.** In initiative order each combatant makes one Move (up to `move_m`) and one
   Attack or Other activity. A melee attack is a contest: both roll their Action die plus
   specialisms and weapon bonus, and the attacker's margin is the damage. A shot rolls the
   Action die against a difficulty set by the range band (Point Blank, Close, Medium, Long,
   Extreme) and deals the weapon's damage plus the margin. A natural top roll may be a critical,
   a natural 1 a fumble, each confirmed by a d10.

Each hit lands on a d10 location; cover on that location may stop it (unless the gun
penetrates), armour there stops some damage, fists deal half. A combatant at 0 HP or less is
Down; one that takes half its maximum HP in a turn is KnockedOut. Second Wind heals a quarter of
the maximum HP once per game. The fight ends when at most one side is left standing, or as a
stalemate after `max_turns`.";

/// What each AI policy field does, in the order of the policy table.
const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        field: "target",
        meaning: "Whom it attacks: `nearest` the closest enemy its attack can hurt (not one behind full cover too hard for its gun), `weakest` the one with the fewest HP, `first` the first in the file.",
    },
    PolicyInfo {
        field: "attack",
        meaning: "How it attacks: `best` its weapon, or fists when they are better or the target's cover stops the gun but not a punch; `weapon` always the weapon; `brawl` always fists.",
    },
    PolicyInfo {
        field: "called_shot",
        meaning: "Where it aims: `never` (a random location), `head`, or `uncovered` a part the target's cover leaves open when the cover would stop the gun.",
    },
    PolicyInfo { field: "cover", meaning: "Whether it keeps its cover (`stay`) or leaves it to attack (`leave`)." },
    PolicyInfo {
        field: "second_wind",
        meaning: "When it uses Second Wind: `scenario` as the option `second_wind_policy` says, `half_hp`, `first_hit`, `when_down`, or `never`.",
    },
    PolicyInfo {
        field: "move",
        meaning: "Whether it closes into range and steps into a better range band when that pays for the moving-shot penalty (`close`), or stays (`hold`).",
    },
];

/// Every key a scenario file may have, table by table.
const FIELDS: &[FieldInfo] = crate::scenario_fields![
    reference::ruleset("hardboiled"),
    reference::OPTIONS,
    FieldInfo::new(
        "rules",
        "max_turns",
        "integer",
        "100",
        "1 to 100000",
        "The most combat turns a fight runs before it ends as a stalemate.",
    ),
    reference::NAME,
    reference::SIDE,
    FieldInfo::new(
        "combatants",
        "hero",
        "true/false",
        "false",
        "",
        "A player character or major foe (only heroes have Second Wind under `second_wind_holders = heroes`).",
    ),
    FieldInfo::new(
        "combatants",
        "action",
        "die size",
        "required",
        "6, 8 or 10 (4 to 12 under `attribute_dice_check = free`)",
        "The Action die: physical contests, shooting and initiative.",
    ),
    FieldInfo::new(
        "combatants",
        "wits",
        "die size",
        "required",
        "6, 8 or 10",
        "The Wits die: perception and trickery; part of the HP roll.",
    ),
    FieldInfo::new("combatants", "ego", "die size", "required", "6, 8 or 10", "The Ego die: willpower and powers."),
    FieldInfo::new(
        "combatants",
        "specialisms",
        "list of tables { name, attribute, tags }",
        "none",
        "",
        "Specialisms: +2 to a roll of that attribute whose tags match.",
    ),
    FieldInfo::new(
        "combatants",
        "hp_max",
        "integer",
        "rolled: Action die + Wits die",
        "1 to 1000",
        "Maximum hit points.",
    ),
    FieldInfo::new("combatants", "hp", "integer", "`hp_max`", "-1000 to 1000", "Hit points at the start."),
    FieldInfo::new(
        "combatants",
        "second_wind_used",
        "true/false",
        "false",
        "",
        "Second Wind already spent (carried between the fights of a series).",
    ),
    FieldInfo::new(
        "combatants",
        "weapon",
        "weapon id (string) or table",
        "unarmed",
        "unarmed, brass_knuckles, blackjack, knife, club, sword, spear, walther_ppk, revolver_38, automatic_45, shotgun, tommy_gun, hunting_rifle; or a table",
        "The wielded weapon.",
    ),
    FieldInfo::new(
        "combatants",
        "armour",
        "list of armour ids or tables",
        "none",
        "leather_jacket, bulletproof_vest, steel_helmet, thick_hide; or tables",
        "Armour worn.",
    ),
    FieldInfo::new(
        "combatants",
        "ward",
        "integer",
        "0",
        "0 to 100",
        "Protection other than armour, subtracted from every hit.",
    ),
    reference::POSITION,
    FieldInfo::new("combatants", "cover", "table", "none", "", "Cover the combatant starts behind."),
    FieldInfo::new(
        "combatants",
        "policy",
        "table of policy → name",
        "every policy at its default",
        "see AI policies below",
        "How the AI plays this combatant: `policy = { target = \"weakest\" }`.",
    ),
    FieldInfo::new("combatants.specialisms", "name", "string", "required", "", "The specialism's name."),
    FieldInfo::new(
        "combatants.specialisms",
        "attribute",
        "string",
        "required",
        "action, wits, ego",
        "The attribute it improves.",
    ),
    FieldInfo::new(
        "combatants.specialisms",
        "tags",
        "list of strings",
        "none",
        "melee, brawling, shooting, dodge, grapple, psionics, …",
        "The kinds of roll it applies to.",
    ),
    FieldInfo::new(
        "combatants.weapon",
        "base",
        "string",
        "none",
        "a weapon table id",
        "A table weapon to start from; the other keys change it.",
    ),
    FieldInfo::new("combatants.weapon", "name", "string", "the base's", "", "The weapon's name."),
    FieldInfo::new("combatants.weapon", "kind", "string", "the base's", "melee, ranged", "Melee or ranged."),
    FieldInfo::new("combatants.weapon", "bonus", "integer", "0", "", "Added to the wielder's melee contest total."),
    FieldInfo::new(
        "combatants.weapon",
        "damage",
        "dice expression or number",
        "none",
        "e.g. \"6\", \"2d6\"",
        "A ranged weapon's damage.",
    ),
    FieldInfo::new(
        "combatants.weapon",
        "range_m",
        "number (metres)",
        "none",
        "0 to 10000",
        "A ranged weapon's listed range R (bands at ¼, ½, 1 and 2 × R).",
    ),
    FieldInfo::new(
        "combatants.weapon",
        "brawling",
        "true/false",
        "false",
        "",
        "A brawling weapon (fists, knuckles): its damage is halved.",
    ),
    FieldInfo::new(
        "combatants.weapon",
        "reach",
        "integer",
        "0",
        "0 (unarmed) to 3 (spear)",
        "Melee reach, used by `reach_initiative_bonus`.",
    ),
    FieldInfo::new(
        "combatants.weapon",
        "penetration",
        "integer",
        "0",
        "0 to 3",
        "The hardest cover it shoots through.",
    ),
    FieldInfo::new("combatants.armour", "name", "string", "required", "", "The armour's name."),
    FieldInfo::new(
        "combatants.armour",
        "stop",
        "integer",
        "required",
        "0 to 20",
        "Damage it stops on the locations it covers.",
    ),
    FieldInfo::new(
        "combatants.armour",
        "locations",
        "list of integers",
        "required",
        "1 to 10 (1 head, 2–4 torso, 5–6 arms, 7–10 legs)",
        "The d10 hit locations it covers.",
    ),
    FieldInfo::new("combatants.armour", "natural", "true/false", "false", "", "Natural armour (hide, shell)."),
    FieldInfo::new(
        "combatants.cover",
        "preset",
        "string",
        "none",
        "low, counter, corner, full",
        "A named cover, which sets the locations it hides.",
    ),
    FieldInfo::new(
        "combatants.cover",
        "locations",
        "list of integers",
        "none",
        "1 to 10",
        "The d10 hit locations the cover hides (under `cover_presets = custom`).",
    ),
    FieldInfo::new(
        "combatants.cover",
        "hardness",
        "integer",
        "1",
        "0 to 3",
        "How hard the cover is: a weapon with at least this penetration shoots through.",
    ),
];
