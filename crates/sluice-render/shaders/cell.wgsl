// Sluice's cell pipeline: one quad (two triangles) per background run, glyph, sprite or
// decoration. Quads are placed in whole pixels and sampled texel for texel from the atlas,
// so the text is exactly what the rasteriser produced.

struct Globals {
    // Size of the frame texture being drawn into, in pixels.
    target_size: vec2<f32>,
    atlas_size: vec2<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var atlas: texture_2d<f32>;

// One corner of a quad. Quads come already cut to their row (crates/sluice-render/src/rows.rs),
// so the fragment shader needs no `discard`.
struct Corner {
    @location(0) pixel: vec2<f32>,
    @location(1) texel: vec2<f32>,
    @location(2) color: vec4<f32>,
    // 0: solid rectangle; 1: atlas coverage tinted with `color`; 2: atlas colour image.
    @location(3) kind: u32,
};

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) texel: vec2<f32>,
    @location(1) color: vec4<f32>,
    @location(2) @interpolate(flat) kind: u32,
};

@vertex
fn vs_main(corner: Corner) -> VertexOut {
    var out: VertexOut;
    out.position = vec4<f32>(
        corner.pixel.x / globals.target_size.x * 2.0 - 1.0,
        1.0 - corner.pixel.y / globals.target_size.y * 2.0,
        0.0,
        1.0,
    );
    out.texel = corner.texel;
    out.color = corner.color;
    out.kind = corner.kind;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if in.kind == 0u {
        return vec4<f32>(in.color.rgb * in.color.a, in.color.a);
    }
    let texel = textureLoad(atlas, vec2<i32>(floor(in.texel)), 0);
    if in.kind == 1u {
        let alpha = texel.a * in.color.a;
        return vec4<f32>(in.color.rgb * alpha, alpha);
    }
    // Colour glyphs are stored premultiplied.
    return texel;
}
