//! The `fluid` guide: its turn structure in plain words, what each AI policy does and every
//! field a scenario file may have (`fray rules fluid`, `docs/rulesets/fluid.md`).

use crate::reference::{self, FieldInfo, Guide, PolicyInfo};

/// The guide to this ruleset.
pub const GUIDE: Guide = Guide { turn: TURN, policies: POLICIES, fields: FIELDS };

/// How a fight goes, in plain words.
const TURN: &str = "A fight runs in rounds of 3 seconds. Each round:

1. **Round start.** Dying combatants test whether they survive and whether they can act.
2. **Tactics.** Every combatant splits its Tactics value into an attack part (oT) and a defence
   part (dT); NPCs announce first, and everyone may revise (`tactics_passes`).
3. **Declarations.** Everyone declares the round's actions — moves, attacks (target, weapon,
   lethal or stunning, fire mode), Full Defense, healing — and may revise them
   (`declare_passes`). Declaring N check actions costs −N on each (`multi_action_penalty`).
4. **Initiative.** Everyone rolls 3d6 + Tactics; ties by Tactics, then FIN, then a roll-off.
5. **Resolution.** Declared movement happens, then each combatant acts at its step in initiative
   order. An attack is a 3d6 check (skill + item quality + oT and modifiers) against the
   defender's chosen defence (dodge, parry or block, + dT); high and low naturals become crits
   and blunders. A hit deals wound (W) and stress (S) damage, less armour; weapons, shields and
   armour may be sundered.

A combatant whose W or S falls low takes condition penalties; it goes down when W or S reaches
0 (dying or unconscious), and a side is out when none of it can fight (`side_out_when`). The
fight ends when at most one side is left, or as a stalemate after `max_rounds`.";

/// What each AI policy field does, in the order of the policy table.
const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        field: "tactics",
        meaning: "How the combatant splits its Tactics each round: `normal` half to attack and half to defence, `aggressive` all to attack (oT), `defensive` all to defence (dT), `answer` defends against a foe that announced all-out attack, attacks a defensive one, and splits otherwise.",
    },
    PolicyInfo {
        field: "target",
        meaning: "Whom it attacks: `nearest` the closest enemy, `weakest` the enemy with the least W left, `first` the first enemy in the file.",
    },
    PolicyInfo { field: "intent", meaning: "Whether its attacks aim to kill (`lethal`) or to knock out (`stunning`)." },
    PolicyInfo {
        field: "attacks",
        meaning: "How many attacks it declares: `one`, `max` as many as its skill allows, or `full_defense` none, taking Full Defense instead.",
    },
    PolicyInfo {
        field: "pain",
        meaning: "Whether it makes the NER check to ignore pain: `expected` only when the check is expected to help, `always`, or `never`.",
    },
    PolicyInfo {
        field: "sunder",
        meaning: "Whether it switches an attack to sunder the defender's blocking item: `never`, or `superior` when its weapon's tier is higher.",
    },
    PolicyInfo { field: "fire", meaning: "How it fires a gun: `single` shots, `burst`, or `spray` (several targets)." },
    PolicyInfo {
        field: "move",
        meaning: "Whether it moves into reach or range before attacking (`close`) or stays where it is (`hold`).",
    },
    PolicyInfo {
        field: "area",
        meaning: "Whether it uses area weapons: `never`, or `safe` only when no ally is in the blast.",
    },
    PolicyInfo {
        field: "brawl",
        meaning: "Whether it fights unarmed: `never`, or `when_unarmed` when it has no weapon.",
    },
    PolicyInfo { field: "heal", meaning: "Whether it heals dying allies: `allies`, or `never`." },
    PolicyInfo { field: "shield", meaning: "Whether it shields a helpless friend's body: `never`, or `allies`." },
];

/// Every key a scenario file may have, table by table.
const FIELDS: &[FieldInfo] = crate::scenario_fields![
    reference::ruleset("fluid"),
    reference::OPTIONS,
    FieldInfo::new(
        "rules",
        "max_rounds",
        "integer",
        "100",
        "1 to 100000",
        "The most rounds a fight runs before it ends as a stalemate.",
    ),
    FieldInfo::new(
        "combatants",
        "id",
        "string",
        "required",
        "not empty",
        "The combatant's name, used in the log, in `--set NAME.FIELD=…` and in `--control`.",
    ),
    reference::SIDE,
    FieldInfo::new(
        "combatants",
        "player",
        "true/false",
        "false",
        "",
        "Marks a player character (NPC stances are announced first).",
    ),
    FieldInfo::new(
        "combatants",
        "stats",
        "table of stat → integer",
        "10 each",
        "FIN, ALL, BOD, STR, INS, MEN, NER: 3 to 18",
        "Stat scores; a stat's bonus is its score − 10, and BOD sets the death threshold.",
    ),
    FieldInfo::new(
        "combatants",
        "size",
        "integer",
        "3 (Medium, a human)",
        "0 to 5",
        "The creature's size; natural armour and unarmed size follow from it.",
    ),
    FieldInfo::new(
        "combatants",
        "pc",
        "integer",
        "required",
        "1 or more",
        "Physical Condition: the maximum of the wound track W (and of stress S by default).",
    ),
    FieldInfo::new("combatants", "w", "integer", "`pc`", "", "Current wound track W, lower for a wounded start."),
    FieldInfo::new("combatants", "s", "integer", "`pc`", "", "Current stress track S."),
    FieldInfo::new(
        "combatants",
        "s_max",
        "integer",
        "`pc`",
        "1 or more",
        "Maximum stress; read only under `stress_max = sheet`.",
    ),
    FieldInfo::new(
        "combatants",
        "tactics",
        "integer",
        "0",
        "may be negative",
        "The Tactics value split each round into attack (oT) and defence (dT).",
    ),
    FieldInfo::new(
        "combatants",
        "move",
        "number (metres)",
        "4",
        "0 or more",
        "How far the combatant walks in a round.",
    ),
    FieldInfo::new(
        "combatants",
        "skills",
        "table of skill name → skill",
        "none",
        "dodge, parry, block, run, heal, and one per attack skill",
        "The combatant's skills; a skill not listed is untrained.",
    ),
    FieldInfo::new(
        "combatants",
        "items",
        "list of tables ([[combatants.items]])",
        "none (fists only)",
        "at most 64 per combatant",
        "Weapons and shields.",
    ),
    FieldInfo::new("combatants", "armor", "table", "none (AV 0)", "", "Worn or natural armour."),
    reference::POSITION,
    FieldInfo::new(
        "combatants",
        "policy",
        "table of policy → name",
        "every policy at its default",
        "see AI policies below",
        "How the AI plays this combatant: `policy = { tactics = \"aggressive\" }`.",
    ),
    FieldInfo::new(
        "combatants",
        "hidden",
        "true/false",
        "false",
        "",
        "Unknown to the other sides until its first attack.",
    ),
    FieldInfo::new("combatants", "stabilized", "true/false", "false", "", "A dying combatant already stabilised."),
    FieldInfo::new(
        "combatants.skills.*",
        "rank",
        "integer",
        "0",
        "0 or more",
        "The skill's rank (also limits attacks per round to rank + 1).",
    ),
    FieldInfo::new(
        "combatants.skills.*",
        "stat",
        "string",
        "none (10)",
        "a stat name",
        "The stat whose score the skill value starts from.",
    ),
    FieldInfo::new(
        "combatants.skills.*",
        "value",
        "integer",
        "stat score + rank",
        "",
        "The skill value, when given directly (excluding the item's quality by default).",
    ),
    FieldInfo::new(
        "combatants.items",
        "id",
        "string",
        "required",
        "",
        "The item's name, as named in the log and `--set NAME.items.ID.FIELD=…`.",
    ),
    FieldInfo::new(
        "combatants.items",
        "kind",
        "string",
        "melee",
        "melee, ranged, thrown, area, shield",
        "What the item is; any melee weapon or shield can parry or block.",
    ),
    FieldInfo::new(
        "combatants.items",
        "skill",
        "string",
        "required for attacks",
        "a skill name",
        "The skill it attacks with.",
    ),
    FieldInfo::new(
        "combatants.items",
        "damage",
        "table { w, s }",
        "{ w = 0, s = 0 }",
        "",
        "Base damage to wounds and stress.",
    ),
    FieldInfo::new(
        "combatants.items",
        "oq",
        "integer",
        "0",
        "",
        "Offensive quality, added to attacks; sundering lowers it.",
    ),
    FieldInfo::new(
        "combatants.items",
        "dq",
        "integer",
        "0",
        "",
        "Defensive quality, added to parries and blocks; sundering lowers it.",
    ),
    FieldInfo::new(
        "combatants.items",
        "sizes",
        "list of sizes",
        "[3]",
        "0 to 5, or light, medium, heavy",
        "The normal size first, then smaller sizes a defensive item may count as.",
    ),
    FieldInfo::new(
        "combatants.items",
        "tier",
        "integer",
        "none (never sundered)",
        "1 to 5",
        "The item's tier for sunder checks.",
    ),
    FieldInfo::new(
        "combatants.items",
        "fire",
        "string",
        "single",
        "single, pump, semi, burst, auto",
        "Fire mode, which sets the largest burst (1, 2, 4, 6, 8).",
    ),
    FieldInfo::new("combatants.items", "recoil_factor", "number", "1", "1 or 0.5", "0.5 for a good recoil suppressor."),
    FieldInfo::new(
        "combatants.items",
        "ammo_counts",
        "integer",
        "none (not counted)",
        "0 or more",
        "Ammunition counts left.",
    ),
    FieldInfo::new(
        "combatants.items",
        "projectile",
        "string",
        "bullet (ranged), arrow (thrown)",
        "bullet, arrow",
        "What it shoots, for parry and block modifiers.",
    ),
    FieldInfo::new(
        "combatants.items",
        "blast_band",
        "string",
        "nearby",
        "contact, nearby, close, short, medium, long, extreme",
        "The reach of an area weapon's blast.",
    ),
    FieldInfo::new(
        "combatants.items",
        "name",
        "string",
        "none",
        "",
        "A display name (bookkeeping, no effect in a fight).",
    ),
    FieldInfo::new(
        "combatants.items",
        "original",
        "table { oq, dq }",
        "the current values",
        "",
        "Qualities a repair restores (bookkeeping).",
    ),
    FieldInfo::new(
        "combatants.items",
        "sunder_log",
        "list of strings",
        "none",
        "",
        "Notes of past sunders (bookkeeping).",
    ),
    FieldInfo::new("combatants.items.damage", "w", "integer or dice", "0", "e.g. 6, \"2d6\", \"1d3\"", "Wound damage."),
    FieldInfo::new(
        "combatants.items.damage",
        "s",
        "integer or dice",
        "0",
        "e.g. 6, \"2d6\", \"1d3\"",
        "Stress damage.",
    ),
    FieldInfo::new("combatants.items.original", "oq", "integer", "0", "", "Original offensive quality."),
    FieldInfo::new("combatants.items.original", "dq", "integer", "0", "", "Original defensive quality."),
    FieldInfo::new("combatants.armor", "name", "string", "required", "", "The armour's name."),
    FieldInfo::new(
        "combatants.armor",
        "av",
        "integer",
        "required",
        "0 or more",
        "Armour value, subtracted from damage.",
    ),
    FieldInfo::new(
        "combatants.armor",
        "size",
        "size",
        "3 (natural: the creature's)",
        "0 to 5, or light, medium, heavy",
        "The armour's size, compared with the weapon's.",
    ),
    FieldInfo::new("combatants.armor", "tier", "integer", "none", "1 to 5", "The armour's tier for sunder checks."),
    FieldInfo::new("combatants.armor", "natural", "true/false", "false", "", "Natural armour (hide, shell)."),
    FieldInfo::new(
        "combatants.armor",
        "original_av",
        "integer",
        "the current value",
        "",
        "The AV a repair restores (bookkeeping).",
    ),
    FieldInfo::new(
        "combatants.armor",
        "sunder_log",
        "list of strings",
        "none",
        "",
        "Notes of past sunders (bookkeeping).",
    ),
];
