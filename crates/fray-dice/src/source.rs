//! Dice sources: where faces come from. A seeded portable generator for fights and simulations,
//! a script of faces for tests and worked examples; a person typing physical dice implements the
//! same trait in the CLI.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The name of the generator behind [`seeded`], recorded in logs next to the seed.
pub const GENERATOR: &str = "ChaCha8";

/// Gives the face of one die at a time.
pub trait DiceSource {
    /// One face of a die with `sides` faces, in `1..=sides`.
    fn face(&mut self, sides: u32) -> Result<u32, SourceError>;
}

/// Why a source could not give a face.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// A dice source over any random generator.
///
/// Faces are drawn with Lemire's unbiased multiply-and-reject method from `next_u32`, written
/// here rather than taken from `rand` so that a seed keeps giving the same faces whatever
/// version of `rand` is linked (value stability).
#[derive(Clone, Debug)]
pub struct RngSource<R> {
    rng: R,
}

impl<R: Rng> RngSource<R> {
    /// Wraps a generator.
    pub fn new(rng: R) -> RngSource<R> {
        RngSource { rng }
    }

    /// A uniform face in `1..=sides` (`sides` ≥ 1).
    pub fn uniform(&mut self, sides: u32) -> u32 {
        let n = u64::from(sides.max(1));
        let mut m = u64::from(self.rng.next_u32()) * n;
        let mut low = m as u32;
        if u64::from(low) < n {
            let threshold = (n as u32).wrapping_neg() % (n as u32);
            while low < threshold {
                m = u64::from(self.rng.next_u32()) * n;
                low = m as u32;
            }
        }
        (m >> 32) as u32 + 1
    }

    /// 64 raw bits from the generator, e.g. to seed another stream.
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

impl<R: Rng> DiceSource for RngSource<R> {
    fn face(&mut self, sides: u32) -> Result<u32, SourceError> {
        Ok(self.uniform(sides))
    }
}

/// The portable seeded source fray uses everywhere: ChaCha8 seeded from a `u64`.
pub fn seeded(seed: u64) -> RngSource<ChaCha8Rng> {
    RngSource::new(ChaCha8Rng::seed_from_u64(seed))
}

/// Faces given in advance, in the order the dice are rolled; an error when they run out or
/// when a face does not fit the die.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    faces: Vec<u32>,
    next: usize,
}

impl Scripted {
    /// A script of faces.
    pub fn new(faces: impl Into<Vec<u32>>) -> Scripted {
        Scripted { faces: faces.into(), next: 0 }
    }

    /// Faces not yet used.
    pub fn remaining(&self) -> &[u32] {
        &self.faces[self.next..]
    }
}

impl DiceSource for Scripted {
    fn face(&mut self, sides: u32) -> Result<u32, SourceError> {
        let Some(&face) = self.faces.get(self.next) else {
            return Err(SourceError(format!("the script ran out of faces after {} dice", self.next)));
        };
        if face == 0 || face > sides {
            return Err(SourceError(format!("scripted face {face} (die {}) does not fit a d{sides}", self.next + 1)));
        }
        self.next += 1;
        Ok(face)
    }
}

impl<S: DiceSource + ?Sized> DiceSource for &mut S {
    fn face(&mut self, sides: u32) -> Result<u32, SourceError> {
        (**self).face(sides)
    }
}
