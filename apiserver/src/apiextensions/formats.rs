//! The string formats kube-openapi checks for custom resources (Go's `strfmt` registry
//! as the apiextensions validator uses it); a format it does not know is not checked,
//! as in Go.

/// Whether `text` is of `format`. Unknown formats pass.
pub fn is_valid(format: &str, text: &str) -> bool {
    match format {
        "int32" | "int64" | "float" | "double" | "password" | "" => true,
        "byte" => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .is_ok()
        }
        "date" => is_date(text),
        "date-time" | "datetime" => is_date_time(text),
        "email" => is_email(text),
        "hostname" => is_hostname(text),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "cidr" => is_cidr(text),
        "mac" => is_mac(text),
        "uuid" => is_uuid(text, None),
        "uuid3" => is_uuid(text, Some('3')),
        "uuid4" => is_uuid(text, Some('4')),
        "uuid5" => is_uuid(text, Some('5')),
        "uri" => is_uri(text),
        _ => true,
    }
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 3
        && digits(parts[0], 4)
        && digits(parts[1], 2)
        && digits(parts[2], 2)
        && matches!(parts[1].parse::<u32>(), Ok(1..=12))
        && matches!(parts[2].parse::<u32>(), Ok(1..=31))
}

fn is_date_time(s: &str) -> bool {
    let Some((date, time)) = s.split_once(['T', 't', ' ']) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    // `get` rather than slicing: the input is anyone's, and may not be ASCII.
    let (Some(hms), Some(rest)) = (time.get(..8), time.get(8..)) else {
        return false;
    };
    let t: Vec<&str> = hms.split(':').collect();
    if t.len() != 3 || !t.iter().all(|p| digits(p, 2)) {
        return false;
    }
    let rest = match rest.strip_prefix('.') {
        Some(frac) => frac.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => rest,
    };
    match rest {
        "Z" | "z" | "" => true,
        tz => {
            let tz = tz.trim_start_matches(['+', '-']);
            let p: Vec<&str> = tz.split(':').collect();
            p.len() == 2 && digits(p[0], 2) && digits(p[1], 2)
        }
    }
}

fn is_email(s: &str) -> bool {
    match s.rsplit_once('@') {
        Some((local, domain)) => !local.is_empty() && !local.contains(' ') && is_hostname(domain),
        None => false,
    }
}

fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 255
        && s.trim_end_matches('.').split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

fn is_cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let Ok(bits) = bits.parse::<u8>() else {
        return false;
    };
    match ip.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(_)) => bits <= 32,
        Ok(std::net::IpAddr::V6(_)) => bits <= 128,
        Err(_) => false,
    }
}

fn is_mac(s: &str) -> bool {
    let parts: Vec<&str> = s.split([':', '-']).collect();
    matches!(parts.len(), 6 | 8 | 20)
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_uuid(s: &str, version: Option<char>) -> bool {
    let Ok(u) = uuid::Uuid::parse_str(s) else {
        return false;
    };
    s.len() == 36 && version.is_none_or(|v| u.get_version_num().to_string() == v.to_string())
}

fn is_uri(s: &str) -> bool {
    match s.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn formats_accept_and_refuse_as_strfmt() {
        for (format, good, bad) in [
            ("date", "2024-02-29", "2024-13-01"),
            ("date-time", "2024-01-02T03:04:05Z", "2024-01-02"),
            (
                "date-time",
                "2024-01-02T03:04:05.123+01:00",
                "2024-01-02T0é:04:05Z",
            ),
            ("email", "a@example.com", "nope"),
            ("hostname", "a.example.com", "-bad-.com"),
            ("ipv4", "10.0.0.1", "10.0.0.256"),
            ("ipv6", "::1", "1::2::3"),
            ("cidr", "10.0.0.0/8", "10.0.0.0/33"),
            ("mac", "01:23:45:67:89:ab", "01:23"),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123"),
            ("byte", "aGVsbG8=", "%%%"),
            ("uri", "https://example.com", "example"),
        ] {
            assert!(is_valid(format, good), "{format} {good}");
            assert!(!is_valid(format, bad), "{format} {bad}");
        }
        assert!(is_valid("made-up", "anything"));
    }
}
