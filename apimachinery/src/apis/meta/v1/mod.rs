//! `meta.k8s.io/v1`: the metadata every object carries and the documents the API server
//! answers with (Go's `k8s.io/apimachinery/pkg/apis/meta/v1`).

mod accessor;
mod discovery;
mod duration;
mod fields_v1;
mod label_selector;
mod list_meta;
mod micro_time;
mod object_meta;
mod protobuf;
mod status;
mod time;
mod type_meta;

pub use accessor::{ListMetaAccessor, ObjectMetaAccessor};
pub use discovery::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery,
    ServerAddressByClientCIDR,
};
pub use duration::{Duration, DurationParseError, NegativeDurationError};
pub use fields_v1::FieldsV1;
pub use label_selector::{LabelSelector, LabelSelectorRequirement};
pub use list_meta::{ListMeta, ShardInfo};
pub use micro_time::MicroTime;
pub use object_meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference};
pub use status::{Status, StatusCause, StatusDetails};
pub use time::{SystemTimeRangeError, Time, TimeParseError};
pub use type_meta::TypeMeta;
pub mod validation;
