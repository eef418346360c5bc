//! Service-account tokens (Go's `pkg/serviceaccount` and the `serviceaccounts/token`
//! subresource): JWTs signed by the server's key for a ServiceAccount it stores, issued
//! through `authentication.k8s.io/v1` `TokenRequest`, and accepted as bearer tokens while
//! they are unexpired, for one of the server's audiences, of its issuer, and their
//! ServiceAccount (and bound Pod, Secret or Node) still exists with the same uid.
//!
//! ```
//! use std::sync::Arc;
//! use apimachinery::runtime::Scheme;
//! use apiserver::authentication::serviceaccount::{ServiceAccountTokens, SigningKey};
//! use apiserver::storage::MemoryStorage;
//!
//! let key = SigningKey::generate()?;
//! let tokens = ServiceAccountTokens::new(
//!     Arc::new(Scheme::new()),
//!     Arc::new(MemoryStorage::new()),
//!     key,
//!     "https://kubernetes.default.svc.cluster.local",
//! );
//! assert_eq!(tokens.audiences(), ["https://kubernetes.default.svc.cluster.local"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::Scheme;
use apimachinery::schema::{GroupKind, GroupResource};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Header, Validation};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::AuthenticationError;
use super::bearer_token::TokenAuthenticator;
use super::user::{ALL_AUTHENTICATED, Info};
use crate::registry::validation::{is_dns1123_label, is_dns1123_subdomain};
use crate::registry::{GenericStrategy, ResourceInfo, Store, resources_from_scheme};
use crate::storage::Storage;

mod keys;
mod validation;

pub use keys::{KeyError, SigningKey, VerifyingKey};

/// The group of every service account.
pub const ALL_SERVICE_ACCOUNTS_GROUP: &str = "system:serviceaccounts";
/// The prefix of service-account user names, `system:serviceaccount:NS:NAME`.
pub const SERVICE_ACCOUNT_USERNAME_PREFIX: &str = "system:serviceaccount:";
/// The extra key naming the token's id (`JTI=...`), as Go's.
pub const CREDENTIAL_ID_KEY: &str = "authentication.kubernetes.io/credential-id";
/// The extra keys naming the Pod a token is bound to.
pub const POD_NAME_KEY: &str = "authentication.kubernetes.io/pod-name";
/// See [`POD_NAME_KEY`].
pub const POD_UID_KEY: &str = "authentication.kubernetes.io/pod-uid";
/// The extra keys naming the Node a token is bound to.
pub const NODE_NAME_KEY: &str = "authentication.kubernetes.io/node-name";
/// See [`NODE_NAME_KEY`].
pub const NODE_UID_KEY: &str = "authentication.kubernetes.io/node-uid";

/// A TokenRequest's default lifetime (the `expirationSeconds` default of
/// `authentication.k8s.io/v1`).
const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
/// The clock skew tolerated on `exp` and `nbf` (go-jose's default leeway).
const LEEWAY_SECONDS: u64 = 60;

/// The user name of a service account: `system:serviceaccount:NS:NAME`.
pub fn make_username(namespace: &str, name: &str) -> String {
    format!("{SERVICE_ACCOUNT_USERNAME_PREFIX}{namespace}:{name}")
}

/// The namespace and name of a service account's user name (Go's `SplitUsername`):
/// `system:serviceaccount:NS:NAME` with a namespace that is a DNS label and a name that
/// is a DNS subdomain; `None` for any other user name.
pub fn split_username(username: &str) -> Option<(&str, &str)> {
    let rest = username.strip_prefix(SERVICE_ACCOUNT_USERNAME_PREFIX)?;
    let (namespace, name) = rest.split_once(':')?;
    if name.contains(':') || !is_dns1123_label(namespace) || !is_dns1123_subdomain(name) {
        return None;
    }
    Some((namespace, name))
}

/// The groups of a service account of `namespace`.
pub fn make_groups(namespace: &str) -> Vec<String> {
    vec![
        ALL_SERVICE_ACCOUNTS_GROUP.to_owned(),
        format!("{ALL_SERVICE_ACCOUNTS_GROUP}:{namespace}"),
    ]
}

/// A reference in the `kubernetes.io` claim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Ref {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    name: String,
    // Empty for the Node of a Pod-bound token when the Node does not exist.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    uid: String,
}

/// The `kubernetes.io` private claim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct KubernetesClaim {
    #[serde(default)]
    namespace: String,
    #[serde(default)]
    serviceaccount: Ref,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pod: Option<Ref>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<Ref>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    node: Option<Ref>,
}

/// A token's claims, as Go writes them.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Claims {
    aud: Vec<String>,
    exp: i64,
    iat: i64,
    iss: String,
    jti: String,
    #[serde(rename = "kubernetes.io")]
    kubernetes: KubernetesClaim,
    nbf: i64,
    sub: String,
}

/// A list of strings as Go's `%q` prints a `[]string`: `["a" "b"]`.
fn go_quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|i| apimachinery::util::validation::field::go_quote(i))
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// The stores of what tokens are bound to, over the server's storage.
#[derive(Debug)]
struct Lookup {
    stores: BTreeMap<&'static str, Store>,
}

impl Lookup {
    fn new(scheme: &Arc<Scheme>, storage: &Arc<dyn Storage>) -> Lookup {
        let mut resources = resources_from_scheme(scheme);
        let mut stores = BTreeMap::new();
        for resource in ["serviceaccounts", "pods", "secrets", "nodes"] {
            if let Some(info) = resources.remove(&(String::new(), resource.to_owned())) {
                stores.insert(resource, store(scheme, storage, info));
            }
        }
        Lookup { stores }
    }

    /// An object's JSON; `None` when it does not exist (or this server does not serve
    /// its kind).
    async fn object(
        &self,
        resource: &str,
        namespace: &str,
        name: &str,
    ) -> Result<Option<Value>, StatusError> {
        let Some(store) = self.stores.get(resource) else {
            return Ok(None);
        };
        match store.get(namespace, name).await {
            Ok(obj) => crate::registry::to_json(&*obj).map(Some),
            Err(e) if errors::is_not_found(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The uid and whether it is being deleted, of an object; `None` when it does not
    /// exist (or this server does not serve its kind).
    async fn get(
        &self,
        resource: &str,
        namespace: &str,
        name: &str,
    ) -> Result<Option<(String, bool)>, StatusError> {
        let Some(store) = self.stores.get(resource) else {
            return Ok(None);
        };
        match store.get(namespace, name).await {
            Ok(obj) => Ok(obj
                .meta()
                .map(|m| (m.uid().to_owned(), m.deletion_timestamp().is_some()))),
            Err(e) if errors::is_not_found(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A store the lookups only read (its strategy is never asked to write).
fn store(scheme: &Arc<Scheme>, storage: &Arc<dyn Storage>, info: ResourceInfo) -> Store {
    let strategy = Arc::new(GenericStrategy::default());
    Store::new(scheme.clone(), storage.clone(), info, strategy)
}

/// Issues and verifies service-account tokens: give it to the server with
/// [`Config::service_account_tokens`](crate::server::Config::service_account_tokens)
/// (the `serviceaccounts/token` subresource) and to a
/// [`BearerToken`](super::bearer_token::BearerToken) authenticator.
#[derive(Debug)]
pub struct ServiceAccountTokens {
    signing: SigningKey,
    verifying: Vec<VerifyingKey>,
    issuer: String,
    audiences: Vec<String>,
    lookup: Lookup,
}

impl ServiceAccountTokens {
    /// Tokens signed with `key`, issued by `issuer` (Go's `--service-account-issuer`),
    /// for the audience `issuer` (Go's default `--api-audiences`), bound to the objects
    /// of `storage`.
    pub fn new(
        scheme: Arc<Scheme>,
        storage: Arc<dyn Storage>,
        key: SigningKey,
        issuer: &str,
    ) -> ServiceAccountTokens {
        ServiceAccountTokens {
            verifying: vec![key.public.clone()],
            signing: key,
            issuer: issuer.to_owned(),
            audiences: vec![issuer.to_owned()],
            lookup: Lookup::new(&scheme, &storage),
        }
    }

    /// The audiences tokens are accepted for and issued for by default (Go's
    /// `--api-audiences`).
    pub fn with_audiences(mut self, audiences: Vec<String>) -> Self {
        self.audiences = audiences;
        self
    }

    /// More keys whose tokens are accepted (Go's `--service-account-key-file`).
    pub fn with_verifying_keys(mut self, keys: Vec<VerifyingKey>) -> Self {
        self.verifying.extend(keys);
        self
    }

    /// The audiences tokens are accepted for.
    pub fn audiences(&self) -> &[String] {
        &self.audiences
    }

    /// The issuer.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    fn sign(&self, claims: &Claims) -> Result<String, StatusError> {
        let mut header = Header::new(self.signing.algorithm);
        header.kid = Some(self.signing.public.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.signing.key)
            .map_err(|e| errors::new_internal_error(format!("signing the token: {e}")))
    }

    /// A token for ServiceAccount `name` in `namespace`, which must exist: what a
    /// `TokenRequest` gets (`spec` as sent, in `authentication.k8s.io/v1`'s JSON); the
    /// request's JSON comes back with `spec` defaulted and `status` filled in.
    pub async fn request_token(
        &self,
        namespace: &str,
        name: &str,
        mut request: Value,
    ) -> Result<Value, StatusError> {
        let token_request = GroupKind::new("authentication.k8s.io", "TokenRequest");
        let meta = |field: &str| {
            request
                .pointer(&format!("/metadata/{field}"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        // A name or namespace in the body must be the URL's.
        for (field, given, expected, what) in [
            ("name", meta("name"), name, "name"),
            ("namespace", meta("namespace"), namespace, "namespace"),
        ] {
            if !given.is_empty() && given != expected {
                let mut errs = ErrorList::default();
                errs.push(Error::invalid(
                    &Path::new("metadata").child(field),
                    given.as_str(),
                    format!("must match the service account {what} if specified"),
                ));
                return Err(errors::new_invalid(&token_request, name, &errs));
            }
        }
        let Some((sa_uid, _)) = self.lookup.get("serviceaccounts", namespace, name).await? else {
            return Err(errors::new_not_found(
                &GroupResource::new("", "serviceaccounts"),
                name,
            ));
        };
        // TokenRequestServiceAccountUIDValidation (beta and on since 1.34): a uid in the
        // body must be the account's.
        let uid = meta("uid");
        if !uid.is_empty() && uid != sa_uid {
            return Err(errors::new_conflict(
                &GroupResource::new("authentication.k8s.io", "TokenRequest"),
                name,
                format!(
                    "the UID in the token request ({uid}) does not match the UID of the service account ({sa_uid})"
                ),
            ));
        }
        // The request's metadata is the account's, created now (Go's TokenREST fills in
        // what the body leaves out; the status is the server's alone).
        let created = Time::now().truncate_to_seconds();
        if let Some(map) = request.as_object_mut() {
            let metadata = map.entry("metadata").or_insert_with(|| json!({}));
            if !metadata.is_object() {
                *metadata = json!({});
            }
            metadata["name"] = json!(name);
            metadata["namespace"] = json!(namespace);
            metadata["uid"] = json!(sa_uid);
            metadata["creationTimestamp"] = json!(created.to_rfc3339());
            map.remove("status");
        }
        let spec = request.get("spec").cloned().unwrap_or_else(|| json!({}));
        let expiration = match spec.get("expirationSeconds") {
            None | Some(Value::Null) => DEFAULT_EXPIRATION_SECONDS,
            Some(v) => v.as_i64().ok_or_else(|| {
                errors::new_bad_request("spec.expirationSeconds must be an integer")
            })?,
        };
        let mut audiences = crate::registry::string_list(spec.get("audiences"));
        if audiences.is_empty() {
            audiences = self.audiences.clone();
        }
        let errs = validation::validate_token_request(&spec, expiration, &audiences);
        if !errs.is_empty() {
            return Err(errors::new_invalid(
                &GroupKind::new("authentication.k8s.io", "TokenRequest"),
                "",
                &errs,
            ));
        }
        let mut claim = KubernetesClaim {
            namespace: namespace.to_owned(),
            serviceaccount: Ref {
                name: name.to_owned(),
                uid: sa_uid,
            },
            ..KubernetesClaim::default()
        };
        if let Some(bound) = spec.get("boundObjectRef").filter(|v| !v.is_null()) {
            let field = |f: &str| bound.get(f).and_then(Value::as_str).unwrap_or_default();
            let (kind, api_version, bound_name, bound_uid) = (
                field("kind"),
                field("apiVersion"),
                field("name"),
                field("uid"),
            );
            // Go matches the core kinds by group alone, and names the kind it refuses
            // as `GroupVersionKind::String` does (`group/version, Kind=kind`).
            let (group, version) = match api_version.split('/').collect::<Vec<_>>()[..] {
                [version] => ("", version),
                [group, version] => (group, version),
                _ => ("", ""),
            };
            let gvk = format!("{group}/{version}, Kind={kind}");
            let (resource, bound_namespace) = match (group, kind) {
                ("", "Pod") => ("pods", namespace),
                ("", "Secret") => ("secrets", namespace),
                ("", "Node") => ("nodes", ""),
                _ if cfg!(feature = "v1_37") && validation::is_webhook_ref(Some(bound)) => {
                    // APIServerWebhookAuthenticationToken is alpha, off by default.
                    return Err(errors::new_bad_request(format!(
                        "cannot bind token to object of type {gvk} (feature gate APIServerWebhookAuthenticationToken is disabled)"
                    )));
                }
                _ => {
                    return Err(errors::new_bad_request(format!(
                        "cannot bind token to object of type {gvk}"
                    )));
                }
            };
            let Some(bound_object) = self
                .lookup
                .object(resource, bound_namespace, bound_name)
                .await?
            else {
                return Err(errors::new_not_found(
                    &GroupResource::new("", resource),
                    bound_name,
                ));
            };
            let text = |pointer: &str| {
                bound_object
                    .pointer(pointer)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let uid = text("/metadata/uid");
            if resource == "pods" {
                // A token bound to a Pod is for the Pod's own account.
                if text("/spec/serviceAccountName") != name {
                    return Err(errors::new_bad_request(format!(
                        "cannot bind token for serviceaccount {name:?} to pod running with different serviceaccount name."
                    )));
                }
                // ServiceAccountTokenPodNodeInfo (GA): the Node the Pod is on, named even
                // when it does not exist (then without a uid).
                let node = text("/spec/nodeName");
                if !node.is_empty() {
                    let node_uid = self
                        .lookup
                        .get("nodes", "", &node)
                        .await?
                        .map(|(uid, _)| uid)
                        .unwrap_or_default();
                    claim.node = Some(Ref {
                        name: node,
                        uid: node_uid,
                    });
                }
            }
            if !bound_uid.is_empty() && bound_uid != uid {
                return Err(errors::new_conflict(
                    &GroupResource::new("", kind),
                    bound_name,
                    format!(
                        "the UID in the bound object reference ({bound_uid}) does not match the UID in record. The object might have been deleted and then recreated"
                    ),
                ));
            }
            let reference = Some(Ref {
                name: bound_name.to_owned(),
                uid,
            });
            match resource {
                "pods" => claim.pod = reference,
                "secrets" => claim.secret = reference,
                _ => claim.node = reference,
            }
        }
        let now = Time::now().unix_seconds();
        let claims = Claims {
            aud: audiences.clone(),
            exp: now + expiration,
            iat: now,
            iss: self.issuer.clone(),
            jti: uuid::Uuid::new_v4().to_string(),
            kubernetes: claim,
            nbf: now,
            sub: make_username(namespace, name),
        };
        let token = self.sign(&claims)?;
        if let Some(map) = request.as_object_mut() {
            let mut spec = spec;
            if let Some(s) = spec.as_object_mut() {
                s.insert("audiences".into(), json!(audiences));
                s.insert("expirationSeconds".into(), json!(expiration));
            }
            map.insert("spec".into(), spec);
            map.insert(
                "status".into(),
                json!({
                    "token": token,
                    "expirationTimestamp": Time::from_unix(claims.exp, 0).to_rfc3339(),
                }),
            );
        }
        Ok(request)
    }

    /// The claims of a verified token of this issuer; `Ok(None)` for a token that is
    /// not a JWT of this issuer (another authenticator's).
    fn verify(&self, token: &str) -> Result<Option<Claims>, AuthenticationError> {
        let mut parts = token.split('.');
        let (Some(_), Some(payload), Some(_), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Ok(None);
        };
        let Ok(payload) = URL_SAFE_NO_PAD.decode(payload) else {
            return Ok(None);
        };
        let payload = serde_json::from_slice::<Value>(&payload).ok();
        let issuer = payload
            .as_ref()
            .and_then(|v| v.get("iss").and_then(Value::as_str).map(str::to_owned));
        // The token's audiences, as Go's refusal quotes them.
        let token_audiences: Vec<String> = match payload.as_ref().and_then(|v| v.get("aud")) {
            Some(Value::String(a)) => vec![a.clone()],
            Some(list) => crate::registry::string_list(Some(list)),
            None => Vec::new(),
        };
        if issuer.as_deref() != Some(self.issuer.as_str()) {
            return Ok(None);
        }
        let audiences = super::requested_audiences().unwrap_or_else(|| self.audiences.clone());
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthenticationError(format!("invalid token header: {e}")))?;
        let mut last =
            AuthenticationError("token could not be verified against any known key".to_owned());
        for key in self.verifying.iter().filter(|k| {
            k.algorithm == header.alg && header.kid.as_deref().is_none_or(|kid| kid == k.kid)
        }) {
            let mut validation = Validation::new(key.algorithm);
            validation.leeway = LEEWAY_SECONDS;
            validation.validate_nbf = true;
            validation.set_issuer(&[&self.issuer]);
            validation.set_audience(&audiences);
            validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
            match jsonwebtoken::decode::<Claims>(token, &key.key, &validation) {
                Ok(data) => {
                    let matched = data
                        .claims
                        .aud
                        .iter()
                        .filter(|a| audiences.contains(a))
                        .cloned()
                        .collect();
                    super::record_matched_audiences(matched);
                    return Ok(Some(data.claims));
                }
                Err(e) => {
                    use jsonwebtoken::errors::ErrorKind;
                    last = AuthenticationError(match e.kind() {
                        ErrorKind::ExpiredSignature => {
                            "service account token has expired".to_owned()
                        }
                        ErrorKind::ImmatureSignature => {
                            "service account token is not valid yet".to_owned()
                        }
                        ErrorKind::InvalidAudience => format!(
                            "token audiences {} is invalid for the target audiences {}",
                            go_quoted_list(&token_audiences),
                            go_quoted_list(&audiences)
                        ),
                        ErrorKind::InvalidSignature => "invalid signature".to_owned(),
                        other => format!("invalid service account token: {other:?}"),
                    });
                    if !matches!(e.kind(), ErrorKind::InvalidSignature) {
                        return Err(last);
                    }
                }
            }
        }
        Err(last)
    }

    /// The user of a verified token whose objects still exist.
    async fn user_of(&self, claims: Claims) -> Result<Info, AuthenticationError> {
        let k = &claims.kubernetes;
        let (ns, sa) = (&k.namespace, &k.serviceaccount);
        let internal = |e: StatusError| AuthenticationError(e.status.message);
        match self
            .lookup
            .get("serviceaccounts", ns, &sa.name)
            .await
            .map_err(internal)?
        {
            None => {
                return Err(AuthenticationError(format!(
                    "serviceaccounts \"{}\" not found",
                    sa.name
                )));
            }
            Some((_, true)) => {
                return Err(AuthenticationError(format!(
                    "service account {ns}/{} has been deleted",
                    sa.name
                )));
            }
            Some((uid, false)) if uid != sa.uid => {
                return Err(AuthenticationError(format!(
                    "service account UID ({uid}) does not match claim ({})",
                    sa.uid
                )));
            }
            Some(_) => {}
        }
        let mut extra: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (resource, namespace, reference) in [
            ("secrets", ns.as_str(), &k.secret),
            ("pods", ns.as_str(), &k.pod),
            ("nodes", "", &k.node),
        ] {
            let Some(reference) = reference else { continue };
            // A Pod-bound token's Node claim (ServiceAccountTokenPodNodeInfo) is taken
            // as it is: only a Node-bound token is checked against the Node.
            if resource == "nodes" && k.pod.is_some() {
                extra.insert(NODE_NAME_KEY.to_owned(), vec![reference.name.clone()]);
                if !reference.uid.is_empty() {
                    extra.insert(NODE_UID_KEY.to_owned(), vec![reference.uid.clone()]);
                }
                continue;
            }
            match self
                .lookup
                .get(resource, namespace, &reference.name)
                .await
                .map_err(internal)?
            {
                Some((uid, false)) if uid == reference.uid => {}
                Some((uid, false)) => {
                    return Err(AuthenticationError(format!(
                        "{} UID ({uid}) does not match service account {} ref claim ({})",
                        &resource[..resource.len() - 1],
                        &resource[..resource.len() - 1],
                        reference.uid
                    )));
                }
                _ => {
                    return Err(AuthenticationError(
                        "service account token has been invalidated".to_owned(),
                    ));
                }
            }
            match resource {
                "pods" => {
                    extra.insert(POD_NAME_KEY.to_owned(), vec![reference.name.clone()]);
                    extra.insert(POD_UID_KEY.to_owned(), vec![reference.uid.clone()]);
                }
                "nodes" => {
                    extra.insert(NODE_NAME_KEY.to_owned(), vec![reference.name.clone()]);
                    extra.insert(NODE_UID_KEY.to_owned(), vec![reference.uid.clone()]);
                }
                _ => {}
            }
        }
        extra.insert(
            CREDENTIAL_ID_KEY.to_owned(),
            vec![format!("JTI={}", claims.jti)],
        );
        let mut groups = make_groups(ns);
        groups.push(ALL_AUTHENTICATED.to_owned());
        Ok(Info {
            name: make_username(ns, &sa.name),
            uid: sa.uid.clone(),
            groups,
            extra,
        })
    }
}

#[async_trait::async_trait]
impl TokenAuthenticator for ServiceAccountTokens {
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError> {
        match self.verify(token)? {
            Some(claims) => self.user_of(claims).await.map(Some),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests;
