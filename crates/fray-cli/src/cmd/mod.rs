//! One module per subcommand.

pub mod fight;
pub mod live;
pub mod odds;
pub mod report;
pub mod roll;
pub mod serve;
pub mod trial;

/// The dice notation in brief, shown after `--help`; the README has the full guide.
pub const DICE_HELP: &str = "\
Dice notation (full guide in the README):
  3d6  d20+5  2d6*2  (d6+1)/2        sums, arithmetic, floor division by a constant
  4d6kh3  5d6kl3  4d6dl1  4d6dh1     keep highest/lowest, drop highest/lowest
  d6!  d6!!  d6!!{20}                explode (each 6 adds a die), compound, depth limit
  6d6!!cs>=5  6d6!!cs>=5cs>=11       count successes; two to four counts give a tuple
  4D+2  4Dc  4D{20}                  OpenD6 code: 3d6 + Wild Die (c: a Wild 1 counts as 1)
  3d6+5 >= 15   d10+3 vs d8+2        comparison (0 or 1); contest (left minus right)
  max(0, d10+3 vs d8+2)  min(..)  abs(..)";
