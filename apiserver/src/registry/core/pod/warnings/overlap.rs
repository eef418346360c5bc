//! Go's `warningsForOverlappingVirtualPaths` (`pkg/api/pod/warnings.go`): within one
//! ConfigMap, Secret, DownwardAPI or projected volume, two items written to the same
//! file, or one to a file inside the other's path, overwrite each other or fail in the
//! kubelet (`is a directory`, `file exists`).

use apimachinery::util::validation::field::go_quote;
use serde_json::Value;

/// A path a volume writes and where it comes from (Go's `pathAndSource`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PathAndSource {
    path: String,
    source: String,
}

impl PathAndSource {
    /// Go's `pathAndSource.String`: the quoted path, and its source in parentheses.
    fn describe(&self) -> String {
        if self.source.is_empty() {
            go_quote(&self.path)
        } else {
            format!("{} ({})", go_quote(&self.path), self.source)
        }
    }
}

/// The string at `key` of `obj` (empty when absent).
fn str_at<'a>(obj: &'a Value, key: &str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The value at `key` of `obj` when present and not null (Go's non-nil pointer).
fn set<'a>(obj: &'a Value, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// Go's `extractPaths` and `extractPathsDownwardAPI`: each item's `path`, from `source`.
fn extract_paths(items: &Value, source: &str) -> Vec<PathAndSource> {
    items
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| PathAndSource {
            path: str_at(item, "path").to_owned(),
            source: source.to_owned(),
        })
        .collect()
}

/// Go's `checkForOverlap`: the paths of `haystack` equal to `needle`'s or containing it,
/// or inside it (paths compared with `/`, whatever the server's OS).
fn check_for_overlap<'a>(
    haystack: &'a [PathAndSource],
    needle: &PathAndSource,
) -> Vec<&'a PathAndSource> {
    if needle.path.is_empty() {
        return Vec::new();
    }
    let needle_dir = format!("{}/", needle.path);
    haystack
        .iter()
        .filter(|item| {
            if item.path.is_empty() {
                return false;
            }
            let item_dir = format!("{}/", item.path);
            *item == needle
                || item_dir.starts_with(&needle_dir)
                || needle_dir.starts_with(&item_dir)
        })
        .collect()
}

/// Go's `checkVolumeMappingForOverlap`: each path (trailing `/` trimmed) against those
/// before it, one message per collision.
fn check_volume_mapping_for_overlap(paths: Vec<PathAndSource>) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut all: Vec<PathAndSource> = Vec::new();
    for mut ps in paths {
        ps.path = ps.path.trim_end_matches('/').to_owned();
        for c in check_for_overlap(&all, &ps) {
            warnings.push(format!("{} with {}", ps.describe(), c.describe()));
        }
        all.push(ps);
    }
    warnings
}

/// Go's `mkWarn`.
fn mk_warn(volume: &str, description: &str, body: &str) -> String {
    format!(
        "volume {} ({description}): overlapping paths: {body}",
        go_quote(volume)
    )
}

/// The paths one source of a projected volume writes (Go's `switch` over the source's
/// kinds: the first that is set counts).
fn projected_source_paths(source: &Value) -> Vec<PathAndSource> {
    let one = |path: &str, source: String| {
        vec![PathAndSource {
            path: path.to_owned(),
            source,
        }]
    };
    let items_of = |kind: &str| set(source, kind).and_then(|k| set(k, "items").map(|i| (k, i)));
    if let Some((cm, items)) = items_of("configMap") {
        return extract_paths(
            items,
            &format!("ConfigMap {}", go_quote(str_at(cm, "name"))),
        );
    }
    if let Some((secret, items)) = items_of("secret") {
        return extract_paths(
            items,
            &format!("Secret {}", go_quote(str_at(secret, "name"))),
        );
    }
    if let Some((_, items)) = items_of("downwardAPI") {
        return extract_paths(items, "DownwardAPI");
    }
    if let Some(token) = set(source, "serviceAccountToken") {
        return one(str_at(token, "path"), "ServiceAccountToken".to_owned());
    }
    if let Some(bundle) = set(source, "clusterTrustBundle") {
        let name = match set(bundle, "name") {
            Some(name) => name.as_str().unwrap_or(""),
            None => str_at(bundle, "signerName"),
        };
        return one(
            str_at(bundle, "path"),
            format!("ClusterTrustBundle {}", go_quote(name)),
        );
    }
    if let Some(cert) = set(source, "podCertificate") {
        return [
            ("certificateChainPath", "PodCertificate chain"),
            ("keyPath", "PodCertificate key"),
            ("credentialBundlePath", "PodCertificate credential bundle"),
        ]
        .into_iter()
        .filter(|(field, _)| !str_at(cert, field).is_empty())
        .map(|(field, what)| PathAndSource {
            path: str_at(cert, field).to_owned(),
            source: what.to_owned(),
        })
        .collect();
    }
    Vec::new()
}

/// Go's `warningsForOverlappingVirtualPaths` over the JSON volumes `volumes`.
pub fn warnings_for_overlapping_virtual_paths(volumes: Option<&Value>) -> Vec<String> {
    let mut warnings = Vec::new();
    for v in volumes.and_then(Value::as_array).into_iter().flatten() {
        let name = str_at(v, "name");
        let mut single = |kind: &str, description: &dyn Fn(&Value) -> String| {
            if let Some(src) = set(v, kind)
                && let Some(items) = set(src, "items")
            {
                let described = description(src);
                for overlap in check_volume_mapping_for_overlap(extract_paths(items, "")) {
                    warnings.push(mk_warn(name, &described, &overlap));
                }
            }
        };
        single("configMap", &|cm| {
            format!("ConfigMap {}", go_quote(str_at(cm, "name")))
        });
        single("secret", &|s| {
            format!("Secret {}", go_quote(str_at(s, "secretName")))
        });
        single("downwardAPI", &|_| "DownwardAPI".to_owned());

        let Some(projected) = set(v, "projected") else {
            continue;
        };
        let mut all: Vec<PathAndSource> = Vec::new();
        let sources = projected.get("sources").and_then(Value::as_array);
        for source in sources.into_iter().flatten() {
            // Go compares the source with the zero `VolumeProjection`: nothing set.
            let empty = source
                .as_object()
                .is_none_or(|o| o.values().all(Value::is_null));
            if empty {
                warnings.push(format!(
                    "volume {} (Projected) has no sources provided",
                    go_quote(name)
                ));
                continue;
            }
            for mut ps in projected_source_paths(source) {
                ps.path = ps.path.trim_end_matches('/').to_owned();
                for c in check_for_overlap(&all, &ps) {
                    let body = format!("{} with {}", ps.describe(), c.describe());
                    warnings.push(mk_warn(name, "Projected", &body));
                }
                all.push(ps);
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn warn(volumes: Value) -> Vec<String> {
        warnings_for_overlapping_virtual_paths(Some(&volumes))
    }

    /// Go's `TestWarnings` overlapping-path cases (pkg/api/pod/warnings_test.go).
    #[test]
    fn overlapping_paths_within_one_volume_are_warned_about() {
        assert!(
            warn(json!([{"name": "v", "configMap": {"name": "Foo",
            "items": [{"key": "foo", "path": "test"}, {"key": "bar", "path": "test2"}]}}]))
            .is_empty()
        );
        assert_eq!(
            warn(json!([{"name": "Test", "configMap": {"name": "foo",
                "items": [{"key": "foo", "path": "test"}, {"key": "bar", "path": "test"}]}}])),
            [r#"volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test""#]
        );
        assert_eq!(
            warn(json!([{"name": "Test", "secret": {"secretName": "foo",
                "items": [{"key": "foo", "path": "test"}, {"key": "bar", "path": "test/app"}]}}])),
            [r#"volume "Test" (Secret "foo"): overlapping paths: "test/app" with "test""#]
        );
        assert_eq!(
            warn(json!([{"name": "Test", "downwardAPI": {
                "items": [{"path": "test/"}, {"path": "test"}]}}])),
            [r#"volume "Test" (DownwardAPI): overlapping paths: "test" with "test""#]
        );
        assert_eq!(
            warn(json!([{"name": "foo", "projected": {"sources": [
                {"configMap": {"name": "Test", "items": [{"key": "mykey", "path": "test"}]}},
                {"secret": {"name": "Test", "items": [{"key": "mykey", "path": "test/test1"}]}},
                {"serviceAccountToken": {"path": "test/test1/test2"}},
                {},
            ]}}])),
            [
                r#"volume "foo" (Projected): overlapping paths: "test/test1" (Secret "Test") with "test" (ConfigMap "Test")"#,
                r#"volume "foo" (Projected): overlapping paths: "test/test1/test2" (ServiceAccountToken) with "test" (ConfigMap "Test")"#,
                r#"volume "foo" (Projected): overlapping paths: "test/test1/test2" (ServiceAccountToken) with "test/test1" (Secret "Test")"#,
                r#"volume "foo" (Projected) has no sources provided"#,
            ]
        );
        assert_eq!(
            warn(json!([{"name": "foo", "projected": {"sources": [
                {"clusterTrustBundle": {"signerName": "example.com/s", "path": "ca"}},
                {"podCertificate": {"credentialBundlePath": "ca", "keyPath": "k"}},
            ]}}])),
            [
                r#"volume "foo" (Projected): overlapping paths: "ca" (PodCertificate credential bundle) with "ca" (ClusterTrustBundle "example.com/s")"#
            ]
        );
    }
}
