//! Newtype ids for combatants and sides: indices into the setup's rosters.

use std::fmt;

/// A combatant: its index in the scenario's roster order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct CombatantId(pub u16);

/// A side (team): its index in the scenario's order of first appearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SideId(pub u16);

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
