//! `kapi serve` driven by the official Python `kubernetes` client (PyPI): typed CRUD, a
//! list with selectors and paging, a conflict, the scale subresource and a watch
//! (`tests/data/python_client.py`). Skipped with a notice when the client is not
//! installed (`pip install kubernetes`), except under CI, which installs it (`.ci/run`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{TestResult, kapi};

fn python_client_available() -> bool {
    Command::new("python3")
        .args(["-c", "import kubernetes"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn python_client_against_kapi_serve() -> TestResult {
    if !python_client_available() {
        // CI installs the client (.ci/run); there a missing client is a failure.
        assert!(
            std::env::var_os("CI").is_none(),
            "the Python kubernetes client is not installed (pip install kubernetes)"
        );
        eprintln!(
            "the Python kubernetes client is not installed (pip install kubernetes): skipping"
        );
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("kapi-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let kubeconfig = dir.join("kubeconfig");
    let bin = kapi()?.get_program().to_owned();
    let mut server = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
        .arg(&kubeconfig)
        .stdout(Stdio::piped())
        .spawn()?;
    let mut first = String::new();
    BufReader::new(server.stdout.as_mut().unwrap()).read_line(&mut first)?;
    let script = format!("{}/tests/data/python_client.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(&kubeconfig)
        .output();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    assert!(
        out.status.success() && out.stdout == b"ok\n",
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}
