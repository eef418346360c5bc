//! Requests per second of an authorized `get` under RBAC, with 1,000 RoleBindings and
//! 100 ClusterRoles stored, beside the same request under `AlwaysAllow`: what the
//! authorizer costs a request (issue 19's performance item).
//!
//! ```text
//! cargo run -p apiserver --example authorization_throughput -- [REQUESTS] [CLIENTS] [BINDINGS]
//! ```
//!
//! Each server answers REQUESTS (default 20,000) GETs of one ConfigMap, spread over
//! CLIENTS concurrent tasks (default 4), in process (`ApiServerHandler::serve_http`, no
//! sockets, so that the numbers are the server's). The user is bound to a ClusterRole
//! by one of the 1,000 RoleBindings; the others bind other users in 100 namespaces.
//! The authorizer alone is timed too. BINDINGS (default 1,000) changes the number of
//! RoleBindings, to show that a decision does not grow with it.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::Scheme;
use apiserver::authentication::user::{ALL_AUTHENTICATED, Info};
use apiserver::authentication::{AuthenticationError, Authenticator, Request as AuthRequest};
use apiserver::authorization::rbac::{Rbac, bootstrap};
use apiserver::authorization::{
    AlwaysAllow, Attributes, Authorizer, Decision, Named, PrivilegedGroups, Union,
};
use apiserver::registry::{from_value, resources_from_scheme};
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::{MemoryStorage, Storage};
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};

const CLUSTER_ROLES: usize = 100;
const NAMESPACES: usize = 100;

/// Every request is from `bench`, an authenticated user.
#[derive(Debug)]
struct Bench;

#[async_trait::async_trait]
impl Authenticator for Bench {
    async fn authenticate(&self, _: &AuthRequest<'_>) -> Result<Option<Info>, AuthenticationError> {
        Ok(Some(bench_user()))
    }
}

fn bench_user() -> Info {
    Info {
        name: "bench".into(),
        groups: vec![ALL_AUTHENTICATED.into()],
        ..Info::default()
    }
}

async fn create(
    scheme: &Arc<Scheme>,
    storage: &Arc<dyn Storage>,
    group: &str,
    resource: &str,
    namespace: &str,
    value: Value,
) -> Result<(), String> {
    let resources = resources_from_scheme(scheme);
    let info = resources
        .get(&(group.to_owned(), resource.to_owned()))
        .ok_or_else(|| format!("{resource} not served"))?;
    let store = apiserver::authorization::rbac::store(scheme, storage, info.clone());
    let obj = from_value(scheme, &info.storage_gvk, value).map_err(|e| e.status.message)?;
    store
        .create(namespace, obj, false)
        .await
        .map(|_| ())
        .map_err(|e| e.status.message)
}

/// The stored objects: bootstrap policy, 100 ClusterRoles, 1,000 RoleBindings in 100
/// namespaces, and the ConfigMap the requests read.
async fn populate(
    scheme: &Arc<Scheme>,
    storage: &Arc<dyn Storage>,
    bindings: usize,
) -> Result<(), String> {
    const RBAC: &str = "rbac.authorization.k8s.io";
    bootstrap::ensure(scheme, storage)
        .await
        .map_err(|e| e.status.message)?;
    for i in 0..CLUSTER_ROLES {
        let role = json!({"metadata": {"name": format!("role-{i:03}")}, "rules": [
            {"verbs": ["get", "list", "watch"], "apiGroups": [""], "resources": ["configmaps", "pods", "services"]},
            {"verbs": ["get"], "apiGroups": ["apps"], "resources": [format!("things-{i}")]},
        ]});
        create(scheme, storage, RBAC, "clusterroles", "", role).await?;
    }
    for i in 0..bindings {
        let namespace = format!("ns-{:03}", i % NAMESPACES);
        let user = if i == 0 {
            "bench".to_owned()
        } else {
            format!("user-{i:04}")
        };
        let binding = json!({"metadata": {"name": format!("binding-{i:04}")},
            "roleRef": {"apiGroup": RBAC, "kind": "ClusterRole", "name": format!("role-{:03}", i % CLUSTER_ROLES)},
            "subjects": [{"kind": "User", "apiGroup": RBAC, "name": user}]});
        create(scheme, storage, RBAC, "rolebindings", &namespace, binding).await?;
    }
    create(
        scheme,
        storage,
        "",
        "configmaps",
        "ns-000",
        json!({"metadata": {"name": "settings"}, "data": {"k": "v"}}),
    )
    .await
}

async fn requests_per_second(
    handler: Arc<ApiServerHandler>,
    requests: usize,
    clients: usize,
) -> Result<f64, String> {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..clients {
        let handler = handler.clone();
        let count = requests / clients + usize::from(client < requests % clients);
        tasks.push(tokio::spawn(async move {
            for _ in 0..count {
                let request = Request::get("/api/v1/namespaces/ns-000/configmaps/settings")
                    .body(Body::empty())
                    .map_err(|e| e.to_string())?;
                let status = handler.serve_http(request).await.status();
                if status != 200 {
                    return Err(format!("GET answered {status}"));
                }
            }
            Ok::<(), String>(())
        }));
    }
    for task in tasks {
        task.await.map_err(|e| e.to_string())??;
    }
    Ok(requests as f64 / started.elapsed().as_secs_f64())
}

async fn run(requests: usize, clients: usize, bindings: usize) -> Result<(), String> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).map_err(|e| e.to_string())?;
    let scheme = Arc::new(scheme);
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    populate(&scheme, &storage, bindings).await?;
    let rbac = Rbac::new(scheme.clone(), storage.clone());
    println!(
        "stored: {} roles and bindings ({CLUSTER_ROLES} ClusterRoles and {bindings} RoleBindings besides the bootstrap policy)",
        rbac.len().await
    );
    let union: Arc<dyn Authorizer> = Arc::new(Union::new(vec![
        Named::new(Named::PRIVILEGED_GROUPS, Arc::new(PrivilegedGroups)),
        Named::new("rbac", rbac.clone()),
    ])?);
    let attributes = Attributes {
        user: bench_user(),
        verb: "get".into(),
        resource_request: true,
        namespace: "ns-000".into(),
        api_version: "v1".into(),
        resource: "configmaps".into(),
        name: "settings".into(),
        ..Attributes::default()
    };
    let started = Instant::now();
    for _ in 0..requests {
        if union.authorize(&attributes).await.0 != Decision::Allow {
            return Err("RBAC does not allow the benchmark's request".into());
        }
    }
    let per_call = started.elapsed() / u32::try_from(requests).unwrap_or(u32::MAX);
    println!("RBAC authorize alone: {per_call:?} per decision ({requests} decisions)");
    for (name, authorizer) in [
        ("AlwaysAllow", Arc::new(AlwaysAllow) as Arc<dyn Authorizer>),
        ("RBAC", union),
    ] {
        let handler = Config::new(scheme.clone(), storage.clone())
            .authenticator(Arc::new(Bench))
            .authorizer(authorizer)
            .handler("127.0.0.1:6443")
            .await
            .map_err(|e| e.to_string())?;
        let handler = Arc::new(handler);
        // One warm-up pass, then the measured one.
        requests_per_second(handler.clone(), requests / 10 + 1, clients).await?;
        let rate = requests_per_second(handler, requests, clients).await?;
        println!("{name:>12}: {rate:>9.0} GET/s ({requests} requests, {clients} clients)");
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let requests = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let clients = args.next().and_then(|a| a.parse().ok()).unwrap_or(4).max(1);
    let bindings = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000)
        .max(1);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(requests, clients, bindings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
