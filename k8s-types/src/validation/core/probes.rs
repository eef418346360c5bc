//! Probes and lifecycle handlers (Go's `validateProbe`, `validateLifecycle`,
//! `validateHandler`).

use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::is_valid_port_num;

use crate::core::v1::{HTTPGetAction, LifecycleHandler, Probe};
use crate::validation::{invalid_each, non_negative};

use super::validate_port_num_or_name;

pub(super) fn validate_handler(
    h: &LifecycleHandler,
    grace: Option<i64>,
    path: &Path,
    errs: &mut ErrorList,
) {
    handler(
        [
            ("exec", h.exec.is_some()),
            ("httpGet", h.http_get.is_some()),
            ("tcpSocket", h.tcp_socket.is_some()),
            ("grpc", false),
            ("sleep", h.sleep.is_some()),
        ],
        path,
        errs,
    );
    if let Some(e) = &h.exec {
        if e.command.is_empty() {
            errs.push(Error::required(&path.child("exec").child("command"), ""));
        }
    }
    if let Some(g) = &h.http_get {
        http_get(g, &path.child("httpGet"), errs);
    }
    if let Some(t) = &h.tcp_socket {
        errs.extend(validate_port_num_or_name(
            &t.port,
            &path.child("tcpSocket").child("port"),
        ));
    }
    // Go's `validateSleepAction` (zero allowed, as the feature gate is on by default);
    // without a grace period the pod's own error says enough.
    if let (Some(s), Some(g)) = (&h.sleep, grace) {
        if s.seconds < 0 || s.seconds > g {
            errs.push(Error::invalid(
                &path.child("sleep"),
                s.seconds,
                format!("must be non-negative and less than terminationGracePeriodSeconds ({g})"),
            ));
        }
    }
}

pub(super) fn handler(kinds: [(&str, bool); 5], path: &Path, errs: &mut ErrorList) {
    let mut count = 0;
    for (name, set) in kinds {
        if set {
            if count > 0 {
                errs.push(Error::forbidden(
                    &path.child(name),
                    "may not specify more than 1 handler type",
                ));
            } else {
                count += 1;
            }
        }
    }
    if count == 0 {
        errs.push(Error::required(path, "must specify a handler type"));
    }
}

/// Go's `IsHTTPHeaderName`.
pub(super) fn is_http_header_name(name: &str) -> Vec<String> {
    let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if ok {
        return Vec::new();
    }
    vec![
        "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')".to_string(),
    ]
}

pub(super) fn http_get(g: &HTTPGetAction, path: &Path, errs: &mut ErrorList) {
    let (p, port, scheme) = (&g.path, &g.port, &g.scheme);
    if p.is_empty() {
        errs.push(Error::required(&path.child("path"), ""));
    }
    errs.extend(validate_port_num_or_name(port, &path.child("port")));
    if !scheme.is_empty() && scheme != "HTTP" && scheme != "HTTPS" {
        errs.push(Error::not_supported(
            &path.child("scheme"),
            scheme,
            &["HTTP", "HTTPS"],
        ));
    }
    // Go reports a bad header name on the list's path, without the index.
    let hp = path.child("httpHeaders");
    for h in &g.http_headers {
        invalid_each(errs, &hp, &h.name, is_http_header_name(&h.name));
    }
}

pub(super) fn validate_probe(probe: &Probe, path: &Path, errs: &mut ErrorList) {
    handler(
        [
            ("exec", probe.exec.is_some()),
            ("httpGet", probe.http_get.is_some()),
            ("tcpSocket", probe.tcp_socket.is_some()),
            ("grpc", probe.grpc.is_some()),
            ("sleep", false),
        ],
        path,
        errs,
    );
    if let Some(e) = &probe.exec {
        if e.command.is_empty() {
            errs.push(Error::required(&path.child("exec").child("command"), ""));
        }
    }
    if let Some(g) = &probe.http_get {
        http_get(g, &path.child("httpGet"), errs);
    }
    if let Some(t) = &probe.tcp_socket {
        errs.extend(validate_port_num_or_name(
            &t.port,
            &path.child("tcpSocket").child("port"),
        ));
    }
    if let Some(g) = &probe.grpc {
        for msg in is_valid_port_num(i64::from(g.port)) {
            errs.push(Error::invalid(
                &path.child("grpc").child("port"),
                g.port,
                msg,
            ));
        }
    }
    for (field, value) in [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ] {
        non_negative(i64::from(value), &path.child(field), errs);
    }
    if let Some(g) = probe.termination_grace_period_seconds {
        if g <= 0 {
            errs.push(Error::invalid(
                &path.child("terminationGracePeriodSeconds"),
                g,
                "must be greater than 0",
            ));
        }
    }
}
