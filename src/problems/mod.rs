//! Classic exact-cover problems, encoded for the engine.
//!
//! They serve as examples of how to describe a problem and, because their solution counts are
//! published, as oracles that test the engine: `xcover example queens 8 | xcover cover count -`
//! must print 92. [`word_squares`] uses colours (Knuth's DLX2), [`partial_queens`] multiplicities (DLX3). Each generator returns a plain [`Problem`](crate::dlx::Problem), so its
//! output can also be written in Knuth's format and fed to any other DLX program.

mod langford;
mod latin;
mod pentominoes;
mod queens;
mod word_squares;

pub use langford::langford;
pub use latin::latin_square;
pub use pentominoes::{PentominoError, pentominoes};
pub use queens::{partial_queens, queens};
pub use word_squares::{WordSquareError, word_squares};
