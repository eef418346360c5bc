use serde_json::json;

use super::*;

const T0: &str = "2026-01-01T00:00:00Z";
const T1: &str = "2026-01-01T00:00:01Z";

fn types() -> ParseableType {
    ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "paused": {"type": "boolean"},
                "containers": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"}, "image": {"type": "string"}}}}
            }},
            "status": {"type": "object", "properties": {"ready": {"type": "integer"}}}
        }
    }))
}

fn obj(spec: serde_json::Value) -> serde_json::Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"}, "spec": spec})
}

fn entries(v: &serde_json::Value) -> Vec<(String, String, String)> {
    v["metadata"]["managedFields"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["manager"].as_str().unwrap_or_default().to_owned(),
                        e["operation"].as_str().unwrap_or_default().to_owned(),
                        serde_json::to_string(&e["fieldsV1"]).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn creates_and_updates_are_tracked_as_update_entries() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion).with_reset_fields(&["status"]);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}});
    let mut created = obj(json!({"replicas": 1}));
    created["status"] = json!({"ready": 0});
    fm.update(None, &empty, &mut created, "kubectl-create", T0);
    assert_eq!(
        entries(&created),
        [(
            "kubectl-create".into(),
            "Update".into(),
            r#"{"f:spec":{".":{},"f:replicas":{}}}"#.into()
        )]
    );
    let e = &created["metadata"]["managedFields"][0];
    assert_eq!(e["apiVersion"], "apps/v1");
    assert_eq!(e["time"], T0);
    assert_eq!(e["fieldsType"], "FieldsV1");

    // Another writer takes the field it changes.
    let mut edited = created.clone();
    edited["spec"]["replicas"] = json!(3);
    fm.update(Some(&created), &empty, &mut edited, "kubectl-edit", T1);
    assert_eq!(
        entries(&edited),
        [
            (
                "kubectl-create".into(),
                "Update".into(),
                r#"{"f:spec":{}}"#.into()
            ),
            (
                "kubectl-edit".into(),
                "Update".into(),
                r#"{"f:spec":{"f:replicas":{}}}"#.into()
            ),
        ]
    );
    // A write that changes nothing changes no entry (not even a time).
    let mut same = edited.clone();
    fm.update(
        Some(&edited),
        &empty,
        &mut same,
        "other",
        "2030-01-01T00:00:00Z",
    );
    assert_eq!(same, edited);
}

#[test]
fn request_managed_fields_reset_or_fall_back_to_the_live_ones() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}});
    let mut live = obj(json!({"replicas": 1}));
    fm.update(None, &empty, &mut live, "a", T0);
    // An empty list resets: only this write's fields remain.
    let mut reset = live.clone();
    reset["metadata"]["managedFields"] = json!([]);
    reset["spec"]["paused"] = json!(true);
    fm.update(Some(&live), &empty, &mut reset, "b", T1);
    assert_eq!(
        entries(&reset),
        [(
            "b".into(),
            "Update".into(),
            r#"{"f:spec":{"f:paused":{}}}"#.into()
        )]
    );
    // Invalid entries are ignored in favour of the live ones.
    let mut bad = live.clone();
    bad["metadata"]["managedFields"] =
        json!([{"manager": "x", "operation": "Bogus", "apiVersion": "v1"}]);
    bad["spec"]["paused"] = json!(true);
    fm.update(Some(&live), &empty, &mut bad, "b", T1);
    assert_eq!(
        entries(&bad),
        [
            (
                "a".into(),
                "Update".into(),
                r#"{"f:spec":{".":{},"f:replicas":{}}}"#.into()
            ),
            (
                "b".into(),
                "Update".into(),
                r#"{"f:spec":{"f:paused":{}}}"#.into()
            ),
        ]
    );
}

#[test]
fn apply_conflicts_name_fields_and_managers_as_go_does() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"}});
    let mut live = obj(json!({"replicas": 1, "paused": false}));
    fm.update(None, &empty, &mut live, "kube-controller-manager", T0);
    let live = fm
        .apply(
            &live,
            &obj(json!({"containers": [{"name": "web", "image": "a"}]})),
            "alice",
            false,
            T0,
        )
        .unwrap()
        .unwrap();

    let err = fm
        .apply(&live, &obj(json!({"replicas": 2})), "bob", false, T1)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "kube-controller-manager" using apps/v1: .spec.replicas"#
    );
    let err = fm
        .apply(&live, &obj(json!({"replicas": 2, "paused": true, "containers": [{"name": "web", "image": "b"}]})), "bob", false, T1)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 3 conflicts: conflicts with \"alice\":\n- .spec.containers[name=\"web\"].image\nconflicts with \"kube-controller-manager\" using apps/v1:\n- .spec.paused\n- .spec.replicas"
    );
    let ApplyError::Conflicts(list) = err else {
        panic!("conflicts")
    };
    assert_eq!(list.len(), 3);

    // Applying the same value is no conflict: the field becomes shared.
    let shared = fm
        .apply(&live, &obj(json!({"replicas": 1})), "bob", false, T1)
        .unwrap()
        .expect("entries changed");
    assert_eq!(shared["spec"], live["spec"]);
    assert!(
        entries(&shared).iter().any(|(m, op, f)| m == "bob"
            && op == "Apply"
            && f == r#"{"f:spec":{"f:replicas":{}}}"#)
    );

    // Forced, the field moves to the applier.
    let forced = fm
        .apply(&live, &obj(json!({"replicas": 5})), "bob", true, T1)
        .unwrap()
        .unwrap();
    assert_eq!(forced["spec"]["replicas"], 5);
    assert_eq!(
        entries(&forced)
            .iter()
            .find(|e| e.0 == "kube-controller-manager")
            .map(|e| e.2.clone()),
        Some(r#"{"f:spec":{".":{},"f:paused":{}}}"#.to_owned())
    );
}

#[test]
fn reapplying_without_a_field_removes_it_unless_someone_else_owns_it() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"}});
    let full = obj(json!({"replicas": 2, "paused": true,
        "containers": [{"name": "web", "image": "a"}, {"name": "log", "image": "b"}]}));
    let live = fm
        .apply(&empty, &full, "alice", false, T0)
        .unwrap()
        .unwrap();
    // Twice the same: nothing to do.
    assert_eq!(fm.apply(&live, &full, "alice", false, T1).unwrap(), None);
    // bob shares paused.
    let live = fm
        .apply(&live, &obj(json!({"paused": true})), "bob", false, T1)
        .unwrap()
        .unwrap();
    let smaller = obj(json!({"containers": [{"name": "web", "image": "a"}]}));
    let out = fm
        .apply(&live, &smaller, "alice", false, T1)
        .unwrap()
        .unwrap();
    assert_eq!(
        out["spec"],
        json!({"paused": true, "containers": [{"name": "web", "image": "a"}]})
    );
}

#[test]
fn apply_rejects_managed_fields_and_other_versions() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let live = obj(json!({}));
    let mut with_mf = obj(json!({}));
    with_mf["metadata"]["managedFields"] = json!([]);
    assert_eq!(
        fm.apply(&live, &with_mf, "a", false, T0).unwrap_err(),
        ApplyError::BadRequest("metadata.managedFields must be nil".into())
    );
    let mut other = obj(json!({}));
    other["apiVersion"] = json!("apps/v1beta1");
    assert_eq!(
        fm.apply(&live, &other, "a", false, T0)
            .unwrap_err()
            .to_string(),
        "Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1"
    );
    let err = fm
        .apply(&live, &obj(json!({"bogus": 1})), "a", false, T0)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to create typed patch object (ns/d; apps/v1, Kind=Deployment): .spec.bogus: field not declared in schema"
    );
}

#[test]
fn reset_fields_are_never_owned_and_status_writers_are_recorded_with_their_subresource() {
    let t = types();
    let main = FieldManager::new(&t, "apps/v1", "", &NoConversion).with_reset_fields(&["status"]);
    let live = obj(json!({"replicas": 1}));
    let mut applied = obj(json!({"replicas": 1}));
    applied["status"] = json!({"ready": 1});
    let out = main
        .apply(&live, &applied, "a", false, T0)
        .unwrap()
        .unwrap();
    assert_eq!(
        entries(&out),
        [(
            "a".into(),
            "Apply".into(),
            r#"{"f:spec":{"f:replicas":{}}}"#.into()
        )]
    );

    let status =
        FieldManager::new(&t, "apps/v1", "status", &NoConversion).with_reset_fields(&["spec"]);
    let empty = json!({});
    let mut new = out.clone();
    new["status"] = json!({"ready": 2});
    status.update(Some(&out), &empty, &mut new, "controller", T1);
    let e = new["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "controller")
        .cloned()
        .unwrap();
    assert_eq!(e["subresource"], "status");
    assert_eq!(e["fieldsV1"], json!({"f:status": {"f:ready": {}}}));
}

#[test]
fn update_entries_past_ten_merge_into_ancient_changes() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}});
    let mut live = obj(json!({"containers": []}));
    for i in 0..12 {
        let mut next = live.clone();
        let list = next["spec"]["containers"].as_array_mut().unwrap();
        list.push(json!({"name": format!("c{i}")}));
        fm.update(
            Some(&live),
            &empty,
            &mut next,
            &format!("m{i:02}"),
            &format!("2026-01-01T00:00:{i:02}Z"),
        );
        live = next;
    }
    let names: Vec<String> = entries(&live).into_iter().map(|e| e.0).collect();
    assert_eq!(names.len(), MAX_UPDATE_MANAGERS);
    assert!(names.contains(&"ancient-changes".to_owned()), "{names:?}");
    assert!(names.contains(&"m11".to_owned()));
    assert!(!names.contains(&"m00".to_owned()));
}

#[test]
fn managed_fields_decode_rejects_what_go_rejects() {
    let bad = |v: serde_json::Value| Managed::decode(Some(&v)).unwrap_err().to_string();
    assert_eq!(
        bad(json!([{"operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1"}])),
        "operation must be `Apply` or `Update`"
    );
    assert_eq!(
        bad(json!([{"operation": "Apply", "fieldsType": "FieldsV1"}])),
        "apiVersion must not be empty"
    );
    assert_eq!(
        bad(json!([{"operation": "Apply", "apiVersion": "v1"}])),
        "missing fieldsType in managed fields entry 0"
    );
    assert_eq!(
        bad(json!([{"operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV2"}])),
        "invalid fieldsType \"FieldsV2\" in managed fields entry 0"
    );
    assert!(bad(json!([{"operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"x": {}}}])).contains("unknown path element"));
}

#[test]
fn dropping_the_only_applied_metadata_field_keeps_the_rest_of_metadata() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let mut with_labels = obj(json!({"replicas": 1}));
    with_labels["metadata"]["labels"] = json!({"app": "web"});
    let live = fm
        .apply(&obj(json!({})), &with_labels, "alice", false, T0)
        .unwrap()
        .unwrap();
    let out = fm
        .apply(&live, &obj(json!({"replicas": 1})), "alice", false, T1)
        .unwrap()
        .unwrap();
    assert_eq!(out["metadata"]["name"], "d", "{out}\n{live}");
    assert_eq!(out["metadata"]["namespace"], "ns");
    // `metadata` keeps unknown fields here, declaring none: `labels` is a key of it, not
    // a declared field, so the first apply owned `.metadata.labels` itself (Go's
    // visitMapItems), and the second, which leaves it out, prunes it whole.
    assert_eq!(out["metadata"].get("labels"), None);
    assert_eq!(
        entries(&out),
        [(
            "alice".into(),
            "Apply".into(),
            r#"{"f:spec":{"f:replicas":{}}}"#.into()
        )]
    );
}

#[test]
fn an_update_of_an_object_without_entries_records_none() {
    let t = types();
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion).with_reset_fields(&["spec"]);
    let empty = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}});
    // Created with nothing but reset fields: no entry, as Go's reset filter leaves it.
    let mut created = obj(json!({"replicas": 1}));
    fm.update(None, &empty, &mut created, "create", T0);
    assert!(created["metadata"].get("managedFields").is_none());
    created["metadata"]["uid"] = json!("u1");
    // Later updates are not tracked (Go's skipNonAppliedManager), whatever they set.
    let mut labelled = created.clone();
    labelled["metadata"]["labels"] = json!({"a": "b"});
    fm.update(Some(&created), &empty, &mut labelled, "edit", T1);
    assert!(labelled["metadata"].get("managedFields").is_none());
    // An update resetting the entries of a tracked object leaves it untracked.
    let fm = FieldManager::new(&t, "apps/v1", "", &NoConversion);
    let mut tracked = obj(json!({"replicas": 1}));
    fm.update(None, &empty, &mut tracked, "create", T0);
    tracked["metadata"]["uid"] = json!("u2");
    let mut reset = tracked.clone();
    reset["metadata"]["managedFields"] = json!([]);
    reset["spec"]["paused"] = json!(true);
    fm.update(Some(&tracked), &empty, &mut reset, "b", T1);
    assert!(reset["metadata"].get("managedFields").is_none());
}
