//! Kubeconfig loading (client-go's `clientcmd`): YAML, the clusters/users/contexts
//! lists, the current or a named context, `*-data` fields in base64, files named
//! relative to the kubeconfig, exec plugin specs (parsed, never run here).
//! Properties: no panic, no hang (a named file that never ends is refused), and what
//! loads has a server.
#![no_main]

use std::path::Path;

use controller_runtime::config::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A directory that does not exist: relative file names fail to read instead of
    // reading whatever the fuzzer's working directory holds.
    let origin = Path::new("/nonexistent-kapi-fuzz/kubeconfig");
    for context in [None, Some("x")] {
        if let Ok(config) = Config::from_kubeconfig_str(text, origin, context) {
            assert!(!config.host.is_empty(), "{text:?} loaded without a server");
        }
    }
});
