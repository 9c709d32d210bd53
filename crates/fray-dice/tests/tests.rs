//! Integration tests of fray-dice, compiled into one binary.

mod it;
