//! The Scheme and RESTMapper every command works from: the built-in Kubernetes API
//! (`k8s-types`) and whatever else is linked in.

use apimachinery::meta::DiscoveryRESTMapper;
use apimachinery::runtime::{Scheme, SchemeError};
// Linked for the types it registers.
use k8s_types as _;

/// The scheme of every type linked into the binary.
pub fn scheme() -> Result<Scheme, SchemeError> {
    let mut scheme = Scheme::with_name("kapi");
    scheme.add_registry()?;
    Ok(scheme)
}

/// What kubectl would build from a server serving exactly `scheme`.
pub fn rest_mapper(scheme: &Scheme) -> DiscoveryRESTMapper {
    DiscoveryRESTMapper::from_scheme(scheme)
}
