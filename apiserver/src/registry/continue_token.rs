//! The `continue` token of a paged list (Go's `storage.EncodeContinue`): base64 of a
//! small JSON document naming the revision the first page was read at and the key the
//! next page starts from, relative to the collection's prefix.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::storage::Revision;

/// The only token version there is (Go's `meta.k8s.io/v1`).
const TOKEN_VERSION: &str = "meta.k8s.io/v1";

/// A decoded `continue` token.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ContinueToken {
    /// The version of the token format.
    #[serde(rename = "v")]
    pub version: String,
    /// The revision every page is read at.
    #[serde(rename = "rv")]
    pub revision: Revision,
    /// The next key, relative to the list's prefix.
    pub start: String,
}

/// A token that is not one this server wrote.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("continue key is not valid: {reason}")]
pub struct ContinueTokenError {
    /// What was wrong with it.
    pub reason: String,
}

impl ContinueToken {
    /// The token resuming at `next_key` (a full key under `prefix`) at `revision`.
    pub fn new(revision: Revision, prefix: &str, next_key: &str) -> Self {
        ContinueToken {
            version: TOKEN_VERSION.into(),
            revision,
            start: next_key.strip_prefix(prefix).unwrap_or(next_key).to_owned(),
        }
    }

    /// The opaque string form.
    pub fn encode(&self) -> String {
        STANDARD.encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// Reads a token; `prefix` is the list's, to rebuild the full start key.
    pub fn decode(token: &str) -> Result<Self, ContinueTokenError> {
        let err = |reason: String| ContinueTokenError { reason };
        let bytes = STANDARD.decode(token).map_err(|e| err(format!("{e}")))?;
        let t: ContinueToken = serde_json::from_slice(&bytes).map_err(|e| err(format!("{e}")))?;
        if t.version != TOKEN_VERSION {
            return Err(err(format!(
                "server does not recognize this encoding ({:?})",
                t.version
            )));
        }
        if t.revision <= 0 {
            return Err(err(
                "incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into(),
            ));
        }
        if t.start.is_empty() || t.start.contains("..") || t.start.starts_with('/') {
            return Err(err("continue key is not valid".into()));
        }
        Ok(t)
    }

    /// The full key the next page starts at.
    pub fn start_key(&self, prefix: &str) -> String {
        format!("{prefix}{}", self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() -> Result<(), ContinueTokenError> {
        let t = ContinueToken::new(42, "/registry/pods/", "/registry/pods/ns/b\u{0}");
        let back = ContinueToken::decode(&t.encode())?;
        assert_eq!(back, t);
        assert_eq!(
            back.start_key("/registry/pods/"),
            "/registry/pods/ns/b\u{0}"
        );
        for bad in [
            "%%%",
            "bm90IGpzb24=",
            &STANDARD.encode(br#"{"v":"x","rv":1,"start":"a"}"#),
            &STANDARD.encode(br#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
            &STANDARD.encode(br#"{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}"#),
        ] {
            assert!(ContinueToken::decode(bad).is_err(), "{bad}");
        }
        Ok(())
    }
}
