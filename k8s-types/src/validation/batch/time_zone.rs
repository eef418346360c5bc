//! Time zones as Go's `time.LoadLocation` finds them, for a CronJob's `timeZone` and a
//! schedule's `TZ=` prefix: in the tz database of the machine (`$ZONEINFO`, then the
//! directories Go looks in on Unix), with Go's errors. kube-apiserver embeds Go's own
//! copy of the database for machines without one; here such a machine knows no zone
//! but `UTC`.

use std::path::PathBuf;

/// Where Go looks for the tz database on Unix (`platformZoneSources`).
const ZONE_SOURCES: [&str; 4] = [
    "/usr/share/zoneinfo/",
    "/usr/share/lib/zoneinfo/",
    "/usr/lib/locale/TZ/",
    "/etc/zoneinfo",
];

/// Go's `time.LoadLocation`: `Ok` when `name` is a zone, else Go's error text.
pub(crate) fn load_location(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(());
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".to_owned());
    }
    let mut first_err: Option<String> = None;
    let zoneinfo = std::env::var("ZONEINFO").unwrap_or_default();
    // A zip of zones (Go's own `zoneinfo.zip`) is not read here.
    let env_source = (!zoneinfo.is_empty() && !zoneinfo.ends_with(".zip")).then_some(zoneinfo);
    for dir in env_source.iter().map(String::as_str).chain(ZONE_SOURCES) {
        match read_zone(dir, name) {
            Ok(()) => return Ok(()),
            Err(None) => {}
            Err(Some(e)) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| format!("unknown time zone {name}")))
}

/// One source's answer: found and well formed, absent (`None`), or Go's error.
fn read_zone(dir: &str, name: &str) -> Result<(), Option<String>> {
    let path = PathBuf::from(format!("{dir}/{name}"));
    match std::fs::read(&path) {
        Ok(data) if data.len() >= 44 && data.starts_with(b"TZif") => Ok(()),
        Ok(_) => Err(Some("malformed time zone information".to_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(None),
        Err(e) => Err(Some(errno_text(&e))),
    }
}

/// The text Go's `syscall.Errno` gives the errors reading a zone can meet.
fn errno_text(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(20) => "not a directory".to_owned(),
        Some(21) => "is a directory".to_owned(),
        Some(13) => "permission denied".to_owned(),
        Some(36) => "file name too long".to_owned(),
        Some(40) => "too many levels of symbolic links".to_owned(),
        _ => e.kind().to_string(),
    }
}
