//! [`ConversionError`]: why a conversion failed, and where in the object.

use std::fmt;

use crate::scheme_error::SchemeError;

/// A failed conversion: what went wrong ([`kind`](Self::kind)) and the JSON path of the
/// field it went wrong at ([`path`](Self::path), such as `spec.template.containers[1].ports`),
/// empty when the failure is about the whole object.
///
/// Generated conversions prefix the path with each field name as the error travels up, so
/// the caller sees the full path; the types named in the kind are the innermost pair that
/// failed. Boxed so that `Result<_, ConversionError>` stays one pointer wide on the hot path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError(Box<Inner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    path: String,
    kind: ConversionErrorKind,
}

/// The errors a conversion reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversionErrorKind {
    /// No conversion function is registered between two types (Go's "unknown conversion").
    #[error("converting {from} to {to}: unknown conversion")]
    NoConversion {
        /// The input type.
        from: &'static str,
        /// The output type.
        to: &'static str,
    },
    /// A value of the input has no representation in the output type.
    #[error("converting {from} to {to}: {message}")]
    Unrepresentable {
        /// The input type.
        from: &'static str,
        /// The output type.
        to: &'static str,
        /// Which value, and why it cannot be represented.
        message: String,
    },
    /// The target accepts none of the kinds the type is registered as (Go's
    /// `NotRegisteredErr` for a target).
    #[error("{type_name} is not suitable for converting to {target:?} in scheme {scheme:?}")]
    NoTargetKind {
        /// The Rust type of the object.
        type_name: &'static str,
        /// The target's identifier.
        target: String,
        /// The scheme's name.
        scheme: String,
    },
    /// Unstructured content does not fit the typed object it was read into, or a typed
    /// object could not be written as unstructured content.
    #[error("unable to convert unstructured content to or from {type_name}: {message}")]
    Unstructured {
        /// The Rust type.
        type_name: &'static str,
        /// What serde reported.
        message: String,
    },
    /// A function was handed a value of another type than it was registered for.
    #[error("conversion function for {from} to {to} was given a {given}")]
    WrongType {
        /// The input type the function converts.
        from: &'static str,
        /// The output type the function converts to.
        to: &'static str,
        /// What it was given instead (input or output side).
        given: &'static str,
    },
    /// A scheme lookup failed, such as a kind that is not registered.
    #[error(transparent)]
    Scheme(#[from] SchemeError),
}

impl ConversionError {
    /// An error of the given kind, about the whole value.
    pub fn new(kind: ConversionErrorKind) -> Self {
        ConversionError(Box::new(Inner {
            path: String::new(),
            kind,
        }))
    }

    /// A value that cannot be represented when converting an `In` to an `Out`; for
    /// hand-written conversion functions.
    pub fn unrepresentable<In: ?Sized, Out: ?Sized>(message: impl Into<String>) -> Self {
        Self::unrepresentable_between(
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            message.into(),
        )
    }

    /// [`unrepresentable`](Self::unrepresentable) with the type names given: one
    /// function for every pair, where the generic form is compiled once per pair.
    #[inline(never)]
    pub fn unrepresentable_between(from: &'static str, to: &'static str, message: String) -> Self {
        Self::new(ConversionErrorKind::Unrepresentable { from, to, message })
    }

    /// No function converts an `In` to an `Out`.
    #[inline]
    pub fn no_conversion<In: ?Sized, Out: ?Sized>() -> Self {
        Self::no_conversion_between(std::any::type_name::<In>(), std::any::type_name::<Out>())
    }

    /// [`no_conversion`](Self::no_conversion) with the type names given (Go's "unknown
    /// conversion"): one function for every pair.
    #[inline(never)]
    pub fn no_conversion_between(from: &'static str, to: &'static str) -> Self {
        Self::new(ConversionErrorKind::NoConversion { from, to })
    }

    /// Which error this is.
    pub fn kind(&self) -> &ConversionErrorKind {
        &self.0.kind
    }

    /// The JSON path of the field the error is about; empty for the whole value.
    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// The same error, one field deeper: `name` becomes the first step of the path.
    #[must_use]
    pub fn in_field(mut self, name: &str) -> Self {
        let path = &mut self.0.path;
        if path.is_empty() {
            path.push_str(name);
        } else if path.starts_with('[') {
            path.insert_str(0, name);
        } else {
            path.insert(0, '.');
            path.insert_str(0, name);
        }
        self
    }

    /// The same error, inside the element at `index` of a list.
    #[must_use]
    pub fn at_index(mut self, index: usize) -> Self {
        self.prefix_subscript(&index.to_string());
        self
    }

    /// The same error, inside the value at `key` of a map.
    #[must_use]
    pub fn at_key(mut self, key: &dyn fmt::Display) -> Self {
        self.prefix_subscript(&key.to_string());
        self
    }

    /// The same error with `path` in front of its own (for errors from a format that
    /// tracks paths itself, such as serde's).
    #[must_use]
    pub fn with_path(mut self, path: &str) -> Self {
        if !path.is_empty() && path != "." {
            let own = std::mem::take(&mut self.0.path);
            self.0.path = path.to_owned();
            if !own.is_empty() {
                if !own.starts_with('[') {
                    self.0.path.push('.');
                }
                self.0.path.push_str(&own);
            }
        }
        self
    }

    fn prefix_subscript(&mut self, subscript: &str) {
        let path = &mut self.0.path;
        let mut front = String::with_capacity(subscript.len() + 3 + path.len());
        front.push('[');
        front.push_str(subscript);
        front.push(']');
        if !path.is_empty() && !path.starts_with('[') {
            front.push('.');
        }
        front.push_str(path);
        *path = front;
    }

    /// True when a scheme did not know a kind or type (Go's `runtime.IsNotRegisteredError`).
    pub fn is_not_registered(&self) -> bool {
        matches!(self.kind(), ConversionErrorKind::Scheme(e) if e.is_not_registered())
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.path.is_empty() {
            write!(f, "{}", self.0.kind)
        } else {
            write!(f, "{}: {}", self.0.path, self.0.kind)
        }
    }
}

impl std::error::Error for ConversionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.kind() {
            ConversionErrorKind::Scheme(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ConversionErrorKind> for ConversionError {
    fn from(kind: ConversionErrorKind) -> Self {
        Self::new(kind)
    }
}

impl From<SchemeError> for ConversionError {
    fn from(e: SchemeError) -> Self {
        Self::new(ConversionErrorKind::Scheme(e))
    }
}

/// `result`, its error one field deeper ([`ConversionError::in_field`]): what generated
/// conversions call per field. Generic over the value alone, it is compiled once per
/// field type, where a closure per field would be compiled once per field.
#[inline]
pub fn in_field<T>(result: Result<T, ConversionError>, name: &str) -> Result<T, ConversionError> {
    match result {
        Ok(value) => Ok(value),
        Err(e) => Err(e.in_field(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_built_from_the_inside_out() {
        let e = ConversionError::unrepresentable::<u8, i8>("300 does not fit")
            .in_field("port")
            .at_index(1)
            .in_field("containers")
            .in_field("spec")
            .at_key(&"app")
            .in_field("labels");
        assert_eq!(e.path(), "labels[app].spec.containers[1].port");
        assert_eq!(
            e.to_string(),
            "labels[app].spec.containers[1].port: converting u8 to i8: 300 does not fit"
        );
        let e = ConversionError::no_conversion::<u8, i8>().with_path("a.b");
        assert_eq!(e.path(), "a.b");
        assert_eq!(e.with_path("x").path(), "x.a.b");
        let e = ConversionError::no_conversion::<u8, i8>()
            .at_index(0)
            .with_path("items");
        assert_eq!(e.path(), "items[0]");
    }
}
