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
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupKind, GroupResource, GroupVersionKind};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair, RsaKeyPair};
use rustls_pki_types::pem::{PemObject, SectionKind};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AuthenticationError;
use super::bearer_token::TokenAuthenticator;
use super::user::{ALL_AUTHENTICATED, Info};
use crate::endpoints::handlers::{Handler, Reply, to_json};
use crate::endpoints::negotiation::MediaType;
use crate::registry::{ResourceInfo, Store, from_value, resources_from_scheme};
use crate::storage::Storage;

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
/// The shortest lifetime Go's validation accepts.
const MIN_EXPIRATION_SECONDS: i64 = 600;
/// The longest: 2^32 seconds.
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;
/// The clock skew tolerated on `exp` and `nbf` (go-jose's default leeway).
const LEEWAY_SECONDS: u64 = 60;

/// Why a key could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The PEM holds no key of a kind this server signs or verifies with.
    #[error("{0}")]
    Unsupported(String),
    /// The key did not parse.
    #[error("invalid key: {0}")]
    Invalid(String),
}

/// The user name of a service account: `system:serviceaccount:NS:NAME`.
pub fn make_username(namespace: &str, name: &str) -> String {
    format!("{SERVICE_ACCOUNT_USERNAME_PREFIX}{namespace}:{name}")
}

/// The groups of a service account of `namespace`.
pub fn make_groups(namespace: &str) -> Vec<String> {
    vec![
        ALL_SERVICE_ACCOUNTS_GROUP.to_owned(),
        format!("{ALL_SERVICE_ACCOUNTS_GROUP}:{namespace}"),
    ]
}

/// A key that checks token signatures, with Go's key id (SHA-256 of its PKIX DER,
/// base64url).
#[derive(Clone)]
pub struct VerifyingKey {
    algorithm: Algorithm,
    key: DecodingKey,
    kid: String,
}

impl std::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("algorithm", &self.algorithm)
            .field("kid", &self.kid)
            .finish()
    }
}

/// The key tokens are signed with: ES256 (an ECDSA P-256 key, the generated kind) or
/// RS256 (RSA).
#[derive(Clone)]
pub struct SigningKey {
    algorithm: Algorithm,
    key: EncodingKey,
    public: VerifyingKey,
    pkcs8_pem: Option<String>,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("algorithm", &self.algorithm)
            .field("kid", &self.public.kid)
            .finish()
    }
}

/// DER of a length.
fn der_length(len: usize, out: &mut Vec<u8>) {
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
}

fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    der_length(content.len(), &mut out);
    out.extend_from_slice(content);
    out
}

/// The PKIX SubjectPublicKeyInfo DER of a public key, for Go's key id.
fn spki(algorithm: Algorithm, public: &[u8]) -> Vec<u8> {
    // rsaEncryption with NULL parameters; id-ecPublicKey with prime256v1.
    let id: &[u8] = match algorithm {
        Algorithm::ES256 => &[
            0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
            0xce, 0x3d, 0x03, 0x01, 0x07,
        ],
        _ => &[
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
        ],
    };
    let mut bits = vec![0u8];
    bits.extend_from_slice(public);
    let mut content = der(0x30, id);
    content.extend(der(0x03, &bits));
    der(0x30, &content)
}

fn key_id(algorithm: Algorithm, public: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(spki(algorithm, public)))
}

/// The verifying key of an ECDSA P-256 point (uncompressed).
fn ec_verifying(point: &[u8]) -> Result<VerifyingKey, KeyError> {
    if point.len() != 65 || point[0] != 4 {
        return Err(KeyError::Invalid(
            "not an uncompressed P-256 point".to_owned(),
        ));
    }
    let key = DecodingKey::from_ec_components(
        &URL_SAFE_NO_PAD.encode(&point[1..33]),
        &URL_SAFE_NO_PAD.encode(&point[33..]),
    )
    .map_err(|e| KeyError::Invalid(e.to_string()))?;
    Ok(VerifyingKey {
        algorithm: Algorithm::ES256,
        key,
        kid: key_id(Algorithm::ES256, point),
    })
}

/// The verifying key of an RSA public key (PKCS#1 DER).
fn rsa_verifying(pkcs1: &[u8]) -> VerifyingKey {
    VerifyingKey {
        algorithm: Algorithm::RS256,
        key: DecodingKey::from_rsa_der(pkcs1),
        kid: key_id(Algorithm::RS256, pkcs1),
    }
}

impl SigningKey {
    /// A new ECDSA P-256 key.
    pub fn generate() -> Result<SigningKey, KeyError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|e| KeyError::Invalid(e.to_string()))?;
        SigningKey::from_ec_pkcs8(pkcs8.as_ref())
    }

    fn from_ec_pkcs8(der: &[u8]) -> Result<SigningKey, KeyError> {
        let rng = SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, der, &rng)
            .map_err(|e| {
                KeyError::Invalid(format!(
                    "PRIVATE KEY: not an ECDSA P-256 key ({e}); RSA keys are read as RSA PRIVATE KEY (PKCS#1)"
                ))
            })?;
        let pem = rustls_pki_types::PrivatePkcs8KeyDer::from(der.to_vec());
        Ok(SigningKey {
            algorithm: Algorithm::ES256,
            key: EncodingKey::from_ec_der(der),
            public: ec_verifying(pair.public_key().as_ref())?,
            pkcs8_pem: Some(pem_encode("PRIVATE KEY", pem.secret_pkcs8_der())),
        })
    }

    fn from_rsa_pkcs1(der: &[u8]) -> Result<SigningKey, KeyError> {
        let pair = RsaKeyPair::from_der(der)
            .map_err(|e| KeyError::Invalid(format!("RSA PKCS#1 key: {e}")))?;
        Ok(SigningKey {
            algorithm: Algorithm::RS256,
            key: EncodingKey::from_rsa_der(der),
            public: rsa_verifying(pair.public().as_ref()),
            pkcs8_pem: None,
        })
    }

    /// The private key of a PEM file: an ECDSA P-256 key in PKCS#8 (`PRIVATE KEY`) or an
    /// RSA key in PKCS#1 (`RSA PRIVATE KEY`).
    pub fn from_pem(pem: &[u8]) -> Result<SigningKey, KeyError> {
        for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(pem) {
            let (kind, der) = section.map_err(|e| KeyError::Invalid(e.to_string()))?;
            match kind {
                SectionKind::PrivateKey => return SigningKey::from_ec_pkcs8(&der),
                SectionKind::RsaPrivateKey => return SigningKey::from_rsa_pkcs1(&der),
                SectionKind::EcPrivateKey => {
                    return Err(KeyError::Unsupported(
                        "an EC PRIVATE KEY (SEC1) is not supported: convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)".to_owned(),
                    ));
                }
                _ => {}
            }
        }
        Err(KeyError::Unsupported(
            "no private key found (PRIVATE KEY with an ECDSA P-256 key, or RSA PRIVATE KEY)"
                .to_owned(),
        ))
    }

    /// The key as PKCS#8 PEM, to be kept and read back with [`from_pem`](Self::from_pem)
    /// (generated keys only; a key read from a file is in that file).
    pub fn to_pem(&self) -> Option<&str> {
        self.pkcs8_pem.as_deref()
    }

    /// The key that verifies its signatures.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.public
    }
}

impl VerifyingKey {
    /// The public keys of a PEM file (`--service-account-key-file`): `PUBLIC KEY`
    /// (PKIX, RSA or ECDSA P-256), `RSA PUBLIC KEY`, or private keys, whose public halves
    /// are taken.
    pub fn from_pem(pem: &[u8]) -> Result<Vec<VerifyingKey>, KeyError> {
        let mut keys = Vec::new();
        for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(pem) {
            let (kind, der) = section.map_err(|e| KeyError::Invalid(e.to_string()))?;
            match kind {
                SectionKind::PrivateKey | SectionKind::RsaPrivateKey => {
                    keys.push(SigningKey::from_pem(pem_encode_kind(kind, &der).as_bytes())?.public);
                }
                SectionKind::PublicKey => keys.push(public_from_spki(&der)?),
                _ => {}
            }
        }
        if keys.is_empty() {
            return Err(KeyError::Unsupported(
                "no public or private key found".to_owned(),
            ));
        }
        Ok(keys)
    }

    /// Its key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }
}

fn public_from_spki(der: &[u8]) -> Result<VerifyingKey, KeyError> {
    // The algorithm identifier comes first; the key is the BIT STRING's content that
    // ends the structure.
    let is_ec = der
        .windows(7)
        .any(|w| w == [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
    let pem = pem_encode("PUBLIC KEY", der);
    if is_ec {
        let point = der
            .get(der.len().saturating_sub(65)..)
            .ok_or_else(|| KeyError::Invalid("short EC public key".to_owned()))?;
        ec_verifying(point)
    } else {
        let key = DecodingKey::from_rsa_pem(pem.as_bytes())
            .map_err(|e| KeyError::Invalid(e.to_string()))?;
        Ok(VerifyingKey {
            algorithm: Algorithm::RS256,
            key,
            kid: URL_SAFE_NO_PAD.encode(Sha256::digest(der)),
        })
    }
}

fn pem_encode(label: &str, der: &[u8]) -> String {
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in body.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

fn pem_encode_kind(kind: SectionKind, der: &[u8]) -> String {
    let label = match kind {
        SectionKind::RsaPrivateKey => "RSA PRIVATE KEY",
        _ => "PRIVATE KEY",
    };
    pem_encode(label, der)
}

/// A reference in the `kubernetes.io` claim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Ref {
    #[serde(default)]
    name: String,
    #[serde(default)]
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

fn store(scheme: &Arc<Scheme>, storage: &Arc<dyn Storage>, info: ResourceInfo) -> Store {
    Store::new(scheme.clone(), storage.clone(), info)
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
        let Some((sa_uid, _)) = self.lookup.get("serviceaccounts", namespace, name).await? else {
            return Err(errors::new_not_found(
                &GroupResource::new("", "serviceaccounts"),
                name,
            ));
        };
        let spec = request.get("spec").cloned().unwrap_or_else(|| json!({}));
        let expiration = match spec.get("expirationSeconds") {
            None | Some(Value::Null) => DEFAULT_EXPIRATION_SECONDS,
            Some(v) => v.as_i64().ok_or_else(|| {
                errors::new_bad_request("spec.expirationSeconds must be an integer")
            })?,
        };
        if expiration < MIN_EXPIRATION_SECONDS {
            return Err(invalid_token_request(
                name,
                "spec.expirationSeconds",
                &expiration.to_string(),
                "may not specify a duration less than 10 minutes",
            ));
        }
        if expiration > MAX_EXPIRATION_SECONDS {
            return Err(invalid_token_request(
                name,
                "spec.expirationSeconds",
                &expiration.to_string(),
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
        let mut audiences: Vec<String> = spec
            .get("audiences")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if audiences.is_empty() {
            audiences = self.audiences.clone();
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
            let (resource, bound_namespace) = match (api_version, kind) {
                ("v1", "Pod") => ("pods", namespace),
                ("v1", "Secret") => ("secrets", namespace),
                ("v1", "Node") => ("nodes", ""),
                _ => {
                    return Err(errors::new_bad_request(format!(
                        "cannot bind token for object of type {api_version}, Kind={kind}"
                    )));
                }
            };
            let Some((uid, _)) = self
                .lookup
                .get(resource, bound_namespace, bound_name)
                .await?
            else {
                return Err(errors::new_not_found(
                    &GroupResource::new("", resource),
                    bound_name,
                ));
            };
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

    /// `POST .../serviceaccounts/NAME/token`: decodes the `TokenRequest`, issues the
    /// token, and answers 201 with the request and its status.
    pub async fn handle_token_request(
        &self,
        h: &Handler<'_>,
        body: &[u8],
        media: MediaType,
    ) -> Result<Reply, StatusError> {
        let gvk = GroupVersionKind::new("authentication.k8s.io", "v1", "TokenRequest");
        let (obj, warnings) = h.decode_body(body, media, &gvk)?;
        let namespace = h.info.namespace.as_deref().unwrap_or_default();
        let answered = self
            .request_token(namespace, &h.info.name, to_json(&*obj)?)
            .await?;
        let obj: Box<dyn Object> = from_value(h.scheme, &gvk, answered)?;
        h.reply(201, &*obj, warnings)
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
        let issuer = serde_json::from_slice::<Value>(&payload)
            .ok()
            .and_then(|v| v.get("iss").and_then(Value::as_str).map(str::to_owned));
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
                            "token audiences are invalid for the target audiences {audiences:?}"
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

fn invalid_token_request(name: &str, field: &str, value: &str, detail: &str) -> StatusError {
    errors::new_invalid(
        &GroupKind::new("authentication.k8s.io", "TokenRequest"),
        name,
        &ErrorList(vec![Error::invalid(&Path::new(field), value, detail)]),
    )
}

#[cfg(test)]
mod tests;
