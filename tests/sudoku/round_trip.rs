//! Round trips of the text formats, as a property: for every box shape of sides 4 to 16
//! (both orientations of non-square boxes, and boxes one cell wide), every layout the project
//! writes, and random grids, what is written reads back as the same grid and shape, with and
//! without the shape given (`--box`).

use proptest::prelude::*;
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::{BoxShape, Grid};

fn shapes() -> Vec<BoxShape> {
    let mut shapes = Vec::new();
    for rows in 1..=16 {
        for cols in 1..=16 {
            if (4..=16).contains(&(rows * cols)) {
                shapes.push(BoxShape::new(rows, cols).unwrap());
            }
        }
    }
    shapes
}

/// A random grid of a random shape: any symbols, blanks included (the reader does not care
/// whether the clues clash).
fn grids() -> impl Strategy<Value = Grid> {
    proptest::sample::select(shapes()).prop_flat_map(|shape| {
        let n = shape.size() as u8;
        proptest::collection::vec(prop_oneof![2 => Just(0u8), 3 => 1..=n], shape.cells())
            .prop_map(move |cells| Grid::from_cells(shape, cells).unwrap())
    })
}

/// The JSON record that `sudoku generate --format json` writes, reduced to what is read.
fn json(grid: &Grid) -> String {
    let rows: Vec<String> = grid
        .cells()
        .chunks(grid.size())
        .map(|row| {
            format!(
                "[{}]",
                row.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    format!(
        r#"{{"boxes":"{}","clues":0,"puzzle":[{}]}}"#,
        grid.shape(),
        rows.join(",")
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn what_is_written_reads_back(grid in grids()) {
        let mut texts: Vec<(String, String)> = [Layout::Line, Layout::NumberLine, Layout::Grid, Layout::Numbers]
            .iter()
            .map(|&layout| (format!("{layout:?}"), text::write(&grid, layout)))
            .collect();
        texts.push(("json".to_string(), json(&grid)));
        for (layout, written) in &texts {
            for given in [None, Some(grid.shape())] {
                let read = text::parse(written, given);
                prop_assert_eq!(read.len(), 1, "{} {:?}:\n{}", layout, given, written);
                let puzzle = read.into_iter().next().unwrap();
                prop_assert!(puzzle.is_ok(), "{} {:?}: {:?}\n{}", layout, given, puzzle, written);
                let puzzle = puzzle.unwrap();
                prop_assert_eq!(&puzzle.grid, &grid, "{} {:?}:\n{}", layout, given, written);
            }
        }
        // Several puzzles in one file, each in its layout, blank lines between them.
        let file = texts.iter().map(|(_, t)| t.trim_end().to_string()).collect::<Vec<_>>().join("\n\n");
        let read: Vec<_> = text::parse(&file, None);
        prop_assert_eq!(read.len(), texts.len(), "{}", file);
        for puzzle in read {
            prop_assert_eq!(&puzzle.unwrap().grid, &grid);
        }
    }
}
