//! Drawing a frame: the snapshot, what is drawn over it, the cursor's blink, presenting.

use std::time::Instant;

use sluice_render::{Decorations, Label, Mark, Presented};
use sluice_term::RowSpan;
use winit::dpi::{PhysicalPosition, PhysicalSize};

use super::{PADDING, TermWindow};

impl TermWindow {
    pub(super) fn draw(&mut self) {
        let start = Instant::now();
        if !self.frozen {
            self.session.terminal.update_snapshot(&mut self.snapshot);
            self.refresh_hover();
        }
        let decorations = self.decorations(start);
        self.renderer.set_decorations(decorations);

        // A blinking cursor in its "off" phase, or one covered by preedit text, is not drawn.
        let cursor = self.snapshot.cursor;
        let blinking = cursor.is_some_and(|c| c.blinking);
        let (visible, _) = self
            .blink
            .update(blinking, self.renderer.focused, Instant::now());
        if !visible || self.preedit.is_some() {
            self.snapshot.cursor = None;
        }
        let copied = start.elapsed();
        let report = self.renderer.render(&mut self.snapshot);
        self.snapshot.cursor = cursor;
        let rendered = start.elapsed();

        let padding = (PADDING * self.window.scale_factor()) as u32;
        if self
            .surface
            .present(&self.renderer, (padding, padding), self.snapshot.background)
            == Presented::Skipped
        {
            self.renderer.invalidate();
            self.frame_requested = true;
        }
        // Waiting for the frame to finish makes its wall time a measure of what it cost: on
        // software rendering that is the rasteriser's CPU, which is what must stay in budget.
        let _ = self.gpu.device.poll(sluice_render::wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
        let cost = start.elapsed();
        tracing::trace!(
            rows = report.rows_drawn,
            snapshot_us = copied.as_micros() as u64,
            render_us = (rendered - copied).as_micros() as u64,
            present_and_wait_us = (cost - rendered).as_micros() as u64,
            "frame"
        );
        self.pacer.frame_drawn(start, cost);
        self.metrics.frame(cost);
        if let Some(overlay) = &mut self.overlay {
            overlay.frame(cost);
        }
        self.place_ime_cursor();
        self.report_metrics();
    }

    /// What is drawn over the cells this frame.
    pub(super) fn decorations(&mut self, now: Instant) -> Decorations {
        let mut d = Decorations::default();
        let (rows, cols) = (self.snapshot.rows, self.snapshot.cols);
        let (fg, bg) = (self.snapshot.foreground, self.snapshot.background);
        if let Some(search) = &mut self.search {
            d.marks.extend(search.marks(&self.session.terminal));
            d.labels.push(search.label(rows, cols, fg, bg));
        }
        if let Some(bar) = &self.paste_confirm {
            d.labels.push(bar.label(rows, cols, fg, bg));
        }
        if let Some(link) = &self.hovered_link {
            d.marks
                .extend(link.spans.iter().map(|&s| (s, Mark::Underline)));
            d.labels.extend(link.target_label(rows, cols, fg, bg));
        }
        if let (Some(text), Some(cursor)) = (&self.preedit, self.snapshot.cursor) {
            d.labels.push(Label {
                row: cursor.row,
                col: cursor.col,
                text: text.clone(),
                fg,
                bg,
                underline: true,
            });
        }
        if let Some(overlay) = &self.overlay {
            d.labels.extend(overlay.labels(cols, bg, fg));
        }
        if self.frozen {
            let text = " view frozen (Scroll Lock) ";
            d.labels.push(Label {
                row: 0,
                col: cols.saturating_sub(text.len()),
                text: text.to_owned(),
                fg: bg,
                bg: fg,
                underline: false,
            });
        }
        if self.bell_until.is_some_and(|until| now < until) {
            // The whole screen inverted for a moment.
            d.marks.extend((0..rows).map(|row| {
                let span = RowSpan {
                    row,
                    start: 0,
                    end: cols,
                };
                (span, Mark::Colors { fg: bg, bg: fg })
            }));
        }
        d
    }

    /// Tells the input method where the cursor is, so its candidate window sits next to it.
    pub(super) fn place_ime_cursor(&self) {
        let Some(cursor) = self.snapshot.cursor else {
            return;
        };
        let g = self.geometry();
        let x = g.padding + cursor.col as f64 * g.cell_width;
        let y = g.padding + cursor.row as f64 * g.cell_height;
        self.window.set_ime_cursor_area(
            PhysicalPosition::new(x, y),
            PhysicalSize::new(g.cell_width, g.cell_height),
        );
    }
}
