//! Guessing a kind's resource names, and Go's lower-casing.

use crate::schema::{GroupVersionKind, GroupVersionResource, Name};

/// Resource-name endings whose plural is the singular (Go's `unpluralizedSuffixes`).
const UNPLURALIZED_SUFFIXES: &[&str] = &["endpoints"];

/// Guesses the plural and singular resources of a kind by English rules (Go's
/// `meta.UnsafeGuessKindToResource`); returns `(plural, singular)`.
///
/// "Unsafe" because a kind's resource is whatever its API server serves: discovery, or an
/// explicit registration with [`DefaultRESTMapper::add_specific`](super::DefaultRESTMapper::add_specific),
/// is the truth. The guess is what `DefaultRESTMapper::add` and kubectl use when nothing
/// better is known. The rules are those of current Go (Kubernetes 1.36):
///
/// * the singular is the kind in lower case;
/// * names ending in `endpoints` are their own plural;
/// * `-s`, `-z`, `-ch`, `-sh`, `-x` take `-es` (`Status` → `statuses`);
/// * a vowel before a final `y` takes `-s` (`Gateway` → `gateways`);
/// * another final `y` becomes `-ies` (`NetworkPolicy` → `networkpolicies`);
/// * anything else takes `-s`.
///
/// An empty kind gives two empty resources, as in Go.
///
/// ```
/// use apimachinery::meta::unsafe_guess_kind_to_resource;
/// use apimachinery::schema::GroupVersionKind;
/// let (plural, singular) =
///     unsafe_guess_kind_to_resource(&GroupVersionKind::new("networking.k8s.io", "v1", "NetworkPolicy"));
/// assert_eq!(plural.to_string(), "networking.k8s.io/v1, Resource=networkpolicies");
/// assert_eq!(singular.resource, "networkpolicy");
/// ```
pub fn unsafe_guess_kind_to_resource(
    kind: &GroupVersionKind,
) -> (GroupVersionResource, GroupVersionResource) {
    if kind.kind.is_empty() {
        return (
            GroupVersionResource::default(),
            GroupVersionResource::default(),
        );
    }
    let singular_name = go_to_lower(&kind.kind);
    let gv = kind.group_version();
    let singular = gv.with_resource(singular_name.clone());
    let name: &str = &singular_name;
    if UNPLURALIZED_SUFFIXES.iter().any(|s| name.ends_with(s)) {
        return (singular.clone(), singular);
    }
    let plural = if ["s", "z", "ch", "sh", "x"]
        .iter()
        .any(|s| name.ends_with(s))
    {
        format!("{name}es")
    } else if ["ay", "ey", "iy", "oy", "uy"]
        .iter()
        .any(|s| name.ends_with(s))
    {
        format!("{name}s")
    } else if let Some(stem) = name.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{name}s")
    };
    (gv.with_resource(plural), singular)
}

/// Go's `strings.ToLower` on a name, without allocating when it is already lower case.
///
/// Each character is mapped on its own (Go uses the simple case mapping), so a final
/// capital sigma becomes `σ`, not the word-final `ς` that `str::to_lowercase` picks.
pub(crate) fn go_to_lower(name: &Name) -> Name {
    let s: &str = name;
    if s.is_ascii() {
        if !s.bytes().any(|b| b.is_ascii_uppercase()) {
            return name.clone();
        }
        return Name::from(s.to_ascii_lowercase());
    }
    if !s.chars().any(char::is_uppercase) {
        return name.clone();
    }
    Name::from(crate::util::go_strings::to_lower(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::GroupVersion;

    #[test]
    fn guesses_match_go() {
        // Go's TestKindToResource and TestRESTMapperResourceSingularizer cases, plus the
        // endings added in current Go.
        let cases = [
            ("Pod", "pods", "pod"),
            (
                "ReplicationController",
                "replicationcontrollers",
                "replicationcontroller",
            ),
            ("ImageRepository", "imagerepositories", "imagerepository"),
            ("Gateway", "gateways", "gateway"),
            ("miss", "misses", "miss"),
            ("lowercase", "lowercases", "lowercase"),
            ("lowercases", "lowercaseses", "lowercases"),
            ("Status", "statuses", "status"),
            ("Endpoints", "endpoints", "endpoints"),
            ("EndpointSlice", "endpointslices", "endpointslice"),
            ("Box", "boxes", "box"),
            ("Quiz", "quizes", "quiz"),
            ("Batch", "batches", "batch"),
            ("Mesh", "meshes", "mesh"),
            ("Key", "keys", "key"),
            ("Toy", "toys", "toy"),
            ("Guy", "guys", "guy"),
            ("Y", "ies", "y"),
        ];
        let gv = GroupVersion::default();
        for (kind, plural, singular) in cases {
            let (p, s) = unsafe_guess_kind_to_resource(&gv.with_kind(kind));
            assert_eq!(p, gv.with_resource(plural), "plural of {kind}");
            assert_eq!(s, gv.with_resource(singular), "singular of {kind}");
        }
    }

    #[test]
    fn guesses_keep_group_and_version() {
        let (p, s) =
            unsafe_guess_kind_to_resource(&GroupVersionKind::new("apps", "v1", "Deployment"));
        assert_eq!(p, GroupVersionResource::new("apps", "v1", "deployments"));
        assert_eq!(s, GroupVersionResource::new("apps", "v1", "deployment"));
    }

    #[test]
    fn empty_kind_guesses_nothing() {
        let (p, s) = unsafe_guess_kind_to_resource(&GroupVersionKind::new("apps", "v1", ""));
        assert!(p.is_empty() && s.is_empty());
    }

    #[test]
    fn lower_casing_is_per_character() {
        assert_eq!(go_to_lower(&Name::new("Pods")), "pods");
        assert_eq!(go_to_lower(&Name::new("pods")), "pods");
        assert_eq!(go_to_lower(&Name::new("ΑΣ")), "ασ");
        assert_eq!(go_to_lower(&Name::new("\u{130}")), "i");
    }
}
