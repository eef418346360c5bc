//! Label selectors in their string form (Go's `k8s.io/apimachinery/pkg/labels`):
//! `app=web,tier!=db,env in (prod,staging),!legacy,release`, parsed once and matched
//! against an object's labels.
//!
//! The operators are Go's: `=` and `==` (equal), `!=` (not equal, also true when the key
//! is absent), `in (..)`, `notin (..)` (also true when absent), `key` (exists), `!key`
//! (does not exist), `key > N` and `key < N` (the label is an integer greater / less than
//! `N`). Requirements are joined by commas and all must hold; the empty selector matches
//! everything.

use std::collections::BTreeMap;
use std::fmt;

/// A selector string that could not be parsed: the whole input and what was wrong, as
/// the server reports it in a BadRequest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unable to parse requirement: {message} (in selector {selector:?})")]
pub struct ParseError {
    /// The selector as given.
    pub selector: String,
    /// What was wrong, naming the offending piece.
    pub message: String,
}

/// How a [`Requirement`] compares a label's value (Go's `selection.Operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// `key=value` or `key==value`.
    Equals,
    /// `key!=value`.
    NotEquals,
    /// `key in (a,b)`.
    In,
    /// `key notin (a,b)`.
    NotIn,
    /// `key`.
    Exists,
    /// `!key`.
    DoesNotExist,
    /// `key>N`.
    GreaterThan,
    /// `key<N`.
    LessThan,
}

/// One condition on one label key (Go's `labels.Requirement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The label key.
    pub key: String,
    /// The comparison.
    pub operator: Operator,
    /// The values compared with (one for `=`/`!=`/`>`/`<`, a set for `in`/`notin`, none
    /// for existence).
    pub values: Vec<String>,
}

impl Requirement {
    /// Whether `labels` satisfy the requirement (Go's `Requirement.Matches`).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let value = labels.get(&self.key);
        match self.operator {
            Operator::Equals | Operator::In => {
                value.is_some_and(|v| self.values.iter().any(|w| w == v))
            }
            Operator::NotEquals | Operator::NotIn => {
                value.is_none_or(|v| !self.values.iter().any(|w| w == v))
            }
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(v), Some(bound)) = (value, self.values.first()) else {
                    return false;
                };
                let (Ok(v), Ok(bound)) = (v.parse::<i64>(), bound.parse::<i64>()) else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }
}

/// A parsed label selector: all of its requirements must hold (Go's
/// `labels.Selector`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// The selector matching everything (Go's `labels.Everything`).
    pub fn everything() -> Self {
        Selector::default()
    }

    /// Parses a selector string (Go's `labels.Parse`).
    pub fn parse(selector: &str) -> Result<Self, ParseError> {
        let error = |message: String| ParseError {
            selector: selector.to_owned(),
            message,
        };
        let mut requirements = Vec::new();
        for term in split_terms(selector).map_err(error)? {
            let term = term.trim();
            if term.is_empty() {
                if selector.trim().is_empty() {
                    continue;
                }
                return Err(error("found empty requirement between commas".into()));
            }
            requirements.push(parse_requirement(term).map_err(error)?);
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

    /// Whether `labels` satisfy every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match r.operator {
                Operator::Equals => write!(f, "{}={}", r.key, r.values.join(""))?,
                Operator::NotEquals => write!(f, "{}!={}", r.key, r.values.join(""))?,
                Operator::In => write!(f, "{} in ({})", r.key, r.values.join(","))?,
                Operator::NotIn => write!(f, "{} notin ({})", r.key, r.values.join(","))?,
                Operator::Exists => write!(f, "{}", r.key)?,
                Operator::DoesNotExist => write!(f, "!{}", r.key)?,
                Operator::GreaterThan => write!(f, "{}>{}", r.key, r.values.join(""))?,
                Operator::LessThan => write!(f, "{}<{}", r.key, r.values.join(""))?,
            }
        }
        Ok(())
    }
}

/// Splits on commas outside parentheses; an unbalanced parenthesis is an error.
fn split_terms(selector: &str) -> Result<Vec<&str>, String> {
    let mut terms = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in selector.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("unexpected ')' at position {i}"))?;
            }
            ',' if depth == 0 => {
                terms.push(&selector[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("found '(', expected ')'".into());
    }
    terms.push(&selector[start..]);
    Ok(terms)
}

fn parse_requirement(term: &str) -> Result<Requirement, String> {
    if let Some(key) = term.strip_prefix('!') {
        let key = key.trim();
        validate_key(key)?;
        return Ok(requirement(key, Operator::DoesNotExist, Vec::new()));
    }
    // Set operators are words separated from the key by white space.
    let mut words = term.splitn(2, char::is_whitespace);
    let first = words.next().unwrap_or_default();
    let rest = words.next().unwrap_or_default().trim_start();
    for (word, operator) in [("notin", Operator::NotIn), ("in", Operator::In)] {
        if let Some(values) = rest.strip_prefix(word) {
            let values = values.trim();
            let inner = values
                .strip_prefix('(')
                .and_then(|v| v.strip_suffix(')'))
                .ok_or_else(|| format!("found {values:?}, expected '(' values ')' after {word}"))?;
            validate_key(first)?;
            let values: Vec<String> = inner.split(',').map(|v| v.trim().to_owned()).collect();
            for v in &values {
                validate_value(v)?;
            }
            return Ok(requirement(first, operator, values));
        }
    }
    for (symbol, operator) in [
        ("==", Operator::Equals),
        ("!=", Operator::NotEquals),
        ("=", Operator::Equals),
        (">", Operator::GreaterThan),
        ("<", Operator::LessThan),
    ] {
        if let Some((key, value)) = term.split_once(symbol) {
            let (key, value) = (key.trim(), value.trim());
            validate_key(key)?;
            if matches!(operator, Operator::GreaterThan | Operator::LessThan) {
                value.parse::<i64>().map_err(|_| {
                    format!("for 'Gt', 'Lt' operators, the value must be an integer: {value:?}")
                })?;
            } else {
                validate_value(value)?;
            }
            return Ok(requirement(key, operator, vec![value.to_owned()]));
        }
    }
    if !rest.is_empty() {
        return Err(format!(
            "found {rest:?}, expected one of: in, notin, =, ==, !=, gt, lt"
        ));
    }
    validate_key(first)?;
    Ok(requirement(first, Operator::Exists, Vec::new()))
}

fn requirement(key: &str, operator: Operator, values: Vec<String>) -> Requirement {
    Requirement {
        key: key.to_owned(),
        operator,
        values,
    }
}

/// A label key: an optional DNS subdomain prefix and `/`, then a name of at most 63
/// characters of alphanumerics, `-`, `_` and `.`, starting and ending alphanumeric.
fn validate_key(key: &str) -> Result<(), String> {
    let name = match key.rsplit_once('/') {
        Some((prefix, name)) => {
            if prefix.is_empty() || prefix.len() > 253 || !is_dns_subdomain(prefix) {
                return Err(format!(
                    "invalid label key {key:?}: prefix part must be a DNS-1123 subdomain"
                ));
            }
            name
        }
        None => key,
    };
    if name.is_empty() || name.len() > 63 || !is_qualified_name_part(name) {
        return Err(format!(
            "invalid label key {key:?}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
        ));
    }
    Ok(())
}

/// A label value: empty, or at most 63 characters as a key's name part.
fn validate_value(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Ok(());
    }
    if value.len() > 63 || !is_qualified_name_part(value) {
        return Err(format!(
            "invalid label value: {value:?}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
        ));
    }
    Ok(())
}

fn is_qualified_name_part(s: &str) -> bool {
    let bytes = s.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    edge(bytes.first())
        && edge(bytes.last())
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn is_dns_subdomain(s: &str) -> bool {
    s.split('.').all(|label| {
        let bytes = label.as_bytes();
        let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        edge(bytes.first())
            && edge(bytes.last())
            && bytes
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_operator_matches_as_go() -> Result<(), ParseError> {
        let l = labels(&[("app", "web"), ("env", "prod"), ("replicas", "3")]);
        let cases = [
            ("", true),
            ("app=web", true),
            ("app==web", true),
            ("app=db", false),
            ("app!=db", true),
            ("missing!=x", true),
            ("env in (prod, staging)", true),
            ("env in (dev)", false),
            ("env notin (dev)", true),
            ("missing notin (dev)", true),
            ("app", true),
            ("missing", false),
            ("!missing", true),
            ("!app", false),
            ("replicas>2", true),
            ("replicas<2", false),
            ("app=web,env in (prod),!legacy", true),
            ("app=web,env=dev", false),
            ("example.com/app", false),
        ];
        for (selector, want) in cases {
            assert_eq!(Selector::parse(selector)?.matches(&l), want, "{selector}");
        }
        Ok(())
    }

    #[test]
    fn bad_selectors_are_errors_naming_the_selector() {
        for bad in [
            "app=(",
            "env in prod",
            "a b",
            "=web",
            "app=we b",
            "replicas>x",
            "app=web,,env=x",
            "env in (a",
            "-bad=x",
        ] {
            let err = Selector::parse(bad).err();
            assert!(err.is_some(), "{bad} parsed");
            assert!(
                err.is_some_and(|e| e.to_string().contains(&format!("{bad:?}"))),
                "{bad}"
            );
        }
    }

    #[test]
    fn display_round_trips() -> Result<(), ParseError> {
        let s = Selector::parse("a=b,c!=d,e in (f,g),h notin (i),j,!k,l>1,m<2")?;
        assert_eq!(Selector::parse(&s.to_string())?, s);
        Ok(())
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
