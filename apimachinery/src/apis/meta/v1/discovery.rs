//! Discovery documents: what `/api` and `/apis` (`APIVersions`, `APIGroupList`) and each
//! group version (`APIResourceList`) serve.

use serde::{Deserialize, Serialize};

/// The versions of the core (legacy) group served at `/api`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(version = "v1", unversioned, not_resource, protobuf)]
pub struct APIVersions {
    /// The versions served, such as `v1`.
    pub versions: Vec<String>,
    /// Where clients in each CIDR should reach the server.
    #[api(rename = "serverAddressByClientCIDRs")]
    pub server_address_by_client_cidrs: Vec<ServerAddressByClientCIDR>,
}

/// The API groups served at `/apis`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(version = "v1", unversioned, not_resource, protobuf)]
pub struct APIGroupList {
    /// Every group served.
    pub groups: Vec<APIGroup>,
}

/// One API group, its versions and the version clients should prefer.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(version = "v1", unversioned, not_resource, protobuf)]
pub struct APIGroup {
    /// The group name, such as `apps`.
    pub name: String,
    /// The versions served, preferred first.
    pub versions: Vec<GroupVersionForDiscovery>,
    /// The version clients should use.
    pub preferred_version: GroupVersionForDiscovery,
    /// Where clients in each CIDR should reach the server.
    #[api(
        rename = "serverAddressByClientCIDRs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub server_address_by_client_cidrs: Vec<ServerAddressByClientCIDR>,
}

/// A version of a group, as `group/version` and as the version alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupVersionForDiscovery {
    /// `group/version`, such as `apps/v1`.
    #[serde(default)]
    pub group_version: String,
    /// The version alone, such as `v1`.
    #[serde(default)]
    pub version: String,
}

/// A server address to use for clients in a network.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerAddressByClientCIDR {
    /// The client network, in CIDR notation.
    #[serde(rename = "clientCIDR", default)]
    pub client_cidr: String,
    /// The address (`host` or `host:port`) for clients in that network.
    #[serde(default)]
    pub server_address: String,
}

/// The resources served in one group version.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(version = "v1", unversioned, not_resource, protobuf)]
pub struct APIResourceList {
    /// The group version, such as `apps/v1` or `v1`.
    pub group_version: String,
    /// The resources and subresources (`deployments/scale`) served.
    pub resources: Vec<APIResource>,
}

/// One resource of a group version, as discovery describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct APIResource {
    /// The plural resource name, such as `deployments` or `deployments/scale`.
    #[serde(default)]
    pub name: String,
    /// The singular name, such as `deployment`.
    #[serde(default)]
    pub singular_name: String,
    /// Whether the resource lives in a namespace.
    #[serde(default)]
    pub namespaced: bool,
    /// The group of the kind, when it differs from the list's (subresources).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The version of the kind, when it differs from the list's (subresources).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// The kind served, such as `Deployment`.
    #[serde(default)]
    pub kind: String,
    /// The verbs supported: `get`, `list`, `watch`, `create`, ...
    #[serde(default)]
    pub verbs: Vec<String>,
    /// Abbreviations accepted on the command line, such as `deploy`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Groupings the resource belongs to, such as `all`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// A hash of the storage version, to detect storage migrations.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub storage_version_hash: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_resource_json_is_gos() {
        let r = APIResource {
            name: "deployments".into(),
            singular_name: "deployment".into(),
            namespaced: true,
            kind: "Deployment".into(),
            verbs: vec!["get".into(), "list".into()],
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
    }
}
