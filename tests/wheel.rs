//! The Python package as a pip user gets it: the wheel is built with maturin (with zig, for
//! manylinux2014, as `pyproject.toml` says), installed into a fresh virtual environment with
//! `pip install --no-index`, and `chuhe` is run by name from that environment's PATH:
//! `chuhe --version` and a UCCI handshake. The package's metadata carries the README.
//!
//! It needs maturin and zig (`pip install maturin ziglang`): maturin from `$CHUHE_MATURIN` or
//! PATH, zig on PATH or as `python3 -m ziglang` beside maturin. Without them the test prints
//! one `skipped: ...` line and passes, unless `CHUHE_WHEEL_TEST=require` (as `.ci/run` sets
//! after installing them), when a missing tool fails it. The build (a release build of its
//! own, a few minutes on two cores; kept in `target/tmp/wheel-target` for the next run) and
//! every step after it are checked by their outcome only, never by how long they take.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TMP: &str = env!("CARGO_TARGET_TMPDIR");

/// Runs `cmd`; panics with its output when it fails to start or exits non-zero.
fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Whether `program args` starts and exits with status 0 (with `path` as its PATH).
fn works(program: &Path, args: &[&str], path: &str) -> bool {
    Command::new(program)
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `name`'s full path on `path` (a PATH value), if it is there.
fn on_path(name: &str, path: &str) -> Option<PathBuf> {
    std::env::split_paths(path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// PATH with `dir` first.
fn path_with(dir: &Path) -> String {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&rest));
    std::env::join_paths(dirs).expect("a PATH").into_string().expect("a UTF-8 PATH")
}

/// maturin and the PATH to build with (maturin's directory first, so that the `python3 -m
/// ziglang` of its environment is found), or why the test cannot run.
fn tools() -> Result<(PathBuf, String), String> {
    let path = std::env::var("PATH").unwrap_or_default();
    let maturin = match std::env::var_os("CHUHE_MATURIN") {
        Some(m) => PathBuf::from(m),
        None => on_path("maturin", &path).ok_or("maturin is not on PATH and CHUHE_MATURIN is not set")?,
    };
    if !works(&maturin, &["--version"], &path) {
        return Err(format!("{} --version does not run", maturin.display()));
    }
    let path = path_with(maturin.parent().unwrap_or(Path::new(".")));
    let zig = on_path("zig", &path).is_some_and(|z| works(&z, &["version"], &path))
        || on_path("python3", &path).is_some_and(|p| works(&p, &["-m", "ziglang", "version"], &path));
    if !zig {
        return Err("zig is not on PATH and `python3 -m ziglang` does not run (pip install ziglang)".into());
    }
    if !on_path("python3", &path).is_some_and(|p| works(&p, &["-m", "venv", "--help"], &path)) {
        return Err("python3 with its venv module is not on PATH".into());
    }
    Ok((maturin, path))
}

#[test]
fn the_wheel_puts_a_working_chuhe_on_the_venvs_path() {
    let (maturin, path) = match tools() {
        Ok(t) => t,
        Err(why) if std::env::var("CHUHE_WHEEL_TEST").as_deref() == Ok("require") => {
            panic!("CHUHE_WHEEL_TEST=require, but {why}")
        }
        Err(why) => {
            // Straight to stderr, past the test harness's capture, so that the line shows.
            let _ = writeln!(std::io::stderr(), "skipped: the wheel test: {why} (pip install maturin ziglang)");
            return;
        }
    };
    let work = Path::new(TMP).join("wheel");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    // The wheel, as the README builds it.
    let wheels = work.join("wheels");
    run(
        Command::new(&maturin)
            .args(["build", "--release", "--zig", "--compatibility", "manylinux2014", "--out"])
            .arg(&wheels)
            .arg("--manifest-path")
            .arg(Path::new(ROOT).join("Cargo.toml"))
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", Path::new(TMP).join("wheel-target"))
            .stdin(Stdio::null()),
        "maturin build",
    );
    let built: Vec<PathBuf> = std::fs::read_dir(&wheels).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(built.len(), 1, "one wheel: {built:?}");
    let wheel = &built[0];
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    let version = env!("CARGO_PKG_VERSION");
    assert!(name.starts_with(&format!("chuhe-{version}-py3-none-manylinux")), "{name}");
    assert!(name.contains("manylinux_2_17_x86_64") && name.ends_with(".whl"), "{name}");

    // A fresh virtual environment, the wheel alone installed into it.
    let venv = work.join("venv");
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv).env("PATH", &path), "python3 -m venv");
    let bin = venv.join("bin");
    run(
        Command::new(bin.join("python")).args(["-m", "pip", "install", "--no-index", "--quiet"]).arg(wheel),
        "pip install --no-index",
    );

    // `chuhe` by name, from the environment's PATH.
    let venv_path = path_with(&bin);
    let found = run(Command::new("sh").args(["-c", "command -v chuhe"]).env("PATH", &venv_path), "command -v");
    assert_eq!(String::from_utf8_lossy(&found.stdout).trim(), bin.join("chuhe").to_string_lossy());
    let out = run(Command::new("chuhe").arg("--version").env("PATH", &venv_path), "chuhe --version");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("chuhe {version} (release build, ")), "{text}");

    let mut engine = Command::new("chuhe")
        .env("PATH", &venv_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chuhe from the venv");
    engine.stdin.as_mut().unwrap().write_all(b"ucci\nisready\nquit\n").unwrap();
    let out = engine.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    assert!(lines.iter().any(|l| l == &format!("id name Chuhe {version}")), "{lines:?}");
    let ok = lines.iter().position(|l| l == "ucciok").expect("ucciok");
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(ok < ready && lines.last().map(String::as_str) == Some("bye"), "{lines:?}");
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));

    // What pip shows of the package: its summary, and the README as its description.
    let meta = run(
        Command::new(bin.join("python")).args([
            "-c",
            "from importlib.metadata import metadata as m; d = m('chuhe'); \
             print(d['Version']); print(d['Summary']); print(d.get_payload().splitlines()[0])",
        ]),
        "the package's metadata",
    );
    let meta = String::from_utf8_lossy(&meta.stdout);
    let readme_title = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let readme_title = readme_title.lines().next().unwrap();
    let want: Vec<&str> = vec![version, env!("CARGO_PKG_DESCRIPTION"), readme_title];
    let have: Vec<&str> = meta.lines().collect();
    assert_eq!(have.len(), 3, "{meta}");
    assert_eq!(have[0], want[0]);
    assert!(have[1].starts_with(want[1]), "summary {:?}", have[1]);
    assert_eq!(have[2], want[2]);
    let _ = writeln!(std::io::stderr(), "the wheel test: built, installed and ran {name}");
    let _ = std::fs::remove_dir_all(&work);
}
