//! A deliberately naive enumerator: it rolls a program once for every possible sequence of
//! faces and weighs each sequence by its probability. It shares no code with the exact evaluator
//! (only the roller), so tests use it as an oracle. Exponential: for small expressions only, and
//! every explosion needs a written depth.

use crate::program::{Program, Value};
use crate::source::{DiceSource, SourceError};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Replays a prefix of chosen faces, then chooses face 1 for every new die.
struct Path {
    choices: Vec<(u32, u32)>,
    next: usize,
}

impl DiceSource for Path {
    fn face(&mut self, sides: u32) -> Result<u32, SourceError> {
        if let Some(&(face, known)) = self.choices.get(self.next) {
            if known != sides {
                return Err(SourceError("the roller is not deterministic".into()));
            }
            self.next += 1;
            return Ok(face);
        }
        self.choices.push((1, sides));
        self.next += 1;
        Ok(1)
    }
}

/// The exact distribution of `program` by enumerating every sequence of faces; an error if more
/// than `max_paths` sequences would be needed or a roll fails.
pub fn enumerate(program: &Program, max_paths: u64) -> Result<BTreeMap<Value, BigRational>, String> {
    let mut path = Path { choices: Vec::new(), next: 0 };
    let mut out: BTreeMap<Value, BigRational> = BTreeMap::new();
    for _ in 0..max_paths {
        path.next = 0;
        let value = program.sample(&mut path).map_err(|e| e.to_string())?;
        path.choices.truncate(path.next);
        let mut p = BigRational::one();
        for &(_, sides) in &path.choices {
            p /= BigRational::from_integer(BigInt::from(sides));
        }
        *out.entry(value).or_insert_with(BigRational::zero) += p;
        // Advance the odometer: the last die that can still turn up a higher face does.
        while let Some(&(face, sides)) = path.choices.last() {
            if face < sides {
                let last = path.choices.len() - 1;
                path.choices[last].0 += 1;
                break;
            }
            path.choices.pop();
        }
        if path.choices.is_empty() {
            return Ok(out);
        }
    }
    Err(format!("more than {max_paths} face sequences"))
}
