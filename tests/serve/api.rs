//! `xcover serve`'s JSON API through a plain HTTP client: every endpoint, bad and oversized
//! requests, the time limits, the bound on searches at once, and a count cancelled by its
//! client going away.

use crate::common;
use crate::http;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::slow_puzzles::SLOW_PROOF_25X25;
use common::xcover;
use http::{Server, post, request};
use serde_json::{Value, json};
use xcover::sudoku::check::check_solution;
use xcover::sudoku::text;

const POST003: &str = include_str!("../../data/sudoku/post003.txt");

/// Whether `grid` (81 values) is a full Sudoku that keeps the `givens`: checked here, not by
/// the server's code.
fn is_solution(givens: &[u64], grid: &[u64]) -> bool {
    let n = 9;
    let unit_ok = |cells: Vec<usize>| {
        let mut seen: Vec<u64> = cells.iter().map(|&i| grid[i]).collect();
        seen.sort_unstable();
        seen == (1..=9).collect::<Vec<u64>>()
    };
    (0..n).all(|r| unit_ok((0..n).map(|c| r * n + c).collect()))
        && (0..n).all(|c| unit_ok((0..n).map(|r| r * n + c).collect()))
        && (0..n).all(|b| {
            unit_ok(
                (0..n)
                    .map(|k| (b / 3 * 3 + k / 3) * n + b % 3 * 3 + k % 3)
                    .collect(),
            )
        })
        && givens.iter().zip(grid).all(|(&g, &v)| g == 0 || g == v)
}

fn numbers(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[test]
fn the_page_and_the_examples_are_served() {
    let server = Server::start(&[]);
    let page = request(&server.address, "GET", "/", b"");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.body.contains("<title>xcover</title>"));
    // Everything the page needs is inline: no script or style from elsewhere.
    assert!(!page.body.contains("src=\"http") && !page.body.contains("href=\"http"));
    let examples = request(&server.address, "GET", "/api/examples", b"").json();
    let examples = examples.as_array().unwrap();
    assert!(examples.len() >= 5);
    for example in examples {
        let text = example["text"].as_str().unwrap();
        let parsed = post(&server.address, "/api/parse", &json!({"puzzle": text}));
        assert_eq!(parsed.status, 200, "{}: {}", example["name"], parsed.body);
    }
    let missing = request(&server.address, "GET", "/nothing/here", b"");
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"].as_str().unwrap().contains("/api/"));
}

#[test]
fn solve_check_hint_explain_and_rate_answer_as_the_command_line_does() {
    let server = Server::start(&[]);
    let a = &server.address;
    let solved = post(a, "/api/solve", &json!({"puzzle": POST003}));
    assert_eq!(solved.status, 200, "{}", solved.body);
    let solved = solved.json();
    let givens = numbers(&solved["board"]["givens"]);
    assert!(is_solution(&givens, &numbers(&solved["solution"])));
    assert_eq!(solved["unique"], true);

    // Two solutions: both kept the givens, and `differ` lists exactly where they differ.
    let open = "1.3.5.7.9\n".to_string() + &".........\n".repeat(8);
    let checked = post(a, "/api/check", &json!({"puzzle": open})).json();
    assert_eq!(checked["verdict"], "multiple");
    let first = numbers(&checked["solutions"][0]);
    let second = numbers(&checked["solutions"][1]);
    let givens = numbers(&checked["board"]["givens"]);
    assert!(is_solution(&givens, &first) && is_solution(&givens, &second));
    let differ: Vec<(u64, u64)> = checked["differ"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    let expected: Vec<(u64, u64)> = (0..81)
        .filter(|&i| first[i] != second[i])
        .map(|i| (i as u64 / 9 + 1, i as u64 % 9 + 1))
        .collect();
    assert_eq!(differ, expected);
    assert_eq!(
        post(a, "/api/check", &json!({"puzzle": POST003})).json()["verdict"],
        "unique"
    );
    // r1c9 must be 9, which column 9 already holds: no solution, though no two clues clash.
    let none = "12345678.\n........9\n".to_string() + &".........\n".repeat(7);
    assert_eq!(
        post(a, "/api/check", &json!({"puzzle": none})).json()["verdict"],
        "none"
    );

    let hint = post(a, "/api/hint", &json!({"puzzle": POST003})).json();
    assert!(
        hint["step"]["text"]
            .as_str()
            .unwrap()
            .starts_with("naked single")
    );
    let explained = post(a, "/api/explain", &json!({"puzzle": POST003})).json();
    assert_eq!(explained["solved"], true);
    let steps = explained["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 49);
    // The same steps as `xcover sudoku explain`.
    let cli = common::out(&xcover(
        &["sudoku", "explain", "data/sudoku/post003.txt"],
        "",
    ));
    for (k, step) in steps.iter().enumerate() {
        let line = format!("{}. {}", k + 1, step["text"].as_str().unwrap());
        assert!(cli.contains(&line), "{line}");
    }
    assert_eq!(steps[0]["candidates"].as_array().unwrap().len(), 81);
    let rated = post(a, "/api/rate", &json!({"puzzle": POST003})).json();
    assert_eq!(rated["level"], "easy");
    assert_eq!(rated["score"], 1.0, "naked singles alone score 1.0");
    assert_eq!(
        post(a, "/api/rate", &json!({"puzzle": open})).json()["level"],
        "multiple"
    );
}

#[test]
fn variants_generate_and_exact_cover_problems() {
    let server = Server::start(&[]);
    let a = &server.address;
    let variants = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    let solved = post(a, "/api/solve", &json!({"puzzle": variants})).json();
    assert_eq!(solved["unique"], true, "{solved}");
    assert_eq!(solved["board"]["variant"], true);
    // The first puzzle of the file is an X-Sudoku of side 6: two shaded diagonals of 6 cells.
    let marks = solved["board"]["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 2, "{marks:?}");
    for mark in marks {
        assert_eq!(
            (&mark["kind"], &mark["style"]),
            (&json!("shade"), &json!("diagonals"))
        );
        assert_eq!(mark["cells"].as_array().unwrap().len(), 6);
    }
    // The killer of the file, which logic solves with cage arithmetic.
    let killer = &variants[variants.find("puzzle: killer6-own").unwrap()..];
    let explained = post(a, "/api/explain", &json!({"puzzle": killer})).json();
    assert_eq!(explained["solved"], true, "{explained}");
    let steps = explained["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| s["technique"] == "cage combination"));
    let cages = explained["board"]["marks"].as_array().unwrap();
    assert_eq!(cages.len(), 18);
    assert!(cages.iter().all(|m| m["kind"] == "cage"), "{cages:?}");
    // An ISS constraint string, as a setter pastes it: the 6x6 of ISS's examples.
    let iss = ".~R1C5_4~R2C2_1~R2C4_3~R2C6_5~R3C4_2~R4C3_3~R5C1_6~R5C3_2~R5C5_5~R6C2_5.Shape~6x6";
    let checked = post(a, "/api/check", &json!({"puzzle": iss})).json();
    assert_eq!(checked["verdict"], "unique", "{checked}");
    // The same puzzle as an f-puzzles link, as a setter pastes it from f-puzzles.
    let puzzle = xcover::sudoku::variant::iss::parse(iss, "6x6").unwrap();
    let link = xcover::sudoku::variant::fpuzzles::link(&puzzle, None).unwrap();
    let checked = post(a, "/api/check", &json!({"puzzle": link})).json();
    assert_eq!(checked["verdict"], "unique", "{checked}");
    let arrow = r#"{"size": 4, "grid": [[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]], "slowthermometer": [{"lines": [["R1C1", "R1C2"]]}]}"#;
    let refused = post(a, "/api/check", &json!({"puzzle": arrow}));
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json()["kind"], "unsupported", "{}", refused.body);
    let unknown = post(a, "/api/check", &json!({"puzzle": ".Regex~12~R1C1~R1C2"}));
    assert_eq!(unknown.status, 400);
    assert!(
        unknown
            .body
            .contains("the rule 'Regex' is not supported yet"),
        "{}",
        unknown.body
    );

    let made = post(
        a,
        "/api/generate",
        &json!({"box": "2x3", "seed": 5, "difficulty": "easy", "symmetry": "rot180"}),
    );
    assert_eq!(made.status, 200, "{}", made.body);
    let made = made.json();
    assert_eq!(made["level"], "easy");
    let puzzle = made["puzzle"].as_str().unwrap();
    assert_eq!(
        post(a, "/api/check", &json!({"puzzle": puzzle, "box": "2x3"})).json()["verdict"],
        "unique"
    );
    // The same seed makes the same puzzle.
    let again = post(
        a,
        "/api/generate",
        &json!({"box": "2x3", "seed": 5, "difficulty": "easy", "symmetry": "rot180"}),
    );
    assert_eq!(again.json()["puzzle"], made["puzzle"]);
    let bad = post(a, "/api/generate", &json!({"difficulty": "impossible"}));
    assert_eq!(bad.status, 400);
    // Variants come from the same generator: a symmetric 6x6 killer X, written as a block of
    // the variant format that the page sends back as it is.
    let body = json!({"box": "2x3", "seed": 7, "variant": "killer,x", "symmetry": "rot180"});
    let made = post(a, "/api/generate", &body);
    assert_eq!(made.status, 200, "{}", made.body);
    let made = made.json();
    assert_eq!(made["board"]["variant"], true, "{made}");
    let marks = made["board"]["marks"].as_array().unwrap();
    assert!(marks.iter().any(|m| m["kind"] == "cage"), "{marks:?}");
    let puzzle = made["puzzle"].as_str().unwrap();
    assert!(
        puzzle.contains("rules: rows columns boxes diagonals cages"),
        "{puzzle}"
    );
    let checked = post(a, "/api/check", &json!({"puzzle": puzzle})).json();
    assert_eq!(checked["verdict"], "unique", "{checked}");
    let unknown = post(a, "/api/generate", &json!({"variant": "sandwich"}));
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.body.contains("variant: unknown rule 'sandwich'"),
        "{}",
        unknown.body
    );

    let problem = "A B C D E F G\nC E\nA D G\nB C F\nA D F\nB G\nD E G\n";
    let listed = post(a, "/api/cover/solutions", &json!({"problem": problem})).json();
    assert_eq!(listed["solutions"].as_array().unwrap().len(), 1);
    let lines: Vec<String> = listed["solutions"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(sorted, ["A D F", "B G", "C E"]);
    assert_eq!(listed["more"], false);
    let queens = common::out(&xcover(&["example", "queens", "8"], ""));
    let listed = post(
        a,
        "/api/cover/solutions",
        &json!({"problem": queens, "limit": 5}),
    )
    .json();
    assert_eq!(listed["solutions"].as_array().unwrap().len(), 5);
    assert_eq!(listed["more"], true);
    let broken = post(a, "/api/cover/solutions", &json!({"problem": "A B\nA C\n"}));
    assert_eq!(broken.status, 400);
    assert_eq!(broken.json()["line"], 2, "{}", broken.body);
}

/// The lines of a count's answer, parsed.
fn count_lines(answer: &http::Answer) -> Vec<Value> {
    answer
        .body
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn counts_stream_progress_and_end_with_the_count() {
    let server = Server::start(&[]);
    let a = &server.address;
    let empty4 = "....\n....\n....\n....\n";
    let answer = post(a, "/api/count", &json!({"puzzle": empty4}));
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/x-ndjson"));
    let last = count_lines(&answer).pop().unwrap();
    assert_eq!(last["done"], true);
    assert_eq!(last["count"], "288");
    assert_eq!(last["complete"], true);
    let limited = post(a, "/api/count", &json!({"puzzle": empty4, "limit": 10}));
    let last = count_lines(&limited).pop().unwrap();
    assert_eq!(
        (last["count"].as_str(), last["complete"].as_bool()),
        (Some("10"), Some(false))
    );
    assert_eq!(last["limit_reached"], true);
    let queens = common::out(&xcover(&["example", "queens", "10"], ""));
    let last = count_lines(&post(a, "/api/count", &json!({"problem": queens})))
        .pop()
        .unwrap();
    assert_eq!(last["count"], "724");
    // A count long enough for progress lines: pentominoes on 5x12 take a few seconds.
    let pentominoes = common::out(&xcover(&["example", "pentominoes", "5x12"], ""));
    let lines = count_lines(&post(a, "/api/count", &json!({"problem": pentominoes})));
    let last = lines.last().unwrap();
    assert_eq!(last["count"], "4040", "{last}");
    assert!(lines.len() > 2, "{} lines", lines.len());
    assert!(lines[0]["explored"].as_f64().unwrap() <= 1.0);
    // A bad puzzle is an error status, not a stream.
    let bad = post(a, "/api/count", &json!({"puzzle": "11.\n"}));
    assert_eq!(bad.status, 400);
}

#[test]
fn bad_json_bad_puzzles_and_oversized_bodies_get_json_errors() {
    let server = Server::start(&[]);
    let a = &server.address;
    for body in [&b"not json"[..], b"[1, 2]", b"{\"puzzle\": 5}", b"{}"] {
        let answer = request(a, "POST", "/api/solve", body);
        assert_eq!(answer.status, 400, "{}", String::from_utf8_lossy(body));
        assert!(answer.json()["error"].is_string());
    }
    // A clash names both cells; a row of the wrong length names its line.
    let clash = post(
        a,
        "/api/solve",
        &json!({"puzzle": "55.......\n".to_string() + &".........\n".repeat(8)}),
    );
    assert_eq!(clash.status, 400);
    let clash = clash.json();
    assert_eq!(clash["cells"], json!([[1, 1], [1, 2]]), "{clash}");
    assert_eq!(clash["line"], 1);
    assert_eq!(clash["kind"], "clash", "{clash}");
    let short = post(a, "/api/solve", &json!({"puzzle": ".........\n........\n"}));
    assert_eq!(short.json()["line"], 2, "{}", short.body);
    let variant = "puzzle: v\nsize: 4\nbox: 2x2\nrules: rows columns boxes anti-king\ngrid:\n1...\n.1..\n....\n....\nend\n";
    let broken = post(a, "/api/check", &json!({"puzzle": variant}));
    assert_eq!(broken.status, 400);
    let broken = broken.json();
    assert!(
        broken["error"].as_str().unwrap().contains("break"),
        "{broken}"
    );
    assert_eq!(broken["cells"], json!([[1, 1], [2, 2]]));
    assert_eq!(broken["kind"], "clash", "{broken}");
    // The cells come from the reader's error, not from its message: a symbol that is not one
    // and a cell in two cages are marked, each where it is.
    let symbol = variant.replace(".1..", ".17.");
    let symbol = post(a, "/api/check", &json!({"puzzle": symbol})).json();
    assert_eq!(symbol["cells"], json!([[2, 3]]), "{symbol}");
    assert_eq!(symbol["kind"], "value", "{symbol}");
    let overlap = "puzzle: v\nsize: 4\nbox: 2x2\nrules: rows columns boxes cages\ngrid:\n....\n....\n....\n....\ncages: 2\n3 r1c1 r1c2\n5 r1c2 r2c2\nend\n";
    let overlap = post(a, "/api/check", &json!({"puzzle": overlap})).json();
    assert_eq!(overlap["cells"], json!([[1, 2]]), "{overlap}");
    assert_eq!(overlap["line"], 12, "{overlap}");
    assert_eq!(overlap["kind"], "rule", "{overlap}");
    // Past the body limit (4 MiB): refused with a JSON error, and the server goes on.
    let huge = vec![b' '; 5 << 20];
    let answer = request(a, "POST", "/api/solve", &huge);
    assert_eq!(answer.status, 413);
    assert!(answer.json()["error"].as_str().unwrap().contains("MiB"));
    assert_eq!(
        post(a, "/api/check", &json!({"puzzle": POST003})).status,
        200
    );
}

#[test]
fn searches_that_hit_the_time_limit_are_stopped() {
    let server = Server::start(&["--time-limit", "0.5", "--count-time-limit", "0.5"]);
    let a = &server.address;
    // Langford pairs of order 13 have no solution, which takes seconds to prove.
    let langford = common::out(&xcover(&["example", "langford", "13"], ""));
    let answer = post(a, "/api/cover/solutions", &json!({"problem": langford}));
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .contains("time limit")
    );
    let lines = count_lines(&post(a, "/api/count", &json!({"problem": langford})));
    let last = lines.last().unwrap();
    assert_eq!(last["stopped"], "time limit", "{last}");
    assert_eq!(last["complete"], false);
    // The server still answers at once.
    assert_eq!(
        post(a, "/api/check", &json!({"puzzle": POST003})).status,
        200
    );
}

/// A `solve` stopped by the time limit after finding a solution answers it, with its
/// uniqueness unknown; a `check` of the same puzzle still
/// answers 503, having no verdict; a listing of its exact-cover problem's solutions answers
/// the one it found, whether there are more unknown.
#[test]
fn a_solve_stopped_by_the_time_limit_keeps_the_solution_it_found() {
    let server = Server::start(&["--time-limit", "2"]);
    let a = &server.address;
    let solved = post(a, "/api/solve", &json!({"puzzle": SLOW_PROOF_25X25}));
    assert_eq!(solved.status, 200, "{}", solved.body);
    let solved = solved.json();
    assert_eq!(solved["unique"], Value::Null, "{solved}");
    assert_eq!(solved["stopped"], "time limit", "{solved}");
    let symbols: String = numbers(&solved["solution"])
        .iter()
        .map(|&v| char::from(b"123456789ABCDEFGHIJKLMNOP"[v as usize - 1]))
        .collect();
    let puzzle = text::parse(SLOW_PROOF_25X25, None).remove(0).unwrap().grid;
    let solution = text::parse(&symbols, None).remove(0).unwrap().grid;
    check_solution(&puzzle, &solution).unwrap();
    let checked = post(a, "/api/check", &json!({"puzzle": SLOW_PROOF_25X25}));
    assert_eq!(checked.status, 503, "{}", checked.body);

    // The same as an exact-cover problem: the listing keeps the one solution it found.
    let problem = common::out(&xcover(&["sudoku", "encode", "-"], SLOW_PROOF_25X25));
    let listed = post(a, "/api/cover/solutions", &json!({"problem": problem}));
    assert_eq!(listed.status, 200, "{}", listed.body);
    let listed = listed.json();
    assert_eq!(
        listed["solutions"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
    assert_eq!(listed["more"], Value::Null, "{listed}");
    assert_eq!(listed["stopped"], "time limit", "{listed}");
}

/// Counts have turns of their own: a running count never keeps other searches waiting (two
/// counts held both turns for a minute, and every other search heard "busy"), a second count
/// waits for the first, and a count whose client leaves is cancelled and frees its turn.
#[test]
fn a_count_whose_client_leaves_is_cancelled_and_frees_its_turn() {
    let server = Server::start(&["--max-searches", "1", "--count-time-limit", "120"]);
    let a = server.address.clone();
    let langford = common::out(&xcover(&["example", "langford", "15"], ""));
    let body = json!({"problem": langford}).to_string();
    let mut stream = TcpStream::connect(&a).unwrap();
    write!(
        stream,
        "POST /api/count HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Wait for the first progress line: the count is running.
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("\"done\":false") {
        let read = stream.read(&mut buffer).unwrap();
        assert!(read > 0);
        seen.extend_from_slice(&buffer[..read]);
    }
    // While it runs, a check is answered (when counts took the search turns, it waited 5 s
    // and heard 503) ...
    let check = post(&a, "/api/check", &json!({"puzzle": POST003}));
    assert_eq!(check.status, 200, "{}", check.body);
    // ... and a second count waits for the only count turn, then hears that it is busy.
    let busy = post(&a, "/api/count", &json!({"puzzle": POST003}));
    assert_eq!(busy.status, 503, "{}", busy.body);
    assert!(busy.json()["error"].as_str().unwrap().contains("busy"));
    // The client goes away: the count stops and its turn is free again (a count still
    // running would hold it for two minutes, and the count would hear "busy" again).
    drop(stream);
    let answer = post(&a, "/api/count", &json!({"puzzle": POST003}));
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body.contains("\"count\":\"1\""), "{}", answer.body);
}

/// A connection that says nothing is closed after a few seconds, and one that sends its
/// request a byte at a time (slowloris) does not stay open for ever; neither keeps the page
/// from being served.
#[test]
fn silent_and_slow_connections_are_closed() {
    let server = Server::start(&["--time-limit", "1"]);
    let a = server.address.clone();
    let silent: Vec<TcpStream> = (0..50).map(|_| TcpStream::connect(&a).unwrap()).collect();
    let mut slow = TcpStream::connect(&a).unwrap();
    slow.write_all(b"POST /api/check HTTP/1.1\r\nHost: ")
        .unwrap();
    let page = request(&a, "GET", "/", b"");
    assert_eq!(page.status, 200);
    // The silent ones are closed by the server (after 5 s): a read ends with EOF or a
    // reset, not with this side's 20 s timeout.
    for mut stream in silent.into_iter().take(3) {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        let mut byte = [0u8; 1];
        match stream.read(&mut byte) {
            Ok(0) => {}
            Err(error)
                if !matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Ok(_) => panic!("the server wrote to a silent connection"),
            Err(error) => panic!("a silent connection stayed open: {error}"),
        }
    }
    // The slow one trickles a byte a second; the server ends it within its request limit
    // (1 s, the wait for a turn 5 s, 15 s more).
    slow.set_read_timeout(Some(std::time::Duration::from_millis(1000)))
        .unwrap();
    let mut closed = false;
    for _ in 0..40 {
        if slow.write_all(b"x").is_err() {
            closed = true;
            break;
        }
        let mut byte = [0u8; 64];
        match slow.read(&mut byte) {
            Ok(0) => {
                closed = true;
                break;
            }
            Ok(_) => {
                closed = true; // an error answer, then the close
                break;
            }
            Err(error)
                if error.kind() == std::io::ErrorKind::WouldBlock
                    || error.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(closed, "a slowloris connection stayed open for 40 s");
}

/// Hint and explain on a puzzle with several solutions say so (they said "stalls" and nothing
/// more, and the page offered the hint as if it led to the answer).
#[test]
fn hint_and_explain_say_when_a_puzzle_has_several_solutions() {
    let server = Server::start(&[]);
    let several =
        "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3";
    let explained = post(&server.address, "/api/explain", &json!({"puzzle": several}));
    assert_eq!(explained.status, 200, "{}", explained.body);
    let answer = explained.json();
    assert_eq!(answer["several"], true);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("more than one solution"),
        "{answer}"
    );
    let hint = post(&server.address, "/api/hint", &json!({"puzzle": several})).json();
    assert_eq!(hint["several"], true);
    assert!(
        hint["message"]
            .as_str()
            .unwrap()
            .contains("more than one solution"),
        "{hint}"
    );
    let unique = post(&server.address, "/api/explain", &json!({"puzzle": POST003})).json();
    assert_eq!(unique["several"], false);
    assert!(
        unique["message"]
            .as_str()
            .unwrap()
            .starts_with("solved by logic")
    );
}

/// Generate's fields are checked: a huge side is refused at once (the search for its box
/// shape overflowed and spun for ever), and a mistyped field is an error, never a 9x9.
#[test]
fn generate_refuses_bad_fields_at_once() {
    let server = Server::start(&[]);
    for body in [
        json!({"size": 18446744073709551615u64}),
        json!({"size": 9223372036854775807u64}),
        json!({"size": -1}),
        json!({"size": "16"}),
        json!({"size": 1e30}),
        json!({"size": 3}),
        json!({"difficulty": 5}),
        json!({"symmetry": 7}),
        json!({"seed": "abc"}),
        json!({"seed": -4}),
        json!({"minimal": "no"}),
        json!({"sise": 9}),
    ] {
        let answer = post(&server.address, "/api/generate", &body);
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        assert!(answer.json()["error"].is_string(), "{}", answer.body);
    }
    // A seed above 2^53 round-trips as a string, which JavaScript does not round.
    let seed = "18446744073709551557";
    let made = post(
        &server.address,
        "/api/generate",
        &json!({"box": "2x2", "seed": seed}),
    )
    .json();
    assert_eq!(made["seed_text"], seed);
    let again = post(
        &server.address,
        "/api/generate",
        &json!({"box": "2x2", "seed": seed}),
    )
    .json();
    assert_eq!(made["puzzle"], again["puzzle"]);
}

/// A count's limit is a whole number of at least 1; anything else was taken as no limit (or,
/// for 0, answered 0 solutions).
#[test]
fn a_bad_count_limit_is_an_error() {
    let server = Server::start(&[]);
    for limit in [json!(-1), json!("5"), json!(1.5), json!(0)] {
        let answer = post(
            &server.address,
            "/api/count",
            &json!({"puzzle": POST003, "limit": limit}),
        );
        assert_eq!(answer.status, 400, "{limit}: {}", answer.body);
        let listed = post(
            &server.address,
            "/api/cover/solutions",
            &json!({"problem": "A\nA\n", "limit": limit}),
        );
        assert_eq!(listed.status, 400, "{limit}: {}", listed.body);
    }
}

/// Another site's page cannot use the API: a form or `text/plain` POST (sent by browsers
/// without asking first) gets 415, a foreign `Origin` 403, a `Host` that is not this server
/// (DNS rebinding) 421; the page cannot be framed; errors of the HTTP layer have JSON bodies.
#[test]
fn other_sites_cannot_drive_the_server() {
    let server = Server::start(&[]);
    let address = &server.address;
    let port = address.rsplit_once(':').unwrap().1;
    let body = json!({"puzzle": POST003}).to_string();
    let send = |host: &str, extra: &str, method: &str, path: &str| {
        http::raw(
            address,
            &format!(
                "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\nConnection: close",
                body.len()
            ),
            body.as_bytes(),
        )
    };
    let own = format!("127.0.0.1:{port}");
    let json_type = "Content-Type: application/json\r\n";
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let answer = send(
            &own,
            &format!("Content-Type: {kind}\r\n"),
            "POST",
            "/api/solve",
        );
        assert_eq!(answer.status, 415, "{kind}: {}", answer.body);
        assert!(answer.json()["error"].is_string());
    }
    let no_type = send(&own, "", "POST", "/api/count");
    assert_eq!(no_type.status, 415, "{}", no_type.body);
    let foreign = send(
        &own,
        &format!("{json_type}Origin: http://evil.example\r\n"),
        "POST",
        "/api/solve",
    );
    assert_eq!(foreign.status, 403, "{}", foreign.body);
    let rebound = send(
        &format!("evil.example:{port}"),
        json_type,
        "POST",
        "/api/solve",
    );
    assert_eq!(rebound.status, 421, "{}", rebound.body);
    let wrong_port = send("127.0.0.1:1", json_type, "GET", "/");
    assert_eq!(wrong_port.status, 421);
    // This server's own names, and its own page's origin, are served.
    for host in [own.clone(), format!("localhost:{port}")] {
        let answer = send(
            &host,
            &format!("{json_type}Origin: http://{host}\r\n"),
            "POST",
            "/api/solve",
        );
        assert_eq!(answer.status, 200, "{host}: {}", answer.body);
    }
    let page = send(&own, "", "GET", "/");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    // An error from the routing layer (a GET on a POST endpoint) is JSON too.
    let wrong_method = send(&own, "", "GET", "/api/solve");
    assert_eq!(wrong_method.status, 405);
    assert!(
        wrong_method.json()["error"].is_string(),
        "{}",
        wrong_method.body
    );
}

/// Binding an address that other machines reach needs --allow-remote.
#[test]
fn a_non_loopback_address_needs_allow_remote() {
    let refused = xcover(&["serve", "--host", "0.0.0.0", "--port", "0"], "");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        common::err(&refused).contains("--allow-remote"),
        "{}",
        common::err(&refused)
    );
}

/// A killer cage as large as a row is a sum, not one option per filling (a 45-sum cage over a
/// 9x9 row once took 23.5 s past a 10 s limit and 750 MB; a 16-cell cage of a 16x16, 1.5 GB
/// before its 400): the check answers at once on every size.
#[test]
fn huge_killer_cages_are_answered_at_once() {
    let server = Server::start(&[]);
    let killer = |n: usize, boxes: &str, cells: usize, sum: usize| {
        let cage: Vec<String> = (1..=cells).map(|c| format!("r1c{c}")).collect();
        format!(
            "puzzle: big\nsize: {n}\nbox: {boxes}\nrules: rows columns boxes cages\ngrid:\n{}cages: 1\n{sum} {}\nend\n",
            format!("{}\n", ".".repeat(n)).repeat(n),
            cage.join(" ")
        )
    };
    for (n, boxes) in [(9, "3x3"), (16, "4x4"), (25, "5x5")] {
        let answer = post(
            &server.address,
            "/api/check",
            &json!({"puzzle": killer(n, boxes, n, n * (n + 1) / 2)}),
        );
        assert_eq!(answer.status, 200, "{n}: {}", answer.body);
        assert_eq!(answer.json()["verdict"], "multiple", "{}", answer.body);
    }
}

/// A listing's answer is bounded: solutions that each repeat one long option stop at the
/// size limit, marked truncated (a 1.1 MB request answered 549 MB).
#[test]
fn a_listing_of_long_solutions_is_truncated() {
    let server = Server::start(&[]);
    let names: Vec<String> = (0..50_000).map(|i| format!("X{i}")).collect();
    let problem = format!(
        "A {}\n{}\n{}",
        names.join(" "),
        names.join(" "),
        "A\n".repeat(1000)
    );
    let answer = post(
        &server.address,
        "/api/cover/solutions",
        &json!({"problem": problem, "limit": 1000}),
    );
    assert_eq!(answer.status, 200);
    assert!(answer.body.len() < 3 << 20, "{} bytes", answer.body.len());
    let listed = answer.json();
    assert_eq!(listed["truncated"], true);
    assert_eq!(listed["more"], true);
    let solutions = listed["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty() && solutions.len() < 1000);
}

/// A body announced as too large is refused at once, before the client is told to go on
/// (`Expect: 100-continue` got "100 Continue" for a body of 10^12 bytes), with a JSON error.
#[test]
fn an_oversized_body_is_refused_before_it_is_sent() {
    let server = Server::start(&[]);
    let a = &server.address;
    for expect in ["", "Expect: 100-continue\r\n"] {
        let answer = http::raw(
            a,
            &format!(
                "POST /api/solve HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\n{expect}Content-Length: 1000000000000"
            ),
            b"",
        );
        assert_eq!(answer.status, 413, "{}", answer.body);
        assert!(answer.json()["error"].as_str().unwrap().contains("MiB"));
    }
    let bad = http::raw(
        a,
        &format!(
            "POST /api/solve HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: x"
        ),
        b"",
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
}

/// Requests the HTTP parser refuses before any route sees them (a URI too long, header
/// fields too large or too many, a request that is not HTTP) are answered with a JSON error
/// like every other error (they had empty bodies).
#[test]
fn requests_the_parser_refuses_get_json_errors() {
    let server = Server::start(&[]);
    let a = &server.address;
    let many_fields: String = (0..200).map(|i| format!("\r\nX-Field-{i}: a")).collect();
    let cases = [
        (
            format!("GET /{} HTTP/1.1\r\nHost: {a}", "a".repeat(70_000)),
            414,
            "URI",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: {a}\r\nX-Big: {}",
                "a".repeat(500_000)
            ),
            431,
            "header",
        ),
        (
            format!("GET / HTTP/1.1\r\nHost: {a}{many_fields}"),
            431,
            "header",
        ),
        (
            format!("GET / HTTP/1.1\r\nHost: {a}\r\nNo colon here"),
            400,
            "HTTP",
        ),
        ("NOT HTTP AT ALL".to_string(), 400, "HTTP"),
    ];
    for (head, status, said) in cases {
        let answer = http::raw(a, &head, b"");
        assert_eq!(
            answer.status,
            status,
            "{said} ({} bytes): {}",
            head.len(),
            answer.body
        );
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(said), "{error}");
    }
    // The server goes on answering.
    assert_eq!(request(a, "GET", "/", b"").status, 200);
}

/// No thread outlives the requests it served: after searches, counts (one left by its
/// client) and a listing, the server goes back to the threads it started with (the blocking
/// threads of requests end ten seconds after their last work; a trim of memory every ten
/// seconds kept three alive for ever).
#[cfg(target_os = "linux")]
#[test]
fn no_thread_outlives_its_request() {
    let server = Server::start(&[]);
    let threads = || {
        std::fs::read_dir(format!("/proc/{}/task", server.pid()))
            .unwrap()
            .count()
    };
    let start = threads();
    let a = &server.address;
    let several =
        "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3";
    for path in ["/api/check", "/api/solve", "/api/count", "/api/rate"] {
        assert_eq!(post(a, path, &json!({"puzzle": several})).status, 200);
    }
    // A count of an empty 16x16, left after its first progress line.
    let mut left = TcpStream::connect(a).unwrap();
    let body = json!({"puzzle": ".".repeat(256)}).to_string();
    write!(
        left,
        "POST /api/count HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut first = [0u8; 256];
    let _ = left.read(&mut first).unwrap();
    drop(left);
    let mut now = threads();
    for _ in 0..400 {
        if now <= start {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        now = threads();
    }
    assert_eq!(now, start, "threads at the start {start}, now {now}");
}
