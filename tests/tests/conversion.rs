//! Version conversion end to end: a kind served in `v1` and `v1beta1` through an
//! `__internal` hub, with `#[derive(Convert)]` conversions collected at link time.

use std::collections::BTreeMap;

use apimachinery::apis::meta::v1::{ObjectMeta, Status, TypeMeta};
use apimachinery::conversion::{
    AutoConvert, ConversionError, ConversionErrorKind, ConversionFunc, Convert, Origin, Scope,
};
use apimachinery::runtime::{Object, Scheme, Unstructured};
use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersions, InternalGroupVersioner};
use apimachinery::{ApiObject, Convert};
use proptest::prelude::*;

/// Types every version shares.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EnvVar {
    pub name: String,
    pub value: String,
}
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GizmoStatus {
    pub ready_replicas: i64,
    pub conditions: Vec<String>,
}
apimachinery::identity_conversion!(EnvVar, GizmoStatus);

pub mod hub {
    use super::*;

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(
        group = "conv.test",
        version = "__internal",
        kind = "Gizmo",
        not_resource
    )]
    pub struct Gizmo {
        pub type_meta: TypeMeta,
        pub metadata: ObjectMeta,
        pub spec: GizmoSpec,
        pub status: Option<GizmoStatus>,
    }

    #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct GizmoSpec {
        pub replicas: i64,
        pub paused: bool,
        pub labels: BTreeMap<String, String>,
        pub containers: Vec<Container>,
        pub strategy: Strategy,
    }

    #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Container {
        pub name: String,
        pub image: String,
        pub env: Vec<EnvVar>,
        pub ports: Vec<i32>,
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub enum StrategyType {
        #[default]
        RollingUpdate,
        Recreate,
    }

    #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Strategy {
        pub kind: StrategyType,
        pub max_surge: Option<Box<i32>>,
    }
}

pub mod v1 {
    use super::*;

    #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
    #[api(group = "conv.test", version = "v1", kind = "Gizmo")]
    #[conversion(hub = hub::Gizmo)]
    pub struct Gizmo {
        pub type_meta: TypeMeta,
        pub metadata: ObjectMeta,
        pub spec: GizmoSpec,
        pub status: Option<GizmoStatus>,
    }

    #[derive(Convert, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[conversion(hub = hub::GizmoSpec)]
    pub struct GizmoSpec {
        /// Narrower than the hub's: `from_hub` fails on values that do not fit.
        #[conversion(with = replicas)]
        pub replicas: i32,
        pub paused: bool,
        pub labels: BTreeMap<String, String>,
        pub containers: Vec<Container>,
        pub strategy: Strategy,
    }

    pub mod replicas {
        use super::*;
        pub fn to_hub(v: i32, _: &Scope<'_>) -> Result<i64, ConversionError> {
            Ok(i64::from(v))
        }
        pub fn from_hub(v: i64, _: &Scope<'_>) -> Result<i32, ConversionError> {
            i32::try_from(v).map_err(|_| {
                ConversionError::unrepresentable::<i64, i32>(format!("{v} does not fit in v1"))
            })
        }
    }

    #[derive(Convert, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[conversion(hub = hub::Container)]
    pub struct Container {
        pub name: String,
        pub image: String,
        pub env: Vec<EnvVar>,
        pub ports: Vec<i32>,
    }

    /// The strategy kind is a string in v1; an empty one means the default. The
    /// hand-written `to_hub` handles that and wins wherever a `Strategy` is nested.
    #[derive(Convert, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[conversion(hub = hub::Strategy, to_hub = strategy_to_hub)]
    pub struct Strategy {
        #[conversion(with = strategy_type)]
        pub kind: String,
        pub max_surge: Option<Box<i32>>,
    }

    pub fn strategy_to_hub(
        input: &Strategy,
        scope: &Scope<'_>,
    ) -> Result<hub::Strategy, ConversionError> {
        if input.kind.is_empty() {
            let defaulted = Strategy {
                kind: "RollingUpdate".into(),
                ..input.clone()
            };
            return defaulted.auto_convert(scope);
        }
        input.auto_convert_ref(scope)
    }

    pub mod strategy_type {
        use super::*;
        pub fn to_hub(v: String, _: &Scope<'_>) -> Result<hub::StrategyType, ConversionError> {
            match v.as_str() {
                "RollingUpdate" => Ok(hub::StrategyType::RollingUpdate),
                "Recreate" => Ok(hub::StrategyType::Recreate),
                _ => Err(
                    ConversionError::unrepresentable::<String, hub::StrategyType>(format!(
                        "unknown strategy {v:?}"
                    )),
                ),
            }
        }
        pub fn from_hub(v: hub::StrategyType, _: &Scope<'_>) -> Result<String, ConversionError> {
            Ok(format!("{v:?}"))
        }
    }
}

pub mod v1beta1 {
    use super::*;

    /// v1beta1 has no `paused`; it keeps it in an annotation, as Kubernetes does, with
    /// hand-written conversions of the whole object that wrap the generated ones.
    #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
    #[api(group = "conv.test", version = "v1beta1", kind = "Gizmo")]
    #[conversion(hub = hub::Gizmo, to_hub = gizmo_to_hub, from_hub = gizmo_from_hub)]
    pub struct Gizmo {
        pub type_meta: TypeMeta,
        pub metadata: ObjectMeta,
        pub spec: GizmoSpec,
        pub status: Option<GizmoStatus>,
    }

    pub const PAUSED: &str = "conv.test/paused";

    pub fn gizmo_to_hub(input: &Gizmo, scope: &Scope<'_>) -> Result<hub::Gizmo, ConversionError> {
        let mut out: hub::Gizmo = input.auto_convert_ref(scope)?;
        if out.metadata.annotations.remove(PAUSED).is_some() {
            out.spec.paused = true;
        }
        Ok(out)
    }

    pub fn gizmo_from_hub(input: &hub::Gizmo, scope: &Scope<'_>) -> Result<Gizmo, ConversionError> {
        let mut out: Gizmo = input.auto_convert_ref(scope)?;
        if input.spec.paused {
            out.metadata
                .annotations
                .insert(PAUSED.to_owned(), "true".to_owned());
        }
        Ok(out)
    }

    #[derive(Convert, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[conversion(hub = hub::GizmoSpec, hub_only = [paused])]
    pub struct GizmoSpec {
        #[conversion(rename = "replicas")]
        pub size: i64,
        pub labels: BTreeMap<String, String>,
        pub containers: Vec<Container>,
        pub strategy: hub::Strategy,
        /// Only in v1beta1: explicitly not converted.
        #[conversion(skip)]
        pub legacy_notes: String,
    }

    #[derive(Convert, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[conversion(hub = hub::Container)]
    pub struct Container {
        /// Renamed, and of the same type as its peer: moved or cloned, not converted.
        #[conversion(rename = "name", same_type)]
        pub container_name: String,
        pub image: String,
        pub env: Vec<EnvVar>,
        #[conversion(same_type)]
        pub ports: Vec<i32>,
    }
}

apimachinery::identity_conversion!(hub::Strategy);

fn scheme() -> Scheme {
    let mut s = Scheme::from_registry().unwrap();
    s.register(&Status::REGISTRATION).ok();
    s
}

fn sample() -> v1::Gizmo {
    v1::Gizmo {
        type_meta: TypeMeta::default(),
        metadata: ObjectMeta {
            name: "g".into(),
            namespace: "ns".into(),
            labels: [("app".to_owned(), "g".to_owned())].into(),
            annotations: [("note".to_owned(), "x".to_owned())].into(),
            ..Default::default()
        },
        spec: v1::GizmoSpec {
            replicas: 3,
            paused: true,
            labels: [("tier".to_owned(), "web".to_owned())].into(),
            containers: vec![
                v1::Container {
                    name: "a".into(),
                    image: "nginx".into(),
                    env: vec![EnvVar {
                        name: "K".into(),
                        value: "V".into(),
                    }],
                    ports: vec![80, 443],
                },
                v1::Container {
                    name: "b".into(),
                    image: "busybox".into(),
                    ..Default::default()
                },
            ],
            strategy: v1::Strategy {
                kind: "Recreate".into(),
                max_surge: Some(Box::new(2)),
            },
        },
        status: Some(GizmoStatus {
            ready_replicas: 2,
            conditions: vec!["Available".into()],
        }),
    }
}

use apimachinery::runtime::Resource as _;

#[test]
fn typed_conversion_goes_through_the_hub_and_back() {
    let s = scheme();
    let v1 = sample();
    let beta: v1beta1::Gizmo = s.convert(&v1).unwrap();
    assert_eq!(beta.spec.size, 3);
    assert_eq!(beta.spec.containers[1].container_name, "b");
    assert_eq!(beta.spec.strategy.kind, hub::StrategyType::Recreate);
    assert_eq!(beta.metadata.annotations[v1beta1::PAUSED], "true");
    // The round trip v1 -> hub -> v1beta1 -> hub -> v1 returns the original.
    let back: v1::Gizmo = s.convert(&beta).unwrap();
    assert_eq!(back, v1);
    let back: v1::Gizmo = s
        .convert_by_value(s.convert_by_value::<_, v1beta1::Gizmo>(v1.clone()).unwrap())
        .unwrap();
    assert_eq!(back, v1);
}

#[test]
fn by_value_conversion_moves_identically_typed_fields() {
    let v1 = sample();
    let env_ptr = v1.spec.containers[0].env.as_ptr();
    let image_ptr = v1.spec.containers[0].image.as_ptr();
    let ports_ptr = v1.spec.containers[0].ports.as_ptr();
    let hub: hub::Gizmo = v1.convert(&Scope::new()).unwrap();
    let c = &hub.spec.containers[0];
    assert_eq!(c.env.as_ptr(), env_ptr);
    assert_eq!(c.image.as_ptr(), image_ptr);
    assert_eq!(c.ports.as_ptr(), ports_ptr);
}

#[test]
fn same_type_fields_are_moved_or_cloned_as_they_are() {
    let c = v1beta1::Container {
        container_name: "web".into(),
        image: "nginx".into(),
        env: Vec::new(),
        ports: vec![80, 443],
    };
    let by_ref: hub::Container = c.convert_ref(&Scope::new()).unwrap();
    assert_eq!(by_ref.name, "web");
    assert_eq!(by_ref.ports, [80, 443]);
    let (name_ptr, ports_ptr) = (c.container_name.as_ptr(), c.ports.as_ptr());
    let by_value: hub::Container = c.convert(&Scope::new()).unwrap();
    assert_eq!(by_value, by_ref);
    assert_eq!(by_value.name.as_ptr(), name_ptr, "moved, not copied");
    assert_eq!(by_value.ports.as_ptr(), ports_ptr);
    let back: v1beta1::Container = by_value.convert_ref(&Scope::new()).unwrap();
    assert_eq!(back.container_name, "web");
    assert_eq!(back.ports, [80, 443]);
}

#[test]
fn manual_beats_generated() {
    let s = scheme();
    let from = std::any::TypeId::of::<v1beta1::Gizmo>();
    let to = std::any::TypeId::of::<hub::Gizmo>();
    // Both were registered at link time; the hand-written one is used.
    let c = s.converter();
    assert!(c.func_of(from, to, Origin::Generated).is_some());
    assert!(c.func_of(from, to, Origin::Manual).is_some());
    let mut beta = v1beta1::Gizmo::default();
    beta.metadata
        .annotations
        .insert(v1beta1::PAUSED.into(), "true".into());
    let hub: hub::Gizmo = s.convert(&beta).unwrap();
    assert!(hub.spec.paused, "the manual function moved the annotation");
    assert!(hub.metadata.annotations.is_empty());
    let generated: hub::Gizmo = beta.auto_convert_ref(&Scope::new()).unwrap();
    assert!(!generated.spec.paused);

    // A nested type's hand-written conversion is used where it is nested.
    let mut v1 = sample();
    v1.spec.strategy.kind = String::new();
    let hub: hub::Gizmo = s.convert(&v1).unwrap();
    assert_eq!(hub.spec.strategy.kind, hub::StrategyType::RollingUpdate);
    let err = v1
        .spec
        .strategy
        .auto_convert_ref(&Scope::new())
        .map(|_: hub::Strategy| ());
    assert!(err.is_err());

    // A closure added by hand beats the derive's generated function, whatever the order.
    let mut s = scheme();
    s.add_conversion_func(|_: &v1::Gizmo, _: &Scope<'_>| {
        Ok(hub::Gizmo {
            metadata: ObjectMeta {
                name: "by hand".into(),
                ..Default::default()
            },
            ..Default::default()
        })
    });
    s.add_conversion(
        ConversionFunc::of_auto_convert::<v1::Gizmo, hub::Gizmo>(),
        Origin::Generated,
    );
    let hub: hub::Gizmo = s.convert(&sample()).unwrap();
    assert_eq!(hub.metadata.name, "by hand");
    let hub = s
        .convert_to_version(Box::new(sample()), &InternalGroupVersioner)
        .unwrap();
    assert_eq!(hub.meta().unwrap().name(), "by hand");
}

#[test]
fn convert_to_version_converts_by_value_and_sets_the_kind() {
    let s = scheme();
    let target = GroupVersion::new("conv.test", "v1beta1");
    let out = s.convert_to_version(Box::new(sample()), &target).unwrap();
    assert_eq!(
        out.group_version_kind().to_string(),
        "conv.test/v1beta1, Kind=Gizmo"
    );
    let beta = out.downcast_ref::<v1beta1::Gizmo>().unwrap();
    assert_eq!(beta.type_meta.api_version, "conv.test/v1beta1");
    assert_eq!(beta.spec.size, 3);

    // To the hub: the internal object carries no kind.
    let internal = s.convert_to_version(out, &InternalGroupVersioner).unwrap();
    let hub = internal.downcast_ref::<hub::Gizmo>().unwrap();
    assert!(hub.type_meta.is_empty());
    assert!(hub.spec.paused);

    // Several targets: the first that knows the kind wins.
    let targets = GroupVersions(vec![
        GroupVersion::new("other.test", "v1"),
        GroupVersion::new("conv.test", "v1"),
    ]);
    let v1 = s.convert_to_version(internal, &targets).unwrap();
    let mut expected = sample();
    expected.type_meta.set_group_version_kind(&v1::Gizmo::gvk());
    assert_eq!(v1.downcast_ref::<v1::Gizmo>(), Some(&expected));
}

#[test]
fn already_at_the_target_or_unversioned_comes_back_untouched() {
    let s = scheme();
    let obj: Box<dyn Object> = Box::new(sample());
    let addr = &*obj as *const dyn Object as *const u8;
    let same = s
        .convert_to_version(obj, &GroupVersion::new("conv.test", "v1"))
        .unwrap();
    assert_eq!(&*same as *const dyn Object as *const u8, addr);
    assert_eq!(same.group_version_kind(), v1::Gizmo::gvk());

    let status: Box<dyn Object> = Box::new(Status {
        message: "m".into(),
        ..Default::default()
    });
    let addr = &*status as *const dyn Object as *const u8;
    let same = s
        .convert_to_version(status, &GroupVersion::new("conv.test", "v1"))
        .unwrap();
    assert_eq!(&*same as *const dyn Object as *const u8, addr);
    assert_eq!(same.downcast_ref::<Status>().unwrap().message, "m");
}

#[test]
fn unrepresentable_values_are_errors_with_path_and_types() {
    let s = scheme();
    let mut hub: hub::Gizmo = s.convert(&sample()).unwrap();
    hub.spec.replicas = i64::from(i32::MAX) + 1;
    let err = s.convert::<_, v1::Gizmo>(&hub).unwrap_err();
    assert_eq!(err.path(), "spec.replicas");
    assert!(
        matches!(
            err.kind(),
            ConversionErrorKind::Unrepresentable {
                from: "i64",
                to: "i32",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "spec.replicas: converting i64 to i32: 2147483648 does not fit in v1"
    );

    let mut v1 = sample();
    v1.spec.strategy.kind = "BlueGreen".into();
    let err = s
        .convert_to_version(Box::new(v1), &GroupVersion::new("conv.test", "v1beta1"))
        .unwrap_err();
    assert_eq!(err.path(), "spec.strategy.kind");
    assert!(
        err.to_string().contains(r#"unknown strategy "BlueGreen""#),
        "{err}"
    );

    let mut v1 = sample();
    v1.spec.strategy.kind = "Nope".into();
    let mut spec = v1.spec.clone();
    spec.containers.clear();
    let err = spec
        .convert(&Scope::new())
        .map(|_: hub::GizmoSpec| ())
        .unwrap_err();
    assert_eq!(err.path(), "strategy.kind");
}

#[test]
fn missing_routes_and_unknown_kinds_are_typed_errors() {
    let s = scheme();
    let err = s.convert::<_, Status>(&sample()).unwrap_err();
    assert!(
        matches!(err.kind(), ConversionErrorKind::NoConversion { .. }),
        "{err}"
    );
    let msg = err.to_string();
    assert!(msg.contains("v1::Gizmo") && msg.contains("Status"), "{msg}");

    let mut u = Unstructured::default();
    u.set_api_version("nowhere.test/v1");
    u.set_kind("Thing");
    let err = s
        .convert_to_version(Box::new(u), &GroupVersion::new("conv.test", "v1"))
        .unwrap_err();
    assert!(err.is_not_registered(), "{err}");

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "conv.test", version = "v9", kind = "Stray")]
    struct Stray {
        metadata: ObjectMeta,
    }
    let err = Scheme::new()
        .convert_to_version(Box::new(Stray::default()), &InternalGroupVersioner)
        .unwrap_err();
    assert!(err.is_not_registered(), "{err}");

    let err = s
        .convert_to_version(Box::new(sample()), &GroupVersion::new("other.test", "v1"))
        .unwrap_err();
    assert!(
        matches!(err.kind(), ConversionErrorKind::NoTargetKind { .. }),
        "{err}"
    );
}

#[test]
fn unstructured_input_is_read_into_its_type_then_converted() {
    let s = scheme();
    let json = serde_json::json!({
        "apiVersion": "conv.test/v1",
        "kind": "Gizmo",
        "metadata": {"name": "u"},
        "spec": {"replicas": 2, "paused": false, "labels": {}, "containers": [
            {"name": "c", "image": "i", "env": [], "ports": [8080]}
        ], "strategy": {"kind": "Recreate", "max_surge": null}}
    });
    let u = Unstructured::from_value(json).unwrap();
    let out = s
        .convert_to_version(
            Box::new(u.clone()),
            &GroupVersion::new("conv.test", "v1beta1"),
        )
        .unwrap();
    let beta = out.downcast_ref::<v1beta1::Gizmo>().unwrap();
    assert_eq!(beta.spec.containers[0].ports, vec![8080]);
    assert_eq!(beta.metadata.name, "u");

    // And back to unstructured, in the version asked for.
    let back = s.to_unstructured(&*out, None).unwrap();
    assert_eq!(back.api_version(), "conv.test/v1beta1");
    assert_eq!(back.object["spec"]["size"], 2);
    let hub = s.convert_to_version(out, &InternalGroupVersioner).unwrap();
    assert!(
        s.to_unstructured(&*hub, None).is_err(),
        "internal needs a target"
    );
    let v1 = s
        .to_unstructured(&*hub, Some(&GroupVersion::new("conv.test", "v1")))
        .unwrap();
    assert_eq!(v1.api_version(), "conv.test/v1");
    assert_eq!(v1.object["spec"]["replicas"], 2);

    let mut bad = u;
    bad.object["spec"]["containers"][0]["ports"][0] = serde_json::json!("http");
    let err = s
        .convert_to_version(Box::new(bad), &GroupVersion::new("conv.test", "v1"))
        .unwrap_err();
    assert_eq!(err.path(), "spec.containers[0].ports[0]");
    assert!(err.to_string().contains("v1::Gizmo"), "{err}");
}

#[test]
fn defaulting_and_field_labels() {
    let mut s = scheme();
    s.add_type_defaulting_func(|g: &mut v1::Gizmo| {
        if g.spec.replicas == 0 {
            g.spec.replicas = 1;
        }
    });
    let mut g = v1::Gizmo::default();
    s.default(&mut g);
    assert_eq!(g.spec.replicas, 1);
    let mut other = v1beta1::Gizmo::default();
    s.default(&mut other);
    assert_eq!(other, v1beta1::Gizmo::default());

    let gvk = GroupVersionKind::new("conv.test", "v1", "Gizmo");
    assert_eq!(
        s.convert_field_label(&gvk, "metadata.namespace", "ns")
            .unwrap(),
        ("metadata.namespace".to_owned(), "ns".to_owned())
    );
    assert!(s.convert_field_label(&gvk, "spec.paused", "true").is_err());
    s.add_field_label_conversion_func(gvk.clone(), |label, value| match label {
        "metadata.name" | "spec.paused" => Ok((label.to_owned(), value.to_owned())),
        _ => Err(apimachinery::conversion::FieldLabelError::new(
            label,
            &["metadata.name", "spec.paused"],
        )),
    });
    assert!(s.convert_field_label(&gvk, "spec.paused", "true").is_ok());
    let err = s
        .convert_field_label(&gvk, "metadata.namespace", "x")
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"only "metadata.name", "spec.paused""#)
    );
}

fn arb_container() -> impl Strategy<Value = v1::Container> {
    (
        "[a-z]{0,8}",
        "[a-z./:]{0,16}",
        proptest::collection::vec(("[A-Z]{1,4}", ".{0,8}"), 0..3),
        proptest::collection::vec(any::<i32>(), 0..4),
    )
        .prop_map(|(name, image, env, ports)| v1::Container {
            name,
            image,
            env: env
                .into_iter()
                .map(|(name, value)| EnvVar { name, value })
                .collect(),
            ports,
        })
}

fn arb_gizmo() -> impl Strategy<Value = v1::Gizmo> {
    (
        "[a-z]{1,8}",
        proptest::collection::btree_map("[a-z]{1,5}", ".{0,6}", 0..3),
        any::<i32>(),
        any::<bool>(),
        proptest::collection::vec(arb_container(), 0..3),
        prop_oneof![Just("RollingUpdate"), Just("Recreate")],
        proptest::option::of(any::<i32>()),
        proptest::option::of((
            any::<i64>(),
            proptest::collection::vec("[A-Za-z]{1,6}", 0..2),
        )),
    )
        .prop_map(
            |(name, labels, replicas, paused, containers, kind, surge, status)| v1::Gizmo {
                type_meta: TypeMeta::default(),
                metadata: ObjectMeta {
                    name,
                    labels: labels.clone(),
                    ..Default::default()
                },
                spec: v1::GizmoSpec {
                    replicas,
                    paused,
                    labels,
                    containers,
                    strategy: v1::Strategy {
                        kind: kind.to_owned(),
                        max_surge: surge.map(Box::new),
                    },
                },
                status: status.map(|(ready_replicas, conditions)| GizmoStatus {
                    ready_replicas,
                    conditions,
                }),
            },
        )
}

proptest! {
    #[test]
    fn round_trip_through_every_version_returns_the_original(g in arb_gizmo()) {
        let s = scheme();
        let hub: hub::Gizmo = s.convert(&g).unwrap();
        let beta: v1beta1::Gizmo = s.convert(&hub).unwrap();
        let hub2: hub::Gizmo = s.convert_by_value(beta).unwrap();
        prop_assert_eq!(&hub2, &hub);
        let back: v1::Gizmo = s.convert_by_value(hub2).unwrap();
        prop_assert_eq!(back, g);
    }
}

#[test]
fn explicit_add_to_scheme_without_the_link_time_registry() {
    use apimachinery::conversion::HubConversions;
    use apimachinery::runtime::SchemeBuilder;
    let builder = SchemeBuilder::new()
        .register::<hub::Gizmo>()
        .register::<v1::Gizmo>()
        .register::<v1beta1::Gizmo>()
        .register_conversions::<v1::Gizmo>()
        .register_conversions::<v1beta1::Gizmo>();
    let mut s = Scheme::new();
    builder.add_to_scheme(&mut s).unwrap();
    // v1 <-> hub and v1beta1 <-> hub; v1beta1's hand-written pair beside its generated one.
    assert_eq!(s.converter().len(), 4);
    assert_eq!(<v1beta1::Gizmo as HubConversions>::REGISTRATIONS.len(), 4);
    let beta: v1beta1::Gizmo = s.convert(&sample()).unwrap();
    assert_eq!(beta.metadata.annotations[v1beta1::PAUSED], "true");
    let back: v1::Gizmo = s.convert(&beta).unwrap();
    assert_eq!(back, sample());
    // Nested types were not registered: they convert statically, not through the scheme.
    assert!(
        s.convert::<_, hub::GizmoSpec>(&sample().spec).is_err(),
        "only whole objects are in the registry here"
    );
}

proptest! {
    /// Lists of specs that convert, and lists where the element at `bad` (if any) cannot:
    /// by value (converted in the list's own buffer) and by reference, the error names the
    /// index then the field, and an empty list or `None` converts to the same.
    #[test]
    fn a_failing_element_mid_list_is_named_by_index_both_ways(
        gizmos in proptest::collection::vec(arb_gizmo(), 0..5),
        bad in proptest::option::of(0..5usize),
    ) {
        let scope = Scope::new();
        let mut specs: Vec<hub::GizmoSpec> = gizmos
            .iter()
            .map(|g| g.spec.convert_ref(&scope))
            .collect::<Result<_, _>>()
            .unwrap();
        let bad = bad.filter(|&i| i < specs.len());
        if let Some(i) = bad {
            specs[i].replicas = i64::from(i32::MAX) + 1;
        }
        let by_ref: Result<Vec<v1::GizmoSpec>, _> = specs.convert_ref(&scope);
        let as_option: Result<Option<Vec<v1::GizmoSpec>>, _> = Some(specs.clone()).convert(&scope);
        let by_value: Result<Vec<v1::GizmoSpec>, _> = specs.convert(&scope);
        match bad {
            Some(i) => {
                let path = format!("[{i}].replicas");
                prop_assert_eq!(by_ref.unwrap_err().path().to_owned(), path.clone());
                prop_assert_eq!(by_value.unwrap_err().path().to_owned(), path.clone());
                prop_assert_eq!(as_option.unwrap_err().path().to_owned(), path.clone());
            }
            None => {
                let expected: Vec<v1::GizmoSpec> = gizmos.into_iter().map(|g| g.spec).collect();
                prop_assert_eq!(by_ref.unwrap(), expected.clone());
                prop_assert_eq!(as_option.unwrap(), Some(expected.clone()));
                prop_assert_eq!(by_value.unwrap(), expected);
            }
        }
        let none: Option<Vec<hub::GizmoSpec>> = None;
        let none: Option<Vec<v1::GizmoSpec>> = none.convert(&scope).unwrap();
        prop_assert!(none.is_none());
    }
}
