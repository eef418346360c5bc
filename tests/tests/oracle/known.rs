//! The differences from Go that remain, each with Go's reason
//! (`known_differences.txt`): a line `suite | kind | column | text | reason`, where a
//! difference is known when its suite and column match, its kind matches `kind` and its
//! description contains `text`, where `*` stands for any run of characters (any kind; a
//! map key in a path). Every other difference fails the suite; a listed one not
//! seen is reported (it may need more seeds to show, or be gone: then remove it).
//! A suite written `suite@X.Y` (e.g. `validation@1.37`) limits the line to release X.Y's
//! run (`RELEASE_UNDER_TEST`), for what only one release's Go does.

use crate::outcome::Outcome;

const KNOWN: &str = include_str!("known_differences.txt");

struct Known<'a> {
    suite: &'a str,
    kind: &'a str,
    column: &'a str,
    text: &'a str,
}

fn known() -> Vec<Known<'static>> {
    KNOWN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert!(
                f.len() == 5 && !f[4].is_empty(),
                "known_differences.txt: `{l}` is not `suite | kind | column | text | reason`"
            );
            let (suite, release) = match f[0].split_once('@') {
                Some((suite, release)) => (suite, Some(release)),
                None => (f[0], None),
            };
            release
                .is_none_or(|r| r == crate::RELEASE_UNDER_TEST)
                .then_some(Known {
                    suite,
                    kind: f[1],
                    column: f[2],
                    text: f[3],
                })
        })
        .collect()
}

/// Fails on every difference the list does not explain.
pub fn check(suite: &str, outcome: &Outcome) {
    let known = known();
    let mut seen = vec![false; known.len()];
    let mut unexplained = Vec::new();
    for ((kind, column), cell) in &outcome.cells {
        for d in &cell.different {
            let hit = known.iter().position(|k| {
                k.suite == suite
                    && glob_matches(kind, k.kind)
                    && k.column == column.name()
                    && contains_glob(d, k.text)
            });
            match hit {
                Some(i) => seen[i] = true,
                None => unexplained.push(format!("{kind} {}: {d}", column.name())),
            }
        }
    }
    for (k, seen) in known.iter().zip(seen) {
        if k.suite == suite && !seen {
            eprintln!(
                "note: known difference not seen in this run: {} {} {}",
                k.kind, k.column, k.text
            );
        }
    }
    for d in unexplained.iter().take(5000) {
        eprintln!("DIFFERENT {d}");
    }
    assert!(
        unexplained.is_empty(),
        "{suite}: {} difference(s) from Go that known_differences.txt does not explain",
        unexplained.len()
    );
}

/// Whether all of `text` is `pattern`, where `*` in the pattern matches any run of
/// characters.
fn glob_matches(text: &str, pattern: &str) -> bool {
    match pattern.split_once('*') {
        None => text == pattern,
        Some((head, tail)) => {
            text.starts_with(head)
                && (0..=text.len() - head.len()).any(|i| {
                    text.is_char_boundary(head.len() + i)
                        && glob_matches(&text[head.len() + i..], tail)
                })
        }
    }
}

/// Whether `text` contains `pattern`, where `*` in the pattern matches any run of
/// characters.
fn contains_glob(text: &str, pattern: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(first) = parts.next() else {
        return true;
    };
    text.match_indices(first).any(|(start, _)| {
        let mut rest = &text[start + first.len()..];
        parts.clone().all(|part| match rest.find(part) {
            Some(i) => {
                rest = &rest[i + part.len()..];
                true
            }
            None => false,
        })
    })
}

#[test]
fn globs_match_runs_of_characters() {
    assert!(contains_glob(
        "at spec.extra.k.e.y: Go null, ours []",
        "extra.*: Go null"
    ));
    assert!(contains_glob("abc", "abc"));
    assert!(glob_matches("v1 SecretList", "v1 Secret*"));
    assert!(glob_matches("v1 Secret", "v1 Secret*"));
    assert!(!glob_matches("v1 Secrets", "v1 Secret"));
    assert!(glob_matches("apps/v1 X", "*"));
    assert!(!contains_glob("at spec.extra: Go 1", "extra.*: Go"));
    assert!(contains_glob(
        "x data.a: Go null, ours \"\"",
        "data.*: Go null, ours \"\""
    ));
}
