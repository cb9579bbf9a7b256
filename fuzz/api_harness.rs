// What the fuzz target `api_requests` does with one input: the JSON request of one endpoint
// of `xcover serve`, handed to the very functions the server runs (`src/cli/serve/work.rs`,
// with `src/cli/subject.rs`, compiled in here), under the server's limits. The first byte
// picks the endpoint; the rest is the request's body. Any answer or error is fine; a panic,
// or work that outlives its deadline by far, is a bug. Included by the target and by the
// corpus replay in `cargo test` (`tests/fuzz_corpus.rs`), each of which declares the module
// `cli` with those two files (their paths relative to itself).

#[allow(dead_code)]
mod api_harness {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use super::cli::serve::work::{self, Limits};
    use xcover::dlx::Monitor;

    /// The endpoints, in the order the first byte picks them.
    pub const ENDPOINTS: [&str; 9] = [
        "parse", "solve", "check", "hint", "explain", "rate", "generate", "cover/solutions",
        "count",
    ];

    /// The time one request may take, as the server's --time-limit (short, for speed).
    const TIME: Duration = Duration::from_millis(500);

    pub fn api_request(data: &[u8]) {
        let Some((&pick, body)) = data.split_first() else {
            return;
        };
        // The server answers anything but a JSON object with a 400 before any endpoint.
        let Ok(request) = serde_json::from_slice::<serde_json::Value>(body) else {
            return;
        };
        if !request.is_object() {
            return;
        }
        let limits = Limits {
            deadline: Instant::now() + TIME,
            cancel: Arc::new(AtomicBool::new(false)),
        };
        let started = Instant::now();
        let answer = match ENDPOINTS[usize::from(pick) % ENDPOINTS.len()] {
            "parse" => work::parse(&request),
            "solve" => work::solve(&request, &limits),
            "check" => work::check(&request, &limits),
            "hint" => work::hint(&request, &limits),
            "explain" => work::explain(&request, &limits),
            "rate" => work::rate(&request, &limits),
            "generate" => work::generate(&request, &limits),
            "cover/solutions" => work::cover_solutions(&request, &limits),
            _ => {
                let limit = work::limit_of(&request).ok().flatten().map(u128::from);
                work::counted(&request)
                    .and_then(|counted| work::count(&counted, limit, &limits, &Monitor::new()))
            }
        };
        // Every answer is JSON the server can send; every error has a message.
        match answer {
            Ok(value) => assert!(serde_json::to_string(&value).is_ok()),
            Err(error) => assert!(error.to_json()["error"].is_string()),
        }
        // The deadline bounds the work (building a puzzle's encoding included), with room
        // for a slow machine.
        assert!(
            started.elapsed() < TIME * 8,
            "a request took {:?} under a {:?} limit",
            started.elapsed(),
            TIME
        );
    }
}
