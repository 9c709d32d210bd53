//! Dice expressions for fray: parse, roll with provenance, and compute exact distributions.
//!
//! One [`Program`] serves every consumer: a ruleset rolls it in a fight through a
//! [`DiceSource`], and `fray odds` asks the same program for its exact [`Distribution`].
//! The crate knows nothing about combat.
//!
//! ```
//! use fray_dice::{Program, Options, Event, seeded};
//!
//! let check = Program::parse("4d6kh3 >= 10").unwrap();
//! let p = check.probability(Event::AtLeast(1), &Options::default()).unwrap();
//! assert_eq!(fray_dice::fraction(&p.p), "1069/1296");
//!
//! let roll = Program::parse("3d6+2").unwrap().roll(&mut seeded(7)).unwrap();
//! assert_eq!(roll.groups[0].dice.len(), 3);
//! ```
//!
//! The grammar is described in [`syntax`]; the README has a user's guide with examples.

mod dist;
mod error;
mod exact;
pub mod naive;
mod program;
mod roll;
mod source;
pub mod syntax;

pub use dist::{MAX_SUPPORT, MAX_WORK};
pub use error::{Error, ErrorKind, Span};
pub use exact::{Distribution, Event, MAX_TRUNCATION_DEPTH, Options, Probability, fraction, is_one};
pub use num_bigint::BigUint;
pub use num_rational::BigRational;
pub use program::{Counts, Program, Value};
pub use roll::{DiceGroup, DieRole, DieRoll, ROLL_EXPLODE_CAP, Roll, WildFate};
pub use source::{DiceSource, GENERATOR, RngSource, Scripted, SourceError, seeded};
