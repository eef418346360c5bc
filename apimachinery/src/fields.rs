//! Field selectors in their string form (Go's `k8s.io/apimachinery/pkg/fields`):
//! `metadata.name=web,status.phase!=Running`, matched against the field values a
//! resource exposes for selection (every resource exposes `metadata.name` and
//! `metadata.namespace`).
//!
//! Only `=`, `==` and `!=` exist; requirements are joined by commas and all must hold.
//! A backslash escapes `,`, `=`, `!` and `\` in values, as in Go.

use std::collections::BTreeMap;

/// A field selector that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid field selector {selector:?}: {message}")]
pub struct ParseError {
    /// The selector as given.
    pub selector: String,
    /// What was wrong.
    pub message: String,
}

/// One `field op value` term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The field path, such as `metadata.name`.
    pub field: String,
    /// True for `!=`.
    pub negated: bool,
    /// The value compared with (unescaped).
    pub value: String,
}

/// A parsed field selector (Go's `fields.Selector`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// Parses a selector string (Go's `fields.ParseSelector`).
    pub fn parse(selector: &str) -> Result<Self, ParseError> {
        let error = |message: String| ParseError {
            selector: selector.to_owned(),
            message,
        };
        let mut requirements = Vec::new();
        if selector.trim().is_empty() {
            return Ok(Selector { requirements });
        }
        for term in split_unescaped(selector, ',') {
            let (field, negated, value) = if let Some(at) = find_unescaped(&term, "!=") {
                (&term[..at], true, &term[at + 2..])
            } else if let Some(at) = find_unescaped(&term, "==") {
                (&term[..at], false, &term[at + 2..])
            } else if let Some(at) = find_unescaped(&term, "=") {
                (&term[..at], false, &term[at + 1..])
            } else {
                return Err(error(format!(
                    "invalid selector term {term:?}: expected field=value, field==value or field!=value"
                )));
            };
            let field = field.trim();
            if field.is_empty() {
                return Err(error(format!("invalid selector term {term:?}: no field")));
            }
            requirements.push(Requirement {
                field: field.to_owned(),
                negated,
                value: unescape(value).map_err(error)?,
            });
        }
        Ok(Selector { requirements })
    }

    /// The requirements, in the order given.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// True for the selector matching everything.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The value `field` must equal for the selector to match, when one of its terms
    /// says `field=value` (Go's `RequiresExactMatch`).
    pub fn requires_exact_match(&self, field: &str) -> Option<&String> {
        self.requirements
            .iter()
            .find(|r| r.field == field && !r.negated)
            .map(|r| &r.value)
    }

    /// Whether an object with these selectable `fields` matches. A field the object does
    /// not expose compares as the empty string.
    pub fn matches(&self, fields: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| {
            let value = fields.get(&r.field).map(String::as_str).unwrap_or_default();
            (value == r.value) != r.negated
        })
    }
}

fn split_unescaped(s: &str, separator: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            current.push('\\');
            current.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == separator {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    if escaped {
        current.push('\\');
    }
    parts.push(current);
    parts
}

fn find_unescaped(s: &str, needle: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        // Bytes, not `str` slices: `i` may fall inside a multi-byte character.
        if bytes[i..].starts_with(needle.as_bytes()) {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e @ ('\\' | ',' | '=' | '!')) => out.push(e),
            Some(e) => return Err(format!("invalid escape sequence \\{e} in {s:?}")),
            None => return Err(format!("unterminated escape sequence in {s:?}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_match_is_a_positive_term() -> Result<(), ParseError> {
        let s = Selector::parse("status.phase!=x,metadata.name=web")?;
        assert_eq!(
            s.requires_exact_match("metadata.name").map(String::as_str),
            Some("web")
        );
        assert_eq!(s.requires_exact_match("status.phase"), None);
        Ok(())
    }

    #[test]
    fn selects_by_equality_and_inequality() -> Result<(), ParseError> {
        let fields: BTreeMap<String, String> = [
            ("metadata.name".to_string(), "web".to_string()),
            ("metadata.namespace".to_string(), "default".to_string()),
        ]
        .into();
        assert!(Selector::parse("")?.matches(&fields));
        assert!(Selector::parse("metadata.name=web")?.matches(&fields));
        assert!(
            Selector::parse("metadata.name==web,metadata.namespace!=kube-system")?.matches(&fields)
        );
        assert!(!Selector::parse("metadata.name!=web")?.matches(&fields));
        assert!(!Selector::parse("metadata.name=a\\,b")?.matches(&fields));
        assert_eq!(
            Selector::parse("metadata.name=a\\,b")?.requirements()[0].value,
            "a,b"
        );
        Ok(())
    }

    #[test]
    fn non_ascii_values_are_read_whole() -> Result<(), ParseError> {
        let s = Selector::parse("metadata.name=é\\,ü,metadata.namespace!=ñ")?;
        assert_eq!(s.requirements()[0].value, "é,ü");
        assert_eq!(s.requirements()[1].value, "ñ");
        assert!(Selector::parse("é").is_err());
        Ok(())
    }

    #[test]
    fn bad_selectors_are_errors() {
        for bad in ["metadata.name", "=x", "a=b\\x", "a=b\\"] {
            assert!(Selector::parse(bad).is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        /// Any input is parsed or refused, never a panic (selectors come from URLs).
        #[test]
        fn any_input_parses_or_fails_cleanly(input in ".{0,40}") {
            let _ = Selector::parse(&input);
        }

        #[test]
        fn selector_alphabet_inputs_parse_or_fail_cleanly(input in "[a-z=!,()<> \\\\.é/-]{0,30}") {
            let _ = Selector::parse(&input);
        }
    }
}
