//! The corpus: one YAML file per area under `tests/data/differential/`, each a list of
//! requests replayed in order, and the list of known differences.
//!
//! A request is `name` (unique in its file), `method` (`GET` unless said), `path`,
//! `headers` (a map), and a body: `body` (YAML, sent as JSON) or `raw` (sent as is, for
//! bodies no YAML value gives: duplicate fields, bad JSON). `exclude: <reason>` sends it
//! (later requests may need what it did) without comparing the answers. Strings in the
//! path, headers and body may refer to an earlier answer of the same server:
//! `${create/metadata/resourceVersion}` is that field (a JSON pointer) of the answer to
//! request `create`. A request whose reference names a field the earlier answer does not
//! have (that request failed, as it does for a resource the release does not serve) is
//! not sent; "not sent" and the reason are its answer, compared as any other.
//!
//! `until: {path: <JSON pointer>, matches: <value>}` resends the request (every 200 ms,
//! for at most a minute) until that field of the answer matches the value, for what
//! a server's controllers do after an answer (a CustomResourceDefinition's `Established`
//! condition): the last answer is the one compared. A value matches when it is equal,
//! an object when each of the expected fields matches, a list when each expected item
//! matches one of its items.
//!
//! `compact: true` compacts each server's etcd to its current revision before the
//! request is sent, for what a resourceVersion older than the compacted one answers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use apimachinery::serializer::yaml::yaml_to_json;
use serde_json::Value;

/// One area's requests.
#[derive(Debug)]
pub struct Area {
    /// The file's stem.
    pub name: String,
    /// The requests, in order.
    pub requests: Vec<Request>,
}

/// One request of an area.
#[derive(Debug)]
pub struct Request {
    /// Its name in the area.
    pub name: String,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path and query.
    pub path: String,
    /// The headers, besides the token.
    pub headers: Vec<(String, String)>,
    /// The body, as sent (before substitution).
    pub body: Option<String>,
    /// Why the answers are not compared, when they are not.
    pub exclude: Option<String>,
    /// The condition on the answer the request is resent until.
    pub until: Option<Until>,
    /// Whether each server's etcd is compacted (to its current revision) first.
    pub compact: bool,
}

/// A request's `until`: the field of the answer and what it must match.
#[derive(Debug)]
pub struct Until {
    /// A JSON pointer into the answer.
    pub path: String,
    /// What the field must match (see [`matches`]).
    pub matches: Value,
}

impl Until {
    /// Whether `answer` satisfies the condition.
    pub fn met(&self, answer: &Value) -> bool {
        answer
            .pointer(&self.path)
            .is_some_and(|v| matches(v, &self.matches))
    }
}

/// Whether `actual` matches `expected`: objects field by expected field, lists each
/// expected item against any actual one, other values by equality.
pub fn matches(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e
            .iter()
            .all(|(k, e)| a.get(k).is_some_and(|a| matches(a, e))),
        (Value::Array(a), Value::Array(e)) => e.iter().all(|e| a.iter().any(|a| matches(a, e))),
        _ => actual == expected,
    }
}

/// A difference the suite knows of, with Go's reason.
#[derive(Debug)]
pub struct KnownDifference {
    /// The area.
    pub area: String,
    /// The request's name.
    pub request: String,
    /// What differs and why kube-apiserver answers as it does.
    pub reason: String,
    /// The Kubernetes release it is a difference of (`"1.36"`), for a difference of one
    /// release only (`release:` in the file); `None` for every release.
    pub release: Option<String>,
}

impl KnownDifference {
    /// Whether it is listed for `release`, the one kapi and kube-apiserver are of.
    pub fn applies_to(&self, release: &str) -> bool {
        self.release.as_deref().is_none_or(|r| r == release)
    }
}

/// The corpus's directory.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/differential")
}

fn field<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what}: `{key}` must be a string"))
}

/// Reads every area file (`*.yaml` but `known-differences.yaml`), in name order.
pub fn areas() -> Result<Vec<Area>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir())
        .map_err(|e| format!("{}: {e}", dir().display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && p.file_stem().is_some_and(|s| s != "known-differences")
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| area(p)).collect()
}

fn area(path: &Path) -> Result<Area, String> {
    let what = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{what}: {e}"))?;
    let doc = yaml_to_json(&text).map_err(|e| format!("{what}: {e}"))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_owned();
    let items = doc
        .value
        .get("requests")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{what}: `requests` must be a list"))?;
    let mut requests: Vec<Request> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let what = format!("{what}: request {i}");
        let request = request(item, &what)?;
        if requests.iter().any(|r| r.name == request.name) {
            return Err(format!("{what}: the name {:?} is used twice", request.name));
        }
        requests.push(request);
    }
    Ok(Area { name, requests })
}

fn request(item: &Value, what: &str) -> Result<Request, String> {
    let name = field(item, "name", what)?.to_owned();
    let method = match item.get("method") {
        None => "GET".to_owned(),
        Some(_) => field(item, "method", what)?.to_owned(),
    };
    let path = field(item, "path", what)?.to_owned();
    let headers = match item.get("headers") {
        None => Vec::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                _ => Err(format!("{what}: header {k} must be a string")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(format!("{what}: `headers` must be a map")),
    };
    let body = match (item.get("body"), item.get("raw")) {
        (Some(_), Some(_)) => return Err(format!("{what}: both `body` and `raw`")),
        (Some(body), None) => Some(body.to_string()),
        (None, Some(_)) => Some(field(item, "raw", what)?.to_owned()),
        (None, None) => None,
    };
    let exclude = match item.get("exclude") {
        None => None,
        Some(_) => Some(field(item, "exclude", what)?.to_owned()),
    };
    let until = match item.get("until") {
        None => None,
        Some(until) => Some(Until {
            path: field(until, "path", &format!("{what}: until"))?.to_owned(),
            matches: until
                .get("matches")
                .cloned()
                .ok_or_else(|| format!("{what}: until: `matches` is missing"))?,
        }),
    };
    let compact = match item.get("compact") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(format!("{what}: `compact` must be true or false")),
    };
    Ok(Request {
        name,
        method,
        path,
        headers,
        body,
        exclude,
        until,
        compact,
    })
}

/// The known differences.
pub fn known_differences() -> Result<Vec<KnownDifference>, String> {
    let path = dir().join("known-differences.yaml");
    let what = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{what}: {e}"))?;
    let doc = yaml_to_json(&text).map_err(|e| format!("{what}: {e}"))?;
    let Some(items) = doc.value.get("differences").and_then(Value::as_array) else {
        return Err(format!("{what}: `differences` must be a list"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let what = format!("{what}: entry {i}");
            Ok(KnownDifference {
                area: field(item, "area", &what)?.to_owned(),
                request: field(item, "request", &what)?.to_owned(),
                reason: field(item, "reason", &what)?.to_owned(),
                release: item
                    .get("release")
                    .map(|r| {
                        r.as_str().map(str::to_owned).ok_or_else(|| {
                            format!("{what}: `release` must be a string such as \"1.37\"")
                        })
                    })
                    .transpose()?,
            })
        })
        .collect()
}

/// `text` with each `${request/pointer}` replaced by that field of the earlier answer
/// (strings as they are, other values as JSON).
pub fn substitute(text: &str, answers: &BTreeMap<String, Value>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("unclosed ${{ in {text:?}"))?;
        let reference = &after[..end];
        let (name, pointer) = reference
            .find('/')
            .map_or((reference, ""), |i| reference.split_at(i));
        let answer = answers
            .get(name)
            .ok_or_else(|| format!("${{{reference}}}: no earlier answer named {name:?}"))?;
        match answer.pointer(pointer) {
            Some(Value::String(s)) => out.push_str(s),
            Some(v) => out.push_str(&v.to_string()),
            None => return Err(format!("${{{reference}}}: the answer has no {pointer}")),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_replaced_by_earlier_answers_fields() {
        let mut answers = BTreeMap::new();
        answers.insert(
            "create".to_owned(),
            serde_json::json!({"metadata": {"resourceVersion": "12", "generation": 1}}),
        );
        assert_eq!(
            substitute(
                "rv=${create/metadata/resourceVersion}&g=${create/metadata/generation}",
                &answers
            )
            .unwrap(),
            "rv=12&g=1"
        );
        assert!(substitute("${other/x}", &answers).is_err());
        assert!(substitute("${create/metadata/none}", &answers).is_err());
        assert!(substitute("${create", &answers).is_err());
    }

    #[test]
    fn until_matches_fields_and_items_it_names() {
        let until = Until {
            path: "/status/conditions".to_owned(),
            matches: serde_json::json!([{"type": "Established", "status": "True"}]),
        };
        let answer = |status: &str| {
            serde_json::json!({"status": {"conditions": [
                {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts"},
                {"type": "Established", "status": status, "reason": "InitialNamesAccepted"},
            ]}})
        };
        assert!(until.met(&answer("True")));
        assert!(!until.met(&answer("False")));
        assert!(!until.met(&serde_json::json!({"status": {}})));
        assert!(matches(&serde_json::json!(1), &serde_json::json!(1)));
        assert!(!matches(&serde_json::json!("1"), &serde_json::json!(1)));
    }
}
