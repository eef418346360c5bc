//! The REST storage of every built-in resource (Go's control plane installing each
//! group's `RESTStorageProvider`): each group's module says which of its resources have
//! something of their own; the others are served with the [`GenericStrategy`] over a
//! plain store.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;
use super::{ResourceInfo, resources_from_scheme};
use crate::resource_config::ResourceConfig;

/// The REST storage of every resource `deps.scheme` serves in a version `enabled`
/// turns on, by `(group, resource)`: each with the versions enabled (Go installs a
/// group version's storage only for the resources its `ResourceConfig` enables), a
/// resource none of whose versions is enabled not at all.
pub fn rest_storages(
    deps: &Dependencies,
    enabled: &ResourceConfig,
) -> BTreeMap<(String, String), Arc<dyn RestStorage>> {
    resources_from_scheme(&deps.scheme)
        .into_iter()
        .filter_map(|(key, mut info)| {
            info.versions
                .retain(|v| enabled.resource_enabled(&info.group, v, &info.resource));
            (!info.versions.is_empty()).then(|| (key, rest_storage(info, deps)))
        })
        .collect()
}

/// The REST storage of one built-in resource, from its group's module.
fn rest_storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.group.as_str() {
        "" => super::core::storage(info, deps),
        "apps" => super::apps::storage(info, deps),
        "admissionregistration.k8s.io" => super::admissionregistration::storage(info, deps),
        "apiextensions.k8s.io" => super::apiextensions::storage(info, deps),
        "apiregistration.k8s.io" => super::apiregistration::storage(info, deps),
        "internal.apiserver.k8s.io" => super::apiserverinternal::storage(info, deps),
        "authentication.k8s.io" => super::authentication::storage(info, deps),
        "authorization.k8s.io" => super::authorization::storage(info, deps),
        "autoscaling" => super::autoscaling::storage(info, deps),
        "batch" => super::batch::storage(info, deps),
        "certificates.k8s.io" => super::certificates::storage(info, deps),
        "coordination.k8s.io" => super::coordination::storage(info, deps),
        "discovery.k8s.io" => super::discovery::storage(info, deps),
        "events.k8s.io" => super::events::storage(info, deps),
        "flowcontrol.apiserver.k8s.io" => super::flowcontrol::storage(info, deps),
        #[cfg(feature = "v1_37")]
        "lifecycle.k8s.io" => super::lifecycle::storage(info, deps),
        "networking.k8s.io" => super::networking::storage(info, deps),
        "node.k8s.io" => super::node::storage(info, deps),
        "policy" => super::policy::storage(info, deps),
        "rbac.authorization.k8s.io" => super::rbac::storage(info, deps),
        "resource.k8s.io" => super::resource::storage(info, deps),
        "scheduling.k8s.io" => super::scheduling::storage(info, deps),
        "storage.k8s.io" => super::storage::storage(info, deps),
        "storagemigration.k8s.io" => super::storagemigration::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::authentication::Anonymous;
    use crate::authorization::AlwaysAllow;
    use crate::storage::MemoryStorage;
    use apimachinery::runtime::Scheme;
    use k8s_types as _;

    fn storages() -> BTreeMap<(String, String), Arc<dyn RestStorage>> {
        let mut scheme = Scheme::with_name("builtin-tests");
        scheme.add_registry().unwrap();
        rest_storages(
            &Dependencies {
                scheme: Arc::new(scheme),
                storage: Arc::new(MemoryStorage::new()),
                authenticator: Arc::new(Anonymous),
                authorizer: Arc::new(AlwaysAllow),
                service_account_tokens: None,
                service_network: Default::default(),
            },
            &ResourceConfig::kube_apiserver_default(),
        )
    }

    /// kube-apiserver's stores that set `ReturnDeletedObject`
    /// (`pkg/registry/*/*/storage/storage.go`) among those served by default (1.36's
    /// DeviceTaintRules' too, which are not): a name here that nothing serves would be
    /// a typo silently turning Go's answer back into a Status.
    #[test]
    fn exactly_gos_stores_return_deleted_objects() {
        let returning = [
            ("", "namespaces"),
            ("", "persistentvolumeclaims"),
            ("", "persistentvolumes"),
            ("", "pods"),
            ("", "podtemplates"),
            ("", "resourcequotas"),
            ("", "serviceaccounts"),
            ("", "services"),
            ("resource.k8s.io", "deviceclasses"),
            ("resource.k8s.io", "resourceclaims"),
            ("resource.k8s.io", "resourceclaimtemplates"),
            ("resource.k8s.io", "resourceslices"),
            ("storage.k8s.io", "csidrivers"),
            ("storage.k8s.io", "csinodes"),
            ("storage.k8s.io", "storageclasses"),
            ("storage.k8s.io", "volumeattachments"),
            ("storage.k8s.io", "volumeattributesclasses"),
        ];
        let storages = storages();
        for ((group, resource), rest) in &storages {
            let expected = returning.contains(&(group.as_str(), resource.as_str()));
            assert_eq!(
                rest.store().strategy().returns_deleted_object(),
                expected,
                "{resource}.{group}"
            );
        }
        for (group, resource) in returning {
            assert!(storages.contains_key(&(group.to_owned(), resource.to_owned())));
        }
    }

    /// The stores whose Go strategy's `AllowUnconditionalUpdate` is false, among every
    /// resource of the release (`--runtime-config=api/all=true`): an update of theirs
    /// that names no `resourceVersion` is refused. 1.37 made PodGroups' and Workloads'
    /// so, and brought CompositePodGroups, Evictions and EvictionRequests with it.
    /// The admission registration, certificates, coordination and storage version kinds
    /// are Go's too: not yet here.
    #[test]
    fn exactly_gos_strategies_refuse_unconditional_updates() {
        let mut refusing = vec![
            ("apiextensions.k8s.io", "customresourcedefinitions"),
            ("apiregistration.k8s.io", "apiservices"),
            ("node.k8s.io", "runtimeclasses"),
            ("policy", "poddisruptionbudgets"),
            ("resource.k8s.io", "resourcepoolstatusrequests"),
            ("storage.k8s.io", "csidrivers"),
            ("storage.k8s.io", "csinodes"),
            ("storage.k8s.io", "csistoragecapacities"),
            ("storage.k8s.io", "volumeattachments"),
            ("storagemigration.k8s.io", "storageversionmigrations"),
        ];
        if cfg!(feature = "v1_37") {
            refusing.extend([
                ("lifecycle.k8s.io", "evictionrequests"),
                ("lifecycle.k8s.io", "evictions"),
                ("scheduling.k8s.io", "compositepodgroups"),
                ("scheduling.k8s.io", "podgroups"),
                ("scheduling.k8s.io", "workloads"),
            ]);
        }
        let mut scheme = Scheme::with_name("builtin-tests");
        scheme.add_registry().unwrap();
        let mut all = ResourceConfig::kube_apiserver_default();
        all.apply_runtime_config("api/all=true", &scheme).unwrap();
        let deps = Dependencies {
            scheme: Arc::new(scheme),
            storage: Arc::new(MemoryStorage::new()),
            authenticator: Arc::new(Anonymous),
            authorizer: Arc::new(AlwaysAllow),
            service_account_tokens: None,
            service_network: Default::default(),
        };
        let storages = rest_storages(&deps, &all);
        let known = [
            "admissionregistration.k8s.io",
            "certificates.k8s.io",
            "coordination.k8s.io",
            "internal.apiserver.k8s.io",
        ];
        for ((group, resource), rest) in &storages {
            if known.contains(&group.as_str()) {
                continue;
            }
            let expected = refusing.contains(&(group.as_str(), resource.as_str()));
            assert_eq!(
                rest.store().strategy().allow_unconditional_update(),
                !expected,
                "{resource}.{group}"
            );
        }
        for (group, resource) in refusing {
            assert!(storages.contains_key(&(group.to_owned(), resource.to_owned())));
        }
    }

    /// Every kind with a pod template drops the template's legacy init-container
    /// annotations on create and on update (Go 1.37's `DropDisabledTemplateFields`
    /// callers; on 1.36 the conversions did it and the strategies leave them).
    #[test]
    fn every_pod_template_kind_drops_the_init_container_annotations() {
        use crate::registry::core::pod::template::tests::{annotated, expected};
        use crate::registry::{Subresource, from_value, to_json};
        use serde_json::{Value, json};

        let storages = storages();
        let template = json!({"metadata": {"annotations": annotated()},
            "spec": {"containers": [{"name": "c", "image": "i"}]}});
        let in_spec = json!({"spec": {"template": template}});
        let cases: [(&str, &str, Value, &str); 8] = [
            (
                "",
                "podtemplates",
                json!({"template": template}),
                "/template/metadata",
            ),
            (
                "",
                "replicationcontrollers",
                in_spec.clone(),
                "/spec/template/metadata",
            ),
            (
                "apps",
                "daemonsets",
                in_spec.clone(),
                "/spec/template/metadata",
            ),
            (
                "apps",
                "deployments",
                in_spec.clone(),
                "/spec/template/metadata",
            ),
            (
                "apps",
                "replicasets",
                in_spec.clone(),
                "/spec/template/metadata",
            ),
            (
                "apps",
                "statefulsets",
                in_spec.clone(),
                "/spec/template/metadata",
            ),
            ("batch", "jobs", in_spec, "/spec/template/metadata"),
            (
                "batch",
                "cronjobs",
                json!({"spec": {"jobTemplate": {"spec": {"template": template}}}}),
                "/spec/jobTemplate/spec/template/metadata",
            ),
        ];
        for (group, resource, mut obj, metadata) in cases {
            let store = storages[&(group.to_owned(), resource.to_owned())].store();
            let (scheme, info, strategy) = (store.scheme(), store.info(), store.strategy());
            obj["metadata"] = json!({"name": "x", "namespace": "d", "uid": "u"});
            let typed = from_value(scheme, &info.storage_gvk, obj.clone()).unwrap();
            let created =
                to_json(&*strategy.prepare_for_create(scheme, info, typed).unwrap()).unwrap();
            let annotations = &created.pointer(metadata).unwrap()["annotations"];
            assert_eq!(annotations, &expected(), "{resource} created");
            let old = from_value(scheme, &info.storage_gvk, created).unwrap();
            let new = from_value(scheme, &info.storage_gvk, obj).unwrap();
            let updated = strategy
                .prepare_for_update(scheme, info, &*old, new, Subresource::Main)
                .unwrap();
            let updated = to_json(&*updated).unwrap();
            let annotations = &updated.pointer(metadata).unwrap()["annotations"];
            assert_eq!(annotations, &expected(), "{resource} updated");
        }
    }

    #[test]
    fn the_scalable_workloads_serve_scale_and_only_pods_are_deleted_gracefully() {
        let storages = storages();
        let scalable: Vec<String> = storages
            .iter()
            .filter(|(_, rest)| rest.scaler().is_some())
            .map(|((group, resource), rest)| {
                assert!(rest.store().info().has_scale);
                format!("{resource}.{group}")
            })
            .collect();
        assert_eq!(
            scalable,
            [
                "replicationcontrollers.",
                "deployments.apps",
                "replicasets.apps",
                "statefulsets.apps"
            ]
        );
        let graceful: Vec<&str> = storages
            .iter()
            .filter(|(_, rest)| {
                let pod = serde_json::json!({"metadata": {"name": "p"}, "spec": {"nodeName": "n"}});
                let info = rest.store().info();
                let obj =
                    crate::registry::from_value(rest.store().scheme(), &info.storage_gvk, pod);
                obj.is_ok_and(|o| {
                    rest.store()
                        .strategy()
                        .check_graceful_delete(&*o, Some(5))
                        .unwrap()
                        .is_some()
                })
            })
            .map(|((_, resource), _)| resource.as_str())
            .collect();
        assert_eq!(graceful, ["pods"]);
    }
}
