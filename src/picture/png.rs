//! SVG to PNG with resvg, over the system's fonts (loaded once).

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The system's fonts, loaded on first use.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        Arc::new(db)
    })
    .clone()
}

/// Whether the system's fonts draw every character of `text`: each is rendered alone and must
/// leave ink (usvg skips a character no font has).
fn draws(text: &str, family: &str) -> bool {
    text.chars().all(|c| {
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\">\
             <text x=\"4\" y=\"32\" font-size=\"32\" font-family=\"{family}\">{c}</text></svg>"
        );
        let Ok(tree) = parse(&svg) else { return false };
        let Some(mut pixmap) = tiny_skia::Pixmap::new(40, 40) else { return false };
        resvg::render(&tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
        pixmap.pixels().iter().any(|p| p.alpha() > 0)
    })
}

/// Whether some system font has the pieces' Chinese characters (so a PNG can show them).
pub fn has_chinese_font() -> bool {
    draws("帥將傌俥砲楚漢", super::board::CJK_FONTS)
}

/// Whether some system font has Latin letters (so a PNG shows any text at all).
pub fn has_latin_font() -> bool {
    draws("K", super::board::LATIN_FONTS)
}

/// Parses `svg` with usvg (the SVG's font names, else any installed font that has the
/// characters): what both rendering and the tests' validity check do.
pub fn parse(svg: &str) -> Result<usvg::Tree, String> {
    let opt = usvg::Options { fontdb: fonts(), font_family: "DejaVu Sans".into(), ..usvg::Options::default() };
    usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the SVG does not parse: {e}"))
}

/// `svg` rendered as PNG bytes, `scale` device pixels per SVG unit.
pub fn render(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let tree = parse(svg)?;
    let size = tree.size().to_int_size().scale_by(scale).ok_or("the picture has no size")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the picture has no size")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("cannot encode the PNG: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_small_svg_as_png() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\" viewBox=\"0 0 20 10\">\
                   <rect width=\"20\" height=\"10\" fill=\"#ff0000\"/></svg>";
        let png = render(svg, 2.0).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        // IHDR: width and height, big-endian, at bytes 16..24.
        assert_eq!((&png[16..20], &png[20..24]), (&[0, 0, 0, 40][..], &[0, 0, 0, 20][..]));
        assert!(render("<svg", 1.0).unwrap_err().starts_with("the SVG does not parse"));
    }
}
