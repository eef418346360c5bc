//! The errors of the REST mappers, whose messages are Go's word for word.

use std::collections::BTreeSet;
use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

use crate::schema::{GroupKind, GroupVersion, GroupVersionKind, GroupVersionResource};

/// Nothing matched a partial resource (Go's `NoResourceMatchError`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no matches for {partial_resource}")]
pub struct NoResourceMatchError {
    /// The resource that was looked up.
    pub partial_resource: GroupVersionResource,
}

/// Nothing matched a group and kind in the versions searched (Go's `NoKindMatchError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoKindMatchError {
    /// The group and kind that were looked up.
    pub group_kind: GroupKind,
    /// The versions the search was restricted to, as the caller gave them (possibly none).
    pub searched_versions: Vec<String>,
}

impl fmt::Display for NoKindMatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Go names the versions as a sorted set of `group/version` strings.
        let searched: BTreeSet<String> = self
            .searched_versions
            .iter()
            .map(|v| GroupVersion::new(self.group_kind.group.clone(), v.as_str()).to_string())
            .collect();
        let kind = go_quote(&self.group_kind.kind);
        match searched.len() {
            0 => write!(
                f,
                "no matches for kind {kind} in group {}",
                go_quote(&self.group_kind.group)
            ),
            1 => {
                let only = searched.iter().next().map(String::as_str).unwrap_or("");
                write!(
                    f,
                    "no matches for kind {kind} in version {}",
                    go_quote(only)
                )
            }
            _ => {
                let quoted: Vec<String> = searched.iter().map(|v| go_quote(v)).collect();
                write!(
                    f,
                    "no matches for kind {kind} in versions [{}]",
                    quoted.join(" ")
                )
            }
        }
    }
}

impl StdError for NoKindMatchError {}

/// A partial resource matched more than one resource or kind (Go's
/// `AmbiguousResourceError`); every match is listed so the user can pick one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguousResourceError {
    /// The resource that was looked up.
    pub partial_resource: GroupVersionResource,
    /// The resources it matched, when resources were looked up.
    pub matching_resources: Vec<GroupVersionResource>,
    /// The kinds it matched, when kinds were looked up.
    pub matching_kinds: Vec<GroupVersionKind>,
}

impl fmt::Display for AmbiguousResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ambiguous(
            f,
            &self.partial_resource,
            &self.matching_resources,
            &self.matching_kinds,
        )
    }
}

impl StdError for AmbiguousResourceError {}

/// A group and kind matched more than one mapping (Go's `AmbiguousKindError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguousKindError {
    /// The kind that was looked up (its version is empty when none was asked for).
    pub partial_kind: GroupVersionKind,
    /// The resources it matched, if known.
    pub matching_resources: Vec<GroupVersionResource>,
    /// The kinds it matched.
    pub matching_kinds: Vec<GroupVersionKind>,
}

impl fmt::Display for AmbiguousKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ambiguous(
            f,
            &self.partial_kind,
            &self.matching_resources,
            &self.matching_kinds,
        )
    }
}

impl StdError for AmbiguousKindError {}

fn write_ambiguous(
    f: &mut fmt::Formatter<'_>,
    partial: &dyn fmt::Display,
    resources: &[GroupVersionResource],
    kinds: &[GroupVersionKind],
) -> fmt::Result {
    match (resources.is_empty(), kinds.is_empty()) {
        (false, false) => write!(
            f,
            "{partial} matches multiple resources {} and kinds {}",
            GoList(resources),
            GoList(kinds)
        ),
        (true, false) => write!(f, "{partial} matches multiple kinds {}", GoList(kinds)),
        (false, true) => write!(
            f,
            "{partial} matches multiple resources {}",
            GoList(resources)
        ),
        (true, true) => write!(f, "{partial} matches multiple resources or kinds"),
    }
}

/// Why a REST mapper could not answer.
///
/// The variants are Go's error types and messages, so callers can branch on them (or on
/// [`is_no_match_error`] / [`is_ambiguous_error`], Go's `meta.IsNoMatchError` and
/// `meta.IsAmbiguousError`) and users see what `kubectl` would print.
#[derive(Clone, Debug, thiserror::Error)]
pub enum RESTMapperError {
    /// Nothing matched the resource.
    #[error(transparent)]
    NoResourceMatch(#[from] NoResourceMatchError),
    /// Nothing matched the group and kind.
    #[error(transparent)]
    NoKindMatch(#[from] NoKindMatchError),
    /// The resource matched several resources or kinds (boxed: it lists every match,
    /// and the error of every lookup should stay small).
    #[error(transparent)]
    AmbiguousResource(Box<AmbiguousResourceError>),
    /// The group and kind matched several mappings (boxed, as above).
    #[error(transparent)]
    AmbiguousKind(Box<AmbiguousKindError>),
    /// The lookup had no resource name, so it could match anything.
    #[error("a resource must be present, got: {resource}")]
    MissingResource {
        /// The lookup, after lower-casing and dropping the internal version.
        resource: GroupVersionResource,
    },
    /// A plural resource has different singular names in different groups or versions.
    #[error("multiple possible singular resources ({}) found for {resource}", GoList(.matches))]
    MultipleSingulars {
        /// The resource given.
        resource: String,
        /// The resources it matched.
        matches: Vec<GroupVersionResource>,
    },
    /// The resource exists but no singular name was registered for it.
    #[error("no singular of resource {resource} has been defined")]
    NoSingular {
        /// The resource given.
        resource: String,
    },
    /// Several mappers failed (Go's `utilerrors.Aggregate`); the message lists each distinct
    /// message once, in brackets when there is more than one.
    #[error("{}", AggregateMessage(.0))]
    Aggregate(Vec<RESTMapperError>),
    /// A failure of a mapper outside this module, such as one that fetches discovery
    /// documents over the network.
    #[error(transparent)]
    Other(Arc<dyn StdError + Send + Sync>),
}

impl From<AmbiguousResourceError> for RESTMapperError {
    fn from(e: AmbiguousResourceError) -> Self {
        RESTMapperError::AmbiguousResource(Box::new(e))
    }
}

impl From<AmbiguousKindError> for RESTMapperError {
    fn from(e: AmbiguousKindError) -> Self {
        RESTMapperError::AmbiguousKind(Box::new(e))
    }
}

impl RESTMapperError {
    /// Wraps any error of a custom mapper.
    pub fn other(err: impl StdError + Send + Sync + 'static) -> Self {
        RESTMapperError::Other(Arc::new(err))
    }

    /// True for "nothing matched" errors: callers such as
    /// [`MultiRESTMapper`](super::MultiRESTMapper) skip those and try elsewhere.
    pub fn is_no_match(&self) -> bool {
        match self {
            RESTMapperError::NoResourceMatch(_) | RESTMapperError::NoKindMatch(_) => true,
            RESTMapperError::Aggregate(errs) => errs.iter().any(Self::is_no_match),
            RESTMapperError::Other(err) => err
                .downcast_ref::<RESTMapperError>()
                .is_some_and(Self::is_no_match),
            _ => false,
        }
    }

    /// True for "more than one matched" errors, which a more specific lookup resolves.
    pub fn is_ambiguous(&self) -> bool {
        match self {
            RESTMapperError::AmbiguousResource(_) | RESTMapperError::AmbiguousKind(_) => true,
            RESTMapperError::Aggregate(errs) => errs.iter().any(Self::is_ambiguous),
            RESTMapperError::Other(err) => err
                .downcast_ref::<RESTMapperError>()
                .is_some_and(Self::is_ambiguous),
            _ => false,
        }
    }
}

/// Go's `meta.IsNoMatchError`: true when nothing matched (also inside an aggregate).
pub fn is_no_match_error(err: &RESTMapperError) -> bool {
    err.is_no_match()
}

/// Go's `meta.IsAmbiguousError`: true when several things matched (also inside an
/// aggregate).
pub fn is_ambiguous_error(err: &RESTMapperError) -> bool {
    err.is_ambiguous()
}

/// The one kind of a `kinds_for` answer, or Go's ambiguity error naming every kind found
/// for `input`: how every mapper's `kind_for` derives from its `kinds_for`.
pub(crate) fn single_kind(
    input: &GroupVersionResource,
    mut kinds: Vec<GroupVersionKind>,
) -> Result<GroupVersionKind, RESTMapperError> {
    if kinds.len() == 1
        && let Some(kind) = kinds.pop()
    {
        return Ok(kind);
    }
    Err(AmbiguousResourceError {
        partial_resource: input.clone(),
        matching_resources: Vec::new(),
        matching_kinds: kinds,
    }
    .into())
}

/// The one resource of a `resources_for` answer, or Go's ambiguity error naming every
/// resource found for `input`.
pub(crate) fn single_resource(
    input: &GroupVersionResource,
    mut resources: Vec<GroupVersionResource>,
) -> Result<GroupVersionResource, RESTMapperError> {
    if resources.len() == 1
        && let Some(resource) = resources.pop()
    {
        return Ok(resource);
    }
    Err(AmbiguousResourceError {
        partial_resource: input.clone(),
        matching_resources: resources,
        matching_kinds: Vec::new(),
    }
    .into())
}

/// Go's `utilerrors.NewAggregate` followed by its collapse rules: no error is `None`, one
/// error is itself, more are an [`RESTMapperError::Aggregate`].
pub(crate) fn aggregate(mut errs: Vec<RESTMapperError>) -> Option<RESTMapperError> {
    match errs.len() {
        0 => None,
        1 => errs.pop(),
        _ => Some(RESTMapperError::Aggregate(errs)),
    }
}

/// Formats a slice as Go's `%v` does: `[a b c]`.
struct GoList<'a, T>(&'a [T]);

impl<T: fmt::Display> fmt::Display for GoList<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{item}")?;
        }
        f.write_str("]")
    }
}

/// Go's aggregate message: nested aggregates flattened, each distinct message once.
struct AggregateMessage<'a>(&'a [RESTMapperError]);

impl fmt::Display for AggregateMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn collect(errs: &[RESTMapperError], out: &mut Vec<String>) {
            for err in errs {
                match err {
                    RESTMapperError::Aggregate(inner) => collect(inner, out),
                    other => {
                        let msg = other.to_string();
                        if !out.contains(&msg) {
                            out.push(msg);
                        }
                    }
                }
            }
        }
        let mut messages = Vec::new();
        collect(self.0, &mut messages);
        match messages.as_slice() {
            [] => Ok(()),
            [only] => f.write_str(only),
            many => write!(f, "[{}]", many.join(", ")),
        }
    }
}

/// Go's `strconv.Quote`, so `%q` in Go's messages reads the same here.
///
/// Go leaves every printable character alone and escapes the rest; Rust has no table of
/// Go's printable set, so control, format, separator (other than the space) and
/// private-use characters are taken as the non-printable ones, which covers what a user
/// can type.
pub(crate) fn go_quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c,
        '\u{ad}'
        | '\u{600}'..='\u{605}'
        | '\u{61c}'
        | '\u{6dd}'
        | '\u{70f}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{e000}'..='\u{f8ff}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{fffe}'..='\u{ffff}'
        | '\u{f0000}'..='\u{10ffff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_resource_match_message() {
        let err = NoResourceMatchError {
            partial_resource: GroupVersionResource::new("", "", "foo"),
        };
        assert_eq!(err.to_string(), "no matches for /, Resource=foo");
    }

    #[test]
    fn no_kind_match_messages_follow_the_number_of_versions() {
        let gk = GroupKind::new("apps", "Deployment");
        let err = |versions: &[&str]| NoKindMatchError {
            group_kind: gk.clone(),
            searched_versions: versions.iter().map(|v| v.to_string()).collect(),
        };
        assert_eq!(
            err(&[]).to_string(),
            r#"no matches for kind "Deployment" in group "apps""#
        );
        assert_eq!(
            err(&["v1"]).to_string(),
            r#"no matches for kind "Deployment" in version "apps/v1""#
        );
        // A set: sorted, duplicates once.
        assert_eq!(
            err(&["v2", "v1", "v2"]).to_string(),
            r#"no matches for kind "Deployment" in versions ["apps/v1" "apps/v2"]"#
        );
        let core = NoKindMatchError {
            group_kind: GroupKind::new("", "Foo"),
            searched_versions: vec!["v1beta".into()],
        };
        assert_eq!(
            core.to_string(),
            r#"no matches for kind "Foo" in version "v1beta""#
        );
    }

    #[test]
    fn ambiguous_messages_list_every_match() {
        let partial = GroupVersionResource::new("", "", "foos");
        let r1 = GroupVersionResource::new("a", "v1", "foos");
        let r2 = GroupVersionResource::new("b", "v1", "foos");
        let k1 = GroupVersionKind::new("a", "v1", "Foo");
        let err = |resources: Vec<GroupVersionResource>, kinds: Vec<GroupVersionKind>| {
            AmbiguousResourceError {
                partial_resource: partial.clone(),
                matching_resources: resources,
                matching_kinds: kinds,
            }
            .to_string()
        };
        assert_eq!(
            err(vec![r1.clone(), r2.clone()], vec![]),
            "/, Resource=foos matches multiple resources [a/v1, Resource=foos b/v1, Resource=foos]"
        );
        assert_eq!(
            err(vec![], vec![k1.clone()]),
            "/, Resource=foos matches multiple kinds [a/v1, Kind=Foo]"
        );
        assert_eq!(
            err(vec![r1], vec![k1]),
            "/, Resource=foos matches multiple resources [a/v1, Resource=foos] and kinds [a/v1, Kind=Foo]"
        );
        assert_eq!(
            err(vec![], vec![]),
            "/, Resource=foos matches multiple resources or kinds"
        );
        let kind_err = AmbiguousKindError {
            partial_kind: GroupVersionKind::new("", "", "Foo"),
            matching_resources: vec![],
            matching_kinds: vec![GroupVersionKind::new("", "v1", "Foo")],
        };
        assert_eq!(
            kind_err.to_string(),
            "/, Kind=Foo matches multiple kinds [/v1, Kind=Foo]"
        );
    }

    #[test]
    fn classification_sees_through_aggregates() {
        let no_match: RESTMapperError = NoResourceMatchError {
            partial_resource: GroupVersionResource::default(),
        }
        .into();
        let ambiguous: RESTMapperError = AmbiguousKindError {
            partial_kind: GroupVersionKind::default(),
            matching_resources: vec![],
            matching_kinds: vec![],
        }
        .into();
        let other = RESTMapperError::NoSingular {
            resource: "x".into(),
        };
        assert!(is_no_match_error(&no_match));
        assert!(!is_ambiguous_error(&no_match));
        assert!(is_ambiguous_error(&ambiguous));
        assert!(!is_no_match_error(&other) && !is_ambiguous_error(&other));
        let agg = RESTMapperError::Aggregate(vec![other.clone(), no_match.clone()]);
        assert!(is_no_match_error(&agg));
        assert!(!is_no_match_error(&RESTMapperError::Aggregate(vec![
            other.clone()
        ])));
        assert!(is_no_match_error(&RESTMapperError::other(no_match)));
        assert!(is_ambiguous_error(&RESTMapperError::Aggregate(vec![
            ambiguous
        ])));
    }

    #[test]
    fn aggregate_message_is_gos() {
        let a = RESTMapperError::NoSingular {
            resource: "a".into(),
        };
        let b = RESTMapperError::NoSingular {
            resource: "b".into(),
        };
        assert_eq!(aggregate(vec![]).map(|e| e.to_string()), None);
        assert_eq!(
            aggregate(vec![a.clone()]).map(|e| e.to_string()).as_deref(),
            Some("no singular of resource a has been defined")
        );
        let nested = RESTMapperError::Aggregate(vec![
            a.clone(),
            RESTMapperError::Aggregate(vec![b, a.clone()]),
        ]);
        assert_eq!(
            nested.to_string(),
            "[no singular of resource a has been defined, no singular of resource b has been defined]"
        );
        // Distinct errors with one message read as that message alone.
        assert_eq!(
            RESTMapperError::Aggregate(vec![a.clone(), a]).to_string(),
            "no singular of resource a has been defined"
        );
    }

    #[test]
    fn go_quote_matches_strconv_quote() {
        assert_eq!(go_quote("apps"), r#""apps""#);
        assert_eq!(go_quote(""), r#""""#);
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("tab\there\n"), r#""tab\there\n""#);
        assert_eq!(go_quote("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(go_quote("caf\u{e9}"), "\"caf\u{e9}\"");
        assert_eq!(go_quote("\u{a0}\u{200b}"), r#""\u00a0\u200b""#);
        assert_eq!(go_quote("\u{f0000}"), r#""\U000f0000""#);
    }
}
