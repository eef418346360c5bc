//! Server-side apply of typed objects: [`Client::apply`] and its [`ApplyOptions`].

use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::{Client, Error, Patch, PatchOptions, codec};

/// How an apply is made: who applies, and whether it takes over fields other managers
/// own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplyOptions {
    /// The field manager (Go's `client.FieldOwner`), required by the server.
    pub field_manager: String,
    /// Take over fields owned by other managers instead of failing with a conflict
    /// (Go's `client.ForceOwnership`).
    pub force: bool,
    /// Validate and admit, but do not persist.
    pub dry_run: bool,
}

impl ApplyOptions {
    /// An apply by `field_manager`, failing on conflicts.
    pub fn new(field_manager: impl Into<String>) -> Self {
        Self {
            field_manager: field_manager.into(),
            ..Self::default()
        }
    }

    /// Takes over conflicting fields.
    pub fn force(mut self) -> Self {
        self.force = true;
        self
    }

    fn patch_options(&self) -> PatchOptions {
        PatchOptions {
            dry_run: self.dry_run,
            field_manager: Some(self.field_manager.clone()),
            force: self.force,
        }
    }
}

impl Client {
    /// Applies `obj` server-side and returns the object as stored (Go's `client.Apply`
    /// patch with `client.FieldOwner` and `client.ForceOwnership`): the object is sent
    /// whole as the field manager's intent, with its `apiVersion` and `kind`; the server
    /// creates it or merges it into the stored one, and records which fields the manager
    /// owns. [`Patch::Apply`] stays for an intent written as JSON by hand.
    ///
    /// A typed object states every field its type serializes, so the manager owns all of
    /// them; fields left at their defaults and omitted by the encoder (as Go's `omitempty`)
    /// are not claimed. Start from `T::default()` with only what the manager decides, not
    /// from an object read back from the server.
    ///
    /// ```no_run
    /// use controller_runtime::client::{ApplyOptions, Client};
    /// use k8s_types::core::v1::ConfigMap;
    ///
    /// # async fn run(client: Client) -> Result<(), controller_runtime::client::Error> {
    /// let mut cm = ConfigMap::default();
    /// cm.metadata.namespace = "default".into();
    /// cm.metadata.name = "settings".into();
    /// cm.data.insert("mode".into(), "fast".into());
    /// let stored = client.apply(&cm, &ApplyOptions::new("example.com/tuner").force()).await?;
    /// # let _ = stored; Ok(()) }
    /// ```
    pub async fn apply<T: Object>(&self, obj: &T, opts: &ApplyOptions) -> Result<T, Error> {
        let patch = self.apply_patch(obj)?;
        self.patch(obj, &patch, &opts.patch_options()).await
    }

    /// The [`Patch::Apply`] that states `obj`: its JSON with `apiVersion` and `kind`
    /// from the Scheme (an unstructured object's own), without `managedFields`, which an
    /// apply must not carry.
    pub fn apply_patch(&self, obj: &dyn Object) -> Result<Patch, Error> {
        let gvk = self.gvk_of(obj)?;
        let encode_error = |message: String| Error::Encode {
            gvk: gvk.clone(),
            message,
        };
        let mut value = if obj.is_unstructured() {
            serde_json::to_value(obj).map_err(|e| encode_error(e.to_string()))?
        } else {
            let mut typed = obj.deep_copy_object();
            typed.set_group_version_kind(&gvk);
            let json = codec::encode(self.scheme(), &*typed, false).map_err(encode_error)?;
            serde_json::from_slice(&json).map_err(|e| encode_error(e.to_string()))?
        };
        if let Some(meta) = value
            .get_mut("metadata")
            .and_then(serde_json::Value::as_object_mut)
        {
            meta.remove("managedFields");
        }
        Ok(Patch::Apply(value))
    }
}

/// The body of a [`Patch::Apply`] to an object of `target`: the intent as given, its
/// `apiVersion` and `kind` filled in from `target` when left out (the server requires
/// them), and refused before anything is sent when they name another kind or version,
/// or when the intent is not a JSON object. An apply of the wrong kind would otherwise
/// reach the server as a request about the target and fail there with a less telling
/// message, or not at all.
pub(super) fn apply_intent(intent: &Value, target: &GroupVersionKind) -> Result<Vec<u8>, Error> {
    let mismatch = |problem: String| Error::ApplyMismatch {
        target: target.clone(),
        problem,
    };
    let Value::Object(fields) = intent else {
        return Err(mismatch(format!("is not a JSON object: {intent}")));
    };
    let api_version = target.group_version().api_version();
    let mut filled = fields.clone();
    for (field, want) in [
        ("apiVersion", api_version.as_str()),
        ("kind", target.kind.as_str()),
    ] {
        match fields.get(field) {
            None => {
                filled.insert(field.into(), want.into());
            }
            Some(Value::String(given)) if given == want => {}
            Some(given) => return Err(mismatch(format!("names {field} {given}, not {want:?}"))),
        }
    }
    Ok(Value::Object(filled).to_string().into_bytes())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::ManagedFieldsEntry;
    use std::sync::Arc;

    #[test]
    fn the_patch_states_the_kind_and_no_managed_fields() {
        let mut scheme = apimachinery::runtime::Scheme::new();
        k8s_types::register(&mut scheme).unwrap();
        let config = crate::config::Config::new("https://127.0.0.1:1");
        let client = Client::new(&config, Arc::new(scheme)).unwrap();
        let mut cm = k8s_types::core::v1::ConfigMap::default();
        cm.metadata.namespace = "default".into();
        cm.metadata.name = "a".into();
        cm.metadata.managed_fields = vec![ManagedFieldsEntry::default()];
        cm.data.insert("k".into(), "v".into());
        let Patch::Apply(value) = client.apply_patch(&cm).unwrap() else {
            panic!("not an apply patch");
        };
        assert_eq!(value["apiVersion"], "v1");
        assert_eq!(value["kind"], "ConfigMap");
        assert_eq!(value["data"]["k"], "v");
        assert!(value["metadata"].get("managedFields").is_none());
        let opts = ApplyOptions::new("me").force().patch_options();
        assert_eq!(opts.field_manager.as_deref(), Some("me"));
        assert!(opts.force && !opts.dry_run);
    }

    #[test]
    fn an_apply_intent_is_checked_against_its_target() {
        let target = GroupVersionKind::new("apps", "v1", "Deployment");
        let body = |v: Value| {
            apply_intent(&v, &target).map(|b| serde_json::from_slice::<Value>(&b).unwrap())
        };
        // Stated and right: sent as it is.
        let full = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 2}});
        assert_eq!(body(full.clone()).unwrap(), full);
        // Left out: filled in.
        let partial = serde_json::json!({"metadata": {"name": "web"}, "spec": {"replicas": 2}});
        assert_eq!(body(partial).unwrap(), full_with_name(full));
        // Another kind or version, or not an object: refused, naming both sides.
        for wrong in [
            serde_json::json!({"apiVersion": "apps/v1", "kind": "StatefulSet"}),
            serde_json::json!({"apiVersion": "apps/v1beta1", "kind": "Deployment"}),
            serde_json::json!({"kind": "ConfigMap"}),
            serde_json::json!({"apiVersion": 1}),
            serde_json::json!([1]),
        ] {
            let err = body(wrong.clone()).unwrap_err();
            assert!(matches!(err, Error::ApplyMismatch { .. }), "{wrong}: {err}");
            assert!(
                err.to_string()
                    .starts_with("the apply patch for apps/v1, Kind=Deployment "),
                "{err}"
            );
        }
    }

    fn full_with_name(mut v: Value) -> Value {
        v["metadata"] = serde_json::json!({"name": "web"});
        v
    }
}
