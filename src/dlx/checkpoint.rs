//! Checkpoints: where a long enumeration stood, saved so that it can go on later.
//!
//! A stopped search hands back what it has not explored as subtrees
//! ([`Search::remainder`](super::Search::remainder), [`Outcome::remainder`] of a parallel
//! run); with the solutions counted so far and the fingerprint of the search, that is all a
//! later run needs to finish the count exactly, however often it is interrupted. The file is
//! plain text, one fact per line, so that a person can read it:
//!
//! ```text
//! xcover checkpoint 1
//! fingerprint 9f3a2b1c0d4e5f60
//! solutions 1234567
//! nodes 987654321
//! seconds 12.5
//! explored 0.8125
//! subtree 0.125:12.57
//! subtree 0.0625:12.60
//! end
//! ```
//!
//! The closing `end` line tells a complete file from one cut short.
//!
//! [`Outcome::remainder`]: https://docs.rs/xcover/latest/xcover/dlx/struct.Outcome.html

use std::fmt;
use std::io::{self, Write};

use super::search::Subtree;

/// The position of an interrupted enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The search it belongs to ([`super::Solver::fingerprint`]).
    pub fingerprint: u64,
    /// Solutions counted before it was saved.
    pub solutions: u128,
    /// Search nodes entered before it was saved.
    pub nodes: u64,
    /// Seconds spent before it was saved.
    pub seconds: f64,
    /// Knuth's estimate of the share of the whole search tree explored before it was saved,
    /// from 0 to 1 (a part of the search reaches the share of the tree it holds).
    pub explored: f64,
    /// What is left to search: disjoint subtrees, none of whose solutions was counted.
    pub remainder: Vec<Subtree>,
}

/// Where and why a checkpoint file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointError {
    /// 1-based line number (the line after the last for a file cut short).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for CheckpointError {}

const HEADER: &str = "xcover checkpoint 1";

impl Checkpoint {
    /// Writes the checkpoint in its text form.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{HEADER}")?;
        writeln!(out, "fingerprint {:016x}", self.fingerprint)?;
        writeln!(out, "solutions {}", self.solutions)?;
        writeln!(out, "nodes {}", self.nodes)?;
        writeln!(out, "seconds {}", self.seconds)?;
        // Sums of shares can pass 1 by a rounding error.
        writeln!(out, "explored {}", self.explored.clamp(0.0, 1.0))?;
        for subtree in &self.remainder {
            writeln!(out, "subtree {subtree}")?;
        }
        writeln!(out, "end")
    }

    /// Reads a checkpoint written by [`Checkpoint::write`]; never panics.
    pub fn read(text: &str) -> Result<Checkpoint, CheckpointError> {
        let past_end = text.lines().count() + 1;
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim_end()));
        let fail = |line: usize, message: &str| CheckpointError {
            line,
            message: message.to_string(),
        };
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => {
                return Err(fail(
                    1,
                    "not an xcover checkpoint (the first line must be 'xcover checkpoint 1')",
                ));
            }
        }
        let mut field = |name: &str| -> Result<(usize, String), CheckpointError> {
            match lines.next() {
                Some((number, line)) => match line.split_once(' ') {
                    Some((key, value)) if key == name => Ok((number, value.to_string())),
                    _ => Err(fail(number, &format!("expected '{name} ...'"))),
                },
                None => Err(fail(
                    past_end,
                    &format!("the file ends before '{name}' (cut short?)"),
                )),
            }
        };
        let (line, value) = field("fingerprint")?;
        let fingerprint = u64::from_str_radix(&value, 16).map_err(|_| {
            fail(
                line,
                &format!("'{value}' is not a fingerprint (hex digits)"),
            )
        })?;
        let (line, value) = field("solutions")?;
        let solutions = parse(line, &value, "a number of solutions")?;
        let (line, value) = field("nodes")?;
        let nodes = parse(line, &value, "a number of nodes")?;
        let (line, value) = field("seconds")?;
        let seconds: f64 = parse(line, &value, "a number of seconds")?;
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(fail(line, &format!("'{value}' is not a number of seconds")));
        }
        let (line, value) = field("explored")?;
        let explored: f64 = parse(line, &value, "a share from 0 to 1")?;
        if !(0.0..=1.0).contains(&explored) {
            return Err(fail(line, &format!("'{value}' is not a share from 0 to 1")));
        }
        let mut remainder = Vec::new();
        let mut last = 0;
        for (number, line) in lines.by_ref() {
            last = number;
            if line == "end" {
                return Ok(Checkpoint {
                    fingerprint,
                    solutions,
                    nodes,
                    seconds,
                    explored,
                    remainder,
                });
            }
            let subtree = line
                .strip_prefix("subtree ")
                .ok_or_else(|| fail(number, "expected 'subtree ...' or 'end'"))?;
            remainder.push(
                subtree
                    .parse()
                    .map_err(|e: super::SubtreeSyntaxError| fail(number, &e.to_string()))?,
            );
        }
        Err(fail(
            last + 1,
            "the file ends without its 'end' line (cut short?)",
        ))
    }
}

/// The value of a field, or an error naming its line.
fn parse<T: std::str::FromStr>(line: usize, value: &str, what: &str) -> Result<T, CheckpointError> {
    value.parse().map_err(|_| CheckpointError {
        line,
        message: format!("'{value}' is not {what}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::OptionId;

    fn sample() -> Checkpoint {
        Checkpoint {
            fingerprint: 0x9f3a_2b1c_0d4e_5f60,
            // Past 64 bits: counts are exact however long a count runs.
            solutions: u128::from(u64::MAX) * 3,
            nodes: 987_654_321,
            seconds: 12.5,
            explored: 0.8125,
            remainder: vec![
                Subtree {
                    path: vec![OptionId(12), OptionId(57)],
                    share: 0.125,
                },
                Subtree::root(),
                Subtree {
                    path: vec![OptionId(3)],
                    share: 1.0 / 3.0,
                },
            ],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let mut text = Vec::new();
        sample().write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("subtree 1:\n"), "{text}");
        assert_eq!(Checkpoint::read(&text).unwrap(), sample());
    }

    #[test]
    fn faults_are_reported_with_their_line() {
        let mut good = Vec::new();
        sample().write(&mut good).unwrap();
        let good = String::from_utf8(good).unwrap();
        let cases: [(String, usize, &str); 9] = [
            (String::new(), 1, "not an xcover checkpoint"),
            (
                "xcover checkpoint 2\n".into(),
                1,
                "not an xcover checkpoint",
            ),
            (
                good.replace("fingerprint 9f", "fingerprint zz"),
                2,
                "not a fingerprint",
            ),
            (
                good.replace("solutions ", "solutions -"),
                3,
                "not a number of solutions",
            ),
            (good.replace("nodes ", "count "), 4, "expected 'nodes"),
            (
                good.replace("seconds 12.5", "seconds inf"),
                5,
                "not a number of seconds",
            ),
            (
                good.replace("explored 0.8125", "explored 2"),
                6,
                "not a share",
            ),
            (
                good.replace("subtree 1:", "subtree 1:x"),
                8,
                "is not a subtree",
            ),
            (good.replace("end\n", ""), 10, "cut short"),
        ];
        for (text, line, message) in cases {
            let error = Checkpoint::read(&text).unwrap_err();
            assert_eq!(error.line, line, "{error}");
            assert!(error.message.contains(message), "{error}");
        }
        let cut = good.lines().take(3).collect::<Vec<_>>().join("\n");
        let error = Checkpoint::read(&cut).unwrap_err();
        assert_eq!(error.line, 4, "{error}");
        assert!(error.message.contains("before 'nodes'"), "{error}");
    }
}
