//! Ordering of Kubernetes version strings (Go's `k8s.io/apimachinery/pkg/version`).

use std::cmp::Ordering;

/// The kind of a Kubernetes version, least stable first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stability {
    Alpha,
    Beta,
    Ga,
}

/// `v<major>[(alpha|beta)<minor>]`, or `None` for any other string.
fn parse_kube_version(v: &str) -> Option<(u64, Stability, u64)> {
    let rest = v.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let major: u64 = rest[..digits].parse().ok()?;
    let rest = &rest[digits..];
    if rest.is_empty() {
        return Some((major, Stability::Ga, 0));
    }
    let (stability, minor) = if let Some(m) = rest.strip_prefix("alpha") {
        (Stability::Alpha, m)
    } else if let Some(m) = rest.strip_prefix("beta") {
        (Stability::Beta, m)
    } else {
        return None;
    };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, stability, minor.parse().ok()?))
}

/// Go's `CompareKubeAwareVersionStrings`: `Greater` when `a` is the more preferred
/// version. GA beats beta beats alpha, then the higher major, then the higher minor
/// (`v2 > v1 > v1beta2 > v1beta1 > v1alpha1`); any Kubernetes-like version beats any other
/// string; other strings compare in reverse lexical order.
///
/// ```
/// use apimachinery::version::compare_kube_aware_version_strings;
/// use std::cmp::Ordering::*;
/// assert_eq!(compare_kube_aware_version_strings("v1", "v1beta1"), Greater);
/// assert_eq!(compare_kube_aware_version_strings("v1alpha1", "v1beta1"), Less);
/// assert_eq!(compare_kube_aware_version_strings("foo", "v1alpha1"), Less);
/// ```
pub fn compare_kube_aware_version_strings(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse_kube_version(a), parse_kube_version(b)) {
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((ma, sa, na)), Some((mb, sb, nb))) => sa.cmp(&sb).then(ma.cmp(&mb)).then(na.cmp(&nb)),
    }
}

/// Orders versions most preferred first: use with `sort_by`.
///
/// ```
/// use apimachinery::version::compare_kube_aware_versions;
/// let mut v = vec!["v1beta1", "v1alpha1", "v2", "v1", "v1beta2", "foo"];
/// v.sort_by(|a, b| compare_kube_aware_versions(a, b));
/// assert_eq!(v, ["v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo"]);
/// ```
pub fn compare_kube_aware_versions(a: &str, b: &str) -> Ordering {
    compare_kube_aware_version_strings(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_cases() {
        // Cases of Go's TestCompareKubeAwareVersionStrings (sign of the result).
        let cases = [
            ("v1", "v2", Ordering::Less),
            ("v1", "v1", Ordering::Equal),
            ("v1beta1", "v1alpha1", Ordering::Greater),
            ("v1beta2", "v1beta1", Ordering::Greater),
            ("v2alpha1", "v1beta1", Ordering::Less),
            ("v1", "v10", Ordering::Less),
            ("v1beta1", "v10alpha1", Ordering::Greater),
            ("foo", "v1", Ordering::Less),
            ("foo1", "foo2", Ordering::Greater),
            ("v1bta1", "v1beta1", Ordering::Less),
            ("v1alpha", "v1alpha1", Ordering::Less),
            ("v99999999999999999999999999", "v1", Ordering::Less),
        ];
        for (a, b, want) in cases {
            assert_eq!(compare_kube_aware_version_strings(a, b), want, "{a} vs {b}");
        }
    }
}
