//! Drawing a frame: each shown pane's snapshot into its view, the tab bar and the split
//! borders as rows of cells, then all of them composed onto the window.

use std::time::Instant;

use sluice_render::{Label, Placed, Presented};
use sluice_term::{RenderCell, Snapshot};
use winit::dpi::{PhysicalPosition, PhysicalSize};

use super::Window;
use super::layout::{Border, SplitDirection};
use super::tabs::{self, TabLabel};
use crate::app::Shared;

impl Window {
    pub fn draw(&mut self, shared: &mut Shared) {
        if self.occluded {
            return;
        }
        let start = Instant::now();
        let visible = self.visible(shared);
        let borders = self.visible_borders(shared);
        let bar_shown = self.tab_bar_shown(shared);
        let labels = self.tab_labels();
        let focused = self.focused_id();
        let problem_bar = self.problem_bar(shared);
        let Some(g) = shared.graphics.as_mut() else {
            return;
        };
        let m = g.renderer.cell_metrics();
        // The frames are drawn into below: the window system must be done reading them.
        self.surface.before_drawing();

        // A blinking cursor in its "off" phase, or one covered by preedit text, is not drawn.
        let blinking = shared.config.cursor.blinking.applies(
            focused
                .and_then(|id| self.panes.get(&id))
                .and_then(|p| p.snapshot.cursor)
                .is_some_and(|c| c.blinking),
        );
        let hollow_unfocused = shared.config.cursor.unfocused_hollow;
        let c = &shared.config.colors;
        let overlay_colors = sluice_render::OverlayColors {
            selection: c
                .selection_foreground
                .zip(c.selection_background)
                .map(|(fg, bg)| (fg.0, bg.0)),
            cursor_text: c.cursor_text.map(|t| t.0),
        };
        let (blink_on, _) = self.blink.update(blinking, self.has_focus, start);
        for &(id, _) in &visible {
            let Some(pane) = self.panes.get_mut(&id) else {
                continue;
            };
            let has_keyboard = Some(id) == focused;
            pane.view.focused = !hollow_unfocused || (has_keyboard && self.has_focus);
            pane.view.colors = overlay_colors;
            let mut extra = Vec::new();
            let mut cursor_shown = true;
            if has_keyboard {
                cursor_shown = blink_on && self.preedit.is_none();
                if let Some(text) = &problem_bar {
                    // The theme's red behind the text: a problem, not the program's output.
                    let red = pane.snapshot.palette_color(1);
                    let row = pane.snapshot.rows.saturating_sub(1);
                    let cols = pane.snapshot.cols;
                    extra.push(crate::pane::bar::bar(
                        row,
                        text.clone(),
                        cols,
                        red,
                        pane.snapshot.background,
                    ));
                }
                if let (Some(text), Some(cursor)) = (&self.preedit, pane.snapshot.cursor) {
                    extra.push(Label {
                        row: cursor.row,
                        col: cursor.col,
                        text: text.clone(),
                        fg: pane.snapshot.foreground,
                        bg: pane.snapshot.background,
                        underline: true,
                    });
                }
            }
            let options = crate::pane::DrawOptions {
                prompt_marks: shared.config.shell_integration.prompt_marks,
                vi_cursor: shared.config.colors.vi_cursor.map(|c| c.0),
            };
            pane.draw(&mut g.renderer, cursor_shown, extra, start, options);
        }
        self.refresh_hover(shared);
        let Some(g) = shared.graphics.as_mut() else {
            return;
        };
        let (fg, background) = focused
            .and_then(|id| self.panes.get(&id))
            .map(|p| (p.snapshot.foreground, p.snapshot.background))
            .unwrap_or_default();
        let grid_cols = self.grid(g).0;
        if bar_shown {
            let view = self.tab_bar.get_or_insert_with(|| g.renderer.new_view());
            let cells = tabs::cells(&labels, self.active, grid_cols, fg, background);
            let mut snapshot = Snapshot::of_cells(vec![cells], fg, background);
            g.renderer.render(view, &mut snapshot);
        }
        while self.borders.len() < borders.len() {
            self.borders.push(g.renderer.new_view());
        }
        for (view, border) in self.borders.iter_mut().zip(&borders) {
            let mut snapshot = border_cells(border, fg, background);
            g.renderer.render(view, &mut snapshot);
        }

        let (ox, oy) = self.origin(g);
        let at = |col: usize, row: usize| {
            (
                ox as u32 + col as u32 * m.width,
                oy as u32 + row as u32 * m.height,
            )
        };
        let mut placed = Vec::with_capacity(visible.len() + borders.len() + 1);
        for (id, rect) in &visible {
            if let Some(pane) = self.panes.get(id) {
                let (x, y) = at(rect.col, rect.row);
                placed.push(Placed {
                    view: &pane.view,
                    x,
                    y,
                });
            }
        }
        for (view, border) in self.borders.iter().zip(&borders) {
            let (x, y) = at(border.rect.col, border.rect.row);
            placed.push(Placed { view, x, y });
        }
        if let (true, Some(view)) = (bar_shown, &self.tab_bar) {
            let (x, y) = at(0, 0);
            placed.push(Placed { view, x, y });
        }
        let copied = start.elapsed();
        let opacity = shared.config.window.opacity;
        if self
            .surface
            .present(&g.renderer, &placed, background, opacity)
            == Presented::Skipped
        {
            for (id, _) in &visible {
                if let Some(pane) = self.panes.get_mut(id) {
                    pane.view.invalidate();
                }
            }
            self.frame_requested = true;
        }
        // Waiting for the frame to finish makes its wall time a measure of what it cost: on
        // software rendering that is the rasteriser's CPU, which is what must stay in budget.
        g.renderer.wait_idle();
        let cost = start.elapsed();
        tracing::trace!(
            panes = visible.len(),
            draw_us = copied.as_micros() as u64,
            present_and_wait_us = (cost - copied).as_micros() as u64,
            "frame"
        );
        self.pacer.frame_drawn(start, cost);
        for (id, _) in &visible {
            if let Some(pane) = self.panes.get_mut(id) {
                pane.frame_drawn(cost);
            }
        }
        self.place_ime_cursor(shared);
    }

    fn visible_borders(&self, shared: &Shared) -> Vec<Border> {
        match self.tabs.get(self.active) {
            Some(tab) if !tab.zoomed => tab.layout.place(self.pane_area(shared)).1,
            _ => Vec::new(),
        }
    }

    fn tab_labels(&self) -> Vec<TabLabel> {
        (0..self.tabs.len()).map(|i| self.tab_marks(i)).collect()
    }

    /// What the tab bar shows of tab `index`: its focused pane's title and its marks.
    pub fn tab_marks(&self, index: usize) -> TabLabel {
        self.tabs
            .get(index)
            .map(|tab| {
                let panes: Vec<_> = tab
                    .layout
                    .panes()
                    .into_iter()
                    .filter_map(|id| self.panes.get(&id))
                    .collect();
                TabLabel {
                    title: self
                        .panes
                        .get(&tab.focused)
                        .map(|p| p.title().to_owned())
                        .unwrap_or_default(),
                    activity: panes.iter().any(|p| p.unseen_output),
                    bell: panes.iter().any(|p| p.unseen_bell),
                }
            })
            .unwrap_or(TabLabel {
                title: String::new(),
                activity: false,
                bell: false,
            })
    }

    /// Tells the input method where the cursor is, so its candidate window sits next to it.
    fn place_ime_cursor(&self, shared: &Shared) {
        let (Some(g), Some(pane)) = (
            &shared.graphics,
            self.focused_id().and_then(|id| self.panes.get(&id)),
        ) else {
            return;
        };
        let Some(cursor) = pane.snapshot.cursor else {
            return;
        };
        let geometry = self.geometry(g, pane);
        let x = geometry.x + cursor.col as f64 * geometry.cell_width;
        let y = geometry.y + cursor.row as f64 * geometry.cell_height;
        self.os.set_ime_cursor_area(
            PhysicalPosition::new(x, y),
            PhysicalSize::new(geometry.cell_width, geometry.cell_height),
        );
    }
}

/// A split's border as cells: a column of │ or a row of ─, in the text's colour.
fn border_cells(border: &Border, fg: sluice_term::Rgb, bg: sluice_term::Rgb) -> Snapshot {
    let cell = |c| RenderCell {
        c,
        fg,
        bg,
        ..RenderCell::default()
    };
    let lines = match border.direction {
        SplitDirection::Right => vec![vec![cell('│')]; border.rect.rows],
        SplitDirection::Down => vec![vec![cell('─'); border.rect.cols]],
    };
    Snapshot::of_cells(lines, fg, bg)
}
