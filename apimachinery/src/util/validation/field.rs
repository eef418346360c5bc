//! Go's `k8s.io/apimachinery/pkg/util/validation/field`: the path of a field inside an
//! object ([`Path`]) and field-level validation errors ([`Error`], [`ErrorList`]) whose
//! text is Go's `Error()` text, byte for byte, so that clients matching kube-apiserver's
//! messages see the same words.
//!
//! ```
//! use apimachinery::util::validation::field::{Error, ErrorList, Path};
//!
//! let spec = Path::new("spec");
//! let mut errs = ErrorList::default();
//! errs.push(Error::invalid(&spec.child("replicas"), -1, "must be greater than or equal to 0"));
//! errs.push(Error::required(&spec.child("containers").index(0).child("name"), ""));
//! assert_eq!(
//!     errs.to_string(),
//!     "[spec.replicas: Invalid value: -1: must be greater than or equal to 0, \
//!      spec.containers[0].name: Required value]"
//! );
//! ```

use std::fmt;

mod go_print;
mod go_printable;

use go_print::go_float;
pub(crate) use go_print::in_rune_ranges;
pub use go_print::{go_is_print, go_json_string, go_quote, go_quote_bytes, go_unicode_verb};

/// One step of a [`Path`]: nothing (the root), a field name, a list index or a map key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step<'a> {
    Root,
    Name(&'a str),
    Index(usize),
    Key(&'a str),
}

/// The path of a field from the object's root, written as Go writes it:
/// `spec.containers[0].name`, `metadata.labels[app]`.
///
/// A path is its last step and a borrowed parent: [`child`](Path::child),
/// [`index`](Path::index) and [`key`](Path::key) cost nothing (no allocation, no copy),
/// and the text is written only when an [`Error`] is made. Validators visit hundreds
/// of fields per object and report errors on few, so paths are built for every field
/// and rendered almost never. A path borrows its parent, so a path built in a loop
/// lives in the loop body (`let list = path.child("containers");` before the loop,
/// `let p = list.index(i);` inside).
#[derive(Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

impl<'a> Path<'a> {
    /// A path of one field name (Go's `NewPath` with one argument).
    pub fn new(name: &'a str) -> Self {
        Path {
            parent: None,
            step: Step::Name(name),
        }
    }

    /// The root: an empty path, written as the empty string.
    pub fn root() -> Path<'static> {
        Path {
            parent: None,
            step: Step::Root,
        }
    }

    /// This path followed by the field `name`.
    #[must_use]
    pub fn child<'b>(&'b self, name: &'b str) -> Path<'b> {
        Path {
            parent: Some(self),
            step: Step::Name(name),
        }
    }

    /// This path followed by the list index `index` (`[3]`).
    #[must_use]
    pub fn index(&self, index: usize) -> Path<'_> {
        Path {
            parent: Some(self),
            step: Step::Index(index),
        }
    }

    /// This path followed by the map key `key` (`[app]`, unquoted as in Go).
    #[must_use]
    pub fn key<'b>(&'b self, key: &'b str) -> Path<'b> {
        Path {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    /// Appends the path to `out`; answers whether it has any element, so that a
    /// following name knows whether to write its `.`. Plain pushes rather than the
    /// formatting machinery: this runs for every error made.
    fn write_steps(&self, out: &mut String) -> bool {
        let before = match self.parent {
            Some(parent) => parent.write_steps(out),
            None => false,
        };
        match self.step {
            Step::Root => return before,
            Step::Name(n) => {
                if before {
                    out.push('.');
                }
                out.push_str(n);
            }
            Step::Index(i) => {
                out.push('[');
                push_decimal(out, i);
                out.push(']');
            }
            Step::Key(k) => {
                out.push('[');
                out.push_str(k);
                out.push(']');
            }
        }
        true
    }

    /// At least the length of the path's text, so that rendering allocates once.
    fn text_len_bound(&self) -> usize {
        let step = match self.step {
            Step::Root => 0,
            Step::Name(n) => n.len() + 1,
            Step::Key(k) => k.len() + 2,
            Step::Index(_) => 22,
        };
        step + self.parent.map_or(0, Path::text_len_bound)
    }

    /// The path's text (what `to_string` gives, without the formatter).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.text_len_bound());
        self.write_steps(&mut out);
        out
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        // `n % 10` is below 10, so the cast keeps the digit.
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

impl Default for Path<'_> {
    fn default() -> Self {
        Path::root()
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl fmt::Debug for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({:?})", self.to_string())
    }
}

impl PartialEq for Path<'_> {
    /// Paths are equal when they are written the same.
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for Path<'_> {}

/// Why a field is invalid; the string form is Go's `CauseType` (`FieldValueInvalid`, ...),
/// used as a Status cause's `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `FieldValueNotFound`.
    NotFound,
    /// `FieldValueRequired`.
    Required,
    /// `FieldValueDuplicate`.
    Duplicate,
    /// `FieldValueInvalid`.
    Invalid,
    /// `FieldValueNotSupported`.
    NotSupported,
    /// `FieldValueForbidden`.
    Forbidden,
    /// `FieldValueTooLong`.
    TooLong,
    /// `FieldValueTooMany`.
    TooMany,
    /// `FieldValueTooFew`.
    TooFew,
    /// `InternalError`.
    Internal,
    /// `FieldValueTypeInvalid`.
    TypeInvalid,
    /// `FieldValueTooShort`.
    TooShort,
}

impl ErrorType {
    /// The machine-readable cause type, as in a Status cause's `reason`.
    pub fn cause_type(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::TooShort => "FieldValueTooShort",
        }
    }
}

impl fmt::Display for ErrorType {
    /// Go's `ErrorType.String()`: the words that start an error's body.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TooShort => "Too short",
        })
    }
}

/// The offending value of an [`Error`], kept in the form Go prints it: strings quoted,
/// numbers and booleans bare, anything else as its JSON text.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// No value is shown (Go's `omitValue`).
    Omit,
    /// A string, printed quoted as Go's `%q` (`strconv.Quote`).
    String(String),
    /// An integer, printed bare.
    Int(i64),
    /// A floating-point number, printed as Go's `%v`.
    Float(f64),
    /// A boolean, printed bare.
    Bool(bool),
    /// A composite value (list, map, struct), printed as its JSON text, which the caller
    /// renders (Go calls `json.Marshal`).
    Json(String),
}

/// A value Go prints through `json.Marshal` (a struct, list or map, a time, a pointer):
/// its JSON text as Go's encoder writes it.
pub fn json_of<T: crate::util::json::WriteJson + ?Sized>(value: &T) -> BadValue {
    // `&T` is sized whatever `T` is; the work is `dyn_json_of`'s, once for every type.
    dyn_json_of(&value)
}

/// [`json_of`]'s body, compiled once (bad values are cold).
#[inline(never)]
fn dyn_json_of(value: &dyn crate::util::json::WriteJson) -> BadValue {
    let mut out = Vec::new();
    let written = crate::util::json::encode_write_json(
        value,
        &mut out,
        crate::util::json::JsonLayout::Compact,
    );
    BadValue::Json(match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        // Go's fallback when json.Marshal fails (a NaN, say) is another rendering of
        // the value; nothing of ours fails to write but a float Go could not write
        // either.
        Err(_) => String::new(),
    })
}

impl BadValue {
    /// A string Go prints through `json.Marshal` rather than `%q`: a value of a named
    /// string type (`RestartPolicy`, `Protocol`, any enum) or a `*string`.
    pub fn json_string(s: &str) -> Self {
        BadValue::Json(go_json_string(s))
    }

    /// A nil pointer, printed as Go's `json.Marshal` writes it: `null`.
    pub fn null() -> Self {
        BadValue::Json("null".to_owned())
    }

    /// A list of strings as Go's `json.Marshal` writes a `[]string`.
    pub fn json_strings<S: AsRef<str>>(items: &[S]) -> Self {
        let mut out = String::from("[");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&go_json_string(item.as_ref()));
        }
        out.push(']');
        BadValue::Json(out)
    }
}

/// Pointers to numbers and booleans: the value, or `null` when nil (Go prints a
/// pointer bad value through `json.Marshal`). A `*string` is not among them: it is
/// JSON-quoted ([`BadValue::json_string`]), not `%q`-quoted.
macro_rules! from_pointer {
    ($($ty:ty),*) => {$(
        impl From<Option<$ty>> for BadValue {
            fn from(v: Option<$ty>) -> Self {
                v.map_or_else(BadValue::null, BadValue::from)
            }
        }
    )*};
}
from_pointer!(i64, i32, bool);

impl From<&str> for BadValue {
    fn from(v: &str) -> Self {
        BadValue::String(v.to_owned())
    }
}
impl From<String> for BadValue {
    fn from(v: String) -> Self {
        BadValue::String(v)
    }
}
impl From<&String> for BadValue {
    fn from(v: &String) -> Self {
        BadValue::String(v.clone())
    }
}
impl From<i64> for BadValue {
    fn from(v: i64) -> Self {
        BadValue::Int(v)
    }
}
impl From<i32> for BadValue {
    fn from(v: i32) -> Self {
        BadValue::Int(i64::from(v))
    }
}
impl From<usize> for BadValue {
    fn from(v: usize) -> Self {
        BadValue::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<f64> for BadValue {
    fn from(v: f64) -> Self {
        BadValue::Float(v)
    }
}
impl From<bool> for BadValue {
    fn from(v: bool) -> Self {
        BadValue::Bool(v)
    }
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Omit => Ok(()),
            BadValue::String(s) => f.write_str(&go_quote(s)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Float(x) => f.write_str(&go_float(*x)),
            BadValue::Bool(b) => write!(f, "{b}"),
            BadValue::Json(j) => f.write_str(j),
        }
    }
}

/// One field-level validation error, as Go's `field.Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// Why the field is invalid.
    pub error_type: ErrorType,
    /// The field's path, as a string (`spec.containers[0].name`).
    pub field: String,
    /// The offending value.
    pub bad_value: BadValue,
    /// More about the error; may be empty.
    pub detail: String,
}

impl Error {
    fn new(error_type: ErrorType, field: &Path<'_>, bad_value: BadValue, detail: String) -> Self {
        Error {
            error_type,
            field: field.render(),
            bad_value,
            detail,
        }
    }

    /// A malformed value (Go's `Invalid`).
    pub fn invalid(
        field: &Path<'_>,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Error::new(ErrorType::Invalid, field, value.into(), detail.into())
    }

    /// A value of the wrong type (Go's `TypeInvalid`).
    pub fn type_invalid(
        field: &Path<'_>,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Error::new(ErrorType::TypeInvalid, field, value.into(), detail.into())
    }

    /// A missing value (Go's `Required`).
    pub fn required(field: &Path<'_>, detail: impl Into<String>) -> Self {
        Error::new(
            ErrorType::Required,
            field,
            BadValue::String(String::new()),
            detail.into(),
        )
    }

    /// A value that must be unique (Go's `Duplicate`).
    pub fn duplicate(field: &Path<'_>, value: impl Into<BadValue>) -> Self {
        Error::new(ErrorType::Duplicate, field, value.into(), String::new())
    }

    /// A value that was looked up and not found (Go's `NotFound`).
    pub fn not_found(field: &Path<'_>, value: impl Into<BadValue>) -> Self {
        Error::new(ErrorType::NotFound, field, value.into(), String::new())
    }

    /// A value outside an enumeration (Go's `NotSupported`): the detail lists the
    /// supported values, quoted, in the order given.
    pub fn not_supported<S: AsRef<str>>(
        field: &Path<'_>,
        value: impl Into<BadValue>,
        valid_values: &[S],
    ) -> Self {
        let mut detail = String::new();
        for (i, v) in valid_values.iter().enumerate() {
            detail.push_str(if i == 0 { "supported values: " } else { ", " });
            detail.push_str(&go_quote(v.as_ref()));
        }
        Error::new(ErrorType::NotSupported, field, value.into(), detail)
    }

    /// A value not allowed under the current conditions (Go's `Forbidden`).
    pub fn forbidden(field: &Path<'_>, detail: impl Into<String>) -> Self {
        Error::new(
            ErrorType::Forbidden,
            field,
            BadValue::String(String::new()),
            detail.into(),
        )
    }

    /// A value longer than `max_length` bytes (Go's `TooLong`); a negative maximum is
    /// not shown.
    pub fn too_long(field: &Path<'_>, max_length: i64) -> Self {
        let detail = if max_length >= 0 {
            let unit = if max_length == 1 { "byte" } else { "bytes" };
            format!("may not be more than {max_length} {unit}")
        } else {
            "value is too long".to_owned()
        };
        Error::new(
            ErrorType::TooLong,
            field,
            BadValue::String("<value omitted>".into()),
            detail,
        )
    }

    /// A value longer than `max_length` characters (Go's `TooLongCharacters`).
    pub fn too_long_characters(field: &Path<'_>, max_length: i64) -> Self {
        let detail = if max_length >= 0 {
            let unit = if max_length == 1 {
                "character"
            } else {
                "characters"
            };
            format!("may not be more than {max_length} {unit}")
        } else {
            "value is too long".to_owned()
        };
        Error::new(
            ErrorType::TooLong,
            field,
            BadValue::String("<value omitted>".into()),
            detail,
        )
    }

    /// A list with more than `max_quantity` items (Go's `TooMany`); negative numbers are
    /// not shown.
    pub fn too_many(field: &Path<'_>, actual_quantity: i64, max_quantity: i64) -> Self {
        let detail = if max_quantity >= 0 {
            let unit = if max_quantity == 1 { "item" } else { "items" };
            format!("must have at most {max_quantity} {unit}")
        } else {
            "has too many items".to_owned()
        };
        let actual = if actual_quantity >= 0 {
            BadValue::Int(actual_quantity)
        } else {
            BadValue::Omit
        };
        Error::new(ErrorType::TooMany, field, actual, detail)
    }

    /// A list with fewer than `min_quantity` items (Go's `TooFew`).
    pub fn too_few(field: &Path<'_>, actual_quantity: i64, min_quantity: i64) -> Self {
        let detail = if min_quantity >= 0 {
            let unit = if min_quantity == 1 { "item" } else { "items" };
            format!("must have at least {min_quantity} {unit}")
        } else {
            "has too few items".to_owned()
        };
        Error::new(
            ErrorType::TooFew,
            field,
            BadValue::Int(actual_quantity),
            detail,
        )
    }

    /// A string shorter than `min_length` characters (Go's `TooShort`).
    pub fn too_short(field: &Path<'_>, value: &str, min_length: i64) -> Self {
        let detail = if min_length >= 0 {
            let unit = if min_length == 1 {
                "character"
            } else {
                "characters"
            };
            format!("must be at least {min_length} {unit}")
        } else {
            "value is too short".to_owned()
        };
        Error::new(ErrorType::TooShort, field, BadValue::from(value), detail)
    }

    /// A failure not caused by the input (Go's `InternalError`).
    pub fn internal_error(field: &Path<'_>, err: &dyn std::error::Error) -> Self {
        let detail = err.to_string();
        Error::new(
            ErrorType::Internal,
            field,
            BadValue::Json(detail.clone()),
            detail,
        )
    }

    /// The message without the field (Go's `ErrorBody`), used as a Status cause's
    /// `message`.
    pub fn error_body(&self) -> String {
        let mut s = match self.error_type {
            ErrorType::Required
            | ErrorType::Forbidden
            | ErrorType::TooLong
            | ErrorType::TooShort
            | ErrorType::Internal => self.error_type.to_string(),
            _ => match &self.bad_value {
                BadValue::Omit => self.error_type.to_string(),
                v => format!("{}: {v}", self.error_type),
            },
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.error_body())
    }
}

impl std::error::Error for Error {}

/// Every error found in one object, in the order found (Go's `field.ErrorList`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorList(pub Vec<Error>);

impl ErrorList {
    /// Adds one error.
    pub fn push(&mut self, err: Error) {
        self.0.push(err);
    }

    /// Adds every error of `other`.
    pub fn extend(&mut self, other: ErrorList) {
        self.0.extend(other.0);
    }

    /// Whether no error was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many errors were found.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The errors.
    pub fn iter(&self) -> std::slice::Iter<'_, Error> {
        self.0.iter()
    }

    /// The errors without repeats of the same message, in order (what Go's
    /// `ToAggregate` keeps).
    pub fn deduplicated(&self) -> Vec<&Error> {
        let mut seen = std::collections::HashSet::new();
        self.0
            .iter()
            .filter(|e| seen.insert(e.to_string()))
            .collect()
    }

    /// The message of a 422 `Invalid` Status, as Go's `NewInvalid` writes it:
    /// `Deployment.apps "web" is invalid: [e1, e2]` (`qualified_kind` is the kind, with
    /// `.group` when the group is not core).
    pub fn invalid_message(&self, qualified_kind: &str, name: &str) -> String {
        if self.is_empty() {
            format!("{qualified_kind} {} is invalid", go_quote(name))
        } else {
            format!("{qualified_kind} {} is invalid: {self}", go_quote(name))
        }
    }
}

impl fmt::Display for ErrorList {
    /// Go's aggregate error text: the only message alone, else every distinct message
    /// in brackets, separated by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errs = self.deduplicated();
        if errs.len() == 1 {
            return write!(f, "{}", errs[0]);
        }
        f.write_str("[")?;
        for (i, e) in errs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str("]")
    }
}

impl std::error::Error for ErrorList {}

impl From<Vec<Error>> for ErrorList {
    fn from(v: Vec<Error>) -> Self {
        ErrorList(v)
    }
}

impl IntoIterator for ErrorList {
    type Item = Error;
    type IntoIter = std::vec::IntoIter<Error>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_strings_are_gos() {
        assert_eq!(
            Path::new("spec")
                .child("template")
                .child("metadata")
                .child("labels")
                .to_string(),
            "spec.template.metadata.labels"
        );
        assert_eq!(
            Path::new("spec")
                .child("containers")
                .index(0)
                .child("name")
                .to_string(),
            "spec.containers[0].name"
        );
        assert_eq!(
            Path::new("metadata").child("labels").key("app").to_string(),
            "metadata.labels[app]"
        );
        assert_eq!(Path::root().child("a").to_string(), "a");
        assert_eq!(Path::root().to_string(), "");
        assert_eq!(Path::new("").child("a").to_string(), ".a");
        let list = Path::new("items");
        assert_eq!(list.index(1234567890).render(), "items[1234567890]");
        assert_eq!(list.index(0).key("k").child("x").render(), "items[0][k].x");
        assert_eq!(Path::root().index(3).to_string(), "[3]");
        assert_eq!(Path::root().child("a"), Path::new("a"));
    }

    #[test]
    fn bodies_are_gos() {
        let spec = Path::new("spec");
        let p = spec.child("replicas");
        assert_eq!(
            Error::invalid(&p, -1, "must be greater than or equal to 0").to_string(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(
            Error::required(&p, "").to_string(),
            "spec.replicas: Required value"
        );
        assert_eq!(
            Error::not_supported(&p, "X", &["A", "B"]).to_string(),
            "spec.replicas: Unsupported value: \"X\": supported values: \"A\", \"B\""
        );
        assert_eq!(
            Error::duplicate(&p, "a").to_string(),
            "spec.replicas: Duplicate value: \"a\""
        );
        assert_eq!(
            Error::too_long(&p, 63).to_string(),
            "spec.replicas: Too long: may not be more than 63 bytes"
        );
        assert_eq!(
            Error::too_long(&p, 1).error_body(),
            "Too long: may not be more than 1 byte"
        );
        assert_eq!(
            Error::forbidden(&p, "no").to_string(),
            "spec.replicas: Forbidden: no"
        );
        assert_eq!(
            Error::too_many(&p, 3, 2).to_string(),
            "spec.replicas: Too many: 3: must have at most 2 items"
        );
        assert_eq!(
            Error::too_many(&p, -1, -1).to_string(),
            "spec.replicas: Too many: has too many items"
        );
        assert_eq!(
            Error::not_found(&p, true).to_string(),
            "spec.replicas: Not found: true"
        );
        assert_eq!(
            Error::invalid(&p, BadValue::Json("{\"a\":\"b\"}".into()), "x").error_body(),
            "Invalid value: {\"a\":\"b\"}: x"
        );
        assert_eq!(
            Error::invalid(&p, 1.5, "x").error_body(),
            "Invalid value: 1.5: x"
        );
        assert_eq!(
            Error::invalid(&p, 1e21, "x").error_body(),
            "Invalid value: 1e+21: x"
        );
        assert_eq!(
            Error::invalid(&p, "a\u{ad}", "x").error_body(),
            "Invalid value: \"a\\u00ad\": x"
        );
        assert_eq!(
            Error::invalid(&p, BadValue::json_string("a\u{ad}<"), "x").error_body(),
            "Invalid value: \"a\u{ad}\\u003c\": x"
        );
        assert_eq!(
            Error::invalid(&p, None::<i64>, "x").error_body(),
            "Invalid value: null: x"
        );
        assert_eq!(
            Error::invalid(&p, Some(3i64), "x").error_body(),
            "Invalid value: 3: x"
        );
        let io = std::io::Error::other("boom");
        assert_eq!(
            Error::internal_error(&p, &io).error_body(),
            "Internal error: boom"
        );
    }

    #[test]
    fn list_aggregates_as_go() {
        let p = Path::new("a");
        let mut l = ErrorList::default();
        assert_eq!(l.invalid_message("Pod", "x"), "Pod \"x\" is invalid");
        l.push(Error::required(&p, ""));
        assert_eq!(l.to_string(), "a: Required value");
        l.push(Error::required(&p, ""));
        assert_eq!(l.to_string(), "a: Required value");
        l.push(Error::invalid(&p, "v", "bad"));
        assert_eq!(
            l.to_string(),
            "[a: Required value, a: Invalid value: \"v\": bad]"
        );
        assert_eq!(
            l.invalid_message("Deployment.apps", "web"),
            "Deployment.apps \"web\" is invalid: [a: Required value, a: Invalid value: \"v\": bad]"
        );
    }
}
