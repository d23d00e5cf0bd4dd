//! Records how the engine is built (the compiler's version, the target, the profile) for the
//! protocol's `compiler` command; a missing `rustc` only makes the version unknown.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".to_string());
    println!("cargo:rustc-env=CHUHE_RUSTC_VERSION={version}");
    for var in ["TARGET", "PROFILE", "OPT_LEVEL"] {
        println!("cargo:rustc-env=CHUHE_{var}={}", std::env::var(var).unwrap_or_default());
    }
    println!("cargo:rerun-if-changed=build.rs");
}
