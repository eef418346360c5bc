//! The `continue` token of a paged list (Go's `storage.EncodeContinue`): base64 of a
//! small JSON document naming the revision the first page was read at and the key the
//! next page starts from, relative to the collection's prefix.

use base64::Engine;
use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::storage::Revision;

/// The only token version there is (Go's `meta.k8s.io/v1`).
const TOKEN_VERSION: &str = "meta.k8s.io/v1";

/// Go's `base64.RawURLEncoding`: the URL-safe alphabet, no padding, trailing bits
/// allowed on decoding.
const RAW_URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone),
);

/// Go's `ErrGenericInvalidKey`, which starts every message.
const INVALID_KEY: &str = "continue key is not valid";

/// A decoded `continue` token, as Go writes it (`storage.continueToken`), so that either
/// server of one etcd continues the other's lists.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ContinueToken {
    /// The version of the token format.
    #[serde(rename = "v")]
    pub version: String,
    /// The revision every page is read at; negative for "the latest" (Go's tokens
    /// for lists that are not consistent).
    #[serde(rename = "rv")]
    pub revision: Revision,
    /// The next key, relative to the list's prefix.
    pub start: String,
}

/// A token that is not one a server wrote, with Go's message (`continue key is not
/// valid: ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ContinueTokenError {
    /// What was wrong with it, in Go's words.
    pub message: String,
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

    /// The opaque string form: Go's, base64 (URL-safe, unpadded) of the JSON.
    pub fn encode(&self) -> String {
        RAW_URL.encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// Reads a token as Go's `DecodeContinue` does, with its messages.
    pub fn decode(token: &str) -> Result<Self, ContinueTokenError> {
        let err = |message: String| ContinueTokenError { message };
        let bytes = RAW_URL
            .decode(token)
            .map_err(|e| err(format!("{INVALID_KEY}: {}", go_base64_error(&e))))?;
        let t: ContinueToken = serde_json::from_slice(&bytes).map_err(|e| {
            // Go's JSON decoder's words for a syntax error; serde's for the rest.
            let why = match apimachinery::util::json::check_valid(&bytes) {
                Err(syntax) => syntax.to_string(),
                Ok(()) => e.to_string(),
            };
            err(format!("{INVALID_KEY}: {why}"))
        })?;
        if t.version != TOKEN_VERSION {
            return Err(err(format!(
                "{INVALID_KEY}: server does not recognize this encoded version {}",
                t.version
            )));
        }
        if t.revision == 0 {
            return Err(err(format!(
                "{INVALID_KEY}: incorrect encoded start resourceVersion (version {TOKEN_VERSION})"
            )));
        }
        if t.start.is_empty() {
            return Err(err(format!(
                "{INVALID_KEY}: encoded start key empty (version {TOKEN_VERSION})"
            )));
        }
        // Go cleans `/<start>` as a path and refuses a key that cleaning changes: no
        // climbing out of the list's prefix.
        let clean = t
            .start
            .strip_prefix('/')
            .unwrap_or(&t.start)
            .split('/')
            .all(|segment| !matches!(segment, "" | "." | ".."));
        if !clean {
            return Err(err(format!("{INVALID_KEY}: {}", t.start)));
        }
        Ok(t)
    }

    /// The full key the next page starts at.
    pub fn start_key(&self, prefix: &str) -> String {
        format!(
            "{prefix}{}",
            self.start.strip_prefix('/').unwrap_or(&self.start)
        )
    }
}

/// Go's `base64.CorruptInputError` message for what the decoder refused.
fn go_base64_error(e: &base64::DecodeError) -> String {
    let offset = match *e {
        base64::DecodeError::InvalidByte(offset, _)
        | base64::DecodeError::InvalidLastSymbol(offset, _) => offset,
        base64::DecodeError::InvalidLength(length) => length,
        base64::DecodeError::InvalidPadding => 0,
    };
    format!("illegal base64 data at input byte {offset}")
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
            &RAW_URL.encode(br#"{"v":"x","rv":1,"start":"a"}"#),
            &RAW_URL.encode(br#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
            &RAW_URL.encode(br#"{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}"#),
            &RAW_URL.encode(br#"{"v":"meta.k8s.io/v1","rv":3,"start":"a//b"}"#),
        ] {
            assert!(ContinueToken::decode(bad).is_err(), "{bad}");
        }
        // Go's token for the same page reads the same.
        let go = RAW_URL.encode(br#"{"v":"meta.k8s.io/v1","rv":42,"start":"ns/b\u0000"}"#);
        assert_eq!(ContinueToken::decode(&go)?, t);
        assert_eq!(
            ContinueToken::decode("garbage").map_err(|e| e.message),
            Err("continue key is not valid: invalid character '\\u0081' looking for beginning of value".to_owned())
        );
        Ok(())
    }
}
