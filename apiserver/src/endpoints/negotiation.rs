//! Content negotiation (Go's `endpoints/handlers/negotiation`): the media type of a
//! response from the `Accept` header, and of a request body from `Content-Type`.

use super::StatusError;

/// The formats objects are read and written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MediaType {
    /// `application/json`.
    Json,
    /// `application/yaml`.
    Yaml,
    /// `application/vnd.kubernetes.protobuf`.
    Protobuf,
}

impl MediaType {
    /// The `Content-Type` of an answer in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            MediaType::Json => "application/json",
            MediaType::Yaml => "application/yaml",
            MediaType::Protobuf => "application/vnd.kubernetes.protobuf",
        }
    }

    fn from_essence(essence: &str) -> Option<MediaType> {
        match essence {
            "application/json" => Some(MediaType::Json),
            "application/yaml" => Some(MediaType::Yaml),
            "application/vnd.kubernetes.protobuf" => Some(MediaType::Protobuf),
            _ => None,
        }
    }
}

/// The patch formats of PATCH bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    /// RFC 6902 `application/json-patch+json`.
    Json,
    /// RFC 7386 `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    StrategicMerge,
    /// `application/apply-patch+yaml` (server-side apply).
    Apply,
}

impl PatchType {
    /// The patch type of a PATCH request's `Content-Type`.
    pub fn from_content_type(content_type: Option<&str>) -> Result<PatchType, StatusError> {
        let essence = content_type
            .map(|c| {
                c.split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        match essence.as_str() {
            "application/json-patch+json" => Ok(PatchType::Json),
            "application/merge-patch+json" => Ok(PatchType::Merge),
            "application/strategic-merge-patch+json" => Ok(PatchType::StrategicMerge),
            "application/apply-patch+yaml" | "application/apply-patch+cbor" => Ok(PatchType::Apply),
            _ => Err(StatusError::unsupported_media_type(format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got {essence:?})"
            ))),
        }
    }
}

/// The response format for an `Accept` header (JSON when absent or `*/*`). Entries
/// asking for a conversion (`as=Table`, `as=PartialObjectMetadata`) are passed over in
/// favour of the next one, as Go's server does for kinds it renders no table for.
pub fn negotiate_output(accept: Option<&str>) -> Result<MediaType, StatusError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(MediaType::Json);
    };
    for entry in accept.split(',') {
        let mut parts = entry.split(';');
        let essence = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let converts = parts.any(|p| p.trim().starts_with("as="));
        if converts {
            continue;
        }
        if let Some(m) = MediaType::from_essence(&essence) {
            return Ok(m);
        }
        if essence == "*/*" || essence == "application/*" {
            return Ok(MediaType::Json);
        }
    }
    Err(StatusError::not_acceptable(accept))
}

/// The format of a request body from its `Content-Type` (JSON when absent, as Go's
/// clients always send one).
pub fn negotiate_input(content_type: Option<&str>) -> Result<MediaType, StatusError> {
    let Some(ct) = content_type else {
        return Ok(MediaType::Json);
    };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    MediaType::from_essence(&essence).ok_or_else(|| {
        StatusError::unsupported_media_type(format!(
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf (got {essence:?})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_headers_choose_as_go() {
        let ok = |a: Option<&str>| negotiate_output(a).ok();
        assert_eq!(ok(None), Some(MediaType::Json));
        assert_eq!(ok(Some("application/yaml")), Some(MediaType::Yaml));
        assert_eq!(
            ok(Some(
                "application/vnd.kubernetes.protobuf, application/json"
            )),
            Some(MediaType::Protobuf)
        );
        assert_eq!(
            ok(Some(
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
            )),
            Some(MediaType::Json)
        );
        assert_eq!(ok(Some("*/*")), Some(MediaType::Json));
        assert_eq!(
            negotiate_output(Some("text/html")).map_err(|e| e.code()),
            Err(406)
        );
        assert_eq!(
            negotiate_input(Some("text/plain")).map_err(|e| e.code()),
            Err(415)
        );
        assert_eq!(
            PatchType::from_content_type(Some("application/merge-patch+json; charset=utf-8")).ok(),
            Some(PatchType::Merge)
        );
    }
}
