//! `fray serve` end to end: the real binary killed and restarted, and a real browser at the
//! GM's page.

mod browser;
mod crash;
mod http;
