// Sluice's cell pipeline: one instanced quad per background run, glyph, sprite or
// decoration. Quads are placed in whole pixels and sampled texel for texel from the atlas,
// so the text is exactly what the rasteriser produced.

struct Globals {
    // Size of the frame texture being drawn into, in pixels.
    target_size: vec2<f32>,
    atlas_size: vec2<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var atlas: texture_2d<f32>;

struct Instance {
    @location(0) pos: vec2<f32>,
    @location(1) size: vec2<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) color: vec4<f32>,
    // The row's top and bottom: nothing drawn for a row may spill into its neighbours, or a
    // row redrawn alone would differ from the same row in a full redraw.
    @location(4) clip: vec2<f32>,
    // 0: solid rectangle; 1: atlas coverage tinted with `color`; 2: atlas colour image.
    @location(5) kind: u32,
};

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) texel: vec2<f32>,
    @location(1) color: vec4<f32>,
    @location(2) clip: vec2<f32>,
    @location(3) @interpolate(flat) kind: u32,
};

@vertex
fn vs_main(@builtin(vertex_index) index: u32, instance: Instance) -> VertexOut {
    // A triangle strip over the quad's four corners.
    let corner = vec2<f32>(f32(index & 1u), f32(index >> 1u));
    let pixel = instance.pos + corner * instance.size;
    var out: VertexOut;
    out.position = vec4<f32>(
        pixel.x / globals.target_size.x * 2.0 - 1.0,
        1.0 - pixel.y / globals.target_size.y * 2.0,
        0.0,
        1.0,
    );
    out.texel = instance.uv + corner * instance.size;
    out.color = instance.color;
    out.clip = instance.clip;
    out.kind = instance.kind;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if in.position.y < in.clip.x || in.position.y >= in.clip.y {
        discard;
    }
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
