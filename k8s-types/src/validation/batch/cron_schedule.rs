//! A CronJob's schedule as Kubernetes parses it: `robfig/cron/v3`'s `ParseStandard`
//! (five fields or an `@` descriptor, an optional `TZ=`/`CRON_TZ=` prefix), behind
//! Kubernetes' `ParseCronScheduleWithPanicRecovery`, with their error texts.

use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::go_quote;

use super::time_zone::load_location;

/// One field of a cron schedule: its bounds and names.
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [&'static str],
    /// What the first name stands for (months count from 1, weekdays from 0).
    first_name: u64,
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: &[&str] = &["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// Minute, hour, day of month, month, day of week (the standard parser's seconds are
/// always `0`, which parses).
const FIELDS: [Bounds; 5] = [
    Bounds {
        min: 0,
        max: 59,
        names: &[],
        first_name: 0,
    },
    Bounds {
        min: 0,
        max: 23,
        names: &[],
        first_name: 0,
    },
    Bounds {
        min: 1,
        max: 31,
        names: &[],
        first_name: 0,
    },
    Bounds {
        min: 1,
        max: 12,
        names: MONTHS,
        first_name: 1,
    },
    Bounds {
        min: 0,
        max: 6,
        names: WEEKDAYS,
        first_name: 0,
    },
];

/// Checks a schedule as Kubernetes does; the error is Go's text.
pub fn parse_schedule(spec: &str) -> Result<(), String> {
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // Go slices up to the first space; without one the slice panics, and
        // Kubernetes reports the recovered panic.
        let Some(space) = spec.find(' ') else {
            return Err(
                "invalid schedule format: runtime error: slice bounds out of range [:-1]"
                    .to_owned(),
            );
        };
        let eq = spec.find('=').unwrap_or(0);
        let zone = &spec[eq + 1..space];
        if let Err(e) = load_location(zone) {
            return Err(format!("provided bad location {zone}: {e}"));
        }
        spec = spec[space..].trim_matches(go_space);
    }
    if spec.starts_with('@') {
        return descriptor(spec);
    }
    let fields: Vec<&str> = spec.split(go_space).filter(|f| !f.is_empty()).collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, bounds) in fields.iter().zip(FIELDS.iter()) {
        for expr in field.split(',').filter(|e| !e.is_empty()) {
            range(expr, bounds)?;
        }
    }
    Ok(())
}

/// Go's `unicode.IsSpace`, which `strings.Fields` and `strings.TrimSpace` split on.
fn go_space(c: char) -> bool {
    c.is_whitespace()
}

/// The `@` descriptors.
fn descriptor(spec: &str) -> Result<(), String> {
    match spec {
        "@yearly" | "@annually" | "@monthly" | "@weekly" | "@daily" | "@midnight" | "@hourly" => {
            Ok(())
        }
        _ => match spec.strip_prefix("@every ") {
            Some(duration) => parse_duration(duration)
                .map_err(|e| format!("failed to parse duration {spec}: {e}")),
            None => Err(format!("unrecognized descriptor: {spec}")),
        },
    }
}

/// `robfig/cron`'s `mustParseInt`: Go's `strconv.Atoi`, not negative.
fn parse_int(expr: &str) -> Result<u64, String> {
    let digits = expr.strip_prefix(['+', '-']).unwrap_or(expr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {}: invalid syntax",
            go_quote(expr)
        ));
    }
    let Ok(n) = expr.parse::<i64>() else {
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {}: value out of range",
            go_quote(expr)
        ));
    };
    u64::try_from(n).map_err(|_| format!("negative number ({n}) not allowed: {expr}"))
}

fn parse_int_or_name(expr: &str, bounds: &Bounds) -> Result<u64, String> {
    let lower = to_lower(expr);
    match bounds.names.iter().position(|n| *n == lower) {
        Some(i) => Ok(u64::try_from(i).unwrap_or(0) + bounds.first_name),
        None => parse_int(expr),
    }
}

/// `robfig/cron`'s `getRange`: `*`, `?`, a number or name, a range, each with an
/// optional step.
fn range(expr: &str, bounds: &Bounds) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (bounds.min, bounds.max)
    } else {
        let start = parse_int_or_name(low_and_high[0], bounds)?;
        let end = match low_and_high.len() {
            1 => start,
            2 => parse_int_or_name(low_and_high[1], bounds)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        (start, end)
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = parse_int(range_and_step[1])?;
            if single {
                end = bounds.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < bounds.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            bounds.min
        ));
    }
    if end > bounds.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            bounds.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// Go's `time.ParseDuration`, for `@every`: only whether it parses, with Go's error.
fn parse_duration(orig: &str) -> Result<(), String> {
    let invalid = || format!("time: invalid duration {}", time_quote(orig));
    let mut s = orig.strip_prefix(['-', '+']).unwrap_or(orig);
    if s == "0" {
        return Ok(());
    }
    if s.is_empty() {
        return Err(invalid());
    }
    // Nanoseconds so far, as Go's uint64 with its overflow checks.
    let mut total: u64 = 0;
    while !s.is_empty() {
        let first = s.as_bytes()[0];
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        let int_len = s.bytes().take_while(u8::is_ascii_digit).count();
        let (int_part, rest) = s.split_at(int_len);
        let mut v: u64 = 0;
        for b in int_part.bytes() {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .filter(|v| *v <= 1 << 63)
                .ok_or_else(invalid)?;
        }
        s = rest;
        let pre = int_len > 0;
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let frac_len = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for b in rest[..frac_len].bytes() {
                if overflow {
                    continue;
                }
                match f
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u64::from(b - b'0')))
                {
                    Some(x) if x <= 1 << 63 => {
                        f = x;
                        scale *= 10.0;
                    }
                    _ => overflow = true,
                }
            }
            post = frac_len > 0;
            s = &rest[frac_len..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .bytes()
            .take_while(|b| *b != b'.' && !b.is_ascii_digit())
            .count();
        if unit_len == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                time_quote(orig)
            ));
        }
        let (unit, rest) = s.split_at(unit_len);
        s = rest;
        let unit: u64 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    time_quote(unit),
                    time_quote(orig)
                ));
            }
        };
        if v > (1 << 63) / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // Go's float64 arithmetic, truncated.
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let frac = (f as f64 * (unit as f64 / scale)) as u64;
            v = v
                .checked_add(frac)
                .filter(|v| *v <= 1 << 63)
                .ok_or_else(invalid)?;
        }
        total = total
            .checked_add(v)
            .filter(|t| *t <= 1 << 63)
            .ok_or_else(invalid)?;
    }
    let negative = orig.starts_with('-');
    if total == 1 << 63 && !negative {
        return Err(invalid());
    }
    Ok(())
}

/// The `time` package's own quoting of a duration or zone name: ASCII printable bytes
/// as they are (with `"` and `\` escaped), every other byte as `\xNN`.
pub(super) fn time_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
    }
    out.push('"');
    out
}
