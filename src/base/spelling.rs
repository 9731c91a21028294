//! "Did you mean …?": the word a typo was meant to be, for annotation keys,
//! `helm.sh/depends-on` targets, flags and `-o` values alike, so that all of
//! them forgive the same slips.

/// The most edits a typo of `word` may have: two; one for a word of three
/// or four characters, where two reach unrelated words (`-o cat` is no typo
/// of `-o dot`); none for one or two, which one edit turns into too many
/// others (`Job/b` is no typo of `Job/f`).
fn reach(word: &str) -> usize {
    match word.chars().count() {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    }
}

/// The optimal-string-alignment distance between `a` and `b` (Damerau-
/// Levenshtein where no substring is edited twice): each insertion,
/// deletion, substitution or swap of two neighbouring characters counts
/// one. `None` when it exceeds `max`: the rows stop once every cell does,
/// so a word far from the one sought costs a few cells, not its length
/// squared.
#[cfg(test)]
fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    distance_from(a, a.chars().count(), b, max)
}

/// [`distance`], with `a`'s length in characters known.
fn distance_from(a: &str, a_chars: usize, b: &str, max: usize) -> Option<usize> {
    // Most candidates differ in length by more than `max`: refused before
    // anything is allocated for them, and most by their length in bytes,
    // which bounds the characters (one to four bytes each) without a loop
    // over them: a search among 10,000 names under Helm's Wasm runtime,
    // where each loop iteration is dear (docs/benchmarks.md).
    if b.len() + max < a_chars || b.len().div_ceil(4) > a_chars + max {
        return None;
    }
    if a_chars.abs_diff(b.chars().count()) > max {
        return None;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the swap looks two back.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        let mut lowest = i;
        for j in 1..=b.len() {
            let substitution = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + substitution);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
            lowest = lowest.min(d);
        }
        if lowest > max {
            return None;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    Some(previous[b.len()]).filter(|&d| d <= max)
}

/// The candidate nearest to `word` within [`reach`] of it, the first of
/// equals in the candidates' order; `word` itself when it is a candidate.
pub(crate) fn nearest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let mut best: Option<(usize, &'c str)> = None;
    let chars = word.chars().count();
    for candidate in candidates {
        let max = match best {
            None => reach(word),
            Some((0, _)) => break,
            Some((d, _)) => d - 1,
        };
        if let Some(d) = distance_from(word, chars, candidate, max) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_edit_counts_one() {
        assert_eq!(distance("parallel", "parallel", 2), Some(0));
        assert_eq!(distance("paralel", "parallel", 2), Some(1)); // a deletion
        assert_eq!(distance("parallell", "parallel", 2), Some(1)); // an insertion
        assert_eq!(distance("parallem", "parallel", 2), Some(1)); // a substitution
        assert_eq!(distance("hook-wieght", "hook-weight", 2), Some(1)); // a swap
        assert_eq!(distance("hook-wiehgt", "hook-weight", 2), Some(2));
        assert_eq!(distance("", "ab", 2), Some(2));
        assert_eq!(distance("abc", "", 2), None);
        assert_eq!(distance("resource-group", "show-output", 2), None);
        // Characters, not bytes.
        assert_eq!(distance("naïve", "naive", 1), Some(1));
        assert_eq!(distance("ab", "éé", 2), Some(2));
        assert_eq!(distance("abcdefgh", "ééé", 8), Some(8));
        assert_eq!(distance("abcdefgh", "ééé", 7), None);
        assert_eq!(distance("abcdefgh", "é", 6), None);
        assert_eq!(distance("é", "abcdefgh", 8), Some(8));
        assert_eq!(distance("é", "abcdefgh", 0), None);
        assert_eq!(distance("a", "ééé", 3), Some(3));
        assert_eq!(distance("a", "ééé", 2), None);
    }

    #[test]
    fn the_nearest_within_reach_wins() {
        let flags = ["parallel", "parallel-all", "parallel-resources", "output"];
        assert_eq!(nearest("paralel", flags), Some("parallel"));
        assert_eq!(nearest("parallel-al", flags), Some("parallel-all"));
        assert_eq!(nearest("outptu", flags), Some("output"));
        assert_eq!(nearest("verbose", flags), None);
        assert_eq!(nearest("parallel", flags), Some("parallel"));
        // Short words get one edit: "jsn" is json's, "yaml" is nobody's;
        // the shortest none.
        let formats = ["text", "json", "dot", "mermaid"];
        assert_eq!(nearest("jsn", formats), Some("json"));
        assert_eq!(nearest("txt", formats), Some("text"));
        assert_eq!(nearest("yaml", formats), None);
        assert_eq!(nearest("cat", formats), None);
        assert_eq!(nearest("do", formats), None);
        assert_eq!(nearest("b", ["a-preflight", "f"]), None);
    }
}
