//! Link-time registration: every `#[derive(ApiObject)]` type linked into the test binary
//! is in `Scheme::from_registry()`.

use apimachinery::apis::meta::v1::{ListMeta, ObjectMeta};
use apimachinery::runtime::{Object, Resource, ResourceScope, Scheme};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::{ApiObject, scheme_builder};

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WidgetSpec {
    pub size: i32,
}

#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "example.com", version = "v1", kind = "Widget", plural = "widgets", namespaced, short_names = ["wdg"], categories = ["all"])]
pub struct Widget {
    pub metadata: ObjectMeta,
    pub spec: WidgetSpec,
}

#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "example.com", version = "v1", kind = "WidgetList")]
pub struct WidgetList {
    pub metadata: ListMeta,
    pub items: Vec<Widget>,
}

#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "example.com",
    version = "v1beta1",
    kind = "Widget",
    cluster_scoped
)]
pub struct WidgetV1beta1 {
    pub metadata: ObjectMeta,
}

scheme_builder!(pub fn add_to_scheme: Widget, WidgetList);

#[test]
fn from_registry_sees_every_linked_type() {
    let scheme = Scheme::from_registry().unwrap();
    for gvk in [
        "example.com/v1, Kind=Widget",
        "example.com/v1, Kind=WidgetList",
        "example.com/v1beta1, Kind=Widget",
        "/v1, Kind=Status",
        "/v1, Kind=APIGroupList",
    ] {
        assert!(scheme.recognizes(&gvk.parse().unwrap()), "{gvk}");
    }
    let obj = scheme
        .new_object(&"example.com/v1, Kind=Widget".parse().unwrap())
        .unwrap();
    assert!(obj.is::<Widget>());
    // Versions are ordered as Kubernetes prefers them, whatever the link order.
    assert_eq!(
        scheme.prioritized_versions_for_group("example.com"),
        vec![
            GroupVersion::new("example.com", "v2"),
            GroupVersion::new("example.com", "v1"),
            GroupVersion::new("example.com", "v1beta1")
        ]
    );
    let meta = scheme
        .resource_metadata(&"example.com/v1, Kind=Widget".parse().unwrap())
        .unwrap();
    assert_eq!(
        (meta.plural, meta.short_names, meta.categories),
        ("widgets", &["wdg"][..], &["all"][..])
    );
}

#[test]
fn explicit_add_to_scheme_registers_only_the_listed_types() {
    let mut scheme = Scheme::new();
    add_to_scheme(&mut scheme).unwrap();
    assert_eq!(scheme.all_known_types().len(), 2);
    assert!(!scheme.recognizes(&"example.com/v1beta1, Kind=Widget".parse().unwrap()));
}

#[test]
fn static_metadata() {
    assert_eq!(Widget::API_VERSION, "example.com/v1");
    assert_eq!(Widget::SINGULAR, "widget");
    assert_eq!(Widget::LIST_KIND, "WidgetList");
    assert_eq!(Widget::SCOPE, ResourceScope::Namespaced);
    assert_eq!(WidgetV1beta1::SCOPE, ResourceScope::Cluster);
    assert_eq!(WidgetV1beta1::PLURAL, "widgets");
    assert_eq!(
        Widget::gvk(),
        GroupVersionKind::new("example.com", "v1", "Widget")
    );
}

#[test]
fn json_writes_kind_and_api_version_first_and_reads_back() {
    let mut w = Widget::default();
    w.metadata.name = "w1".into();
    w.spec.size = 3;
    let json = serde_json::to_string(&w).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w1"},"spec":{"size":3}}"#
    );
    let back: Widget = serde_json::from_str(&json).unwrap();
    assert_eq!(back, w);
    // Unknown fields are ignored, null reads as the zero value, duplicates: last wins.
    let lenient: Widget = serde_json::from_str(
        r#"{"spec":{"size":1},"metadata":null,"extra":[1,{"a":2}],"spec":{"size":2}}"#,
    )
    .unwrap();
    assert_eq!(lenient.spec.size, 2);
    assert!(serde_json::from_str::<Widget>(r#"{"spec":5}"#).is_err());
    assert!(serde_json::from_str::<Widget>("[]").is_err());
}

#[test]
fn dyn_object_serializes_through_erased_serde() {
    let list = WidgetList {
        items: vec![Widget::default()],
        ..Default::default()
    };
    let obj: Box<dyn Object> = Box::new(list);
    let json = serde_json::to_string(&*obj).unwrap();
    assert!(json.starts_with(r#"{"kind":"WidgetList","apiVersion":"example.com/v1","metadata":{},"items":[{"kind":"Widget""#), "{json}");
    assert_eq!(obj.as_list().unwrap().len(), 1);
    let copy = obj.clone();
    assert_eq!(
        copy.downcast_ref::<WidgetList>(),
        obj.downcast_ref::<WidgetList>()
    );
}

mod with_type_meta {
    use apimachinery::ApiObject;
    use apimachinery::apis::meta::v1::{ObjectMeta, TypeMeta};
    use apimachinery::runtime::Object;

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "example.com", version = "v2", kind = "Gauge", extra_versions = ["__internal"])]
    pub struct Gauge {
        pub type_meta: TypeMeta,
        pub metadata: ObjectMeta,
    }

    #[test]
    fn type_meta_is_filled_from_the_type_when_absent_and_kept_when_set() {
        let mut g = Gauge::default();
        assert_eq!(
            g.group_version_kind().to_string(),
            "example.com/v2, Kind=Gauge"
        );
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            r#"{"kind":"Gauge","apiVersion":"example.com/v2","metadata":{}}"#
        );
        g.set_group_version_kind(&"example.com/__internal, Kind=Gauge".parse().unwrap());
        assert_eq!(g.type_meta.api_version, "example.com/__internal");
        let read: Gauge =
            serde_json::from_str(r#"{"apiVersion":"example.com/v9","kind":"Gauge"}"#).unwrap();
        assert_eq!(
            read.group_version_kind().to_string(),
            "example.com/v9, Kind=Gauge"
        );
    }
}

mod plural_rule {
    use apimachinery::ApiObject;
    use apimachinery::meta::unsafe_guess_kind_to_resource;
    use apimachinery::runtime::Resource;

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "NetworkPolicy")]
    pub struct NetworkPolicy {}

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "Ingress")]
    pub struct Ingress {}

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "Endpoints")]
    pub struct Endpoints {}

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "Pod")]
    pub struct Pod {}

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "Gateway")]
    pub struct Gateway {}

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "plural.test", version = "v1", kind = "Mailbox")]
    pub struct Mailbox {}

    fn check<T: Resource>() {
        let (plural, singular) = unsafe_guess_kind_to_resource(&T::gvk());
        assert_eq!(T::PLURAL, plural.resource.as_str(), "{}", T::KIND);
        assert_eq!(T::SINGULAR, singular.resource.as_str(), "{}", T::KIND);
    }

    /// The derive computes default plurals at compile time with its own copy of Go's rule;
    /// it must agree with the runtime rule of `apimachinery::meta`.
    #[test]
    fn derive_defaults_agree_with_unsafe_guess_kind_to_resource() {
        check::<NetworkPolicy>();
        check::<Ingress>();
        check::<Endpoints>();
        check::<Pod>();
        check::<Gateway>();
        check::<Mailbox>();
    }
}

/// A mapper built from the link-time registry answers for every resource kind linked in.
mod mapper_from_registry {
    use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper, RESTScope};
    use apimachinery::runtime::{ResourceScope, Scheme};
    use apimachinery::schema::{API_VERSION_INTERNAL, GroupVersionResource};

    #[test]
    fn every_registered_resource_maps_both_ways() {
        let scheme = Scheme::from_registry().unwrap();
        let mapper = DiscoveryRESTMapper::from_scheme(&scheme);
        let resources = scheme.resources();
        assert!(!resources.is_empty());
        for (gvk, metadata) in resources {
            if gvk.version == API_VERSION_INTERNAL {
                continue;
            }
            let mapping = mapper
                .rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()])
                .unwrap();
            assert_eq!(mapping.resource.resource, metadata.plural, "{gvk}");
            let scope = match metadata.scope {
                ResourceScope::Namespaced => RESTScope::NAMESPACE,
                ResourceScope::Cluster => RESTScope::ROOT,
            };
            assert_eq!(mapping.scope, scope, "{gvk}");
            assert_eq!(&mapper.kind_for(&mapping.resource).unwrap(), gvk);
            for short in metadata.short_names {
                let gvr = GroupVersionResource::new("", "", *short);
                assert_eq!(mapper.resource_for(&gvr).unwrap().resource, metadata.plural);
            }
        }
    }
}
