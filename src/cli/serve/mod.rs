//! `xcover serve`: a local web page to enter a puzzle and solve, check, count, explain, rate
//! or generate it, and the JSON API behind it (documented in `docs/api.md`).
//!
//! The page (`page.html`, with its script and style inline) and the shipped examples are
//! compiled into the binary: nothing is fetched at run time. The server listens on 127.0.0.1
//! unless told otherwise. Each request's work runs on a blocking thread ([`work`]), so a slow
//! search never stalls the event loop, and under three limits that keep the server healthy
//! whatever is pasted into it: a body size, a time per search (the search is stopped, not left
//! running, and so is one whose client went away), and a number of searches at once (a request
//! that cannot get a turn within a few seconds is told the server is busy).
//!
//! Counts stream their progress as lines of JSON, so the page can show a long count as it runs
//! and cancel it by closing the request.
//!
//! Any web page the user visits can send requests to a server on this machine, so the API is
//! closed to other sites ([`guard`]): API requests must be `application/json` (which a page
//! of another origin cannot send without the browser asking first, and this server never
//! allows), the `Host` header must name this server (a DNS-rebinding page names its own), an
//! `Origin` other than the server's own is refused, and the page cannot be framed. Every
//! error, the HTTP layer's included, has a JSON body.

mod connections;
mod memory;
mod work;

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::Args;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use xcover::dlx::Monitor;

use super::{Outcome, signals};
use work::{ApiError, Limits};

/// The page, with its script and style.
const PAGE: &str = include_str!("page.html");

/// The shipped examples the page offers, by name.
const EXAMPLES: [(&str, &str); 7] = [
    (
        "9x9 (post 003)",
        include_str!("../../../data/sudoku/post003.txt"),
    ),
    (
        "9x9, two solutions",
        "1.3.5.7.9\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n",
    ),
    ("4x4", include_str!("../../../data/sudoku/4x4-2x2.txt")),
    (
        "6x6 (2x3 boxes)",
        include_str!("../../../data/sudoku/6x6-2x3.txt"),
    ),
    ("12x12", include_str!("../../../data/sudoku/12x12-3x4.txt")),
    ("16x16", include_str!("../../../data/sudoku/16x16-4x4.txt")),
    (
        "variants",
        include_str!("../../../data/sudoku/variants.txt"),
    ),
];

/// The largest request body, in bytes: a 64x64 grid is 4 KiB, an exact-cover problem can be
/// larger.
const MAX_BODY: usize = 4 << 20;

/// How long a request waits for a turn before it is told the server is busy.
const WAIT_FOR_TURN: Duration = Duration::from_secs(5);

/// Seconds between progress lines of a count.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (an IP address, or `localhost`); the default keeps the
    /// server to this machine. Another machine's reach needs --allow-remote as well.
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host)]
    host: IpAddr,
    /// Let --host be an address that other machines can reach. The server has no
    /// authentication: anyone who can reach it can run searches on this machine.
    #[arg(long)]
    allow_remote: bool,
    /// Open the page in the desktop's browser once the server listens.
    #[arg(long)]
    open: bool,
    /// Seconds a search may run before it is stopped (solve, check, explain, rate, generate,
    /// listing solutions).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    time_limit: f64,
    /// Seconds a count may run before it is stopped with the count so far.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    count_time_limit: f64,
    /// Searches run at once; more wait for a turn (default: twice the number of cores).
    /// Counts have half as many turns of their own.
    #[arg(long, value_name = "N")]
    max_searches: Option<usize>,
}

fn parse_host(text: &str) -> Result<IpAddr, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .map_err(|_| {
            format!("'{text}' is not an IP address (such as 127.0.0.1 or ::1) or localhost")
        })
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "'{text}' is not a number of seconds above 0 and at most 86400"
        )),
    }
}

/// What every handler shares.
struct Server {
    turns: Arc<Semaphore>,
    /// Counts have turns of their own, at most half of them: however many counts are asked
    /// for (a count may run for a minute), the other searches keep their turns.
    count_turns: Arc<Semaphore>,
    time_limit: Duration,
    count_time_limit: Duration,
    /// The names a `Host` header may give for this server (without the port).
    hosts: Vec<String>,
    /// The port it listens on, set once it listens.
    port: std::sync::OnceLock<u16>,
    /// Requests answered so far.
    answered: std::sync::atomic::AtomicU64,
}

pub fn run(args: ServeArgs) -> std::io::Result<Outcome> {
    let turns = args
        .max_searches
        // Twice the cores: a turn bounds memory and threads, not the processor, and a
        // short search that shares the cores with a long one (time-sliced) answers sooner
        // than one that waits for the long one to end.
        .unwrap_or_else(|| 2 * std::thread::available_parallelism().map_or(2, |n| n.get()))
        .clamp(1, 256);
    if !args.host.is_loopback() && !args.allow_remote {
        eprintln!(
            "xcover: serve: --host {} can be reached from other machines, and the server has no \
             authentication; add --allow-remote to mean it",
            args.host
        );
        return Ok(Outcome::InvalidInput);
    }
    if !args.host.is_loopback() {
        eprintln!(
            "xcover serve: warning: listening on {}, which other machines can reach; anyone \
             who can reach it can run searches here",
            args.host
        );
    }
    let mut hosts: Vec<String> = ["127.0.0.1", "localhost", "[::1]"].map(String::from).into();
    hosts.push(match args.host {
        IpAddr::V6(v6) => format!("[{v6}]"),
        v4 => v4.to_string(),
    });
    let server = Arc::new(Server {
        turns: Arc::new(Semaphore::new(turns)),
        count_turns: Arc::new(Semaphore::new((turns / 2).max(1))),
        time_limit: Duration::from_secs_f64(args.time_limit),
        count_time_limit: Duration::from_secs_f64(args.count_time_limit),
        hosts,
        port: std::sync::OnceLock::new(),
        answered: std::sync::atomic::AtomicU64::new(0),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let address = SocketAddr::new(args.host, args.port);
        let listener = match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => listener,
            Err(error) => {
                eprintln!("xcover: serve: cannot listen on {address}: {error}");
                return Ok(Outcome::InvalidInput);
            }
        };
        let _ = server.port.set(listener.local_addr()?.port());
        let url = format!("http://{}/", listener.local_addr()?);
        // The first line of output, for scripts (and tests) that start the server on port 0.
        println!("xcover serve: listening on {url}");
        if args.open {
            let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
        }
        // A silent connection is closed after a few seconds, a quiet keep-alive one after
        // ten, and one whose request has gone unanswered past any search's time (its time
        // limit, the wait for a turn, and room to spare) is closed too.
        let limits = connections::Limits {
            first_byte: Duration::from_secs(5),
            idle: Duration::from_secs(15),
            request: server.time_limit + WAIT_FOR_TURN + Duration::from_secs(15),
        };
        let listener = connections::GuardedListener::new(listener, limits);
        memory::map_large_blocks();
        tokio::spawn(give_back_memory(Arc::clone(&server)));
        axum::serve(listener, router(Arc::clone(&server)))
            .with_graceful_shutdown(async {
                while !signals::stopped() {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            })
            .await?;
        eprintln!("xcover serve: stopped");
        Ok(Outcome::Success)
    })
}

/// Every two seconds, if requests were answered or counts ended since the last look, gives
/// the memory they freed back to the system (see `memory.rs`). An idle server is left idle:
/// the threads of the blocking pool end ten seconds after their last work (a trim every ten
/// seconds kept three of them alive for ever).
async fn give_back_memory(server: Arc<Server>) {
    let mut seen = 0;
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let answered = server.answered.load(Ordering::Relaxed);
        if answered != seen {
            seen = answered;
            let _ = tokio::task::spawn_blocking(memory::give_back).await;
        }
    }
}

/// What an endpoint computes (on a blocking thread).
type Job = fn(&Value, &Limits) -> Result<Value, ApiError>;

/// The endpoints answered by [`answer`]: path, whether they search, and their work.
const ENDPOINTS: [(&str, Turn, Job); 9] = [
    ("/api/parse", Turn::None, |request, _| work::parse(request)),
    ("/api/solve", Turn::Search, work::solve),
    ("/api/check", Turn::Search, work::check),
    ("/api/hint", Turn::Search, work::hint),
    ("/api/explain", Turn::Search, work::explain),
    ("/api/rate", Turn::Search, work::rate),
    ("/api/candidates", Turn::Search, work::candidates),
    ("/api/generate", Turn::Search, work::generate),
    ("/api/cover/solutions", Turn::Search, work::cover_solutions),
];

fn router(server: Arc<Server>) -> Router {
    let mut router = Router::new()
        .route("/", get(page))
        .route("/api/examples", get(examples))
        .route("/api/count", post(count));
    for (path, turn, job) in ENDPOINTS {
        router = router.route(path, post(move |s, b| answer(s, b, turn, job)));
    }
    router
        .fallback(|| async { error_response(&not_found()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(Arc::clone(&server), guard))
        .with_state(server)
}

/// The most bytes a request's header fields may take (names, values and their separators).
const MAX_HEAD_FIELDS_BYTES: usize = 64 * 1024;

/// The cross-site policy (see the module's documentation), and JSON bodies for the errors
/// that the routing layer answers with an empty body (405 and the like).
async fn guard(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    let refused = |status: u16, message: String| {
        let mut response = error_response(&ApiError {
            status,
            ..ApiError::bad(message)
        });
        harden(&mut response);
        response
    };
    let headers = request.headers();
    // hyper refuses a head over its buffer (about 400 kB) only when a read leaves the buffer
    // full before the head ends: one large read of a whole 500 kB head got through. The limit
    // is kept here whatever the reads were.
    let head_bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if head_bytes > MAX_HEAD_FIELDS_BYTES {
        return refused(
            431,
            format!(
                "the request's header fields are too large ({head_bytes} bytes; at most {} kB)",
                MAX_HEAD_FIELDS_BYTES / 1024
            ),
        );
    }
    let port = server.port.get().copied().unwrap_or(0);
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    let named = host
        .rsplit_once(':')
        .filter(|(_, p)| p.parse::<u16>().is_ok_and(|p| p == port))
        .is_some_and(|(name, _)| server.hosts.iter().any(|h| h.eq_ignore_ascii_case(name)));
    if !named {
        return refused(
            421,
            format!(
                "this server answers requests for {} with port {port}, not for the host '{}'",
                server.hosts.join(", "),
                host.chars().take(60).collect::<String>()
            ),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let own = format!("http://{host}");
        if origin.to_str().ok() != Some(own.as_str()) {
            return refused(
                403,
                "requests from other sites' pages are refused: only this server's own page may \
                 call its API"
                    .to_string(),
            );
        }
    }
    // A body announced as larger than the limit is refused before it is read (and before
    // a client that sent `Expect: 100-continue` is told to go on).
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .map(|value| value.trim().parse::<u64>());
    match announced {
        Some(Ok(length)) if length > MAX_BODY as u64 => {
            return refused(
                413,
                format!(
                    "the body is announced as {length} bytes; at most {} MiB are accepted",
                    MAX_BODY >> 20
                ),
            );
        }
        Some(Err(_)) => {
            return refused(400, "the Content-Length header is not a number".to_string());
        }
        _ => {}
    }
    if request.method() == Method::POST && request.uri().path().starts_with("/api/") {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return refused(
                415,
                "API requests must be sent with 'Content-Type: application/json' (with curl: \
                 -H 'Content-Type: application/json')"
                    .to_string(),
            );
        }
    }
    let mut response = next.run(request).await;
    server.answered.fetch_add(1, Ordering::Relaxed);
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        response = error_response(&ApiError {
            status: status.as_u16(),
            ..ApiError::bad(format!(
                "{} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("error")
            ))
        });
    }
    harden(&mut response);
    response
}

/// Headers that keep the page from being framed by another site, and answers from being
/// read as anything but what they say.
fn harden(response: &mut Response) {
    let headers = response.headers_mut();
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; \
             form-action 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}

fn not_found() -> ApiError {
    ApiError {
        status: 404,
        ..ApiError::bad("no such page or endpoint; the API is under /api/ (see docs/api.md)")
    }
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
        .into_response()
}

async fn examples() -> Response {
    let list: Vec<Value> = EXAMPLES
        .iter()
        .map(|(name, text)| json!({"name": name, "text": text}))
        .collect();
    json_response(StatusCode::OK, &Value::from(list))
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

fn error_response(error: &ApiError) -> Response {
    let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_REQUEST);
    json_response(status, &error.to_json())
}

/// The JSON object of a request body, or the error to answer.
fn request_of(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Value, ApiError> {
    let body = body.map_err(|rejection| ApiError {
        status: rejection.status().as_u16(),
        ..ApiError::bad(format!(
            "the request body could not be read ({}); at most {} MiB are accepted",
            rejection.body_text(),
            MAX_BODY >> 20
        ))
    })?;
    let value: Value = serde_json::from_slice(&body)
        .map_err(|error| ApiError::bad(format!("the request is not JSON: {error}")))?;
    if !value.is_object() {
        return Err(ApiError::bad("the request must be a JSON object"));
    }
    Ok(value)
}

/// Whether a request needs one of the limited turns.
#[derive(Clone, Copy)]
enum Turn {
    None,
    Search,
}

/// Sets the flag when dropped: the request's future was dropped (its client went away) or
/// its body stream was, so its search must stop.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A turn to search (from `turns`), waited for at most [`WAIT_FOR_TURN`].
async fn take_turn(turns: &Arc<Semaphore>) -> Result<OwnedSemaphorePermit, ApiError> {
    let turns = Arc::clone(turns);
    match tokio::time::timeout(WAIT_FOR_TURN, turns.acquire_owned()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(ApiError {
            status: 503,
            ..ApiError::bad("the server is busy with other searches; try again shortly")
        }),
    }
}

/// Runs `job` on a blocking thread under the time limit, and answers its JSON or its error.
async fn answer(
    State(server): State<Arc<Server>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
    turn: Turn,
    job: Job,
) -> Response {
    // The turn first, then the body is read: requests waiting for a turn hold their bytes,
    // not their parsed (and larger) JSON.
    let _permit = match turn {
        Turn::None => None,
        Turn::Search => match take_turn(&server.turns).await {
            Ok(permit) => Some(permit),
            Err(error) => return error_response(&error),
        },
    };
    let request = match request_of(body) {
        Ok(request) => request,
        Err(error) => return error_response(&error),
    };
    let limits = Limits {
        deadline: Instant::now() + server.time_limit,
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let _cancel = CancelOnDrop(Arc::clone(&limits.cancel));
    let watchdog = watchdog(&limits);
    let result = tokio::task::spawn_blocking(move || job(&request, &limits)).await;
    watchdog.abort();
    match result {
        Ok(Ok(value)) => json_response(StatusCode::OK, &value),
        Ok(Err(error)) => error_response(&error),
        Err(_) => error_response(&ApiError {
            status: 500,
            ..ApiError::bad("the request failed inside the server")
        }),
    }
}

/// Sets the cancellation flag at the deadline, for work that polls only the flag.
fn watchdog(limits: &Limits) -> tokio::task::JoinHandle<()> {
    let cancel = Arc::clone(&limits.cancel);
    let deadline = tokio::time::Instant::from_std(limits.deadline);
    tokio::spawn(async move {
        tokio::time::sleep_until(deadline).await;
        cancel.store(true, Ordering::Relaxed);
    })
}

/// `count`: lines of JSON, a progress line every quarter of a second and the result last.
/// Closing the request cancels the count.
async fn count(
    State(server): State<Arc<Server>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    // The turn first: counts waiting for one hold their bytes, not their problems (twenty
    // 4 MiB problems built while they waited took 567 MB).
    let turn = match take_turn(&server.count_turns).await {
        Ok(turn) => turn,
        Err(error) => return error_response(&error),
    };
    let request = match request_of(body) {
        Ok(request) => request,
        Err(error) => return error_response(&error),
    };
    // Read once, before streaming: a request that cannot be read is answered at once, with
    // its status.
    let limit = match work::limit_of(&request) {
        Ok(limit) => limit.map(u128::from),
        Err(error) => return error_response(&error),
    };
    let counted = match tokio::task::spawn_blocking(move || work::counted(&request)).await {
        Ok(Ok(counted)) => counted,
        Ok(Err(error)) => return error_response(&error),
        Err(_) => return error_response(&ApiError::bad("the request could not be read")),
    };
    let limits = Limits {
        deadline: Instant::now() + server.count_time_limit,
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let (lines, receiver) = mpsc::channel::<String>(16);
    let cancel = CancelOnDrop(Arc::clone(&limits.cancel));
    let ended = Arc::clone(&server);
    tokio::spawn(async move {
        // Held until the count ends.
        let _turn = turn;
        let monitor = Arc::new(Monitor::new());
        let started = Instant::now();
        let job = {
            let (limits, monitor) = (limits.clone(), Arc::clone(&monitor));
            tokio::task::spawn_blocking(move || work::count(&counted, limit, &limits, &monitor))
        };
        tokio::pin!(job);
        let result = loop {
            tokio::select! {
                result = &mut job => break result,
                () = tokio::time::sleep(PROGRESS_EVERY) => {
                    let snapshot = monitor.snapshot();
                    let line = json!({
                        "done": false,
                        "solutions": snapshot.solutions,
                        "nodes": snapshot.nodes,
                        // A sum of shares can dip a hair below 0 by rounding.
                        "explored": snapshot.explored.clamp(0.0, 1.0),
                        "seconds": started.elapsed().as_secs_f64(),
                    });
                    if lines.send(line.to_string() + "\n").await.is_err() {
                        limits.cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let last = match result {
            Ok(Ok(mut value)) => {
                value["seconds"] = json!(started.elapsed().as_secs_f64());
                value
            }
            Ok(Err(error)) => {
                let mut value = error.to_json();
                value["done"] = json!(true);
                value
            }
            Err(_) => json!({"done": true, "error": "the count failed inside the server"}),
        };
        let _ = lines.send(last.to_string() + "\n").await;
        // The count's memory is freed: worth giving back (see `give_back_memory`).
        ended.answered.fetch_add(1, Ordering::Relaxed);
    });
    let stream = ReceiverStream::new(receiver).map(move |line| {
        // The stream owns the guard: when the client goes away, the count is cancelled.
        let _ = &cancel;
        Ok::<_, Infallible>(line)
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
