//! Chains: alternating inference between candidates, from the two-link patterns (skyscraper,
//! two-string kite, turbot fish, empty rectangle, W-wing) to X-chains, XY-chains and general
//! alternating inference chains, grouped nodes among them.
//!
//! A chain reads two kinds of link between candidates (a symbol in a cell). A strong link says
//! that at least one of two candidates is true: the two candidates of a cell that has only
//! two, or the two places a symbol has left in a complete unit. A weak link says that two
//! candidates are not both true: two symbols of one cell, one symbol in two peers, or any two
//! that a rule between the cells forbids together (a thermometer, a dot, the non-consecutive
//! rule), which is what makes the chains work on variants too. A group stands for the places
//! of a symbol where a box meets a row or a column (true when one of them holds it), linked
//! as a place is: strongly where a unit's places are the group and one more node, weakly to
//! places that see all of it. A chain starts and ends with a
//! strong link and alternates: if its first candidate is false its second is true, so its
//! third is false, and so on to its last, which is then true. So the first or the last is
//! true, and any candidate that excludes both goes.
//!
//! Each technique here is the same search with a narrower choice of links: one symbol and
//! unit links only (X-chains), cells with two candidates only (XY-chains), or a fixed pattern
//! (W-wing). The search runs breadth first from every candidate, so each start gives its
//! shortest chain, and the steps come shortest first.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use itertools::Itertools;

use super::position::{LastPosition, Position, UnitKind, bit, symbols};
use super::{ChainLink, ChainNode, Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

/// The longest chain tried, in links (odd: a chain starts and ends with a strong link).
const MAX_LINKS: usize = 23;

/// A link of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Link {
    /// The cell has only these two candidates.
    StrongCell,
    /// The symbol has only these two places in this complete unit.
    StrongUnit(usize),
    /// Two symbols of one cell.
    WeakCell,
    /// One symbol in two cells that see each other.
    WeakPeer,
    /// Two symbols in two cells that a rule between them forbids together.
    WeakRule,
}

impl Link {
    fn is_strong(self) -> bool {
        matches!(self, Link::StrongCell | Link::StrongUnit(_))
    }
}

/// Which links a search may use.
struct Shape {
    /// Only candidates of this symbol.
    value: Option<u8>,
    /// The most links.
    max_links: usize,
    /// Whether a link may stand at this place (0 for the first) of a chain.
    allows: fn(usize, Link) -> bool,
}

/// A candidate, numbered `cell * n + value - 1`; or, from `cells * n` on, a group: the places
/// of one symbol where a box (or another area) meets a row or a column, true when one of them
/// holds the symbol.
type Node = usize;

/// A chain found: its candidates and the links between them, and what it removes.
struct Chain {
    nodes: Vec<Node>,
    links: Vec<Link>,
    eliminations: Vec<Node>,
}

/// The candidates of a position and every link between them.
struct Graph<'p> {
    p: &'p Position,
    n: usize,
    /// The first group's number: the number of candidate nodes.
    base: usize,
    web: Rc<Web>,
}

/// A graph's nodes and links, which the chain techniques tried one after another on one
/// position share (the last position's is kept).
struct Web {
    /// The links a chain may take from each candidate, strong and weak.
    links: Vec<Vec<(Node, Link)>>,
    /// Every live candidate that excludes each node (a chain's targets; candidates only).
    excluders: Vec<Vec<Node>>,
    /// Each group's symbol and cells.
    groups: Vec<(u8, Vec<usize>)>,
}

impl<'p> Graph<'p> {
    /// The graph of `p`'s candidates: the last one built, when it was built on the same
    /// position (another chain technique asked for it), else a new one.
    fn new(p: &'p Position) -> Graph<'p> {
        thread_local! {
            static LAST: RefCell<LastPosition<Rc<Web>>> = const { RefCell::new(LastPosition::new()) };
        }
        let web = LAST.with(|last| last.borrow_mut().get_or(p, || Rc::new(Web::new(p))));
        Graph {
            p,
            n: p.size(),
            base: p.candidates.len() * p.size(),
            web,
        }
    }
}

impl Web {
    /// Every candidate of `p` with its links, and the groups with theirs.
    fn new(p: &Position) -> Web {
        let n = p.size();
        let cells = p.candidates.len();
        let mut links = vec![Vec::new(); cells * n];
        let mut excluders = vec![Vec::new(); cells * n];
        let mut strong_units = vec![Vec::new(); cells * n];
        for value in 1..=n as u8 {
            for (u, [a, b]) in p.bilocal_units(value) {
                let v = usize::from(value) - 1;
                strong_units[a * n + v].push((b * n + v, Link::StrongUnit(u)));
                strong_units[b * n + v].push((a * n + v, Link::StrongUnit(u)));
            }
        }
        let layout = &*p.layout;
        let node_of = |cell: usize, value: u8| cell * n + usize::from(value) - 1;
        for cell in (0..cells).filter(|&c| p.candidates[c] != 0) {
            let mask = p.candidates[cell];
            for x in symbols(mask) {
                let node = node_of(cell, x);
                let mut weak: Vec<(Node, Link)> = Vec::new();
                for y in symbols(mask & !bit(x)) {
                    weak.push((node_of(cell, y), Link::WeakCell));
                }
                for (other, gone) in layout.removals(cell, x) {
                    for y in symbols(p.candidates[other] & gone) {
                        let link = if x == y {
                            Link::WeakPeer
                        } else {
                            Link::WeakRule
                        };
                        weak.push((node_of(other, y), link));
                    }
                }
                weak.sort_by_key(|&(to, _)| to);
                weak.dedup_by_key(|&mut (to, _)| to);
                excluders[node] = weak.iter().map(|&(to, _)| to).collect();
                let mut out: Vec<(Node, Link)> = Vec::new();
                if mask.count_ones() == 2 {
                    let y = symbols(mask & !bit(x)).next().unwrap_or(x);
                    out.push((node_of(cell, y), Link::StrongCell));
                }
                out.extend(strong_units[node].iter().copied());
                out.extend(weak);
                links[node] = out;
            }
        }
        let mut web = Web {
            links,
            excluders,
            groups: Vec::new(),
        };
        web.add_groups(p, cells * n);
        web
    }

    /// Adds the groups and their links: strong where a unit's places of a symbol are two
    /// nodes, one of them a group; weak between nodes of one symbol whose cells all see
    /// each other.
    fn add_groups(&mut self, p: &Position, base: usize) {
        let n = p.size();
        let units = p.units();
        let lines: Vec<usize> = (0..units.len())
            .filter(|&u| matches!(units[u].kind, UnitKind::Row | UnitKind::Column))
            .collect();
        let areas: Vec<usize> = (0..units.len())
            .filter(|&u| units[u].kind == UnitKind::Area)
            .collect();
        // Where an area meets a line in two cells or more, each such set of cells once.
        let mut meetings: Vec<Vec<usize>> = Vec::new();
        for &area in &areas {
            for &line in &lines {
                let cells: Vec<usize> = units[area]
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| units[line].cells.contains(c))
                    .collect();
                if cells.len() >= 2 && !meetings.contains(&cells) {
                    meetings.push(cells);
                }
            }
        }
        for value in 1..=n as u8 {
            let first = self.groups.len();
            for meeting in &meetings {
                let cells: Vec<usize> = meeting
                    .iter()
                    .copied()
                    .filter(|&c| p.candidates[c] & bit(value) != 0)
                    .collect();
                if cells.len() >= 2 && !self.groups[first..].iter().any(|(_, g)| *g == cells) {
                    self.groups.push((value, cells));
                }
            }
            let groups: Vec<usize> = (first..self.groups.len()).collect();
            if groups.is_empty() {
                continue;
            }
            let node_of = |cell: usize| cell * n + usize::from(value) - 1;
            let sees_all = |cell: usize, group: &[usize]| {
                !group.contains(&cell) && group.iter().all(|&g| p.layout.sees(cell, g))
            };
            for &g in &groups {
                let node = base + g;
                self.links.push(Vec::new());
                self.excluders.push(Vec::new());
                let cells = self.groups[g].1.clone();
                for c in (0..p.candidates.len()).filter(|&c| p.candidates[c] & bit(value) != 0) {
                    if sees_all(c, &cells) {
                        self.excluders[node].push(node_of(c));
                        self.links[node].push((node_of(c), Link::WeakPeer));
                        self.links[node_of(c)].push((node, Link::WeakPeer));
                    }
                }
                for &h in &groups {
                    let other = &self.groups[h].1;
                    if h != g && cells.iter().all(|&c| sees_all(c, other)) {
                        self.links[node].push((base + h, Link::WeakPeer));
                    }
                }
            }
            // Strong links: the places of the symbol in a complete unit, as two nodes.
            for (u, unit) in units.iter().enumerate() {
                if !unit.is_complete() || p.placed(u) & bit(value) != 0 {
                    continue;
                }
                let places = p.places(u, value);
                let inside: Vec<usize> = groups
                    .iter()
                    .copied()
                    .filter(|&g| self.groups[g].1.iter().all(|c| unit.cells.contains(c)))
                    .collect();
                for &g in &inside {
                    let cells = &self.groups[g].1;
                    let rest: Vec<usize> = places
                        .iter()
                        .copied()
                        .filter(|c| !cells.contains(c))
                        .collect();
                    let other = match rest[..] {
                        [] => continue,
                        [single] => node_of(single),
                        _ => match inside.iter().find(|&&h| self.groups[h].1 == rest) {
                            Some(&h) => base + h,
                            None => continue,
                        },
                    };
                    let node = base + g;
                    self.links[node].push((other, Link::StrongUnit(u)));
                    if other < base {
                        self.links[other].push((node, Link::StrongUnit(u)));
                    }
                }
            }
        }
    }
}

impl<'p> Graph<'p> {
    /// The cell of a candidate node (the first cell of a group).
    fn cell(&self, node: Node) -> usize {
        match node.checked_sub(self.base) {
            Some(g) => self.web.groups[g].1[0],
            None => node / self.n,
        }
    }

    fn value(&self, node: Node) -> u8 {
        match node.checked_sub(self.base) {
            Some(g) => self.web.groups[g].0,
            None => (node % self.n) as u8 + 1,
        }
    }

    fn is_group(&self, node: Node) -> bool {
        node >= self.base
    }

    /// The node's cells: one, or a group's.
    fn cells(&self, node: Node) -> Vec<usize> {
        match node.checked_sub(self.base) {
            Some(g) => self.web.groups[g].1.clone(),
            None => vec![node / self.n],
        }
    }

    /// The node's cells, as people write them: `r1c2` or `r1c2,r1c3`.
    fn cells_text(&self, node: Node) -> String {
        self.cells(node).iter().map(|&c| self.p.cell(c)).join(",")
    }

    /// The node as a step shows it.
    fn chain_node(&self, node: Node) -> ChainNode {
        ChainNode {
            cells: self.cells(node).iter().map(|&c| self.p.cell(c)).collect(),
            symbol: self.value(node),
        }
    }

    /// Whether candidate `c` and node `x` are not both true.
    fn excludes(&self, c: Node, x: Node) -> bool {
        let (cell, value) = (self.cell(c), self.value(c));
        match x.checked_sub(self.base) {
            Some(g) => {
                let (v, cells) = &self.web.groups[g];
                value == *v
                    && !cells.contains(&cell)
                    && cells.iter().all(|&other| self.p.layout.sees(cell, other))
            }
            None => self.p.excludes(cell, value, self.cell(x), self.value(x)),
        }
    }

    /// The live candidates that exclude both `a` and `b` (other than either).
    fn targets(&self, a: Node, b: Node) -> Vec<Node> {
        self.web.excluders[a]
            .iter()
            .copied()
            .filter(|&c| c != b && self.excludes(c, b))
            .collect()
    }

    /// The chains from `start` (taken as false), the shortest to each end that some
    /// candidate excludes together with `start`, within the shape's length. `search` is
    /// scratch space, left as it was found.
    fn chains_from(&self, start: Node, shape: &Shape, search: &mut Search, found: &mut Vec<Chain>) {
        // State `2 * node + on`: the node reached false (0) or true (1).
        search.reach(2 * start, 0, None);
        let mut head = 0;
        while head < search.queue.len() {
            let state = search.queue[head];
            head += 1;
            let (node, on) = (state / 2, state % 2 == 1);
            let d = search.depth[state] as usize;
            if on && node != start {
                let eliminations = self.targets(start, node);
                if !eliminations.is_empty() {
                    let mut nodes = vec![node];
                    let mut links = Vec::new();
                    let mut at = state;
                    while let Some((before, link)) = search.previous[at] {
                        nodes.push(before / 2);
                        links.push(link);
                        at = before;
                    }
                    nodes.reverse();
                    links.reverse();
                    found.push(Chain {
                        nodes,
                        links,
                        eliminations,
                    });
                }
            }
            if d >= shape.max_links {
                continue;
            }
            for &(next, link) in &self.web.links[node] {
                // From a false candidate a strong link makes the next true; from a true one
                // a weak link makes the next false.
                if link.is_strong() == on
                    || !(shape.allows)(d, link)
                    || shape.value.is_some_and(|v| self.value(next) != v)
                {
                    continue;
                }
                let reached = 2 * next + usize::from(!on);
                if search.depth[reached] == u32::MAX {
                    search.reach(reached, d as u32 + 1, Some((state, link)));
                }
            }
        }
        search.clear();
    }

    /// The chains of every start, shortest first; a chain that removes the same candidates
    /// as a shorter one is left out.
    fn chains(&self, shape: &Shape) -> Vec<Chain> {
        let mut search = Search::new(2 * self.web.links.len());
        let mut found = Vec::new();
        for start in 0..self.web.links.len() {
            if self.p.stopped() {
                break;
            }
            if !self.web.links[start].is_empty()
                && shape.value.is_none_or(|v| self.value(start) == v)
            {
                self.chains_from(start, shape, &mut search, &mut found);
            }
        }
        found.sort_by_key(|chain| chain.links.len());
        let mut seen: Vec<Vec<Node>> = Vec::new();
        found
            .into_iter()
            .filter(|chain| {
                let mut gone = chain.eliminations.clone();
                gone.sort_unstable();
                if seen.contains(&gone) {
                    false
                } else {
                    seen.push(gone);
                    true
                }
            })
            .collect()
    }

    /// A chain in Eureka notation: `(5)r1c2=(5)r1c8-(5)r7c8=(5)r7c2`, or for cell links
    /// `(4=7)r1c1-(7=2)r1c5`.
    fn notation(&self, chain: &Chain) -> String {
        let mut text = String::new();
        let mut k = 0;
        while k < chain.nodes.len() {
            let node = chain.nodes[k];
            let cell = self.cells_text(node);
            if k + 1 < chain.nodes.len() && chain.links[k] == Link::StrongCell {
                let next = chain.nodes[k + 1];
                text.push_str(&format!(
                    "({}={}){cell}",
                    symbol_name(self.value(node)),
                    symbol_name(self.value(next))
                ));
                k += 1;
            } else {
                text.push_str(&format!("({}){cell}", symbol_name(self.value(node))));
            }
            if k + 1 < chain.nodes.len() {
                text.push(if chain.links[k].is_strong() { '=' } else { '-' });
            }
            k += 1;
        }
        text
    }

    fn step(&self, technique: Technique, chain: &Chain) -> Step {
        let (first, last) = (chain.nodes[0], chain.nodes[chain.nodes.len() - 1]);
        let name = |node: Node| {
            format!(
                "{} in {}",
                symbol_name(self.value(node)),
                self.cells_text(node)
            )
        };
        let eliminations: Vec<(Cell, u8)> = chain
            .eliminations
            .iter()
            .map(|&node| (self.p.cell(self.cell(node)), self.value(node)))
            .sorted()
            .collect();
        let reasons = chain
            .nodes
            .iter()
            .flat_map(|&node| self.cells(node))
            .map(|cell| self.p.cell(cell))
            .dedup()
            .collect();
        let links = chain
            .nodes
            .iter()
            .tuple_windows()
            .zip(&chain.links)
            .map(|((&from, &to), link)| ChainLink {
                from: self.chain_node(from),
                to: self.chain_node(to),
                strong: link.is_strong(),
            })
            .collect();
        Step::eliminating(
            technique,
            eliminations,
            reasons,
            format!(
                "{}: {} or {} is true",
                self.notation(chain),
                name(first),
                name(last)
            ),
        )
        .with_links(links)
    }
}

/// The breadth-first search's arrays, one entry per candidate and truth.
struct Search {
    depth: Vec<u32>,
    previous: Vec<Option<(usize, Link)>>,
    /// The states reached, in order (the queue, and what to clear).
    queue: Vec<usize>,
}

impl Search {
    fn new(states: usize) -> Search {
        Search {
            depth: vec![u32::MAX; states],
            previous: vec![None; states],
            queue: Vec::new(),
        }
    }

    fn reach(&mut self, state: usize, depth: u32, previous: Option<(usize, Link)>) {
        self.depth[state] = depth;
        self.previous[state] = previous;
        self.queue.push(state);
    }

    fn clear(&mut self) {
        for &state in &self.queue {
            self.depth[state] = u32::MAX;
            self.previous[state] = None;
        }
        self.queue.clear();
    }
}

/// Any link anywhere.
fn any_link(_: usize, _: Link) -> bool {
    true
}

/// Unit links and peers of one symbol (X-chains and their short forms).
fn unit_links(_: usize, link: Link) -> bool {
    matches!(link, Link::StrongUnit(_) | Link::WeakPeer)
}

/// Cells of two candidates, linked by a symbol they share (XY-chains).
fn cell_links(_: usize, link: Link) -> bool {
    matches!(link, Link::StrongCell | Link::WeakPeer)
}

/// A W-wing: two cells of the same two candidates, each seeing one end of a unit link of one
/// of them.
fn w_wing_links(at: usize, link: Link) -> bool {
    match at {
        0 | 4 => link == Link::StrongCell,
        1 | 3 => link == Link::WeakPeer,
        2 => matches!(link, Link::StrongUnit(_)),
        _ => false,
    }
}

/// What a single-symbol chain of three links is called, from its two unit links: two
/// parallel lines make a skyscraper, a row and a column a two-string kite, anything else
/// (a box, a region) a turbot fish.
fn turbot_name(p: &Position, chain: &Chain) -> Technique {
    let kinds: Vec<UnitKind> = chain
        .links
        .iter()
        .filter_map(|&link| match link {
            Link::StrongUnit(u) => Some(p.units()[u].kind),
            _ => None,
        })
        .collect();
    match kinds[..] {
        [UnitKind::Row, UnitKind::Row] | [UnitKind::Column, UnitKind::Column] => {
            Technique::Skyscraper
        }
        [UnitKind::Row, UnitKind::Column] | [UnitKind::Column, UnitKind::Row] => {
            Technique::TwoStringKite
        }
        _ => Technique::TurbotFish,
    }
}

/// Skyscrapers, two-string kites, turbot fish and empty rectangles (whichever `technique`
/// names): a symbol with two places in each of two units, one place of each seeing the
/// other's; in an empty rectangle one of those places is a group, the places of the symbol
/// in a box that lie in one row or column (the box's others lying in one column or row).
pub(super) fn turbot(p: &Position, technique: Technique, visit: Visit<'_>) -> ControlFlow<()> {
    // The four names come from one search, tried one after another on the same position.
    thread_local! {
        static LAST: RefCell<LastPosition<Vec<Step>>> = const { RefCell::new(LastPosition::new()) };
    }
    let steps = LAST.with(|last| last.borrow_mut().get_or(p, || turbot_steps(p)));
    for step in steps.into_iter().filter(|step| step.technique == technique) {
        visit(step)?;
    }
    ControlFlow::Continue(())
}

/// Every single-symbol chain of three links, named.
fn turbot_steps(p: &Position) -> Vec<Step> {
    let graph = Graph::new(p);
    let mut steps = Vec::new();
    for value in 1..=p.size() as u8 {
        let shape = Shape {
            value: Some(value),
            max_links: 3,
            allows: unit_links,
        };
        for chain in graph.chains(&shape) {
            if chain.links.len() != 3 {
                continue;
            }
            let grouped = chain.nodes.iter().any(|&node| graph.is_group(node));
            let name = if grouped {
                Technique::EmptyRectangle
            } else {
                turbot_name(p, &chain)
            };
            steps.push(graph.step(name, &chain));
        }
    }
    steps
}

/// X-chains: one symbol, linked through the units where it has two places.
pub(super) fn x_chain(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let graph = Graph::new(p);
    for value in 1..=p.size() as u8 {
        let shape = Shape {
            value: Some(value),
            max_links: MAX_LINKS,
            allows: unit_links,
        };
        for chain in graph.chains(&shape) {
            visit(graph.step(Technique::XChain, &chain))?;
        }
    }
    ControlFlow::Continue(())
}

/// W-wings: two cells with the same two candidates {x,y}, and a unit where y has two places,
/// each seen by one of the cells: one of the cells is x.
pub(super) fn w_wing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let shape = Shape {
        value: None,
        max_links: 5,
        allows: w_wing_links,
    };
    let graph = Graph::new(p);
    for chain in graph.chains(&shape) {
        let ends = (chain.nodes[0], chain.nodes[chain.nodes.len() - 1]);
        let pair = |node: Node| p.candidates[graph.cell(node)];
        if chain.links.len() == 5
            && graph.value(ends.0) == graph.value(ends.1)
            && pair(ends.0) == pair(ends.1)
        {
            visit(graph.step(Technique::WWing, &chain))?;
        }
    }
    ControlFlow::Continue(())
}

/// XY-chains (remote pairs when every cell has the same two candidates): cells of two
/// candidates, each linked to the next by a symbol they share.
pub(super) fn xy_chain(p: &Position, technique: Technique, visit: Visit<'_>) -> ControlFlow<()> {
    let shape = Shape {
        value: None,
        max_links: MAX_LINKS,
        allows: cell_links,
    };
    let graph = Graph::new(p);
    for chain in graph.chains(&shape) {
        let remote = chain
            .nodes
            .iter()
            .map(|&node| p.candidates[graph.cell(node)])
            .all_equal();
        let name = if remote && chain.links.len() >= 7 {
            Technique::RemotePair
        } else {
            Technique::XyChain
        };
        if name == technique {
            visit(graph.step(technique, &chain))?;
        }
    }
    ControlFlow::Continue(())
}

/// Alternating inference chains: any strong and weak links, through cells, units and every
/// rule that relates two cells.
pub(super) fn aic(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let shape = Shape {
        value: None,
        max_links: MAX_LINKS,
        allows: any_link,
    };
    let graph = Graph::new(p);
    for chain in graph.chains(&shape) {
        visit(graph.step(Technique::Aic, &chain))?;
    }
    ControlFlow::Continue(())
}
