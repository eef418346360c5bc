use super::*;
use apimachinery::conversion::{ConversionError, HubConversions, Scope};
use apimachinery::runtime::Resource;
use serde_json::json;

/// The hub: v1, registered in `__internal` too.
mod v1 {
    use apimachinery::{ApiObject, ApiType, apis::meta::v1::ObjectMeta};

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "widgets.test", version = "v1", kind = "Widget", extra_versions = ["__internal"])]
    pub struct Widget {
        pub metadata: ObjectMeta,
        pub spec: WidgetSpec,
    }

    #[derive(ApiType, Clone, Debug, Default, PartialEq)]
    pub struct WidgetSpec {
        pub replicas: i32,
        pub style: Style,
    }

    #[derive(ApiType, Clone, Debug, Default, PartialEq)]
    pub struct Style {
        pub colour: String,
        pub finish: Option<String>,
    }

    /// A kind in two versions with no conversion between them.
    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "widgets.test", version = "v1", kind = "Loner")]
    pub struct Loner {
        pub metadata: ObjectMeta,
    }
}

mod v1alpha1 {
    use apimachinery::{ApiObject, ApiType, Convert, apis::meta::v1::ObjectMeta};

    #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
    #[api(group = "widgets.test", version = "v1alpha1", kind = "Widget")]
    #[conversion(hub = super::v1::Widget)]
    pub struct Widget {
        pub metadata: ObjectMeta,
        pub spec: WidgetSpec,
    }

    /// `size` is v1's `replicas`, `colour` its `style.colour`; v1alpha1 has no finish.
    #[derive(ApiType, Clone, Debug, Default, PartialEq)]
    pub struct WidgetSpec {
        pub size: i32,
        pub colour: String,
    }

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "widgets.test", version = "v1alpha1", kind = "Loner")]
    pub struct Loner {
        pub metadata: ObjectMeta,
    }
}

impl apimachinery::conversion::Convert<v1::WidgetSpec> for v1alpha1::WidgetSpec {
    fn convert(self, _: &Scope<'_>) -> Result<v1::WidgetSpec, ConversionError> {
        if self.size < 0 {
            return Err(ConversionError::unrepresentable::<i32, i32>(format!(
                "spec.size {} is negative",
                self.size
            )));
        }
        Ok(v1::WidgetSpec {
            replicas: self.size,
            style: v1::Style {
                colour: self.colour,
                finish: None,
            },
        })
    }
    fn convert_ref(&self, scope: &Scope<'_>) -> Result<v1::WidgetSpec, ConversionError> {
        self.clone().convert(scope)
    }
}

impl apimachinery::conversion::Convert<v1alpha1::WidgetSpec> for v1::WidgetSpec {
    fn convert(self, _: &Scope<'_>) -> Result<v1alpha1::WidgetSpec, ConversionError> {
        Ok(v1alpha1::WidgetSpec {
            size: self.replicas,
            colour: self.style.colour,
        })
    }
    fn convert_ref(&self, scope: &Scope<'_>) -> Result<v1alpha1::WidgetSpec, ConversionError> {
        self.clone().convert(scope)
    }
}

fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::new();
    for r in [
        v1::Widget::REGISTRATION,
        v1alpha1::Widget::REGISTRATION,
        v1::Loner::REGISTRATION,
        v1alpha1::Loner::REGISTRATION,
    ] {
        scheme.register(&r).unwrap_or_default();
    }
    scheme.add_conversions(<v1alpha1::Widget as HubConversions>::REGISTRATIONS);
    Arc::new(scheme)
}

fn alpha(name: &str, size: i32) -> Value {
    json!({"apiVersion": "widgets.test/v1alpha1", "kind": "Widget",
           "metadata": {"name": name, "namespace": "default", "uid": "u-1",
                        "labels": {"a": "b"}, "resourceVersion": "7"},
           "spec": {"size": size, "colour": "red"}})
}

fn request(desired: &str, objects: Vec<Value>) -> ConversionRequest {
    ConversionRequest {
        uid: "r-1".into(),
        desired_api_version: desired.into(),
        objects,
    }
}

#[test]
fn objects_are_converted_in_order_with_the_request_uid() {
    let h = ConversionHandler::new(scheme());
    let r = h.handle(&request(
        "widgets.test/v1",
        vec![alpha("one", 1), alpha("two", 2)],
    ));
    assert_eq!(r.failure, None);
    assert_eq!(r.uid, "r-1");
    assert_eq!(r.converted_objects.len(), 2);
    assert_eq!(
        r.converted_objects[1],
        json!({"apiVersion": "widgets.test/v1", "kind": "Widget",
               "metadata": {"name": "two", "namespace": "default", "uid": "u-1",
                            "resourceVersion": "7", "labels": {"a": "b"}},
               "spec": {"replicas": 2, "style": {"colour": "red"}}})
    );
    assert_eq!(r.converted_objects[0]["metadata"]["name"], "one");

    // And back: v1's finish has no place in v1alpha1.
    let mut v1 = r.converted_objects[0].clone();
    v1["spec"]["style"]["finish"] = "matte".into();
    let back = h.handle(&request("widgets.test/v1alpha1", vec![v1]));
    assert_eq!(
        back.converted_objects[0]["spec"],
        json!({"size": 1, "colour": "red"})
    );
    assert_eq!(
        back.converted_objects[0]["apiVersion"],
        "widgets.test/v1alpha1"
    );
}

#[test]
fn the_review_is_answered_as_go_answers_it() {
    let h = ConversionHandler::new(scheme());
    let review = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                        "request": {"uid": "r-9", "desiredAPIVersion": "widgets.test/v1",
                                    "objects": [alpha("w", 3)]}});
    let answer = h.review(&review).unwrap_or_default();
    assert_eq!(answer["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(answer["kind"], "ConversionReview");
    assert!(answer.get("request").is_none());
    assert_eq!(answer["response"]["uid"], "r-9");
    assert_eq!(
        answer["response"]["result"],
        json!({"metadata": {}, "status": "Success"})
    );
    assert_eq!(
        answer["response"]["convertedObjects"][0]["spec"]["replicas"],
        3
    );
    // No request: nothing to answer (the server says 400).
    assert_eq!(h.review(&json!({"kind": "ConversionReview"})), None);
}

fn failure(desired: &str, objects: Vec<Value>) -> String {
    let r = ConversionHandler::new(scheme()).handle(&request(desired, objects));
    assert!(r.converted_objects.is_empty());
    let json = r.to_json();
    assert_eq!(json["result"]["status"], "Failure");
    assert_eq!(json["convertedObjects"], Value::Null);
    assert_eq!(json["uid"], "r-1");
    r.failure.unwrap_or_default()
}

#[test]
fn failures_name_the_object_and_why() {
    // A failed conversion function: the object and the reason.
    let m = failure("widgets.test/v1", vec![alpha("ok", 1), alpha("bad", -1)]);
    assert!(
        m.starts_with("widgets.test/v1alpha1, Kind=Widget default/bad: converting to widgets.test/v1, Kind=Widget:"),
        "{m}"
    );
    assert!(m.contains("spec.size -1 is negative"), "{m}");

    // Same version: refused, as Go does.
    let m = failure("widgets.test/v1alpha1", vec![alpha("w", 1)]);
    assert!(
        m.starts_with("conversion is not allowed between same type"),
        "{m}"
    );
    assert!(m.contains("v1alpha1::Widget"), "{m}");

    // Another group.
    let m = failure("other.test/v1", vec![alpha("w", 1)]);
    assert!(m.contains("does not belong to same API Group"), "{m}");

    // A version the scheme does not know.
    let m = failure("widgets.test/v2", vec![alpha("w", 1)]);
    assert!(
        m.starts_with("widgets.test/v1alpha1, Kind=Widget default/w: "),
        "{m}"
    );
    assert!(m.contains("widgets.test/v2"), "{m}");

    // Two versions without a conversion: not convertible.
    let loner =
        json!({"apiVersion": "widgets.test/v1", "kind": "Loner", "metadata": {"name": "l"}});
    let m = failure("widgets.test/v1alpha1", vec![loner]);
    assert!(m.contains("is not convertible to"), "{m}");
    assert!(m.starts_with("widgets.test/v1, Kind=Loner l: "), "{m}");

    // A kind the scheme does not know, and an object of the wrong shape.
    let m = failure(
        "widgets.test/v1",
        vec![json!({"apiVersion": "widgets.test/v1alpha1", "kind": "Gear"})],
    );
    assert!(m.starts_with("object 0: "), "{m}");
    assert!(m.contains("Gear"), "{m}");
    let mut wrong = alpha("w", 1);
    wrong["spec"]["size"] = "three".into();
    let m = failure("widgets.test/v1", vec![wrong]);
    assert!(m.starts_with("object 0: "), "{m}");

    // A desired version that is no version.
    let m = failure("a/b/c", vec![alpha("w", 1)]);
    assert!(m.starts_with("invalid desiredAPIVersion \"a/b/c\""), "{m}");
}

#[test]
fn a_review_whose_request_is_malformed_is_answered_with_a_failure() {
    let h = ConversionHandler::new(scheme());
    let answer = h
        .review(&json!({"request": {"uid": "r-2", "objects": "nope"}}))
        .unwrap_or_default();
    assert_eq!(answer["response"]["uid"], "r-2");
    assert_eq!(answer["response"]["result"]["status"], "Failure");
}

#[test]
fn round_trips_pass_for_lossless_objects_and_name_the_first_lost_field() {
    let scheme = scheme();
    let mut w = v1::Widget::default();
    w.metadata.name = "w".into();
    w.spec.replicas = 3;
    w.spec.style.colour = "blue".into();
    let through = check_round_trips(&scheme, &w).map_err(|e| e.to_string());
    assert_eq!(
        through,
        Ok(vec![GroupVersion::new("widgets.test", "v1alpha1")])
    );

    // From the spoke: v1alpha1 → v1 → v1alpha1 loses nothing either.
    let a = v1alpha1::Widget {
        spec: v1alpha1::WidgetSpec {
            size: 2,
            colour: "green".into(),
        },
        ..Default::default()
    };
    assert!(check_round_trips(&scheme, &a).is_ok());

    // v1's finish does not survive v1alpha1.
    w.spec.style.finish = Some("matte".into());
    match check_round_trips(&scheme, &w) {
        Err(RoundTripError::Lossy {
            kind,
            through,
            path,
            original,
            returned,
        }) => {
            assert_eq!(kind, "widgets.test/v1, Kind=Widget");
            assert_eq!(through, "widgets.test/v1alpha1");
            assert_eq!(path, ".spec.style.finish");
            assert_eq!(
                (original.as_str(), returned.as_str()),
                ("\"matte\"", "<absent>")
            );
        }
        other => panic!("{other:?}"),
    }

    // A failing conversion is reported with both kinds.
    let bad = v1alpha1::Widget {
        spec: v1alpha1::WidgetSpec {
            size: -1,
            colour: String::new(),
        },
        ..Default::default()
    };
    match check_round_trips(&scheme, &bad) {
        Err(RoundTripError::Convert { from, to, .. }) => {
            assert_eq!(from, "widgets.test/v1alpha1, Kind=Widget");
            assert_eq!(to, "widgets.test/v1, Kind=Widget");
        }
        other => panic!("{other:?}"),
    }

    // Not convertible at all.
    assert!(matches!(
        check_round_trips(&scheme, &v1::Loner::default()),
        Err(RoundTripError::Convert { .. })
    ));
}

#[test]
fn first_difference_walks_objects_and_arrays() {
    let a = json!({"a": [1, {"b": 2}], "c": 1});
    let b = json!({"a": [1, {"b": 3}], "c": 1});
    let d = first_difference(&a, &b, String::new());
    assert_eq!(d.map(|(p, _, _)| p), Some(".a[1].b".to_owned()));
    let c = json!({"a": [1], "c": 1});
    let d = first_difference(&a, &c, String::new());
    assert_eq!(
        d.map(|(p, x, y)| (p, x.is_some(), y.is_none())),
        Some((".a[1]".to_owned(), true, true))
    );
    assert!(first_difference(&a, &a, String::new()).is_none());
}
