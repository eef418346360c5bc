//! Saying where two encodings differ: the JSON path of the first different value when
//! both are JSON (or YAML) documents, else the first different byte with some context.

use serde_json::Value;

/// Where `ours` first differs from `go`, for bytes in `format` (`json`, `yaml`,
/// `protobuf`).
pub fn describe(format: &str, go: &[u8], ours: &[u8]) -> String {
    let parse = |b: &[u8]| -> Option<Value> {
        match format {
            "json" => serde_json::from_slice(b).ok(),
            "yaml" => std::str::from_utf8(b)
                .ok()
                .and_then(|t| apimachinery::serializer::yaml::yaml_to_json(t).ok())
                .map(|d| d.value),
            _ => None,
        }
    };
    if let (Some(g), Some(o)) = (parse(go), parse(ours))
        && let Some(d) = first_value_difference(&g, &o, String::new())
    {
        return d;
    }
    if let (Some(g), Some(o)) = (parse(go), parse(ours))
        && g == o
    {
        return format!(
            "the same value, written differently: {}",
            first_byte_difference(go, ours)
        );
    }
    if format == "protobuf" {
        let strip = |b: &[u8]| b.strip_prefix(b"k8s\0").map(<[u8]>::to_vec);
        if let (Some(g), Some(o)) = (strip(go), strip(ours))
            && let Some(d) = first_proto_difference(&g, &o, String::new())
        {
            return d;
        }
    }
    first_byte_difference(go, ours)
}

/// The first value that differs, depth first in the order of `go`'s keys, as
/// `at <path>: Go <value>, ours <value>` (a missing value is `(absent)`).
pub fn first_value_difference(go: &Value, ours: &Value, path: String) -> Option<String> {
    let show = |v: Option<&Value>| {
        v.map_or_else(
            || "(absent)".to_owned(),
            |v| {
                let s = v.to_string();
                if s.len() > 80 {
                    format!(
                        "{}…",
                        &s[..s.char_indices().nth(80).map_or(s.len(), |(i, _)| i)]
                    )
                } else {
                    s
                }
            },
        )
    };
    let at = |p: &str| {
        if p.is_empty() {
            "the top".to_owned()
        } else {
            p.to_owned()
        }
    };
    match (go, ours) {
        (Value::Object(g), Value::Object(o)) => {
            for (k, gv) in g {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match o.get(k) {
                    Some(ov) => {
                        if let Some(d) = first_value_difference(gv, ov, p) {
                            return Some(d);
                        }
                    }
                    None => {
                        return Some(format!(
                            "at {}: Go {}, ours (absent)",
                            at(&p),
                            show(Some(gv))
                        ));
                    }
                }
            }
            o.iter().find(|(k, _)| !g.contains_key(*k)).map(|(k, ov)| {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                format!("at {}: Go (absent), ours {}", at(&p), show(Some(ov)))
            })
        }
        (Value::Array(g), Value::Array(o)) if g.len() == o.len() => g
            .iter()
            .zip(o)
            .enumerate()
            .find_map(|(i, (gv, ov))| first_value_difference(gv, ov, format!("{path}[{i}]"))),
        (g, o) if g == o => None,
        (Value::Number(g), Value::Number(o)) if g.as_f64() == o.as_f64() => Some(format!(
            "at {}: the same number, written differently: Go {g}, ours {o}",
            at(&path)
        )),
        (g, o) => Some(format!(
            "at {}: Go {}, ours {}",
            at(&path),
            show(Some(g)),
            show(Some(o))
        )),
    }
}

/// Where two byte strings first differ, with some context of each.
pub fn first_byte_difference(go: &[u8], ours: &[u8]) -> String {
    let at = go
        .iter()
        .zip(ours)
        .position(|(a, b)| a != b)
        .unwrap_or(go.len().min(ours.len()));
    let start = at.saturating_sub(40);
    let excerpt = |b: &[u8]| {
        String::from_utf8_lossy(&b[start.min(b.len())..(at + 40).min(b.len())]).into_owned()
    };
    format!(
        "at byte {at} (Go {} bytes, ours {}): Go {:?}, ours {:?}",
        go.len(),
        ours.len(),
        excerpt(go),
        excerpt(ours)
    )
}

/// Whether two JSON values are the same value, numbers compared as numbers (`1e3` is
/// `1000`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        (x, y) => x == y,
    }
}

/// A protobuf field as the wire has it: a varint, fixed bits, or bytes (which may be a
/// message of their own).
#[derive(PartialEq)]
enum Wire<'a> {
    Varint(u64),
    Fixed(u64),
    Bytes(&'a [u8]),
}

fn varint(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(v);
        }
    }
    None
}

/// The fields of a message in wire order, or `None` when the bytes are not a message.
fn fields(b: &[u8]) -> Option<Vec<(u64, Wire<'_>)>> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < b.len() {
        let key = varint(b, &mut at)?;
        let value = match key & 7 {
            0 => Wire::Varint(varint(b, &mut at)?),
            1 => {
                let v = b.get(at..at + 8)?;
                at += 8;
                Wire::Fixed(u64::from_le_bytes(v.try_into().ok()?))
            }
            2 => {
                let len = usize::try_from(varint(b, &mut at)?).ok()?;
                let v = b.get(at..at.checked_add(len)?)?;
                at += len;
                Wire::Bytes(v)
            }
            5 => {
                let v = b.get(at..at + 4)?;
                at += 4;
                Wire::Fixed(u64::from(u32::from_le_bytes(v.try_into().ok()?)))
            }
            _ => return None,
        };
        if key >> 3 == 0 {
            return None;
        }
        out.push((key >> 3, value));
    }
    Some(out)
}

/// The first field that differs, as `at field <numbers>: Go <value>, ours <value>`
/// (bytes that parse as a message on both sides are compared field by field).
pub fn first_proto_difference(go: &[u8], ours: &[u8], path: String) -> Option<String> {
    let (g, o) = (fields(go)?, fields(ours)?);
    let show = |w: Option<&(u64, Wire<'_>)>| match w {
        None => "(absent)".to_owned(),
        Some((n, Wire::Varint(v))) => format!("#{n}={v}"),
        Some((n, Wire::Fixed(v))) => format!("#{n}=fixed {v}"),
        Some((n, Wire::Bytes(b))) => {
            format!("#{n}={:?}", String::from_utf8_lossy(&b[..b.len().min(40)]))
        }
    };
    for i in 0..g.len().max(o.len()) {
        let (gf, of) = (g.get(i), o.get(i));
        if gf == of {
            continue;
        }
        if let (Some((gn, Wire::Bytes(gb))), Some((on, Wire::Bytes(ob)))) = (gf, of)
            && gn == on
            && let Some(d) = first_proto_difference(gb, ob, format!("{path}.{gn}"))
        {
            return Some(d);
        }
        // Bytes of the same JSON value (a CRD schema's `default`, kept raw by Go).
        if let (Some((gn, Wire::Bytes(gb))), Some((on, Wire::Bytes(ob)))) = (gf, of)
            && gn == on
            && let (Ok(gv), Ok(ov)) = (
                serde_json::from_slice::<Value>(gb),
                serde_json::from_slice::<Value>(ob),
            )
            && same_json(&gv, &ov)
        {
            return Some(format!(
                "at field {path}.{gn}: the same JSON, written differently: Go {:?}, ours {:?}",
                String::from_utf8_lossy(gb),
                String::from_utf8_lossy(ob)
            ));
        }
        return Some(format!(
            "at field {path}: Go {}, ours {}",
            show(gf),
            show(of)
        ));
    }
    None
}
