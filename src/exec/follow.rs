//! Following a container's log by polling, without I/O.
//!
//! On stock Helm the plugin reads every response whole (Extism's
//! `http_request`), so `follow=true` is out of reach: the log is read again at
//! the wait's pace with `timestamps=true&sinceTime=…`. `sinceTime` has whole
//! seconds (`metav1.Time`), so each read repeats the lines of the last
//! second; the [`Cursor`] keeps the last line's exact timestamp and how many
//! lines carried it, so that no line is printed twice or lost between reads
//! (docs/commands.md, `run --logs`).

/// Where a container's log was read up to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The last line's timestamp as (seconds since the epoch, nanoseconds),
    /// and how many lines read so far had exactly that timestamp.
    last: Option<((u64, u32), usize)>,
    /// The last timestamp as the kubelet wrote it, whole seconds: the next
    /// read's `sinceTime`.
    since: Option<String>,
}

impl Cursor {
    /// `sinceTime` for the next read: none at first (the whole log).
    pub(crate) fn since(&self) -> Option<&str> {
        self.since.as_deref()
    }

    /// Takes in one read's body (`timestamps=true`) and returns the lines not
    /// seen before, without their timestamps. `complete` is false when the body
    /// was cut at `limitBytes`: its last line may be partial and is left for
    /// the next read.
    pub(crate) fn take(&mut self, body: &str, complete: bool) -> Vec<String> {
        let mut lines: Vec<&str> = body.split_inclusive('\n').collect();
        if !complete || !body.ends_with('\n') {
            // An unterminated last line is still being written (or was cut).
            lines.pop();
        }
        let mut out = Vec::new();
        let mut seen_at_last = 0;
        for raw in lines {
            let raw = raw.strip_suffix('\n').unwrap_or(raw);
            let (stamp, text) = raw.split_once(' ').unwrap_or((raw, ""));
            let Some(at) = parse_stamp(stamp) else {
                // Not the kubelet's format: show it rather than lose it.
                out.push(raw.to_string());
                continue;
            };
            match self.last {
                Some((last, _)) if at < last => continue,
                Some((last, count)) if at == last => {
                    seen_at_last += 1;
                    if seen_at_last <= count {
                        continue;
                    }
                    self.last = Some((at, count + 1));
                }
                _ => {
                    seen_at_last = 1;
                    self.last = Some((at, 1));
                }
            }
            self.since = Some(whole_seconds(stamp));
            out.push(text.to_string());
        }
        out
    }
}

/// `2026-11-26T17:00:00.123456789Z` as (seconds, nanoseconds); the kubelet
/// drops trailing zeros of the fraction, so strings do not compare.
fn parse_stamp(stamp: &str) -> Option<(u64, u32)> {
    let (head, frac) = match stamp.split_once('.') {
        Some((head, rest)) => (format!("{head}Z"), rest.strip_suffix('Z')?),
        None => (stamp.to_string(), ""),
    };
    let ms = crate::base::time::parse_time(&head)?;
    if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nanos = if frac.is_empty() { 0 } else { format!("{frac:0<9}").parse().ok()? };
    Some((ms / 1000, nanos))
}

/// The timestamp cut to whole seconds, as `sinceTime` takes it.
fn whole_seconds(stamp: &str) -> String {
    match stamp.split_once('.') {
        Some((head, _)) => format!("{head}Z"),
        None => stamp.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_once_across_reads_of_the_same_second() {
        let mut c = Cursor::default();
        let first = "2026-11-26T17:00:00.1Z one\n2026-11-26T17:00:00.25Z two\n2026-11-26T17:00:00.25Z two again\n";
        assert_eq!(c.take(first, true), ["one", "two", "two again"]);
        assert_eq!(c.since(), Some("2026-11-26T17:00:00Z"));
        // The next read starts at the same second: the same lines, then new ones.
        let second = format!("{first}2026-11-26T17:00:00.25Z three\n2026-11-26T17:00:01Z four\n");
        assert_eq!(c.take(&second, true), ["three", "four"]);
        assert_eq!(c.since(), Some("2026-11-26T17:00:01Z"));
        assert_eq!(c.take("2026-11-26T17:00:01Z four\n", true), Vec::<String>::new());
    }

    #[test]
    fn a_partial_last_line_waits_for_the_next_read() {
        let mut c = Cursor::default();
        assert_eq!(c.take("2026-11-26T17:00:00.5Z done\n2026-11-26T17:00:00.6Z half", true), ["done"]);
        assert_eq!(c.take("2026-11-26T17:00:00.5Z done\n2026-11-26T17:00:00.6Z half line\n", true), ["half line"]);
        // Cut at limitBytes right after a newline: the last whole line may be cut too.
        let mut c = Cursor::default();
        assert_eq!(c.take("2026-11-26T17:00:00.5Z a\n2026-11-26T17:00:00.6Z b\n", false), ["a"]);
    }

    #[test]
    fn stamps_compare_as_times_not_strings() {
        assert!(parse_stamp("2026-11-26T17:00:00.9Z") > parse_stamp("2026-11-26T17:00:00.10Z"));
        assert_eq!(parse_stamp("2026-11-26T17:00:00Z"), parse_stamp("2026-11-26T17:00:00.000Z"));
        assert_eq!(parse_stamp("nonsense"), None);
        let mut c = Cursor::default();
        assert_eq!(c.take("no stamp here\n", true), ["no stamp here"]);
        assert_eq!(c.take("2026-11-26T17:00:00Z \n", true), [""]);
    }
}
