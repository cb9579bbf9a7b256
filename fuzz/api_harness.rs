// What the fuzz target `api_requests` does with one input: the JSON request of one endpoint
// of `xcover serve`, handed to the very functions the server runs (`src/cli/serve/work.rs`,
// with `src/cli/subject.rs`, compiled in here), under the server's limits. The first byte
// picks the endpoint; the rest is the request's body. Any answer or error is fine; a panic,
// or work that outlives its deadline by far, is a bug. Included by the target and by the
// corpus replay in `cargo test` (`tests/sudoku/fuzz_corpus.rs`), each of which declares the module
// `cli` with those two files (their paths relative to itself).

#[allow(dead_code)]
mod api_harness {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, OnceLock};
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

    /// The request being run: its deadline and cancellation flag, which a watchdog thread
    /// sets at the deadline, as the server's watchdog does (work that polls only the flag,
    /// such as the generator, relies on it).
    static RUNNING: Mutex<Option<(Instant, Arc<AtomicBool>)>> = Mutex::new(None);

    fn watch(deadline: Instant, cancel: &Arc<AtomicBool>) {
        static WATCHDOG: OnceLock<()> = OnceLock::new();
        WATCHDOG.get_or_init(|| {
            std::thread::spawn(|| {
                loop {
                    std::thread::sleep(Duration::from_millis(5));
                    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some((deadline, cancel)) = running.as_ref()
                        && Instant::now() >= *deadline
                    {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            });
        });
        *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = Some((deadline, Arc::clone(cancel)));
    }

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
        watch(limits.deadline, &limits.cancel);
        #[cfg(fuzzing)]
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
        // for a slow machine and the sanitizers' cost. Only while fuzzing: the corpus replay
        // in `cargo test` asserts no clock.
        #[cfg(fuzzing)]
        assert!(
            started.elapsed() < TIME * 20,
            "a request took {:?} under a {:?} limit",
            started.elapsed(),
            TIME
        );
    }
}
