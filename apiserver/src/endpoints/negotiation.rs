//! Content negotiation (Go's `endpoints/handlers/negotiation`): the media type of a
//! response from the `Accept` header, and of a request body from `Content-Type`.

use apimachinery::api::errors::{StatusError, reason};
use apimachinery::apis::meta::v1::StatusDetails;
use apimachinery::schema::GroupVersionKind;

pub use crate::registry::MediaType;

/// The format of a media type's essence (`application/json`), when objects are served in it.
fn media_type_of(essence: &str) -> Option<MediaType> {
    match essence {
        "application/json" => Some(MediaType::Json),
        "application/yaml" => Some(MediaType::Yaml),
        "application/vnd.kubernetes.protobuf" => Some(MediaType::Protobuf),
        _ => None,
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
            // Go's PATCH routes consume the patch types only: go-restful refuses the
            // rest before any handler runs.
            _ => Err(route_unsupported_media_type()),
        }
    }
}

/// The response format for an `Accept` header (JSON when absent or `*/*`), for answers
/// that convert nothing: entries asking for a conversion (`as=Table`,
/// `as=PartialObjectMetadata`) are passed over in favour of the next one.
pub fn negotiate_output(accept: Option<&str>) -> Result<MediaType, StatusError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(MediaType::Json);
    };
    accept
        .split(',')
        .map(AcceptEntry::parse)
        .find_map(|e| match e.convert {
            None => e.media,
            Some(_) => None,
        })
        .ok_or_else(not_acceptable)
}

/// The version of `meta.k8s.io` a conversion answers in (`v=` of the `Accept` entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetaVersion {
    /// `meta.k8s.io/v1`.
    V1,
    /// `meta.k8s.io/v1beta1`.
    V1beta1,
}

impl MetaVersion {
    /// The version's name.
    pub fn as_str(self) -> &'static str {
        match self {
            MetaVersion::V1 => "v1",
            MetaVersion::V1beta1 => "v1beta1",
        }
    }
}

/// What an answer is converted to before it is encoded, as an `Accept` entry's `as`,
/// `g` and `v` parameters ask (Go's `MediaTypeOptions.Convert`, of the kinds Go's
/// `RequestScope.AllowsMediaTypeTransform` allows in any format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// `as=PartialObjectMetadata`: the object's metadata alone.
    PartialObjectMetadata(MetaVersion),
    /// `as=PartialObjectMetadataList`: a list's metadata and each item's.
    PartialObjectMetadataList(MetaVersion),
}

impl Conversion {
    /// The kind answered.
    pub fn group_version_kind(self) -> GroupVersionKind {
        let (version, kind) = match self {
            Conversion::PartialObjectMetadata(v) => (v, "PartialObjectMetadata"),
            Conversion::PartialObjectMetadataList(v) => (v, "PartialObjectMetadataList"),
        };
        GroupVersionKind::new(META_GROUP, version.as_str(), kind)
    }
}

/// The group of `Table` and `PartialObjectMetadata`.
const META_GROUP: &str = "meta.k8s.io";

/// A negotiated answer: its format and what the object is converted to first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// The format.
    pub media: MediaType,
    /// The conversion, if one was asked for and is served.
    pub conversion: Option<Conversion>,
}

/// The response format and conversion for an `Accept` header, entry by entry as Go's
/// `NegotiateMediaTypeOptions` takes them: an entry naming `as=PartialObjectMetadata`
/// or `as=PartialObjectMetadataList` in `g=meta.k8s.io` `v=v1` or `v=v1beta1` is
/// served in JSON, YAML or protobuf; an entry with any other `as`/`g`/`v` is passed
/// over (`as=Table` included: tables are the caller's business), and so is plain
/// protobuf when the resource's objects have no protobuf form (`protobuf` false:
/// custom resources, whose metadata still is served in protobuf, as Go's is). No entry
/// served is Go's 406.
pub fn negotiate_output_options(
    accept: Option<&str>,
    protobuf: bool,
) -> Result<Output, StatusError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(Output {
            media: MediaType::Json,
            conversion: None,
        });
    };
    accept
        .split(',')
        .map(AcceptEntry::parse)
        .find_map(|e| {
            let media = e.media?;
            let conversion = match e.convert {
                None if media == MediaType::Protobuf && !protobuf => return None,
                None => None,
                Some(c) => Some(c.served()?),
            };
            Some(Output { media, conversion })
        })
        .ok_or_else(not_acceptable)
}

/// One entry of an `Accept` header.
struct AcceptEntry<'a> {
    /// The format it names (`None` for a media type this server does not write).
    media: Option<MediaType>,
    /// Its `as`, `g` and `v` parameters, when it has any of them.
    convert: Option<AskedConversion<'a>>,
}

#[derive(Default)]
struct AskedConversion<'a> {
    kind: &'a str,
    group: &'a str,
    version: &'a str,
}

impl AskedConversion<'_> {
    /// The conversion, when this server serves it.
    fn served(&self) -> Option<Conversion> {
        let version = match (self.group, self.version) {
            (META_GROUP, "v1") => MetaVersion::V1,
            (META_GROUP, "v1beta1") => MetaVersion::V1beta1,
            _ => return None,
        };
        match self.kind {
            "PartialObjectMetadata" => Some(Conversion::PartialObjectMetadata(version)),
            "PartialObjectMetadataList" => Some(Conversion::PartialObjectMetadataList(version)),
            _ => None,
        }
    }
}

impl<'a> AcceptEntry<'a> {
    fn parse(entry: &'a str) -> AcceptEntry<'a> {
        let mut parts = entry.split(';');
        let essence = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let mut convert: Option<AskedConversion<'a>> = None;
        for param in parts {
            let Some((key, value)) = param.split_once('=') else {
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            if !matches!(key, "as" | "g" | "v") {
                continue;
            }
            let asked = convert.get_or_insert_with(AskedConversion::default);
            match key {
                "as" => asked.kind = value,
                "g" => asked.group = value,
                _ => asked.version = value,
            }
        }
        let media = match essence.as_str() {
            // Go's first serializer, JSON, answers the wildcards.
            "*/*" | "application/*" => Some(MediaType::Json),
            other => media_type_of(other),
        };
        AcceptEntry { media, convert }
    }
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
    media_type_of(&essence).ok_or_else(|| {
        unsupported_media_type(format!(
            "the body of the request was in an unknown format - accepted media types include: {PRODUCED}"
        ))
    })
}

/// 406 `NotAcceptable`: no entry of the `Accept` header is served (Go's
/// `errNotAcceptable`, listing the formats resources are served in).
pub fn not_acceptable() -> StatusError {
    not_acceptable_because(
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    )
}

/// 406 `NotAcceptable` with Go's message for why (an answer that cannot be converted as
/// asked).
pub fn not_acceptable_because(message: impl Into<String>) -> StatusError {
    StatusError::failure(406, reason::NOT_ACCEPTABLE, message)
}

/// The formats Go's routes of built-in resources produce, and those of their list and
/// watch routes besides.
const PRODUCED: &str = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
const PRODUCED_STREAMS: &str =
    "application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch";

/// Whether an `Accept` header names a format Go's routes produce (or any, `*/*`,
/// `application/*`), parameters aside: go-restful picks a route only then.
pub fn routable(accept: &str) -> bool {
    accept.trim().is_empty()
        || accept.split(',').any(|entry| {
            let essence = entry
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase();
            matches!(
                essence.as_str(),
                "*/*"
                    | "application/*"
                    | "application/json"
                    | "application/yaml"
                    | "application/vnd.kubernetes.protobuf"
            )
        })
}

/// go-restful's 406, before any handler, for an `Accept` header that names nothing a
/// built-in resource's route produces (`watch`: a list or watch route, which produces
/// the watch streams too).
pub fn route_not_acceptable(watch: bool) -> StatusError {
    let produced = if watch {
        format!("{PRODUCED}, {PRODUCED_STREAMS}")
    } else {
        PRODUCED.to_owned()
    };
    StatusError::failure(
        406,
        reason::NOT_ACCEPTABLE,
        format!("406: Not Acceptable\n\nAvailable representations: {produced}"),
    )
    .with_details(StatusDetails::default())
}

/// go-restful's 415, before any handler, for a body type the route does not consume.
pub fn route_unsupported_media_type() -> StatusError {
    StatusError::failure(
        415,
        reason::UNSUPPORTED_MEDIA_TYPE,
        "415: Unsupported Media Type",
    )
    .with_details(StatusDetails::default())
}

/// 415 `UnsupportedMediaType` (Go's `errUnsupportedMediaType`).
pub fn unsupported_media_type(message: impl Into<String>) -> StatusError {
    StatusError::failure(415, reason::UNSUPPORTED_MEDIA_TYPE, message)
}

/// The `Content-Type` of a Table answer: plain JSON, as kube-apiserver labels it (the
/// kind says it is a Table).
pub const TABLE_CONTENT_TYPE: &str = "application/json";

/// Whether an `Accept` header asks for a `meta.k8s.io` Table (`v1` or `v1beta1`) before
/// anything else it accepts.
pub fn wants_table(accept: &str) -> bool {
    accept.split(',').next().is_some_and(|first| {
        let params: Vec<String> = first
            .split(';')
            .skip(1)
            .map(|p| p.trim().replace(' ', ""))
            .collect();
        params.iter().any(|p| p == "as=Table")
            && params.iter().any(|p| p == "g=meta.k8s.io")
            && params.iter().any(|p| p == "v=v1" || p == "v=v1beta1")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_refuse_what_they_do_not_produce_as_go_restful_does() {
        assert!(routable("") && routable("text/html, */*;q=0.1"));
        assert!(routable("application/json;as=Table;v=v9;g=meta.k8s.io"));
        assert!(!routable("text/html") && !routable("application/xml"));
        let e = route_not_acceptable(true);
        assert_eq!((e.code(), e.status.details.is_some()), (406, true));
        assert!(
            e.status
                .message
                .ends_with("application/vnd.kubernetes.protobuf;stream=watch")
        );
        assert_eq!(
            PatchType::from_content_type(Some("application/json")).map_err(|e| e.status.message),
            Err("415: Unsupported Media Type".to_owned())
        );
    }

    #[test]
    fn tables_are_asked_for_as_kubectl_asks() {
        assert!(wants_table(
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
        ));
        assert!(!wants_table("application/json"));
    }

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
        // A conversion with no plain fallback is not served by answers that convert
        // nothing.
        assert_eq!(
            negotiate_output(Some(
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
            ))
            .map_err(|e| e.code()),
            Err(406)
        );
    }

    fn options(accept: &str, protobuf: bool) -> Result<Output, String> {
        negotiate_output_options(Some(accept), protobuf).map_err(|e| e.status.message.clone())
    }

    fn converted(media: MediaType, conversion: Conversion) -> Result<Output, String> {
        Ok(Output {
            media,
            conversion: Some(conversion),
        })
    }

    fn plain(media: MediaType) -> Result<Output, String> {
        Ok(Output {
            media,
            conversion: None,
        })
    }

    #[test]
    fn partial_object_metadata_in_every_format_and_meta_version() {
        use Conversion::*;
        use MetaVersion::*;
        assert_eq!(
            options(
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
                true
            ),
            converted(MediaType::Json, PartialObjectMetadata(V1))
        );
        assert_eq!(
            options(
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1, application/json",
                true
            ),
            converted(MediaType::Protobuf, PartialObjectMetadataList(V1beta1))
        );
        assert_eq!(
            options(
                "application/yaml; v=v1; g=meta.k8s.io; as=PartialObjectMetadata",
                true
            ),
            converted(MediaType::Yaml, PartialObjectMetadata(V1))
        );
        assert_eq!(
            options("*/*;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", true),
            converted(MediaType::Json, PartialObjectMetadataList(V1))
        );
        // Custom resources: their metadata in protobuf, not the objects.
        assert_eq!(
            options(
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                false
            ),
            converted(MediaType::Protobuf, PartialObjectMetadata(V1))
        );
        assert_eq!(
            options(
                "application/vnd.kubernetes.protobuf,application/json",
                false
            ),
            plain(MediaType::Json)
        );
    }

    #[test]
    fn conversions_not_served_fall_through_or_are_gos_406() {
        // An unknown version, group or kind passes the entry over, as Go's
        // AllowsMediaTypeTransform refuses it.
        for entry in [
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2",
            "application/json;as=PartialObjectMetadata;g=example.com;v=v1",
            "application/json;as=PartialObjectMetadata",
            "application/json;as=Widget;g=meta.k8s.io;v=v1",
            "application/json;g=meta.k8s.io;v=v1",
            // Tables are answered by the caller, or fall back.
            "application/json;as=Table;g=meta.k8s.io;v=v1",
        ] {
            assert_eq!(
                options(&format!("{entry},application/yaml"), true),
                plain(MediaType::Yaml),
                "{entry}"
            );
            assert_eq!(
                options(entry, true),
                Err("only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf".to_owned()),
                "{entry}"
            );
        }
        assert_eq!(
            options("application/vnd.kubernetes.protobuf", false).map_err(|_| 406),
            Err(406)
        );
        // Malformed parameters are entries like any other: passed over, never a panic.
        for hostile in [
            "application/json;as=;g=;v=",
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1;v=v2",
            ";;,,;=;",
            "application/json;as==PartialObjectMetadata",
        ] {
            assert_eq!(
                options(&format!("{hostile},application/yaml"), true),
                plain(MediaType::Yaml),
                "{hostile}"
            );
        }
        // A parameter without a value is ignored, as goautoneg ignores it.
        assert_eq!(
            options("application/json;;;as,application/yaml", true),
            plain(MediaType::Json)
        );
        let long = "application/json;as=PartialObjectMetadata;".repeat(10_000);
        assert!(options(&long, true).is_err());
        assert_eq!(
            negotiate_output_options(None, false),
            Ok(Output {
                media: MediaType::Json,
                conversion: None
            })
        );
    }
}
