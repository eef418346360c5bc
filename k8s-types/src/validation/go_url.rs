//! Go's `net/url.Parse` (Go 1.26), as far as a webhook URL's validation reads it: the
//! scheme, user information, host, query and fragment, and Go's error text for a URL
//! it refuses (`parse "…": …`), which the validation error carries.
//!
//! One message is not Go's: a bracketed host that is not an IP address, where Go
//! reports `net/netip`'s reason (`invalid host: ParseAddr(...): ...`) and this
//! reports `invalid host: ParseAddr("…"): unable to parse IP` whatever the reason.

use apimachinery::util::validation::field::{go_quote, go_quote_bytes};
use apimachinery::util::validation::ip::parse_ip_sloppy;

/// The parts of a parsed URL.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct GoUrl {
    /// Lower-cased.
    pub(crate) scheme: String,
    /// User name and password (when one was given), unescaped.
    pub(crate) user: Option<(String, Option<String>)>,
    pub(crate) host: String,
    pub(crate) raw_query: String,
    pub(crate) fragment: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// Go's `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// Go's `unescape` (without the query's `+`): the unescaped text, or Go's error.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    // Go quotes the three bytes, which may end inside a character:
                    // its bytes are written as `\xNN` (seed 596 of the oracle's run
                    // from 500).
                    let end = (i + 3).min(b.len());
                    return Err(format!("invalid URL escape {}", go_quote_bytes(&b[i..end])));
                }
                let bad = || {
                    Err(format!(
                        "invalid URL escape {}",
                        go_quote_bytes(&b[i..i + 3])
                    ))
                };
                let pct25 = &b[i..i + 3] == b"%25";
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && !pct25 {
                    return bad();
                }
                if mode == Mode::Zone {
                    let v = (unhex(b[i + 1]) << 4) | unhex(b[i + 2]);
                    if !pct25 && v != b' ' && should_escape(v, Mode::Host) {
                        return bad();
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    let ch = char::from(c).to_string();
                    return Err(format!("invalid character {} in host name", go_quote(&ch)));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push((unhex(b[i + 1]) << 4) | unhex(b[i + 2]));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go's `escape` for user information (`Userinfo.String`).
fn escape_user(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, Mode::UserPassword) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

impl GoUrl {
    /// Go's `Userinfo.String`: `user[:password]`, escaped.
    pub(crate) fn user_string(&self) -> String {
        match &self.user {
            None => String::new(),
            Some((name, None)) => escape_user(name),
            Some((name, Some(pw))) => format!("{}:{}", escape_user(name), escape_user(pw)),
        }
    }
}

/// Go's `url.Parse`: the URL, or Go's error text.
pub(crate) fn parse(raw: &str) -> Result<GoUrl, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_no_fragment(u).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
    if !frag.is_empty() {
        url.fragment =
            unescape(frag, Mode::Fragment).map_err(|e| format!("parse {}: {e}", go_quote(raw)))?;
    }
    Ok(url)
}

/// Go's `url.ParseRequestURI` as far as a caller asking for a scheme and a host can
/// tell: the whole text is the URL (a `#` is not a fragment), and a URL with a host has
/// both `scheme:` and `//`, which the request form and the plain form read alike.
/// Only custom resource definitions' validation asks for it.
#[cfg(feature = "apiextensions")]
pub(crate) fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse_no_fragment(raw).map_err(|e| format!("parse {}: {e}", go_quote(raw)))
}

/// Go's `getScheme`.
fn scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i == 0 => return Ok(("", raw)),
            b'0'..=b'9' | b'+' | b'-' | b'.' => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// Go's `parse` (not via a request).
fn parse_no_fragment(raw: &str) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    let mut url = GoUrl::default();
    if raw == "*" {
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        rest = r;
        url.raw_query = q.to_owned();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // An opaque URL: no host.
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or_default();
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        let (user, host) = parse_authority(&url.scheme, authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    }
    unescape(rest, Mode::Path)?;
    Ok(url)
}

type Authority = (Option<(String, Option<String>)>, String);

/// Go's `parseAuthority`.
fn parse_authority(scheme: &str, authority: &str) -> Result<Authority, String> {
    let at = authority.rfind('@');
    let host = parse_host(scheme, at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    let valid = userinfo.chars().all(|r| {
        r.is_ascii_alphanumeric()
            || matches!(
                r,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    });
    if !valid {
        return Err("net/url: invalid userinfo".to_owned());
    }
    let user = match userinfo.split_once(':') {
        None => (unescape(userinfo, Mode::UserPassword)?, None),
        Some((name, pw)) => (
            unescape(name, Mode::UserPassword)?,
            Some(unescape(pw, Mode::UserPassword)?),
        ),
    };
    Ok((Some(user), host))
}

/// Go's `validOptionalPort`.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `parseHost`, with `urlstrictcolons` at its default (colons in an http(s) host
/// are refused).
fn parse_host(scheme: &str, host: &str) -> Result<String, String> {
    match host.rfind('[') {
        Some(i) if i > 0 => return Err("invalid IP-literal".to_owned()),
        Some(_) => {
            let Some(close) = host.rfind(']') else {
                return Err("missing ']' in host".to_owned());
            };
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(format!("invalid port {} after host", go_quote(colon_port)));
            }
            let colon_port = unescape(colon_port, Mode::Host)?;
            let hostname = &host[1..close];
            let unescaped = match hostname.find("%25") {
                Some(z) => {
                    unescape(&hostname[..z], Mode::Host)? + &unescape(&hostname[z..], Mode::Zone)?
                }
                None => unescape(hostname, Mode::Host)?,
            };
            let addr = unescaped
                .split_once('%')
                .map_or(unescaped.as_str(), |(a, _)| a);
            match parse_ip_sloppy(addr) {
                Some(_) if !unescaped.contains(':') => {
                    return Err("invalid IP-literal".to_owned());
                }
                Some(_) => {}
                None => {
                    return Err(format!(
                        "invalid host: ParseAddr({}): unable to parse IP",
                        go_quote(&unescaped)
                    ));
                }
            }
            return Ok(format!("[{unescaped}]{colon_port}"));
        }
        None => {}
    }
    if let Some(i) = host.find(':') {
        let last = host.rfind(':').unwrap_or(i);
        let i = if last != i && !(scheme == "http" || scheme == "https") {
            last
        } else {
            i
        };
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host, Mode::Host)
}
