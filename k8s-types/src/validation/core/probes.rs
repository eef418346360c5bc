//! Probes and lifecycle handlers (Go's `validateProbe`, `validateLifecycle`,
//! `validateHandler`).

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_valid_port_num;

use crate::core::v1::{
    ExecAction, GRPCAction, HTTPGetAction, LifecycleHandler, Probe, TCPSocketAction,
};
use crate::validation::{invalid_each, non_negative};

use super::validate_port_num_or_name;

/// Go's `commonHandler`: the actions a probe or a lifecycle hook may name.
struct Handler<'a> {
    exec: Option<&'a ExecAction>,
    http_get: Option<&'a HTTPGetAction>,
    tcp_socket: Option<&'a TCPSocketAction>,
    grpc: Option<&'a GRPCAction>,
    sleep: Option<i64>,
}

pub(super) fn validate_handler(
    h: &LifecycleHandler,
    grace: Option<i64>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let common = Handler {
        exec: h.exec.as_ref(),
        http_get: h.http_get.as_ref(),
        tcp_socket: h.tcp_socket.as_ref(),
        grpc: None,
        sleep: h.sleep.as_ref().map(|s| s.seconds),
    };
    handler(&common, grace, path, errs);
}

/// Go's `validateHandler`: exactly one action, and only the first one set is checked
/// (each further one is refused as it is).
fn handler(h: &Handler, grace: Option<i64>, path: &Path, errs: &mut ErrorList) {
    let mut count = 0;
    let mut one = |name: &str, set: bool, errs: &mut ErrorList| {
        if !set {
            return false;
        }
        count += 1;
        if count > 1 {
            errs.push(Error::forbidden(
                &path.child(name),
                "may not specify more than 1 handler type",
            ));
            return false;
        }
        true
    };
    if one("exec", h.exec.is_some(), errs) {
        if let Some(e) = h.exec {
            if e.command.is_empty() {
                errs.push(Error::required(&path.child("exec").child("command"), ""));
            }
        }
    }
    if one("httpGet", h.http_get.is_some(), errs) {
        if let Some(g) = h.http_get {
            http_get(g, &path.child("httpGet"), errs);
        }
    }
    if one("tcpSocket", h.tcp_socket.is_some(), errs) {
        if let Some(t) = h.tcp_socket {
            errs.extend(validate_port_num_or_name(
                &t.port,
                &path.child("tcpSocket").child("port"),
            ));
        }
    }
    if one("grpc", h.grpc.is_some(), errs) {
        if let Some(g) = h.grpc {
            for msg in is_valid_port_num(i64::from(g.port)) {
                errs.push(Error::invalid(
                    &path.child("grpc").child("port"),
                    g.port,
                    msg,
                ));
            }
            // Kubernetes 1.37's `grpc.mode` (Go's `validateGRPCAction`).
            #[cfg(feature = "v1_37")]
            supported_mode(g.mode.as_deref(), &path.child("grpc").child("mode"), errs);
        }
    }
    if one("sleep", h.sleep.is_some(), errs) {
        // Go's `validateSleepAction` (zero allowed, as the feature gate is on by
        // default); without a grace period the pod's own error says enough.
        if let (Some(s), Some(g)) = (h.sleep, grace) {
            if s < 0 || s > g {
                errs.push(Error::invalid(
                    &path.child("sleep"),
                    s,
                    format!(
                        "must be non-negative and less than terminationGracePeriodSeconds ({g})"
                    ),
                ));
            }
        }
    }
    if count == 0 {
        errs.push(Error::required(path, "must specify a handler type"));
    }
}

#[cfg(feature = "v1_37")]
fn supported_mode(mode: Option<&str>, path: &Path, errs: &mut ErrorList) {
    const MODES: &[&str] = &["Plaintext", "TLS"];
    if let Some(m) = mode.filter(|m| !MODES.contains(m)) {
        errs.push(Error::not_supported(path, BadValue::json_string(m), MODES));
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
    if scheme != "HTTP" && scheme != "HTTPS" {
        // A URIScheme: a named string type, printed by json.Marshal.
        errs.push(Error::not_supported(
            &path.child("scheme"),
            BadValue::json_string(scheme),
            &["HTTP", "HTTPS"],
        ));
    }
    // Go reports a bad header name on the list's path, without the index.
    let hp = path.child("httpHeaders");
    for h in &g.http_headers {
        invalid_each(errs, &hp, &h.name, is_http_header_name(&h.name));
    }
    #[cfg(feature = "v1_37")]
    http_protocol(g, path, errs);
}

/// Kubernetes 1.37's `httpGet.protocol` (Go's `validateHTTPGetAction`): HTTP1 or HTTP2,
/// and HTTP2 only in clear text (h2c) and without a `host`. Checked whether or not the
/// H2CContainerProbe gate is on: the strategy drops the field before validation when
/// the gate is off, not the validation.
#[cfg(feature = "v1_37")]
fn http_protocol(g: &HTTPGetAction, path: &Path, errs: &mut ErrorList) {
    const PROTOCOLS: &[&str] = &["HTTP1", "HTTP2"];
    let Some(protocol) = g.protocol.as_deref() else {
        return;
    };
    if !PROTOCOLS.contains(&protocol) {
        errs.push(Error::not_supported(
            &path.child("protocol"),
            BadValue::json_string(protocol),
            PROTOCOLS,
        ));
    } else if protocol == "HTTP2" && g.scheme != "HTTP" {
        errs.push(Error::invalid(
            &path.child("protocol"),
            BadValue::json_string(protocol),
            "is only supported with HTTP (H2C)",
        ));
    } else if protocol == "HTTP2" && !g.host.is_empty() {
        errs.push(Error::invalid(
            &path.child("host"),
            g.host.as_str(),
            "must be empty when `protocol` is \"HTTP2\"",
        ));
    }
}

pub(super) fn validate_probe(probe: &Probe, grace: Option<i64>, path: &Path, errs: &mut ErrorList) {
    let common = Handler {
        exec: probe.exec.as_ref(),
        http_get: probe.http_get.as_ref(),
        tcp_socket: probe.tcp_socket.as_ref(),
        grpc: probe.grpc.as_ref(),
        sleep: None,
    };
    handler(&common, grace, path, errs);
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
