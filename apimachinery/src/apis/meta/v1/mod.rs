//! `meta.k8s.io/v1`: the metadata every object carries and the documents the API server
//! answers with (Go's `k8s.io/apimachinery/pkg/apis/meta/v1`).

mod discovery;

pub use discovery::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery,
    ServerAddressByClientCIDR,
};
