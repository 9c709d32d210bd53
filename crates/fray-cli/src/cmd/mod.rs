//! One module per subcommand.

#[macro_use]
pub mod help;

pub mod check;
pub mod docs;
pub mod fight;
pub mod html;
pub mod live;
pub mod many;
pub mod odds;
pub mod plot;
pub mod report;
pub mod roll;
pub mod rules;
pub mod serve;
pub mod shard;
pub mod sim;
pub mod solve;
pub mod trial;
