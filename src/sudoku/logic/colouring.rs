//! Colouring: one symbol's places, linked through the units where it has only two, coloured
//! in two colours so that linked places differ. In each cluster of linked places one colour
//! holds the symbol everywhere and the other nowhere.
//!
//! - Simple colouring: two places of one colour that see each other mean that colour is false
//!   (a colour wrap), and a place that sees both colours of a cluster cannot hold the symbol
//!   (a colour trap).
//! - Multi-colouring: a colour that sees both colours of another cluster is false; and when a
//!   colour of one cluster sees a colour of another, the two are not both true, so one of
//!   their opposites is, and a place that sees both opposites goes.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::position::{Position, bit};
use super::{ChainLink, ChainNode, Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

/// A cluster of places of one symbol linked through units where it has two places.
struct Cluster {
    /// The places of each colour, in the order they were reached.
    colours: [Vec<usize>; 2],
    /// The links between its places, each once.
    links: Vec<[usize; 2]>,
}

impl Cluster {
    /// The cluster's links, as a step draws them.
    fn chain_links(&self, p: &Position, value: u8) -> Vec<ChainLink> {
        let node = |cell: usize| ChainNode {
            cells: vec![p.cell(cell)],
            symbol: value,
        };
        self.links
            .iter()
            .map(|&[a, b]| ChainLink {
                from: node(a),
                to: node(b),
                strong: true,
            })
            .collect()
    }
}

/// The clusters of places of `value` with two places or more.
fn clusters(p: &Position, value: u8) -> Vec<Cluster> {
    let links = p.bilocal_units(value);
    let cells = p.candidates.len();
    let mut colour: Vec<Option<usize>> = vec![None; cells];
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for &(_, [a, b]) in &links {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    let mut found = Vec::new();
    for start in 0..cells {
        if neighbours[start].is_empty() || colour[start].is_some() {
            continue;
        }
        colour[start] = Some(0);
        let mut cluster = vec![(start, 0)];
        let mut cluster_links = Vec::new();
        let mut k = 0;
        while k < cluster.len() {
            let (cell, c) = cluster[k];
            for &next in &neighbours[cell] {
                if colour[next].is_none() {
                    colour[next] = Some(1 - c);
                    cluster.push((next, 1 - c));
                }
                if cell < next && !cluster_links.contains(&[cell, next]) {
                    cluster_links.push([cell, next]);
                }
            }
            k += 1;
        }
        let of = |wanted: usize| {
            cluster
                .iter()
                .filter(|&&(_, c)| c == wanted)
                .map(|&(x, _)| x)
                .collect()
        };
        found.push(Cluster {
            colours: [of(0), of(1)],
            links: cluster_links,
        });
    }
    found
}

/// The places of `value` outside `exclude` that see at least one of `a` and one of `b`.
fn seeing_both(p: &Position, value: u8, a: &[usize], b: &[usize], exclude: &[usize]) -> Vec<usize> {
    (0..p.candidates.len())
        .filter(|&c| p.candidates[c] & bit(value) != 0 && !exclude.contains(&c))
        .filter(|&c| {
            a.iter().any(|&x| p.layout.sees(c, x)) && b.iter().any(|&y| p.layout.sees(c, y))
        })
        .collect()
}

fn cells_text(p: &Position, cells: &[usize]) -> String {
    cells.iter().map(|&c| p.cell(c)).join(",")
}

pub(super) fn simple_colouring(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for value in 1..=p.size() as u8 {
        for cluster in clusters(p, value) {
            let [on, off] = &cluster.colours;
            let all: Vec<usize> = on.iter().chain(off).copied().collect();
            for (colour, other) in [(on, off), (off, on)] {
                if let Some([a, b]) = colour
                    .iter()
                    .array_combinations()
                    .find(|&[&a, &b]| p.layout.sees(a, b))
                {
                    let eliminations: Vec<(Cell, u8)> =
                        colour.iter().map(|&c| (p.cell(c), value)).collect();
                    visit(Step::eliminating(
                        Technique::SimpleColouring,
                        eliminations,
                        all.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "colouring {}: {} and {} have one colour and see each other, so {} hold {} and {} do not",
                            symbol_name(value),
                            p.cell(*a),
                            p.cell(*b),
                            cells_text(p, other),
                            symbol_name(value),
                            cells_text(p, colour)
                        ),
                    )
                    .with_links(cluster.chain_links(p, value)))?;
                }
            }
            let trapped = seeing_both(p, value, on, off, &all);
            if !trapped.is_empty() {
                visit(
                    Step::eliminating(
                        Technique::SimpleColouring,
                        trapped.iter().map(|&c| (p.cell(c), value)).collect(),
                        all.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "colouring {}: either {} or {} hold it",
                            symbol_name(value),
                            cells_text(p, on),
                            cells_text(p, off)
                        ),
                    )
                    .with_links(cluster.chain_links(p, value)),
                )?;
            }
        }
    }
    ControlFlow::Continue(())
}

pub(super) fn multi_colouring(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for value in 1..=p.size() as u8 {
        let found = clusters(p, value);
        let colours: Vec<&[Vec<usize>; 2]> = found.iter().map(|c| &c.colours).collect();
        let both = |i: usize, j: usize| {
            let mut links = found[i].chain_links(p, value);
            links.extend(found[j].chain_links(p, value));
            links
        };
        let sees =
            |x: &[usize], y: &[usize]| x.iter().any(|&a| y.iter().any(|&b| p.layout.sees(a, b)));
        // A colour that sees both colours of another cluster is false.
        for i in 0..colours.len() {
            for a in 0..2 {
                let Some(j) = (0..colours.len()).find(|&j| {
                    j != i
                        && sees(&colours[i][a], &colours[j][0])
                        && sees(&colours[i][a], &colours[j][1])
                }) else {
                    continue;
                };
                visit(
                    Step::eliminating(
                        Technique::MultiColouring,
                        colours[i][a].iter().map(|&c| (p.cell(c), value)).collect(),
                        colours[i]
                            .iter()
                            .chain(colours[j])
                            .flatten()
                            .map(|&c| p.cell(c))
                            .collect(),
                        format!(
                            "colouring {}: {} see both {} and {}, one of which holds it",
                            symbol_name(value),
                            cells_text(p, &colours[i][a]),
                            cells_text(p, &colours[j][0]),
                            cells_text(p, &colours[j][1])
                        ),
                    )
                    .with_links(both(i, j)),
                )?;
            }
        }
        for [i, j] in (0..colours.len()).array_combinations() {
            for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                if !sees(&colours[i][a], &colours[j][b]) {
                    continue;
                }
                let (left, right) = (&colours[i][1 - a], &colours[j][1 - b]);
                let members: Vec<usize> = colours[i]
                    .iter()
                    .chain(colours[j])
                    .flatten()
                    .copied()
                    .collect();
                let targets = seeing_both(p, value, left, right, &members);
                if targets.is_empty() {
                    continue;
                }
                visit(
                    Step::eliminating(
                        Technique::MultiColouring,
                        targets.iter().map(|&c| (p.cell(c), value)).collect(),
                        members.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "colouring {}: {} and {} see each other, so {} or {} hold it",
                            symbol_name(value),
                            cells_text(p, &colours[i][a]),
                            cells_text(p, &colours[j][b]),
                            cells_text(p, left),
                            cells_text(p, right)
                        ),
                    )
                    .with_links(both(i, j)),
                )?;
            }
        }
    }
    ControlFlow::Continue(())
}
