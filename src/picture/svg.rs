//! A small SVG writer: elements with attributes, text escaped. The pictures need only lines,
//! circles, polygons, paths and text, so no crate is needed to write them.

use std::fmt::Write;

/// One element's start: its name and attributes, built up by [`El::at`] and [`El::num`].
pub struct El {
    name: &'static str,
    attrs: String,
}

/// `&`, `<`, `>` and `"` as XML writes them.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            _ => s.push(c),
        }
    }
    s
}

/// A coordinate with at most two decimals and no trailing zeros (`12`, `12.5`, `-0.25`).
pub fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Points as a `points` attribute: `x1,y1 x2,y2 ...`.
pub fn points(ps: &[(f64, f64)]) -> String {
    ps.iter().map(|&(x, y)| format!("{},{}", num(x), num(y))).collect::<Vec<_>>().join(" ")
}

impl El {
    /// An element named `name` without attributes.
    pub fn new(name: &'static str) -> El {
        El { name, attrs: String::new() }
    }

    /// Adds the attribute `key="value"` (escaped).
    pub fn at(mut self, key: &str, value: &str) -> El {
        let _ = write!(self.attrs, " {key}=\"{}\"", escape(value));
        self
    }

    /// Adds a numeric attribute.
    pub fn num(self, key: &str, value: f64) -> El {
        let v = num(value);
        self.at(key, &v)
    }
}

/// An SVG document being written: a `viewBox` of `width` × `height` user units.
pub struct Svg {
    out: String,
    open: Vec<&'static str>,
}

impl Svg {
    /// Starts a document `width` × `height` units, with `title` for readers and tools.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let (w, h) = (num(width), num(height));
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\">"
        );
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        Svg { out, open: Vec::new() }
    }

    /// An empty element: `<name .../>`.
    pub fn add(&mut self, e: El) {
        let _ = writeln!(self.out, "{}<{}{}/>", self.indent(), e.name, e.attrs);
    }

    /// An element holding `text` (escaped): `<name ...>text</name>`.
    pub fn add_text(&mut self, e: El, text: &str) {
        let _ = writeln!(self.out, "{}<{}{}>{}</{}>", self.indent(), e.name, e.attrs, escape(text), e.name);
    }

    /// Opens an element that later ones go into, until [`Svg::close`].
    pub fn open(&mut self, e: El) {
        let _ = writeln!(self.out, "{}<{}{}>", self.indent(), e.name, e.attrs);
        self.open.push(e.name);
    }

    /// Closes the element opened last.
    pub fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            let _ = writeln!(self.out, "{}</{name}>", self.indent());
        }
    }

    /// The document's text, every open element closed.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Two spaces per open element, one level inside `<svg>`.
    fn indent(&self) -> String {
        "  ".repeat(self.open.len() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_text_is_escaped() {
        assert_eq!([num(12.0), num(12.5), num(-0.25), num(-0.001), num(1.005)], ["12", "12.5", "-0.25", "0", "1"]);
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(points(&[(1.0, 2.5), (3.0, 4.0)]), "1,2.5 3,4");
    }

    #[test]
    fn elements_nest_and_close() {
        let mut s = Svg::new(10.0, 20.0, "t & u");
        s.open(El::new("g").at("fill", "red"));
        s.add(El::new("circle").num("cx", 1.0).num("r", 0.5));
        s.add_text(El::new("text").at("x", "1"), "帥<");
        let text = s.finish();
        assert!(text.contains("viewBox=\"0 0 10 20\"") && text.contains("<title>t &amp; u</title>"));
        assert!(text.contains(
            "  <g fill=\"red\">\n    <circle cx=\"1\" r=\"0.5\"/>\n    <text x=\"1\">帥&lt;</text>\n  </g>\n</svg>\n"
        ));
    }
}
