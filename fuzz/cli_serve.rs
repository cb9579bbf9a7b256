// `cli::serve` for the API fuzz target: only the request handlers (see `cli_sources.rs`).

#[path = "../src/cli/serve/work.rs"]
pub mod work;
