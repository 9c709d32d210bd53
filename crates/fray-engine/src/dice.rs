//! Dice with reasons: every die a ruleset rolls says who rolled it and why, so a log can show it
//! and a person entering physical dice can be told which die to roll.

use crate::ids::CombatantId;
use fray_dice::DiceSource;

/// Why a die is rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    /// Who rolls it, if anyone in particular.
    pub who: Option<CombatantId>,
    /// What for, e.g. "initiative" or "attack".
    pub what: &'static str,
}

impl Reason {
    /// A die `who` rolls for `what`.
    pub fn new(who: CombatantId, what: &'static str) -> Reason {
        Reason { who: Some(who), what }
    }
}

/// Where a fight's dice come from.
pub trait Dice {
    /// One face of a die with `sides` faces, in `1..=sides`.
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError>;
}

impl<D: Dice + ?Sized> Dice for &mut D {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        (**self).roll(sides, reason)
    }
}

/// Dice from any [`DiceSource`] (a seeded generator, a script), ignoring the reasons.
#[derive(Clone, Debug)]
pub struct FromSource<S>(pub S);

impl<S: DiceSource> Dice for FromSource<S> {
    fn roll(&mut self, sides: u32, _reason: Reason) -> Result<u32, fray_dice::SourceError> {
        self.0.face(sides)
    }
}

/// Scripted faces, for tests and worked examples.
pub type Scripted = FromSource<fray_dice::Scripted>;

impl Scripted {
    /// Dice that give these faces in order.
    pub fn faces(faces: impl Into<Vec<u32>>) -> Scripted {
        FromSource(fray_dice::Scripted::new(faces))
    }
}
