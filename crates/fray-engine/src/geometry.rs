//! Positions in metres on a 2-D plane (a 1-D scenario uses `y = 0`).

/// A point, in metres.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Pos {
    /// East, metres.
    pub x: f64,
    /// North, metres.
    pub y: f64,
}

impl Pos {
    /// A point.
    pub fn new(x: f64, y: f64) -> Pos {
        Pos { x, y }
    }

    /// Straight-line distance in metres (IEEE `sqrt` is correctly rounded, so this is the same
    /// on every machine).
    pub fn distance(self, other: Pos) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }
}
