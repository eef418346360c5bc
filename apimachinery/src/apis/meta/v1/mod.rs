//! `meta.k8s.io/v1`: the metadata every object carries and the documents the API server
//! answers with (Go's `k8s.io/apimachinery/pkg/apis/meta/v1`).

mod accessor;
mod discovery;
mod label_selector;
mod list_meta;
mod object_meta;
mod status;
mod type_meta;
mod time;

pub use accessor::{ListMetaAccessor, ObjectMetaAccessor};
pub use discovery::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery,
    ServerAddressByClientCIDR,
};
pub use label_selector::{LabelSelector, LabelSelectorRequirement};
pub use list_meta::{ListMeta, ShardInfo};
pub use object_meta::{FieldsV1, ManagedFieldsEntry, ObjectMeta, OwnerReference};
pub use status::{Status, StatusCause, StatusDetails};
pub use time::Time;
pub use type_meta::TypeMeta;
