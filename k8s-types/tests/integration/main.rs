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
<<<<<<< HEAD
mod validation_status;
=======
mod validation_releases;
>>>>>>> val-137
#[cfg(all(feature = "scheme", feature = "all-groups"))]
mod validation_values;

/// The reference data of the release built (`k8s_types::RELEASE`): `$K8S_API_DIR` when
/// that directory is named for it (`v1.36`), else `../shared/k8s-api/vX.Y` beside the
/// repository when there, else what `cargo xtask refdata --release X.Y` writes,
/// `target/k8s-api/vX.Y`. Another release's data is never read.
#[allow(dead_code)] // Builds without `core` read no fixtures.
fn reference_data() -> std::path::PathBuf {
    let name = format!("v{}", k8s_types::RELEASE);
    if let Some(dir) = std::env::var_os("K8S_API_DIR")
        .map(std::path::PathBuf::from)
        .filter(|dir| dir.file_name().is_some_and(|n| *n == *name))
    {
        return dir;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = root.join("../shared/k8s-api").join(&name);
    if shared.is_dir() {
        shared
    } else {
        root.join("target/k8s-api").join(name)
    }
}

/// Go's fixtures of the release built: `$K8S_API_TESTDATA` when it is in the release's
/// data directory (named `vX.Y`), else `testdata` of [`reference_data`].
#[allow(dead_code)] // Builds without `core` read no fixtures.
fn testdata() -> std::path::PathBuf {
    let name = format!("v{}", k8s_types::RELEASE);
    std::env::var_os("K8S_API_TESTDATA")
        .map(std::path::PathBuf::from)
        .filter(|dir| {
            dir.parent()
                .and_then(std::path::Path::file_name)
                .is_some_and(|n| *n == *name)
        })
        .unwrap_or_else(|| reference_data().join("testdata"))
}
