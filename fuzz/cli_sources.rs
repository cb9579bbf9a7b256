// The parts of the command line that the API target runs: the server's request handlers
// (`src/cli/serve/work.rs`) and the puzzle they take (`src/cli/subject.rs`), compiled in at
// the module paths they expect (`cli::subject`, `cli::serve::work`). Declared as `mod cli`
// by the fuzz target `api_requests` and by the corpus replay in `tests/fuzz_corpus.rs`.

#[path = "../src/cli/subject.rs"]
pub mod subject;

#[path = "cli_serve.rs"]
pub mod serve;
