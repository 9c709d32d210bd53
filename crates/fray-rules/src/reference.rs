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
