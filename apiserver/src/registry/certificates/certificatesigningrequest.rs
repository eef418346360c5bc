//! CertificateSigningRequests (Go's `pkg/registry/certificates/certificates/strategy.go`):
//! selectable by `spec.signerName`, their requester (`spec.username`, `uid`, `groups`,
//! `extra`) set from the user creating them, and the table `kubectl get csr` prints (Go's
//! `printCertificateSigningRequest`).

mod conditions;

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, human_duration, items, string_column, text,
};
use crate::registry::rest::{Context, RestStorage, TableConvertor};
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, generation_rule, prepare_for_update_adjusted,
};
use crate::registry::{ResourceInfo, Store, SubresourceInfo, from_value, to_json};

/// Go's `certificateSigningRequestColumnDefinitions` (the `Requestor` column is
/// described by the `request` field's documentation, as Go's is).
pub const COLUMNS: [Column; 6] = [
    NAME,
    AGE,
    string_column(
        "SignerName",
        "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.",
        0,
    ),
    string_column("Requestor", "Base64-encoded PKCS#10 CSR data", 0),
    string_column(
        "RequestedDuration",
        "expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.",
        0,
    ),
    string_column(
        "Condition",
        "Conditions applied to the request, such as approval or denial.",
        0,
    ),
];

/// The CertificateSigningRequests' table convertor.
pub static CERTIFICATE_SIGNING_REQUEST_TABLE: Printer = Printer {
    api_version: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    columns: &COLUMNS,
    print: print_certificate_signing_request,
};

/// Go's `printCertificateSigningRequest`: name, age, signer (`<none>` unset), the
/// requesting user, the requested duration (`<none>` unset), the condition.
pub fn print_certificate_signing_request(obj: &Value) -> Row {
    let signer = match text(obj, "/spec/signerName") {
        "" => "<none>",
        name => name,
    };
    let duration = obj
        .pointer("/spec/expirationSeconds")
        .and_then(Value::as_i64)
        .map_or_else(|| "<none>".to_owned(), human_duration);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        printers::age(obj),
        Value::from(signer),
        Value::from(text(obj, "/spec/username")),
        Value::from(duration),
        Value::from(condition(obj)),
    ])
}

/// Go's `extractCSRStatus`: `Denied`, else `Approved`, else `Pending` (whatever the
/// conditions' status), then `,Failed` for a failed request and `,Issued` for one with
/// a certificate.
fn condition(obj: &Value) -> String {
    let has = |kind: &str| {
        items(obj, "/status/conditions")
            .iter()
            .any(|c| text(c, "/type") == kind)
    };
    let mut status = if has("Denied") {
        "Denied"
    } else if has("Approved") {
        "Approved"
    } else {
        "Pending"
    }
    .to_owned();
    if has("Failed") {
        status.push_str(",Failed");
    }
    if !text(obj, "/status/certificate").is_empty() {
        status.push_str(",Issued");
    }
    status
}

/// Go's certificate signing request strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct CertificateSigningRequestStrategy;

impl Strategy for CertificateSigningRequestStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("spec.signerName", "/spec/signerName")]
    }

    /// Go's CSR strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    /// Go's `PrepareForUpdate` of the request, of its `/status` and of its `/approval`
    /// ([`conditions`]): the spec is never written, `/status` keeps the approval,
    /// `/approval` writes only the conditions; both set the times conditions leave out.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        // Taken before the stored status replaces the written one.
        let written = match subresource {
            Subresource::Approval => to_json(&*new)?.pointer("/status/conditions").cloned(),
            _ => None,
        };
        prepare_for_update_adjusted(
            scheme,
            info,
            old,
            new,
            subresource,
            generation_rule(false),
            |old, new, subresource| conditions::prepare(old, new, subresource, written),
        )
    }

    /// Go's `GetResetFields`: a request's spec is the server's (the requester) and
    /// immutable, its status written through `/status` and `/approval`.
    fn reset_fields(
        &self,
        _info: &ResourceInfo,
        subresource: Subresource,
    ) -> &'static [&'static str] {
        match subresource {
            Subresource::Main
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers => &["spec", "status"],
            Subresource::Status => &["spec"],
            // Go's approval strategy resets the spec and the certificate.
            Subresource::Approval => &["spec", "status.certificate"],
        }
    }
}

/// The CertificateSigningRequests' REST storage: a create names its requester.
#[derive(Debug)]
pub struct CertificateSigningRequestStorage {
    store: Arc<Store>,
}

#[async_trait::async_trait]
impl RestStorage for CertificateSigningRequestStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&CERTIFICATE_SIGNING_REQUEST_TABLE)
    }

    fn has_approval(&self) -> bool {
        true
    }

    /// Go's `PrepareForCreate`: the requester is the user creating the request, whatever
    /// the body says, and a new request has no status (no one creates it approved).
    async fn begin_create(
        &self,
        ctx: &Context<'_>,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut csr = to_json(&*obj)?;
        set_requester(&mut csr, ctx.user);
        from_value(self.store.scheme(), &self.store.info().storage_gvk, csr)
    }
}

/// Sets `csr`'s requester to `user` (empty fields left out) and clears its status.
fn set_requester(csr: &mut Value, user: &crate::authentication::user::Info) {
    if let Some(map) = csr.as_object_mut() {
        map.insert("status".into(), json!({}));
    }
    let Some(spec) = csr.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    for field in ["username", "uid", "groups", "extra"] {
        spec.remove(field);
    }
    if !user.name.is_empty() {
        spec.insert("username".into(), Value::from(user.name.as_str()));
    }
    if !user.uid.is_empty() {
        spec.insert("uid".into(), Value::from(user.uid.as_str()));
    }
    if !user.groups.is_empty() {
        spec.insert("groups".into(), json!(user.groups));
    }
    if !user.extra.is_empty() {
        spec.insert("extra".into(), json!(user.extra));
    }
}

/// The CertificateSigningRequests' REST storage over `info`.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `approval` (Go's ApprovalREST), listed as kube-apiserver lists it.
    info.subresources = vec![SubresourceInfo {
        name: "approval",
        group: "",
        version: "",
        kind: "CertificateSigningRequest",
        verbs: &["get", "patch", "update"],
    }];
    Arc::new(CertificateSigningRequestStorage {
        store: deps.store(info, CertificateSigningRequestStrategy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(spec: Value, status: Value) -> Vec<Value> {
        let csr = json!({"metadata": {"name": "csr1"}, "spec": spec, "status": status});
        print_certificate_signing_request(&csr).cells
    }

    #[test]
    fn the_requester_is_the_user_creating_the_request() {
        let mut csr = json!({"spec": {"request": "cg==", "username": "forged",
            "groups": ["system:masters"]}, "status": {"conditions": [{"type": "Approved"}]}});
        let user = crate::authentication::user::Info {
            name: "alice".into(),
            uid: String::new(),
            groups: vec!["devs".into(), "system:authenticated".into()],
            extra: Default::default(),
        };
        set_requester(&mut csr, &user);
        assert_eq!(
            csr,
            json!({"spec": {"request": "cg==", "username": "alice",
                "groups": ["devs", "system:authenticated"]}, "status": {}})
        );
    }

    /// Go's `TestPrintCertificateSigningRequest` cases.
    #[test]
    fn requests_print_their_signer_duration_and_condition() {
        let spec = json!({"username": "CSRRequestor"});
        assert_eq!(
            cells(spec.clone(), json!({}))[1..],
            [
                json!("<unknown>"),
                json!("<none>"),
                json!("CSRRequestor"),
                json!("<none>"),
                json!("Pending")
            ]
        );
        let with = json!({"username": "CSRRequestor", "signerName": "example.com/test-signer",
            "expirationSeconds": 7200});
        let approved = json!({"conditions": [{"type": "Approved"}]});
        assert_eq!(
            cells(with.clone(), approved)[2..],
            [
                json!("example.com/test-signer"),
                json!("CSRRequestor"),
                json!("120m"),
                json!("Approved")
            ]
        );
        let issued = json!({"conditions": [{"type": "Approved"}], "certificate": "Y2VydA=="});
        assert_eq!(cells(spec.clone(), issued)[5], json!("Approved,Issued"));
        let denied = json!({"conditions": [{"type": "Approved"}, {"type": "Denied"}]});
        assert_eq!(cells(spec.clone(), denied)[5], json!("Denied"));
        let failed = json!({"conditions": [{"type": "Failed"}], "certificate": "Y2VydA=="});
        assert_eq!(cells(spec, failed)[5], json!("Pending,Failed,Issued"));
        let long = json!({"expirationSeconds": 86400 * 3});
        assert_eq!(cells(long, json!({}))[4], json!("3d"));
        let week = json!({"expirationSeconds": 7 * 86400 + 3600});
        assert_eq!(cells(week, json!({}))[4], json!("7d1h"));
    }
}
