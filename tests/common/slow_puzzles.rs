//! Large puzzles whose searches run long enough to be stopped half-way: by Ctrl-C in the
//! command-line tests, by the server's time limit in the server and browser tests. Both were
//! made outside the tests, from shuffled pattern grids as `../shared/data/large-hard` was, and
//! confirmed unique by CaDiCaL; the times are this project's machine's.

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

/// Another minimal 25x25 puzzle made the same way (270 clues), on which the human-style
/// solver stalls and a one-thread search needs 12,883 branch points, about 7 s in release,
/// to find even the first solution.
#[allow(dead_code)] // for the tests that stop a long search
pub const SLOW_FIRST_SOLUTION_25X25: &str = concat!(
    "N41K......H..8JG.I.6.BOA.J8...DC6.G3..B5.1.K..7..2..3.A..N4..E......9JC....",
    ".I..........K..EF7.2..9.J2.F..9..8L.G.I.A3...1..P.MF.758L.H..2.C.....O.1..K",
    "9H....G..2..B..6....E.7.M.1P.....F..N8....CIDA3BJ...AB.4..1...7.M.LH8.....D",
    ".C.I.B.O..P...K5EF7....N.1..PI.OF.BK.L.H.M2GC9..8...K..G.......J3I....O..BF",
    ".J.A8..16I..E...K..H.2......G7A93...I.61......NL4..5...LK...M7..C.9J..D6...",
    "GM..F.....I...P3..5.4.N1..D.6..BE....N..F.....9.HA..B53...K.7...G..9JA.D6..",
    ".98..6..D.B.....4...7M2FG..4N.27.M.8H...C..6.BO.3E7...O.N..K2MC.I.J.3.6P...",
    "..NH...IGM.......P1...F.74....F5.E..KH..M.G.I..39.B.J..1.4PD5...7K.L..2....",
    ".G2CM.J.A9...P4.5EF......",
);
