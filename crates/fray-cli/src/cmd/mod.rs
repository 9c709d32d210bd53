//! One module per subcommand.

#[macro_use]
pub mod help;

pub mod check;
pub mod docs;
pub mod fight;
pub mod odds;
pub mod report;
pub mod roll;
pub mod rules;
pub mod trial;
