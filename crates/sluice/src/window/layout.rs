//! The split tree of one tab: which pane has which part of the window, in cells.
//!
//! Panes are placed on the window's cell grid, and a split's border is one cell wide, drawn
//! with box-drawing characters by the same renderer as the panes (as WezTerm does). Working
//! in cells keeps every pane pixel-aligned with the others, so a pane's frame texture is
//! copied onto the window as it is, and a border is hit-tested like any cell.

use crate::events::PaneId;

/// A rectangle of cells: its top-left cell and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellRect {
    pub col: usize,
    pub row: usize,
    pub cols: usize,
    pub rows: usize,
}

impl CellRect {
    /// Rows as columns and columns as rows.
    fn transposed(self) -> CellRect {
        CellRect {
            col: self.row,
            row: self.col,
            cols: self.rows,
            rows: self.cols,
        }
    }

    pub fn contains(&self, col: usize, row: usize) -> bool {
        (self.col..self.col + self.cols).contains(&col)
            && (self.row..self.row + self.rows).contains(&row)
    }

    fn center(&self) -> (f64, f64) {
        (
            self.col as f64 + self.cols as f64 / 2.0,
            self.row as f64 + self.rows as f64 / 2.0,
        )
    }
}

/// How a split divides its area.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum SplitDirection {
    /// The new pane goes to the right: side by side, a vertical border between.
    Right,
    /// The new pane goes below: one above the other, a horizontal border between.
    Down,
}

/// A direction to move the focus in, or to move a border towards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Towards {
    Left,
    Right,
    Up,
    Down,
}

impl Towards {
    fn axis(self) -> SplitDirection {
        match self {
            Towards::Left | Towards::Right => SplitDirection::Right,
            Towards::Up | Towards::Down => SplitDirection::Down,
        }
    }

    fn sign(self) -> i64 {
        match self {
            Towards::Left | Towards::Up => -1,
            Towards::Right | Towards::Down => 1,
        }
    }
}

/// The smallest pane a split may leave: the terminal's own minimum width, one row.
const MIN_COLS: usize = sluice_pty::WinSize::MIN_COLS as usize;
const MIN_ROWS: usize = 1;

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Leaf(PaneId),
    Split {
        direction: SplitDirection,
        /// Cells given to `first`, out of what the area has after the border. Kept in cells,
        /// not as a ratio, so a resize by keys moves the border exactly one cell.
        first_cells: usize,
        first: Box<Node>,
        second: Box<Node>,
    },
}

/// A split's border as placed: where it is and which split it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Border {
    pub rect: CellRect,
    pub direction: SplitDirection,
    /// The way from the root to the split: `false` goes to the first child.
    path: Vec<bool>,
}

impl Border {
    /// Whether `other` is the same split's border (perhaps since moved).
    pub fn same_split(&self, other: &Border) -> bool {
        self.path == other.path
    }
}

/// One tab's panes and how they divide its area.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    root: Node,
}

impl Layout {
    pub fn new(pane: PaneId) -> Self {
        Self {
            root: Node::Leaf(pane),
        }
    }

    /// The panes, in reading order (left to right, top to bottom through the tree).
    pub fn panes(&self) -> Vec<PaneId> {
        fn walk(node: &Node, out: &mut Vec<PaneId>) {
            match node {
                Node::Leaf(id) => out.push(*id),
                Node::Split { first, second, .. } => {
                    walk(first, out);
                    walk(second, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }

    pub fn contains(&self, pane: PaneId) -> bool {
        self.panes().contains(&pane)
    }

    /// Splits `target`'s place in two within `area`, `new` getting the right or lower half.
    /// Refused (false) when either half would be smaller than a terminal can be.
    pub fn split(
        &mut self,
        area: CellRect,
        target: PaneId,
        direction: SplitDirection,
        new: PaneId,
    ) -> bool {
        let Some(rect) = self.rect_of(area, target) else {
            return false;
        };
        let (length, min) = match direction {
            SplitDirection::Right => (rect.cols, MIN_COLS),
            SplitDirection::Down => (rect.rows, MIN_ROWS),
        };
        if length < 2 * min + 1 {
            return false;
        }
        let Some(node) = find_leaf(&mut self.root, target) else {
            return false;
        };
        *node = Node::Split {
            direction,
            first_cells: (length - 1) / 2,
            first: Box::new(Node::Leaf(target)),
            second: Box::new(Node::Leaf(new)),
        };
        true
    }

    /// Takes `pane` out; its sibling takes the whole of their split. False if `pane` is the
    /// only one (the tab ends with it) or not here.
    pub fn remove(&mut self, pane: PaneId) -> bool {
        fn remove_in(node: &mut Node, pane: PaneId) -> bool {
            let Node::Split { first, second, .. } = node else {
                return false;
            };
            let keep = match (&**first, &**second) {
                (Node::Leaf(id), _) if *id == pane => Some((**second).clone()),
                (_, Node::Leaf(id)) if *id == pane => Some((**first).clone()),
                _ => None,
            };
            match keep {
                Some(kept) => {
                    *node = kept;
                    true
                }
                None => remove_in(first, pane) || remove_in(second, pane),
            }
        }
        remove_in(&mut self.root, pane)
    }

    /// Where each pane goes in `area`, and the borders between them.
    pub fn place(&self, area: CellRect) -> (Vec<(PaneId, CellRect)>, Vec<Border>) {
        let (mut panes, mut borders) = (Vec::new(), Vec::new());
        place_in(&self.root, area, &mut Vec::new(), &mut panes, &mut borders);
        (panes, borders)
    }

    pub fn rect_of(&self, area: CellRect, pane: PaneId) -> Option<CellRect> {
        self.place(area)
            .0
            .into_iter()
            .find_map(|(id, rect)| (id == pane).then_some(rect))
    }

    /// The pane next to `from` towards `towards`: of those whose edge touches `from`'s on
    /// that side, the one nearest its centre.
    pub fn neighbour(&self, area: CellRect, from: PaneId, towards: Towards) -> Option<PaneId> {
        let (panes, _) = self.place(area);
        let here = panes.iter().find(|(id, _)| *id == from)?.1;
        let touches = |r: &CellRect| match towards {
            // One cell apart: the border between them.
            Towards::Left => r.col + r.cols + 1 == here.col,
            Towards::Right => here.col + here.cols + 1 == r.col,
            Towards::Up => r.row + r.rows + 1 == here.row,
            Towards::Down => here.row + here.rows + 1 == r.row,
        };
        let overlaps = |r: &CellRect| match towards.axis() {
            SplitDirection::Right => r.row < here.row + here.rows && here.row < r.row + r.rows,
            SplitDirection::Down => r.col < here.col + here.cols && here.col < r.col + r.cols,
        };
        let (cx, cy) = here.center();
        panes
            .iter()
            .filter(|(id, r)| *id != from && touches(r) && overlaps(r))
            .min_by(|(_, a), (_, b)| {
                let d = |r: &CellRect| {
                    let (x, y) = r.center();
                    (x - cx).abs() + (y - cy).abs()
                };
                d(a).total_cmp(&d(b))
            })
            .map(|(id, _)| *id)
    }

    /// Moves the border nearest `pane` on the `towards` axis by `cells` in that direction
    /// (growing or shrinking the pane). False when there is no such border or it cannot move.
    pub fn resize(&mut self, area: CellRect, pane: PaneId, towards: Towards, cells: usize) -> bool {
        // The innermost split along the axis that holds the pane.
        let Some(path) = path_to(&self.root, pane) else {
            return false;
        };
        let axis = towards.axis();
        let mut best = None;
        let mut node = &self.root;
        for (depth, &second) in path.iter().enumerate() {
            let Node::Split {
                direction,
                first,
                second: s,
                ..
            } = node
            else {
                break;
            };
            if *direction == axis {
                best = Some(path[..depth].to_vec());
            }
            node = if second { s } else { first };
        }
        let Some(split) = best else {
            return false;
        };
        let Some(border) = self.place(area).1.into_iter().find(|b| b.path == split) else {
            return false;
        };
        let at = match axis {
            SplitDirection::Right => border.rect.col as i64,
            SplitDirection::Down => border.rect.row as i64,
        };
        self.drag(area, &border, at + towards.sign() * cells as i64)
    }

    /// Moves `border` so that it sits at column (or row) `to`, as far as the panes on either
    /// side allow. False if it did not move.
    pub fn drag(&mut self, area: CellRect, border: &Border, to: i64) -> bool {
        let Some(split_area) = area_of(&self.root, area, &border.path) else {
            return false;
        };
        let Some(Node::Split {
            direction,
            first_cells,
            ..
        }) = node_at(&mut self.root, &border.path)
        else {
            return false;
        };
        let (start, length, min) = match direction {
            SplitDirection::Right => (split_area.col, split_area.cols, MIN_COLS),
            SplitDirection::Down => (split_area.row, split_area.rows, MIN_ROWS),
        };
        if length < 2 * min + 1 {
            return false;
        }
        let wanted = (to - start as i64).clamp(min as i64, (length - 1 - min) as i64) as usize;
        let changed = wanted != *first_cells;
        *first_cells = wanted;
        changed
    }

    /// The border at cell (`col`, `row`), if one is there.
    pub fn border_at(&self, area: CellRect, col: usize, row: usize) -> Option<Border> {
        self.place(area)
            .1
            .into_iter()
            .find(|b| b.rect.contains(col, row))
    }
}

fn find_leaf(node: &mut Node, pane: PaneId) -> Option<&mut Node> {
    match node {
        Node::Leaf(id) if *id == pane => Some(node),
        Node::Leaf(_) => None,
        Node::Split { first, second, .. } => {
            find_leaf(first, pane).or_else(move || find_leaf(second, pane))
        }
    }
}

fn path_to(node: &Node, pane: PaneId) -> Option<Vec<bool>> {
    match node {
        Node::Leaf(id) => (*id == pane).then(Vec::new),
        Node::Split { first, second, .. } => {
            for (side, child) in [(false, first), (true, second)] {
                if let Some(mut rest) = path_to(child, pane) {
                    rest.insert(0, side);
                    return Some(rest);
                }
            }
            None
        }
    }
}

fn node_at<'a>(node: &'a mut Node, path: &[bool]) -> Option<&'a mut Node> {
    let Some((&side, rest)) = path.split_first() else {
        return Some(node);
    };
    match node {
        Node::Split { first, second, .. } => node_at(if side { second } else { first }, rest),
        Node::Leaf(_) => None,
    }
}

/// The area the node at `path` is placed in.
fn area_of(node: &Node, area: CellRect, path: &[bool]) -> Option<CellRect> {
    let Some((&side, rest)) = path.split_first() else {
        return Some(area);
    };
    match node {
        Node::Split {
            direction,
            first_cells,
            first,
            second,
        } => {
            let (a, _, b) = divide(area, *direction, *first_cells);
            if side {
                area_of(second, b, rest)
            } else {
                area_of(first, a, rest)
            }
        }
        Node::Leaf(_) => None,
    }
}

/// The first child's area, the border's, the second child's. A first part larger than the
/// area now allows (the window shrank) is cut so the second keeps its minimum where it can.
fn divide(
    area: CellRect,
    direction: SplitDirection,
    first_cells: usize,
) -> (CellRect, CellRect, CellRect) {
    match direction {
        SplitDirection::Right => divide_columns(area, first_cells, MIN_COLS),
        // Rows are columns of the transposed rectangle.
        SplitDirection::Down => {
            let (a, border, b) = divide_columns(area.transposed(), first_cells, MIN_ROWS);
            (a.transposed(), border.transposed(), b.transposed())
        }
    }
}

/// `area` cut into `first_cells` columns (at least one, leaving `min` for the second), a
/// one-column border, and the rest.
fn divide_columns(
    area: CellRect,
    first_cells: usize,
    min: usize,
) -> (CellRect, CellRect, CellRect) {
    let first = first_cells.min(area.cols.saturating_sub(1 + min)).max(1);
    let first = first.min(area.cols.saturating_sub(1));
    let a = CellRect {
        cols: first,
        ..area
    };
    let border = CellRect {
        col: area.col + first,
        cols: 1.min(area.cols - first),
        ..area
    };
    let b = CellRect {
        col: area.col + first + 1,
        cols: area.cols.saturating_sub(first + 1),
        ..area
    };
    (a, border, b)
}

fn place_in(
    node: &Node,
    area: CellRect,
    path: &mut Vec<bool>,
    panes: &mut Vec<(PaneId, CellRect)>,
    borders: &mut Vec<Border>,
) {
    match node {
        Node::Leaf(id) => panes.push((*id, area)),
        Node::Split {
            direction,
            first_cells,
            first,
            second,
        } => {
            let (a, border, b) = divide(area, *direction, *first_cells);
            borders.push(Border {
                rect: border,
                direction: *direction,
                path: path.clone(),
            });
            path.push(false);
            place_in(first, a, path, panes, borders);
            path.pop();
            path.push(true);
            place_in(second, b, path, panes, borders);
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: CellRect = CellRect {
        col: 0,
        row: 1,
        cols: 81,
        rows: 25,
    };

    fn p(n: u64) -> PaneId {
        PaneId(n)
    }

    #[test]
    fn a_split_halves_the_area_with_a_one_cell_border() {
        let mut l = Layout::new(p(1));
        assert!(l.split(AREA, p(1), SplitDirection::Right, p(2)));
        let (panes, borders) = l.place(AREA);
        assert_eq!(
            panes,
            vec![
                (
                    p(1),
                    CellRect {
                        col: 0,
                        row: 1,
                        cols: 40,
                        rows: 25
                    }
                ),
                (
                    p(2),
                    CellRect {
                        col: 41,
                        row: 1,
                        cols: 40,
                        rows: 25
                    }
                ),
            ]
        );
        assert_eq!(
            borders[0].rect,
            CellRect {
                col: 40,
                row: 1,
                cols: 1,
                rows: 25
            }
        );
        assert!(l.split(AREA, p(2), SplitDirection::Down, p(3)));
        let (panes, borders) = l.place(AREA);
        assert_eq!(panes.len(), 3);
        assert_eq!(borders.len(), 2);
        assert_eq!(
            panes[2].1,
            CellRect {
                col: 41,
                row: 14,
                cols: 40,
                rows: 12
            }
        );
        assert_eq!(l.panes(), vec![p(1), p(2), p(3)]);
    }

    #[test]
    fn panes_too_small_are_not_split() {
        let small = CellRect {
            col: 0,
            row: 0,
            cols: 4,
            rows: 2,
        };
        let mut l = Layout::new(p(1));
        assert!(!l.split(small, p(1), SplitDirection::Right, p(2)));
        assert!(!l.split(small, p(1), SplitDirection::Down, p(2)));
        assert!(
            !l.split(AREA, p(9), SplitDirection::Down, p(2)),
            "no such pane"
        );
        assert_eq!(l, Layout::new(p(1)));
    }

    #[test]
    fn removing_a_pane_gives_its_place_to_its_sibling() {
        let mut l = Layout::new(p(1));
        l.split(AREA, p(1), SplitDirection::Right, p(2));
        l.split(AREA, p(2), SplitDirection::Down, p(3));
        assert!(l.remove(p(2)));
        let (panes, _) = l.place(AREA);
        assert_eq!(panes[1], (p(3), CellRect { col: 41, ..AREA }.with_cols(40)));
        assert!(l.remove(p(1)));
        assert_eq!(l.place(AREA).0, vec![(p(3), AREA)]);
        assert!(!l.remove(p(3)), "the last pane is the tab's");
    }

    impl CellRect {
        fn with_cols(self, cols: usize) -> Self {
            CellRect { cols, ..self }
        }
    }

    #[test]
    fn focus_moves_to_the_touching_neighbour() {
        // 1 | 2
        //   | -
        //   | 3
        let mut l = Layout::new(p(1));
        l.split(AREA, p(1), SplitDirection::Right, p(2));
        l.split(AREA, p(2), SplitDirection::Down, p(3));
        assert_eq!(l.neighbour(AREA, p(1), Towards::Right), Some(p(2)));
        assert_eq!(l.neighbour(AREA, p(3), Towards::Left), Some(p(1)));
        assert_eq!(l.neighbour(AREA, p(3), Towards::Up), Some(p(2)));
        assert_eq!(l.neighbour(AREA, p(2), Towards::Down), Some(p(3)));
        assert_eq!(l.neighbour(AREA, p(1), Towards::Left), None);
        assert_eq!(l.neighbour(AREA, p(1), Towards::Up), None);
    }

    #[test]
    fn borders_move_by_keys_and_by_dragging_within_limits() {
        let mut l = Layout::new(p(1));
        l.split(AREA, p(1), SplitDirection::Right, p(2));
        assert!(l.resize(AREA, p(1), Towards::Right, 3));
        assert_eq!(l.rect_of(AREA, p(1)).unwrap().cols, 43);
        assert_eq!(l.rect_of(AREA, p(2)).unwrap().cols, 37);
        assert!(l.resize(AREA, p(2), Towards::Left, 10));
        assert_eq!(l.rect_of(AREA, p(1)).unwrap().cols, 33);
        assert!(
            !l.resize(AREA, p(1), Towards::Up, 1),
            "no split on that axis"
        );

        let border = l
            .border_at(AREA, 33, 5)
            .expect("the border is at column 33");
        assert!(l.drag(AREA, &border, 1000));
        assert_eq!(
            l.rect_of(AREA, p(2)).unwrap().cols,
            MIN_COLS,
            "the far pane keeps its minimum"
        );
        let border = l.border_at(AREA, 81 - MIN_COLS - 1, 5).unwrap();
        assert!(l.drag(AREA, &border, 0));
        assert_eq!(l.rect_of(AREA, p(1)).unwrap().cols, MIN_COLS);
        assert_eq!(l.border_at(AREA, 10, 5), None);
    }

    #[test]
    fn a_shrunk_area_still_places_every_pane_inside_it() {
        let mut l = Layout::new(p(1));
        l.split(AREA, p(1), SplitDirection::Right, p(2));
        l.resize(AREA, p(1), Towards::Right, 30);
        let small = CellRect { cols: 20, ..AREA };
        let (panes, borders) = l.place(small);
        for (_, r) in &panes {
            assert!(r.col + r.cols <= 20, "{r:?}");
        }
        assert_eq!(panes[1].1.cols, MIN_COLS);
        assert_eq!(borders[0].rect.col, 20 - MIN_COLS - 1);
    }
}
