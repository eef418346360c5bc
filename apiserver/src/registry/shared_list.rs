//! A list answer encoded straight from objects the watch cache shares (`Arc`s), in the
//! bytes the list object holding copies of them would encode to: the list's own
//! encoding with its `items` written in place. A page of 500 objects then costs their
//! encoding alone, not a copy, a conversion and a release of each.
//!
//! Only what encodes the same either way is written so: typed objects already of the
//! list's version and of one type, in JSON or protobuf. Anything else is `None`, and the
//! caller builds the list.

use std::sync::Arc;

use apimachinery::proto::{Message, WireDecoder, WireEncoder, WireType, encode_envelope_raw};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::util::json::JsonLayout;

use super::codec::{MediaType, encode};

/// The answer of `list` (an empty typed list, its metadata set) holding `items` (of kind
/// `item_gvk`, the list's version, as the storage keeps them), in `media`; `None` when it
/// cannot be written from the shared objects (see the module docs): the caller copies
/// them into the list.
pub fn encode_shared_list(
    scheme: &Scheme,
    media: MediaType,
    list: &dyn Object,
    items: &[Arc<dyn Object>],
    item_gvk: &GroupVersionKind,
) -> Option<Vec<u8>> {
    if list.is_unstructured() || list.as_list().is_none_or(|l| !l.is_empty()) {
        return None;
    }
    if !of_one_unconverted_type(scheme, items, item_gvk) {
        return None;
    }
    match media {
        MediaType::Json => json_list(scheme, list, items, item_gvk),
        MediaType::Protobuf => protobuf_list(list, items),
        MediaType::Yaml => None,
    }
}

/// Whether every item is of the same typed kind `gvk`, whose conversion to its own
/// version leaves it as it is (no internal form moves data on the way): the list built
/// of converted copies holds the same objects.
fn of_one_unconverted_type(
    scheme: &Scheme,
    items: &[Arc<dyn Object>],
    gvk: &GroupVersionKind,
) -> bool {
    let Some(first) = items.first() else {
        return true;
    };
    let type_id = first.object_type_id();
    !first.is_unstructured()
        && first.group_version_kind() == *gvk
        && !scheme.internal_forms().has_type_id(type_id)
        && items.iter().all(|i| i.object_type_id() == type_id)
}

/// Go's JSON of the list: the empty list's, ending in `"items":[]}` and a newline, with
/// each item written between the brackets without its `kind` and `apiVersion` (items
/// of a typed list carry none).
fn json_list(
    scheme: &Scheme,
    list: &dyn Object,
    items: &[Arc<dyn Object>],
    item_gvk: &GroupVersionKind,
) -> Option<Vec<u8>> {
    let head = encode(scheme, MediaType::Json, list).ok()?;
    if !head.ends_with(b"\"items\":[]}\n") {
        return None;
    }
    let type_meta = type_meta_prefix(item_gvk)?;
    let mut item = Vec::new();
    let mut out = Vec::with_capacity(head.len() + items.len() * 512);
    // Up to and with the `[`.
    out.extend_from_slice(&head[..head.len() - 3]);
    for (i, obj) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item.clear();
        obj.encode_json(&mut item, JsonLayout::Compact).ok()?;
        push_without_type_meta(&mut out, &item, &type_meta)?;
    }
    out.extend_from_slice(b"]}\n");
    Some(out)
}

/// `{"kind":K,"apiVersion":V`: how the JSON of an object of `gvk` with its kind set
/// starts.
fn type_meta_prefix(gvk: &GroupVersionKind) -> Option<Vec<u8>> {
    let (api_version, kind) = gvk.to_api_version_and_kind();
    let mut prefix = b"{\"kind\":".to_vec();
    serde_json::to_writer(&mut prefix, kind).ok()?;
    prefix.extend_from_slice(b",\"apiVersion\":");
    serde_json::to_writer(&mut prefix, &api_version).ok()?;
    Some(prefix)
}

/// Appends the JSON of an item without its `kind` and `apiVersion` (`type_meta`);
/// `None` for one that starts with either otherwise (a kind set in part).
fn push_without_type_meta(out: &mut Vec<u8>, json: &[u8], type_meta: &[u8]) -> Option<()> {
    let Some(rest) = json.strip_prefix(type_meta) else {
        if json.starts_with(b"{\"kind\"") || json.starts_with(b"{\"apiVersion\"") {
            return None;
        }
        out.extend_from_slice(json);
        return Some(());
    };
    out.push(b'{');
    match rest.first() {
        // More fields follow: they start the object.
        Some(b',') => out.extend_from_slice(&rest[1..]),
        // Nothing else: `{}`.
        Some(b'}') => out.extend_from_slice(rest),
        _ => return None,
    }
    Some(())
}

/// Go's protobuf of the list: the envelope of the list's kind around its own fields and
/// each item as field 2, as the list holding them writes it. Only for a list whose own
/// fields are its `metadata` alone, as field 1 (`items` is then field 2, after it, as in
/// every resource's list kind; `PartialObjectMetadataList` numbers them otherwise).
fn protobuf_list(list: &dyn Object, items: &[Arc<dyn Object>]) -> Option<Vec<u8>> {
    let message = list.as_proto_message()?;
    let mut fields = WireEncoder::new();
    message.encode_fields(&mut fields);
    let fields = fields.into_bytes();
    let mut d = WireDecoder::new(&fields);
    if d.key().ok()? != (1, WireType::LengthDelimited) {
        return None;
    }
    d.length_delimited().ok()?;
    if !d.is_empty() {
        return None;
    }
    let messages: Vec<&dyn Message> = items
        .iter()
        .map(|i| i.as_proto_message())
        .collect::<Option<_>>()?;
    let gvk = list.group_version_kind();
    let (api_version, kind) = gvk.to_api_version_and_kind();
    let body = list_body(&fields, &messages);
    Some(encode_envelope_raw(&api_version, kind, &body))
}

/// The list's own encoding: its `fields`, then each item as field 2, in a buffer sized
/// after the first item for all of them (the items of a page are alike), so that it
/// grows rarely.
fn list_body(fields: &[u8], messages: &[&dyn Message]) -> Vec<u8> {
    let mut body = WireEncoder::with_buffer(Vec::with_capacity(fields.len() + 1024));
    body.raw(fields);
    let Some((first, rest)) = messages.split_first() else {
        return body.into_bytes();
    };
    body.message(2, |e| first.encode_fields(e));
    let mut buf = body.into_bytes();
    let per_item = buf.len() - fields.len();
    // An eighth more, for items somewhat larger than the first.
    buf.reserve((per_item + per_item / 8).saturating_mul(rest.len()));
    let mut body = WireEncoder::with_buffer(buf);
    for item in rest {
        body.message(2, |e| item.encode_fields(e));
    }
    body.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scheme() -> Scheme {
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme).unwrap();
        scheme
    }

    /// An object of `gvk` as the cache holds it: its kind set, and some metadata.
    fn item(scheme: &Scheme, gvk: &GroupVersionKind, name: &str) -> Box<dyn Object> {
        let mut obj = scheme.new_object(gvk).unwrap();
        obj.set_group_version_kind(gvk);
        if let Some(meta) = obj.meta_mut() {
            meta.set_name(name);
            meta.set_namespace("ns");
            meta.set_resource_version("17");
        }
        obj
    }

    /// The list `list_of` builds: copies of the items, without their kind.
    fn built(
        scheme: &Scheme,
        list_gvk: &GroupVersionKind,
        items: &[Arc<dyn Object>],
    ) -> Box<dyn Object> {
        let mut list = header(scheme, list_gvk);
        let held = list.as_list_mut().unwrap();
        for i in items {
            let mut copy = i.deep_copy_object();
            copy.set_group_version_kind(&GroupVersionKind::default());
            held.push_item(copy).unwrap();
        }
        list
    }

    /// The empty list the handler makes (`items` `[]`, not `null`), its metadata set.
    fn header(scheme: &Scheme, list_gvk: &GroupVersionKind) -> Box<dyn Object> {
        let items = serde_json::json!({"items": []});
        let mut list = crate::registry::from_value(scheme, list_gvk, items).unwrap();
        list.set_group_version_kind(list_gvk);
        let meta = list.list_meta_mut().unwrap();
        meta.set_resource_version("42");
        meta.set_continue_token("next");
        meta.set_remaining_item_count(Some(3));
        list
    }

    #[test]
    fn every_typed_list_is_written_as_the_list_of_copies_is() {
        let scheme = scheme();
        let mut checked = 0;
        let mut written = 0;
        for (gvk, _) in scheme.all_known_types() {
            let Some(kind) = gvk.kind.strip_suffix("List") else {
                continue;
            };
            let item_gvk = GroupVersionKind::new(gvk.group.as_str(), gvk.version.as_str(), kind);
            if gvk.version == "__internal"
                || !scheme.recognizes(&item_gvk)
                || scheme.new_object(gvk).unwrap().as_list().is_none()
            {
                continue;
            }
            let probe = item(&scheme, &item_gvk, "a");
            if probe.meta().is_none() || scheme.internal_forms().has_type_id(probe.object_type_id())
            {
                continue;
            }
            let items: Vec<Arc<dyn Object>> =
                vec![Arc::from(probe), Arc::from(item(&scheme, &item_gvk, "b"))];
            let whole = built(&scheme, gvk, &items);
            for media in [MediaType::Json, MediaType::Protobuf] {
                let Ok(expected) = encode(&scheme, media, &*whole) else {
                    continue;
                };
                let shared =
                    encode_shared_list(&scheme, media, &*header(&scheme, gvk), &items, &item_gvk);
                // Written from the shared objects, or left to the caller: never otherwise.
                if let Some(shared) = shared {
                    assert_eq!(
                        String::from_utf8_lossy(&shared),
                        String::from_utf8_lossy(&expected),
                        "{gvk} in {media:?}"
                    );
                    written += 1;
                }
            }
            checked += 1;
        }
        assert!(checked > 50, "only {checked} list kinds");
        // Every resource's list kind is written from its shared objects.
        assert!(
            written + 4 > 2 * checked,
            "{written} of {checked} list kinds"
        );
    }

    #[test]
    fn a_page_of_config_maps_is_written_from_the_shared_objects() {
        let scheme = scheme();
        let list_gvk = GroupVersionKind::new("", "v1", "ConfigMapList");
        let item_gvk = GroupVersionKind::new("", "v1", "ConfigMap");
        let items: Vec<Arc<dyn Object>> = vec![Arc::from(item(&scheme, &item_gvk, "a"))];
        let whole = built(&scheme, &list_gvk, &items);
        for media in [MediaType::Json, MediaType::Protobuf] {
            let shared = encode_shared_list(
                &scheme,
                media,
                &*header(&scheme, &list_gvk),
                &items,
                &item_gvk,
            );
            assert_eq!(shared, Some(encode(&scheme, media, &*whole).unwrap()));
        }
    }

    #[test]
    fn an_empty_page_is_the_empty_list() {
        let scheme = scheme();
        let list_gvk = GroupVersionKind::new("", "v1", "ConfigMapList");
        let item_gvk = GroupVersionKind::new("", "v1", "ConfigMap");
        for media in [MediaType::Json, MediaType::Protobuf] {
            let expected = encode(&scheme, media, &*header(&scheme, &list_gvk)).unwrap();
            let shared =
                encode_shared_list(&scheme, media, &*header(&scheme, &list_gvk), &[], &item_gvk);
            assert_eq!(shared, Some(expected));
        }
    }

    #[test]
    fn items_of_another_kind_or_format_are_left_to_the_caller() {
        let scheme = scheme();
        let list_gvk = GroupVersionKind::new("", "v1", "ConfigMapList");
        let item_gvk = GroupVersionKind::new("", "v1", "ConfigMap");
        let secret = GroupVersionKind::new("", "v1", "Secret");
        let list = header(&scheme, &list_gvk);
        let mixed: Vec<Arc<dyn Object>> = vec![
            Arc::from(item(&scheme, &item_gvk, "a")),
            Arc::from(item(&scheme, &secret, "b")),
        ];
        assert_eq!(
            encode_shared_list(&scheme, MediaType::Json, &*list, &mixed, &item_gvk),
            None
        );
        let secrets: Vec<Arc<dyn Object>> = vec![Arc::from(item(&scheme, &secret, "b"))];
        assert_eq!(
            encode_shared_list(&scheme, MediaType::Json, &*list, &secrets, &item_gvk),
            None
        );
        let ok: Vec<Arc<dyn Object>> = vec![Arc::from(item(&scheme, &item_gvk, "a"))];
        assert_eq!(
            encode_shared_list(&scheme, MediaType::Yaml, &*list, &ok, &item_gvk),
            None
        );
    }

    #[test]
    fn type_meta_is_taken_off_whole_or_not_at_all() {
        let prefix = type_meta_prefix(&GroupVersionKind::new("apps", "v1", "Deployment")).unwrap();
        assert_eq!(prefix, br#"{"kind":"Deployment","apiVersion":"apps/v1""#);
        let push = |json: &[u8]| {
            let mut out = Vec::new();
            push_without_type_meta(&mut out, json, &prefix).map(|()| out)
        };
        assert_eq!(
            push(br#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{}}"#).unwrap(),
            br#"{"metadata":{}}"#
        );
        assert_eq!(
            push(br#"{"kind":"Deployment","apiVersion":"apps/v1"}"#).unwrap(),
            b"{}"
        );
        assert_eq!(push(br#"{"metadata":{}}"#).unwrap(), br#"{"metadata":{}}"#);
        assert_eq!(push(br#"{"kind":"Deployment","metadata":{}}"#), None);
        assert_eq!(push(br#"{"apiVersion":"apps/v1","metadata":{}}"#), None);
    }
}
