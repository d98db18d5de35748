// Reads the version of the toolnexus package this build resolved from the lock file cargo wrote
// beside the manifest (the crate's own metadata, published or a source checkout), for the handshake.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let lock = dir.join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut version = String::new();
    let mut in_toolnexus = false;
    for line in text.lines() {
        if line == "[[package]]" {
            in_toolnexus = false;
        } else if line == "name = \"toolnexus\"" {
            in_toolnexus = true;
        } else if in_toolnexus {
            if let Some(v) = line.strip_prefix("version = \"").and_then(|v| v.strip_suffix('"')) {
                version = v.to_owned();
                break;
            }
        }
    }
    println!("cargo:rustc-env=TNC_TOOLNEXUS_VERSION={version}");
}
