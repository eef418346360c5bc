//! The integration tests of `integration-tests`, one module per concern, linked as one test
//! binary: every binary links the whole of k8s-types, so one per file cost a link and some
//! hundred megabytes each. Four stay apart: `conversion_allocations` (its own global
//! allocator), and `conversion`, `registry` and `seed_scheme_example`, whose own kinds in
//! the link-time registry would show up in the tests here that walk every registered kind
//! (and the seed's stand-in Pod would clash with k8s-types'). Run one concern with `cargo
//! test -p integration-tests --test integration <module>::`.

mod api_type;
mod go_shapes;
mod nested_type_meta;
#[path = "../../../k8s-types/tests/integration/release_data.rs"]
mod release_data;
mod serde_formats;
mod upstream_fixtures;
mod value_types_fixtures;
mod versioning_defaults;
