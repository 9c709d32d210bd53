//! What a ruleset says about itself beyond its options, for `fray rules` and the user guide: its
//! turn structure in plain words, what each AI policy does, and every field a scenario file may
//! have. `fray docs` renders these tables into `docs/rulesets/ID.md`, and the tests check them
//! against the loader (every key of every shipped example is listed, and the keys the loader
//! accepts in each table are exactly the listed ones).

/// One key a scenario file may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The table it sits in, as a dotted path: `rules`, `combatants`, `combatants.items`; a `*`
    /// stands for a name the scenario chooses (`combatants.skills.*` is the table of one skill).
    pub table: &'static str,
    /// The key.
    pub key: &'static str,
    /// The type of its value, in words.
    pub kind: &'static str,
    /// Its value when the key is left out, or `required`.
    pub default: &'static str,
    /// The values it may take, in words (empty when the type says it all).
    pub allowed: &'static str,
    /// What it means, in one plain sentence.
    pub meaning: &'static str,
}

impl FieldInfo {
    /// A field's description.
    pub const fn new(
        table: &'static str,
        key: &'static str,
        kind: &'static str,
        default: &'static str,
        allowed: &'static str,
        meaning: &'static str,
    ) -> FieldInfo {
        FieldInfo { table, key, kind, default, allowed, meaning }
    }
}

/// What one AI policy field decides, naming each of its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyInfo {
    /// The field, as in `policy = { FIELD = "NAME" }`.
    pub field: &'static str,
    /// What it decides and what each value does, in plain words (every value is named in it).
    pub meaning: &'static str,
}

/// A ruleset's guide: everything the user guide says about it beyond its options.
#[derive(Clone, Copy, Debug)]
pub struct Guide {
    /// How a fight goes, in plain words (Markdown paragraphs).
    pub turn: &'static str,
    /// What each AI policy field does, in the order of the ruleset's policy table.
    pub policies: &'static [PolicyInfo],
    /// Every key a scenario file may have, table by table.
    pub fields: &'static [FieldInfo],
}

/// The top-level `[rules]` table, in every ruleset.
pub const RULES: FieldInfo = FieldInfo::new("", "rules", "table", "required", "", "The ruleset and its settings.");

/// The top-level `[[combatants]]` list, in every ruleset.
pub const COMBATANTS: FieldInfo = FieldInfo::new(
    "",
    "combatants",
    "list of tables ([[combatants]])",
    "required",
    "at most 64 (in every ruleset), on at least two sides",
    "One entry per fighter.",
);

/// `rules.ruleset`: which ruleset the file is for, `id`.
pub const fn ruleset(id: &'static str) -> FieldInfo {
    FieldInfo::new("rules", "ruleset", "string", "required", id, "Which ruleset the file is for.")
}

/// `rules.options`, where the options of a ruleset without options of its own in `[rules]` go.
pub const OPTIONS: FieldInfo = FieldInfo::new(
    "rules",
    "options",
    "table",
    "all defaults",
    "see Options below",
    "Options that change a rule: `[rules.options]`, one key per option.",
);

/// A combatant's `name`.
pub const NAME: FieldInfo = FieldInfo::new(
    "combatants",
    "name",
    "string",
    "required",
    "not empty",
    "The combatant's name, used in the log, in `--set NAME.FIELD=…` and in `--control`.",
);

/// A combatant's `side`.
pub const SIDE: FieldInfo = FieldInfo::new(
    "combatants",
    "side",
    "string",
    "required",
    "not `mutual` or `stalemate`",
    "The team it fights for; a fight needs at least two sides.",
);

/// A combatant's `position` in metres.
pub const POSITION: FieldInfo = FieldInfo::new(
    "combatants",
    "position",
    "number, or [x, y] (metres)",
    "0",
    "finite, within 100 km",
    "Where the combatant starts.",
);

/// The `[visibility]` section every ruleset accepts: what the players do not see at the start of
/// a live fight ([`crate::scenario::Visibility`]).
pub const VISIBILITY: [FieldInfo; 3] = [
    FieldInfo::new(
        "",
        "visibility",
        "table",
        "everything shown",
        "",
        "What the players do not see at the start of a live fight; the game master can change it during the fight.",
    ),
    FieldInfo::new(
        "visibility",
        "secret",
        "list of side names",
        "none",
        "sides of the scenario",
        "Sides whose numbers (hit points, wounds, ammunition…) the other sides do not see: they see a word for each combatant's state instead.",
    ),
    FieldInfo::new(
        "visibility",
        "hidden",
        "list of combatant names",
        "none",
        "combatants of the scenario",
        "Combatants hidden from the other sides at the start: not on their status board, not in their log.",
    ),
];

/// A ruleset's scenario fields: `rows`, after the top-level `rules` and `combatants` and
/// before the sections every ruleset shares ([`VISIBILITY`]).
#[macro_export]
macro_rules! scenario_fields {
    ($($row:expr),* $(,)?) => {
        &[
            $crate::reference::RULES,
            $crate::reference::COMBATANTS,
            $($row,)*
            $crate::reference::VISIBILITY[0],
            $crate::reference::VISIBILITY[1],
            $crate::reference::VISIBILITY[2],
        ]
    };
}
