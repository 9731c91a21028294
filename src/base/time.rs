//! Wall-clock time as Helm and Go write it: milliseconds since the Unix
//! epoch, RFC 3339 times as Go marshals `time.Time`, and Go's duration
//! syntax. Every layer uses these, so they sit below all of them.

/// Wall-clock time in milliseconds since the Unix epoch.
pub type Millis = u64;

/// The wall clock in milliseconds since the Unix epoch. In Helm's Wasm
/// sandbox this is the real time; only the monotonic clock is fake.
pub(crate) fn wall_ms() -> Millis {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as Millis)
}

/// Milliseconds since the Unix epoch of an RFC 3339 time as Go writes it
/// (`2026-11-23T01:27:42.671493912Z`, `…+01:00`); `None` for anything else,
/// including Go's zero time.
pub fn parse_time(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = s.get(from..from + len)?;
        part.bytes().all(|c| c.is_ascii_digit()).then(|| part.parse().ok())?
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d, h, mi, sec) = (num(0, 4)?, num(5, 2)?, num(8, 2)?, num(11, 2)?, num(14, 2)?, num(17, 2)?);
    let mut at = 19;
    let mut ms = 0;
    if b.get(at) == Some(&b'.') {
        let digits = b[at + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let frac = &s[at + 1..at + 1 + digits];
        ms = format!("{frac:0<3}")[..3].parse::<i64>().ok()?;
        at += 1 + digits;
    }
    let offset = match b.get(at)? {
        b'Z' | b'z' if at + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if at + 6 == b.len() && b[at + 3] == b':' => {
            let m = num(at + 1, 2)? * 60 + num(at + 4, 2)?;
            if *sign == b'+' {
                m
            } else {
                -m
            }
        }
        _ => return None,
    };
    if y < 1970 || !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset * 60;
    u64::try_from(secs * 1000 + ms).ok()
}

/// A wall-clock time as Go's `time.Time` marshals to JSON (RFC 3339 with
/// nanoseconds, trailing zeros of the fraction dropped), in UTC:
/// `2026-11-21T05:24:59.123Z`, `2026-11-21T05:24:59Z`.
pub fn go_time(ms: Millis) -> String {
    let secs = (ms / 1000) as i64;
    let frac = ms % 1000;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let mut s = format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", rem / 3600, (rem / 60) % 60, rem % 60);
    if frac != 0 {
        s.push('.');
        s.push_str(format!("{frac:03}").trim_end_matches('0'));
    }
    s.push('Z');
    s
}

/// (year, month, day) → days since 1970-01-01, proleptic Gregorian (Howard
/// Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Go's duration syntax for whole seconds and milliseconds, as Helm prints it.
pub(crate) fn format_duration(ms: Millis) -> String {
    let (h, m, s, rest) = (ms / 3_600_000, (ms / 60_000) % 60, (ms / 1000) % 60, ms % 1000);
    let secs = if rest == 0 { format!("{s}s") } else { format!("{s}.{}s", format!("{rest:03}").trim_end_matches('0')) };
    match (h, m) {
        (0, 0) => secs,
        (0, m) => format!("{m}m{secs}"),
        (h, m) => format!("{h}h{m}m{secs}"),
    }
}

/// A progress line's time: `[   2.1s]` since `since` (the command's start,
/// one clock for all its lines), in tenths of a second.
pub(crate) fn stamp(since: Millis, at: Millis) -> String {
    format!("[{:>7}]", format_duration(at.saturating_sub(since) / 100 * 100))
}

/// A duration as Go's `time.ParseDuration` reads it (Helm's `--timeout`),
/// in milliseconds: `5m`, `1m30s`, `1.5h`, `250ms`, `1us`, `1µs`, `+5m`, `0`.
/// Go's grammar exactly — a sign, then one or more numbers each with its
/// unit, nothing around them (`" 5m"` is refused) — and its overflow bound
/// (about 292 years). A duration below a millisecond is one millisecond:
/// Go reads it as not zero, and zero means a default here. A negative one,
/// which Go reads and Helm's waits treat as already over, is refused.
pub fn parse_duration(text: &str) -> Option<Millis> {
    let (negative, ns) = go_duration_ns(text)?;
    match (negative, ns) {
        (_, 0) => Some(0),
        (true, _) => None,
        (false, ns) => Some(ns.div_ceil(1_000_000)),
    }
}

/// Go's `time.ParseDuration` refuses what passes 2^63 nanoseconds.
const LIMIT: u64 = 1 << 63;

fn digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// The whole part at the start of `text` and its length, refused past 2^63
/// as Go's `leadingInt` refuses it.
fn leading_int(text: &str) -> Option<(u64, usize)> {
    let len = digits(text);
    let mut whole: u64 = 0;
    for b in text[..len].bytes() {
        if whole > LIMIT / 10 {
            return None;
        }
        whole = whole * 10 + u64::from(b - b'0');
        if whole > LIMIT {
            return None;
        }
    }
    Some((whole, len))
}

/// The fraction's digits at the start of `text` (after the `.`), its scale
/// and its length: digits past what 2^63 holds are dropped, as Go's
/// `leadingFraction` drops them.
fn leading_fraction(text: &str) -> (u64, f64, usize) {
    let len = digits(text);
    let (mut fraction, mut scale) = (0u64, 1f64);
    let mut overflow = false;
    for b in text[..len].bytes() {
        if overflow || fraction > (LIMIT - 1) / 10 {
            overflow = true;
            continue;
        }
        let next = fraction * 10 + u64::from(b - b'0');
        if next > LIMIT {
            overflow = true;
            continue;
        }
        fraction = next;
        scale *= 10.0;
    }
    (fraction, scale, len)
}

/// The unit at the start of `text`, in nanoseconds, and its length.
fn leading_unit(text: &str) -> Option<(u64, usize)> {
    let len = text.find(|c: char| c == '.' || c.is_ascii_digit()).unwrap_or(text.len());
    let unit = match &text[..len] {
        "ns" => 1,
        // U+00B5 (micro sign) and U+03BC (Greek mu), as Go.
        "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    };
    Some((unit, len))
}

/// Go's `time.ParseDuration`: the sign and the magnitude in nanoseconds.
fn go_duration_ns(text: &str) -> Option<(bool, u64)> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Some((negative, 0));
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        if !(rest.starts_with('.') || rest.as_bytes()[0].is_ascii_digit()) {
            return None;
        }
        let (whole, whole_len) = leading_int(rest)?;
        rest = &rest[whole_len..];
        let (mut fraction, mut scale, mut fraction_len) = (0u64, 1f64, 0);
        if let Some(after) = rest.strip_prefix('.') {
            (fraction, scale, fraction_len) = leading_fraction(after);
            rest = &after[fraction_len..];
        }
        if whole_len == 0 && fraction_len == 0 {
            return None;
        }
        let (unit, unit_len) = leading_unit(rest)?;
        rest = &rest[unit_len..];
        if whole > LIMIT / unit {
            return None;
        }
        let mut value = whole * unit;
        if fraction > 0 {
            // Go's own float arithmetic, so that rounding matches.
            value += (fraction as f64 * (unit as f64 / scale)) as u64;
            if value > LIMIT {
                return None;
            }
        }
        total += value;
        if total > LIMIT {
            return None;
        }
    }
    if !negative && total > LIMIT - 1 {
        return None;
    }
    Some((negative, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_times() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2026-11-21T05:24:59.123Z"), Some(1_795_238_699_123));
        assert_eq!(parse_time("2026-11-21T05:24:59.123456789Z"), Some(1_795_238_699_123));
        assert_eq!(parse_time("2026-11-21T06:24:59.1+01:00"), Some(1_795_238_699_100));
        assert_eq!(parse_time(&go_time(1_795_238_699_120)), Some(1_795_238_699_120));
        for bad in ["", "0001-01-01T00:00:00Z", "2026-11-21 05:24:59Z", "2026-11-21T05:24:59", "x026-11-21T05:24:59Z"] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("1m30s"), Some(90_000));
        assert_eq!(parse_duration("250ms"), Some(250));
        assert_eq!(parse_duration("1.5s"), Some(1500));
        assert_eq!(parse_duration("5"), None);
        assert_eq!(parse_duration("m"), None);
    }

    /// Go's `time.ParseDuration` (issue 33): `1ns`, `1us`, `1µs` and `+5m`
    /// were refused, `" 5m"` accepted.
    #[test]
    fn durations_as_go_reads_them() {
        for (text, ms) in [
            ("1ns", 1),
            ("1us", 1),
            ("1\u{b5}s", 1),
            ("1\u{3bc}s", 1),
            ("+5m", 300_000),
            ("0", 0),
            ("+0", 0),
            ("-0", 0),
            ("0s", 0),
            ("1.5h", 5_400_000),
            (".5s", 500),
            ("5.s", 5_000),
            ("1h2m3s4ms5us6ns", 3_723_005),
            ("2562047h47m16.854775807s", 9_223_372_036_855),
        ] {
            assert_eq!(parse_duration(text), Some(ms), "{text}");
        }
        for text in [
            " 5m",
            "5m ",
            "",
            "+",
            "-",
            ".",
            "1",
            "1.5",
            "5M",
            "1d",
            "5m-3s",
            "s",
            ".s",
            "1ns1",
            "-5m",
            "2562047h47m16.854775808s",
            "9223372036854775808ns",
            "99999999999999999999h",
        ] {
            assert_eq!(parse_duration(text), None, "{text:?}");
        }
        assert_eq!(format_duration(300_000), "5m0s");
        assert_eq!(format_duration(3_000), "3s");
        assert_eq!(format_duration(1_500), "1.5s");
    }
}
