//! Go's `k8s.io/apimachinery/pkg/util/diff`: [`diff`], the text Go's `diff.Diff` writes
//! for two values, which validation messages end with (a persistent volume's source, a
//! claim's spec, a pod's spec that an update may not change).
//!
//! Go's `Diff` writes both values with `json.MarshalIndent(v, "", " ")` and compares
//! their lines as go-difflib does: Python's `difflib` ported to Go, a unified diff with
//! three lines of context and no file header. The comparison is difflib's
//! `SequenceMatcher` with its "auto junk" rule (in a text of 200 lines or more, a line
//! found more than once per hundred lines, such as `  "x": null,`, starts no match), so
//! the hunks are difflib's, not those of a shortest edit script.
//!
//! ```
//! use apimachinery::util::diff::diff;
//!
//! let text = diff(&serde_json::json!({"a": 1, "b": [1]}), &serde_json::json!({"a": 2, "b": [1]}))?;
//! // Three lines of context: the closing brace is the fourth after the change.
//! assert_eq!(text, "@@ -1,5 +1,5 @@\n {\n- \"a\": 1,\n+ \"a\": 2,\n  \"b\": [\n   1\n  ]\n");
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::collections::HashMap;

use crate::util::json::{JsonLayout, encode_go_json};

/// The lines of context around each change, as Go's `Diff` asks go-difflib for.
const CONTEXT: usize = 3;

/// Go's `diff.Diff(a, b)`: the unified diff of the two values' indented JSON (empty when
/// they write the same text).
pub fn diff<T: serde::Serialize + ?Sized>(a: &T, b: &T) -> Result<String, serde_json::Error> {
    let mut a_json = Vec::new();
    let mut b_json = Vec::new();
    encode_go_json(a, &mut a_json, JsonLayout::Compact)?;
    encode_go_json(b, &mut b_json, JsonLayout::Compact)?;
    Ok(diff_json(
        &String::from_utf8_lossy(&a_json),
        &String::from_utf8_lossy(&b_json),
    ))
}

/// [`diff`] of two values given as the compact JSON Go's `json.Marshal` writes for them
/// (such as the text of a Go struct without JSON tags, which no Rust type has).
pub fn diff_json(a: &str, b: &str) -> String {
    unified_diff(&indent(a, " "), &indent(b, " "))
}

/// Compact JSON laid out as Go's `json.Indent(dst, src, "", indent)` lays it out: one
/// value per line, `indent` per level, `": "` between a key and its value, `[]` and `{}`
/// kept on one line.
pub fn indent(compact: &str, indent: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut need_indent = false;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(indent);
        }
    };
    for c in compact.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        if need_indent && c != '}' && c != ']' {
            need_indent = false;
            depth += 1;
            newline(&mut out, depth);
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                need_indent = true;
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            '}' | ']' => {
                if need_indent {
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The unified diff of two texts' lines as go-difflib's `GetUnifiedDiffString` writes it
/// with Go's `Diff` options (three lines of context, no file names, so no header): `@@`
/// ranges, then each line prefixed by ` `, `-` or `+`. Lines are split after each
/// newline, and the last one always ends with one (go-difflib's `SplitLines`).
pub fn unified_diff(a: &str, b: &str) -> String {
    let a = split_lines(a);
    let b = split_lines(b);
    let mut out = String::new();
    for group in Matcher::new(&a, &b).grouped_op_codes(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            unified_range(first.i1, last.i2),
            unified_range(first.j1, last.j2)
        ));
        for c in &group {
            if c.tag == Tag::Equal {
                for line in &a[c.i1..c.i2] {
                    out.push(' ');
                    out.push_str(line);
                }
                continue;
            }
            if matches!(c.tag, Tag::Replace | Tag::Delete) {
                for line in &a[c.i1..c.i2] {
                    out.push('-');
                    out.push_str(line);
                }
            }
            if matches!(c.tag, Tag::Replace | Tag::Insert) {
                for line in &b[c.j1..c.j2] {
                    out.push('+');
                    out.push_str(line);
                }
            }
        }
    }
    out
}

/// go-difflib's `SplitLines`: each line with its newline; the last gets one too.
fn split_lines(s: &str) -> Vec<String> {
    let mut lines: Vec<String> = s.split_inclusive('\n').map(str::to_owned).collect();
    match lines.last_mut() {
        Some(last) if !s.ends_with('\n') => last.push('\n'),
        // Go's `SplitAfter` ends with an empty element after a final newline (or for
        // an empty text), which `SplitLines` turns into a line of its own.
        _ => lines.push("\n".to_owned()),
    }
    lines
}

/// A range in the unified format: `start,length`, or `start` alone for one line; an
/// empty range starts at the line before it.
fn unified_range(start: usize, stop: usize) -> String {
    let beginning = start + 1;
    match stop - start {
        1 => beginning.to_string(),
        0 => format!("{},0", beginning - 1),
        length => format!("{beginning},{length}"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Replace,
    Delete,
    Insert,
    Equal,
}

/// One step from `a[i1..i2]` to `b[j1..j2]`.
#[derive(Clone, Copy, Debug)]
struct OpCode {
    tag: Tag,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

/// `a[a..a + size] == b[b..b + size]`.
#[derive(Clone, Copy, Debug)]
struct Match {
    a: usize,
    b: usize,
    size: usize,
}

/// difflib's `SequenceMatcher` over lines, without a junk function, with auto junk.
struct Matcher<'a> {
    a: &'a [String],
    b: &'a [String],
    /// Where each line of `b` is, ascending; without the popular ones.
    b2j: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Matcher<'a> {
    fn new(a: &'a [String], b: &'a [String]) -> Self {
        let mut b2j: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, line) in b.iter().enumerate() {
            b2j.entry(line.as_str()).or_default().push(j);
        }
        // difflib's auto junk: in 200 lines or more, a line more frequent than one in a
        // hundred (plus one) is "popular" and starts no match.
        if b.len() >= 200 {
            let ntest = b.len() / 100 + 1;
            b2j.retain(|_, at| at.len() <= ntest);
        }
        Matcher { a, b, b2j }
    }

    /// The longest matching block in `a[alo..ahi]` and `b[blo..bhi]`, the earliest in `a`
    /// (then in `b`) of those as long, extended over popular lines on both ends.
    fn longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for i in alo..ahi {
            let mut new_j2len = HashMap::new();
            for &j in self.b2j.get(self.a[i].as_str()).into_iter().flatten() {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j
                    .checked_sub(1)
                    .and_then(|p| j2len.get(&p))
                    .copied()
                    .unwrap_or(0)
                    + 1;
                new_j2len.insert(j, k);
                if k > bestsize {
                    (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
                }
            }
            j2len = new_j2len;
        }
        while besti > alo && bestj > blo && self.a[besti - 1] == self.b[bestj - 1] {
            (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && self.a[besti + bestsize] == self.b[bestj + bestsize]
        {
            bestsize += 1;
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    /// The matching blocks, ascending, adjacent ones joined, ending with the empty
    /// block at `(a.len(), b.len())`.
    fn matching_blocks(&self) -> Vec<Match> {
        let mut matched = Vec::new();
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        // difflib recurses left then right; a stack popped in that order gives the same
        // blocks, sorted after.
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let m = self.longest_match(alo, ahi, blo, bhi);
            if m.size > 0 {
                if alo < m.a && blo < m.b {
                    queue.push((alo, m.a, blo, m.b));
                }
                if m.a + m.size < ahi && m.b + m.size < bhi {
                    queue.push((m.a + m.size, ahi, m.b + m.size, bhi));
                }
                matched.push(m);
            }
        }
        matched.sort_by_key(|m| (m.a, m.b));
        let mut blocks: Vec<Match> = Vec::new();
        for m in matched {
            match blocks.last_mut() {
                Some(last) if last.a + last.size == m.a && last.b + last.size == m.b => {
                    last.size += m.size;
                }
                _ => blocks.push(m),
            }
        }
        blocks.push(Match {
            a: self.a.len(),
            b: self.b.len(),
            size: 0,
        });
        blocks
    }

    fn op_codes(&self) -> Vec<OpCode> {
        let (mut i, mut j) = (0, 0);
        let mut codes = Vec::new();
        for m in self.matching_blocks() {
            let tag = match (i < m.a, j < m.b) {
                (true, true) => Some(Tag::Replace),
                (true, false) => Some(Tag::Delete),
                (false, true) => Some(Tag::Insert),
                (false, false) => None,
            };
            if let Some(tag) = tag {
                codes.push(OpCode {
                    tag,
                    i1: i,
                    i2: m.a,
                    j1: j,
                    j2: m.b,
                });
            }
            (i, j) = (m.a + m.size, m.b + m.size);
            if m.size > 0 {
                codes.push(OpCode {
                    tag: Tag::Equal,
                    i1: m.a,
                    i2: i,
                    j1: m.b,
                    j2: j,
                });
            }
        }
        codes
    }

    /// The op codes in hunks with `n` lines of context; none when the texts are equal.
    fn grouped_op_codes(&self, n: usize) -> Vec<Vec<OpCode>> {
        let mut codes = self.op_codes();
        if codes.is_empty() {
            codes.push(OpCode {
                tag: Tag::Equal,
                i1: 0,
                i2: 1,
                j1: 0,
                j2: 1,
            });
        }
        if let Some(c) = codes.first_mut().filter(|c| c.tag == Tag::Equal) {
            c.i1 = c.i1.max(c.i2.saturating_sub(n));
            c.j1 = c.j1.max(c.j2.saturating_sub(n));
        }
        if let Some(c) = codes.last_mut().filter(|c| c.tag == Tag::Equal) {
            c.i2 = c.i2.min(c.i1 + n);
            c.j2 = c.j2.min(c.j1 + n);
        }
        let mut groups = Vec::new();
        let mut group = Vec::new();
        for mut c in codes {
            if c.tag == Tag::Equal && c.i2 - c.i1 > 2 * n {
                group.push(OpCode {
                    i2: c.i2.min(c.i1 + n),
                    j2: c.j2.min(c.j1 + n),
                    ..c
                });
                groups.push(std::mem::take(&mut group));
                c.i1 = c.i1.max(c.i2.saturating_sub(n));
                c.j1 = c.j1.max(c.j2.saturating_sub(n));
            }
            group.push(c);
        }
        if !(group.is_empty() || group.len() == 1 && group[0].tag == Tag::Equal) {
            groups.push(group);
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's own answers: pairs of values as `json.Marshal` writes them, and what
    /// apimachinery v0.37.2's `diff.Diff` wrote for them (a change, none, a text of over
    /// 200 lines where auto junk decides the hunks, a string Go escapes).
    #[test]
    fn agrees_with_go() {
        let cases: Vec<serde_json::Map<String, serde_json::Value>> =
            serde_json::from_str(include_str!("../../testdata/diff/go-difflib.json")).unwrap();
        assert!(!cases.is_empty());
        for (i, case) in cases.iter().enumerate() {
            let text = |k: &str| case[k].as_str().unwrap().to_owned();
            assert_eq!(diff_json(&text("a"), &text("b")), text("diff"), "case {i}");
        }
    }

    #[test]
    fn diff_of_values_writes_go_json() {
        let a = serde_json::json!({"s": "<x>"});
        let b = serde_json::json!({"s": "&"});
        assert_eq!(
            diff(&a, &b).unwrap(),
            "@@ -1,3 +1,3 @@\n {\n- \"s\": \"\\u003cx\\u003e\"\n+ \"s\": \"\\u0026\"\n }\n"
        );
    }

    #[test]
    fn indent_lays_out_as_go() {
        assert_eq!(
            indent(r#"{"a":[],"b":{},"c":[1,{"d":"x,:{"}],"e":"\"]"}"#, " "),
            "{\n \"a\": [],\n \"b\": {},\n \"c\": [\n  1,\n  {\n   \"d\": \"x,:{\"\n  }\n ],\n \"e\": \"\\\"]\"\n}"
        );
    }
}
