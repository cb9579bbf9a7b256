//! N-queens as exact cover: rows and columns are primary (each holds exactly one queen),
//! diagonals are secondary (each holds at most one).

use std::num::NonZeroUsize;

use crate::dlx::Problem;

/// The N-queens problem. Items `rI` and `cJ` are primary; the diagonals `aK` (`I + J`) and
/// `bK` (`I - J + N - 1`) are secondary. Rows and columns are declared from the middle out
/// ("organ-pipe" order, as in Knuth's generator), so that ties in the fewest-options rule go to
/// the most constrained lines first.
pub fn queens(n: usize) -> Problem {
    board(n, None)
}

/// `m` non-attacking queens on an `n` x `n` board, with multiplicities (Knuth's DLX3): the
/// rows `rI` and columns `cJ` are primary items covered at most once (`0:1`), an item `queens`
/// in every option is covered exactly `m` times, and the diagonals are secondary as in
/// [`queens`]. With `m = n` the count is the N-queens count; with `m = 2` on 8x8 it is 1288.
/// (DLX3's bounds cannot say "exactly 0 times", hence `m` of at least 1.)
pub fn partial_queens(n: usize, m: NonZeroUsize) -> Problem {
    board(n, Some(u32::try_from(m.get()).unwrap_or(u32::MAX)))
}

/// The queens of [`queens`], or with `Some(m)` those of [`partial_queens`]: an item `queens`
/// covered `m` times in every option, and lines covered at most once.
fn board(n: usize, queens: Option<u32>) -> Problem {
    let mut problem = Problem::new();
    if let Some(m) = queens {
        let item = problem.add_primary("queens").expect("fresh name");
        problem.set_bounds(item, m, m).expect("1 <= m");
    }
    for line in organ_pipe(n) {
        for name in [format!("r{line}"), format!("c{line}")] {
            let item = problem.add_primary(&name).expect("fresh name");
            if queens.is_some() {
                problem.set_bounds(item, 0, 1).expect("valid bounds");
            }
        }
    }
    for diagonal in ["a", "b"] {
        for k in 0..(2 * n).saturating_sub(1) {
            problem
                .add_secondary(&format!("{diagonal}{k}"))
                .expect("fresh name");
        }
    }
    let prefix = queens.map(|_| "queens".to_string());
    for row in 0..n {
        for col in 0..n {
            let names = [
                format!("r{row}"),
                format!("c{col}"),
                format!("a{}", row + col),
                format!("b{}", row + n - 1 - col),
            ];
            let names: Vec<String> = prefix.iter().cloned().chain(names).collect();
            problem.add_option_by_names(&names).expect("declared items");
        }
    }
    problem
}

/// `0..n` from the middle outwards: for 8, 4 3 5 2 6 1 7 0.
fn organ_pipe(n: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    let middle = n / 2;
    for step in 0..n {
        let offset = step.div_ceil(2);
        let line = if step % 2 == 1 {
            middle - offset
        } else {
            middle + offset
        };
        order.push(line);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn organ_pipe_is_a_permutation_from_the_middle() {
        assert_eq!(organ_pipe(8), vec![4, 3, 5, 2, 6, 1, 7, 0]);
        assert_eq!(organ_pipe(5), vec![2, 1, 3, 0, 4]);
        assert_eq!(organ_pipe(1), vec![0]);
    }
}
