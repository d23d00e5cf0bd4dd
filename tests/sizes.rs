//! The house's size rules over `src/`: no file over 700 lines, no function over 120 lines
//! except the search node (`search/pvs.rs`'s `pvs`), which stays one function as in the
//! engines it is read beside. Functions are measured on `cargo fmt`'s layout: from the `fn`
//! line to the first line that closes a brace at the `fn`'s own indent.

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 700;
const MAX_FN_LINES: usize = 120;
/// The one function allowed over the limit: (file under src/, name).
const EXEMPT: (&str, &str) = ("search/pvs.rs", "pvs");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The name of the function a line opens, with the line's indent: `fn`, after any of `pub`,
/// `pub(...)`, `const`, `unsafe`.
fn fn_start(line: &str) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start().len();
    let mut rest = line.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("pub(") {
            rest = r.split_once(')')?.1.trim_start();
        } else if let Some(r) = ["pub ", "const ", "unsafe ", "async "].iter().find_map(|w| rest.strip_prefix(w)) {
            rest = r.trim_start();
        } else {
            break;
        }
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some((indent, &name[..end]))
}

/// Every function of `text` as (name, first line, length in lines); bodiless ones skipped.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((indent, name)) = fn_start(line) else { continue };
        if line.trim_end().ends_with(';') || line.trim_end().ends_with('}') {
            continue;
        }
        let close = lines[i..]
            .iter()
            .position(|l| l.len() > indent && l[indent..].starts_with('}') && { l[..indent].trim().is_empty() });
        if let Some(n) = close {
            found.push((name.to_string(), i + 1, n + 1));
        }
    }
    found
}

#[test]
fn no_file_or_function_in_src_is_too_long() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "src/ not found where expected");
    let mut faults = Vec::new();
    let mut exempt_seen = false;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            faults.push(format!("src/{rel}: {n} lines (at most {MAX_FILE_LINES})"));
        }
        for (name, at, len) in functions(&text) {
            if (rel.as_str(), name.as_str()) == EXEMPT {
                exempt_seen = true;
            } else if len > MAX_FN_LINES {
                faults.push(format!("src/{rel}:{at}: fn {name} is {len} lines (at most {MAX_FN_LINES})"));
            }
        }
    }
    assert!(faults.is_empty(), "split these along a real seam:\n{}", faults.join("\n"));
    assert!(exempt_seen, "the search node {EXEMPT:?} moved: update EXEMPT");
}

#[test]
fn the_measure_sees_long_functions() {
    let body = "        let x = 1;\n".repeat(MAX_FN_LINES);
    let text = format!(
        "impl A {{\n    pub(crate) fn long(\n        a: u8,\n    ) -> u8 {{\n{body}    }}\n\n    fn short() {{}}\n}}\n"
    );
    let f = functions(&text);
    assert_eq!(f, vec![("long".to_string(), 2, MAX_FN_LINES + 4)]);
}
