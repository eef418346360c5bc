//! The integration tests of `apiserver`, one module per concern, linked as one test binary:
//! every binary links the whole of k8s-types, so one per file cost a link and some hundred
//! megabytes each. Run one concern with `cargo test -p apiserver --test integration
//! <module>::`.

mod client;
mod support;

mod admission;
mod cached_writes;
mod connection_workers;
mod conversion_webhook_tls;
mod create_on_update;
mod custom_resources;
mod defaulting;
mod deleted_object_answers;
mod deprecation_warnings;
mod etcd_backend;
mod filters;
mod graceful_deletion;
mod hostile_requests;
mod module_layers;
mod openapi_documents;
mod openapi_kubectl;
mod openapi_protobuf_oracle;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose oracle programs the tests run (`oracle/binaries.rs`): the one whose
/// OpenAPI documents this build of apiserver serves.
const RELEASE_UNDER_TEST: &str = apiserver::RELEASE;
mod partial_object_metadata;
mod pod_eviction;
mod rbac;
mod redb_crash;
#[path = "../../../k8s-types/tests/integration/release_data.rs"]
mod release_data;
mod secure_serving;
mod security_seams;
mod server_api;
mod server_backends;
mod server_controllers;
mod server_side_apply;
mod status_metadata;
mod storage_backends;
mod unsafe_deletion;
mod update_preconditions;
mod validation;
mod watch_frames;
