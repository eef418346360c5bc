//! A fake client for unit tests (controller-runtime's `client/fake`) that cannot diverge
//! from the server: it is the [`Client`] in front of the `apiserver` crate's in-process
//! server on a loopback port, over in-memory storage. resourceVersions, generation bumps
//! on spec changes, 409 Conflict on stale writes, AlreadyExists and NotFound,
//! `deletionTimestamp` with finalizers, label and field selectors, watches: all are the
//! server's own behaviour, not a re-implementation (Go's fake client is criticised for
//! diverging exactly there).
//!
//! It needs the `envtest` feature (on by default).
//!
//! ```
//! use controller_runtime::client::ObjectKey;
//! use controller_runtime::client::fake::FakeClientBuilder;
//! use k8s_types::core::v1::ConfigMap;
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let mut seed = ConfigMap::default();
//! seed.metadata.name = "seed".into();
//! seed.metadata.namespace = "default".into();
//! let fake = FakeClientBuilder::new().with_object(seed).build().await?;
//!
//! let mut cm: ConfigMap = fake.get(&ObjectKey::new("default", "seed")).await?;
//! cm.data.insert("k".into(), "v".into());
//! fake.update(&cm, &Default::default()).await?;
//! // The copy read before the update is stale now.
//! assert!(fake.update(&cm, &Default::default()).await.unwrap_err().is_conflict());
//! fake.stop().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use http::Method;

use super::{Client, ClientOptions, Error, WireFormat};
use crate::envtest::{Environment, EnvtestError};

/// Why a fake client could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FakeClientError {
    /// The in-process server did not start.
    #[error(transparent)]
    Envtest(#[from] EnvtestError),
    /// An initial object could not be created (its error names it).
    #[error("creating initial object {name:?}: {source}")]
    InitialObject {
        /// `namespace/name` of the object.
        name: String,
        /// The server's answer.
        #[source]
        source: Error,
    },
    /// The client could not be made.
    #[error(transparent)]
    Client(Error),
}

/// Builds a [`FakeClient`] (Go's `fake.NewClientBuilder()`).
#[derive(Debug, Default)]
pub struct FakeClientBuilder {
    scheme: Option<Arc<Scheme>>,
    objects: Vec<Box<dyn Object>>,
    wire_format: WireFormat,
}

impl FakeClientBuilder {
    /// A builder serving every built-in kind.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves the kinds of `scheme` instead (your own kinds with the built-in ones).
    pub fn with_scheme(mut self, scheme: Arc<Scheme>) -> Self {
        self.scheme = Some(scheme);
        self
    }

    /// An object that exists from the start (created in order; namespaces other than
    /// the default ones must be among them before their objects).
    pub fn with_object(mut self, obj: impl Object) -> Self {
        self.objects.push(Box::new(obj));
        self
    }

    /// Several objects that exist from the start.
    pub fn with_objects(mut self, objs: impl IntoIterator<Item = Box<dyn Object>>) -> Self {
        self.objects.extend(objs);
        self
    }

    /// JSON instead of protobuf between the client and the server.
    pub fn with_wire_format(mut self, wire_format: WireFormat) -> Self {
        self.wire_format = wire_format;
        self
    }

    /// Starts the server, creates the initial objects, and returns the client.
    pub async fn build(self) -> Result<FakeClient, FakeClientError> {
        let env = match self.scheme {
            Some(scheme) => Environment::start_with_scheme(scheme).await?,
            None => Environment::start().await?,
        };
        let client = Client::with_options(
            env.config(),
            env.scheme(),
            ClientOptions {
                wire_format: self.wire_format,
            },
        )
        .map_err(FakeClientError::Client)?;
        for obj in self.objects {
            if let Err(source) = client.write_erased(Method::POST, &*obj, None, &[]).await {
                return Err(FakeClientError::InitialObject {
                    name: super::ObjectKey::of(&*obj).to_string(),
                    source,
                });
            }
        }
        Ok(FakeClient { client, env })
    }
}

/// The fake client: a [`Client`] (it derefs to one) with its in-process server.
#[derive(Debug)]
pub struct FakeClient {
    client: Client,
    env: Environment,
}

impl FakeClient {
    /// The client (clone it to share).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The environment behind it (its config, for a second client or a cache).
    pub fn environment(&self) -> &Environment {
        &self.env
    }

    /// Stops the server.
    pub async fn stop(self) {
        self.env.stop().await;
    }
}

impl std::ops::Deref for FakeClient {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}
