//! Go's `k8s.io/apimachinery/pkg/util/validation`: the format rules shared by every
//! kind (DNS names, qualified names, label values, ports, IPs), each returning the
//! messages Go returns, word for word (an empty list when the value is valid).
//! [`field`] holds the field paths and errors that carry these messages.
//!
//! ```
//! use apimachinery::util::validation::{is_dns1123_label, is_qualified_name};
//!
//! assert!(is_dns1123_label("web-1").is_empty());
//! assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots".to_string()]);
//! assert!(is_qualified_name("example.com/MyName").is_empty());
//! ```

pub mod domain;
pub mod field;
pub mod ip;

/// Longest DNS-1123 label (and label value, qualified name part).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Longest DNS-1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
/// Longest DNS-1035 label.
pub const DNS1035_LABEL_MAX_LENGTH: usize = 63;
/// Longest qualified name's name part.
pub const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
/// Longest label value.
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FMT: &str =
    "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_WITH_UNDERSCORE_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_ERR_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const ENV_VAR_NAME_FMT: &str = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const ENV_VAR_NAME_ERR_MSG: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const CONFIG_MAP_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const CONFIG_MAP_KEY_ERR_MSG: &str =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const PERCENT_FMT: &str = "[0-9]+%";
const PERCENT_ERR_MSG: &str =
    "a valid percent string must be a numeric string followed by an ending '%'";

/// Go's `EmptyError`.
pub fn empty_error() -> String {
    "must be non-empty".to_owned()
}

/// Go's `MaxLenError`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// Go's `content.MaxLenError`, which the label checks of `api/validate/content` use
/// (`IsLabelKey`, `IsLabelValue`, and the DNS subdomain of a key's prefix): in bytes.
fn content_max_len_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// `content.IsDNS1123Subdomain`: [`is_dns1123_subdomain`] with its length in bytes.
fn content_is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = is_dns1123_subdomain(value);
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        if let Some(first) = errs.first_mut() {
            *first = content_max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH);
        }
    }
    errs
}

/// Go's `InclusiveRangeError`.
pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

/// Go's `RegexError`: the rule, the examples, and the regex Go checks with. Go writes
/// `', ` after each example and ` or ` between them, hence the double space.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_qualified_name(v: &str) -> bool {
    let b = v.as_bytes();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            is_alnum(f)
                && is_alnum(l)
                && b.iter()
                    .all(|&c| is_alnum(c) || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label(v: &str) -> bool {
    let b = v.as_bytes();
    let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => edge(f) && edge(l) && b.iter().all(|&c| edge(c) || c == b'-'),
        _ => false,
    }
}

fn matches_dns1123_subdomain(v: &str) -> bool {
    v.split('.').all(matches_dns1123_label)
}

/// `_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label_with_underscore(v: &str) -> bool {
    let v = v.strip_prefix('_').unwrap_or(v);
    let b = v.as_bytes();
    let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            edge(f) && edge(l) && b.iter().all(|&c| edge(c) || c == b'-' || c == b'_')
        }
        _ => false,
    }
}

/// Go's `IsQualifiedName`, which is `content.IsLabelKey` since 1.36: an optional DNS
/// subdomain prefix and `/`, then a name of at most 63 bytes of alphanumerics, `-`, `_`,
/// `.` (label keys, annotation keys, finalizers).
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    // Split without collecting: label keys are checked by the hundred per object.
    let name = match value.split_once('/') {
        None => value,
        Some((prefix, name)) if !name.contains('/') => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {}", empty_error()));
            } else {
                for m in content_is_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {m}"));
                }
            }
            name
        }
        Some(_) => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    QUALIFIED_NAME_ERR_MSG,
                    QUALIFIED_NAME_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            )];
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {}", empty_error()));
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            content_max_len_error(QUALIFIED_NAME_MAX_LENGTH)
        ));
    }
    if !matches_qualified_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR_MSG,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// Go's `IsValidLabelValue`: empty, or at most 63 alphanumerics, `-`, `_`, `.` starting
/// and ending with an alphanumeric.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(content_max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !value.is_empty() && !matches_qualified_name(value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// Go's `IsDNS1123Label` (RFC 1123 label: namespace names, container names, ...).
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// Go's `IsDNS1123Subdomain` (RFC 1123 subdomain: most object names).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// Go's `IsDNS1123SubdomainWithUnderscore`: a DNS-1123 subdomain whose labels may
/// hold `_` and start with one (a pod's DNS search domains).
pub fn is_dns1123_subdomain_with_underscore(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !value.split('.').all(matches_dns1123_label_with_underscore) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_WITH_UNDERSCORE_ERR_MSG,
            DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// Go's `IsDNS1035Label` (RFC 1035 label: service names).
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1035_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1035_LABEL_MAX_LENGTH));
    }
    let ok = value.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && matches_dns1123_label(value);
    if !ok {
        errs.push(regex_error(
            DNS1035_LABEL_ERR_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// Go's `IsValidPortNum`: 1 to 65535.
pub fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![inclusive_range_error(1, 65535)]
    }
}

/// Go's `IsInRange`.
pub fn is_in_range(value: i64, min: i64, max: i64) -> Vec<String> {
    if (min..=max).contains(&value) {
        Vec::new()
    } else {
        vec![inclusive_range_error(min, max)]
    }
}

/// Go's `IsValidPortName` (IANA service names: a container port's name).
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_error(15));
    }
    if port.is_empty()
        || !port
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// Go's `IsCIdentifier`.
pub fn is_c_identifier(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let ok = b
        .first()
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            C_IDENTIFIER_ERR_MSG,
            C_IDENTIFIER_FMT,
            &["my_name", "MY_NAME", "MyName"],
        )]
    }
}

fn has_ch_dir_prefix(value: &str) -> Vec<String> {
    match value {
        "." => vec!["must not be '.'".into()],
        ".." => vec!["must not be '..'".into()],
        v if v.starts_with("..") => vec!["must not start with '..'".into()],
        _ => Vec::new(),
    }
}

/// Go's `IsEnvVarName` (the strict rule, before relaxed names).
pub fn is_env_var_name(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let ext = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_');
    let ok = b.first().is_some_and(|&c| !c.is_ascii_digit() && ext(c)) && b.iter().all(|&c| ext(c));
    let mut errs = Vec::new();
    if !ok {
        errs.push(regex_error(
            ENV_VAR_NAME_ERR_MSG,
            ENV_VAR_NAME_FMT,
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    errs.extend(has_ch_dir_prefix(value));
    errs
}

/// Go's `IsRelaxedEnvVarName`: any printable ASCII but `=` (the rule pods use since
/// relaxed environment variable names went GA).
pub fn is_relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.is_empty() {
        errs.push("environment variable name must not be empty".into());
    }
    if value
        .bytes()
        .any(|c| !(b' '..=b'~').contains(&c) || c == b'=')
    {
        errs.push(
            "a valid environment variable name must consist only of printable ASCII characters other than '='"
                .into(),
        );
    }
    errs
}

/// Go's `IsConfigMapKey` (keys of ConfigMap and Secret data).
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    let ok = !value.is_empty()
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !ok {
        errs.push(regex_error(
            CONFIG_MAP_KEY_ERR_MSG,
            CONFIG_MAP_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(has_ch_dir_prefix(value));
    errs
}

/// Go's `IsValidPercent`.
pub fn is_valid_percent(percent: &str) -> Vec<String> {
    let ok = percent
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    if ok {
        Vec::new()
    } else {
        vec![regex_error(PERCENT_ERR_MSG, PERCENT_FMT, &["1%", "93%"])]
    }
}

/// Go's `IsValidIP`: an IPv4 or IPv6 address (IPv4 parts may have leading zeros, as
/// Go's sloppy parser accepts them).
pub fn is_valid_ip(fld_path: &field::Path, value: &str) -> field::ErrorList {
    let mut errs = field::ErrorList::default();
    if parse_ip_sloppy(value).is_none() {
        errs.push(field::Error::invalid(
            fld_path,
            value,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        ));
    }
    errs
}

/// Go's `IsValidCIDR`: an address and a prefix length.
pub fn is_valid_cidr(fld_path: &field::Path, value: &str) -> field::ErrorList {
    let mut errs = field::ErrorList::default();
    let ok = value.split_once('/').is_some_and(|(ip, bits)| {
        let max = match parse_ip_sloppy(ip) {
            Some(std::net::IpAddr::V4(_)) => 32,
            Some(std::net::IpAddr::V6(_)) => 128,
            None => return false,
        };
        !bits.is_empty()
            && bits.len() <= 3
            && bits.bytes().all(|c| c.is_ascii_digit())
            && bits.parse::<u32>().is_ok_and(|b| b <= max)
    });
    if !ok {
        errs.push(field::Error::invalid(
            fld_path,
            value,
            "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
        ));
    }
    errs
}

/// Parses an IP address as Go's `netutils.ParseIPSloppy` does: IPv4 octets may carry
/// leading zeros (read as decimal).
fn parse_ip_sloppy(value: &str) -> Option<std::net::IpAddr> {
    if value.contains(':') {
        return value.parse::<std::net::Ipv6Addr>().ok().map(Into::into);
    }
    let mut octets = [0u8; 4];
    let mut parts = value.split('.');
    for o in &mut octets {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(std::net::Ipv4Addr::from(octets).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_labels() {
        assert!(is_dns1123_label("a-1").is_empty());
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            is_dns1123_label("Web"),
            vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(
            is_dns1123_label(&"a".repeat(64))[0],
            "must be no more than 63 characters"
        );
        assert!(is_dns1123_label("").len() == 1);
        assert!(is_dns1123_subdomain("a.b-c.d").is_empty());
        assert_eq!(
            is_dns1123_subdomain("a..b"),
            vec![
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert!(is_dns1123_subdomain_with_underscore("_sip._tcp.example.com").is_empty());
        assert!(is_dns1123_subdomain_with_underscore("a_b.c").is_empty());
        assert_eq!(
            is_dns1123_subdomain_with_underscore("a_.b"),
            vec![
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert!(is_dns1035_label("a1").is_empty());
        assert_eq!(is_dns1035_label("1a").len(), 1);
    }

    #[test]
    fn qualified_names_and_label_values() {
        assert!(is_qualified_name("app.kubernetes.io/name").is_empty());
        assert!(is_qualified_name("MyName").is_empty());
        assert_eq!(
            is_qualified_name("/a"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(
            is_qualified_name("a/"),
            vec![
                "name part must be non-empty".to_string(),
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string()
            ]
        );
        assert!(is_qualified_name("a/b/c")[0].starts_with("a valid label key must consist"));
        // Label checks count bytes (Go's `content` package), DNS names characters.
        assert_eq!(
            is_qualified_name(&format!("{}/a", "b".repeat(254))),
            vec!["prefix part must be no more than 253 bytes"]
        );
        assert!(is_valid_label_value("").is_empty());
        assert!(is_valid_label_value("v1.2_x").is_empty());
        assert_eq!(is_valid_label_value("-x").len(), 1);
        assert_eq!(
            is_valid_label_value(&"x".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
    }

    #[test]
    fn ports_and_keys() {
        assert!(is_valid_port_num(80).is_empty());
        assert_eq!(
            is_valid_port_num(0),
            vec!["must be between 1 and 65535, inclusive"]
        );
        assert!(is_valid_port_name("http").is_empty());
        assert_eq!(is_valid_port_name("80").len(), 1);
        assert_eq!(
            is_valid_port_name("a--b"),
            vec!["must not contain consecutive hyphens"]
        );
        assert!(is_config_map_key("a.txt").is_empty());
        assert_eq!(
            is_config_map_key(".."),
            vec!["must not be '..'".to_string()]
        );
        assert_eq!(is_config_map_key("a/b").len(), 1);
        assert!(is_env_var_name("MY_VAR").is_empty());
        assert_eq!(is_env_var_name("1X").len(), 1);
        assert!(is_relaxed_env_var_name("1 X").is_empty());
        assert_eq!(is_relaxed_env_var_name("A=B").len(), 1);
        assert!(is_c_identifier("_a1").is_empty());
        assert!(is_valid_percent("10%").is_empty());
        assert_eq!(is_valid_percent("%").len(), 1);
    }

    #[test]
    fn ips_and_cidrs() {
        let spec = field::Path::new("spec");
        let p = spec.child("clusterIP");
        assert!(is_valid_ip(&p, "10.0.0.1").is_empty());
        assert!(is_valid_ip(&p, "010.0.0.1").is_empty());
        assert!(is_valid_ip(&p, "2001:db8::1").is_empty());
        assert_eq!(
            is_valid_ip(&p, "10.0.0.256").to_string(),
            "spec.clusterIP: Invalid value: \"10.0.0.256\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
        );
        assert!(is_valid_cidr(&p, "10.0.0.0/8").is_empty());
        assert!(is_valid_cidr(&p, "::/0").is_empty());
        assert_eq!(is_valid_cidr(&p, "10.0.0.0/33").len(), 1);
        assert_eq!(is_valid_cidr(&p, "10.0.0.0").len(), 1);
    }
}
