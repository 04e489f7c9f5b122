// Draws one pane's persistent frame texture onto the window's surface texture at its place
// (the window is cleared to the background first; pixels outside the pane are left alone). The frame texture is a ring of rows: the screen's top row is at `origin.y`,
// and rows below the texture's end wrap around to its start.

struct Blit {
    offset: vec2<f32>,
    frame_size: vec2<f32>,
    origin: vec2<f32>,
    // window.opacity, for the default background only.
    opacity: f32,
    pad: f32,
    background: vec4<f32>,
};

@group(0) @binding(0) var<uniform> blit: Blit;
@group(0) @binding(1) var frame: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // One triangle that covers the whole target.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let p = position.xy - blit.offset;
    if p.x < 0.0 || p.y < 0.0 || p.x >= blit.frame_size.x || p.y >= blit.frame_size.y {
        discard;
    }
    let y = (floor(p.y) + blit.origin.y) % blit.frame_size.y;
    let color = textureLoad(frame, vec2<i32>(i32(floor(p.x)), i32(y)), 0);
    // The default background is see-through (pre-multiplied); other colours stay opaque.
    if blit.opacity < 1.0 && all(abs(color.rgb - blit.background.rgb) < vec3<f32>(0.5 / 255.0)) {
        return vec4<f32>(color.rgb * blit.opacity, blit.opacity);
    }
    return color;
}
