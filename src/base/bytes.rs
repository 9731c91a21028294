//! Byte searches that look at eight bytes per loop iteration.
//!
//! Why: under Helm's Wasm runtime (wazero through Extism, which asks it to
//! close a plugin whose context ends) every loop iteration of the plugin
//! calls back into Go to ask whether it should stop (docs/benchmarks.md).
//! The standard library's searches and comparisons go one byte, or at best
//! four, per iteration on wasm32; reading a release's heads is mostly such
//! searches. Natively these are about as fast as the standard ones.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

fn word(chunk: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(chunk);
    u64::from_le_bytes(w)
}

/// The last bytes of a slice (fewer than eight) as a word, the rest of it
/// `pad`: the tail is then one more step of a word loop, not a loop of its
/// own a byte per iteration.
fn tail(rest: &[u8], pad: u8) -> u64 {
    let mut w = [pad; 8];
    w[..rest.len()].copy_from_slice(rest);
    u64::from_le_bytes(w)
}

/// A high bit in each byte of `x` that is zero, and maybe in bytes above
/// the lowest such byte (a borrow): exact for the lowest one.
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// A high bit in each byte of `x` that is not zero, exactly.
fn nonzero_bytes(x: u64) -> u64 {
    (((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// How many bytes `hay` starts with that are `byte` (an indentation).
pub(crate) fn leading(hay: &[u8], byte: u8) -> usize {
    let pattern = ONES * u64::from(byte);
    let mut chunks = hay.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let other = nonzero_bytes(word(chunk) ^ pattern);
        if other != 0 {
            return at + other.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    // The padding differs from `byte`: the count stops at the end.
    at + nonzero_bytes(tail(chunks.remainder(), !byte) ^ pattern).trailing_zeros() as usize / 8
}

/// The position of the first `needle` in `hay`.
pub(crate) fn find(hay: &[u8], needle: u8) -> Option<usize> {
    let pattern = ONES * u64::from(needle);
    let mut chunks = hay.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let hits = zero_bytes(word(chunk) ^ pattern);
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let hits = zero_bytes(tail(chunks.remainder(), !needle) ^ pattern);
    (hits != 0).then(|| at + hits.trailing_zeros() as usize / 8)
}

/// The position of the first `a` or `b` in `hay`.
pub(crate) fn find_either(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    let (pa, pb) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut chunks = hay.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let w = word(chunk);
        let hits = zero_bytes(w ^ pa) | zero_bytes(w ^ pb);
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    // Padding that is neither byte.
    let pad = (0..3).find(|p| *p != a && *p != b).unwrap_or(3);
    let w = tail(chunks.remainder(), pad);
    let hits = zero_bytes(w ^ pa) | zero_bytes(w ^ pb);
    (hits != 0).then(|| at + hits.trailing_zeros() as usize / 8)
}

/// Every position of `needle` in `hay`, in order.
pub(crate) fn positions(hay: &[u8], needle: u8) -> impl Iterator<Item = usize> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + find(hay.get(from..)?, needle)?;
        from = at + 1;
        Some(at)
    })
}

/// Every position `p` of `hay` where `first` is followed by `second`, in
/// order, found a word at a time: a search by one byte stops at every
/// place it is, and most bytes are in many places.
fn pairs(hay: &[u8], first: u8, second: u8) -> impl Iterator<Item = usize> + '_ {
    let (firsts, seconds) = (ONES * u64::from(first), ONES * u64::from(second));
    // A high bit in each byte that equals the pattern's, exactly.
    let equal = move |w: u64, pattern: u64| !nonzero_bytes(w ^ pattern) & HIGHS;
    // Padding that is neither byte: no hit past the end.
    let pad = (0..3).find(|b| *b != first && *b != second).unwrap_or(3);
    let (mut at, mut carry, mut hits) = (0usize, 0u64, 0u64);
    std::iter::from_fn(move || loop {
        if hits != 0 {
            // A hit is on the second byte; the pair starts one before.
            let p = at + hits.trailing_zeros() as usize / 8 - 9;
            hits &= hits - 1;
            return Some(p);
        }
        let rest = hay.get(at..).filter(|r| !r.is_empty())?;
        let w = if rest.len() >= 8 { word(&rest[..8]) } else { tail(rest, pad) };
        let starts = equal(w, firsts);
        // Each first byte's bit moved up one byte onto the byte after it,
        // and the last byte of the word before onto the first of this one.
        hits = ((starts << 8) | carry) & equal(w, seconds);
        carry = starts >> 63 << 7;
        at += 8;
    })
}

/// Every position `p > 0` of `hay` where `byte` starts a line (the byte
/// before it is `\n`), in order.
pub(crate) fn line_starts(hay: &[u8], byte: u8) -> impl Iterator<Item = usize> + '_ {
    pairs(hay, b'\n', byte).map(|p| p + 1)
}

/// Whether every byte of `bytes` is printable ASCII, `' '` to `'~'`.
pub(crate) fn printable_ascii(bytes: &[u8]) -> bool {
    // A byte at or above 0x80, or under 0x20 (adding 0x60 to its low seven
    // bits leaves the high bit clear), or 0x7f (plus one carries into the
    // high bit): none of them can carry into the next byte.
    let printable = |x: u64| {
        let low = x & !HIGHS;
        let below = !(low + ONES * 0x60) & HIGHS;
        let delete = (low + ONES) & HIGHS;
        (x & HIGHS) | below | delete == 0
    };
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        if !printable(word(chunk)) {
            return false;
        }
    }
    printable(tail(chunks.remainder(), b' '))
}

/// `a == b`, eight bytes at a time.
pub(crate) fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut xs, mut ys) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut xs).zip(&mut ys) {
        if word(x) != word(y) {
            return false;
        }
    }
    tail(xs.remainder(), 0) == tail(ys.remainder(), 0)
}

/// `a.cmp(b)`, eight bytes at a time: read big-endian, words order as
/// their bytes do. Not inlined: inside a sort's comparison it was copied
/// into every step of the sort, which made plugin.wasm larger.
#[inline(never)]
pub(crate) fn cmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let (mut xs, mut ys) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut xs).zip(&mut ys) {
        let (x, y) = (
            u64::from_be_bytes(x.try_into().unwrap_or_default()),
            u64::from_be_bytes(y.try_into().unwrap_or_default()),
        );
        if x != y {
            return x.cmp(&y);
        }
    }
    // The shorter has fewer than eight bytes left: both padded with zeros,
    // a difference is where they differ; none, and the shorter is a prefix.
    let done = a.len().min(b.len()) / 8 * 8;
    let head = |s: &[u8]| {
        let rest = &s[done..];
        u64::from_be_bytes(tail(&rest[..rest.len().min(8)], 0).to_le_bytes())
    };
    head(a).cmp(&head(b)).then(a.len().cmp(&b.len()))
}

/// Whether `hay` contains `needle` (not empty), looked for where its
/// first two bytes are.
pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    match needle {
        [only] => find(hay, *only).is_some(),
        [a, b, ..] => pairs(hay, *a, *b).any(|i| hay[i..].starts_with(needle)),
        [] => true,
    }
}

/// The C library's `memcmp`, which every comparison of strings and byte
/// slices calls (`==`, `Ord`, ordered maps' searches), eight bytes per loop
/// iteration: wasi-libc's goes a byte per iteration, each a call into Go
/// under Helm's Wasm runtime. Never inlined: every comparison would get a
/// copy of it.
///
/// # Safety
///
/// `a` and `b` point to `n` readable bytes each, as C's `memcmp` requires.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
#[inline(never)]
#[allow(unreachable_pub)] // a C symbol for the linker, not a Rust item
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    if n == 0 {
        return 0;
    }
    compare(std::slice::from_raw_parts(a, n), std::slice::from_raw_parts(b, n))
}

/// [`memcmp`] of two slices of the same length: below, at or above zero as
/// `a` orders before, with or after `b`.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn compare(a: &[u8], b: &[u8]) -> i32 {
    let (mut at, mut x, mut y) = (0, 0, 0);
    while at < a.len() && x == y {
        let end = a.len().min(at + 8);
        x = u64::from_be_bytes(tail(&a[at..end], 0).to_le_bytes());
        y = u64::from_be_bytes(tail(&b[at..end], 0).to_le_bytes());
        at += 8;
    }
    x.cmp(&y) as i32
}

/// The lines of `text`, each with its `\n` if it has one, as
/// `str::split_inclusive('\n')` gives them.
pub(crate) fn lines(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

pub(crate) struct Lines<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Iterator for Lines<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let rest = self.text.get(self.at..).filter(|r| !r.is_empty())?;
        let end = find(rest.as_bytes(), b'\n').map_or(rest.len(), |p| p + 1);
        self.at += end;
        // `\n` is one byte of UTF-8, so the cut is on a character boundary.
        Some(&rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_either_agrees_with_the_standard_library() {
        for text in ["", "a", "\r", "1234567\n", "12345678\r\n", "abcdefgh", "abcdefghij\rk\n", "\0\u{1}\u{2}"] {
            for (a, b) in [(b'\n', b'\r'), (0, 1), (b'a', b'a')] {
                let expected = text.bytes().position(|c| c == a || c == b);
                assert_eq!(find_either(text.as_bytes(), a, b), expected, "{text:?} {a} {b}");
            }
        }
    }

    #[test]
    fn pairs_and_contains_agree_with_the_standard_library() {
        let texts = [
            "",
            "s",
            "sp",
            "xsp",
            "1234567s",
            "1234567sp",
            "sssssssspppppppp",
            "spec: s\np sp\n",
            "\0\0\0\0\0\0\0\0\0",
        ];
        for text in texts {
            for (a, b) in [(b's', b'p'), (b's', b's'), (0, 0), (b'\n', b's')] {
                let expected: Vec<usize> =
                    text.as_bytes().windows(2).enumerate().filter(|(_, w)| w == &[a, b]).map(|(i, _)| i).collect();
                assert_eq!(pairs(text.as_bytes(), a, b).collect::<Vec<_>>(), expected, "{text:?} {a} {b}");
            }
            for needle in ["s", "sp", "spec", "p s", "\0\0"] {
                assert_eq!(contains(text.as_bytes(), needle.as_bytes()), text.contains(needle), "{text:?} {needle:?}");
            }
        }
    }

    #[test]
    fn line_starts_are_where_a_line_begins_with_the_byte() {
        for text in [
            "",
            "-",
            "a\n-",
            "---\na\n--- x\n-\n",
            "1234567\n-",
            "123456\n-\n-",
            "\n\n-\n-a\n\n-",
            "-------\n--------\n",
        ] {
            let expected: Vec<usize> =
                (1..text.len()).filter(|&p| text.as_bytes()[p - 1] == b'\n' && text.as_bytes()[p] == b'-').collect();
            assert_eq!(line_starts(text.as_bytes(), b'-').collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    #[test]
    fn agree_with_the_standard_library() {
        let texts = [
            "",
            "a",
            "\n",
            "kind: ConfigMap\nmetadata:\n  name: a\n",
            "no newline at the end, and longer than a word",
            "é\u{7f}\t\r\n\n\nx~ #:\u{80}",
            "0123456\n89abcdef\n",
            "          indented by ten\n   \n        \n",
        ];
        for text in texts {
            assert_eq!(lines(text).collect::<Vec<_>>(), text.split_inclusive('\n').collect::<Vec<_>>(), "{text:?}");
            for from in 0..text.len() {
                let hay = &text.as_bytes()[from..];
                for needle in [b'\n', b'#', b':', b'x', 0x80, 0] {
                    assert_eq!(find(hay, needle), hay.iter().position(|&b| b == needle), "{text:?} {needle}");
                    let all: Vec<usize> = (0..hay.len()).filter(|&i| hay[i] == needle).collect();
                    assert_eq!(positions(hay, needle).collect::<Vec<_>>(), all);
                }
                assert_eq!(printable_ascii(hay), hay.iter().all(|b| (0x20..0x7f).contains(b)), "{hay:?}");
                for byte in [b' ', b'\n', b'0'] {
                    assert_eq!(leading(hay, byte), hay.iter().take_while(|&&b| b == byte).count(), "{hay:?}");
                }
                for to in from..text.len() {
                    let other = &text.as_bytes()[to..];
                    assert_eq!(eq(hay, other), hay == other);
                    assert_eq!(cmp(hay, other), hay.cmp(other), "{hay:?} {other:?}");
                    let n = hay.len().min(other.len());
                    assert_eq!(compare(&hay[..n], &other[..n]), hay[..n].cmp(&other[..n]) as i32);
                    if !other.is_empty() {
                        assert_eq!(contains(hay, other), hay.windows(other.len()).any(|w| w == other));
                    }
                }
            }
        }
        for b in 0..=255u8 {
            let hay = [b' ', b' ', b' ', b, b' ', b' ', b' ', b' ', b' '];
            assert_eq!(printable_ascii(&hay), (0x20..0x7f).contains(&b), "{b}");
            assert_eq!(printable_ascii(&hay[1..]), (0x20..0x7f).contains(&b), "{b}");
        }
    }
}
