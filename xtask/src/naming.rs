//! Rust names for Kubernetes names: snake-case field names that keep acronyms whole
//! (`podIPs` → `pod_ips`), and the camel case serde and `#[derive(ApiObject)]` derive back.

/// Words Rust reserves; fields named so get a raw identifier (`r#type`).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The snake-case Rust field name for a JSON name.
pub fn field_name(json: &str) -> String {
    let cleaned: Vec<char> = json
        .trim_start_matches('$')
        .chars()
        .map(|c| if c == '-' || c == '.' { '_' } else { c })
        .collect();
    let mut out = String::with_capacity(cleaned.len() + 4);
    for (i, &c) in cleaned.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = cleaned.get(i - 1).copied().unwrap_or('_');
            let next = cleaned.get(i + 1).copied();
            let after_next = cleaned.get(i + 2).copied();
            // The `s` of a plural acronym (`IPs`, `WWNs`) stays with the acronym.
            let plural_acronym =
                next == Some('s') && after_next.is_none_or(|a| a.is_uppercase() || a == '_');
            let boundary = prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next.is_some_and(char::is_lowercase) && !plural_acronym);
            if boundary && prev != '_' {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if NOT_RAW.contains(&out.as_str()) {
        out.push('_');
    } else if KEYWORDS.contains(&out.as_str()) {
        out.insert_str(0, "r#");
    }
    out
}

/// The JSON name serde's `rename_all = "camelCase"` and `#[derive(ApiObject)]` give a
/// Rust field name; where it differs from the real JSON name, the generator writes a
/// `rename`.
pub fn default_json_name(field: &str) -> String {
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

/// Lower-cases the first character (`Webhooks` → `webhooks`).
pub fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acronyms_stay_whole() {
        assert_eq!(field_name("podIPs"), "pod_ips");
        assert_eq!(field_name("hostIPC"), "host_ipc");
        assert_eq!(field_name("clusterIP"), "cluster_ip");
        assert_eq!(field_name("targetWWNs"), "target_wwns");
        assert_eq!(
            field_name("serverAddressByClientCIDRs"),
            "server_address_by_client_cidrs"
        );
        assert_eq!(field_name("fieldsV1"), "fields_v1");
        assert_eq!(field_name("apiVersion"), "api_version");
        assert_eq!(field_name("tcpSocket"), "tcp_socket");
        assert_eq!(field_name("URLPrefix"), "url_prefix");
    }

    #[test]
    fn keywords_and_symbols() {
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("continue"), "r#continue");
        assert_eq!(field_name("$ref"), "r#ref");
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(
            field_name("x-kubernetes-list-type"),
            "x_kubernetes_list_type"
        );
        assert_eq!(field_name("self"), "self_");
    }

    #[test]
    fn default_names_round_trip_simple_fields() {
        for json in ["apiVersion", "metadata", "type", "tcpSocket", "fieldsV1"] {
            assert_eq!(default_json_name(&field_name(json)), json);
        }
        assert_ne!(default_json_name(&field_name("podIPs")), "podIPs");
    }
}
