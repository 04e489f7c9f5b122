//! The renderer on a real (software) GPU adapter and on the CPU alone: pixels at known
//! places, damage rendering equal to full redraws, wide glyphs, box drawing, the software
//! renderer equal to CPU compositing on the GPU. In CI a missing adapter fails these tests.

use sluice_render::{BackendKind, Compositing, FontConfig, Image, Offscreen};
use sluice_term::{Replay, Snapshot};

fn offscreen() -> Offscreen {
    Offscreen::new(&FontConfig::default())
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)")
}

/// An offscreen renderer whose rows are composited as `compositing` says.
fn offscreen_with(compositing: Compositing) -> Offscreen {
    let gpu = Offscreen::with_compositing(&FontConfig::default(), Some(compositing))
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)");
    assert_eq!(gpu.renderer.compositing(), compositing);
    gpu
}

/// The ways rows become pixels: quads drawn by the GPU, composited on the CPU into GPU
/// textures, and composited by the software renderer into frames in memory.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Way {
    Gpu,
    CpuIntoTextures,
    Software,
}

const EVERY_WAY: [Way; 3] = [Way::Gpu, Way::CpuIntoTextures, Way::Software];

fn offscreen_for(way: Way) -> Offscreen {
    match way {
        Way::Gpu => offscreen_with(Compositing::Gpu),
        Way::CpuIntoTextures => offscreen_with(Compositing::Cpu),
        Way::Software => software(),
    }
}

fn software() -> Offscreen {
    let software = Offscreen::software(&FontConfig::default()).expect("the software renderer");
    assert_eq!(software.renderer.backend(), BackendKind::Software);
    assert!(software.gpu.is_none(), "no GPU device at all");
    software
}

fn render(gpu: &mut Offscreen, replay: &mut Replay, snapshot: &mut Snapshot) -> Image {
    replay.update_snapshot(snapshot);
    gpu.render_image(snapshot).expect("readback")
}

/// Saves `images` under their names in [`out_dir`], for a failing test to point at; returns
/// the directory.
fn keep(images: &[(&Image, String)]) -> std::path::PathBuf {
    for (image, name) in images {
        image.save_png(&out_dir().join(name)).unwrap();
    }
    out_dir()
}

fn out_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const RED: [u8; 4] = [0xcc, 0x66, 0x66, 255];
const BACKGROUND: [u8; 4] = [0x1d, 0x1f, 0x21, 255];

#[test]
fn known_cells_give_known_colours_at_known_pixels() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(10, 3, 0);
    // Red background in cells 0–1 of row 0; a green full block at row 1, column 5;
    // a truecolor background at row 2, column 9. The cursor is hidden so it covers nothing.
    replay.feed(b"\x1b[?25l\x1b[41m  \x1b[0m\x1b[2;6H\x1b[32m\xe2\x96\x88\x1b[0m\x1b[3;10H\x1b[48;2;10;200;30m \x1b[0m");
    let mut snapshot = Snapshot::default();
    let image = render(&mut gpu, &mut replay, &mut snapshot);
    image.save_png(&out_dir().join("known_cells.png")).unwrap();
    assert_eq!((image.width, image.height), (10 * m.width, 3 * m.height));
    let centre = |col: u32, row: u32| {
        image.pixel(col * m.width + m.width / 2, row * m.height + m.height / 2)
    };
    assert_eq!(centre(0, 0), RED);
    assert_eq!(centre(1, 0), RED);
    assert_eq!(centre(2, 0), BACKGROUND);
    // The block fills its cell edge to edge, corners included.
    let green = [0xb5, 0xbd, 0x68, 255];
    assert_eq!(image.pixel(5 * m.width, m.height), green);
    assert_eq!(image.pixel(6 * m.width - 1, 2 * m.height - 1), green);
    assert_eq!(image.pixel(6 * m.width, m.height), BACKGROUND);
    assert_eq!(centre(9, 2), [10, 200, 30, 255]);
}

#[test]
fn text_is_drawn_in_its_foreground_colour() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(4, 1, 0);
    replay.feed(b"\x1b[?25l\x1b[31mW");
    let mut snapshot = Snapshot::default();
    let image = render(&mut gpu, &mut replay, &mut snapshot);
    let cell: Vec<[u8; 4]> = (0..m.height)
        .flat_map(|y| (0..m.width).map(move |x| (x, y)))
        .map(|(x, y)| image.pixel(x, y))
        .collect();
    assert!(
        cell.contains(&RED),
        "the glyph's solid pixels are the foreground colour"
    );
    assert!(cell.contains(&BACKGROUND), "and it does not fill its cell");
    let empty =
        (m.width..2 * m.width).all(|x| (0..m.height).all(|y| image.pixel(x, y) == BACKGROUND));
    assert!(empty, "nothing spills into the next cell");
}

/// Pixels of cells `[c0, c1)` of `row`.
fn cells(image: &Image, m: sluice_render::CellMetrics, row: u32, c0: u32, c1: u32) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for y in row * m.height..(row + 1) * m.height {
        for x in c0 * m.width..c1 * m.width {
            out.push(image.pixel(x, y));
        }
    }
    out
}

#[test]
fn wide_and_emoji_glyphs_do_not_shift_the_cells_after_them() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(12, 3, 0);
    replay.feed("\x1b[?25l漢字abc\r\n😀😀abc\r\n    abc".as_bytes());
    let mut snapshot = Snapshot::default();
    let image = render(&mut gpu, &mut replay, &mut snapshot);
    image.save_png(&out_dir().join("wide.png")).unwrap();
    let reference = cells(&image, m, 2, 4, 7);
    assert_eq!(cells(&image, m, 0, 4, 7), reference, "after CJK");
    assert_eq!(cells(&image, m, 1, 4, 7), reference, "after emoji");
    // And the wide glyphs are really drawn: their cells are not blank.
    assert!(cells(&image, m, 0, 0, 2).iter().any(|p| *p != BACKGROUND));
    assert!(cells(&image, m, 1, 0, 2).iter().any(|p| *p != BACKGROUND));
}

#[test]
fn emoji_come_in_colour() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(4, 1, 0);
    replay.feed("\x1b[?25l😀".as_bytes());
    let mut snapshot = Snapshot::default();
    let image = render(&mut gpu, &mut replay, &mut snapshot);
    // The default foreground is grey; a colour emoji has pixels far from any grey.
    let colourful = cells(&image, m, 0, 0, 2)
        .iter()
        .any(|p| (p[0] as i32 - p[2] as i32).abs() > 80 || (p[1] as i32 - p[2] as i32).abs() > 80);
    assert!(colourful, "a colour emoji font was used");
}

#[test]
fn box_drawing_lines_have_no_gaps() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(8, 4, 0);
    replay.feed("\x1b[?25l┌──────┐\r\n│ ╭──╮ │\r\n│ ╰──╯ │\r\n└──────┘".as_bytes());
    let mut snapshot = Snapshot::default();
    let image = render(&mut gpu, &mut replay, &mut snapshot);
    image.save_png(&out_dir().join("boxes.png")).unwrap();
    let fg = [0xc5, 0xc8, 0xc6, 255];
    // Some pixel row through the top line is foreground from the corner's centre to the
    // other corner's centre, across every cell boundary.
    let (x0, x1) = (m.width / 2 + 1, 7 * m.width + m.width / 2 - 1);
    let solid_row = (0..m.height).find(|&y| (x0..x1).all(|x| image.pixel(x, y) == fg));
    assert!(solid_row.is_some(), "a continuous horizontal line");
    // The left side: a pixel column that is foreground through all four rows' joints.
    let (y0, y1) = (m.height / 2 + 1, 3 * m.height + m.height / 2 - 1);
    let solid_col = (0..m.width).find(|&x| (y0..y1).all(|y| image.pixel(x, y) == fg));
    assert!(solid_col.is_some(), "a continuous vertical line");
}

/// One change to the terminal in a recorded sequence.
type Step = Box<dyn Fn(&mut Replay)>;

/// A recorded session: colours, a progress bar, scrolling, a scroll region, the alternate
/// screen, decorations, cursor shapes, selections and resizes.
fn recorded_steps() -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    steps.push(Box::new(|r| {
        r.feed(
            b"\x1b[1;32m$\x1b[0m ls --color\r\n\x1b[34mdir\x1b[0m  file  \x1b[4munder\x1b[0m\r\n",
        )
    }));
    // A progress bar redrawn in place.
    for i in 0..5u8 {
        let bar = format!(
            "\r\x1b[2K\x1b[42;30m BUNDLE \x1b[0m {}{} {}%",
            "█".repeat(i as usize * 3),
            "░".repeat(15 - i as usize * 3),
            i * 20
        );
        steps.push(Box::new(move |r| r.feed(bar.as_bytes())));
    }
    // Scrolling output, one line, then several at once.
    steps.push(Box::new(|r| r.feed(b"\r\n")));
    for i in 0..15 {
        steps.push(Box::new(move |r| {
            r.feed(format!("line {i} \x1b[3{}mcolour\x1b[0m 漢字 😀\r\n", i % 8).as_bytes())
        }));
    }
    steps.push(Box::new(|r| r.feed(b"a\r\nb\r\nc\r\nd\r\n")));
    // A scroll region with reverse index and inserted lines.
    steps.push(Box::new(|r| {
        r.feed(b"\x1b[3;8r\x1b[3;1H\x1bMinserted\x1b[5;1H\x1b[Lnew\x1b[r")
    }));
    // The alternate screen, drawn on, then left.
    steps.push(Box::new(|r| {
        r.feed(b"\x1b[?1049h\x1b[H\x1b[2J\x1b[7m vim \x1b[0m\x1b[5;5Hhello \x1b[9mstrike\x1b[0m")
    }));
    steps.push(Box::new(|r| {
        r.feed(b"\x1b[6;1H\x1b[4:3mcurly\x1b[0m \x1b[21mdouble\x1b[0m \x1b[2mdim\x1b[0m")
    }));
    steps.push(Box::new(|r| r.feed(b"\x1b[?1049l")));
    // Cursor shapes and moves.
    steps.push(Box::new(|r| r.feed(b"\x1b[6 q\x1b[2;10H")));
    steps.push(Box::new(|r| r.feed(b"\x1b[4 q\x1b[8;3H")));
    // Selection: simple, then block, then none.
    steps.push(Box::new(|r| r.select(Some(((2, 3), (4, 10))), false)));
    steps.push(Box::new(|r| r.select(Some(((1, 2), (5, 6))), true)));
    steps.push(Box::new(|r| r.select(None, false)));
    // Short lines over long ones: a row's old text past the new one's end must be blanked.
    steps.push(Box::new(|r| {
        r.feed(b"\x1b[H\x1b[2Ja long line of text that crosses most of the row\r\n")
    }));
    steps.push(Box::new(|r| r.feed(b"\x1b[Hab\x1b[K\r\n\x1b[Kcd")));

    // The default background changed (OSC 11) and changed back: rows blanked in the old one
    // are the old colour past their text.
    steps.push(Box::new(|r| {
        r.feed(b"\x1b]11;rgb:20/30/40\x07\x1b[3;1Hin the new background")
    }));
    steps.push(Box::new(|r| r.feed(b"\x1b]111\x07\x1b[4;1Hback")));
    // Resize, smaller and back.
    steps.push(Box::new(|r| r.resize(30, 8)));
    steps.push(Box::new(|r| r.feed(b"after resize\r\n")));
    steps.push(Box::new(|r| r.resize(40, 12)));

    steps
}

/// Renders a recorded sequence step by step, once with damage tracking and once redrawing
/// everything each frame, and requires identical pixels after every step: rows drawn by the
/// GPU, rows composited on the CPU and the software renderer alike.
#[test]
fn damage_rendering_equals_full_redraw_frame_by_frame() {
    for way in EVERY_WAY {
        damage_equals_full_redraw(way);
    }
}

fn damage_equals_full_redraw(compositing: Way) {
    let mut damage = offscreen_for(compositing);
    let mut full = offscreen_for(compositing);
    let mut replay = Replay::new(40, 12, 100);
    let mut snapshot = Snapshot::default();
    let steps = recorded_steps();
    let (mut scrolled, mut in_part) = (0, 0);
    for (i, step) in steps.iter().enumerate() {
        step(&mut replay);
        replay.update_snapshot(&mut snapshot);
        let mut full_snapshot = snapshot.clone();
        let report = damage.render(&mut snapshot);
        scrolled += (report.shifted != 0) as usize;
        in_part += report.rows_drawn_in_part;
        let with_damage = damage.read_frame().unwrap();

        full.view.invalidate();
        let redrawn = full.render_image(&mut full_snapshot).unwrap();

        if with_damage != redrawn {
            let dir = keep(&[
                (&with_damage, format!("{compositing:?}_step{i}_damage.png")),
                (&redrawn, format!("{compositing:?}_step{i}_full.png")),
            ]);
            panic!(
                "{compositing:?}, step {i}: damage rendering differs from a full redraw \
                 (images in {dir:?})"
            );
        }
    }
    // Of the 15 single lines printed onto a 12-row screen already 4 rows full, at least 8
    // scroll it; each of those must have been a texture move.
    assert!(
        scrolled >= 8,
        "{compositing:?}: scrolls were done by moving the texture ({scrolled} times)"
    );
    // The progress bar, the lines that begin alike and the cursor's moves redraw rows from
    // their first change on, on the software renderer: those rows were compared too.
    if compositing == Way::Software {
        assert!(in_part >= 5, "rows drawn in part: {in_part}");
    }
}

/// Glyphs that reach left of their cells (here all of them, moved 3 pixels left) are drawn
/// over the cells before them: a row with such a glyph, as drawn or as it will be, is drawn
/// whole, not from its first changed cell, or what they drew there would stay (or be missing).
/// The last step writes after spaces into a row drawn blank, known to the frame: its quads
/// are built from the first change, meet a glyph reaching left, and are built again whole.
#[test]
fn rows_whose_glyphs_reach_left_of_their_cells_are_drawn_whole() {
    let fonts = FontConfig {
        glyph_offset: (-3, 0),
        ..FontConfig::default()
    };
    let mut damage = Offscreen::software(&fonts).expect("the software renderer");
    let mut full = Offscreen::software(&fonts).expect("the software renderer");
    let mut replay = Replay::new(20, 3, 0);
    let mut snapshot = Snapshot::default();
    for (i, step) in [
        &b"abjjjj"[..],
        b"\rab\x1b[K",
        b"\rabxy",
        b"\rabxz",
        b"\x1b[3;1H     jj",
    ]
    .iter()
    .enumerate()
    {
        replay.feed(step);
        replay.update_snapshot(&mut snapshot);
        let mut full_snapshot = snapshot.clone();
        damage.render(&mut snapshot);
        full.view.invalidate();
        let redrawn = full.render_image(&mut full_snapshot).unwrap();
        assert!(
            damage.read_frame().unwrap() == redrawn,
            "step {i}: the row drawn from its first change differs from a full redraw"
        );
    }
}

/// A row drawn from its first changed cell has its quads built from there too: lines that
/// share their start (a build's log, rows of a table) cost quads only for what changed, and
/// still show what a full redraw shows.
#[test]
fn quads_are_built_only_from_a_rows_first_change() {
    let fonts = FontConfig::default();
    let mut damage = Offscreen::software(&fonts).expect("the software renderer");
    let mut full = Offscreen::software(&fonts).expect("the software renderer");
    let mut replay = Replay::new(40, 4, 0);
    let mut snapshot = Snapshot::default();
    // Four log lines, then the same four with each module's last digit changed.
    let page = |first: u32| -> String {
        (0..4)
            .map(|row| {
                format!(
                    "\x1b[{};1H transform pkg/module-{:05}.js",
                    row + 1,
                    first + row
                )
            })
            .collect()
    };
    let mut quads = Vec::new();
    for (i, step) in [page(0), page(5)].iter().enumerate() {
        replay.feed(step.as_bytes());
        replay.update_snapshot(&mut snapshot);
        let mut full_snapshot = snapshot.clone();
        let report = damage.render(&mut snapshot);
        full.view.invalidate();
        let redrawn = full.render_image(&mut full_snapshot).unwrap();
        assert!(
            damage.read_frame().unwrap() == redrawn,
            "step {i}: rows built from their first change differ from a full redraw"
        );
        quads.push((report.quads, report.rows_drawn_in_part));
    }
    // 24 glyphs a row before the change: a hundred quads in the first frame, and in the
    // second the four from the changed digit on (`5.js`) a row and the cursor's (up to four,
    // hollow).
    let ((first, _), (second, in_part)) = (quads[0], quads[1]);
    assert!(first >= 4 * 28, "the first frame built {first} quads");
    assert_eq!(in_part, 4, "rows drawn from their first change");
    assert!(
        second <= 4 * 4 + 4,
        "the second frame built {second} quads, not only from its changes"
    );
}

/// Rows composited on the CPU are the GPU pipeline's pixels: the same recorded session drawn
/// both ways, step by step, may differ by no more than the rounding of a blend, and only
/// where text is antialiased. (lavapipe rounds the shader's premultiplied colour to 8 bits
/// before it blends, and rounds the blend again; the CPU rounds once: two levels in 255.)
#[test]
fn cpu_compositing_draws_what_the_gpu_draws() {
    let mut on_gpu = offscreen_with(Compositing::Gpu);
    let mut on_cpu = offscreen_with(Compositing::Cpu);
    let mut replay = Replay::new(40, 12, 100);
    let mut snapshot = Snapshot::default();
    let (mut compared, mut differing) = (0usize, 0usize);
    for (i, step) in recorded_steps().iter().enumerate() {
        step(&mut replay);
        replay.update_snapshot(&mut snapshot);
        let mut copy = snapshot.clone();
        let gpu = on_gpu.render_image(&mut snapshot).unwrap();
        let cpu = on_cpu.render_image(&mut copy).unwrap();
        assert_eq!((gpu.width, gpu.height), (cpu.width, cpu.height));
        let worst = gpu
            .rgba
            .iter()
            .zip(&cpu.rgba)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap_or(0);
        differing += gpu
            .rgba
            .iter()
            .zip(&cpu.rgba)
            .filter(|(a, b)| a != b)
            .count();
        compared += gpu.rgba.len();
        if worst > 2 {
            let dir = keep(&[
                (&gpu, format!("step{i}_gpu.png")),
                (&cpu, format!("step{i}_cpu.png")),
            ]);
            panic!("step {i}: CPU compositing differs from the GPU by {worst} ({dir:?})");
        }
    }
    // Rounding differences are rare: most of every frame is solid colour.
    assert!(
        differing * 100 < compared,
        "{differing} of {compared} channels differ"
    );
}

/// The software renderer composites with the same code as CPU compositing on a GPU adapter,
/// into memory instead of a staging buffer: the recorded session, drawn both ways with damage
/// tracking, must give the same pixels exactly, and a frame drawn by the GPU's pipeline may
/// differ from it only by blend rounding, as CPU compositing may.
#[test]
fn the_software_renderer_draws_what_cpu_compositing_draws() {
    let mut on_gpu = offscreen_for(Way::Gpu);
    let mut into_textures = offscreen_for(Way::CpuIntoTextures);
    let mut in_memory = software();
    let mut replay = Replay::new(40, 12, 100);
    let mut snapshot = Snapshot::default();
    for (i, step) in recorded_steps().iter().enumerate() {
        step(&mut replay);
        replay.update_snapshot(&mut snapshot);
        let (mut a, mut b) = (snapshot.clone(), snapshot.clone());
        let textures = into_textures.render_image(&mut a).unwrap();
        let gpu = on_gpu.render_image(&mut b).unwrap();
        let memory = in_memory.render_image(&mut snapshot).unwrap();
        if memory != textures {
            let dir = keep(&[
                (&memory, format!("step{i}_software.png")),
                (&textures, format!("step{i}_cpu.png")),
            ]);
            panic!("step {i}: the software renderer differs from CPU compositing ({dir:?})");
        }
        let worst = gpu
            .rgba
            .iter()
            .zip(&memory.rgba)
            .map(|(a, b)| a.abs_diff(*b))
            .max();
        assert!(
            worst <= Some(2),
            "step {i}: {worst:?} from the GPU's pixels"
        );
    }
}

/// The atlas starts small and grows as glyphs come: rows drawn before a growth stay right,
/// rows drawn after it come from the new texture, and the frame equals one drawn whole by a
/// renderer that never saw the small atlas's contents.
#[test]
fn growing_the_glyph_atlas_keeps_what_is_drawn_and_draws_what_is_new() {
    for way in EVERY_WAY {
        atlas_growth_keeps_what_is_drawn(way);
    }
}

fn atlas_growth_keeps_what_is_drawn(compositing: Way) {
    let mut damage = offscreen_for(compositing);
    let mut full = offscreen_for(compositing);
    let first_size = damage.renderer.atlas_size();
    let mut replay = Replay::new(120, 40, 100);
    let mut snapshot = Snapshot::default();
    replay.feed(b"\x1b[1;31mbefore\x1b[0m the atlas grows: ASCII, \x1b[3mitalic\x1b[0m\r\n");
    damage
        .render_image(&mut {
            replay.update_snapshot(&mut snapshot);
            snapshot.clone()
        })
        .unwrap();
    assert_eq!(
        damage.renderer.atlas_size(),
        first_size,
        "a line of ASCII fits"
    );

    // 2,000 distinct CJK ideographs: far more than the first atlas holds.
    let ideographs: String = (0x4e00u32..0x4e00 + 2000)
        .filter_map(char::from_u32)
        .collect();
    replay.feed(ideographs.as_bytes());
    replay.update_snapshot(&mut snapshot);
    let mut full_snapshot = snapshot.clone();
    damage.render(&mut snapshot);
    let grown = damage.read_frame().unwrap();
    assert!(
        damage.renderer.atlas_size() > first_size,
        "the atlas grew ({first_size} px at first, {} px now)",
        damage.renderer.atlas_size()
    );
    // The reference: drawn whole by a renderer whose atlas had grown in an earlier frame, so
    // nothing in its frame depends on the growth.
    full.render_image(&mut full_snapshot.clone()).unwrap();
    full.view.invalidate();
    let redrawn = full.render_image(&mut full_snapshot).unwrap();
    if grown != redrawn {
        let dir = keep(&[
            (&grown, "atlas_grown.png".into()),
            (&redrawn, "atlas_full.png".into()),
        ]);
        panic!(
            "{compositing:?}: a frame drawn across the atlas's growth differs from a full redraw \
             ({dir:?})"
        );
    }
    let m = damage.renderer.cell_metrics();
    assert!(
        cells(&grown, m, 0, 0, 6).contains(&RED),
        "the row drawn before the growth is still there"
    );
}

#[test]
fn a_one_line_scroll_redraws_one_row_and_a_status_redraw_one_row() {
    let mut gpu = offscreen();
    let mut replay = Replay::new(80, 24, 1000);
    let mut snapshot = Snapshot::default();
    for i in 0..30 {
        replay.feed(format!("line {i}\r\n").as_bytes());
    }
    replay.update_snapshot(&mut snapshot);
    gpu.render(&mut snapshot);

    replay.feed(b"line 30\r\n");
    replay.update_snapshot(&mut snapshot);
    let report = gpu.render(&mut snapshot);
    assert_eq!(report.shifted, 1);
    // The new last line, and the row the old cursor was on (now holding "line 30").
    assert!(report.rows_drawn <= 2, "{report:?}");

    replay.feed(b"\r\x1b[2Kbuilding 50%");
    replay.update_snapshot(&mut snapshot);
    let report = gpu.render(&mut snapshot);
    assert_eq!((report.shifted, report.rows_drawn), (0, 1), "{report:?}");

    // Nothing changed: nothing drawn.
    replay.update_snapshot(&mut snapshot);
    let report = gpu.render(&mut snapshot);
    assert_eq!(report.rows_drawn, 0);
}

/// Two panes' views drawn by one renderer (one glyph atlas, one instance buffer), frames
/// interleaved as a window with a split draws them: each view must stay equal to a full
/// redraw of its own pane, through scrolls, a resize of one, and a font change for both.
#[test]
fn views_sharing_a_renderer_each_equal_a_full_redraw() {
    for way in EVERY_WAY {
        views_each_equal_a_full_redraw(way);
    }
}

fn views_each_equal_a_full_redraw(way: Way) {
    let mut shared = offscreen_for(way);
    let mut second = shared.renderer.new_view();
    let mut full = offscreen_for(way);
    let mut panes = [Replay::new(30, 10, 50), Replay::new(24, 8, 50)];
    let mut snapshots = [Snapshot::default(), Snapshot::default()];
    for i in 0..40 {
        for (p, (replay, snapshot)) in panes.iter_mut().zip(&mut snapshots).enumerate() {
            let line = match p {
                0 => format!("left {i} \x1b[3{}mcolour\x1b[0m 漢字\r\n", i % 8),
                _ => format!("\x1b[4{}mright\x1b[0m {i} 😀 ─┼─\r\n", i % 8),
            };
            replay.feed(line.as_bytes());
            if i == 20 && p == 1 {
                replay.resize(20, 6);
            }
            if i == 30 && p == 0 {
                let smaller = FontConfig {
                    size_px: 13.0,
                    ..FontConfig::default()
                };
                shared.renderer.set_font(&smaller).unwrap();
                full.renderer.set_font(&smaller).unwrap();
            }
            replay.update_snapshot(snapshot);
            let mut full_snapshot = snapshot.clone();
            let view = if p == 0 {
                &mut shared.view
            } else {
                &mut second
            };
            shared.renderer.render(view, snapshot);
            let drawn = shared.renderer.read_frame(view).unwrap();
            full.view.invalidate();
            let redrawn = full.render_image(&mut full_snapshot).unwrap();
            assert!(
                drawn == redrawn,
                "{way:?}, pane {p}, frame {i}: its view differs from a full redraw"
            );
        }
    }
}

#[test]
fn cell_offsets_glyph_offsets_and_builtin_box_drawing_are_honoured() {
    let base = offscreen();
    let spaced = Offscreen::new(&FontConfig {
        offset: (2, 4),
        ..FontConfig::default()
    })
    .unwrap();
    let (m, s) = (base.renderer.cell_metrics(), spaced.renderer.cell_metrics());
    assert_eq!((s.width, s.height), (m.width + 2, m.height + 4));
    assert_eq!(
        s.baseline,
        m.baseline + 2,
        "the text moves down by half the spacing"
    );

    // The same line of box drawing, from the built-in sprites and from the font: different
    // pixels (the sprites join cell to cell), and text moved by a glyph offset differs too.
    let draw = |config: FontConfig, text: &[u8]| {
        let mut gpu = Offscreen::new(&config).unwrap();
        let mut replay = Replay::new(8, 1, 0);
        replay.feed(text);
        let mut snapshot = Snapshot::default();
        render(&mut gpu, &mut replay, &mut snapshot)
    };
    let sprites = draw(FontConfig::default(), "────────".as_bytes());
    let glyphs = draw(
        FontConfig {
            builtin_box_drawing: false,
            ..FontConfig::default()
        },
        "────────".as_bytes(),
    );
    assert!(
        sprites != glyphs,
        "builtin_box_drawing = false draws the font's glyphs"
    );
    let plain = draw(FontConfig::default(), b"HHHH");
    let moved = draw(
        FontConfig {
            glyph_offset: (1, 2),
            ..FontConfig::default()
        },
        b"HHHH",
    );
    assert!(plain != moved, "the glyph offset moves the text");
}

#[test]
fn selection_and_cursor_text_colours_are_drawn_and_tracked_as_damage() {
    let mut gpu = offscreen();
    let m = gpu.renderer.cell_metrics();
    let mut replay = Replay::new(10, 2, 0);
    replay.feed(b"abcdefgh");
    replay.select(Some(((0, 0), (0, 3))), false);
    let mut snapshot = Snapshot::default();
    let swapped = render(&mut gpu, &mut replay, &mut snapshot);
    let green = sluice_term::Rgb {
        r: 0x10,
        g: 0xa0,
        b: 0x20,
    };
    gpu.view.colors.selection = Some((sluice_term::Rgb::default(), green));
    // Nothing changed in the terminal: only the colours, which must still redraw the row.
    replay.update_snapshot(&mut snapshot);
    gpu.render(&mut snapshot);
    let colored = gpu.read_frame().unwrap();
    assert!(swapped != colored);
    let inside = colored.pixel(m.width + 1, 1);
    assert_eq!(
        inside,
        [0x10, 0xa0, 0x20, 255],
        "the selection's background"
    );
    let outside = colored.pixel(m.width * 6, 1);
    assert_ne!(outside, [0x10, 0xa0, 0x20, 255]);
}

/// Clearing the atlas (a font change, or a full atlas) gives glyphs the places others had: a
/// frame drawn after it, by a renderer that drew the others before, equals one drawn by a
/// renderer that never did. On the software renderer this holds the glyph tiles to the atlas
/// they were made from.
#[test]
fn a_cleared_atlas_draws_new_glyphs_where_old_ones_were() {
    for way in EVERY_WAY {
        let mut reused = offscreen_for(way);
        let mut fresh = offscreen_for(way);
        // Letters of one height in one colour, so that a place given to another letter has
        // tiles of the same size.
        let letters = "acemnorsuvwxz";
        let mut replay = Replay::new(40, 4, 0);
        let mut snapshot = Snapshot::default();
        replay.feed(format!("\x1b[31m{letters}").as_bytes());
        render(&mut reused, &mut replay, &mut snapshot);

        reused.renderer.set_font(&FontConfig::default()).unwrap();
        let reversed: String = letters.chars().rev().collect();
        replay.feed(format!("\r{reversed}").as_bytes());
        let after = render(&mut reused, &mut replay, &mut snapshot);
        let expected = fresh.render_image(&mut snapshot).unwrap();
        if after != expected {
            let dir = keep(&[
                (&after, "atlas_cleared.png".into()),
                (&expected, "atlas_fresh.png".into()),
            ]);
            panic!("{way:?}: glyphs drawn after the atlas was cleared differ ({dir:?})");
        }
    }
}
