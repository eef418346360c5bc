//! Semantic versions as `github.com/blang/semver/v4` reads and orders them (what Go's
//! LeaseCandidate validation uses): `MAJOR.MINOR.PATCH`, numbers without leading
//! zeros, an optional `-prerelease` and `+build` of dot-separated alphanumerics and
//! `-`. Build metadata takes no part in comparisons.

use std::cmp::Ordering;

const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";

/// A prerelease identifier: numeric ones order before alphanumeric ones.
#[derive(Clone, Debug)]
enum Pre {
    Num(u64),
    Str(String),
}

/// A parsed version; `Version::default()` is `0.0.0`, Go's zero value.
#[derive(Clone, Debug, Default)]
pub(crate) struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<Pre>,
}

fn digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// A major, minor or patch number: digits only, no leading zero, within `u64`.
fn number(s: &str) -> Option<u64> {
    if !digits(s) || (s.len() > 1 && s.starts_with('0')) {
        return None;
    }
    s.parse().ok()
}

impl Version {
    /// Go's `semver.Parse`; `None` where Go returns an error.
    pub(crate) fn parse(s: &str) -> Option<Version> {
        let mut parts = s.splitn(3, '.');
        let (major, minor, rest) = (parts.next()?, parts.next()?, parts.next()?);
        let (major, minor) = (number(major)?, number(minor)?);
        let (rest, build) = match rest.split_once('+') {
            Some((r, b)) => (r, Some(b)),
            None => (rest, None),
        };
        let (patch, pre) = match rest.split_once('-') {
            Some((p, pre)) => (p, Some(pre)),
            None => (rest, None),
        };
        let patch = number(patch)?;
        let mut v = Version {
            major,
            minor,
            patch,
            pre: Vec::new(),
        };
        for p in pre.map(|p| p.split('.')).into_iter().flatten() {
            if p.is_empty() {
                return None;
            }
            if digits(p) {
                if p.len() > 1 && p.starts_with('0') {
                    return None;
                }
                v.pre.push(Pre::Num(p.parse().ok()?));
            } else if p.chars().all(|c| ALPHANUM.contains(c)) {
                v.pre.push(Pre::Str(p.to_owned()));
            } else {
                return None;
            }
        }
        for b in build.map(|b| b.split('.')).into_iter().flatten() {
            if b.is_empty() || !b.chars().all(|c| ALPHANUM.contains(c)) {
                return None;
            }
        }
        Some(v)
    }
}

impl Pre {
    fn compare(&self, other: &Pre) -> Ordering {
        match (self, other) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
            (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Str(a), Pre::Str(b)) => a.cmp(b),
        }
    }
}

impl Ord for Version {
    /// Go's `Version.Compare`: numbers, then a release above its prereleases, then the
    /// prerelease identifiers in turn, a longer list above its prefix.
    fn cmp(&self, other: &Self) -> Ordering {
        let numbers =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if numbers != Ordering::Equal {
            return numbers;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&other.pre) {
            let c = a.compare(b);
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}
