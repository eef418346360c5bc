//! `Time`, `MicroTime` and `Duration` parsing (Go's `time.Parse(time.RFC3339, ..)`,
//! `RFC3339Micro` and `time.ParseDuration`). Properties: no panic; what is written reads
//! back as the same instant (at the precision written) and the same duration.
#![no_main]

use apimachinery::apis::meta::v1::{Duration, MicroTime, Time};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(time) = Time::parse_rfc3339(text) {
        let written = time.to_rfc3339();
        // Years outside 0..=9999 are written as Go writes them, which RFC 3339 cannot read.
        if let Ok(back) = Time::parse_rfc3339(&written) {
            assert!(
                back == time.truncate_to_seconds(),
                "{text:?} → {written} → {back:?}"
            );
        }
        let _ = serde_json::to_string(&time);
    }
    if let Ok(micro) = MicroTime::parse_rfc3339(text) {
        let written = micro.to_rfc3339();
        if let Ok(back) = MicroTime::parse_rfc3339(&written) {
            assert!(
                back == micro.truncate_to_micros(),
                "{text:?} → {written} → {back:?}"
            );
        }
        let _ = serde_json::to_string(&micro);
    }
    if let Ok(duration) = text.parse::<Duration>() {
        let written = duration.to_string();
        match written.parse::<Duration>() {
            Ok(back) => assert!(back == duration, "{text:?} → {written} → {back:?}"),
            Err(e) => panic!("{text:?} → {written}, which does not parse: {e}"),
        }
        let _ = std::time::Duration::try_from(duration);
    }
});
