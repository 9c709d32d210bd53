//! The `ticks` guide: its turn structure in plain words, what each AI policy does and every
//! field a scenario file may have (`fray rules ticks`, `docs/rulesets/ticks.md`).

use crate::reference::{self, FieldInfo, Guide, PolicyInfo};

/// The guide to this ruleset.
pub const GUIDE: Guide = Guide { turn: TURN, policies: POLICIES, fields: FIELDS };

/// How a fight goes, in plain words.
const TURN: &str = "A fight runs in ticks of half a second; there is no initiative. Each tick:

1. **Announce.** Every standing combatant announces what it does this tick — move a square, run,
   ready a gun, aim, fire one or more shots, a melee attack, or nothing — in a drawn order
   (`announce_order`), each seeing the announcements before it.
2. **Resolve.** The announced actions resolve in a fixed order of steps: reaction strikes, moves
   and runs, follows, then shots and blows. Each attack is an opposed roll (d20 + skill +
   modifiers on each side, `delta_die`): the attacker wins by the delta. Range, aim, cover and
   the stability penalty p change the rolls. After its own roll an attacker may abort a blow or
   decline a shot. A defender that wins still spends **effort** to avoid the attack.
3. **End of tick.** Everything that happened in the tick applies at once (`simultaneity`):
   damage to Body (or Trauma, for stopped rounds and fists) after cover, armour and hit
   location; wounds; effort spent and the stability penalty it causes; dives into cover; then p
   recovers.

A combatant at 0 Body is Down; Trauma reaching Body max knocks it out. The fight ends when at
most one side has anyone left, or as a stalemate after `tick_cap` ticks (600: five minutes).";

/// What each AI policy field does, in the order of the policy table.
const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        field: "target",
        meaning: "Whom it shoots or strikes: `nearest`, or `weakest` the enemy with the least Body.",
    },
    PolicyInfo {
        field: "fire",
        meaning: "How it shoots: `steady` aims while its stability penalty recovers and fires once the shot wins a third of the time (under fire, once it can win at all), `snap` fires at once, `aimed` aims five ticks or more for an aimed shot, unless the shot is already good.",
    },
    PolicyInfo { field: "shots", meaning: "How many shots a tick: `max` as many as the gun's rate, or `one`." },
    PolicyInfo {
        field: "blow",
        meaning: "Which melee attack type it uses: `strike`, `jab`, `heavy`, or `by_effort` the heaviest its effort allows.",
    },
    PolicyInfo {
        field: "cover",
        meaning: "Whether it moves to a cover square in reach (`seek`) or stays where it is (`stay`).",
    },
    PolicyInfo {
        field: "move",
        meaning: "`close`: a gunman runs at the target while his best shot from where he stands (gun ready, steadied, five ticks of aim) would win under a third of the time, or to a free cover square on the way under `cover = seek`, and waits, aiming, for an enemy without a gun who is closing in himself; a melee fighter closes to reach. `hold`: it holds its square.",
    },
];

/// Every key a scenario file may have, table by table.
const FIELDS: &[FieldInfo] = crate::scenario_fields![
    FieldInfo::new("", "cover", "list of tables ([[cover]])", "none", "", "The map's cover squares."),
    reference::ruleset("ticks"),
    FieldInfo::new(
        "rules",
        "options",
        "table",
        "all defaults",
        "see Options below",
        "Options that change a rule: `[rules.options]`, one key per option (the tick cap is the option `tick_cap`).",
    ),
    FieldInfo::new(
        "rules",
        "attack_types",
        "table of attack type → table",
        "jab, strike, heavy from the built-in table",
        "under `melee_costs = custom`",
        "The melee attack types and their costs.",
    ),
    FieldInfo::new(
        "rules.attack_types.*",
        "stability",
        "integer",
        "required",
        "0 or more",
        "Stability penalty the attack costs the attacker.",
    ),
    FieldInfo::new("rules.attack_types.*", "effort", "integer", "required", "0 or more", "Effort the attack costs."),
    FieldInfo::new("rules.attack_types.*", "graze", "integer", "required", "", "Added to the weapon's graze."),
    FieldInfo::new("cover", "square", "[x, y]", "required", "whole numbers", "The square."),
    FieldInfo::new(
        "cover",
        "rating",
        "integer (percent)",
        "0",
        "0 to 90 in steps of 10",
        "How much the cover hides: its bonus to the defender.",
    ),
    FieldInfo::new(
        "cover",
        "preset",
        "string",
        "none",
        "crouch_wall, window, slit_window, pole, thick_pole",
        "A named cover, which sets the rating.",
    ),
    FieldInfo::new("cover", "resistance", "integer", "0", "0 to 100", "What a shot must penetrate to go through."),
    FieldInfo::new(
        "cover",
        "material",
        "string",
        "none",
        "curtain, bush, thin_wood, table, door, interior_wall, car_body, telephone_pole, brick_wall, concrete",
        "A named material, which sets the resistance.",
    ),
    reference::NAME,
    reference::SIDE,
    FieldInfo::new(
        "combatants",
        "skills",
        "table { shoot, melee, evade } or { combat }",
        "5 each (option `default_skill`)",
        "0 to 15",
        "The combatant's skills.",
    ),
    FieldInfo::new(
        "combatants",
        "strength",
        "integer",
        "5 (option `default_strength`)",
        "1 to 10",
        "Strength, used only for recoil.",
    ),
    FieldInfo::new(
        "combatants",
        "body_max",
        "integer",
        "30 (option `body_max`)",
        "1 or more",
        "Maximum Body: at 0 Body the combatant is Down.",
    ),
    FieldInfo::new("combatants", "body", "integer", "`body_max`", "", "Body at the start."),
    FieldInfo::new("combatants", "trauma", "integer", "0", "0 or more", "Trauma (non-lethal damage) at the start."),
    FieldInfo::new(
        "combatants",
        "wounds",
        "integer",
        "0",
        "0 or more",
        "Wounds at the start, each a penalty to every roll.",
    ),
    FieldInfo::new(
        "combatants",
        "effort_max",
        "integer",
        "60 (option `effort_max`)",
        "0 or more",
        "Maximum effort, spent on defending and attacking.",
    ),
    FieldInfo::new("combatants", "effort", "integer", "`effort_max`", "0 to effort_max", "Effort at the start."),
    FieldInfo::new(
        "combatants",
        "stability",
        "integer",
        "0",
        "0 or more",
        "The stability penalty p at the start, subtracted from rolls.",
    ),
    FieldInfo::new(
        "combatants",
        "position",
        "[x, y]",
        "required",
        "whole numbers",
        "The square the combatant starts on.",
    ),
    FieldInfo::new(
        "combatants",
        "gun",
        "gun id (string) or table",
        "none",
        "pistol, carbine, assault_rifle, rifle, or a table",
        "The combatant's gun.",
    ),
    FieldInfo::new(
        "combatants",
        "gun_ready",
        "true/false",
        "false",
        "",
        "Whether the gun is raised at the start (a lowered gun must be readied).",
    ),
    FieldInfo::new(
        "combatants",
        "melee_weapon",
        "weapon id (string) or table",
        "fists",
        "fists, club, knife, or a table",
        "The melee weapon.",
    ),
    FieldInfo::new(
        "combatants",
        "armour",
        "list of armour ids or tables",
        "none",
        "soft_vest, hard_plate, helmet, or tables",
        "Armour worn.",
    ),
    FieldInfo::new(
        "combatants",
        "cover",
        "table",
        "none",
        "",
        "The cover of the starting square (as a `[[cover]]` entry's cover).",
    ),
    FieldInfo::new(
        "combatants",
        "policy",
        "table of policy → name",
        "every policy at its default",
        "see AI policies below",
        "How the AI plays this combatant: `policy = { fire = \"snap\" }`.",
    ),
    FieldInfo::new("combatants.skills", "shoot", "integer", "5", "0 to 15", "Shooting skill."),
    FieldInfo::new(
        "combatants.skills",
        "melee",
        "integer",
        "5",
        "0 to 15",
        "Melee skill, attacking and defending in melee.",
    ),
    FieldInfo::new("combatants.skills", "evade", "integer", "5", "0 to 15", "Evading shots."),
    FieldInfo::new(
        "combatants.skills",
        "combat",
        "integer",
        "5",
        "0 to 15",
        "The single skill under `skill_model = single_skill`.",
    ),
    FieldInfo::new(
        "combatants.gun",
        "base",
        "string",
        "none",
        "pistol, carbine, assault_rifle, rifle",
        "A table gun to start from; the other keys change it.",
    ),
    FieldInfo::new(
        "combatants.gun",
        "ammo",
        "string",
        "fmj",
        "fmj, hollow_point, armour_piercing",
        "The ammunition, which changes damage and penetration.",
    ),
    FieldInfo::new("combatants.gun", "name", "string", "the base's", "", "The gun's name."),
    FieldInfo::new(
        "combatants.gun",
        "ready_penalty",
        "integer",
        "the base's",
        "",
        "Penalty to ready the gun (added to p).",
    ),
    FieldInfo::new("combatants.gun", "pb_bonus", "integer", "the base's", "", "Point-blank bonus."),
    FieldInfo::new(
        "combatants.gun",
        "range_step_m",
        "number (metres)",
        "the base's",
        "0.1 to 1000",
        "Every this many metres of range costs 1.",
    ),
    FieldInfo::new("combatants.gun", "damage", "integer", "the base's", "", "Damage on a bare win (the graze)."),
    FieldInfo::new(
        "combatants.gun",
        "delta_damage",
        "integer",
        "the base's",
        "",
        "Extra damage per point the shot wins by.",
    ),
    FieldInfo::new(
        "combatants.gun",
        "penetration",
        "integer",
        "the base's",
        "",
        "Penetration against armour and cover.",
    ),
    FieldInfo::new("combatants.gun", "shot_penalty", "integer", "3", "", "Stability penalty per shot."),
    FieldInfo::new(
        "combatants.gun",
        "string_penalty",
        "integer",
        "7",
        "",
        "Stability penalty after a string of shots.",
    ),
    FieldInfo::new("combatants.gun", "rate", "integer", "the base's", "1 or more", "Shots per tick."),
    FieldInfo::new(
        "combatants.gun",
        "deferred_shots",
        "integer",
        "0",
        "0 or 3",
        "Shots whose penalty is held back (assault rifles).",
    ),
    FieldInfo::new(
        "combatants.gun",
        "min_strength",
        "integer",
        "the base's",
        "",
        "Strength below which recoil adds to p.",
    ),
    FieldInfo::new("combatants.melee_weapon", "name", "string", "required", "", "The weapon's name."),
    FieldInfo::new("combatants.melee_weapon", "damage", "integer", "required", "", "Damage on a bare win (the graze)."),
    FieldInfo::new(
        "combatants.melee_weapon",
        "delta_damage",
        "integer",
        "required",
        "",
        "Extra damage per point the blow wins by.",
    ),
    FieldInfo::new("combatants.melee_weapon", "penetration", "integer", "required", "", "Penetration against armour."),
    FieldInfo::new(
        "combatants.melee_weapon",
        "unarmed",
        "true/false",
        "false",
        "",
        "Unarmed (non-lethal under `unarmed_nonlethal`).",
    ),
    FieldInfo::new("combatants.armour", "name", "string", "required", "", "The armour's name."),
    FieldInfo::new("combatants.armour", "type", "string", "required", "soft, hard", "Soft or hard armour."),
    FieldInfo::new(
        "combatants.armour",
        "resistance",
        "integer",
        "required",
        "0 or more",
        "What a shot must penetrate.",
    ),
    FieldInfo::new(
        "combatants.armour",
        "locations",
        "list of integers",
        "required",
        "1 to 10 (1 head, 2–4 torso, 5–6 arms, 7–10 legs)",
        "The d10 hit locations it covers.",
    ),
    FieldInfo::new(
        "combatants.armour",
        "encumbrance",
        "integer",
        "0",
        "0 or more",
        "Its weight (see `armour_encumbrance`).",
    ),
    FieldInfo::new(
        "combatants.cover",
        "rating",
        "integer (percent)",
        "0",
        "0 to 90 in steps of 10",
        "How much the cover hides.",
    ),
    FieldInfo::new(
        "combatants.cover",
        "preset",
        "string",
        "none",
        "crouch_wall, window, slit_window, pole, thick_pole",
        "A named cover.",
    ),
    FieldInfo::new("combatants.cover", "resistance", "integer", "0", "0 to 100", "What a shot must penetrate."),
    FieldInfo::new(
        "combatants.cover",
        "material",
        "string",
        "none",
        "curtain, bush, thin_wood, table, door, interior_wall, car_body, telephone_pole, brick_wall, concrete",
        "A named material.",
    ),
];
