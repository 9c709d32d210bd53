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
    /// How many dice the roll takes, each rolled with this same reason one after the other
    /// (e.g. 3 for 3d6), so that a person rolling physical dice can be told "die 2 of 3"; 0 when
    /// the roll does not say (a single die, or a pool whose size is not known in advance).
    pub dice: u8,
    /// Which die of the roll this is, from 1, when the roll numbers its dice itself (a pool of
    /// exploding dice, where each die's re-rolls come between it and the next die); 0 when it
    /// does not, and whoever asks for the dice counts them as they come.
    pub die: u8,
    /// For an exploding die, which toss of the die this is: 0 its first, k its k-th re-roll
    /// (after k sixes).
    pub explosion: u8,
}

impl Reason {
    /// A die `who` rolls for `what`.
    pub fn new(who: CombatantId, what: &'static str) -> Reason {
        Reason { who: Some(who), what, dice: 0, die: 0, explosion: 0 }
    }

    /// A die rolled for `what` by no one in particular.
    pub fn anyone(what: &'static str) -> Reason {
        Reason { who: None, what, dice: 0, die: 0, explosion: 0 }
    }

    /// This reason for each die of a roll of `dice` dice ([`Reason::dice`]).
    pub fn of(self, dice: u8) -> Reason {
        Reason { dice, ..self }
    }

    /// This reason for toss `explosion` of die `die` of the roll ([`Reason::die`],
    /// [`Reason::explosion`]).
    pub fn die(self, die: u8, explosion: u8) -> Reason {
        Reason { die, explosion, ..self }
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

/// One stream per combatant: a roll that names who rolls it comes from that combatant's own
/// generator, any other roll from the base dice. One combatant's rolls then stay the same when
/// another's choices change (e.g. FLUID-DICE-10 under `dice_stream = per_combatant`).
///
/// Combatant `i`'s stream is ChaCha8 seeded from the fight's seed, on stream number `keys[i]`
/// (a stable hash of its id, see [`stream_key`]).
#[derive(Clone, Debug)]
pub struct PerCombatant<D> {
    base: D,
    seed: u64,
    keys: Vec<u64>,
    streams: Vec<Option<fray_dice::RngSource<rand_chacha::ChaCha8Rng>>>,
}

impl<D: Dice> PerCombatant<D> {
    /// Streams for combatants with these keys, from `seed`; other rolls from `base`.
    pub fn new(base: D, seed: u64, keys: Vec<u64>) -> PerCombatant<D> {
        let streams = vec![None; keys.len()];
        PerCombatant { base, seed, keys, streams }
    }

    /// Starts every stream afresh from `seed` (the next fight of a batch).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.streams.iter_mut().for_each(|s| *s = None);
    }

    /// The base dice.
    pub fn base(&mut self) -> &mut D {
        &mut self.base
    }
}

impl<D: Dice> Dice for PerCombatant<D> {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        let Some(i) = reason.who.map(|w| w.index()).filter(|&i| i < self.keys.len()) else {
            return self.base.roll(sides, reason);
        };
        let (seed, key) = (self.seed, self.keys[i]);
        let stream = self.streams[i].get_or_insert_with(|| {
            use rand_core::SeedableRng;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(key);
            fray_dice::RngSource::new(rng)
        });
        Ok(stream.uniform(sides))
    }
}

/// A stable 64-bit key for a combatant id (FNV-1a), the same on every machine and build.
pub fn stream_key(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
