//! What must differ between two servers, made equal, and nothing else: uids (and a
//! Job's controller-uid labels), times (and those a message quotes),
//! resourceVersion values (each value becomes `<rv N>`, N counting the distinct values
//! one server showed in the area in the order it showed them, so that which answers
//! share a version, and which are newer, still compares), a list's or table's own
//! resourceVersion and continue token (they count every write to etcd, the other
//! server's own objects' too), generated names' suffixes, allocated cluster IPs and node
//! ports, table ages and creation times, and the addresses a server gives for itself; a
//! resourceVersion a message quotes (a failed precondition's) as the field's, and a
//! stored uid a message quotes (a failed uid precondition's) as the field's; and the
//! order of ComponentStatuses, which Go answers as its probes end; a TokenRequest's
//! token and expiry and what a TokenReview echoes of one (signed by each server's own key
//! at its own time, with a random id); the order of a SelfSubjectRulesReview's rules (Go
//! gathers them from its informers' bindings, in map order); and the resourceVersions a
//! watch's 410 quotes ("too old resource version: R (oldest)") as the field's; and the
//! order of managedFields entries, which their (normalized) times decide in part.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// A server's resourceVersions seen so far in one area.
#[derive(Debug, Default)]
pub struct Versions(HashMap<String, usize>);

impl Versions {
    fn token(&mut self, rv: &str) -> String {
        let next = self.0.len() + 1;
        let n = *self.0.entry(rv.to_owned()).or_insert(next);
        format!("<rv {n}>")
    }
}

const TIMES: &[&str] = &[
    "creationTimestamp",
    "deletionTimestamp",
    "time",
    "lastTransitionTime",
    // A PersistentVolume's, set by its strategy on create and on each phase change.
    "lastPhaseTransitionTime",
    "lastUpdateTime",
    "lastProbeTime",
    "startTime",
    "renewTime",
    "acquireTime",
    "eventTime",
    // A TokenRequest's: its creation time plus the requested expiry.
    "expirationTimestamp",
    "firstTimestamp",
    "lastTimestamp",
    // A device taint's, which Go's defaulting sets to the time of the write.
    "timeAdded",
];

/// `body` normalized.
pub fn normalize(body: &mut Value, versions: &mut Versions) {
    let is_collection = body.get("items").is_some()
        || body
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k.ends_with("List") || k == "Table");
    if is_collection && let Some(meta) = body.get_mut("metadata").and_then(Value::as_object_mut) {
        for key in ["resourceVersion", "continue"] {
            if meta
                .get(key)
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
            {
                meta.insert(key.into(), Value::from(format!("<{key}>")));
            }
        }
    }
    if body.get("kind").and_then(Value::as_str) == Some("Table") {
        table(body);
    }
    component_statuses(body);
    tokens(body);
    rules_review(body);
    walk(body, versions);
}

/// The key of the credential id a service account token's review gives (its JTI).
const CREDENTIAL_ID: &str = "authentication.kubernetes.io/credential-id";

/// A TokenRequest's issued token, a TokenReview's echo of it, and the review's
/// credential id and bound objects' uids: each server signs with its own key, at its own
/// time, a random JTI.
fn tokens(body: &mut Value) {
    let token = match body.get("kind").and_then(Value::as_str) {
        Some("TokenRequest") => body.pointer_mut("/status/token"),
        Some("TokenReview") => {
            if let Some(extra) = body.pointer_mut("/status/user/extra") {
                // The token's random id, and the uids of what it is bound to.
                for (key, to) in [
                    (CREDENTIAL_ID, "<credential id>"),
                    ("authentication.kubernetes.io/pod-uid", "<uid>"),
                    ("authentication.kubernetes.io/node-uid", "<uid>"),
                ] {
                    if let Some(Value::Array(values)) = extra.get_mut(key) {
                        for value in values {
                            *value = Value::from(to);
                        }
                    }
                }
            }
            body.pointer_mut("/spec/token")
        }
        _ => None,
    };
    if let Some(token) = token
        && token.as_str().is_some_and(|t| t.starts_with("eyJ"))
    {
        *token = Value::from("<token>");
    }
}

/// A SelfSubjectRulesReview's rules in one order: Go visits the bindings its informers
/// list, in their map's order, so its own order changes from one run to the next.
fn rules_review(body: &mut Value) {
    if body.get("kind").and_then(Value::as_str) != Some("SelfSubjectRulesReview") {
        return;
    }
    for field in ["resourceRules", "nonResourceRules"] {
        if let Some(Value::Array(rules)) = body.pointer_mut(&format!("/status/{field}")) {
            rules.sort_by_key(Value::to_string);
        }
    }
}

/// The columns of Go's ComponentStatus table.
const COMPONENT_STATUS_COLUMNS: [&str; 4] = ["Name", "Status", "Message", "Error"];

/// A list (or table) of ComponentStatuses in name order: Go's componentstatus REST
/// probes the components at once and answers them in the order the probes end.
fn component_statuses(body: &mut Value) {
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or_default();
    let columns: Vec<&str> = body
        .get("columnDefinitions")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter_map(|d| d["name"].as_str()).collect())
        .unwrap_or_default();
    let (field, name): (&str, fn(&Value) -> String) = if kind == "ComponentStatusList" {
        ("items", |item| item["metadata"]["name"].to_string())
    } else if kind == "Table" && columns == COMPONENT_STATUS_COLUMNS {
        ("rows", |row| row["cells"][0].to_string())
    } else {
        return;
    };
    if let Some(items) = body.get_mut(field).and_then(Value::as_array_mut) {
        items.sort_by_key(name);
    }
}

fn walk(value: &mut Value, versions: &mut Versions) {
    match value {
        Value::Object(map) => {
            generated_name(map);
            managed_fields_order(map);
            for (key, v) in map.iter_mut() {
                // A PodDisruptionBudget's disrupted Pods map names to the time of their
                // eviction, which two servers may see a second apart.
                if key == "disruptedPods" {
                    if let Value::Object(pods) = v {
                        pods.values_mut().for_each(|t| *t = Value::from("<time>"));
                    }
                    continue;
                }
                match (key.as_str(), &*v) {
                    ("uid", Value::String(_)) => *v = Value::from("<uid>"),
                    // A Job's generated selector and its template's labels carry its uid.
                    ("controller-uid" | "batch.kubernetes.io/controller-uid", Value::String(_)) => {
                        *v = Value::from("<uid>");
                    }
                    (k, Value::String(_)) if TIMES.contains(&k) => *v = Value::from("<time>"),
                    ("resourceVersion", Value::String(rv)) if !rv.starts_with('<') => {
                        *v = Value::from(versions.token(rv));
                    }
                    ("clusterIP", Value::String(ip)) => *v = Value::from(cluster_ip(ip)),
                    ("nodePort", Value::Number(_)) => *v = Value::from("<node port>"),
                    ("serverAddress", Value::String(_)) => *v = Value::from("<address>"),
                    ("name", Value::String(n)) if token_volume(n) => {
                        *v = Value::from(format!("{TOKEN_VOLUME_PREFIX}<suffix>"));
                    }
                    ("message", Value::String(m)) if m.contains(RV_IN_RECORD) => {
                        *v = Value::from(rv_in_message(m, versions));
                    }
                    ("message", Value::String(m)) if m.contains(RV_IN_META) => {
                        *v = Value::from(rv_in_meta_message(m, versions));
                    }
                    ("message", Value::String(m)) if m.starts_with(TOO_OLD) => {
                        *v = Value::from(too_old_in_message(m, versions));
                    }
                    ("message", Value::String(m)) if m.contains(UID_IN_OBJECT) => {
                        *v = Value::from(uid_in_message(m));
                    }
                    ("message", Value::String(m)) if m.contains(UID_IN_RECORD) => {
                        *v = Value::from(uid_in_record_message(m));
                    }
                    ("message", Value::String(m)) if m.contains(SERVICE_ACCOUNT_UID) => {
                        *v = Value::from(service_account_uid_in_message(m));
                    }
                    ("message", Value::String(m)) if times_in_message(m).is_some() => {
                        *v = Value::from(times_in_message(m).unwrap_or_default());
                    }
                    _ => walk(v, versions),
                }
            }
            if let Some(Value::Array(ips)) = map.get_mut("clusterIPs") {
                for ip in ips {
                    if let Value::String(s) = ip {
                        *ip = Value::from(cluster_ip(s));
                    }
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, versions)),
        _ => {}
    }
}

/// `managedFields` in an order of their own: Go (and kapi) sort the entries by
/// operation, the second of their time, then manager; with times normalized, whether
/// two writes fell in one second (a controller's status write and the next update) is
/// not to decide the order compared.
fn managed_fields_order(map: &mut Map<String, Value>) {
    if let Some(Value::Array(entries)) = map.get_mut("managedFields") {
        let key = |e: &Value| {
            ["operation", "manager", "apiVersion", "subresource"].map(|k| {
                e.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            })
        };
        entries.sort_by_key(key);
    }
}

/// How a failed precondition's message quotes the stored resourceVersion.
const RV_IN_RECORD: &str = "ResourceVersion in record (";

/// A message quoting a stored resourceVersion (a failed precondition's), the value
/// normalized as the field would be.
fn rv_in_message(message: &str, versions: &mut Versions) -> String {
    let Some((before, after)) = message.split_once(RV_IN_RECORD) else {
        return message.to_owned();
    };
    let Some((rv, rest)) = after.split_once(')') else {
        return message.to_owned();
    };
    format!("{before}{RV_IN_RECORD}{}){rest}", versions.token(rv))
}

/// How a TokenRequest's refusal of a uid quotes the stored ServiceAccount's.
const SERVICE_ACCOUNT_UID: &str = "the UID of the service account (";

/// A TokenRequest's refusal of a uid (or its warning), the account's uid normalized as
/// the field is.
fn service_account_uid_in_message(message: &str) -> String {
    let Some((before, after)) = message.split_once(SERVICE_ACCOUNT_UID) else {
        return message.to_owned();
    };
    match after.split_once(')') {
        Some((_, rest)) => format!("{before}{SERVICE_ACCOUNT_UID}<uid>){rest}"),
        None => message.to_owned(),
    }
}

/// How a watch's 410 quotes the resourceVersion asked for and the oldest it can serve.
const TOO_OLD: &str = "too old resource version: ";

/// A watch's 410 message, both resourceVersions normalized as the field would be.
fn too_old_in_message(message: &str, versions: &mut Versions) -> String {
    let Some(rest) = message.strip_prefix(TOO_OLD) else {
        return message.to_owned();
    };
    let Some((asked, rest)) = rest.split_once(" (") else {
        return message.to_owned();
    };
    let Some((oldest, rest)) = rest.split_once(')') else {
        return message.to_owned();
    };
    format!(
        "{TOO_OLD}{} ({}){rest}",
        versions.token(asked),
        versions.token(oldest)
    )
}

/// How a failed resourceVersion precondition of a delete or a binding quotes the
/// stored resourceVersion (the message's end).
const RV_IN_META: &str = "ResourceVersion in object meta: ";

/// A message ending with a stored resourceVersion, normalized as the field would be.
fn rv_in_meta_message(message: &str, versions: &mut Versions) -> String {
    match message.rsplit_once(RV_IN_META) {
        Some((before, rv)) => format!("{before}{RV_IN_META}{}", versions.token(rv)),
        None => message.to_owned(),
    }
}

/// How a failed uid precondition of an update quotes the stored uid (the message's end).
const UID_IN_OBJECT: &str = "UID in object meta: ";

/// A message ending with a stored uid (a failed uid precondition's), the uid normalized
/// as the field is.
fn uid_in_message(message: &str) -> String {
    match message.rsplit_once(UID_IN_OBJECT) {
        Some((before, _)) => format!("{before}{UID_IN_OBJECT}<uid>"),
        None => message.to_owned(),
    }
}

/// How a failed uid precondition of a delete quotes the stored uid (Go's
/// `BeforeDelete`, an eviction's `getLatestPod`).
const UID_IN_RECORD: &str = "the UID in record (";

/// A message quoting a stored uid in parentheses (a delete's failed uid precondition),
/// the uid normalized as the field is.
fn uid_in_record_message(message: &str) -> String {
    match message.split_once(UID_IN_RECORD) {
        Some((before, rest)) => match rest.split_once(')') {
            Some((_, after)) => format!("{before}{UID_IN_RECORD}<uid>){after}"),
            None => message.to_owned(),
        },
        None => message.to_owned(),
    }
}

/// `message` with every time it quotes in the RFC 3339 form of an object's times
/// (`2026-12-01T07:10:01Z`: an invalid object's managedFields quoted whole, as a
/// SubjectAccessReview's metadata error does) as `<time>`; `None` when it quotes none.
/// Each server writes its own clock's second there.
fn times_in_message(message: &str) -> Option<String> {
    // Digits where a `d` is, the other bytes as they are.
    const SHAPE: &[u8; 20] = b"dddd-dd-ddTdd:dd:ddZ";
    let is_time = |b: &[u8]| {
        b.len() == SHAPE.len()
            && b.iter().zip(SHAPE).all(|(&c, &s)| {
                if s == b'd' {
                    c.is_ascii_digit()
                } else {
                    c == s
                }
            })
    };
    let bytes = message.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut at = 0;
    while at + SHAPE.len() <= bytes.len() {
        if is_time(&bytes[at..at + SHAPE.len()]) {
            // The shape is ASCII, so both ends are character boundaries.
            out.push_str(&message[copied..at]);
            out.push_str("<time>");
            at += SHAPE.len();
            copied = at;
        } else {
            at += 1;
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&message[copied..]);
    Some(out)
}

/// The prefix of the projected token volume ServiceAccount admission adds to a Pod
/// (and its containers' mounts of it), whose suffix is random.
const TOKEN_VOLUME_PREFIX: &str = "kube-api-access-";

fn token_volume(name: &str) -> bool {
    name.strip_prefix(TOKEN_VOLUME_PREFIX)
        .is_some_and(|suffix| {
            suffix.len() == 5 && suffix.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// A name made from `generateName`: its suffix is random.
fn generated_name(map: &mut Map<String, Value>) {
    let Some(prefix) = map.get("generateName").and_then(Value::as_str) else {
        return;
    };
    let prefix = prefix.to_owned();
    if let Some(Value::String(name)) = map.get_mut("name")
        && name.starts_with(&prefix)
        && name.len() > prefix.len()
    {
        *name = format!("{prefix}<suffix>");
    }
}

/// An address allocated from the service range (both servers are given 10.96.0.0/24),
/// picked at random.
fn cluster_ip(ip: &str) -> String {
    if ip.starts_with("10.96.0.") {
        "<cluster ip>".to_owned()
    } else {
        ip.to_owned()
    }
}

/// A table's cells that hold ages, creation times (Go's default table), allocated
/// addresses or node ports.
fn table(body: &mut Value) {
    let names: Vec<String> = body
        .get("columnDefinitions")
        .and_then(Value::as_array)
        .map(|c| {
            c.iter()
                .map(|d| d["name"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    let Some(rows) = body.get_mut("rows").and_then(Value::as_array_mut) else {
        return;
    };
    for row in rows {
        let Some(cells) = row.get_mut("cells").and_then(Value::as_array_mut) else {
            continue;
        };
        for (cell, name) in cells.iter_mut().zip(&names) {
            let Value::String(text) = cell else { continue };
            let normalized = match name.as_str() {
                "Age" => "<age>".to_owned(),
                "Last Seen" | "First Seen" => "<age>".to_owned(),
                // A Job's run time and a CronJob's last schedule: ages too.
                "Duration" | "Last Schedule" if !text.is_empty() && !text.starts_with('<') => {
                    "<age>".to_owned()
                }
                "Created At" => "<time>".to_owned(),
                // A DeviceTaintRule's taint's age; a ResourcePoolStatusRequest's since it
                // completed.
                "TimeAdded" | "Completed" => "<age>".to_owned(),
                "Cluster-IP" => text
                    .split(',')
                    .map(cluster_ip)
                    .collect::<Vec<_>>()
                    .join(","),
                "Port(s)" => node_ports(text),
                _ => continue,
            };
            *cell = Value::from(normalized);
        }
    }
}

/// `80:31234/TCP,443:30001/TCP` with the node ports made `<node port>`.
fn node_ports(text: &str) -> String {
    text.split(',')
        .map(|port| match (port.find(':'), port.find('/')) {
            (Some(colon), Some(slash)) if colon < slash => {
                format!("{}:<node port>{}", &port[..colon], &port[slash..])
            }
            _ => port.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The JSON paths where `a` and `b` differ (at most `limit`), each with both values.
pub fn differences(a: &Value, b: &Value, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    diff("", a, b, &mut out, limit);
    out
}

fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = format!("{path}/{k}");
                match (x.get(k), y.get(k)) {
                    (Some(a), Some(b)) => diff(&p, a, b, out, limit),
                    // A field one server writes (even as null) and the other leaves out.
                    (a, b) if out.len() < limit => out.push(format!(
                        "{p}: kapi {} / kube-apiserver {}",
                        a.map_or_else(|| "absent".to_owned(), short),
                        b.map_or_else(|| "absent".to_owned(), short)
                    )),
                    _ => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            // Lists of different lengths (causes one server repeats, say): their
            // lengths, then the items they both have.
            if x.len() != y.len() {
                out.push(format!(
                    "{path}: kapi {} items / kube-apiserver {} items",
                    x.len(),
                    y.len()
                ));
            }
            for (i, (a, b)) in x.iter().zip(y).enumerate() {
                diff(&format!("{path}/{i}"), a, b, out, limit);
            }
        }
        _ => out.push(format!(
            "{}: kapi {} / kube-apiserver {}",
            if path.is_empty() { "/" } else { path },
            short(a),
            short(b)
        )),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.len() > 300 {
        let mut end = 300;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &text[..end])
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_what_must_differ_is_normalized() {
        let mut versions = Versions::default();
        let mut a = json!({"kind": "Service", "metadata": {"name": "web-x7k2p", "generateName": "web-",
            "uid": "1-2", "resourceVersion": "17", "creationTimestamp": "2026-01-01T00:00:00Z",
            "managedFields": [{"manager": "m", "time": "2026-01-01T00:00:00Z"}]},
            "spec": {"clusterIP": "10.96.0.7", "clusterIPs": ["10.96.0.7"],
            "ports": [{"port": 80, "nodePort": 31000}]}});
        normalize(&mut a, &mut versions);
        assert_eq!(
            a,
            json!({"kind": "Service", "metadata": {"name": "web-<suffix>", "generateName": "web-",
            "uid": "<uid>", "resourceVersion": "<rv 1>", "creationTimestamp": "<time>",
            "managedFields": [{"manager": "m", "time": "<time>"}]},
            "spec": {"clusterIP": "<cluster ip>", "clusterIPs": ["<cluster ip>"],
            "ports": [{"port": 80, "nodePort": "<node port>"}]}})
        );
        let mut list = json!({"kind": "PodList", "metadata": {"resourceVersion": "30", "continue": ""},
            "items": [{"metadata": {"resourceVersion": "17"}}, {"metadata": {"resourceVersion": "20"}}]});
        normalize(&mut list, &mut versions);
        assert_eq!(
            list,
            json!({"kind": "PodList", "metadata": {"resourceVersion": "<resourceVersion>", "continue": ""},
            "items": [{"metadata": {"resourceVersion": "<rv 1>"}}, {"metadata": {"resourceVersion": "<rv 2>"}}]})
        );
        let mut conflict = json!({"kind": "Status", "message": "Operation cannot be fulfilled on ConfigMap \"a\": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (20). The object might have been modified"});
        normalize(&mut conflict, &mut versions);
        assert_eq!(
            conflict["message"],
            "Operation cannot be fulfilled on ConfigMap \"a\": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (<rv 2>). The object might have been modified"
        );
        let mut uid = json!({"kind": "Status", "message": "Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/ns/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 41, UID in object meta: 3ecb8aa2"});
        normalize(&mut uid, &mut versions);
        assert_eq!(
            uid["message"],
            "Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/ns/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 41, UID in object meta: <uid>"
        );
        let mut delete_uid = json!({"kind": "Status", "message": "Operation cannot be fulfilled on Pod \"a\": the UID in the precondition (41) does not match the UID in record (3ecb8aa2). The object might have been deleted and then recreated"});
        normalize(&mut delete_uid, &mut versions);
        assert_eq!(
            delete_uid["message"],
            "Operation cannot be fulfilled on Pod \"a\": the UID in the precondition (41) does not match the UID in record (<uid>). The object might have been deleted and then recreated"
        );
        assert_eq!(
            node_ports("80:31234/TCP,443/TCP"),
            "80:<node port>/TCP,443/TCP"
        );
    }

    #[test]
    fn differences_name_their_paths() {
        let d = differences(
            &json!({"a": [1, {"b": 2}]}),
            &json!({"a": [1, {"b": 3}], "c": 1}),
            10,
        );
        assert_eq!(
            d,
            [
                "/a/1/b: kapi 2 / kube-apiserver 3",
                "/c: kapi absent / kube-apiserver 1"
            ]
        );
        // Lists of different lengths: their lengths, then their common items.
        let d = differences(&json!({"a": [1, 2, 3]}), &json!({"a": [1, 4]}), 10);
        assert_eq!(
            d,
            [
                "/a: kapi 3 items / kube-apiserver 2 items",
                "/a/1: kapi 2 / kube-apiserver 4"
            ]
        );
    }

    #[test]
    fn disrupted_pods_times_are_normalized() {
        let mut budget = json!({"status": {"disruptedPods": {"api-0": "2026-12-02T14:52:35Z"}}});
        normalize(&mut budget, &mut Versions::default());
        assert_eq!(
            budget["status"]["disruptedPods"],
            json!({"api-0": "<time>"})
        );
    }

    #[test]
    fn tokens_rules_and_too_old_versions_are_normalized() {
        let mut versions = Versions::default();
        let mut request = json!({"kind": "TokenRequest", "status": {"token": "eyJhbGciOi.x.y",
            "expirationTimestamp": "2026-01-01T00:00:00Z"}});
        normalize(&mut request, &mut versions);
        assert_eq!(
            request["status"],
            json!({"token": "<token>", "expirationTimestamp": "<time>"})
        );
        let mut review = json!({"kind": "TokenReview", "spec": {"token": "eyJ.a.b"},
            "status": {"user": {"extra": {CREDENTIAL_ID: ["JTI=1f2e"], "other": ["kept"]}}}});
        normalize(&mut review, &mut versions);
        assert_eq!(review["spec"]["token"], "<token>");
        assert_eq!(
            review["status"]["user"]["extra"][CREDENTIAL_ID][0],
            "<credential id>"
        );
        assert_eq!(review["status"]["user"]["extra"]["other"][0], "kept");
        // A token that is not a JWT (a bad one a review was asked about) is kept.
        let mut garbage = json!({"kind": "TokenReview", "spec": {"token": "not-a-token"}});
        normalize(&mut garbage, &mut versions);
        assert_eq!(garbage["spec"]["token"], "not-a-token");
        let mut rules = json!({"kind": "SelfSubjectRulesReview", "status": {
            "resourceRules": [{"verbs": ["get"]}, {"verbs": ["*"]}], "nonResourceRules": []}});
        normalize(&mut rules, &mut versions);
        assert_eq!(rules["status"]["resourceRules"][0]["verbs"][0], "*");
        let mut meta = json!({"message": "Operation cannot be fulfilled on namespaces \"a\": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 46"});
        normalize(&mut meta, &mut Versions::default());
        assert!(
            meta["message"]
                .as_str()
                .is_some_and(|m| m.ends_with("ResourceVersion in object meta: <rv 1>")),
            "{meta}"
        );
        let mut uid = json!({"message": "Operation cannot be fulfilled on TokenRequest.authentication.k8s.io \"robot\": the UID in the token request (1) does not match the UID of the service account (9f8e)"});
        normalize(&mut uid, &mut versions);
        assert_eq!(
            uid["message"],
            "Operation cannot be fulfilled on TokenRequest.authentication.k8s.io \"robot\": the UID in the token request (1) does not match the UID of the service account (<uid>)"
        );
        let mut gone = json!({"type": "ERROR", "object": {"kind": "Status", "code": 410,
            "message": "too old resource version: 1 (57)"}});
        normalize(&mut gone, &mut versions);
        assert_eq!(
            gone["object"]["message"],
            "too old resource version: <rv 1> (<rv 2>)"
        );
    }

    #[test]
    fn component_statuses_are_put_in_name_order() {
        let mut versions = Versions::default();
        let mut list = json!({"kind": "ComponentStatusList", "metadata": {},
            "items": [{"metadata": {"name": "scheduler"}}, {"metadata": {"name": "etcd-0"}}]});
        normalize(&mut list, &mut versions);
        assert_eq!(list["items"][0]["metadata"]["name"], "etcd-0");
        let columns: Vec<Value> = COMPONENT_STATUS_COLUMNS
            .iter()
            .map(|n| json!({"name": n}))
            .collect();
        let mut table = json!({"kind": "Table", "metadata": {}, "columnDefinitions": columns,
            "rows": [{"cells": ["scheduler", "Unhealthy", "", ""]},
                {"cells": ["etcd-0", "Healthy", "ok", ""]}]});
        normalize(&mut table, &mut versions);
        assert_eq!(table["rows"][0]["cells"][0], "etcd-0");
    }

    #[test]
    fn times_a_message_quotes_are_normalized() {
        let mut versions = Versions::default();
        let mut status = json!({"kind": "Status", "message": "metadata: Invalid value: \
            {\"managedFields\":[{\"time\":\"2026-12-01T07:10:01Z\"}]}: must be empty, \
            not 2026-12-01T07:10:0 nor 2026-12-01T07:10:01Z"});
        normalize(&mut status, &mut versions);
        assert_eq!(
            status["message"],
            "metadata: Invalid value: {\"managedFields\":[{\"time\":\"<time>\"}]}: \
             must be empty, not 2026-12-01T07:10:0 nor <time>"
        );
        assert_eq!(times_in_message("no time here: 2026-12-01"), None);
        assert_eq!(
            times_in_message("é 2026-12-01T07:10:01Z é").as_deref(),
            Some("é <time> é")
        );
    }
}
