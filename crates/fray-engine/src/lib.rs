//! What every fray ruleset shares, and nothing ruleset-specific.
//!
//! A ruleset implements [`Ruleset`]: a validated setup, a state, events that are the only way the
//! state changes ([`Ruleset::apply`]), typed decision requests and choices, and [`Ruleset::run`],
//! which drives one fight through a [`Fight`]. The fight gives the ruleset three services and
//! nothing else: dice with a reason for every roll ([`Dice`]), answers to decision requests
//! ([`Decider`]: AI policies, scripts and people answer alike), and an event sink ([`Sink`]:
//! recording, counting or discarding). The engine does no I/O.
//!
//! The protocol fits the three time models fray carries: rounds with phases (a ruleset's `run`
//! loops over rounds and asks for tactics, declarations and defences), action pools with
//! reactions (it asks other combatants for a reaction in the middle of an action), and ticks (it
//! asks every combatant for an announcement each tick, then resolves them together).

mod dice;
mod fight;
mod geometry;
mod ids;
mod sink;

pub use dice::{Dice, FromSource, PerCombatant, Reason, Scripted, stream_key};
pub use fight::{Decider, Fight, FightError, FightResult, Outcome, Pending, Ruleset, Tally, replay};
pub use geometry::Pos;
pub use ids::{CombatantId, SideId};
pub use sink::{Discard, FnSink, Record, Sink};

/// Implements `schemars::JsonSchema` for a type serialized by hand as a fixed schema:
/// `fixed_schema!(Type, "Name", { "type": "string", "description": "…" })`. The calling crate
/// depends on `schemars`.
#[macro_export]
macro_rules! fixed_schema {
    ($ty:ty, $name:literal, $schema:tt) => {
        impl ::schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!($schema)
            }
        }
    };
}
