//! The page of `xcover serve` in headless Chromium (Debian's `chromium` and
//! `chromium-driver`, which `.ci/run` installs), driven over WebDriver as a person would use
//! it: type a puzzle and solve it, see the two solutions of a puzzle with several, step
//! through an explanation, get a clear message for a malformed puzzle, cancel a long count.
//! Without Chromium the tests are reported as ignored, except under CI, where that fails.

use crate::common::slow_puzzles;
use crate::http;
use crate::webdriver;

use http::{Server, post};
use serde_json::{Value, json};
use slow_puzzles::SLOW_PROOF_25X25;
use webdriver::Browser;
use xcover::sudoku::rules::{Arrow, Arrows, Constraint};
use xcover::sudoku::variant::fpuzzles;

const POST003: &str = include_str!("../../data/sudoku/post003.txt");

/// The values of the inputs of a board on the page, 0 for empty.
fn values(browser: &Browser, board: &str) -> Vec<u32> {
    let script = format!(
        "return Array.from(document.querySelectorAll('#{board} .cell input')).map(i => i.value)"
    );
    browser
        .run(&script)
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let text = v.as_str().unwrap();
            match text.chars().next() {
                None => 0,
                Some(c) if c.is_ascii_digit() => text.parse().unwrap(),
                Some(c) => c as u32 - 'A' as u32 + 10,
            }
        })
        .collect()
}

/// Whether `grid` is a full n x n Sudoku with boxes of `rows` x `cols` keeping the givens
/// (checked here, independently of the server).
fn is_solution(grid: &[u32], givens: &[u32], rows: usize, cols: usize) -> bool {
    let n = rows * cols;
    let full = |cells: Vec<usize>| {
        let mut seen: Vec<u32> = cells.iter().map(|&i| grid[i]).collect();
        seen.sort_unstable();
        seen == (1..=n as u32).collect::<Vec<_>>()
    };
    (0..n).all(|r| full((0..n).map(|c| r * n + c).collect()))
        && (0..n).all(|c| full((0..n).map(|r| r * n + c).collect()))
        && (0..n).all(|b| {
            let (top, left) = (b / rows * rows, b % rows * cols);
            full(
                (0..n)
                    .map(|k| (top + k / cols) * n + left + k % cols)
                    .collect(),
            )
        })
        && givens.iter().zip(grid).all(|(&g, &v)| g == 0 || g == v)
}

fn message(browser: &Browser) -> String {
    browser
        .run("return document.getElementById('message').textContent")
        .as_str()
        .unwrap()
        .to_string()
}

/// Pastes `text` into the paste box and loads it.
fn paste(browser: &Browser, text: &str) {
    browser.run("document.getElementById('paste').value = ''");
    browser.type_into("#paste", text);
    // The message of the last action is cleared, so that the wait is for this load's.
    browser.run("document.getElementById('message').textContent = ''");
    browser.click("#load");
    browser.wait_for("return document.getElementById('message').textContent", 10);
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn typing_a_puzzle_and_solving_it_fills_the_grid() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    browser.wait_for(
        "return document.querySelectorAll('#board .cell').length === 81",
        10,
    );
    let givens: Vec<u32> = POST003
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(|line| line.split_whitespace().map(|v| v.parse::<u32>().unwrap()))
        .collect();
    assert_eq!(givens.len(), 81);
    for (i, &v) in givens.iter().enumerate().filter(|(_, v)| **v != 0) {
        browser.type_into(
            &format!("#board .cell:nth-child({})  input", i + 1),
            &v.to_string(),
        );
    }
    assert_eq!(values(&browser, "board"), givens, "what was typed");
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('solved:')",
        10,
    );
    assert!(
        message(&browser).contains("unique"),
        "{}",
        message(&browser)
    );
    let solved = values(&browser, "board");
    assert!(is_solution(&solved, &givens, 3, 3), "{solved:?}");
    // Clues and filled cells are told apart.
    let classes = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell')).map(c => c.classList.contains('given') ? 'g' : (c.classList.contains('solved') ? 's' : '-')).join('')",
    );
    let expected: String = givens
        .iter()
        .map(|&v| if v != 0 { 'g' } else { 's' })
        .collect();
    assert_eq!(classes.as_str().unwrap(), expected);
}

/// A solve that the server's time limit stops after the solution was found shows it and says
/// that its uniqueness was not proved.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_solve_stopped_by_the_time_limit_shows_the_solution_found() {
    let server = Server::start(&["--time-limit", "2"]);
    let browser = Browser::start();
    browser.open(&server.url());
    paste(&browser, SLOW_PROOF_25X25);
    browser.wait_for(
        "return document.querySelectorAll('#board .cell').length === 625",
        10,
    );
    let givens = values(&browser, "board");
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('solved')",
        20,
    );
    assert!(
        message(&browser).contains("stopped (time limit) before it proved this solution"),
        "{}",
        message(&browser)
    );
    let solved = values(&browser, "board");
    assert!(is_solution(&solved, &givens, 5, 5), "{solved:?}");
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn checking_a_puzzle_with_several_solutions_shows_two_and_where_they_differ() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    paste(
        &browser,
        "1.3.5.7.9........................................................................",
    );
    browser.click("#check");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('multiple')",
        10,
    );
    let visible =
        browser.run("return !document.getElementById('second').classList.contains('hidden')");
    assert_eq!(visible, Value::Bool(true));
    let first = values(&browser, "board");
    let second = values(&browser, "board2");
    let givens: Vec<u32> = "1.3.5.7.9"
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0))
        .chain(std::iter::repeat_n(0, 72))
        .collect();
    assert!(is_solution(&first, &givens, 3, 3) && is_solution(&second, &givens, 3, 3));
    assert_ne!(first, second);
    let marked = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell')).map(c => c.classList.contains('differ'))",
    );
    let marked: Vec<bool> = marked
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_bool().unwrap())
        .collect();
    let differ: Vec<bool> = first.iter().zip(&second).map(|(a, b)| a != b).collect();
    assert_eq!(marked, differ);
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn stepping_through_explain_highlights_each_step_s_cell() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    paste(&browser, POST003);
    browser.click("#explain");
    browser.wait_for(
        "return document.getElementById('step-counter').textContent",
        10,
    );
    browser.click("#next");
    browser.click("#next");
    let counter = browser.run("return document.getElementById('step-counter').textContent");
    assert_eq!(counter, json!("step 3 of 49"));
    // The page marks the cell that step 3 fills, as the API (and the command line) gives it.
    let explained = post(&server.address, "/api/explain", &json!({"puzzle": POST003})).json();
    let step = &explained["steps"][2];
    let placement = &step["placements"][0];
    let highlighted = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell.highlight')).map(c => [Number(c.dataset.row), Number(c.dataset.col)])",
    );
    assert_eq!(highlighted, json!([[placement[0], placement[1]]]));
    let text = browser.run("return document.getElementById('step-text').textContent");
    assert_eq!(text, step["text"]);
    // Back goes to step 2.
    browser.click("#prev");
    let counter = browser.run("return document.getElementById('step-counter').textContent");
    assert_eq!(counter, json!("step 2 of 49"));
}

/// Puzzle 721 of top1465 (a collection of hard puzzles from the players' forum, in
/// `../shared/data/sudoku9/top1465.txt`): its fourth step is an X-chain through groups,
/// `(5)r1c9,r2c9=(5)r2c8-(5)r4c8=(5)r4c6-(5)r8c6=(5)r8c7,r8c8,r8c9`.
const TOP1465_721: &str =
    "1.....68.....6.2...652.1....1.49.8.7........4..7......5..7....8..893....7....2.3.";

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_chain_step_is_drawn_as_links_between_its_candidates() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    paste(&browser, TOP1465_721);
    browser.click("#explain");
    browser.wait_for(
        "return document.getElementById('step-counter').textContent",
        10,
    );
    // Steps 1 to 3 are no chains: nothing is drawn.
    for _ in 0..2 {
        browser.click("#next");
        assert_eq!(
            browser.run("return document.querySelectorAll('svg.chain').length"),
            json!(0)
        );
    }
    browser.click("#next");
    let explained = post(
        &server.address,
        "/api/explain",
        &json!({"puzzle": TOP1465_721}),
    )
    .json();
    let step = &explained["steps"][3];
    assert_eq!(step["technique"], "X-chain");
    let links = step["links"].as_array().unwrap();
    assert_eq!(links.len(), 5);
    // The picture's lines, and the middle of each candidate mark of 5, both on the board.
    let drawn = browser.run(
        "const board = document.getElementById('board'), frame = board.getBoundingClientRect();
         const lines = Array.from(document.querySelectorAll('#board svg.chain line.chain-link')).map(l =>
           ({strong: l.classList.contains('strong'), dashed: l.hasAttribute('stroke-dasharray'),
             from: [Number(l.getAttribute('x1')), Number(l.getAttribute('y1'))],
             to: [Number(l.getAttribute('x2')), Number(l.getAttribute('y2'))]}));
         const marks = {};
         document.querySelectorAll('#board .cell').forEach(cell => {
           const mark = cell.querySelector('.cands');
           if (!mark) return;
           const r = mark.children[4].getBoundingClientRect();
           marks[`${cell.dataset.row},${cell.dataset.col}`] =
             [r.left + r.width / 2 - frame.left - board.clientLeft, r.top + r.height / 2 - frame.top - board.clientTop];
         });
         return {lines, marks, rings: document.querySelectorAll('#board svg.chain circle.chain-node').length};",
    );
    let lines = drawn["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5, "{drawn}");
    // Nine candidates: 5 in r1c9,r2c9 / r2c8 / r4c8 / r4c6 / r8c6 / r8c7,r8c8,r8c9.
    assert_eq!(drawn["rings"], json!(9));
    let point = |v: &Value| [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()];
    // The middle of a node's marks of 5, as the API names its cells.
    let middle = |node: &Value| {
        let cells = node["cells"].as_array().unwrap();
        let points: Vec<[f64; 2]> = cells
            .iter()
            .map(|c| point(&drawn["marks"][format!("{},{}", c[0], c[1])]))
            .collect();
        let k = points.len() as f64;
        [
            points.iter().map(|p| p[0]).sum::<f64>() / k,
            points.iter().map(|p| p[1]).sum::<f64>() / k,
        ]
    };
    for (link, line) in links.iter().zip(lines) {
        assert_eq!(link["from"]["symbol"], 5);
        assert_eq!(line["strong"], link["strong"]);
        assert_eq!(line["dashed"], json!(!link["strong"].as_bool().unwrap()));
        // Each line lies on the way from its first candidate's mark to its second's, stopping
        // short of both by the same ring.
        let (a, b) = (middle(&link["from"]), middle(&link["to"]));
        let (start, end) = (point(&line["from"]), point(&line["to"]));
        let distance = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
        let ring = distance(a, start);
        assert!(ring > 2.0 && ring < 20.0, "{line} from {a:?}");
        assert!((distance(b, end) - ring).abs() < 0.5, "{line} to {b:?}");
        assert!(
            (distance(a, start) + distance(start, end) + distance(end, b) - distance(a, b)).abs()
                < 0.5,
            "{line} between {a:?} and {b:?}"
        );
    }
    // The next step, an XY-wing, draws no chain; going back draws it again.
    browser.click("#next");
    assert_eq!(
        browser.run("return document.querySelectorAll('svg.chain').length"),
        json!(0)
    );
    browser.click("#prev");
    assert_eq!(
        browser.run("return document.querySelectorAll('#board svg.chain line.chain-link').length"),
        json!(5)
    );
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_malformed_puzzle_gets_a_message_naming_the_cell() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    // Two 5s in row 1.
    paste(&browser, &("55.......".to_string() + &".".repeat(72)));
    let text = message(&browser);
    assert!(text.contains("r1c1") && text.contains("r1c2"), "{text}");
    let marked = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell.error')).map(c => c.dataset.row + ',' + c.dataset.col)",
    );
    assert_eq!(marked, json!(["1,1", "1,2"]));
    // A cell holding something that is not a symbol is named before anything is sent.
    browser.click("#new-grid");
    browser.type_into("#board .cell:nth-child(12) input", "x");
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.includes('r2c3')",
        10,
    );
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn counting_an_empty_6x6_shows_progress_and_can_be_cancelled() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    browser.run("document.getElementById('shape').value = '2x3'");
    browser.click("#new-grid");
    browser.wait_for(
        "return document.querySelectorAll('#board .cell').length === 36",
        10,
    );
    browser.click("#count");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('counting')",
        20,
    );
    browser.click("#cancel");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('count cancelled')",
        10,
    );
    assert_eq!(
        browser.run("return document.getElementById('count').disabled"),
        Value::Bool(false)
    );
    // The server is free again: a check answers at once.
    let answer = post(&server.address, "/api/check", &json!({"puzzle": POST003}));
    assert_eq!(answer.status, 200);
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_solved_16x16_on_the_page() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    let puzzle = std::fs::read_to_string("data/sudoku/16x16-4x4.txt").unwrap();
    paste(&browser, &puzzle);
    let givens = values(&browser, "board");
    assert_eq!(givens.len(), 256);
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('solved:')",
        20,
    );
    assert!(is_solution(&values(&browser, "board"), &givens, 4, 4));
    // The picture in docs/ and the README: written under target/ on every run, copied by hand.
    let png = browser.screenshot();
    assert_eq!(&png[1..4], b"PNG");
    std::fs::write(
        env!("CARGO_TARGET_TMPDIR").to_string() + "/serve-16x16.png",
        png,
    )
    .unwrap();
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_killer_is_drawn_with_its_cages_and_explained() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    let variants = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    let killer = &variants[variants.find("puzzle: killer6-own").unwrap()..];
    paste(&browser, killer);
    assert!(message(&browser).contains("cages"), "{}", message(&browser));
    let sums = browser.run(
        "return Array.from(document.querySelectorAll('#board svg .cage-sum')).map(s => Number(s.textContent))",
    );
    let sums: Vec<u64> = sums
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(sums.len(), 18);
    // The cage sums add up to the whole grid's: 6 rows of 1 + ... + 6.
    assert_eq!(sums.iter().sum::<u64>(), 6 * 21);
    browser.click("#explain");
    browser.wait_for(
        "return document.getElementById('step-counter').textContent",
        10,
    );
    let text = browser.run("return document.getElementById('step-text').textContent");
    assert!(
        text.as_str().unwrap().starts_with("cage combination"),
        "{text}"
    );
    // Solve's message, "solved: ...", not the explanation's "solved by logic ...".
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('solved:')",
        10,
    );
    assert!(
        values(&browser, "board")
            .iter()
            .all(|&v| (1..=6).contains(&v))
    );
}

/// "300 Subs!" by Rangsk (thermometers, kropki), an f-puzzles link from the test data of
/// Rangsk's SudokuSolver (`dclamage/SudokuSolver`, `SudokuTests/Puzzles.cs`, commit 226e55b),
/// with its solution there.
const THERMO_KROPKI_LINK: &str = "N4IgzglgXgpiBcBOANCALhNAbO8QGYAGQgAgGUBXAIzAEIRUBDCtACwHsAnBEAJUYB2AczABrBiE4UcYGGh4A5LgFtGWchQAm7URRJSZJRgAdjWAJ4A6ADoDbZNIM2NOmkmxidl7ZXM9h4EgARCCFMMBIwNE4IAGNscxIIAVjOGEZZEgAzTh93VhgSKmkqEhgBTRs7AQcnFzcAaVzjUQgSAAoBdhIBGCFGDAA3Qtj2ASjORmS0AEpAkLC0CNljFwGYNypExhIAd1ZMQu00IzSSUfGYWJYIYctg0PDImFXJtA2i7aKsRljREmOJFYjGGRhIAEZ4AAmfQDCDsSwSIQxTQIADaaOAAF9kNjcTi8YSCcT8QBdZCYklE/E06nY8mU2lU5lMhl0lnsskUzk85lsjkC1ncwW8rmM0W8/lM6WS8noApeHx+bjwTEgLDJGBgdFovj4ADCABYJLxDUaTQBWc2oXhWi2W/UANhNZudNoNbr1+vtpNJBPVmu1qt1tv1AHYTY7wyaw9GbbGABwx/WISMph2pm1WpO+/0a3pBjF8cH68EmqH6qEmg34F2Vh21m1Rqvx0sgXNyzQQLJZTzlWK4NUDrBYQt8RDWvgJ81+3EgYej9FT70mic+/0Lse8acRm0TiOz0Cbpe8Cu7vgV52H+cwEdbqP2pszrFyt7w9FH2+L1UXye8EvGtex4/tu+pJja06pkBX5btOLbLrW0F3ieJbnqe0ZId+IbTsaEErn6fpAA=";
const THERMO_KROPKI_SOLUTION: &str =
    "135462879729853461684197523851276934296345187473981256962718345548639712317524698";

/// The thermometer and kropki puzzle above with one arrow more, drawn where its solution
/// keeps it (a circle and two cells in a row beside it that add up to the circle's digit),
/// written back as an f-puzzles link: a unique puzzle stays unique with a clue its solution
/// keeps.
fn thermo_arrow_kropki_link() -> String {
    let mut entry = fpuzzles::read(THERMO_KROPKI_LINK).remove(0).unwrap();
    let solution: Vec<u8> = THERMO_KROPKI_SOLUTION.bytes().map(|b| b - b'0').collect();
    let at = |r: usize, c: usize| solution[r * 9 + c];
    let (circle, line) = (0..9)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .find(|&(r, c)| at(r, c) == at(r, c + 1) + at(r, c + 2))
        .map(|(r, c)| ((r, c), vec![(r, c + 1), (r, c + 2)]))
        .expect("some row has a digit that its next two add up to");
    entry.puzzle.rules.add(Constraint::Arrows(Arrows {
        arrows: vec![Arrow {
            circle: vec![circle],
            line,
        }],
    }));
    fpuzzles::link(&entry.puzzle, None).unwrap()
}

/// A pasted f-puzzles link of a thermometer, arrow and kropki puzzle is drawn with its rules
/// (tubes and bulbs, the arrow and its circle, every dot) and Check proves it unique.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn a_pasted_fpuzzles_link_is_drawn_with_its_rules_and_checked() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    let link = thermo_arrow_kropki_link();
    paste(&browser, &link);
    let loaded = message(&browser);
    for rule in ["thermometers", "arrows", "kropki"] {
        assert!(loaded.contains(rule), "{loaded}");
    }
    let board =
        post(&server.address, "/api/parse", &json!({"puzzle": link})).json()["board"].clone();
    let count = |kind: &str, style: &str| {
        board["marks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kind"] == kind && m["style"].as_str().unwrap().starts_with(style))
            .count() as u64
    };
    let (tubes, dots) = (count("line", "thermometers"), count("edge", "kropki"));
    assert!(tubes > 0 && dots > 0, "{board}");
    let drawn = |css: &str| {
        browser
            .run(&format!(
                "return document.querySelectorAll('#board svg {css}').length"
            ))
            .as_u64()
            .unwrap()
    };
    // A tube per thermometer and the arrow's shaft; a dot per kropki clue; a bulb per
    // thermometer and the arrow's circle.
    assert_eq!(drawn("polyline"), tubes + 1);
    assert_eq!(drawn("circle"), dots);
    assert_eq!(drawn("rect"), tubes + 1);
    let checked = press(&browser, "#check", "unique");
    assert!(checked.starts_with("unique"), "{checked}");
    // The picture in docs/: written under target/ on every run, copied by hand.
    std::fs::write(
        env!("CARGO_TARGET_TMPDIR").to_string() + "/serve-fpuzzles-link.png",
        browser.screenshot(),
    )
    .unwrap();
    browser.click("#solve");
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('solved:')",
        10,
    );
    let solved: String = values(&browser, "board")
        .iter()
        .map(u32::to_string)
        .collect();
    assert_eq!(solved, THERMO_KROPKI_SOLUTION);
}

/// Candidates on a puzzle with two solutions: a full grid (top95 #1's solution) with the
/// four cells of a rectangle emptied (a b / b a over two boxes), and as many other cells as
/// keep it at two solutions. Exactly the rectangle's cells show two true candidates, every
/// other empty cell one; a click on a candidate shows a solution with it, which is checked
/// here.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn candidates_show_where_two_solutions_differ_and_a_solution_for_each() {
    let solution: Vec<u8> =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
            .bytes()
            .map(|b| b - b'0')
            .collect();
    let rectangle = (0..81)
        .flat_map(|a| (0..81).map(move |b| (a, b)))
        .find_map(|(a, d): (usize, usize)| {
            let (r1, c1, r2, c2) = (a / 9, a % 9, d / 9, d % 9);
            let (b, c) = (r1 * 9 + c2, r2 * 9 + c1);
            (r1 < r2
                && c1 < c2
                && r1 / 3 == r2 / 3
                && c1 / 3 != c2 / 3
                && solution[a] == solution[d]
                && solution[b] == solution[c])
                .then(|| vec![a, b, c, d])
        })
        .unwrap();
    let count = |cells: &[u8]| {
        let line: String = cells.iter().map(|&v| char::from(b'0' + v)).collect();
        let grid: xcover::sudoku::Grid = line.replace('0', ".").parse().unwrap();
        xcover::sudoku::AnyPuzzle::Grid(grid)
            .with_solver(|_| {}, |s, _| s.map_or(0, |s| s.count(Some(3))))
            .unwrap()
    };
    let mut givens = solution.clone();
    for &i in &rectangle {
        givens[i] = 0;
    }
    assert_eq!(count(&givens), 2);
    for i in 0..81 {
        if givens[i] != 0 && givens.iter().filter(|&&v| v == 0).count() < 30 {
            let kept = givens[i];
            givens[i] = 0;
            if count(&givens) != 2 {
                givens[i] = kept;
            }
        }
    }
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    let line: String = givens
        .iter()
        .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
        .collect();
    paste(&browser, &line);
    let said = press(&browser, "#candidates", "2 solutions");
    assert!(said.contains("4 cells are still open"), "{said}");
    let shown = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell')).map(c => \
         Array.from(c.querySelectorAll('.cands.true span')).map(s => s.textContent).join(''))",
    );
    let shown: Vec<String> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    for (i, text) in shown.iter().enumerate() {
        let expected = match (givens[i], rectangle.contains(&i)) {
            (0, true) => 2,
            (0, false) => 1,
            _ => 0,
        };
        assert_eq!(text.len(), expected, "cell {i}: '{text}'");
    }
    // A click on the candidate of the first rectangle cell that is not its value in
    // `solution`: the other solution, shown beside the grid.
    let cell = rectangle[0];
    let other = shown[cell]
        .chars()
        .find(|&c| c != char::from(b'0' + solution[cell]))
        .unwrap();
    browser.run(&format!(
        "Array.from(document.querySelectorAll('#board .cell')[{cell}].querySelectorAll('.cands.true span')).find(s => s.textContent === '{other}').click()"
    ));
    browser.wait_for(
        "return document.getElementById('message').textContent.startsWith('a solution with')",
        10,
    );
    let second = values(&browser, "board2");
    assert_eq!(second[cell], other.to_digit(10).unwrap());
    // The picture in docs/: written under target/ on every run, copied by hand.
    std::fs::write(
        env!("CARGO_TARGET_TMPDIR").to_string() + "/serve-candidates.png",
        browser.screenshot(),
    )
    .unwrap();
    let givens: Vec<u32> = givens.iter().map(|&v| u32::from(v)).collect();
    assert!(is_solution(&second, &givens, 3, 3), "{second:?}");
}

/// Generate makes a 25x25 within the time limit (it asked for a minimal one, which takes
/// from seconds to minutes to make, and hit the 10 s limit), and a 9x9 as before.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn generate_makes_every_size_within_the_time_limit() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    for (shape, side, said) in [
        (
            "5x5",
            25,
            "a new 25x25 puzzle with one solution (not minimal)",
        ),
        ("3x3", 9, "a new 9x9 puzzle with one solution (seed"),
    ] {
        browser.run(&format!(
            "document.getElementById('shape').value = '{shape}'"
        ));
        let made = press(&browser, "#generate", "a new ");
        assert!(made.starts_with(said), "{made}");
        let givens = values(&browser, "board");
        assert_eq!(givens.len(), side * side);
        let checked = post(
            &server.address,
            "/api/check",
            &json!({"puzzle": numbers(&givens, side)}),
        )
        .json();
        assert_eq!(checked["verdict"], "unique", "{checked}");
    }
    // A killer from the same generator: drawn with its cages, and Check sends it back as the
    // variant it is.
    browser.run("document.getElementById('variant').value = 'killer'");
    let made = press(&browser, "#generate", "a new ");
    assert!(
        made.starts_with("a new 9x9 puzzle with one solution"),
        "{made}"
    );
    assert!(
        browser
            .run("return document.querySelectorAll('#board svg .cage-sum').length")
            .as_u64()
            .is_some_and(|cages| cages > 0),
        "no cage drawn"
    );
    let checked = press(&browser, "#check", "unique");
    assert!(checked.starts_with("unique"), "{checked}");
}

/// A grid as rows of numbers (0 for blank).
fn numbers(cells: &[u32], side: usize) -> String {
    cells
        .chunks(side)
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// Clicks `button` and waits until the message starts with `start`; returns the message.
fn press(browser: &Browser, button: &str, start: &str) -> String {
    browser.run("document.getElementById('message').textContent = ''");
    browser.click(button);
    browser.wait_for(
        &format!("return document.getElementById('message').textContent.startsWith({start:?})"),
        20,
    );
    message(browser)
}

/// Solve and Check show solutions without making them clues, and a player's own entries are
/// not clues either: after Solve, Count still counts the puzzle's solutions (it counted 1,
/// Check said "unique", Rate "easy, score 0.0", Explain "solved by logic in 0 steps").
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs Debian's chromium and chromium-driver (installed after the last build? `touch build.rs`)"
)]
fn solutions_shown_and_players_entries_never_become_clues() {
    let several =
        "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3";
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url());
    paste(&browser, several);
    let clues = values(&browser, "board");
    press(&browser, "#count", "15824 solutions");
    press(&browser, "#solve", "solved: one of several");
    assert!(values(&browser, "board").iter().all(|&v| v != 0));
    press(&browser, "#count", "15824 solutions");
    press(&browser, "#check", "multiple");
    press(&browser, "#count", "15824 solutions");
    assert_eq!(press(&browser, "#rate", "multiple"), "multiple");
    let explained = press(&browser, "#explain", "logic stalls");
    assert!(explained.contains("more than one solution"), "{explained}");
    // Reset gives the clues back.
    press(&browser, "#reset", "back to the clues");
    assert_eq!(values(&browser, "board"), clues);

    // A player's wrong entry in a unique puzzle: not a clue, and marked after Solve.
    paste(&browser, POST003);
    assert_eq!(
        browser.run("return document.getElementById('typing').value"),
        json!("entries")
    );
    let givens = values(&browser, "board");
    let solution = post(&server.address, "/api/solve", &json!({"puzzle": POST003})).json();
    let empty = givens.iter().position(|&v| v == 0).unwrap();
    let right = solution["solution"][empty].as_u64().unwrap() as u32;
    let wrong = if right == 1 { 2 } else { 1 };
    browser.type_into(
        &format!("#board .cell:nth-child({}) input", empty + 1),
        &wrong.to_string(),
    );
    press(&browser, "#check", "unique");
    let solved = press(&browser, "#solve", "solved: the solution is unique");
    let cell = format!("r{}c{}", empty / 9 + 1, empty % 9 + 1);
    assert!(
        solved.contains("1 of your entries differ") && solved.contains(&cell),
        "{solved}"
    );
    let marked = browser.run(
        "return Array.from(document.querySelectorAll('#board .cell.error')).map(c => 'r' + c.dataset.row + 'c' + c.dataset.col)",
    );
    assert_eq!(marked, json!([cell]));
}

#[test]
fn ci_runs_the_browser_tests() {
    let installed = cfg!(browser);
    if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        assert!(
            installed,
            "CI must install chromium and chromium-driver (.ci/run) so that the browser tests run"
        );
    }
}
