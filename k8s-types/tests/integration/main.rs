//! The integration tests of `k8s-types`, one module per concern, linked as one test binary:
//! every binary links the whole of k8s-types, so one per file cost a link and some hundred
//! megabytes each. Run one concern with `cargo test -p k8s-types --test integration
//! <module>::`.

mod conversions;
mod defaults;
mod filled_objects;
mod go_decoding;
mod hand_written;
mod read_json;
mod register;
mod registered_kinds;
mod shared_types;
mod std_impls;
mod validation;
