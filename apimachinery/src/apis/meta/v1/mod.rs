//! `meta.k8s.io/v1`: the metadata every object carries and the documents the API server
//! answers with (Go's `k8s.io/apimachinery/pkg/apis/meta/v1`).

mod discovery;
mod duration;
mod micro_time;
mod time;

pub use discovery::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery,
    ServerAddressByClientCIDR,
};
pub use duration::{Duration, DurationParseError, NegativeDurationError};
pub use micro_time::MicroTime;
pub use time::{SystemTimeRangeError, Time, TimeParseError};
