//! Langford pairs as exact cover: place each k in 1..=n twice, with k numbers between them.

use crate::dlx::Problem;

/// Langford's problem of order `n`. Items: the numbers `1`..`n` and the slots `s1`..`s2n`, all
/// primary. Option `k sI sJ` puts the two copies of `k` at slots `I` and `J = I + k + 1`. Mirror
/// images count as distinct solutions (n = 7 has 52, n = 8 has 300).
pub fn langford(n: usize) -> Problem {
    let mut problem = Problem::new();
    for k in 1..=n {
        problem.add_primary(&k.to_string()).expect("fresh name");
    }
    for slot in 1..=2 * n {
        problem
            .add_primary(&format!("s{slot}"))
            .expect("fresh name");
    }
    for k in 1..=n {
        for first in 1..=(2 * n).saturating_sub(k + 1) {
            let names = [
                k.to_string(),
                format!("s{first}"),
                format!("s{}", first + k + 1),
            ];
            problem.add_option_by_names(&names).expect("declared items");
        }
    }
    problem
}
