//! [`Name`]: the string type of group, version, kind and resource names.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// An immutable name (an API group, version, kind or resource) that is cheap to clone.
///
/// Group/version/kind values are map keys on every hot path of the machinery (the
/// [`Scheme`](crate::runtime::Scheme), the RESTMapper, codecs) and are cloned into every
/// answer. Names known at compile time — everything `#[derive(ApiObject)]` emits — are kept
/// as `&'static str` and cost nothing to create or clone; names read at run time share one
/// `Arc<str>`. Equality, ordering and hashing are those of the string, so a `Name` can be
/// compared with and looked up by a `&str`.
///
/// ```
/// use apimachinery::schema::Name;
/// const APPS: Name = Name::from_static("apps");
/// let parsed = Name::from(String::from("apps"));
/// assert_eq!(APPS, parsed);
/// assert_eq!(APPS, "apps");
/// assert_eq!(&*parsed, "apps");
/// ```
#[derive(Clone)]
pub struct Name(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Shared(Arc<str>),
}

impl Name {
    /// The empty name (the core group, an unset version or kind).
    pub const EMPTY: Name = Name::from_static("");

    /// A name from a string known at compile time; never allocates.
    pub const fn from_static(s: &'static str) -> Self {
        Name(Repr::Static(s))
    }

    /// A name from any string; allocates once unless it is empty.
    pub fn new(s: &str) -> Self {
        if s.is_empty() {
            Self::EMPTY
        } else {
            Name(Repr::Shared(Arc::from(s)))
        }
    }

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            Repr::Shared(s) => s,
        }
    }
}

impl Default for Name {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            // Same static string or same allocation: equal without comparing bytes.
            (Repr::Static(a), Repr::Static(b)) if std::ptr::eq(*a, *b) => true,
            (Repr::Shared(a), Repr::Shared(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.as_str() == other.as_str(),
        }
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Must hash exactly as `str` does, for `Borrow<str>` lookups.
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name::new(s)
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Self {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        if s.is_empty() {
            Self::EMPTY
        } else {
            Name(Repr::Shared(Arc::from(s)))
        }
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Self {
        s.clone()
    }
}

impl From<Arc<str>> for Name {
    fn from(s: Arc<str>) -> Self {
        Name(Repr::Shared(s))
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.as_str().to_owned()
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Name, E> {
                Ok(Name::new(v))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Name, E> {
                Ok(Name::from(v))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn static_and_shared_names_are_equal_and_hash_alike() {
        let mut map = HashMap::new();
        map.insert(Name::from_static("apps"), 1);
        assert_eq!(map.get("apps"), Some(&1));
        assert_eq!(map.get(&Name::from(String::from("apps"))), Some(&1));
        assert!(Name::new("a") < Name::from_static("b"));
        assert_eq!(Name::new(""), Name::EMPTY);
    }

    #[test]
    fn serde_round_trip() {
        let n: Name = serde_json::from_str("\"batch\"").unwrap();
        assert_eq!(n, "batch");
        assert_eq!(serde_json::to_string(&n).unwrap(), "\"batch\"");
    }
}
