//! HTTP dates (`Mon, 02 Jan 2006 15:04:05 GMT`), for `Last-Modified` and `Expires`.

use std::time::{SystemTime, UNIX_EPOCH};

const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `time` in RFC 1123 form with the given zone name: Go writes `Last-Modified` with `GMT`
/// (`http.TimeFormat`) and `Expires` with the zone's name (`time.RFC1123`, `UTC` on a
/// server in UTC). Times before 1970 are written as 1970.
pub fn format(time: SystemTime, zone: &str) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    let weekday = WEEKDAYS[(days % 7) as usize];
    let month_name = MONTHS[(month - 1) as usize];
    format!(
        "{weekday}, {day:02} {month_name} {year} {:02}:{:02}:{:02} {zone}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// (year, month 1..=12, day 1..=31) of a day count since 1970-01-01 (Howard Hinnant's
/// days-to-civil algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn formats_like_go() {
        assert_eq!(format(UNIX_EPOCH, "GMT"), "Thu, 01 Jan 1970 00:00:00 GMT");
        // 2006-01-02T15:04:05Z, Go's reference time.
        let reference = UNIX_EPOCH + Duration::from_secs(1_136_214_245);
        assert_eq!(format(reference, "UTC"), "Mon, 02 Jan 2006 15:04:05 UTC");
        // A leap day.
        let leap = UNIX_EPOCH + Duration::from_secs(1_709_164_800);
        assert_eq!(format(leap, "GMT"), "Thu, 29 Feb 2024 00:00:00 GMT");
    }
}
