//! Newtype ids for combatants and sides: indices into the setup's rosters.

use std::fmt;

/// A combatant: its index in the scenario's roster order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct CombatantId(pub u16);

/// A side (team): its index in the scenario's order of first appearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SideId(pub u16);

// In a fight's JSON events a combatant is its name, one of the log header's `combatants`, and a
// side its name: the events are serialized through a serializer that knows the roster, which
// writes these ids (newtype structs named `CombatantId` and `SideId` to serde) as names.
// Elsewhere (a prompt's structured choices) an id is its index in that list.
crate::fixed_schema!(CombatantId, "Combatant", {
    "type": "string",
    "description": "A combatant's name: one of the log header's `combatants`."
});
crate::fixed_schema!(SideId, "Side", {
    "type": "string",
    "description": "A side's name: one of the log header's `sides`."
});

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
