//! IP addresses and CIDRs as Kubernetes 1.36 reads and checks them: Go's
//! `k8s.io/utils/net` parsers (`ParseIPSloppy`, `ParseCIDRSloppy`: the standard
//! library's parsers of Go 1.16, which accept IPv4 numbers with leading zeros), the
//! stricter `net/netip` parsers that `StrictIPCIDRValidation` (on by default since
//! 1.36) adds, and the checks of `k8s.io/apimachinery/pkg/util/validation/ip.go`
//! with their messages.
//!
//! [`is_valid_ip`] and [`is_valid_cidr`] are Go's checks of the same names (strict and
//! canonical, for new fields); [`is_valid_ip_for_legacy_field`] and
//! [`is_valid_cidr_for_legacy_field`] those of older fields, which accept the values
//! an object already had. (`super::is_valid_ip` and `super::is_valid_cidr` are the
//! legacy checks without the strict rules.)
//!
//! ```
//! use apimachinery::util::validation::field::Path;
//! use apimachinery::util::validation::ip::{is_valid_cidr, is_valid_ip};
//!
//! let spec = Path::new("spec");
//! let cidrs = spec.child("cidrs");
//! let p = cidrs.index(0);
//! assert!(is_valid_cidr(&p, "10.0.0.0/8").is_empty());
//! assert_eq!(
//!     is_valid_cidr(&p, "10.0.0.1/8").to_string(),
//!     "spec.cidrs[0]: Invalid value: \"10.0.0.1/8\": must not have bits set beyond the prefix length"
//! );
//! assert_eq!(
//!     is_valid_ip(&Path::new("ip"), "2001:DB8::1").to_string(),
//!     "ip: Invalid value: \"2001:DB8::1\": must be in canonical form (\"2001:db8::1\")"
//! );
//! ```

use std::fmt::Write as _;

use super::field::{Error, ErrorList, Path};

/// An address as Go's sloppy parser read it: 16 bytes (IPv4 in its mapped form), and
/// whether `net/netip` would have read it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedIp {
    bytes: [u8; 16],
    /// Written as an IPv4 literal (`a.b.c.d`), rather than in an IPv6 form.
    v4_literal: bool,
    /// `net/netip` accepts the text too: no IPv4 number with a leading zero, no IPv6
    /// group of more than four digits.
    strict: bool,
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

impl ParsedIp {
    /// The 16 bytes of the address.
    pub fn octets(&self) -> [u8; 16] {
        self.bytes
    }

    /// Go's `ip.To4()`: the IPv4 address, also of an IPv4-mapped IPv6 address.
    pub fn to4(&self) -> Option<[u8; 4]> {
        (self.bytes[..12] == V4_IN_V6_PREFIX).then(|| {
            [
                self.bytes[12],
                self.bytes[13],
                self.bytes[14],
                self.bytes[15],
            ]
        })
    }

    /// Whether `net/netip` reads it as an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`).
    pub fn is_4in6(&self) -> bool {
        !self.v4_literal && self.to4().is_some()
    }

    /// The address as Go's `net.IP.String` writes it: IPv4 (and IPv4-mapped) as
    /// `a.b.c.d`, IPv6 in RFC 5952 form.
    pub fn go_string(&self) -> String {
        match self.to4() {
            Some([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
            None => ipv6_string(&self.bytes),
        }
    }
}

/// RFC 5952: lower-case hex without leading zeros, the first longest run of two or
/// more zero groups written `::`.
fn ipv6_string(b: &[u8; 16]) -> String {
    let groups: Vec<u16> = b
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    let (mut best, mut best_len) = (usize::MAX, 1);
    let mut i = 0;
    while i < 8 {
        let start = i;
        while i < 8 && groups[i] == 0 {
            i += 1;
        }
        if i - start > best_len {
            (best, best_len) = (start, i - start);
        }
        i = i.max(start + 1);
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == best {
            out.push_str("::");
            i += best_len;
            continue;
        }
        if !out.is_empty() && !out.ends_with(':') {
            out.push(':');
        }
        let _ = write!(out, "{:x}", groups[i]);
        i += 1;
    }
    out
}

/// Go's `big`: where its number parsers give up.
const BIG: u32 = 0xFF_FFFF;

/// Go's `dtoi`: leading decimal digits, their count; `None` without any or on overflow.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go's `xtoi`: leading hex digits, their count.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(d);
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// The forked `parseIPv4`: four decimal numbers up to 255 (leading zeros allowed; the
/// second value says none had one).
fn parse_ipv4(s: &[u8]) -> Option<([u8; 4], bool)> {
    let mut s = s;
    let mut p = [0u8; 4];
    let mut strict = true;
    for (i, octet) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c) = dtoi(s)?;
        if n > 0xFF {
            return None;
        }
        if c > 1 && s[0] == b'0' {
            strict = false;
        }
        s = &s[c..];
        *octet = n as u8;
    }
    s.is_empty().then_some((p, strict))
}

/// The forked `parseIPv6`.
fn parse_ipv6(s: &[u8]) -> Option<([u8; 16], bool)> {
    let mut ip = [0u8; 16];
    let mut strict = true;
    let mut ellipsis: Option<usize> = None;
    let mut s = s;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some((ip, true));
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c) = xtoi(s)?;
        if n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if (ellipsis.is_none() && i != 12) || i + 4 > 16 {
                return None;
            }
            let (v4, v4_strict) = parse_ipv4(s)?;
            strict &= v4_strict;
            ip[i..i + 4].copy_from_slice(&v4);
            s = &[];
            i += 4;
            break;
        }
        if c > 4 {
            strict = false;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in &mut ip[e..e + n] {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some((ip, strict))
}

/// Go's `netutils.ParseIPSloppy`: IPv4 (numbers may have leading zeros), IPv6 and
/// IPv4-mapped IPv6; no zones.
pub fn parse_ip_sloppy(s: &str) -> Option<ParsedIp> {
    let b = s.as_bytes();
    match *b.iter().find(|c| **c == b'.' || **c == b':')? {
        b'.' => parse_ipv4(b).map(|(v4, strict)| {
            let mut bytes = [0u8; 16];
            bytes[..12].copy_from_slice(&V4_IN_V6_PREFIX);
            bytes[12..].copy_from_slice(&v4);
            ParsedIp {
                bytes,
                v4_literal: true,
                strict,
            }
        }),
        _ => parse_ipv6(b).map(|(bytes, strict)| ParsedIp {
            bytes,
            v4_literal: false,
            strict,
        }),
    }
}

/// A network as Go's `netutils.ParseCIDRSloppy` returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedCidr {
    /// The address as written.
    pub ip: ParsedIp,
    /// The prefix length.
    pub ones: u32,
    /// 32 when the address was written as IPv4, else 128.
    pub bits: u32,
    /// `net/netip` accepts the text too (the address, and a prefix length without a
    /// leading zero).
    strict: bool,
}

impl ParsedCidr {
    /// The network's address (the address masked) in Go's form: 4 bytes for an IPv4
    /// network (also one written in IPv4-mapped form with an IPv4 mask), else 16.
    pub fn network(&self) -> Vec<u8> {
        let mask = self.mask();
        let bytes = self.ip.bytes;
        let ip: &[u8] = if mask.len() == 4 && bytes[..12] == V4_IN_V6_PREFIX {
            &bytes[12..]
        } else {
            &bytes
        };
        ip.iter().zip(&mask).map(|(a, m)| a & m).collect()
    }

    /// Go's `CIDRMask(ones, bits)`.
    fn mask(&self) -> Vec<u8> {
        (0..self.bits / 8)
            .map(|i| {
                let left = self.ones.saturating_sub(i * 8).min(8);
                if left == 0 { 0 } else { 0xFFu8 << (8 - left) }
            })
            .collect()
    }

    /// Go's `IPNet.Contains` of this network (as `ParseCIDR` returns it) and `ip`.
    pub fn contains(&self, ip: &[u8]) -> bool {
        let mut mask = self.mask();
        let nn = self.network();
        // networkNumberAndMask: an IPv4 network compares the mask's last four bytes.
        let nn: Vec<u8> = if nn.len() == 16 && nn[..12] == V4_IN_V6_PREFIX {
            nn[12..].to_vec()
        } else {
            nn
        };
        if mask.len() == 16 && nn.len() == 4 {
            mask = mask[12..].to_vec();
        } else if mask.len() == 4 && nn.len() != 4 {
            return false;
        }
        let ip: &[u8] = if ip.len() == 16 && ip[..12] == V4_IN_V6_PREFIX {
            &ip[12..]
        } else {
            ip
        };
        ip.len() == nn.len()
            && nn
                .iter()
                .zip(ip)
                .zip(&mask)
                .all(|((n, a), m)| n & m == a & m)
    }

    /// The network as Go's `IPNet.String` writes it.
    pub fn go_string(&self) -> String {
        let net = self.network();
        let addr = if net.len() == 4 {
            format!("{}.{}.{}.{}", net[0], net[1], net[2], net[3])
        } else {
            let mut b = [0u8; 16];
            b.copy_from_slice(&net);
            ParsedIp {
                bytes: b,
                v4_literal: false,
                strict: true,
            }
            .go_string()
        };
        format!("{addr}/{}", self.ones)
    }

    /// Go's IP family of the network's address (`netutils.IPFamilyOfCIDR`): IPv4
    /// for IPv4 and IPv4-mapped addresses.
    pub fn is_ipv4(&self) -> bool {
        self.ip.to4().is_some()
    }
}

/// Go's `netutils.ParseCIDRSloppy`.
pub fn parse_cidr_sloppy(s: &str) -> Option<ParsedCidr> {
    let (addr, mask) = s.split_once('/')?;
    let (ip, bits) = match parse_ipv4(addr.as_bytes()) {
        Some(_) => (parse_ip_sloppy(addr)?, 32),
        None => {
            let (bytes, strict) = parse_ipv6(addr.as_bytes())?;
            let ip = ParsedIp {
                bytes,
                v4_literal: false,
                strict,
            };
            (ip, 128)
        }
    };
    let (ones, n) = dtoi(mask.as_bytes())?;
    if n != mask.len() || ones > bits {
        return None;
    }
    let strict = ip.strict && !(mask.len() > 1 && mask.starts_with('0'));
    Some(ParsedCidr {
        ip,
        ones,
        bits,
        strict,
    })
}

const IP_MESSAGE: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const CIDR_MESSAGE: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// Go's `parseIP`: the address, and the errors of the sloppy and (when `strict`) the
/// strict parser.
fn parse_ip(path: &Path, value: &str, strict: bool) -> (Option<ParsedIp>, ErrorList) {
    let mut errs = ErrorList::default();
    let Some(ip) = parse_ip_sloppy(value) else {
        errs.push(Error::invalid(path, value, IP_MESSAGE));
        return (None, errs);
    };
    if strict {
        if !ip.strict {
            errs.push(Error::invalid(path, value, "must not have leading 0s"));
        } else if ip.is_4in6() {
            errs.push(Error::invalid(
                path,
                value,
                "must not be an IPv4-mapped IPv6 address",
            ));
        }
    }
    (Some(ip), errs)
}

/// Go's `IsValidIPForLegacyField`: an address Go's sloppy parser reads, and with
/// `strict` (Go's `StrictIPCIDRValidation`) neither leading zeros nor the IPv4-mapped
/// form; a value found in `valid_old` (what the object had) is accepted as it is.
pub fn is_valid_ip_for_legacy_field(
    path: &Path,
    value: &str,
    strict: bool,
    valid_old: &[String],
) -> ErrorList {
    if valid_old.iter().any(|o| o == value) {
        return ErrorList::default();
    }
    parse_ip(path, value, strict).1
}

/// Go's `IsValidIP`: a strictly valid address in canonical form.
pub fn is_valid_ip(path: &Path, value: &str) -> ErrorList {
    let (ip, mut errs) = parse_ip(path, value, true);
    if let (Some(ip), true) = (ip, errs.is_empty()) {
        let canonical = ip.go_string();
        if canonical != value {
            errs.push(Error::invalid(
                path,
                value,
                format!(
                    "must be in canonical form ({})",
                    super::field::go_quote(&canonical)
                ),
            ));
        }
    }
    errs
}

/// Go's `parseCIDR`.
fn parse_cidr(path: &Path, value: &str, strict: bool) -> (Option<ParsedCidr>, ErrorList) {
    let mut errs = ErrorList::default();
    let Some(cidr) = parse_cidr_sloppy(value) else {
        errs.push(Error::invalid(path, value, CIDR_MESSAGE));
        return (None, errs);
    };
    if strict {
        if !cidr.strict {
            errs.push(Error::invalid(
                path,
                value,
                "must not have leading 0s in IP or prefix length",
            ));
        } else if cidr.ip.is_4in6() {
            errs.push(Error::invalid(
                path,
                value,
                "must not have an IPv4-mapped IPv6 address",
            ));
        } else if cidr.has_host_bits() {
            errs.push(Error::invalid(
                path,
                value,
                "must not have bits set beyond the prefix length",
            ));
        }
    }
    (Some(cidr), errs)
}

impl ParsedCidr {
    /// Whether the address has bits set beyond the prefix length.
    fn has_host_bits(&self) -> bool {
        let addr: &[u8] = if self.bits == 32 {
            &self.ip.bytes[12..]
        } else {
            &self.ip.bytes
        };
        addr != self.network().as_slice()
    }
}

/// Go's `IsValidCIDRForLegacyField`: a network Go's sloppy parser reads, and with
/// `strict` no leading zeros, no IPv4-mapped address and no bits beyond the prefix;
/// a value found in `valid_old` is accepted as it is.
pub fn is_valid_cidr_for_legacy_field(
    path: &Path,
    value: &str,
    strict: bool,
    valid_old: &[String],
) -> ErrorList {
    if valid_old.iter().any(|o| o == value) {
        return ErrorList::default();
    }
    parse_cidr(path, value, strict).1
}

/// Go's `IsValidCIDR`: a strictly valid network in canonical form.
pub fn is_valid_cidr(path: &Path, value: &str) -> ErrorList {
    let (cidr, mut errs) = parse_cidr(path, value, true);
    if let (Some(cidr), true) = (cidr, errs.is_empty()) {
        let canonical = cidr.go_string();
        if canonical != value {
            errs.push(Error::invalid(
                path,
                value,
                format!(
                    "must be in canonical form ({})",
                    super::field::go_quote(&canonical)
                ),
            ));
        }
    }
    errs
}

/// Go's `GetWarningsForIP`: the warning for an address of a legacy field that Go's
/// sloppy parser accepts but `net/netip` does not (leading zeros, an IPv4-mapped IPv6
/// address), or that is IPv6 but not in RFC 5952 form. Nothing for a value the sloppy
/// parser refuses (its validation reports that).
pub fn get_warnings_for_ip(path: &Path, value: &str) -> Vec<String> {
    let Some(ip) = parse_ip_sloppy(value) else {
        return Vec::new();
    };
    if !ip.strict || ip.is_4in6() {
        return vec![format!(
            "{path}: non-standard IP address {} is invalid: use {}",
            super::field::go_quote(value),
            super::field::go_quote(&ip.go_string())
        )];
    }
    if !ip.v4_literal {
        let canonical = ipv6_string(&ip.bytes);
        if canonical != value {
            return vec![format!(
                "{path}: IPv6 address {} should be in RFC 5952 canonical format ({})",
                super::field::go_quote(value),
                super::field::go_quote(&canonical)
            )];
        }
    }
    Vec::new()
}

/// Go's `GetWarningsForCIDR`: warnings for a network of a legacy field with bits set
/// beyond its prefix, in a form `net/netip` refuses, or IPv6 not in RFC 5952 form.
pub fn get_warnings_for_cidr(path: &Path, value: &str) -> Vec<String> {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        return Vec::new();
    };
    let quote = super::field::go_quote;
    let mut warnings = Vec::new();
    if cidr.has_host_bits() {
        let single = format!("{}/{}", cidr.ip.go_string(), cidr.bits);
        warnings.push(format!(
            "{path}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            quote(value),
            quote(&cidr.go_string()),
            quote(&single)
        ));
    }
    if !cidr.strict || cidr.ip.is_4in6() {
        warnings.push(format!(
            "{path}: non-standard CIDR value {} is invalid: use {}",
            quote(value),
            quote(&cidr.go_string())
        ));
    }
    if warnings.is_empty() && !cidr.ip.v4_literal {
        let canonical = format!("{}/{}", ipv6_string(&cidr.ip.bytes), cidr.ones);
        if canonical != value {
            warnings.push(format!(
                "{path}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
                quote(value),
                quote(&canonical)
            ));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(errs: ErrorList) -> Vec<String> {
        errs.iter().map(|e| e.detail.clone()).collect()
    }

    #[test]
    fn sloppy_and_strict_addresses() {
        let p = Path::new("ip");
        assert!(is_valid_ip(&p, "10.0.0.1").is_empty());
        assert!(is_valid_ip(&p, "2001:db8::1").is_empty());
        assert_eq!(
            msgs(is_valid_ip(&p, "010.0.0.1")),
            ["must not have leading 0s"]
        );
        assert_eq!(
            msgs(is_valid_ip(&p, "::ffff:1.2.3.4")),
            ["must not be an IPv4-mapped IPv6 address"]
        );
        assert_eq!(
            msgs(is_valid_ip(&p, "2001:0db8:0:0:0:0:0:1")),
            ["must be in canonical form (\"2001:db8::1\")"]
        );
        assert_eq!(
            msgs(is_valid_ip(&p, "00001::")),
            ["must not have leading 0s"]
        );
        assert_eq!(msgs(is_valid_ip(&p, "1.2.3")), [IP_MESSAGE]);
        assert_eq!(msgs(is_valid_ip(&p, "fe80::1%eth0")), [IP_MESSAGE]);
        assert!(is_valid_ip_for_legacy_field(&p, "010.0.0.1", false, &[]).is_empty());
        let old = ["010.0.0.1".to_owned()];
        assert!(is_valid_ip_for_legacy_field(&p, "010.0.0.1", true, &old).is_empty());
    }

    #[test]
    fn ipv6_text_as_go_writes_it() {
        let s = |t: &str| parse_ip_sloppy(t).map(|ip| ip.go_string());
        assert_eq!(s("0:0:1:0:0:0:0:1").as_deref(), Some("0:0:1::1"));
        assert_eq!(s("1:0:0:1:0:0:1:1").as_deref(), Some("1::1:0:0:1:1"));
        assert_eq!(s("1:0:1:1:1:1:1:1").as_deref(), Some("1:0:1:1:1:1:1:1"));
        assert_eq!(s("::").as_deref(), Some("::"));
        assert_eq!(s("::1.2.3.4").as_deref(), Some("::102:304"));
        assert_eq!(s("::ffff:1.2.3.4").as_deref(), Some("1.2.3.4"));
    }

    #[test]
    fn cidrs() {
        let p = Path::new("cidr");
        assert!(is_valid_cidr(&p, "10.0.0.0/8").is_empty());
        assert!(is_valid_cidr(&p, "::/0").is_empty());
        assert_eq!(
            msgs(is_valid_cidr(&p, "10.0.0.0/08")),
            ["must not have leading 0s in IP or prefix length"]
        );
        assert_eq!(
            msgs(is_valid_cidr(&p, "10.0.0.1/8")),
            ["must not have bits set beyond the prefix length"]
        );
        assert_eq!(
            msgs(is_valid_cidr(&p, "2001:DB8::/32")),
            ["must be in canonical form (\"2001:db8::/32\")"]
        );
        assert_eq!(msgs(is_valid_cidr(&p, "10.0.0.0/33")), [CIDR_MESSAGE]);
        assert_eq!(msgs(is_valid_cidr(&p, "10.0.0.0")), [CIDR_MESSAGE]);
        assert!(is_valid_cidr_for_legacy_field(&p, "10.0.0.1/8", false, &[]).is_empty());
    }

    #[test]
    fn containment_as_go() {
        let net = parse_cidr_sloppy("10.0.0.0/8").unwrap();
        let sub = parse_cidr_sloppy("10.1.0.0/16").unwrap();
        assert!(net.contains(&sub.network()));
        let v6 = parse_cidr_sloppy("2001:db8::/32").unwrap();
        assert!(!net.contains(&v6.network()));
        assert!(v6.contains(&parse_cidr_sloppy("2001:db8:1::/48").unwrap().network()));
        assert!(net.is_ipv4() && !v6.is_ipv4());
    }

    /// Go's `TestGetWarningsForIP` and `TestGetWarningsForCIDR` cases.
    #[test]
    fn warnings_for_legacy_addresses() {
        let spec = Path::new("spec");
        let ips = spec.child("clusterIPs");
        let p = ips.index(0);
        assert!(get_warnings_for_ip(&p, "192.168.0.1").is_empty());
        assert!(get_warnings_for_ip(&p, "2001:db8::2").is_empty());
        assert_eq!(
            get_warnings_for_ip(&p, "192.168.000.001"),
            [
                "spec.clusterIPs[0]: non-standard IP address \"192.168.000.001\" is invalid: use \"192.168.0.1\""
            ]
        );
        assert_eq!(
            get_warnings_for_ip(&p, "::ffff:192.168.0.1"),
            [
                "spec.clusterIPs[0]: non-standard IP address \"::ffff:192.168.0.1\" is invalid: use \"192.168.0.1\""
            ]
        );
        assert_eq!(
            get_warnings_for_ip(&p, "2001:db8:0:0::2"),
            [
                "spec.clusterIPs[0]: IPv6 address \"2001:db8:0:0::2\" should be in RFC 5952 canonical format (\"2001:db8::2\")"
            ]
        );
        assert_eq!(
            get_warnings_for_ip(&p, "2001:DB8::2"),
            [
                "spec.clusterIPs[0]: IPv6 address \"2001:DB8::2\" should be in RFC 5952 canonical format (\"2001:db8::2\")"
            ]
        );
        assert!(get_warnings_for_ip(&p, "not an ip").is_empty());

        assert!(get_warnings_for_cidr(&p, "192.168.0.0/24").is_empty());
        assert_eq!(
            get_warnings_for_cidr(&p, "192.168.0.1/24"),
            [
                "spec.clusterIPs[0]: CIDR value \"192.168.0.1/24\" is ambiguous in this context (should be \"192.168.0.0/24\" or \"192.168.0.1/32\"?)"
            ]
        );
        assert_eq!(
            get_warnings_for_cidr(&p, "192.168.000.000/24"),
            [
                "spec.clusterIPs[0]: non-standard CIDR value \"192.168.000.000/24\" is invalid: use \"192.168.0.0/24\""
            ]
        );
        assert_eq!(
            get_warnings_for_cidr(&p, "2001:db8:0:0::/64"),
            [
                "spec.clusterIPs[0]: IPv6 CIDR value \"2001:db8:0:0::/64\" should be in RFC 5952 canonical format (\"2001:db8::/64\")"
            ]
        );
    }
}

#[cfg(test)]
mod warning_tests {
    use super::*;

    #[test]
    fn warnings_as_go_gives_them() {
        let p = Path::new("ip");
        assert!(get_warnings_for_ip(&p, "1.2.3.4").is_empty());
        assert!(get_warnings_for_ip(&p, "fd00::5").is_empty());
        assert!(get_warnings_for_ip(&p, "bad").is_empty());
        assert_eq!(
            get_warnings_for_ip(&p, "FD00:0::5"),
            ["ip: IPv6 address \"FD00:0::5\" should be in RFC 5952 canonical format (\"fd00::5\")"]
        );
        assert_eq!(
            get_warnings_for_ip(&p, "010.0.0.5"),
            ["ip: non-standard IP address \"010.0.0.5\" is invalid: use \"10.0.0.5\""]
        );
        assert_eq!(
            get_warnings_for_ip(&p, "::ffff:1.2.3.4"),
            ["ip: non-standard IP address \"::ffff:1.2.3.4\" is invalid: use \"1.2.3.4\""]
        );
    }
}
