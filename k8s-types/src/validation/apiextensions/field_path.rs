//! Go's `cel.ValidFieldPath`: a JSON path such as `.spec.size` or `.spec['a.b']`
//! resolved in a structural schema, for selectable fields and the `fieldPath` of an
//! `x-kubernetes-validations` rule. The path is returned in Go's `field.Path`
//! rendering (`spec.size`, `spec[a.b]` for a map key) with its first element and the
//! schema it names.

use crate::apiextensions::v1::{JSONSchemaProps, JSONSchemaPropsOrBool};

/// A resolved path: its rendering, its first element, and the schema at its end
/// (`None` under `additionalProperties: true`).
pub(super) struct Resolved<'a> {
    pub(super) path: String,
    pub(super) root: String,
    pub(super) schema: Option<&'a JSONSchemaProps>,
}

/// Go's tokens: a quoted string (to its closing unescaped quote, or the end), one of
/// `.`, `[`, `]`, or a run of anything else.
fn tokens(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            let mut j = i + 1;
            while j < b.len() && !(b[j] == b'\'' && b[j - 1] != b'\\') {
                j += 1;
            }
            i = (j + 1).min(b.len());
        } else if matches!(b[i], b'.' | b'[' | b']') {
            i += 1;
        } else {
            while i < b.len() && !matches!(b[i], b'.' | b'[' | b']') {
                i += 1;
            }
        }
        out.push(&s[start..i]);
    }
    out
}

/// Go's `unescapeSingleQuote`.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('v') => out.push('\u{b}'),
            Some('\'') => out.push('\''),
            Some('\\') => out.push('\\'),
            Some(other) => return Err(format!("invalid escape char \\{other}")),
            None => out.push('\\'),
        }
    }
    Ok(out)
}

/// Go's `ValidFieldPath(path, schema)`: the resolved path, or Go's error text.
pub(super) fn valid_field_path<'a>(
    json_path: &str,
    schema: &'a JSONSchemaProps,
    allow_array_notation: bool,
) -> Result<Resolved<'a>, String> {
    let mut path = String::new();
    let mut root = None::<String>;
    let mut at: Option<&'a JSONSchemaProps> = Some(schema);
    let toks = tokens(json_path);
    let mut it = toks.into_iter();
    let end = || "unexpected end of JSON path".to_owned();
    while let Some(tok) = it.next() {
        let (name, quoted) = match tok {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".into());
                }
                let t = it.next().ok_or_else(end)?;
                if t.len() < 2 || !t.starts_with('\'') || !t.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {t}"));
                }
                let name = unescape(&t[1..t.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                (name, true)
            }
            "." => (it.next().ok_or_else(end)?.to_owned(), false),
            other => return Err(format!("expected [ or . but got: {other}")),
        };
        let Some(s) = at else {
            return Err("does not refer to a valid field".into());
        };
        if !s.properties.is_empty() {
            let Some(next) = s.properties.get(&name) else {
                return Err("does not refer to a valid field".into());
            };
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&name);
            at = Some(next);
        } else if let Some(ap) = &s.additional_properties {
            path.push_str(&format!("[{name}]"));
            at = match ap {
                JSONSchemaPropsOrBool::Schema(s) => Some(&**s),
                JSONSchemaPropsOrBool::Allows(_) => None,
            };
        } else {
            return Err("does not refer to a valid field".into());
        }
        if root.is_none() {
            root = Some(path.clone());
        }
        if quoted {
            let close = it.next().ok_or_else(end)?;
            if close != "]" {
                return Err(format!("expected ] but got {close}"));
            }
        }
    }
    Ok(Resolved {
        path,
        root: root.unwrap_or_default(),
        schema: at,
    })
}
