//! Writing [`Tree`]s back as text in the input's own layout: JSON indented as the input
//! was, YAML blocks at a given indentation (for the parts minimal conversion adds or
//! rewrites), and YAML flow collections (for changes inside `{...}` and `[...]`).
//!
//! Scalars are written as Go's YAML writer writes them (quoted when they would read
//! back as another type: see `apimachinery::serializer::yaml`); a string that would
//! need more than one line there is written double-quoted on one line instead.

use apimachinery::serializer::yaml::json_to_yaml;
use serde_json::Value;

use super::tree::Tree;
use apimachinery::util::json::indent_into as indent_json;

/// How a YAML document lays out its blocks, as read from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YamlLayout {
    /// Spaces per level of a mapping.
    pub indent: usize,
    /// Whether a sequence that is a mapping's value is indented under its key
    /// (`key:\n  - a`) rather than level with it (`key:\n- a`, Go's and kubectl's style).
    pub indent_sequences: bool,
}

impl Default for YamlLayout {
    fn default() -> Self {
        YamlLayout {
            indent: 2,
            indent_sequences: false,
        }
    }
}

/// `tree` as JSON: compact when `indent` is `None`, else indented as Go's
/// `json.MarshalIndent` with that unit.
pub fn json(tree: &Tree, indent: Option<&str>) -> String {
    let compact = tree.to_string();
    match indent {
        None => compact,
        Some(unit) => {
            let mut out = Vec::new();
            indent_json(compact.as_bytes(), unit.as_bytes(), &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
    }
}

/// A scalar (or empty collection) as it is written after `key: ` or `- `.
pub fn scalar(tree: &Tree) -> String {
    match tree {
        Tree::Array(a) if a.is_empty() => "[]".to_owned(),
        Tree::Object(o) if o.is_empty() => "{}".to_owned(),
        Tree::String(s) => string(s),
        other => {
            let text = json_to_yaml(&other.to_value());
            text.trim_end_matches('\n').to_owned()
        }
    }
}

/// A string as Go's YAML writer writes it, on one line.
pub fn string(s: &str) -> String {
    let text = json_to_yaml(&Value::String(s.to_owned()));
    let text = text.strip_suffix('\n').unwrap_or(&text);
    if text.contains('\n') {
        Value::String(s.to_owned()).to_string()
    } else {
        text.to_owned()
    }
}

/// A string in the quoting style it had: `'...'`, `"..."`, or as Go writes it.
pub fn string_in_style(s: &str, style: saphyr_parser::ScalarStyle) -> String {
    match style {
        saphyr_parser::ScalarStyle::DoubleQuoted => Value::String(s.to_owned()).to_string(),
        saphyr_parser::ScalarStyle::SingleQuoted
            if !s.contains('\n') && !s.chars().any(char::is_control) =>
        {
            format!("'{}'", s.replace('\'', "''"))
        }
        _ => string(s),
    }
}

/// A key as it is written before `: `.
pub fn key(k: &str) -> String {
    string(k)
}

/// The lines of a non-empty object or array as a block at column `column`: each line
/// indented by `column` spaces but the first, which starts where the caller already is
/// (after `- `, or at the column itself). No newline at the end.
pub fn block(tree: &Tree, column: usize, layout: YamlLayout) -> String {
    let mut out = String::new();
    write_block(tree, column, layout, &mut out);
    // Every line was written indented; the first starts at the caller's position.
    out.get(column..)
        .unwrap_or_default()
        .trim_end_matches('\n')
        .to_owned()
}

fn write_block(tree: &Tree, column: usize, layout: YamlLayout, out: &mut String) {
    let pad = " ".repeat(column);
    match tree {
        Tree::Object(entries) => {
            for (k, v) in entries {
                out.push_str(&pad);
                out.push_str(&key(k));
                out.push(':');
                write_value(v, column, layout, out);
            }
        }
        Tree::Array(items) => {
            for item in items {
                out.push_str(&pad);
                out.push('-');
                if item.is_block_collection() {
                    // The item's first line goes on the dash's line.
                    let mut nested = String::new();
                    write_block(item, column + 2, layout, &mut nested);
                    out.push(' ');
                    out.push_str(nested.get(column + 2..).unwrap_or_default());
                } else {
                    out.push(' ');
                    out.push_str(&scalar(item));
                    out.push('\n');
                }
            }
        }
        other => {
            out.push_str(&pad);
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

/// What follows `key:` for `value`, the key being at `column`, newline included.
fn write_value(value: &Tree, column: usize, layout: YamlLayout, out: &mut String) {
    match value {
        Tree::Object(o) if !o.is_empty() => {
            out.push('\n');
            write_block(value, column + layout.indent, layout, out);
        }
        Tree::Array(a) if !a.is_empty() => {
            out.push('\n');
            let column = if layout.indent_sequences {
                column + layout.indent
            } else {
                column
            };
            write_block(value, column, layout, out);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

/// What follows `key:` for `value`, the key being at `column`, without a final newline:
/// ` scalar`, or a newline and the block.
pub fn after_key(value: &Tree, column: usize, layout: YamlLayout) -> String {
    let mut out = String::new();
    write_value(value, column, layout, &mut out);
    out.trim_end_matches('\n').to_owned()
}

/// `tree` as a one-line YAML flow collection (`{app: web, ports: [80, 443]}`).
pub fn flow(tree: &Tree) -> String {
    match tree {
        Tree::Object(entries) => {
            let inner: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", flow_string(k), flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        Tree::Array(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", inner.join(", "))
        }
        Tree::String(s) => flow_string(s),
        other => scalar(other),
    }
}

/// A string inside a flow collection, where `,[]{}` are indicators too.
fn flow_string(s: &str) -> String {
    let plain = string(s);
    if plain.contains([',', '[', ']', '{', '}']) && !plain.starts_with(['"', '\'']) {
        Value::String(s.to_owned()).to_string()
    } else {
        plain
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::tests::tree;
    use super::*;

    #[test]
    fn blocks_keep_the_tree_s_order() {
        let t = tree(
            r#"{"service":{"name":"web","port":{"number":80}},"paths":[{"path":"/","pathType":"Prefix"},"x"],"empty":{},"on":"yes"}"#,
        );
        assert_eq!(
            block(&t, 4, YamlLayout::default()),
            "service:\n      name: web\n      port:\n        number: 80\n    paths:\n    - path: /\n      pathType: Prefix\n    - x\n    empty: {}\n    \"on\": \"yes\""
        );
        let indented = YamlLayout {
            indent: 4,
            indent_sequences: true,
        };
        assert_eq!(
            block(&tree(r#"{"a":[{"b":1}]}"#), 0, indented),
            "a:\n    - b: 1"
        );
    }

    #[test]
    fn scalars_are_quoted_as_go_quotes_them() {
        assert_eq!(scalar(&tree(r#""apps/v1""#)), "apps/v1");
        assert_eq!(scalar(&tree(r#""8080""#)), "\"8080\"");
        assert_eq!(scalar(&tree("8080")), "8080");
        assert_eq!(scalar(&tree(r#""a\nb""#)), "\"a\\nb\"");
        assert_eq!(
            string_in_style("apps/v1", saphyr_parser::ScalarStyle::SingleQuoted),
            "'apps/v1'"
        );
        assert_eq!(
            string_in_style("apps/v1", saphyr_parser::ScalarStyle::DoubleQuoted),
            "\"apps/v1\""
        );
        assert_eq!(
            flow(&tree(r#"{"app":"web","x":["a,b",1]}"#)),
            "{app: web, x: [\"a,b\", 1]}"
        );
        assert_eq!(
            json(&tree(r#"{"a":[1]}"#), Some("  ")),
            "{\n  \"a\": [\n    1\n  ]\n}"
        );
    }
}
