//! `#[derive(ApiType)]`: serde implementations with Go's JSON rules for structs nested in
//! objects.

use std::collections::BTreeMap;

use apimachinery::ApiType;
use proptest::prelude::*;

#[derive(ApiType, Clone, Debug, Default, PartialEq)]
pub struct Probe {
    pub r#type: String,
    pub period_seconds: i32,
    pub timeout: Option<i64>,
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
    #[api(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[api(rename = "hostIP")]
    pub host_ip: Option<String>,
    pub inner: Inner,
    pub maybe_inner: Option<Inner>,
}

#[derive(ApiType, Clone, Debug, Default, PartialEq)]
pub struct Inner {
    pub enabled: bool,
    pub ratio: Option<f64>,
}

#[derive(ApiType, Clone, Debug, Default, PartialEq)]
pub struct Empty {}

#[test]
fn fields_are_written_in_declaration_order_with_go_names() {
    let probe = Probe {
        r#type: "Exec".into(),
        period_seconds: 10,
        timeout: Some(3),
        commands: vec!["true".into()],
        labels: BTreeMap::from([("a".into(), "b".into())]),
        host_ip: Some("10.0.0.1".into()),
        inner: Inner::default(),
        maybe_inner: Some(Inner {
            enabled: true,
            ratio: Some(0.5),
        }),
    };
    assert_eq!(
        serde_json::to_string(&probe).unwrap(),
        r#"{"type":"Exec","periodSeconds":10,"timeout":3,"commands":["true"],"labels":{"a":"b"},"hostIP":"10.0.0.1","inner":{"enabled":false},"maybeInner":{"enabled":true,"ratio":0.5}}"#
    );
}

#[test]
fn none_and_empty_lists_are_omitted_zero_values_are_not() {
    assert_eq!(
        serde_json::to_string(&Probe::default()).unwrap(),
        r#"{"type":"","periodSeconds":0,"inner":{"enabled":false}}"#
    );
    assert_eq!(serde_json::to_string(&Empty {}).unwrap(), "{}");
}

#[test]
fn null_and_missing_keys_read_as_zero_values() {
    let probe: Probe = serde_json::from_str(
        r#"{"type":null,"periodSeconds":null,"timeout":null,"commands":null,"labels":null,"inner":null,"maybeInner":null}"#,
    )
    .unwrap();
    assert_eq!(probe, Probe::default());
    let probe: Probe = serde_json::from_str("{}").unwrap();
    assert_eq!(probe, Probe::default());
    let probe: Probe = serde_json::from_str(r#"{"maybeInner":{}}"#).unwrap();
    assert_eq!(
        probe.maybe_inner,
        Some(Inner::default()),
        "{{}} is set, null is not"
    );
}

#[test]
fn unknown_keys_are_ignored_and_names_match_exactly() {
    let probe: Probe = serde_json::from_str(
        r#"{"extra":{"deep":[1,2,{"x":null}]},"PeriodSeconds":5,"host_ip":"x","hostIP":"y","timeout":7}"#,
    )
    .unwrap();
    assert_eq!(probe.period_seconds, 0);
    assert_eq!(probe.host_ip.as_deref(), Some("y"));
    assert_eq!(probe.timeout, Some(7));
}

#[test]
fn a_repeated_key_keeps_the_last_value() {
    let probe: Probe = serde_json::from_str(r#"{"periodSeconds":1,"periodSeconds":2}"#).unwrap();
    assert_eq!(probe.period_seconds, 2);
}

#[test]
fn wrong_shapes_are_errors_naming_the_struct() {
    let err = serde_json::from_str::<Probe>(r#"["Exec",10]"#).unwrap_err();
    assert!(err.to_string().contains("expected struct Probe"), "{err}");
    let err = serde_json::from_str::<Probe>(r#"{"inner":"yes"}"#).unwrap_err();
    assert!(err.to_string().contains("expected struct Inner"), "{err}");
    let err = serde_json::from_str::<Probe>(r#"{"periodSeconds":"10"}"#).unwrap_err();
    assert!(err.to_string().contains("invalid type: string"), "{err}");
}

#[test]
fn values_decode_through_serde_json_value_too() {
    let value = serde_json::json!({"type": "Exec", "inner": {"enabled": true}, "unknown": 1});
    let probe: Probe = serde_json::from_value(value).unwrap();
    assert_eq!(probe.r#type, "Exec");
    assert!(probe.inner.enabled);
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<bool>(), proptest::option::of(-1e6f64..1e6))
        .prop_map(|(enabled, ratio)| Inner { enabled, ratio })
}

fn probe() -> impl Strategy<Value = Probe> {
    (
        ".*",
        any::<i32>(),
        proptest::option::of(any::<i64>()),
        proptest::collection::vec(".*", 0..3),
        proptest::collection::btree_map(".*", ".*", 0..3),
        proptest::option::of(".*"),
        inner(),
        proptest::option::of(inner()),
    )
        .prop_map(
            |(r#type, period_seconds, timeout, commands, labels, host_ip, inner, maybe_inner)| {
                Probe {
                    r#type,
                    period_seconds,
                    timeout,
                    commands,
                    labels,
                    host_ip,
                    inner,
                    maybe_inner,
                }
            },
        )
}

proptest! {
    #[test]
    fn json_round_trips(probe in probe()) {
        let text = serde_json::to_string(&probe).unwrap();
        let back: Probe = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, probe);
    }
}
