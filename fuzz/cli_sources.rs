// The parts of the command line that the API target runs: the server's request handlers
// (`src/cli/serve/work.rs`), compiled in at the module path they expect (`cli::serve::work`). Declared as `mod cli`
// by the fuzz target `api_requests` and by the corpus replay in `tests/sudoku/fuzz_corpus.rs`.

#[path = "cli_serve.rs"]
pub mod serve;
