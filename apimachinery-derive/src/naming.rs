//! Default names: JSON field names and resource names.

/// A Rust field name in lower camel case, as Kubernetes JSON names are
/// (`creation_timestamp` → `creationTimestamp`).
pub fn lower_camel_case(field: &str) -> String {
    let field = field.strip_prefix("r#").unwrap_or(field);
    let mut out = String::with_capacity(field.len());
    let mut upper_next = false;
    for c in field.chars() {
        if c == '_' {
            upper_next = !out.is_empty();
        } else if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Go's `meta.UnsafeGuessKindToResource` plural: the kind in lower case; kinds ending in
/// `endpoints` unchanged; `s` → `ses`; `y` → `ies`; else `s` appended. The runtime copy of
/// this rule is `apimachinery::meta`'s; a test there checks both agree.
pub fn guess_plural(kind: &str) -> String {
    let singular = kind.to_lowercase();
    if singular.is_empty() || singular.ends_with("endpoints") {
        return singular;
    }
    if singular.ends_with('s') {
        return format!("{singular}es");
    }
    if let Some(stem) = singular.strip_suffix('y') {
        return format!("{stem}ies");
    }
    format!("{singular}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case() {
        assert_eq!(lower_camel_case("creation_timestamp"), "creationTimestamp");
        assert_eq!(lower_camel_case("r#type"), "type");
        assert_eq!(lower_camel_case("spec"), "spec");
        assert_eq!(lower_camel_case("_hidden"), "hidden");
    }

    #[test]
    fn plurals() {
        assert_eq!(guess_plural("Pod"), "pods");
        assert_eq!(guess_plural("Ingress"), "ingresses");
        assert_eq!(guess_plural("NetworkPolicy"), "networkpolicies");
        assert_eq!(guess_plural("Endpoints"), "endpoints");
    }
}
