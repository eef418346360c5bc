//! The hand-written conversions of `k8s_types::conversions` (integration tests, so that
//! `cargo test` does not compile the generated crate a second time for unit tests).

#[cfg(test)]
#[cfg(feature = "extensions")]
mod daemon_set {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::conversions::daemon_set::*;
    use k8s_types::{apps, extensions};

    #[test]
    fn template_generation_round_trips_through_the_annotation() {
        let s = Scope::new();
        let mut d = extensions::v1beta1::DaemonSet::default();
        d.spec.template_generation = 7;
        let hub: apps::v1::DaemonSet = d.convert_ref(&s).unwrap();
        assert_eq!(
            hub.metadata.annotations[DEPRECATED_TEMPLATE_GENERATION],
            "7"
        );
        let back: extensions::v1beta1::DaemonSet = hub.convert(&s).unwrap();
        assert_eq!(back, d);
    }
}

#[cfg(test)]
#[cfg(feature = "extensions")]
mod deployment {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::conversions::deployment::*;
    use k8s_types::{apps, extensions};

    fn old() -> extensions::v1beta1::Deployment {
        serde_json::from_str(
            r#"{"apiVersion":"extensions/v1beta1","kind":"Deployment","metadata":{"name":"web","annotations":{"a":"b"}},
            "spec":{"replicas":2,"rollbackTo":{"revision":4},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
            "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"}}}}"#,
        )
        .unwrap()
    }

    #[test]
    fn rollback_to_lives_in_the_annotation_of_apps_v1_and_comes_back() {
        let s = Scope::new();
        let d = old();
        let hub: apps::v1::Deployment = d.convert_ref(&s).unwrap();
        assert_eq!(hub.metadata.annotations[DEPRECATED_ROLLBACK_TO], "4");
        assert_eq!(hub.metadata.annotations["a"], "b");
        let spec = &hub.spec;
        assert_eq!(spec.replicas, Some(2));
        assert_eq!(spec.template.metadata.labels["app"], "web");
        let back: extensions::v1beta1::Deployment = hub.clone().convert(&s).unwrap();
        assert_eq!(back, d);
        // Through apps/v1beta1 and back to the hub: the same hub object.
        let beta: apps::v1beta1::Deployment = hub.convert_ref(&s).unwrap();
        assert_eq!(beta.spec.rollback_to.as_ref().map(|r| r.revision), Some(4));
        assert!(
            !beta
                .metadata
                .annotations
                .contains_key(DEPRECATED_ROLLBACK_TO)
        );
        let hub2: apps::v1::Deployment = beta.convert(&s).unwrap();
        assert_eq!(hub2, hub);
    }

    #[test]
    fn without_rollback_to_a_stale_annotation_is_dropped() {
        let mut d = old();
        d.spec.rollback_to = None;
        d.metadata
            .annotations
            .insert(DEPRECATED_ROLLBACK_TO.into(), "9".into());
        let hub: apps::v1::Deployment = d.convert_ref(&Scope::new()).unwrap();
        assert!(
            !hub.metadata
                .annotations
                .contains_key(DEPRECATED_ROLLBACK_TO)
        );
    }

    #[test]
    fn a_bad_annotation_is_an_error_naming_it() {
        let mut hub = apps::v1::Deployment::default();
        hub.metadata
            .annotations
            .insert(DEPRECATED_ROLLBACK_TO.into(), "three".into());
        let err = Convert::<extensions::v1beta1::Deployment>::convert_ref(&hub, &Scope::new())
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("three") && text.contains(DEPRECATED_ROLLBACK_TO),
            "{text}"
        );
        assert!(
            err.path().starts_with("metadata.annotations"),
            "{}",
            err.path()
        );
    }
}

#[cfg(test)]
#[cfg(feature = "autoscaling")]
mod horizontal_pod_autoscaler {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::autoscaling::{v1, v2};
    use k8s_types::conversions::horizontal_pod_autoscaler::*;

    fn v2_object() -> v2::HorizontalPodAutoscaler {
        serde_json::from_str(
            r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","annotations":{"a":"b"}},
            "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":10,
              "metrics":[
                {"type":"Pods","pods":{"metric":{"name":"rps"},"target":{"type":"AverageValue","averageValue":"100"}}},
                {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}},
                {"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"jobs"}}},"target":{"type":"Value","value":"30"}}}],
              "behavior":{"scaleDown":{"stabilizationWindowSeconds":300,"policies":[{"type":"Percent","value":10,"periodSeconds":60}],"tolerance":"50m"}}},
            "status":{"currentReplicas":3,"desiredReplicas":4,
              "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"250m","averageUtilization":72}}}],
              "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-11-21T10:00:00Z","reason":"ReadyForNewScale"}]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn v2_fields_v1_lacks_live_in_annotations_and_come_back() {
        let s = Scope::new();
        let hub = v2_object();
        let old: v1::HorizontalPodAutoscaler = hub.convert_ref(&s).unwrap();
        assert_eq!(old.spec.target_cpu_utilization_percentage, Some(60));
        let status = &old.status;
        assert_eq!(status.current_cpu_utilization_percentage, Some(72));
        assert_eq!(status.current_replicas, 3);
        let a = &old.metadata.annotations;
        assert_eq!(a["a"], "b");
        assert_eq!(
            a[METRIC_SPECS],
            r#"[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"100"}},{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"jobs"}},"targetValue":"30"}}]"#
        );
        assert_eq!(
            a[METRIC_STATUSES],
            r#"[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":72,"currentAverageValue":"250m"}}]"#
        );
        assert_eq!(
            a[CONDITIONS],
            r#"[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-11-21T10:00:00Z","reason":"ReadyForNewScale"}]"#
        );
        assert_eq!(
            a[BEHAVIOR],
            r#"{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":null,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":"50m"}}"#
        );
        let back: v2::HorizontalPodAutoscaler = old.convert(&s).unwrap();
        let mut expected = hub;
        // The CPU target comes after the metrics carried in the annotation.
        expected.spec.metrics.swap(1, 2);
        assert_eq!(back, expected);
    }

    #[test]
    fn a_v1_object_without_target_gets_the_implied_80_percent() {
        let s = Scope::new();
        let old: v1::HorizontalPodAutoscaler = serde_json::from_str(
            r#"{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},
            "spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":5}}"#,
        )
        .unwrap();
        let hub: v2::HorizontalPodAutoscaler = old.convert_ref(&s).unwrap();
        let cpu = hub.spec.metrics[0].resource.as_ref().unwrap();
        assert_eq!(hub.spec.metrics.len(), 1);
        assert_eq!(cpu.name, "cpu");
        assert_eq!(cpu.target.r#type, "Utilization");
        assert_eq!(
            cpu.target.average_utilization,
            Some(DEFAULT_CPU_UTILIZATION)
        );
        let again: v1::HorizontalPodAutoscaler = hub.convert(&s).unwrap();
        assert_eq!(again.spec.target_cpu_utilization_percentage, Some(80));
        assert!(again.metadata.annotations.is_empty());
    }

    #[test]
    fn invalid_annotation_json_is_an_error_at_the_annotation() {
        let s = Scope::new();
        let mut old = v1::HorizontalPodAutoscaler::default();
        old.metadata
            .annotations
            .insert(METRIC_SPECS.to_owned(), "[{".to_owned());
        let err = Convert::<v2::HorizontalPodAutoscaler>::convert_ref(&old, &s).unwrap_err();
        assert!(err.path().contains("metadata.annotations"), "{err}");
        assert!(err.to_string().contains(METRIC_SPECS), "{err}");
    }
}

#[cfg(test)]
#[cfg(feature = "extensions")]
mod ingress {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::{extensions, networking};

    #[test]
    fn backends_become_services_with_numbered_or_named_ports_and_back() {
        let s = Scope::new();
        let old: extensions::v1beta1::Ingress = serde_json::from_str(
            r#"{"spec":{"backend":{"serviceName":"default","servicePort":80},
            "rules":[{"host":"a.example","http":{"paths":[{"path":"/","backend":{"serviceName":"web","servicePort":"http"}}]}}]}}"#,
        )
        .unwrap();
        let hub: networking::v1::Ingress = old.convert_ref(&s).unwrap();
        let json = serde_json::to_value(&hub).unwrap();
        assert_eq!(
            json["spec"]["defaultBackend"],
            serde_json::json!({"service":{"name":"default","port":{"number":80}}})
        );
        assert_eq!(
            json["spec"]["rules"][0]["http"]["paths"][0]["backend"],
            serde_json::json!({"service":{"name":"web","port":{"name":"http"}}})
        );
        let back: extensions::v1beta1::Ingress = hub.clone().convert(&s).unwrap();
        assert_eq!(back, old);
        let beta: networking::v1beta1::Ingress = hub.convert_ref(&s).unwrap();
        let again: networking::v1::Ingress = beta.convert(&s).unwrap();
        assert_eq!(again, hub);
    }

    #[test]
    fn a_resource_backend_has_no_service() {
        let s = Scope::new();
        let old: extensions::v1beta1::IngressBackend = serde_json::from_str(
            r#"{"resource":{"apiGroup":"k8s.example.com","kind":"StorageBucket","name":"static"}}"#,
        )
        .unwrap();
        let hub: networking::v1::IngressBackend = old.convert_ref(&s).unwrap();
        assert!(hub.service.is_none());
        assert_eq!(hub.resource.as_ref().unwrap().name, "static");
        let back: extensions::v1beta1::IngressBackend = hub.convert(&s).unwrap();
        assert_eq!(back, old);
    }
}

#[cfg(test)]
#[cfg(feature = "policy")]
mod pod_disruption_budget {
    use apimachinery::apis::meta::v1::LabelSelector;
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::conversions::pod_disruption_budget::*;
    use k8s_types::policy;

    fn with_selector(selector: Option<LabelSelector>) -> policy::v1beta1::PodDisruptionBudget {
        let mut p = policy::v1beta1::PodDisruptionBudget::default();
        let spec = &mut p.spec;
        spec.selector = selector;
        spec.min_available = Some(k8s_types::value::IntOrString::Int(1));
        p
    }

    #[test]
    fn empty_selectors_keep_their_meaning_both_ways() {
        let s = Scope::new();
        let none = with_selector(Some(LabelSelector::default()));
        let hub: policy::v1::PodDisruptionBudget = none.convert_ref(&s).unwrap();
        assert_eq!(hub.spec.selector, Some(non_v1beta1_match_none_selector()));
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, none);

        let all = with_selector(Some(v1beta1_match_all_selector()));
        let hub: policy::v1::PodDisruptionBudget = all.convert_ref(&s).unwrap();
        assert_eq!(hub.spec.selector, Some(LabelSelector::default()));
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn ordinary_selectors_pass_and_lose_the_reserved_label() {
        let s = Scope::new();
        let mut sel = LabelSelector::default();
        sel.match_labels.insert("app".into(), "web".into());
        let p = with_selector(Some(sel.clone()));
        let hub: policy::v1::PodDisruptionBudget = p.convert_ref(&s).unwrap();
        assert_eq!(hub.spec.selector, Some(sel.clone()));
        assert_eq!(
            hub.spec.min_available,
            Some(k8s_types::value::IntOrString::Int(1))
        );
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, p);

        let mut tainted = sel.clone();
        tainted
            .match_expressions
            .extend(v1beta1_match_all_selector().match_expressions);
        let hub: policy::v1::PodDisruptionBudget =
            with_selector(Some(tainted)).convert_ref(&s).unwrap();
        assert_eq!(hub.spec.selector, Some(sel));
    }
}

#[cfg(test)]
#[cfg(feature = "node")]
mod runtime_class {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::node::{v1, v1alpha1};

    #[test]
    fn spec_fields_move_to_the_top_and_back() {
        let s = Scope::new();
        let old: v1alpha1::RuntimeClass = serde_json::from_str(
            r#"{"apiVersion":"node.k8s.io/v1alpha1","kind":"RuntimeClass","metadata":{"name":"gvisor"},
            "spec":{"runtimeHandler":"runsc","overhead":{"podFixed":{"cpu":"250m"}},
              "scheduling":{"nodeSelector":{"sandbox":"true"},"tolerations":[{"key":"sandbox","operator":"Exists"}]}}}"#,
        )
        .unwrap();
        let hub: v1::RuntimeClass = old.convert_ref(&s).unwrap();
        assert_eq!(hub.handler, "runsc");
        assert_eq!(hub.metadata.name, "gvisor");
        assert_eq!(
            hub.overhead.as_ref().unwrap().pod_fixed["cpu"].to_string(),
            "250m"
        );
        assert_eq!(
            hub.scheduling.as_ref().unwrap().node_selector["sandbox"],
            "true"
        );
        let back: v1alpha1::RuntimeClass = hub.convert(&s).unwrap();
        assert_eq!(back.spec, old.spec);
    }
}

#[cfg(test)]
#[cfg(feature = "apiextensions")]
mod custom_resource_definition {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::apiextensions::{v1, v1beta1};
    use k8s_types::custom::apiextensions::JSON;
    use serde_json::json;

    fn old() -> v1beta1::CustomResourceDefinition {
        serde_json::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1beta1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {
                "group": "stable.example.com",
                "version": "v1",
                "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
                "scope": "Namespaced",
                "validation": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {"cronSpec": {"type": "string"}}}}}},
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
                "additionalPrinterColumns": [{"name": "Spec", "type": "string", "JSONPath": ".spec.cronSpec"}],
                "conversion": {"strategy": "Webhook", "conversionReviewVersions": ["v1beta1"],
                    "webhookClientConfig": {"service": {"namespace": "crd", "name": "conv", "path": "/convert"}}}
            }
        }))
        .unwrap()
    }

    #[test]
    fn spec_wide_fields_go_into_every_version_and_the_webhook_into_webhook() {
        let s = Scope::new();
        let hub: v1::CustomResourceDefinition = old().convert_ref(&s).unwrap();
        assert_eq!(
            serde_json::to_value(&hub.spec).unwrap(),
            json!({
                "group": "stable.example.com",
                "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
                "scope": "Namespaced",
                "versions": [{
                    "name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                        "spec": {"type": "object", "properties": {"cronSpec": {"type": "string"}}}}}},
                    "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
                    "additionalPrinterColumns": [{"name": "Spec", "type": "string", "jsonPath": ".spec.cronSpec"}]
                }],
                "conversion": {"strategy": "Webhook", "webhook": {
                    "clientConfig": {"service": {"namespace": "crd", "name": "conv", "path": "/convert"}},
                    "conversionReviewVersions": ["v1beta1"]}}
            })
        );
        // Back: the same spec-wide fields; `versions` and `preserveUnknownFields` are
        // now set, as in Go.
        let back: v1beta1::CustomResourceDefinition = hub.clone().convert(&s).unwrap();
        let mut expected = old();
        expected.spec.versions = vec![v1beta1::CustomResourceDefinitionVersion {
            name: "v1".into(),
            served: true,
            storage: true,
            ..Default::default()
        }];
        expected.spec.preserve_unknown_fields = Some(false);
        assert_eq!(back, expected);
        let again: v1::CustomResourceDefinition = back.convert(&s).unwrap();
        assert_eq!(again, hub);
    }

    fn version(name: &str, schema_type: &str) -> v1::CustomResourceDefinitionVersion {
        serde_json::from_value(json!({
            "name": name, "served": true, "storage": name == "v2",
            "schema": {"openAPIV3Schema": {"type": schema_type}},
            "subresources": {"status": {}},
            "additionalPrinterColumns": [{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}],
            "selectableFields": [{"jsonPath": ".spec.color"}]
        }))
        .unwrap()
    }

    #[test]
    fn only_what_every_version_shares_moves_to_the_v1beta1_spec() {
        let s = Scope::new();
        let mut hub = v1::CustomResourceDefinition::default();
        hub.spec.group = "example.com".into();
        hub.spec.versions = Some(vec![version("v1", "object"), version("v2", "string")]);
        hub.spec.preserve_unknown_fields = true;
        let old: v1beta1::CustomResourceDefinition = hub.convert_ref(&s).unwrap();
        let spec = &old.spec;
        assert_eq!(spec.version, "v1");
        assert_eq!(spec.preserve_unknown_fields, Some(true));
        assert!(spec.subresources.as_ref().unwrap().status.is_some());
        assert_eq!(spec.additional_printer_columns[0].name, "Age");
        assert_eq!(spec.selectable_fields[0].json_path, ".spec.color");
        // The schemas differ, so they stay per version.
        assert!(spec.validation.is_none());
        for v in &spec.versions {
            assert!(v.schema.is_some());
            assert!(v.selectable_fields.is_empty());
            assert!(v.subresources.is_none());
            assert!(v.additional_printer_columns.is_empty());
        }
        let back: v1::CustomResourceDefinition = old.convert(&s).unwrap();
        assert_eq!(back, hub);

        // With equal schemas, the schema moves too; with different columns, the columns
        // stay.
        let mut versions = vec![version("v1", "object"), version("v2", "object")];
        versions[1].additional_printer_columns.clear();
        hub.spec.versions = Some(versions);
        let old: v1beta1::CustomResourceDefinition = hub.convert_ref(&s).unwrap();
        assert!(old.spec.validation.is_some());
        assert!(old.spec.additional_printer_columns.is_empty());
        assert!(old.spec.versions.iter().all(|v| v.schema.is_none()));
        assert_eq!(old.spec.versions[0].additional_printer_columns.len(), 1);
        let back: v1::CustomResourceDefinition = old.convert(&s).unwrap();
        assert_eq!(back, hub);
    }

    #[test]
    fn a_null_default_or_example_is_unset_at_any_depth() {
        let s = Scope::new();
        let mut inner = v1beta1::JSONSchemaProps {
            default: Some(JSON(serde_json::Value::Null)),
            ..Default::default()
        };
        inner.example = Some(JSON(json!(null)));
        let mut root = v1beta1::JSONSchemaProps {
            default: Some(JSON(json!({"a": 1}))),
            ..Default::default()
        };
        root.properties.insert("a".into(), inner);
        let mut old = v1beta1::CustomResourceDefinition::default();
        old.spec.version = "v1".into();
        old.spec.validation = Some(v1beta1::CustomResourceValidation {
            open_apiv3_schema: Some(root),
        });
        let hub: v1::CustomResourceDefinition = old.convert_ref(&s).unwrap();
        let versions = hub.spec.versions.as_deref().unwrap();
        let schema = versions[0]
            .schema
            .as_ref()
            .unwrap()
            .open_apiv3_schema
            .as_ref()
            .unwrap();
        assert_eq!(schema.default, Some(JSON(json!({"a": 1}))));
        assert_eq!(schema.properties["a"], v1::JSONSchemaProps::default());
    }

    #[test]
    fn webhook_settings_without_a_client_config_and_an_empty_webhook() {
        let s = Scope::new();
        let old = v1beta1::CustomResourceConversion {
            strategy: "Webhook".into(),
            webhook_client_config: None,
            conversion_review_versions: vec!["v1".into()],
        };
        let hub: v1::CustomResourceConversion = old.convert_ref(&s).unwrap();
        let webhook = hub.webhook.as_ref().unwrap();
        assert!(webhook.client_config.is_none());
        assert_eq!(webhook.conversion_review_versions, Some(vec!["v1".into()]));
        let back: v1beta1::CustomResourceConversion = hub.convert(&s).unwrap();
        assert_eq!(back, old);
        // A webhook with nothing in it has no place in `v1beta1`: it is dropped, as in Go.
        let empty = v1::CustomResourceConversion {
            strategy: "None".into(),
            webhook: Some(v1::WebhookConversion::default()),
        };
        let old: v1beta1::CustomResourceConversion = empty.convert_ref(&s).unwrap();
        let again: v1::CustomResourceConversion = old.convert(&s).unwrap();
        assert_eq!(again.webhook, None);
    }

    #[test]
    fn lists_convert_through_the_scheme_with_the_defaults_v1_requires() {
        let scheme = apimachinery::runtime::Scheme::from_registry().unwrap();
        let mut item = old();
        item.spec.scope = String::new();
        item.spec
            .conversion
            .as_mut()
            .unwrap()
            .conversion_review_versions
            .clear();
        scheme.default(&mut item);
        assert_eq!(item.spec.scope, k8s_types::defaults::CRD_DEFAULT_SCOPE);
        assert_eq!(
            item.spec
                .conversion
                .as_ref()
                .unwrap()
                .conversion_review_versions,
            ["v1beta1"]
        );
        let list = v1beta1::CustomResourceDefinitionList {
            items: Some(vec![item]),
            ..Default::default()
        };
        let hub: v1::CustomResourceDefinitionList = scheme.convert(&list).unwrap();
        let items = hub.items.as_deref().unwrap();
        assert_eq!(items[0].spec.versions.as_deref().unwrap()[0].name, "v1");
    }
}

#[cfg(test)]
#[cfg(feature = "discovery")]
mod endpoint_slice {
    use std::collections::BTreeMap;

    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::conversions::endpoint_slice::*;
    use k8s_types::discovery::{v1, v1beta1};

    fn endpoint(topology: &[(&str, &str)], node_name: Option<&str>) -> v1beta1::Endpoint {
        v1beta1::Endpoint {
            addresses: Some(vec!["10.0.0.1".into()]),
            topology: topology
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            node_name: node_name.map(str::to_owned),
            ..Default::default()
        }
    }

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn zone_and_hostname_labels_become_fields() {
        let s = Scope::new();
        let old = endpoint(
            &[
                (LABEL_TOPOLOGY_ZONE, "us-east-1a"),
                (LABEL_HOSTNAME, "node-1"),
                ("rack", "r7"),
            ],
            None,
        );
        let hub: v1::Endpoint = old.convert_ref(&s).unwrap();
        assert_eq!(hub.zone.as_deref(), Some("us-east-1a"));
        assert_eq!(hub.node_name.as_deref(), Some("node-1"));
        assert_eq!(hub.deprecated_topology, map(&[("rack", "r7")]));
        assert_eq!(hub.addresses, old.addresses);
        // Back: the labels again, and `nodeName` now set (Go's loss).
        let back: v1beta1::Endpoint = hub.clone().convert(&s).unwrap();
        assert_eq!(back.topology, old.topology);
        assert_eq!(back.node_name.as_deref(), Some("node-1"));
        let again: v1::Endpoint = back.convert(&s).unwrap();
        assert_eq!(again, hub);
    }

    #[test]
    fn a_hostname_label_other_than_the_node_name_stays() {
        let s = Scope::new();
        let old = endpoint(&[(LABEL_HOSTNAME, "host-a")], Some("node-1"));
        let hub: v1::Endpoint = old.convert_ref(&s).unwrap();
        assert_eq!(hub.node_name.as_deref(), Some("node-1"));
        assert_eq!(hub.deprecated_topology, map(&[(LABEL_HOSTNAME, "host-a")]));
        let back: v1beta1::Endpoint = hub.convert(&s).unwrap();
        assert_eq!(back, old);

        let same = endpoint(&[(LABEL_HOSTNAME, "node-1")], Some("node-1"));
        let hub: v1::Endpoint = same.convert_ref(&s).unwrap();
        assert!(hub.deprecated_topology.is_empty());
        let back: v1beta1::Endpoint = hub.convert(&s).unwrap();
        assert_eq!(back, same);
    }

    #[test]
    fn a_node_name_gains_the_hostname_label_and_v1_fields_come_back() {
        let s = Scope::new();
        let old = endpoint(&[], Some("node-1"));
        let hub: v1::Endpoint = old.convert_ref(&s).unwrap();
        assert!(hub.deprecated_topology.is_empty() && hub.zone.is_none());
        let back: v1beta1::Endpoint = hub.convert(&s).unwrap();
        assert_eq!(back.topology, map(&[(LABEL_HOSTNAME, "node-1")]));

        let hub = v1::Endpoint {
            zone: Some("z".into()),
            node_name: Some("n".into()),
            deprecated_topology: map(&[("rack", "r1")]),
            ..Default::default()
        };
        let old: v1beta1::Endpoint = hub.convert_ref(&s).unwrap();
        assert_eq!(
            old.topology,
            map(&[
                (LABEL_TOPOLOGY_ZONE, "z"),
                (LABEL_HOSTNAME, "n"),
                ("rack", "r1")
            ])
        );
        let back: v1::Endpoint = old.convert(&s).unwrap();
        assert_eq!(back, hub);
        // Nothing to carry: no topology.
        let bare: v1beta1::Endpoint = v1::Endpoint::default().convert(&s).unwrap();
        assert!(bare.topology.is_empty());
    }

    #[test]
    fn slices_and_lists_convert_every_endpoint() {
        let s = Scope::new();
        let slice: v1beta1::EndpointSlice = serde_json::from_str(
            r#"{"apiVersion":"discovery.k8s.io/v1beta1","kind":"EndpointSlice","metadata":{"name":"web-abc"},
            "addressType":"IPv4","ports":[{"name":"http","port":80,"protocol":"TCP"}],
            "endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true},"topology":{"topology.kubernetes.io/zone":"a"}},
              {"addresses":["10.0.0.2"],"hints":{"forZones":[{"name":"b"}]},"topology":{"topology.kubernetes.io/zone":"b"}}]}"#,
        )
        .unwrap();
        let list = v1beta1::EndpointSliceList {
            items: Some(vec![slice]),
            ..Default::default()
        };
        let hub: v1::EndpointSliceList = list.convert_ref(&s).unwrap();
        let endpoints = hub.items.as_deref().unwrap()[0]
            .endpoints
            .as_deref()
            .unwrap();
        assert_eq!(endpoints[0].zone.as_deref(), Some("a"));
        assert_eq!(endpoints[0].conditions.ready, Some(true));
        assert_eq!(endpoints[1].zone.as_deref(), Some("b"));
        assert_eq!(endpoints[1].hints.as_ref().unwrap().for_zones[0].name, "b");
        let back: v1beta1::EndpointSliceList = hub.convert(&s).unwrap();
        assert_eq!(back, list);
    }
}

#[cfg(test)]
#[cfg(feature = "rbac")]
mod role_binding {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::conversions::role_binding::*;
    use k8s_types::rbac::{v1, v1alpha1};

    fn old(kind: &str, api_version: &str, name: &str) -> v1alpha1::Subject {
        v1alpha1::Subject {
            kind: kind.into(),
            api_version: api_version.into(),
            name: name.into(),
            namespace: String::new(),
        }
    }

    fn hub(kind: &str, api_group: &str, name: &str) -> v1::Subject {
        v1::Subject {
            kind: kind.into(),
            api_group: api_group.into(),
            name: name.into(),
            namespace: String::new(),
        }
    }

    #[test]
    fn api_versions_become_groups_as_go_reads_them() {
        let s = Scope::new();
        let cases = [
            // Known kinds get their group whatever the version says.
            (
                old("ServiceAccount", "", "sa"),
                hub("ServiceAccount", "", "sa"),
            ),
            (
                old("ServiceAccount", "example.com/v1", "sa"),
                hub("ServiceAccount", "", "sa"),
            ),
            (old("User", "", "jane"), hub("User", RBAC_GROUP, "jane")),
            (old("Group", "v1", "devs"), hub("Group", RBAC_GROUP, "devs")),
            // Other kinds: the group of the version, none when it does not parse.
            (
                old("Robot", "robots.example.com/v2", "r2"),
                hub("Robot", "robots.example.com", "r2"),
            ),
            (old("Robot", "v1", "r2"), hub("Robot", "", "r2")),
            (old("Robot", "a/b/c", "r2"), hub("Robot", "", "r2")),
            // v1alpha1's `User *` is every authenticated user.
            (
                old("User", RBAC_V1ALPHA1, "*"),
                hub("Group", RBAC_GROUP, ALL_AUTHENTICATED),
            ),
        ];
        for (from, to) in cases {
            let got: v1::Subject = from.convert_ref(&s).unwrap();
            assert_eq!(got, to, "{from:?}");
        }
    }

    #[test]
    fn groups_become_api_versions_and_back() {
        let s = Scope::new();
        let cases = [
            (hub("ServiceAccount", "", "sa"), "v1"),
            (hub("User", RBAC_GROUP, "jane"), RBAC_V1ALPHA1),
            (hub("Group", RBAC_GROUP, "devs"), RBAC_V1ALPHA1),
            (
                hub("Robot", "robots.example.com", "r2"),
                "robots.example.com/",
            ),
            (hub("User", "", "jane"), ""),
        ];
        for (from, api_version) in cases {
            let got: v1alpha1::Subject = from.convert_ref(&s).unwrap();
            assert_eq!(got.api_version, api_version, "{from:?}");
            assert_eq!((&got.kind, &got.name), (&from.kind, &from.name));
            if from.api_group == RBAC_GROUP || from.kind == "ServiceAccount" {
                let back: v1::Subject = got.convert(&s).unwrap();
                assert_eq!(back, from);
            }
        }
    }

    #[test]
    fn bindings_and_their_lists_convert_every_subject() {
        let s = Scope::new();
        let binding: v1alpha1::RoleBinding = serde_json::from_str(
            r#"{"apiVersion":"rbac.authorization.k8s.io/v1alpha1","kind":"RoleBinding","metadata":{"name":"read-pods","namespace":"default"},
            "subjects":[{"kind":"User","apiVersion":"rbac.authorization.k8s.io/v1alpha1","name":"jane"},
              {"kind":"ServiceAccount","apiVersion":"v1","name":"builder","namespace":"ci"}],
            "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"pod-reader"}}"#,
        )
        .unwrap();
        let hub: v1::RoleBinding = binding.convert_ref(&s).unwrap();
        assert_eq!(
            serde_json::to_value(&hub.subjects).unwrap(),
            serde_json::json!([{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"jane"},
                {"kind":"ServiceAccount","name":"builder","namespace":"ci"}])
        );
        assert_eq!(hub.role_ref.name, "pod-reader");
        let back: v1alpha1::RoleBinding = hub.convert(&s).unwrap();
        assert_eq!(back, binding);

        let cluster = v1alpha1::ClusterRoleBindingList {
            items: Some(vec![v1alpha1::ClusterRoleBinding {
                subjects: vec![old("User", "", "*")],
                ..Default::default()
            }]),
            ..Default::default()
        };
        let hub: v1::ClusterRoleBindingList = cluster.convert_ref(&s).unwrap();
        assert_eq!(
            hub.items.as_deref().unwrap()[0].subjects,
            [v1::Subject {
                kind: "Group".into(),
                api_group: RBAC_GROUP.into(),
                name: ALL_AUTHENTICATED.into(),
                namespace: String::new()
            }]
        );
    }
}

#[cfg(test)]
#[cfg(feature = "resource")]
mod resource_claim {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::resource::{v1, v1beta1};
    use serde_json::json;

    fn claim() -> v1beta1::ResourceClaim {
        serde_json::from_value(json!({
            "apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaim",
            "metadata": {"name": "gpu", "namespace": "ml"},
            "spec": {"devices": {"requests": [
                {"name": "gpu", "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 2,
                 "selectors": [{"cel": {"expression": "device.attributes[\"gpu.example.com\"].memory >= 40"}}],
                 "adminAccess": false,
                 "tolerations": [{"key": "maintenance", "operator": "Exists", "effect": "NoSchedule"}],
                 "capacity": {"requests": {"memory": "10Gi"}}},
                {"name": "nic", "firstAvailable": [
                    {"name": "fast", "deviceClassName": "nic.example.com", "allocationMode": "ExactCount", "count": 1},
                    {"name": "slow", "deviceClassName": "nic.example.com", "allocationMode": "All"}]}
            ]}}
        }))
        .unwrap()
    }

    #[test]
    fn a_request_s_own_fields_are_v1_s_exactly_and_come_back() {
        let s = Scope::new();
        let old = claim();
        let hub: v1::ResourceClaim = old.convert_ref(&s).unwrap();
        let requests = serde_json::to_value(&hub.spec.devices.requests).unwrap();
        assert_eq!(
            requests,
            json!([
                {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com",
                    "selectors": [{"cel": {"expression": "device.attributes[\"gpu.example.com\"].memory >= 40"}}],
                    "allocationMode": "ExactCount", "count": 2, "adminAccess": false,
                    "tolerations": [{"key": "maintenance", "operator": "Exists", "effect": "NoSchedule"}],
                    "capacity": {"requests": {"memory": "10Gi"}}}},
                {"name": "nic", "firstAvailable": [
                    {"name": "fast", "deviceClassName": "nic.example.com", "allocationMode": "ExactCount", "count": 1},
                    {"name": "slow", "deviceClassName": "nic.example.com", "allocationMode": "All"}]}
            ])
        );
        let back: v1beta1::ResourceClaim = hub.clone().convert(&s).unwrap();
        assert_eq!(back, old);
        // The template holds the same spec.
        let template = v1beta1::ResourceClaimTemplate {
            spec: v1beta1::ResourceClaimTemplateSpec {
                spec: old.spec.clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        let hub_template: v1::ResourceClaimTemplate = template.convert_ref(&s).unwrap();
        assert_eq!(hub_template.spec.spec, hub.spec);
        let back: v1beta1::ResourceClaimTemplate = hub_template.convert(&s).unwrap();
        assert_eq!(back, template);
    }

    #[test]
    fn an_exactly_with_nothing_set_is_lost_as_in_go() {
        let s = Scope::new();
        let hub = v1::DeviceRequest {
            name: "empty".into(),
            exactly: Some(v1::ExactDeviceRequest::default()),
            first_available: Vec::new(),
        };
        let old: v1beta1::DeviceRequest = hub.convert_ref(&s).unwrap();
        assert_eq!(old.name, "empty");
        let again: v1::DeviceRequest = old.convert(&s).unwrap();
        assert_eq!(again.exactly, None);
        // Any field set makes one: `adminAccess: false` too.
        let old = v1beta1::DeviceRequest {
            admin_access: Some(false),
            ..Default::default()
        };
        let hub: v1::DeviceRequest = old.convert_ref(&s).unwrap();
        assert_eq!(hub.exactly.unwrap().admin_access, Some(false));
    }

    #[test]
    fn lists_convert_every_claim() {
        let s = Scope::new();
        let list = v1beta1::ResourceClaimList {
            items: Some(vec![claim(), claim()]),
            ..Default::default()
        };
        let hub: v1::ResourceClaimList = list.convert_ref(&s).unwrap();
        assert_eq!(hub.items.as_deref().unwrap().len(), 2);
        let back: v1beta1::ResourceClaimList = hub.convert(&s).unwrap();
        assert_eq!(back, list);
    }
}

#[cfg(test)]
#[cfg(feature = "resource")]
mod resource_slice {
    use apimachinery::conversion::{Convert, Scope};
    use k8s_types::resource::{v1, v1beta1};
    use serde_json::json;

    fn slice() -> v1beta1::ResourceSlice {
        serde_json::from_value(json!({
            "apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice",
            "metadata": {"name": "node-1-gpu.example.com"},
            "spec": {"driver": "gpu.example.com", "nodeName": "node-1",
                "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
                "devices": [
                    {"name": "gpu-0", "basic": {
                        "attributes": {"model": {"string": "A100"}, "index": {"int": 0}},
                        "capacity": {"memory": {"value": "40Gi"}},
                        "taints": [{"key": "degraded", "effect": "NoSchedule"}]}},
                    {"name": "gpu-1", "basic": {"attributes": {"model": {"string": "A100"}}}}
                ]}
        }))
        .unwrap()
    }

    #[test]
    fn basic_is_flattened_and_comes_back() {
        let s = Scope::new();
        let old = slice();
        let hub: v1::ResourceSlice = old.convert_ref(&s).unwrap();
        assert_eq!(
            serde_json::to_value(&hub.spec).unwrap(),
            json!({"driver": "gpu.example.com",
            "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "node-1",
            "devices": [
                {"name": "gpu-0", "attributes": {"index": {"int": 0}, "model": {"string": "A100"}},
                 "capacity": {"memory": {"value": "40Gi"}},
                 "taints": [{"key": "degraded", "effect": "NoSchedule"}]},
                {"name": "gpu-1", "attributes": {"model": {"string": "A100"}}}
            ]})
        );
        let back: v1beta1::ResourceSlice = hub.convert(&s).unwrap();
        assert_eq!(back, old);
    }

    #[test]
    fn zero_node_name_and_all_nodes_are_unset_in_v1() {
        let s = Scope::new();
        let mut old = slice();
        old.spec.node_name = String::new();
        old.spec.all_nodes = true;
        let hub: v1::ResourceSlice = old.convert_ref(&s).unwrap();
        assert_eq!(hub.spec.node_name, None);
        assert_eq!(hub.spec.all_nodes, Some(true));
        let back: v1beta1::ResourceSlice = hub.convert(&s).unwrap();
        assert_eq!(back, old);

        let mut hub = v1::ResourceSlice::default();
        hub.spec.node_name = Some(String::new());
        hub.spec.all_nodes = Some(false);
        let old: v1beta1::ResourceSlice = hub.convert_ref(&s).unwrap();
        let again: v1::ResourceSlice = old.convert(&s).unwrap();
        assert_eq!((again.spec.node_name, again.spec.all_nodes), (None, None));
    }

    #[test]
    fn a_device_without_basic_comes_back_with_an_empty_one() {
        let s = Scope::new();
        let old = v1beta1::Device {
            name: "bare".into(),
            basic: None,
        };
        let hub: v1::Device = old.convert_ref(&s).unwrap();
        assert_eq!(
            hub,
            v1::Device {
                name: "bare".into(),
                ..Default::default()
            }
        );
        let back: v1beta1::Device = hub.convert(&s).unwrap();
        assert_eq!(back.basic, Some(v1beta1::BasicDevice::default()));
    }
}
