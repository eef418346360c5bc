//! How two copies of a release's reference data differ: JSON files compared as values
//! (key order and string escapes aside), every other file byte for byte, files only in
//! one of them named. Each difference is one line, naming the file and the JSON path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Error;

/// At most this many differences are listed per JSON file.
const PER_FILE: usize = 20;

/// The differences between the data in `ours` and in `theirs`.
pub fn dirs(ours: &Path, theirs: &Path) -> Result<Vec<String>, Error> {
    // Both whole: the data is tens of megabytes. An unreadable file counts as absent.
    let (a, b) = (crate::read_tree(ours), crate::read_tree(theirs));
    let mut out = only_in(&a, &b, "only here");
    out.extend(only_in(&b, &a, &format!("only in {}", theirs.display())));
    for (rel, x) in &a {
        let Some(y) = b.get(rel) else { continue };
        if x == y {
            continue;
        }
        if rel.extension().is_some_and(|e| e == "json") {
            let parse = |bytes: &[u8], dir: &Path| {
                serde_json::from_slice::<Value>(bytes).map_err(|source| Error::Parse {
                    path: dir.join(rel),
                    source,
                })
            };
            let mut found = Vec::new();
            values(&parse(x, ours)?, &parse(y, theirs)?, "", &mut found);
            let total = found.len();
            out.extend(
                found
                    .into_iter()
                    .take(PER_FILE)
                    .map(|d| format!("{}: {d}", rel.display())),
            );
            if total > PER_FILE {
                out.push(format!(
                    "{}: ... and {} more",
                    rel.display(),
                    total - PER_FILE
                ));
            }
        } else {
            out.push(format!("bytes differ: {}", rel.display()));
        }
    }
    Ok(out)
}

/// The files of `x` that `y` lacks, one line each under `label`; a directory `y` lacks
/// altogether (such as an older release's fixtures) is one line with its file count.
fn only_in<V>(x: &BTreeMap<PathBuf, V>, y: &BTreeMap<PathBuf, V>, label: &str) -> Vec<String> {
    let top = |rel: &Path| {
        rel.components()
            .next()
            .map(|c| PathBuf::from(c.as_os_str()))
    };
    let y_dirs: std::collections::BTreeSet<PathBuf> = y
        .keys()
        .filter(|rel| rel.components().count() > 1)
        .filter_map(|rel| top(rel))
        .collect();
    let mut whole: BTreeMap<PathBuf, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for rel in x.keys().filter(|k| !y.contains_key(*k)) {
        match top(rel) {
            Some(dir) if rel.components().count() > 1 && !y_dirs.contains(&dir) => {
                *whole.entry(dir).or_default() += 1;
            }
            _ => out.push(format!("{label}: {}", rel.display())),
        }
    }
    for (dir, n) in whole {
        out.push(format!("{label}: {}/ ({n} files)", dir.display()));
    }
    out
}

/// A short form of a value for a difference line.
fn brief(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 120 {
        let cut: String = text.chars().take(117).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// Appends the differences between `a` and `b` at JSON path `at`.
fn values(a: &Value, b: &Value, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let path = format!("{at}/{k}");
                match y.get(k) {
                    Some(w) => values(v, w, &path, out),
                    None => out.push(format!("{path}: only here: {}", brief(v))),
                }
            }
            for (k, w) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                out.push(format!("{at}/{k}: only there: {}", brief(w)));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                values(v, w, &format!("{at}/{i}"), out);
            }
        }
        _ if a != b => out.push(format!("{at}: {} here, {} there", brief(a), brief(b))),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_name_their_json_paths() {
        let a = json!({"s": {"x": [1, 2], "only": true}, "same": "é"});
        let b = json!({"s": {"x": [1, 3], "other": 1}, "same": "é"});
        let mut found = Vec::new();
        values(&a, &b, "", &mut found);
        assert_eq!(
            found,
            [
                "/s/only: only here: true",
                "/s/x/1: 2 here, 3 there",
                "/s/other: only there: 1"
            ]
        );
    }

    #[test]
    fn a_directory_missing_there_is_one_line() {
        let tree = |paths: &[&str]| -> BTreeMap<PathBuf, PathBuf> {
            paths
                .iter()
                .map(|p| (PathBuf::from(p), PathBuf::from(p)))
                .collect()
        };
        let ours = tree(&["a.json", "new.json", "t/x", "t/y", "old/1", "old/2"]);
        let theirs = tree(&["a.json", "t/x", "gone.json"]);
        assert_eq!(
            only_in(&ours, &theirs, "only here"),
            [
                "only here: new.json",
                "only here: t/y",
                "only here: old/ (2 files)"
            ]
        );
        assert_eq!(
            only_in(&theirs, &ours, "only there"),
            ["only there: gone.json"]
        );
    }

    #[test]
    fn arrays_of_other_lengths_differ_as_a_whole() {
        let mut found = Vec::new();
        values(&json!([1]), &json!([1, 2]), "/a", &mut found);
        assert_eq!(found, ["/a: [1] here, [1,2] there"]);
    }
}
