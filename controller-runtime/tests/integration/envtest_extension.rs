//! envtest's extension point: extensions started with the environment once the server
//! answers, stopped last-first before it, and an extension's failure stopping the rest.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::envtest::{
    Environment, EnvtestError, Extension, ExtensionError, RunningExtension,
};
use futures_util::future::BoxFuture;
use k8s_types::core::v1::Namespace;

/// Records what happens to it in a log shared by the test.
#[derive(Debug)]
struct Recorder {
    name: &'static str,
    fail: bool,
    log: Arc<Mutex<Vec<String>>>,
}

#[derive(Debug)]
struct Running(&'static str, Arc<Mutex<Vec<String>>>);

impl Extension for Recorder {
    fn start<'a>(
        &'a self,
        env: &'a Environment,
    ) -> BoxFuture<'a, Result<Box<dyn RunningExtension>, ExtensionError>> {
        Box::pin(async move {
            // The server answers by now.
            let client = Client::new(env.config(), env.scheme())?;
            let _: Namespace = client.get(&ObjectKey::cluster("default")).await?;
            self.log
                .lock()
                .unwrap()
                .push(format!("start {}", self.name));
            if self.fail {
                return Err("refused".into());
            }
            Ok(Box::new(Running(self.name, self.log.clone())) as Box<dyn RunningExtension>)
        })
    }
}

impl RunningExtension for Running {
    fn stop(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async move { self.1.lock().unwrap().push(format!("stop {}", self.0)) })
    }
}

fn recorder(name: &'static str, fail: bool, log: &Arc<Mutex<Vec<String>>>) -> Recorder {
    Recorder {
        name,
        fail,
        log: log.clone(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extensions_start_in_order_and_stop_last_first() {
    let log = Arc::default();
    let env = Environment::builder()
        .with(recorder("a", false, &log))
        .with(recorder("b", false, &log))
        .start()
        .await
        .unwrap();
    assert_eq!(*log.lock().unwrap(), ["start a", "start b"]);
    env.stop().await;
    assert_eq!(
        *log.lock().unwrap(),
        ["start a", "start b", "stop b", "stop a"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_extension_stops_those_started_and_names_itself() {
    let log = Arc::default();
    let err = Environment::builder()
        .with(recorder("a", false, &log))
        .with(recorder("b", true, &log))
        .with(recorder("c", false, &log))
        .start()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, EnvtestError::Extension { name, .. } if name.contains("\"b\"")),
        "{err}"
    );
    assert!(err.to_string().ends_with(": refused"), "{err}");
    assert_eq!(*log.lock().unwrap(), ["start a", "start b", "stop a"]);
}
