//! The `xcover` command: a thin shell over the library.
//!
//! It parses arguments, reads files, calls the library and prints; no solving logic lives here.
//! Exit codes scripts can rely on: 0 when every input was read, 1 when any input was invalid
//! (the rest is still processed), 2 for bad usage, 3 when `sudoku compare` finds solvers that
//! disagree, 130 and 143 when Ctrl-C or SIGTERM stopped the work (what was done is printed).

#![deny(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
