//! Go's `pkg/apis/core/v1/conversion.go` as `k8s_types::conversions::internal::core_v1`
//! carries it: the internal form of Secrets and (1.36 only: 1.37 defaults them
//! instead, see `release_1_37`) pods, and back.
#![allow(clippy::unwrap_used)]

use k8s_types::conversions::internal::core_v1::*;
use k8s_types::core::v1::Secret;
#[cfg(not(feature = "v1_37"))]
use k8s_types::core::v1::{PodIP, PodSpec, PodStatus};

#[test]
fn string_data_is_written_over_data_and_gone() {
    let mut s = Secret::default();
    s.data.insert("a".into(), b"old".to_vec().into());
    s.data.insert("b".into(), b"kept".to_vec().into());
    s.string_data.insert("a".into(), "new".into());
    secret_internalize(&mut s).unwrap();
    assert_eq!(&s.data["a"][..], b"new");
    assert_eq!(&s.data["b"][..], b"kept");
    assert!(s.string_data.is_empty());
}

#[cfg(not(feature = "v1_37"))]
#[test]
fn service_account_name_wins_and_the_alias_follows_it() {
    for (alias, name, want) in [("old", "", "old"), ("old", "new", "new")] {
        let mut spec = PodSpec {
            service_account: alias.into(),
            service_account_name: name.into(),
            ..PodSpec::default()
        };
        pod_spec_internalize(&mut spec).unwrap();
        pod_spec_externalize(&mut spec);
        assert_eq!(
            (
                spec.service_account_name.as_str(),
                spec.service_account.as_str()
            ),
            (want, want)
        );
        assert!(spec.security_context.is_some());
    }
}

#[cfg(not(feature = "v1_37"))]
#[test]
fn pod_ip_is_authoritative_when_it_differs() {
    let ip = |s: &str| PodIP { ip: s.into() };
    let mut status = PodStatus {
        pod_ip: "10.0.0.1".into(),
        ..PodStatus::default()
    };
    pod_status_internalize(&mut status).unwrap();
    assert_eq!(status.pod_ips, vec![ip("10.0.0.1")]);
    let mut status = PodStatus {
        pod_ip: "10.0.0.1".into(),
        pod_ips: vec![ip("10.0.0.2"), ip("fd00::2")],
        ..PodStatus::default()
    };
    pod_status_internalize(&mut status).unwrap();
    pod_status_externalize(&mut status);
    assert_eq!(status.pod_ips, vec![ip("10.0.0.1")]);
    assert_eq!(status.pod_ip, "10.0.0.1");
    let mut status = PodStatus {
        pod_ip: "10.0.0.1".into(),
        pod_ips: vec![ip("10.0.0.1"), ip("fd00::1")],
        ..PodStatus::default()
    };
    pod_status_internalize(&mut status).unwrap();
    assert_eq!(status.pod_ips.len(), 2);
}
