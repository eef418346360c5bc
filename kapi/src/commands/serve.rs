//! `kapi serve`: the built-in API served over HTTP by the `apiserver` crate, on in-memory
//! storage by default, until SIGINT or SIGTERM.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use apiserver::server::Config;
use apiserver::storage::{MemoryStorage, Storage};

use super::CommandError;
use crate::cli::ServeArgs;
use crate::scheme::scheme;

/// The names of the cluster, user and context in the kubeconfig written.
const KUBECONFIG_NAME: &str = "kapi";

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let storage: Arc<dyn Storage> = match (&args.data_dir, args.etcd_servers.is_empty()) {
        (Some(dir), _) => {
            return Err(format!(
                "--data-dir {}: the embedded storage backend is not part of this build yet; run without it for in-memory storage",
                dir.display()
            )
            .into());
        }
        (None, false) => {
            return Err(format!(
                "--etcd-servers {}: the etcd storage backend is not part of this build yet; run without it for in-memory storage",
                args.etcd_servers.join(",")
            )
            .into());
        }
        (None, true) => Arc::new(MemoryStorage::new()),
    };
    let scheme = Arc::new(scheme()?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Config::new(scheme, storage).serve(args.listen).await?;
        let url = server.url();
        if let Some(path) = &args.kubeconfig {
            write_kubeconfig(path, &url)?;
        }
        writeln!(out, "kapi serve: serving the Kubernetes 1.36 API at {url}")?;
        if let Some(path) = &args.kubeconfig {
            writeln!(
                out,
                "kubeconfig: {} (kubectl --kubeconfig {})",
                path.display(),
                path.display()
            )?;
        }
        out.flush()?;
        wait_for_signal().await?;
        writeln!(out, "kapi serve: shutting down")?;
        out.flush()?;
        server.shutdown().await;
        Ok::<(), CommandError>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A kubeconfig with one cluster, user and context named `kapi`, current.
fn kubeconfig(url: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: {KUBECONFIG_NAME}\n  cluster:\n    server: {url}\nusers:\n- name: {KUBECONFIG_NAME}\n  user: {{}}\ncontexts:\n- name: {KUBECONFIG_NAME}\n  context:\n    cluster: {KUBECONFIG_NAME}\n    user: {KUBECONFIG_NAME}\n    namespace: default\ncurrent-context: {KUBECONFIG_NAME}\npreferences: {{}}\n"
    )
}

fn write_kubeconfig(path: &Path, url: &str) -> Result<(), CommandError> {
    std::fs::write(path, kubeconfig(url))
        .map_err(|e| format!("cannot write kubeconfig {}: {e}", path.display()).into())
}

async fn wait_for_signal() -> Result<(), CommandError> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r?,
        _ = term.recv() => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubeconfig_names_cluster_user_and_context() {
        let k = kubeconfig("http://127.0.0.1:1234");
        assert!(k.contains("server: http://127.0.0.1:1234"));
        assert!(k.contains("current-context: kapi"));
    }
}
