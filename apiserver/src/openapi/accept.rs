//! `Accept` negotiation as kube-openapi's handlers do it (through `goautoneg`): clauses
//! by falling quality, then the first offered type each clause admits.

use http::{HeaderMap, header};

/// A `type/subtype` pair, offered or asked for (`*` a wildcard when asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MediaRange<'a> {
    /// The type, e.g. `application`.
    pub kind: &'a str,
    /// The subtype, e.g. `json`.
    pub subtype: &'a str,
}

impl<'a> MediaRange<'a> {
    /// A media range.
    pub const fn new(kind: &'a str, subtype: &'a str) -> Self {
        MediaRange { kind, subtype }
    }
}

/// One clause of an `Accept` header.
#[derive(Debug, Clone, PartialEq)]
struct Clause<'a> {
    range: MediaRange<'a>,
    quality: f64,
    params: usize,
}

/// The clauses of an `Accept` value, best first: higher quality, then more specific (a
/// concrete type before `*`, a concrete subtype before `*`, more parameters first), as
/// `goautoneg.ParseAccept` sorts them. Clauses that are not `type/subtype` or `*` are
/// skipped, as there.
fn parse(value: &str) -> Vec<Clause<'_>> {
    let mut clauses: Vec<Clause<'_>> = value
        .split(',')
        .filter_map(|part| {
            let mut pieces = part.split(';');
            let range = pieces.next()?.trim();
            let range = match range.split_once('/') {
                Some((kind, subtype)) if !subtype.contains('/') => {
                    MediaRange::new(kind.trim(), subtype.trim())
                }
                None if range == "*" => MediaRange::new("*", "*"),
                _ => return None,
            };
            let mut quality = 1.0;
            let mut params = 0;
            for param in pieces {
                let (name, value) = param.split_once('=').unwrap_or((param, ""));
                if name.trim() == "q" {
                    quality = value.trim().parse().unwrap_or(0.0);
                } else {
                    params += 1;
                }
            }
            Some(Clause {
                range,
                quality,
                params,
            })
        })
        .collect();
    let specificity = |c: &Clause<'_>| (c.range.kind != "*", c.range.subtype != "*", c.params);
    clauses.sort_by(|a, b| {
        b.quality
            .total_cmp(&a.quality)
            .then_with(|| specificity(b).cmp(&specificity(a)))
    });
    clauses
}

/// The index in `offered` of the type the request's `Accept` chooses (a missing or empty
/// header accepts anything), or `None`: not acceptable.
pub fn negotiate(headers: &HeaderMap, offered: &[MediaRange<'_>]) -> Option<usize> {
    // Go reads only the first Accept header.
    let value = headers
        .get(header::ACCEPT)
        .map(|v| v.to_str().unwrap_or(""))
        .filter(|v| !v.trim().is_empty())
        .unwrap_or("*/*");
    parse(value).iter().find_map(|clause| {
        offered.iter().position(|offer| {
            (clause.range.kind == "*" || clause.range.kind == offer.kind)
                && (clause.range.subtype == "*" || clause.range.subtype == offer.subtype)
        })
    })
}

/// Whether the request accepts one of `offered`.
pub fn accepts(headers: &HeaderMap, offered: &[MediaRange<'_>]) -> bool {
    negotiate(headers, offered).is_some()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        headers
    }

    const OFFERS: [MediaRange<'static>; 2] = [
        MediaRange::new("application", "json"),
        MediaRange::new("application", "yaml"),
    ];

    #[test]
    fn best_clause_wins() {
        assert_eq!(negotiate(&HeaderMap::new(), &OFFERS), Some(0));
        assert_eq!(negotiate(&accept("application/yaml"), &OFFERS), Some(1));
        assert_eq!(
            negotiate(&accept("application/json;q=0.5, application/yaml"), &OFFERS),
            Some(1)
        );
        assert_eq!(
            negotiate(&accept("text/*, application/*;q=0.1"), &OFFERS),
            Some(0)
        );
        assert_eq!(negotiate(&accept("*"), &OFFERS), Some(0));
        assert_eq!(negotiate(&accept("text/plain"), &OFFERS), None);
        assert_eq!(negotiate(&accept("garbage, a/b/c"), &OFFERS), None);
    }

    #[test]
    fn specific_before_wildcards_at_equal_quality() {
        let clauses = parse("*/*, application/*, application/yaml;v=1, application/yaml");
        let ranges: Vec<(&str, &str, usize)> = clauses
            .iter()
            .map(|c| (c.range.kind, c.range.subtype, c.params))
            .collect();
        assert_eq!(
            ranges,
            [
                ("application", "yaml", 1),
                ("application", "yaml", 0),
                ("application", "*", 0),
                ("*", "*", 0)
            ]
        );
    }
}
