//! The integration tests of `k8s-types`, one module per concern, linked as one test binary:
//! every binary links the whole of k8s-types, so one per file cost a link and some hundred
//! megabytes each. Run one concern with `cargo test -p k8s-types --test integration
//! <module>::`.
//!
//! The modules but `typed_only` use the Scheme and many groups: they are built with the
//! default features (`scheme` and `all-groups`). `typed_only` needs `core` alone.

#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod certificates;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod conversions;
#[cfg(all(feature = "scheme", feature = "core"))]
mod core_v1_conversions;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod defaults;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod filled_objects;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod go_decoding;
#[cfg(feature = "go-json-errors")]
mod go_json_errors;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod hand_written;
mod lifecycle;
mod no_unit_tests;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod read_json;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod register;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod registered_kinds;
#[cfg(all(feature = "scheme", feature = "all-groups", feature = "v1_37"))]
mod release_1_37;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod shared_types;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod std_impls;
#[cfg(feature = "core")]
mod typed_only;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_admission_policies;
#[cfg(all(feature = "scheme", feature = "all-groups", feature = "v1_37"))]
mod validation_composite_pod_group;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_go_diff;
#[cfg(all(feature = "validation", feature = "core"))]
mod validation_host_aliases;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_pod_resize;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_pod_status;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_ratcheting;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_releases;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_request_version;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_status;
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_values;

mod release_data;

/// The reference data of the release built (`k8s_types::RELEASE`; see [`release_data::dir`]).
#[allow(dead_code)] // Builds without `core` read no fixtures.
fn reference_data() -> std::path::PathBuf {
    release_data::dir(k8s_types::RELEASE)
}

/// Go's fixtures of the release built (see [`release_data::testdata`]).
#[allow(dead_code)] // Builds without `core` read no fixtures.
fn testdata() -> std::path::PathBuf {
    release_data::testdata(k8s_types::RELEASE)
}
