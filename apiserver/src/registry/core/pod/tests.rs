use std::sync::Arc;

use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use k8s_types as _;
use serde_json::{Value, json};

use super::*;
use crate::registry::{
    GenericStrategy, GracefulOutcome, ResourceInfo, before_delete, from_value, mark_as_deleting,
    resources_from_scheme,
};

fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::with_name("graceful-delete-tests");
    scheme.add_registry().unwrap();
    Arc::new(scheme)
}

fn info(scheme: &Scheme, group: &str, resource: &str) -> ResourceInfo {
    resources_from_scheme(scheme)
        .into_values()
        .find(|r| r.group == group && r.resource == resource)
        .unwrap()
}

fn pod(scheme: &Scheme, v: Value) -> Box<dyn Object> {
    let info = info(scheme, "", "pods");
    from_value(scheme, &info.storage_gvk, v).unwrap()
}

const NOW: i64 = 1_000_000;

fn now() -> Time {
    Time::from_unix(NOW, 0)
}

fn scheduled(grace: Option<i64>) -> Value {
    let mut spec = json!({"nodeName": "node-1", "containers": [{"name": "c", "image": "i"}]});
    if let Some(g) = grace {
        spec["terminationGracePeriodSeconds"] = json!(g);
    }
    json!({"metadata": {"name": "p", "generation": 1}, "spec": spec})
}

fn marks(obj: &dyn Object) -> (Option<i64>, Option<i64>, i64) {
    let m = obj.meta().unwrap();
    (
        m.deletion_timestamp().map(|t| t.unix_seconds() - NOW),
        m.deletion_grace_period_seconds(),
        m.generation(),
    )
}

#[test]
fn what_is_not_deleted_gracefully_goes_at_once() {
    let s = scheme();
    let cms = info(&s, "", "configmaps");
    let mut cm = from_value(&s, &cms.storage_gvk, json!({"metadata": {"name": "c"}})).unwrap();
    assert_eq!(
        before_delete(&GenericStrategy::default(), &mut *cm, Some(30), now()).unwrap(),
        GracefulOutcome::Immediate
    );
    assert_eq!(cm.meta().unwrap().deletion_timestamp(), None);
}

#[test]
fn a_scheduled_pod_takes_its_termination_grace_period_or_the_requested_one() {
    let s = scheme();
    let mut p = pod(&s, scheduled(Some(30)));
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, None, now()).unwrap(),
        GracefulOutcome::Graceful { period: 30 }
    );
    assert_eq!(marks(&*p), (Some(30), Some(30), 2));

    let mut p = pod(&s, scheduled(Some(30)));
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, Some(5), now()).unwrap(),
        GracefulOutcome::Graceful { period: 5 }
    );
    assert_eq!(marks(&*p), (Some(5), Some(5), 2));

    // No terminationGracePeriodSeconds (the defaulter sets 30): 0.
    let mut p = pod(&s, scheduled(None));
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, None, now()).unwrap(),
        GracefulOutcome::Graceful { period: 0 }
    );
    // A negative period is one second.
    let mut p = pod(&s, scheduled(Some(30)));
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, Some(-7), now()).unwrap(),
        GracefulOutcome::Graceful { period: 1 }
    );
}

#[test]
fn an_unscheduled_or_finished_pod_goes_at_once() {
    let s = scheme();
    let mut unscheduled = scheduled(Some(30));
    unscheduled["spec"]["nodeName"] = json!("");
    let mut p = pod(&s, unscheduled);
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, Some(60), now()).unwrap(),
        GracefulOutcome::Graceful { period: 0 }
    );
    assert_eq!(marks(&*p), (Some(0), Some(0), 2));
    for phase in ["Succeeded", "Failed"] {
        let mut done = scheduled(Some(30));
        done["status"] = json!({"phase": phase});
        let mut p = pod(&s, done);
        assert_eq!(
            before_delete(&PodStrategy, &mut *p, None, now()).unwrap(),
            GracefulOutcome::Graceful { period: 0 },
            "{phase}"
        );
    }
    let mut running = scheduled(Some(30));
    running["status"] = json!({"phase": "Running"});
    let mut p = pod(&s, running);
    assert_eq!(
        before_delete(&PodStrategy, &mut *p, None, now()).unwrap(),
        GracefulOutcome::Graceful { period: 30 }
    );
}

#[test]
fn a_second_delete_may_only_shorten_the_grace_period() {
    let s = scheme();
    let mut p = pod(&s, scheduled(Some(30)));
    before_delete(&PodStrategy, &mut *p, None, now()).unwrap();
    // Ten seconds later: as long or longer, or no period, changes nothing.
    let later = Time::from_unix(NOW + 10, 0);
    for asked in [None, Some(30), Some(300)] {
        let mut again = p.deep_copy_object();
        assert_eq!(
            before_delete(&PodStrategy, &mut *again, asked, later).unwrap(),
            GracefulOutcome::Pending,
            "{asked:?}"
        );
        assert_eq!(marks(&*again), (Some(30), Some(30), 2));
    }
    // Shorter: the deadline moves back by the difference; the generation stays.
    let mut again = p.deep_copy_object();
    assert_eq!(
        before_delete(&PodStrategy, &mut *again, Some(20), later).unwrap(),
        GracefulOutcome::Graceful { period: 20 }
    );
    assert_eq!(marks(&*again), (Some(20), Some(20), 2));
    // A deadline that would be in the past is now, and stays graceful (1 second).
    let mut again = p.deep_copy_object();
    assert_eq!(
        before_delete(&PodStrategy, &mut *again, Some(5), later).unwrap(),
        GracefulOutcome::Graceful { period: 1 }
    );
    assert_eq!(marks(&*again), (Some(10), Some(1), 2));
    // 0: now, and delete.
    let mut again = p.deep_copy_object();
    assert_eq!(
        before_delete(&PodStrategy, &mut *again, Some(0), later).unwrap(),
        GracefulOutcome::Graceful { period: 0 }
    );
    assert_eq!(marks(&*again), (Some(10), Some(0), 2));
}

#[test]
fn a_mark_without_a_period_finishes_at_once() {
    let s = scheme();
    for period in [None, Some(0)] {
        let mut p = pod(&s, scheduled(Some(30)));
        let meta = p.meta_mut().unwrap();
        meta.set_deletion_timestamp(Some(now()));
        meta.set_deletion_grace_period_seconds(period);
        assert_eq!(
            before_delete(&PodStrategy, &mut *p, Some(10), now()).unwrap(),
            GracefulOutcome::Immediate,
            "{period:?}"
        );
    }
}

#[test]
fn marking_for_finalizers_keeps_an_earlier_timestamp_and_bumps_the_generation_once() {
    let s = scheme();
    let mut p = pod(&s, scheduled(Some(30)));
    mark_as_deleting(&mut *p, now());
    assert_eq!(marks(&*p), (Some(0), Some(0), 2));
    mark_as_deleting(&mut *p, Time::from_unix(NOW + 50, 0));
    assert_eq!(marks(&*p), (Some(0), Some(0), 2));
    // A later mark (a graceful one) is brought forward.
    let meta = p.meta_mut().unwrap();
    meta.set_deletion_timestamp(Some(Time::from_unix(NOW + 100, 0)));
    mark_as_deleting(&mut *p, Time::from_unix(NOW + 50, 0));
    assert_eq!(marks(&*p), (Some(50), Some(0), 2));
}

fn as_json(obj: &dyn Object) -> Value {
    crate::registry::to_json(obj).unwrap()
}

#[test]
fn a_clients_qos_class_is_kept_on_1_36_only() {
    let s = scheme();
    let pods = info(&s, "", "pods");
    let mut v = scheduled(Some(30));
    v["status"] = json!({"qosClass": "Guaranteed", "phase": "Running"});
    let created = PodStrategy
        .prepare_for_create(&s, &pods, pod(&s, v))
        .unwrap();
    let created = as_json(&*created);
    let expected = if cfg!(feature = "v1_37") {
        "BestEffort"
    } else {
        "Guaranteed"
    };
    assert_eq!(created["status"]["qosClass"], json!(expected));
    assert_eq!(created["status"]["phase"], json!("Pending"));
}

#[test]
fn an_update_leaving_out_pod_level_resources_keeps_them_on_1_37() {
    let s = scheme();
    let pods = info(&s, "", "pods");
    let mut old = scheduled(Some(30));
    old["spec"]["resources"] = json!({"limits": {"cpu": "1"}});
    let new = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*pod(&s, old.clone()),
            pod(&s, scheduled(Some(30))),
            Subresource::Main,
        )
        .unwrap();
    let new = as_json(&*new);
    if cfg!(feature = "v1_37") {
        assert_eq!(new["spec"]["resources"], old["spec"]["resources"]);
        // Kept, the spec is as it was: no new generation.
        assert_eq!(new["metadata"]["generation"], json!(1));
    } else {
        assert_eq!(new["spec"].get("resources"), None);
    }
    // Resources the write names are its own.
    let mut changed = old.clone();
    changed["spec"]["resources"] = json!({"limits": {"cpu": "2"}});
    let new = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*pod(&s, old),
            pod(&s, changed),
            Subresource::Main,
        )
        .unwrap();
    assert_eq!(
        as_json(&*new)["spec"]["resources"],
        json!({"limits": {"cpu": "2"}})
    );
}

#[test]
fn a_status_write_keeps_what_it_leaves_out() {
    let s = scheme();
    let pods = info(&s, "", "pods");
    let mut old = scheduled(Some(30));
    old["status"] = json!({
        "phase": "Pending",
        "qosClass": "Burstable",
        "observedGeneration": 3,
        "conditions": [
            {"type": "Ready", "status": "False", "observedGeneration": 2},
            {"type": "Ready", "status": "False", "observedGeneration": 1},
            {"type": "PodScheduled", "status": "True", "observedGeneration": 1},
        ],
        "resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "p-gpu"}],
    });
    let mut new = scheduled(Some(30));
    new["status"] = json!({
        "phase": "Running",
        "conditions": [
            {"type": "PodScheduled", "status": "True", "observedGeneration": 4},
            {"type": "Ready", "status": "True"},
            {"type": "Ready", "status": "True"},
            {"type": "Initialized", "status": "True"},
        ],
    });
    let written = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*pod(&s, old.clone()),
            pod(&s, new),
            Subresource::Status,
        )
        .unwrap();
    let status = &as_json(&*written)["status"];
    assert_eq!(status["phase"], json!("Running"));
    assert_eq!(status["qosClass"], json!("Burstable"));
    assert_eq!(status["observedGeneration"], json!(3));
    let generations: Vec<Value> = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.get("observedGeneration").cloned().unwrap_or(Value::Null))
        .collect();
    assert_eq!(generations, [json!(4), json!(2), json!(1), Value::Null]);
    if cfg!(feature = "v1_37") {
        assert_eq!(
            status["resourceClaimStatuses"],
            old["status"]["resourceClaimStatuses"]
        );
    } else {
        assert_eq!(status.get("resourceClaimStatuses"), None);
    }
}

/// `pods/resize`: the stored Pod with the written container resources (a new
/// generation), its labels and image kept; a removed limit refused by
/// `ValidatePodResize`.
#[test]
fn a_resize_takes_only_container_resources() {
    let s = scheme();
    let pods = info(&s, "", "pods");
    let resources = |cpu: &str| json!({"requests": {"cpu": cpu}, "limits": {"cpu": "1"}});
    let stored = |cpu: &str, image: &str, app: &str| {
        json!({"metadata": {"name": "p", "namespace": "ns", "generation": 1, "uid": "u",
            "resourceVersion": "5", "labels": {"app": app},
            "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"containers": [{"name": "c", "image": image, "resources": resources(cpu),
                "imagePullPolicy": "Always", "terminationMessagePolicy": "File",
                "terminationMessagePath": "/dev/termination-log"}],
                "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                "terminationGracePeriodSeconds": 30, "schedulerName": "default-scheduler"},
            "status": {"phase": "Pending", "qosClass": "Burstable"}})
    };
    let old = pod(&s, stored("100m", "i", "web"));
    let written = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*old,
            pod(&s, stored("200m", "j", "other")),
            Subresource::Resize,
        )
        .unwrap();
    let v = as_json(&*written);
    assert_eq!(v["spec"]["containers"][0]["resources"], resources("200m"));
    assert_eq!(v["spec"]["containers"][0]["image"], json!("i"));
    assert_eq!(v["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(v["metadata"]["generation"], json!(2));
    PodStrategy
        .validate(&s, &pods, &*written, Some(&*old), Subresource::Resize)
        .unwrap();
    let mut removed = stored("200m", "i", "web");
    removed["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "200m"}});
    let removed = pod(&s, removed);
    let err = PodStrategy
        .validate(&s, &pods, &*removed, Some(&*old), Subresource::Resize)
        .unwrap_err();
    assert!(
        err.to_string().contains(
            "spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed"
        ),
        "{err}"
    );
}

/// Go's pod status strategy keeps the finalizers a `/status` write sends (the stored
/// owner references are put back by the store, the Pods' `status_metadata` rule:
/// `registry::dependencies`; the server differential's Pod /status writes compare it).
#[test]
fn a_status_write_sets_finalizers() {
    let s = scheme();
    let pods = info(&s, "", "pods");
    let mut old = scheduled(Some(30));
    old["metadata"]["ownerReferences"] =
        json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "u"}]);
    let mut new = scheduled(Some(30));
    new["metadata"]["finalizers"] = json!(["example.com/hold"]);
    let written = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*pod(&s, old.clone()),
            pod(&s, new),
            Subresource::Status,
        )
        .unwrap();
    let meta = &as_json(&*written)["metadata"];
    assert_eq!(meta["finalizers"], json!(["example.com/hold"]));
    let held = as_json(&*written);
    let cleared = PodStrategy
        .prepare_for_update(
            &s,
            &pods,
            &*written,
            pod(&s, scheduled(Some(30))),
            Subresource::Status,
        )
        .unwrap();
    assert!(held["metadata"].get("finalizers").is_some());
    assert!(as_json(&*cleared)["metadata"].get("finalizers").is_none());
}

/// Go's Pod strategy warnings: AppArmor annotations first (its `PrepareForCreate`), the
/// hostname, then the Pod's own; its status strategy's IPs.
#[test]
fn pod_strategy_warnings() {
    let s = scheme();
    let info = info(&s, "", "pods");
    let pod = json!({"metadata": {"name": "a.b", "namespace": "d", "annotations": {
            "container.apparmor.security.beta.kubernetes.io/c": "unconfined"}},
        "spec": {"nodeSelector": {"beta.kubernetes.io/os": "linux"},
            "containers": [{"name": "c", "image": "i"}]},
        "status": {"podIPs": [{"ip": "010.0.0.1"}]}});
    let obj = from_value(&s, &info.storage_gvk, pod).unwrap();
    let w = PodStrategy.warnings_on_create(&*obj);
    assert_eq!(w.len(), 3, "{w:?}");
    assert_eq!(
        w[0],
        r#"metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead"#
    );
    assert!(w[1].starts_with("metadata.name: this is used in the Pod's hostname"));
    assert!(w[2].starts_with("spec.nodeSelector[beta.kubernetes.io/os]"));
    assert!(PodStrategy.warnings_on_update(&*obj, &*obj).is_empty());
    let status = PodStrategy.warnings_on_status_update(&*obj, &*obj);
    assert_eq!(status.len(), 1, "{status:?}");
    assert!(status[0].starts_with("status.podIPs[0].ip: "));
    // The annotation becomes the container's field on create; the Pod as created (what
    // the handler's warnings see) still has the warning.
    let created = PodStrategy.prepare_for_create(&s, &info, obj).unwrap();
    assert_eq!(PodStrategy.warnings_on_create(&*created), w);
    let created = to_json(&*created).unwrap();
    assert_eq!(
        created["spec"]["containers"][0]["securityContext"]["appArmorProfile"],
        json!({"type": "Unconfined"})
    );
    // An annotation naming the Pod's profile is neither copied nor warned about.
    let same = json!({"metadata": {"name": "p", "namespace": "d", "annotations": {
            "container.apparmor.security.beta.kubernetes.io/c": "localhost/x"}},
        "spec": {"securityContext": {"appArmorProfile": {"type": "Localhost", "localhostProfile": "x"}},
            "containers": [{"name": "c", "image": "i"}]}});
    let same = from_value(&s, &info.storage_gvk, same).unwrap();
    let same = PodStrategy.prepare_for_create(&s, &info, same).unwrap();
    assert!(PodStrategy.warnings_on_create(&*same).is_empty());
    assert!(
        to_json(&*same).unwrap()["spec"]["containers"][0]
            .get("securityContext")
            .and_then(|sc| sc.get("appArmorProfile"))
            .is_none()
    );
}
