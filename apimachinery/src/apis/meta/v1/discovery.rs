//! Discovery documents: what `/api` and `/apis` (`APIVersions`, `APIGroupList`) and each
//! group version (`APIResourceList`) serve.
//!
//! Field shapes are Go's (`go-fields.json`): a slice without `omitempty` is an `Option`
//! because Go writes a nil one as `null` and an empty one as `[]`, and reading keeps the
//! difference; a slice with `omitempty` is a `Vec`, left out when empty.

use super::TypeMeta;

/// The versions of the core (legacy) group served at `/api`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(
    version = "v1",
    unversioned,
    not_resource,
    omit_empty_type_meta,
    protobuf
)]
pub struct APIVersions {
    /// The kind and apiVersion, written as they are (each only when set), as Go does: the
    /// encoders set them on the object they write, not on one nested in another.
    pub type_meta: TypeMeta,
    /// The versions served, such as `v1`.
    #[api(nullable)]
    pub versions: Option<Vec<String>>,
    /// Where clients in each CIDR should reach the server.
    #[api(rename = "serverAddressByClientCIDRs", nullable)]
    pub server_address_by_client_cidrs: Option<Vec<ServerAddressByClientCIDR>>,
}

/// The API groups served at `/apis`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(
    version = "v1",
    unversioned,
    not_resource,
    omit_empty_type_meta,
    protobuf
)]
pub struct APIGroupList {
    /// The kind and apiVersion, written as they are (each only when set), as Go does.
    pub type_meta: TypeMeta,
    /// Every group served.
    #[api(nullable)]
    pub groups: Option<Vec<APIGroup>>,
}

/// One API group, its versions and the version clients should prefer.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(
    version = "v1",
    unversioned,
    not_resource,
    omit_empty_type_meta,
    protobuf
)]
pub struct APIGroup {
    /// The kind and apiVersion, written as they are (each only when set), as Go does: an
    /// `APIGroupList`'s groups usually have neither.
    pub type_meta: TypeMeta,
    /// The group name, such as `apps`.
    pub name: String,
    /// The versions served, preferred first.
    #[api(nullable)]
    pub versions: Option<Vec<GroupVersionForDiscovery>>,
    /// The version clients should use; a struct, so written even when empty (Go's
    /// `omitempty` never leaves out a struct).
    pub preferred_version: GroupVersionForDiscovery,
    /// Where clients in each CIDR should reach the server.
    #[api(
        rename = "serverAddressByClientCIDRs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub server_address_by_client_cidrs: Vec<ServerAddressByClientCIDR>,
}

/// A version of a group, as `group/version` and as the version alone.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupVersionForDiscovery {
    /// `group/version`, such as `apps/v1`.
    pub group_version: String,
    /// The version alone, such as `v1`.
    pub version: String,
}

/// A server address to use for clients in a network.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerAddressByClientCIDR {
    /// The client network, in CIDR notation.
    #[api(rename = "clientCIDR")]
    pub client_cidr: String,
    /// The address (`host` or `host:port`) for clients in that network.
    pub server_address: String,
}

/// The resources served in one group version.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(
    version = "v1",
    unversioned,
    not_resource,
    omit_empty_type_meta,
    protobuf
)]
pub struct APIResourceList {
    /// The kind and apiVersion, written as they are (each only when set), as Go does.
    pub type_meta: TypeMeta,
    /// The group version, such as `apps/v1` or `v1`.
    pub group_version: String,
    /// The resources and subresources (`deployments/scale`) served.
    #[api(nullable)]
    pub resources: Option<Vec<APIResource>>,
}

/// One resource of a group version, as discovery describes it.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct APIResource {
    /// The plural resource name, such as `deployments` or `deployments/scale`.
    pub name: String,
    /// The singular name, such as `deployment`.
    pub singular_name: String,
    /// Whether the resource lives in a namespace.
    pub namespaced: bool,
    /// The group of the kind, when it differs from the list's (subresources).
    #[api(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The version of the kind, when it differs from the list's (subresources).
    #[api(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// The kind served, such as `Deployment`.
    pub kind: String,
    /// The verbs supported: `get`, `list`, `watch`, `create`, ... (Go's named slice
    /// `Verbs`, without `omitempty`: `null` when unset).
    #[api(nullable)]
    pub verbs: Option<Vec<String>>,
    /// Abbreviations accepted on the command line, such as `deploy`.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Groupings the resource belongs to, such as `all`.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// A hash of the storage version, to detect storage migrations.
    #[api(skip_serializing_if = "String::is_empty")]
    pub storage_version_hash: String,
}

impl APIResource {
    /// The verbs, none when unset.
    pub fn verbs(&self) -> &[String] {
        self.verbs.as_deref().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{decode_message, encode_message};

    #[test]
    fn api_resource_json_is_gos() {
        let r = APIResource {
            name: "deployments".into(),
            singular_name: "deployment".into(),
            namespaced: true,
            kind: "Deployment".into(),
            verbs: Some(vec!["get".into(), "list".into()]),
            short_names: vec!["deploy".into()],
            categories: vec!["all".into()],
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["get","list"],"shortNames":["deploy"],"categories":["all"]}"#
        );
        let back: APIResource = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.verbs(), ["get", "list"]);
    }

    #[test]
    fn nil_slices_are_null_and_empty_ones_are_empty() {
        // Go's zero values: slices without `omitempty` are `null`, structs are written.
        assert_eq!(
            serde_json::to_string(&APIResource::default()).unwrap(),
            r#"{"name":"","singularName":"","namespaced":false,"kind":"","verbs":null}"#
        );
        assert_eq!(
            serde_json::to_string(&APIGroup::default()).unwrap(),
            r#"{"name":"","versions":null,"preferredVersion":{"groupVersion":"","version":""}}"#
        );
        assert_eq!(
            serde_json::to_string(&APIVersions::default()).unwrap(),
            r#"{"versions":null,"serverAddressByClientCIDRs":null}"#
        );
        assert_eq!(
            serde_json::to_string(&APIResourceList::default()).unwrap(),
            r#"{"groupVersion":"","resources":null}"#
        );
        assert_eq!(
            serde_json::to_string(&APIGroupList::default()).unwrap(),
            r#"{"groups":null}"#
        );
        let empty = APIResource {
            verbs: Some(Vec::new()),
            ..Default::default()
        };
        let json = serde_json::to_string(&empty).unwrap();
        assert!(json.ends_with(r#""verbs":[]}"#), "{json}");
        // Reading keeps the difference, as Go's decoder does.
        assert_eq!(serde_json::from_str::<APIResource>(&json).unwrap(), empty);
        let null: APIResource = serde_json::from_str(r#"{"verbs":null,"name":null}"#).unwrap();
        assert_eq!(null, APIResource::default());
        assert!(null.verbs().is_empty());
    }

    #[test]
    fn nested_groups_carry_no_type_meta_unless_set() {
        let list = APIGroupList {
            groups: Some(vec![
                APIGroup {
                    name: "apps".into(),
                    versions: Some(Vec::new()),
                    ..Default::default()
                },
                APIGroup {
                    type_meta: TypeMeta {
                        kind: "APIGroup".into(),
                        api_version: "v1".into(),
                    },
                    name: "batch".into(),
                    ..Default::default()
                },
            ]),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            concat!(
                r#"{"groups":[{"name":"apps","versions":[],"preferredVersion":{"groupVersion":"","version":""}},"#,
                r#"{"kind":"APIGroup","apiVersion":"v1","name":"batch","versions":null,"preferredVersion":{"groupVersion":"","version":""}}]}"#
            )
        );
        let back: APIGroupList =
            serde_json::from_str(&serde_json::to_string(&list).unwrap()).unwrap();
        assert_eq!(back, list);
    }

    #[test]
    fn protobuf_verbs_are_written_when_set_even_empty() {
        // Go's `if m.Verbs != nil`: the `Verbs` message (field 4) is left out when nil and
        // written, empty, for an empty slice.
        let nil = APIResource::default();
        let bytes = encode_message(&nil);
        // name, namespaced, kind, singularName, group, version, storageVersionHash: the
        // value fields, always written.
        assert_eq!(bytes, b"\x0a\0\x10\0\x1a\0\x32\0\x42\0\x4a\0\x52\0");
        assert_eq!(decode_message::<APIResource>(&bytes).unwrap(), nil);

        let empty = APIResource {
            verbs: Some(Vec::new()),
            ..Default::default()
        };
        let bytes = encode_message(&empty);
        assert_eq!(bytes, b"\x0a\0\x10\0\x1a\0\x22\0\x32\0\x42\0\x4a\0\x52\0");
        assert_eq!(decode_message::<APIResource>(&bytes).unwrap(), empty);

        let set = APIResource {
            verbs: Some(vec!["get".into()]),
            ..Default::default()
        };
        let bytes = encode_message(&set);
        assert!(
            bytes.windows(7).any(|w| w == b"\x22\x05\x0a\x03get"),
            "{bytes:?}"
        );
        assert_eq!(decode_message::<APIResource>(&bytes).unwrap(), set);
    }
}
