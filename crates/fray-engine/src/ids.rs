//! Newtype ids for combatants and sides: indices into the setup's rosters.

use std::fmt;

/// A combatant: its index in the scenario's roster order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct CombatantId(pub u16);

/// A side (team): its index in the scenario's order of first appearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SideId(pub u16);

/// In a fight's JSON events a combatant is its name, one of the log header's `combatants`: the
/// events are serialized through a serializer that knows the roster, which writes the id as the
/// name (the id is a newtype struct named `CombatantId` to serde). Elsewhere (a prompt's
/// structured choices) the id is its index in that list.
impl schemars::JsonSchema for CombatantId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Combatant".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A combatant's name: one of the log header's `combatants`."
        })
    }
}

/// In a fight's JSON events a side is its name, one of the log header's `sides` (see
/// [`CombatantId`]'s schema).
impl schemars::JsonSchema for SideId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Side".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A side's name: one of the log header's `sides`."
        })
    }
}

impl CombatantId {
    /// The roster index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl SideId {
    /// The side index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for CombatantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
