//! Where a Kubernetes release's reference data is (`swagger.json`, `go-fields.json`, Go's
//! fixtures in `testdata`): the one place the tests of several crates ask, so that a build
//! for one release never reads another's. Included with
//! `#[path = "../../../k8s-types/tests/integration/release_data.rs"] mod release_data;`
//! by the tests of crates that are built on one release (k8s-types' own include it as a
//! module), each passing the release it is built for (`k8s_types::RELEASE`).

// Each test binary asks for a part of this file only.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The reference data of `release` (`"1.37"`): `$K8S_API_DIR` when that directory is
/// named for it (`v1.37`), else `../shared/k8s-api/v1.37` beside the repository when
/// there, else what `cargo xtask refdata --release 1.37` writes, `target/k8s-api/v1.37`.
pub fn dir(release: &str) -> PathBuf {
    let name = format!("v{release}");
    if let Some(dir) = std::env::var_os("K8S_API_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.file_name().is_some_and(|n| *n == *name))
    {
        return dir;
    }
    // Every including crate is one directory below the repository root.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = root.join("../shared/k8s-api").join(&name);
    if shared.is_dir() {
        shared
    } else {
        root.join("target/k8s-api").join(name)
    }
}

/// Go's fixtures of `release`: `$K8S_API_TESTDATA` when it is in the release's data
/// directory (named `vX.Y`), else `testdata` of [`dir`].
pub fn testdata(release: &str) -> PathBuf {
    let name = format!("v{release}");
    std::env::var_os("K8S_API_TESTDATA")
        .map(PathBuf::from)
        .filter(|dir| {
            dir.parent()
                .and_then(Path::file_name)
                .is_some_and(|n| *n == *name)
        })
        .unwrap_or_else(|| dir(release).join("testdata"))
}
