//! Sorting by a whole-number key through one sort that every caller shares.
//!
//! Each closure given to `sort_by` or `sort_by_key` becomes its own copy of
//! the standard library's sort in plugin.wasm, 7–14 KB apiece
//! (docs/benchmarks.md, "plugin.wasm size"). Here the key is computed once
//! per item and the pairs of key and position are sorted by one function;
//! what is left per caller is the small loop that puts the items in order.

/// Sorts `items` by `key`, keeping equal keys in their order (stable).
pub fn by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let keyed: Vec<(u64, usize)> = items.iter().enumerate().map(|(i, t)| (key(t), i)).collect();
    let order = positions(keyed);
    permute(items, &order);
}

/// The positions of `keyed`'s items in key order; a position breaks ties.
#[inline(never)]
fn positions(mut keyed: Vec<(u64, usize)>) -> Vec<usize> {
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Puts `items` in `order`, which names each position once.
pub fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.iter().filter_map(|&i| slots[i].take()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_key_and_keeps_ties_in_order() {
        let mut v = vec![("c", 2), ("a", 1), ("b", 2), ("d", 0), ("e", 1)];
        by_key(&mut v, |&(_, k)| k);
        assert_eq!(v, [("d", 0), ("a", 1), ("e", 1), ("c", 2), ("b", 2)]);
        let mut empty: Vec<u8> = Vec::new();
        by_key(&mut empty, |&b| u64::from(b));
        assert!(empty.is_empty());
    }

    #[test]
    fn permute_follows_the_order() {
        let mut v = vec!['x', 'y', 'z'];
        permute(&mut v, &[2, 0, 1]);
        assert_eq!(v, ['z', 'x', 'y']);
    }
}
