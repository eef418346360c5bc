//! Object metadata checked with a name rule that depends on the object (an APIService's
//! name is its `version.group`, a ClusterTrustBundle's follows its signer): Go passes a
//! closure as the `ValidateNameFunc`; here the generic checks run with every name
//! accepted and the rule is applied after, to `generateName` and `name` as Go applies
//! it.

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::validate_object_meta;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

fn any_name(_: &str, _: bool) -> Vec<String> {
    Vec::new()
}

/// Go's `ValidateObjectMeta(meta, namespaced, rule, path)` for a closure `rule`.
pub(crate) fn validate_object_meta_with(
    meta: &ObjectMeta,
    namespaced: bool,
    rule: impl Fn(&str, bool) -> Vec<String>,
    path: &Path,
) -> ErrorList {
    let mut errs = validate_object_meta(meta, namespaced, any_name, path);
    if !meta.generate_name.is_empty() {
        let p = path.child("generateName");
        for msg in rule(&meta.generate_name, true) {
            errs.push(Error::invalid(&p, &meta.generate_name, msg));
        }
    }
    if !meta.name.is_empty() {
        let p = path.child("name");
        for msg in rule(&meta.name, false) {
            errs.push(Error::invalid(&p, &meta.name, msg));
        }
    }
    errs
}
