//! The small rules inside the validators and the way they print bad values, seen from
//! the outside: Go's URL parser in webhook URLs, sysctl names and namespaces, Windows
//! domains, endpoint IPs, finalizers, a template's metadata, and the Go JSON of values
//! in "field is immutable" and "Unsupported value".
#![allow(clippy::unwrap_used, clippy::expect_used)]

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::Path;
use k8s_types::admissionregistration::v1::ValidatingWebhookConfiguration;
use k8s_types::core::v1::{Endpoints, Pod, Service};
use k8s_types::resource::v1::ResourceClaimTemplate;
use k8s_types::validation::{
    validate_endpoint_ip, validate_endpoints, validate_object_meta,
    validate_resource_claim_template,
};
use serde_json::json;

use super::validation::{errors, pod, pod_spec_errors, update_errors};

/// The errors a validating webhook whose URL is `url` gets on its URL.
fn url_errors(url: &str) -> Vec<String> {
    errors::<ValidatingWebhookConfiguration>(json!({
        "metadata": {"name": "hooks"},
        "webhooks": [{"name": "a.example.com", "clientConfig": {"url": url},
            "admissionReviewVersions": ["v1"], "sideEffects": "None"}]}))
    .into_iter()
    .filter(|e| e.starts_with("webhooks[0].clientConfig.url"))
    .collect()
}

#[test]
fn webhook_urls_are_read_as_go_parses_them() {
    assert!(url_errors("https://example.com:8443/a").is_empty());
    // Scheme lower-cased, user, query and fragment found where Go finds them.
    let errs = url_errors("HTTPS://user:p%40ss@example.com:8443/a?x=1#frag");
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(errs[0].contains("\"user:p%40ss\": user information is not permitted"));
    assert!(errs[1].contains("\"frag\": fragments are not permitted"));
    assert!(errs[2].contains("\"x=1\": query parameters are not permitted"));
    for (url, why) in [
        (":x", "parse \":x\": missing protocol scheme"),
        (
            "https://a b/",
            "parse \"https://a b/\": invalid character \" \" in host name",
        ),
        (
            "https://a:b:c/",
            "parse \"https://a:b:c/\": invalid port \":b:c\" after host",
        ),
        ("%zz", "parse \"%zz\": invalid URL escape \"%zz\""),
    ] {
        let errs = url_errors(url);
        assert_eq!(
            errs,
            [format!(
                "webhooks[0].clientConfig.url: Required value: url must be a valid URL: {why}; desired format: https://host[/path]"
            )]
        );
    }
    // No scheme: a path, so no host.
    let errs = url_errors("example.com");
    assert!(
        errs.iter().any(|e| e.contains("host must be specified")),
        "{errs:?}"
    );
}

#[test]
fn finalizers_need_a_domain_or_a_standard_name() {
    let meta = ObjectMeta {
        name: "a".into(),
        finalizers: vec!["kubernetes".into(), "mine".into(), "example.com/x".into()],
        ..Default::default()
    };
    let errs = validate_object_meta(&meta, false, name_is_dns_subdomain, &Path::new("metadata"));
    assert_eq!(
        errs.to_string(),
        "metadata.finalizers[1]: Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified"
    );
}

#[test]
fn a_claim_templates_metadata_may_set_only_labels_and_annotations() {
    let mut t: ResourceClaimTemplate = serde_json::from_value(json!({
        "metadata": {"name": "gpu", "namespace": "default"},
        "spec": {"metadata": {"labels": {"a": "b"}}, "spec": {}}}))
    .unwrap();
    assert!(validate_resource_claim_template(&t).is_empty());
    t.spec.metadata.uid = "x".into();
    t.spec.metadata.generation = 2;
    let errs = validate_resource_claim_template(&t);
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["spec.metadata.uID", "spec.metadata.generation"]);
}

/// Kubernetes 1.36 only: on 1.37 the claim's declarative `+k8s:immutable` reports the
/// change with no value (validation_releases.rs).
#[cfg(not(feature = "v1_37"))]
#[test]
fn an_immutable_claim_prints_its_spec_as_go_marshals_it() {
    use k8s_types::resource::v1::ResourceClaim;
    use k8s_types::validation::validate_resource_claim_update;
    let claim = |driver: &str, raw: &[u8]| {
        let mut c: ResourceClaim = serde_json::from_value(json!({
            "metadata": {"name": "gpu", "namespace": "default", "resourceVersion": "1"},
            "spec": {"devices": {"config": [{"opaque": {"driver": driver,
                "parameters": {}}}]}}}))
        .unwrap();
        let opaque = c.spec.devices.config[0].opaque.as_mut().expect("opaque");
        opaque.parameters.raw = raw.to_vec();
        c
    };
    let old = claim("gpu.example.com", br#"{"a": 1}"#);
    let new = claim(
        "gpu<x>.example.com",
        br#"{ "a" : "x <y> \" z",  "b": [1, 2] }"#,
    );
    let text = validate_resource_claim_update(&new, &old).to_string();
    // Fields in Go's order, nil lists `null`, strings with Go's HTML escapes, the raw
    // parameters compacted.
    assert!(
        text.contains(
            r#"{"Devices":{"Requests":null,"Constraints":null,"Config":[{"Requests":null,"Opaque":{"Driver":"gpu\u003cx\u003e.example.com","Parameters":{"a":"x \u003cy\u003e \" z","b":[1,2]}}}]}}"#
        ),
        "{text}"
    );
    assert!(text.contains("field is immutable"), "{text}");
    let text = validate_resource_claim_update(&claim("gpu.example.com", b""), &old).to_string();
    assert!(text.contains(r#""Parameters":null"#), "{text}");
}

#[test]
fn sysctl_names_follow_go() {
    let name_errors = |name: &str| {
        pod_spec_errors(json!({"securityContext": {"sysctls": [{"name": name, "value": "1"}]}}))
    };
    for ok in [
        "net.ipv4.ip_forward",
        "kernel.shm_rmid_forced",
        "net/ipv4/conf/eth0.100/rp_filter",
        "a",
    ] {
        assert_eq!(name_errors(ok), Vec::<String>::new(), "{ok}");
    }
    let long = "a".repeat(254);
    for bad in ["Net.ipv4", "net..ipv4", "net.ipv4.", "-net", "net_", &long] {
        let errs = name_errors(bad);
        assert_eq!(errs.len(), 1, "{bad}: {errs:?}");
        assert!(
            errs[0].starts_with("spec.securityContext.sysctls[0].name: Invalid value:"),
            "{bad}: {errs:?}"
        );
    }
    assert_eq!(
        name_errors(""),
        ["spec.securityContext.sysctls[0].name: Required value"]
    );
}

#[test]
fn sysctls_of_a_shared_namespace_are_refused() {
    let names = [
        "net.core.somaxconn",
        "net/ipv4/conf/eth0.100/rp_filter",
        "kernel.shm_rmid_forced",
        "kernel.sem",
        "fs.mqueue.msg_max",
        "kernel.pid_max",
    ];
    let sysctls: Vec<_> = names
        .iter()
        .map(|n| json!({"name": n, "value": "1"}))
        .collect();
    let errs = pod_spec_errors(json!({"hostNetwork": true, "hostIPC": true,
        "securityContext": {"sysctls": sysctls}}));
    let refused: Vec<(usize, &str)> = names
        .iter()
        .enumerate()
        .filter_map(|(i, _)| {
            let at = format!("spec.securityContext.sysctls[{i}].name:");
            let e = errs.iter().find(|e| e.starts_with(&at))?;
            Some((
                i,
                if e.contains("'hostNetwork'") {
                    "net"
                } else {
                    "ipc"
                },
            ))
        })
        .collect();
    // kernel.pid_max is in neither namespace.
    assert_eq!(
        refused,
        [(0, "net"), (1, "net"), (2, "ipc"), (3, "ipc"), (4, "ipc")],
        "{errs:?}"
    );
}

#[test]
fn run_as_user_name_domains_are_netbios_or_dns() {
    let domain_errors = |domain: &str| {
        let mut p = pod();
        p["spec"]["containers"][0]["securityContext"] =
            json!({"windowsOptions": {"runAsUserName": format!("{domain}\\user")}});
        errors::<Pod>(p)
    };
    for ok in ["CONTOSO", "A234567890123456", "contoso.example.com"] {
        assert_eq!(domain_errors(ok), Vec::<String>::new(), "{ok}");
    }
    for bad in [
        ".CONTOSO",
        "a:b",
        "contoso_example.com.",
        "-contoso.example.com",
    ] {
        let errs = domain_errors(bad);
        assert_eq!(errs.len(), 1, "{bad}: {errs:?}");
        assert!(
            errs[0]
                .ends_with("runAsUserName's Domain doesn't match the NetBios nor the DNS format"),
            "{bad}: {errs:?}"
        );
    }
}

fn endpoint(ip: &str) -> Vec<String> {
    let errs = validate_endpoint_ip(ip, &Path::new("ip"));
    errs.iter().map(ToString::to_string).collect()
}

#[test]
fn endpoint_ips_as_go_ranges_them() {
    assert!(endpoint("10.1.2.3").is_empty());
    assert!(endpoint("2001:db8::1").is_empty());
    assert_eq!(
        endpoint("::"),
        ["ip: Invalid value: \"::\": may not be unspecified (::)"]
    );
    assert_eq!(endpoint("::1").len(), 1);
    // Go's IPv6 link-local multicast is any ffX2:: scope, not only ff02::.
    assert_eq!(endpoint("ff12::1").len(), 1);
    assert_eq!(endpoint("224.0.1.1").len(), 0);
}

#[test]
fn several_endpoint_ports_need_names() {
    let ep: Endpoints = serde_json::from_str(
        r#"{"metadata": {"name": "db", "namespace": "default"},
            "subsets": [{"addresses": [{"ip": "10.0.0.1"}],
                         "ports": [{"port": 5432, "protocol": "TCP"},
                                   {"name": "metrics", "port": 9187, "protocol": "TCP"}]}]}"#,
    )
    .unwrap();
    let errs = validate_endpoints(&ep);
    assert_eq!(errs.to_string(), "subsets[0].ports[0].name: Required value");
}

#[test]
fn service_ip_values_print_as_go_types() {
    let errs = errors::<Service>(json!({"metadata": {"name": "db", "namespace": "default"},
        "spec": {"ports": [{"port": 80}], "clusterIP": "None",
            "clusterIPs": ["None", "10.0.0.1"], "ipFamilies": ["IPv5"]}}));
    assert!(
        errs.contains(&"spec.ipFamilies[0]: Unsupported value: \"IPv5\": supported values: \"IPv4\", \"IPv6\"".to_owned()),
        "{errs:?}"
    );
    assert!(
        errs.contains(&"spec.clusterIPs: Invalid value: [\"None\",\"10.0.0.1\"]: 'None' must be the first and only value".to_owned()),
        "{errs:?}"
    );
}

#[test]
fn unset_service_ip_values_print_as_go_nil() {
    let old = json!({"metadata": {"name": "db", "namespace": "default"},
        "spec": {"ports": [{"port": 80}], "clusterIP": "10.0.0.1",
            "clusterIPs": ["10.0.0.1", "fd00::1"], "ipFamilies": ["IPv4", "IPv6"],
            "ipFamilyPolicy": "RequireDualStack"}});
    let new = json!({"metadata": {"name": "db", "namespace": "default"},
        "spec": {"ports": [{"port": 80}], "ipFamilies": ["IPv4"]}});
    let errs = update_errors::<Service>(old, new);
    for want in [
        "spec.clusterIPs[0]: Invalid value: null: primary clusterIP can not be unset",
        "spec.ipFamilyPolicy: Invalid value: null: must be set to 'SingleStack' when releasing the secondary ipFamily",
    ] {
        assert!(errs.iter().any(|e| e == want), "{want}: {errs:?}");
    }
}

/// The errors a mutating webhook whose service path is `path` gets on it.
fn service_path_errors(path: &str) -> Vec<String> {
    errors::<k8s_types::admissionregistration::v1::MutatingWebhookConfiguration>(json!({
        "metadata": {"name": "hooks"},
        "webhooks": [{"name": "a.example.com",
            "clientConfig": {"service": {"namespace": "default", "name": "hooks", "path": path}},
            "admissionReviewVersions": ["v1"], "sideEffects": "None"}]}))
    .into_iter()
    .filter(|e| e.starts_with("webhooks[0].clientConfig.service.path"))
    .collect()
}

#[test]
fn service_paths_are_split_as_go_splits_their_bytes() {
    assert!(service_path_errors("/hooks/check").is_empty());
    // Go drops the path's first byte: of "Ş" (two bytes) the second is left, a segment
    // that is no subdomain, not an empty one (seed 333 of the oracle's run from 200).
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assert_eq!(
        service_path_errors("Ş"),
        [
            "webhooks[0].clientConfig.service.path: Invalid value: \"Ş\": must start with a '/'"
                .to_owned(),
            format!(
                "webhooks[0].clientConfig.service.path: Invalid value: \"Ş\": segment[0]: {subdomain}"
            ),
        ]
    );
    // The segments after the first are whole characters again.
    let errs = service_path_errors("Ş/ok/Ş/");
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(
        errs[1].ends_with(&format!("segment[0]: {subdomain}")),
        "{errs:?}"
    );
    assert!(
        errs[2].ends_with(&format!("segment[2]: {subdomain}")),
        "{errs:?}"
    );
}

#[test]
fn names_are_lower_cased_as_go_lower_cases_them() {
    // Go's strings.ToLower maps "İ" to a plain "i" (Rust's full mapping adds a
    // combining dot): lower-cased, this provisioner is a qualified name, and this
    // driver name a subdomain (seeds 236, 291 and 299 of the oracle's run from 200).
    let errs = errors::<k8s_types::storage::v1::StorageClass>(json!({
        "metadata": {"name": "fast"}, "provisioner": "\u{130}nvalid/\u{130}o.example.com"}));
    assert!(errs.is_empty(), "{errs:?}");
    let errs = errors::<k8s_types::storage::v1::VolumeAttributesClass>(json!({
        "metadata": {"name": "gold"}, "driverName": "Dr\u{130}ver.example.com",
        "parameters": {"iops": "1000"}}));
    assert!(errs.is_empty(), "{errs:?}");
    // And the error shows the value as Go lower-cased it.
    let errs = errors::<k8s_types::storage::v1::StorageClass>(json!({
        "metadata": {"name": "fast"}, "provisioner": "t\u{130}_"}));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("provisioner: Invalid value: \"ti_\": name part must consist of"),
        "{errs:?}"
    );
}

#[test]
fn a_bad_escape_ending_inside_a_character_is_quoted_as_go_quotes_bytes() {
    // Go quotes the escape's three bytes: here '%' and the first two of "开" (seed
    // 596 of the oracle's run from 500).
    assert_eq!(
        url_errors("https://a/%开"),
        [
            "webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse \"https://a/%开\": invalid URL escape \"%\\xe5\\xbc\"; desired format: https://host[/path]"
        ]
    );
}

#[test]
fn rbac_generated_names_are_whole_path_segment_names() {
    // Go's ValidateRBACName ignores `prefix`: a generateName of "." is refused as a
    // name would be (seed 1107 of the oracle's run from 500), where other kinds' path
    // segment prefixes only may not contain '/' or '%'.
    let errs = errors::<k8s_types::rbac::v1::ClusterRole>(json!({
        "metadata": {"name": "view", "generateName": "."}}));
    assert_eq!(
        errs,
        ["metadata.generateName: Invalid value: \".\": may not be '.'"]
    );
}
