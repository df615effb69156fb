//! Embeds the analysis board (`web/dist`, made by `web/build.sh`) into `xq serve`: writes
//! `$OUT_DIR/web_assets.rs` with one `include_bytes!` per file, or an empty table when
//! the board has not been built (then `xq serve` says how to build it). Writes nothing
//! outside `OUT_DIR`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn files(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            files(&path, &format!("{prefix}{name}/"), out);
        } else {
            out.push((format!("{prefix}{name}"), path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("..").join("web");
    let dist = web.join("dist");
    // `web` exists in the repository (web/build.sh), so this does not rerun every build;
    // cargo watches the whole folder, web/dist included.
    println!("cargo:rerun-if-changed={}", web.display());
    let mut list = Vec::new();
    if dist.join("index.html").is_file() {
        files(&dist, "", &mut list);
    }
    let mut code = String::from(
        "/// The analysis board's files (path relative to web/dist, contents), embedded at\n\
         /// build time; empty when web/build.sh had not been run.\n\
         pub static ASSETS: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &list {
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("web_assets.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
