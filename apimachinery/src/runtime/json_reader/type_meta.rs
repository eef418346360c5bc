//! What a read saw of the top-level `apiVersion` and `kind`.
//!
//! The serializer picks the Rust type from `apiVersion`/`kind` before decoding. Go writes
//! them first, so reading the leading keys is usually enough to pick the type, and the
//! meta factory's separate pass over the whole document can be skipped — provided the
//! document does not name another kind further down (a key given twice, in any order).
//! The reader sees every top-level key during the one typed pass, so after it the
//! serializer knows whether the leading keys told the truth; when they did not, it
//! decodes again the careful way.

/// What a decode saw of one top-level type-meta key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Seen<'de> {
    /// The key did not occur.
    #[default]
    Absent,
    /// The key occurred once, with this string (`None`: `null`).
    Once(Option<&'de str>),
    /// The key occurred more than once, or its text could not be borrowed, or its value
    /// is neither a string nor `null`.
    Unverifiable,
}

impl<'de> Seen<'de> {
    fn record(&mut self, value: Option<&'de str>) {
        *self = match self {
            Seen::Absent => Seen::Once(value),
            _ => Seen::Unverifiable,
        };
    }

    /// True when what was seen reads as `expected` (`None`: absent or `null`), as the
    /// meta factory would read the whole document.
    fn reads_as(self, expected: Option<&str>) -> bool {
        match self {
            Seen::Absent | Seen::Once(None) => expected.is_none(),
            Seen::Once(Some(s)) => expected == Some(s),
            Seen::Unverifiable => false,
        }
    }
}

/// The top-level `apiVersion` and `kind` a typed decode met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeenTypeMeta<'de> {
    /// False when the type did not read the document as a map (then nothing was seen).
    pub(super) tapped: bool,
    api_version: Seen<'de>,
    kind: Seen<'de>,
}

/// One of the two type-meta keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TypeMetaKey {
    ApiVersion,
    Kind,
}

impl TypeMetaKey {
    pub(super) fn of(key: &str) -> Option<Self> {
        match key {
            "apiVersion" => Some(TypeMetaKey::ApiVersion),
            "kind" => Some(TypeMetaKey::Kind),
            _ => None,
        }
    }
}

impl<'de> SeenTypeMeta<'de> {
    /// True when the whole document declares exactly `api_version` and `kind` (`None`:
    /// absent or `null`), each at most once.
    pub(crate) fn declares(&self, api_version: Option<&str>, kind: Option<&str>) -> bool {
        self.tapped && self.api_version.reads_as(api_version) && self.kind.reads_as(kind)
    }

    fn slot(&mut self, key: TypeMetaKey) -> &mut Seen<'de> {
        match key {
            TypeMetaKey::ApiVersion => &mut self.api_version,
            TypeMetaKey::Kind => &mut self.kind,
        }
    }

    pub(super) fn record(&mut self, key: TypeMetaKey, value: Option<&'de str>) {
        self.slot(key).record(value);
    }

    pub(super) fn mark_unverifiable(&mut self, key: TypeMetaKey) {
        *self.slot(key) = Seen::Unverifiable;
    }
}
