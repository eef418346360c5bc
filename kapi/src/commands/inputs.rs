//! The manifests a command reads: `-f` files, directories (their `.json`, `.yaml`, `.yml`
//! and `.pb` files, recursively with `-R`), or `-` for standard input.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One input: its name for messages, and its bytes.
pub struct Input {
    /// The path, or `<stdin>` for standard input.
    pub name: String,
    /// The content.
    pub bytes: Vec<u8>,
}

/// Reads every input `paths` name, in order (a directory's entries sorted by name, its
/// subdirectories read in place with `-R`, as Go's `filepath.Walk`); an unreadable one is
/// an error line, and the others are still read.
pub fn read_inputs(paths: &[PathBuf], recursive: bool) -> (Vec<Input>, Vec<String>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            match std::io::stdin().read_to_end(&mut bytes) {
                Ok(_) => inputs.push(Input {
                    name: "<stdin>".to_owned(),
                    bytes,
                }),
                Err(e) => errors.push(format!("<stdin>: {e}")),
            }
        } else if path.is_dir() {
            let mut files = Vec::new();
            collect_dir(path, recursive, &mut files, &mut errors);
            for file in files {
                read_file(&file, &mut inputs, &mut errors);
            }
        } else {
            read_file(path, &mut inputs, &mut errors);
        }
    }
    (inputs, errors)
}

fn read_file(path: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<String>) {
    match std::fs::read(path) {
        Ok(bytes) => inputs.push(Input {
            name: path.display().to_string(),
            bytes,
        }),
        Err(e) => errors.push(format!("{}: {e}", path.display())),
    }
}

fn collect_dir(dir: &Path, recursive: bool, files: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            if recursive {
                collect_dir(&path, recursive, files, errors);
            }
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "yaml" || e == "yml" || e == "pb")
        {
            files.push(path);
        }
    }
}
