//! Helm's client-side request budget, kept by the plugin as a measure, not
//! a brake: Helm's own client waits for a token before each request (a
//! token bucket of `--burst-limit` tokens, refilled at `--qps` a second);
//! the plugin cannot wait in its sandbox, so it counts what it sent against
//! the same bucket and lets the budget decide how eagerly a wait looks at
//! the cluster (`super::tracker`'s looks, docs/design.md §5): while the
//! bucket holds what a look costs, the look is answered by the cluster's
//! next write, so a readiness is seen when it is written; once it is
//! spent, looks are paced by the cluster's writes as before, about four a
//! second, and the average stays within Helm's rate.

/// client-go's rate when Helm's `--qps` is 0, its default (`rest.DefaultQPS`).
const DEFAULT_QPS: f64 = 5.0;

/// Helm's `--burst-limit` default.
const DEFAULT_BURST: f64 = 100.0;

/// A token bucket, in wall milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Throttle {
    per_ms: f64,
    burst: f64,
    tokens: f64,
    /// When `tokens` was last brought up to date; `None`: full.
    at: Option<u64>,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle::new(DEFAULT_QPS, DEFAULT_BURST)
    }
}

impl Throttle {
    fn new(qps: f64, burst: f64) -> Self {
        Throttle { per_ms: qps / 1_000.0, burst, tokens: burst, at: None }
    }

    /// Helm's budget from the environment it gives its plugins
    /// (`HELM_QPS`, `HELM_BURST_LIMIT`); unset, zero or unreadable values
    /// are Helm's defaults, as for Helm's own client.
    pub(super) fn from_env(var: &dyn Fn(&str) -> Option<String>) -> Self {
        let num = |k: &str| var(k).and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite() && *v > 0.0);
        Throttle::new(num("HELM_QPS").unwrap_or(DEFAULT_QPS), num("HELM_BURST_LIMIT").unwrap_or(DEFAULT_BURST))
    }

    fn refill(&mut self, now: u64) {
        if let Some(at) = self.at {
            let earned = now.saturating_sub(at) as f64 * self.per_ms;
            self.tokens = (self.tokens + earned).min(self.burst);
        }
        self.at = Some(now);
    }

    /// `n` requests were sent at `now`; the bucket may go below empty
    /// (nothing is held back), and refills from there.
    pub(super) fn spend(&mut self, n: u64, now: u64) {
        self.refill(now);
        self.tokens -= n as f64;
    }

    /// Whether `n` more requests at `now` stay within the budget.
    pub(super) fn affords(&mut self, n: usize, now: u64) -> bool {
        self.refill(now);
        self.tokens >= n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_holds_the_burst_and_refills_at_the_rate() {
        let mut t = Throttle::default();
        assert!(t.affords(100, 0));
        assert!(!t.affords(101, 0));
        t.spend(100, 0);
        assert!(!t.affords(1, 100), "a tenth of a second earns half a request");
        assert!(t.affords(1, 200), "5 a second: one in 0.2 s");
        t.spend(30, 200);
        assert!(!t.affords(1, 6_000), "29 owed: 5.8 s to earn back, plus one more");
        assert!(t.affords(1, 6_200));
        assert!(t.affords(100, 60_000) && !t.affords(101, 60_000), "never more than the burst");
    }

    #[test]
    fn helms_flags_set_the_budget_and_zero_means_helms_default() {
        let env = |qps: &'static str, burst: &'static str| {
            Throttle::from_env(&move |k: &str| match k {
                "HELM_QPS" => Some(qps.to_string()),
                "HELM_BURST_LIMIT" => Some(burst.to_string()),
                _ => None,
            })
        };
        assert_eq!(env("0.00", "100"), Throttle::default(), "Helm passes its defaults as 0.00 and 100");
        assert_eq!(env("", "x"), Throttle::default());
        assert_eq!(env("50", "20"), Throttle::new(50.0, 20.0));
        assert_eq!(Throttle::from_env(&|_| None), Throttle::default());
    }
}
