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

/// Go's `meta.UnsafeGuessKindToResource` plural (Kubernetes 1.36): the kind in lower
/// case; kinds ending in `endpoints` unchanged; `s`, `z`, `ch`, `sh`, `x` → `+es`; a vowel
/// then `y` → `+s`; another `y` → `ies`; else `+s`. The runtime copy of this rule is
/// `apimachinery::meta::unsafe_guess_kind_to_resource`; an integration test checks both agree.
pub fn guess_plural(kind: &str) -> String {
    // Go lowers each character on its own (no word-final sigma).
    let singular: String = kind.chars().flat_map(char::to_lowercase).collect();
    if singular.is_empty() || singular.ends_with("endpoints") {
        return singular;
    }
    if ["s", "z", "ch", "sh", "x"]
        .iter()
        .any(|e| singular.ends_with(e))
    {
        return format!("{singular}es");
    }
    if ["ay", "ey", "iy", "oy", "uy"]
        .iter()
        .any(|e| singular.ends_with(e))
    {
        return format!("{singular}s");
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
        assert_eq!(guess_plural("Gateway"), "gateways");
        assert_eq!(guess_plural("Patch"), "patches");
    }
}
