//! How often a wait looks at the cluster in the stock build (docs/design.md
//! §5): the pace of [`Client::look`](super::client::Client::look)'s long polls,
//! apart from the tracker they serve (`super::watch`).

/// The cluster's revision (a resourceVersion read as a number) as seen
/// over time, to pace [`Client::look`](super::client::Client::look): a long poll
/// asks to be answered once the cluster has written what it writes in
/// [`LOOK_MS`] at the rate seen so far — at least one revision: on a quiet cluster the next write,
/// on a busy one about [`LOOK_MS`] later, whatever the writes.
///
/// The longer nothing tracked has changed, the less often it is looked at
/// (a wait of minutes needs no answer within a quarter of a second; issue
/// 21 asks for "a watch round while a long wait goes on"): the time a look
/// covers grows from [`LOOK_MS`] by a fortieth of how long the tracked
/// objects have been still, up to [`STILL_LOOK_MS`] — so a busy cluster is
/// asked at most about once a second per tracker once its wait has lasted
/// 40 s, and a change is still seen within 2.5 % of the wait.
#[derive(Debug, Clone, Default)]
pub(super) struct Pace {
    /// The first answer of this tracker's looks: (revision, wall ms).
    first: Option<(u64, u64)>,
    /// The latest.
    last: Option<(u64, u64)>,
    /// When a look last saw a tracked object change, or an object was
    /// tracked (wall ms); `None` until the first look after that.
    changed_at: Option<u64>,
}

/// A change of a tracked object is seen this soon after it happens, on
/// average half of it (issue 21: within about 0.25 s).
const LOOK_MS: u64 = 250;

/// The most a look covers once the tracked objects have been still for
/// [`STILL_SHARE`] times as long.
const STILL_LOOK_MS: u64 = 1_000;

/// A look covers this share of how long the tracked objects have been still.
const STILL_SHARE: u64 = 40;

/// While something is expected soon, a look that the cluster's writes do
/// not answer ends after this: the pace is an average, and a cluster that
/// goes quiet right after the awaited change (the last Job of a run, its
/// wave's burst of writes over) would otherwise hold the look for the watch
/// cache's full [`CACHE_WAIT_MS`]. Once four times what a look covers
/// reaches that (after 30 s of stillness), the watch cache bounds it.
const LOOK_WITHIN_MS: u64 = 1_000;

/// How long kube-apiserver's watch cache holds a list for a revision it has
/// not reached (`blockTimeout`, docs/design.md §5).
const CACHE_WAIT_MS: u64 = 3_000;

/// The rate is trusted once it spans this long: a deploy's own burst of
/// writes, right after its applies, is not the cluster's pace.
const PACE_WINDOW_MS: u64 = 1_000;

impl Pace {
    /// Revisions to wait for after `rv`, at wall time `now`.
    pub(super) fn ahead(&self, now: u64) -> u64 {
        match (self.first, self.last) {
            (Some((r0, t0)), Some((r1, t1))) if t1 >= t0 + PACE_WINDOW_MS => {
                ((r1.saturating_sub(r0)) * self.look_ms(now) / (t1 - t0)).max(1)
            }
            _ => 1,
        }
    }

    /// Whether a change is expected soon at `now`: the tracked objects have
    /// not been still long enough to be looked at less often.
    pub(super) fn expected_soon(&self, now: u64) -> bool {
        self.look_ms(now) == LOOK_MS
    }

    /// How long a look at `now` may wait for the cluster's writes before it
    /// is answered anyway; `None`: the watch cache's 3 s. Four times what
    /// it covers: a second while something is expected soon, then the
    /// cache's bound once the tracked objects have been still for 30 s.
    pub(super) fn within(&self, now: u64) -> Option<u64> {
        let within = (4 * self.look_ms(now)).max(LOOK_WITHIN_MS);
        (within < CACHE_WAIT_MS).then_some(within)
    }

    /// How long of the cluster's writes a look covers at `now`.
    fn look_ms(&self, now: u64) -> u64 {
        let still = self.changed_at.map_or(0, |at| now.saturating_sub(at));
        (still / STILL_SHARE).clamp(LOOK_MS, STILL_LOOK_MS)
    }

    /// A look at `at` saw a tracked object change (`changed`) or not.
    pub(super) fn looked(&mut self, changed: bool, at: u64) {
        if changed || self.changed_at.is_none() {
            self.changed_at = Some(at);
        }
    }

    /// Something new is awaited: expected soon.
    pub(super) fn expect(&mut self) {
        self.changed_at = None;
    }

    pub(super) fn answered(&mut self, rv: u64, at: u64) {
        self.first.get_or_insert((rv, at));
        self.last = Some((rv, at));
    }

    /// A look ended without the revisions asked for: the cluster went
    /// quiet, or slower than its pace; the pace is measured afresh, and
    /// the next look is answered by the next write.
    pub(super) fn quiet(&mut self) {
        self.first = None;
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_asks_for_what_the_cluster_writes_in_a_look() {
        let mut p = Pace::default();
        assert_eq!(p.ahead(10_000), 1, "nothing seen yet: the next write");
        p.answered(1_000, 10_000);
        p.answered(1_400, 10_400);
        assert_eq!(p.ahead(10_400), 1, "a burst over less than the window is not the pace");
        p.answered(3_000, 12_000);
        assert_eq!(p.ahead(12_000), 2_000 * LOOK_MS / 2_000);
        p.quiet();
        assert_eq!(p.ahead(12_000), 1);
    }

    #[test]
    fn the_longer_nothing_tracked_changes_the_less_often_it_is_looked_at() {
        let mut p = Pace::default();
        // A busy cluster: a revision a millisecond.
        p.answered(0, 0);
        p.answered(2_000, 2_000);
        p.looked(false, 2_000);
        assert_eq!(p.ahead(2_000), LOOK_MS, "still only just: a quarter of a second of writes");
        assert_eq!(p.ahead(2_000 + 10_000), LOOK_MS, "still for 10 s: the same");
        assert_eq!(p.ahead(2_000 + 20_000), 500, "still for 20 s: a fortieth of it");
        assert_eq!(p.ahead(2_000 + 300_000), STILL_LOOK_MS, "still for minutes: at most a second");
        p.looked(true, 400_000);
        assert_eq!(p.ahead(400_000), LOOK_MS, "a change: looked at closely again");
        p.looked(false, 400_000);
        p.expect();
        assert_eq!(p.ahead(500_000), LOOK_MS, "something newly awaited is expected soon");
    }

    #[test]
    fn a_look_waits_a_second_while_a_change_is_expected_soon_then_the_caches_3_s() {
        let mut p = Pace::default();
        p.looked(false, 0);
        assert_eq!(p.within(0), Some(LOOK_WITHIN_MS));
        assert_eq!(p.within(10_000), Some(LOOK_WITHIN_MS), "still for 10 s: a look covers 0.25 s");
        assert_eq!(p.within(20_000), Some(2_000), "still for 20 s: a look covers 0.5 s");
        assert_eq!(p.within(30_000), None, "still for 30 s: the watch cache's own bound");
        p.looked(true, 40_000);
        assert_eq!(p.within(40_000), Some(LOOK_WITHIN_MS));
    }
}
