//! Hash maps keyed by the release's own names, hashed a word at a time.
//!
//! Why: the standard library's SipHash mixes four rounds per eight bytes
//! and more at the end; under Helm's Wasm runtime, where every loop
//! iteration is a call into Go (docs/benchmarks.md), hashing 20,000 paths
//! and names took about a tenth of `plan`'s time. One multiply per word
//! does here: the keys come from the user's own release, read on their own
//! machine, so there is no one to flood the map with colliding keys.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` hashed by [`WordHasher`].
pub(crate) type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A `HashSet` hashed by [`WordHasher`].
#[cfg(test)]
type WordSet<T> = std::collections::HashSet<T, BuildHasherDefault<WordHasher>>;

/// An empty [`WordMap`] with room for `n` entries.
pub(crate) fn word_map<K, V>(n: usize) -> WordMap<K, V> {
    WordMap::with_capacity_and_hasher(n, BuildHasherDefault::default())
}

/// One multiply per word, its high half folded onto its low half (a
/// multiply carries only upwards, and the next word must not undo a
/// difference that reached only the top bits), then a final mix, since
/// the table picks buckets by the low bits and tags by the high ones.
/// No 128-bit product: on wasm32 it is a call of its own.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

/// An odd constant with bits spread evenly (the golden ratio's).
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

impl WordHasher {
    fn add(&mut self, word: u64) {
        let product = (self.0 ^ word).wrapping_mul(SPREAD);
        self.0 = product ^ (product >> 32);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        // The length, so that `"a\0"` and `"a"` differ.
        self.add(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(SPREAD);
        h ^ (h >> 29)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash(value: impl Hash) -> u64 {
        BuildHasherDefault::<WordHasher>::default().hash_one(value)
    }

    #[test]
    fn names_that_differ_hash_apart() {
        // The first try, multiply-and-rotate, gave 392 of these one hash.
        let names: Vec<String> = (0..20_000).map(|i| format!("c/templates/t{i}.yaml")).collect();
        let hashes: WordSet<u64> = names.iter().map(hash).collect();
        assert_eq!(hashes.len(), names.len());
        // Buckets come from the low bits: 20,000 names over 32,768 buckets
        // fill what a random hash would (about 14,500).
        let buckets: WordSet<u64> = names.iter().map(|n| hash(n) & 0x7fff).collect();
        assert!(buckets.len() > 14_000, "{}", buckets.len());
        assert_ne!(hash("a"), hash("a\0"));
        assert_ne!(hash(("ab", "c")), hash(("a", "bc")));
    }
}
