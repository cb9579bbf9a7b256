//! Double word squares as exact cover with colours (Knuth's DLX2): fill an n x n grid so
//! that every row and every column reads a word of a list.
//!
//! The classic example of why colours matter: a row's word and a column's word share one
//! cell, and may both be chosen only if they put the same letter there. Without colours
//! that needs an item per cell and letter and options per word that name them all; with
//! colours each cell is one secondary item and each letter a colour.

use std::collections::BTreeSet;

use crate::dlx::{ColorId, ItemId, Problem};

/// Why a word list cannot make word squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordSquareError {
    /// The side is 0 or too large to be useful.
    Size(usize),
    /// The list holds no word of the side's length.
    NoWords(usize),
    /// A word has a character that cannot be a colour (`:`, `|`, a control character).
    BadWord(String),
}

impl std::fmt::Display for WordSquareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WordSquareError::Size(n) => {
                write!(f, "a word square of side {n}: sides go from 1 to 12")
            }
            WordSquareError::NoWords(n) => write!(f, "the list holds no word of {n} letters"),
            WordSquareError::BadWord(word) => {
                write!(
                    f,
                    "'{word}' has a character that cannot be a letter here (':', '|')"
                )
            }
        }
    }
}

impl std::error::Error for WordSquareError {}

/// The n x n double word squares over `words` (those of n letters; repeats are ignored).
/// Items: primary `r1`..`rn` and `c1`..`cn` (each row and column gets one word), secondary
/// `x11`..`xnn` (the cells). Options: `rI xI1:a xI2:b ...` puts a word in row I, `cJ x1J:a
/// ...` in column J, each letter a colour. The solutions are the grids whose rows and
/// columns are all words, each counted once.
pub fn word_squares<S: AsRef<str>>(words: &[S], n: usize) -> Result<Problem, WordSquareError> {
    if n == 0 || n > 12 {
        return Err(WordSquareError::Size(n));
    }
    let mut list = BTreeSet::new();
    for word in words {
        let word = word.as_ref();
        if word.chars().count() == n {
            list.insert(word.to_string());
        }
    }
    if list.is_empty() {
        return Err(WordSquareError::NoWords(n));
    }
    let mut problem = Problem::new();
    let lines: Vec<ItemId> = (1..=n)
        .map(|i| format!("r{i}"))
        .chain((1..=n).map(|j| format!("c{j}")))
        .map(|name| problem.add_primary(&name).expect("fresh name"))
        .collect();
    let cells: Vec<Vec<ItemId>> = (1..=n)
        .map(|i| {
            (1..=n)
                .map(|j| {
                    problem
                        .add_secondary(&format!("x{i}{j}"))
                        .expect("fresh name")
                })
                .collect()
        })
        .collect();
    for word in &list {
        let letters: Vec<ColorId> = word
            .chars()
            .map(|c| problem.add_color(&c.to_string()))
            .collect::<Result<_, _>>()
            .map_err(|_| WordSquareError::BadWord(word.clone()))?;
        for line in 0..2 * n {
            let mut option = vec![(lines[line], None)];
            for (k, &letter) in letters.iter().enumerate() {
                let cell = if line < n {
                    cells[line][k]
                } else {
                    cells[k][line - n]
                };
                option.push((cell, Some(letter)));
            }
            problem
                .add_colored_option(&option)
                .expect("declared items, no repeats");
        }
    }
    Ok(problem)
}
