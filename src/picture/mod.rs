//! Pictures for players: board diagrams and evaluation graphs as SVG (written here by hand),
//! and PNG rendered from that SVG with resvg.

pub mod board;
pub mod graph;
pub mod png;
pub mod svg;

pub use board::{Arrow, Diagram, Style};
pub use graph::EvalGraph;

/// A picture file's kind, from its name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`: the text as written.
    Svg,
    /// `.png`: the SVG rendered.
    Png,
}

impl Format {
    /// The kind of `path` (`.svg` or `.png`, any case).
    pub fn of(path: &str) -> Result<Format, String> {
        let ext = std::path::Path::new(path).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(format!("'{path}': the picture's name must end in .svg or .png")),
        }
    }
}

/// Writes `svg` to `path` as its extension says (a PNG at `scale` pixels per unit).
pub fn write(path: &str, svg: &str, scale: f32) -> Result<(), String> {
    let bytes = match Format::of(path)? {
        Format::Svg => svg.as_bytes().to_vec(),
        Format::Png => png::render(svg, scale)?,
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write '{path}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_is_the_extension() {
        assert_eq!(Format::of("a/b.SVG"), Ok(Format::Svg));
        assert_eq!(Format::of("b.png"), Ok(Format::Png));
        assert!(Format::of("b.jpg").unwrap_err().contains(".svg or .png"));
        assert!(Format::of("png").is_err());
    }
}
