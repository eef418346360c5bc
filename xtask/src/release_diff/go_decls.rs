//! A Go file's top-level declarations, compared between two releases of it, function by
//! function. Go's formatter (gofmt) puts every top-level declaration at column 0 and
//! closes a multi-line one with a `}` or `)` alone at column 0, which is all this reader
//! relies on: it is not a Go parser, and it needs none to say which functions changed.

use std::collections::BTreeMap;

/// How one top-level declaration differs between the old and the new file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Only in the new file.
    Added {
        /// Its name (`Convert_v1_Pod_To_core_Pod`, `podStrategy.PrepareForCreate`,
        /// `var (...)` blocks as `var`).
        name: String,
        /// Its lines.
        lines: usize,
    },
    /// Only in the old file.
    Removed {
        /// Its name.
        name: String,
        /// Its lines.
        lines: usize,
    },
    /// In both, with other text.
    Changed {
        /// Its name.
        name: String,
        /// Lines of the new text that the old does not have.
        added: usize,
        /// Lines of the old text that the new does not have.
        removed: usize,
        /// A method whose first line (its signature) alone differs: plumbing such as a
        /// new `context.Context` parameter of every strategy method, rarely behaviour. (A
        /// function's new parameter usually carries a new option, so it is not counted
        /// as plumbing.)
        signature_only: bool,
    },
}

impl Change {
    /// The declaration's name.
    pub fn name(&self) -> &str {
        match self {
            Change::Added { name, .. }
            | Change::Removed { name, .. }
            | Change::Changed { name, .. } => name,
        }
    }
}

/// The top-level declarations of `text`, by name, each with its text (doc comment
/// excluded: a reworded comment is not a change of behaviour). Declarations of one name
/// (several `var` blocks, `init` functions) are joined in order.
pub fn declarations(text: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = declaration_name(line) else {
            continue;
        };
        let mut body = String::from(line.trim_end());
        body.push('\n');
        // A one-line declaration (`var x = 1`, `func f() {}`, `type T int`) ends here; a
        // block ends at its closing line at column 0.
        if opens_block(line) {
            for next in lines.by_ref() {
                body.push_str(next.trim_end());
                body.push('\n');
                if next.starts_with('}') || next.starts_with(')') {
                    break;
                }
            }
        }
        out.entry(name).or_default().push_str(&body);
    }
    out
}

/// The name a top-level line declares, or `None` for a line inside or between
/// declarations (comments, `package`, `import`).
fn declaration_name(line: &str) -> Option<String> {
    if let Some(rest) = line.strip_prefix("func ") {
        // A method: `func (s podStrategy) PrepareForCreate(` → `podStrategy.PrepareForCreate`.
        if let Some(receiver) = rest.strip_prefix('(') {
            let (receiver, after) = receiver.split_once(')')?;
            let receiver_type = receiver.split_whitespace().last()?.trim_start_matches('*');
            let receiver_type = receiver_type.split('[').next().unwrap_or(receiver_type);
            let method = identifier(after.trim_start())?;
            return Some(format!("{receiver_type}.{method}"));
        }
        return identifier(rest).map(str::to_owned);
    }
    for keyword in ["var", "const", "type"] {
        if let Some(rest) = line.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) {
            // A block (`var (`) is named by its keyword; a single one by its identifier.
            return Some(if rest.starts_with('(') {
                keyword.to_owned()
            } else {
                format!("{keyword} {}", identifier(rest)?)
            });
        }
    }
    None
}

/// Whether a declaration's first line leaves a block open (its last character `{` or
/// `(`, as gofmt writes a multi-line body).
fn opens_block(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or(line).trim_end();
    code.ends_with('{') || code.ends_with('(')
}

/// The Go identifier at the start of `text`.
fn identifier(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (end > 0).then(|| &text[..end])
}

/// The declarations that differ between `old` and `new` (texts of one Go file), in name
/// order.
pub fn compare(old: &str, new: &str) -> Vec<Change> {
    let (old, new) = (declarations(old), declarations(new));
    let mut changes = Vec::new();
    for (name, text) in &new {
        match old.get(name) {
            None => changes.push(Change::Added {
                name: name.clone(),
                lines: text.lines().count(),
            }),
            Some(before) if before != text => {
                let (added, removed) = line_difference(before, text);
                let body = |t: &str| t.split_once('\n').map(|(_, rest)| rest.to_owned());
                changes.push(Change::Changed {
                    name: name.clone(),
                    added,
                    removed,
                    signature_only: name.contains('.') && body(before) == body(text),
                });
            }
            Some(_) => {}
        }
    }
    for (name, text) in &old {
        if !new.contains_key(name) {
            changes.push(Change::Removed {
                name: name.clone(),
                lines: text.lines().count(),
            });
        }
    }
    changes.sort_by(|a, b| a.name().cmp(b.name()));
    changes
}

/// Lines of `new` not in `old` and of `old` not in `new`, counted as multisets (moved
/// lines count as unchanged: the figure says how much to read, not where).
fn line_difference(old: &str, new: &str) -> (usize, usize) {
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for line in new.lines() {
        *counts.entry(line.trim()).or_default() += 1;
    }
    for line in old.lines() {
        *counts.entry(line.trim()).or_default() -= 1;
    }
    let added = counts
        .values()
        .filter(|n| **n > 0)
        .map(|n| *n as usize)
        .sum();
    let removed = counts
        .values()
        .filter(|n| **n < 0)
        .map(|n| n.unsigned_abs() as usize)
        .sum();
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = r#"package v1

import (
	"fmt"
)

// Convert_v1_Pod_To_core_Pod keeps the alias in step.
func Convert_v1_Pod_To_core_Pod(in *v1.Pod, out *core.Pod) error {
	out.Name = in.Name
	return nil
}

func (podStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	pod := obj.(*api.Pod)
	pod.Status = api.PodStatus{}
}

var (
	a = 1
)

const Gone = "x"

func dropped() {}
"#;

    const NEW: &str = r#"package v1

import (
	"fmt"
)

// Convert_v1_Pod_To_core_Pod: a reworded comment.
func Convert_v1_Pod_To_core_Pod(in *v1.Pod, out *core.Pod) error {
	out.Name = in.Name
	return nil
}

func (s *podStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	pod := obj.(*api.Pod)
	pod.Status = api.PodStatus{Phase: api.PodPending}
	pod.Generation = 1
}

var (
	a = 1
)

func SetDefaults_Pod(obj *v1.Pod) {
	obj.Spec.ServiceAccountName = obj.Spec.DeprecatedServiceAccount
}
"#;

    #[test]
    fn names_functions_methods_and_blocks() {
        let names: Vec<String> = declarations(OLD).into_keys().collect();
        assert_eq!(
            names,
            [
                "Convert_v1_Pod_To_core_Pod",
                "const Gone",
                "dropped",
                "podStrategy.PrepareForCreate",
                "var"
            ]
        );
    }

    #[test]
    fn compares_function_by_function() {
        assert_eq!(
            compare(OLD, NEW),
            [
                Change::Added {
                    name: "SetDefaults_Pod".into(),
                    lines: 3
                },
                Change::Removed {
                    name: "const Gone".into(),
                    lines: 1
                },
                Change::Removed {
                    name: "dropped".into(),
                    lines: 1
                },
                Change::Changed {
                    name: "podStrategy.PrepareForCreate".into(),
                    added: 3,
                    removed: 2,
                    signature_only: false,
                },
            ]
        );
    }

    #[test]
    fn tells_a_changed_signature_from_a_changed_body() {
        let old = "func (strategy) AllowCreateOnUpdate() bool {\n\treturn false\n}\n";
        let new =
            "func (strategy) AllowCreateOnUpdate(ctx context.Context) bool {\n\treturn false\n}\n";
        assert_eq!(
            compare(old, new),
            [Change::Changed {
                name: "strategy.AllowCreateOnUpdate".into(),
                added: 1,
                removed: 1,
                signature_only: true,
            }]
        );
    }

    #[test]
    fn a_file_equal_to_itself_has_no_changes() {
        assert!(compare(NEW, NEW).is_empty());
    }
}
