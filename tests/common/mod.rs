//! Running the `xcover` binary from integration tests, as a user runs it.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Starts `xcover` with `args`, its three streams piped.
#[allow(dead_code)] // not every test file that includes this module starts processes itself
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `xcover` with `args`, feeding `stdin`, and returns what it did.
pub fn xcover(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(args);
    // A command that fails before reading (a usage error) may close its input first.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(error) = written {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().unwrap()
}

/// Standard output as text.
pub fn out(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error as text.
#[allow(dead_code)] // not every test file reads standard error
pub fn err(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The shared collection of variant puzzles, beside a development checkout.
#[allow(dead_code)] // only the variant tests read it
pub const SHARED_VARIANTS: &str = "../shared/data/variants";

/// Its files, one per variant, six puzzles each.
#[allow(dead_code)]
pub const SHARED_VARIANT_FILES: [&str; 9] = [
    "x.txt",
    "windoku.txt",
    "jigsaw.txt",
    "antiknight.txt",
    "antiking.txt",
    "nonconsecutive.txt",
    "killer.txt",
    "jigsaw6.txt",
    "x6.txt",
];

/// A minimal 25x25 puzzle whose first solution a one-thread search finds in about a tenth
/// of a second (debug and release builds alike, on this project's machine), but whose proof
/// of uniqueness takes 14 s in release and 18 s in the debug build (26,606 branch points):
/// made from a shuffled pattern grid, as `../shared/data/large-hard` was, by taking clues
/// out one at a time while it stayed unique (272 clues; CaDiCaL confirmed it unique).
#[allow(dead_code)] // for the tests that stop a long search
pub const SLOW_PROOF_25X25: &str = concat!(
    ".....GA.3BC.5..4KO9.7L6........76.JDBAG3.812..N.E......E.P.F.J....B.GD4.M9.",
    "DB...9.....F..N..L.6..C...J7HL.5C.8..4....N.PA..G.....5ME..O.NHP.GLA6.....1",
    "....4..J7N..G6A..5.8....OF...I.G.A...2D..14..H..P..N.P...85.K1...E.IM.G....",
    "BL...C9K4..O....N7.J.5.D...B.D1..M..E.OPJH......327HJ.6......9.1..EPO...AL.",
    "4..1M.J76..G.LD...35F.I.EI.FO.......283CK...4..7..5....O.IP.7.....G...K.4.9",
    ".IP..B...A1..8...E.O6.L.7.ADB2.M...N........L.9..5....G8C1...4.K...H...2...",
    "1.C8..PNHIL..JG.A.B.M.....4..EJ....3...2C.9.1P..F.G6L..519..E...F.PJ..38.AD",
    ".P.I..32...C..KO....LB...E........62D3...C.5...HI.9..5K..H....L7...8A..FE4.",
    ".D3A8..EF..PNIJ...7.1.9..",
);
