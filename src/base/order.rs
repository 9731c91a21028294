//! Sorting by a whole-number key through one sort that every caller shares.
//!
//! Each closure given to `sort_by` or `sort_by_key` becomes its own copy of
//! the standard library's sort in plugin.wasm, 7–14 KB apiece
//! (docs/benchmarks.md, "plugin.wasm size"). Here the key is computed once
//! per item and the pairs of key and position are sorted by one function;
//! what is left per caller is the small loop that puts the items in order.

/// Sorts `items` by `key`, keeping equal keys in their order (stable).
pub(crate) fn by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
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

/// Sorts `items` by `cmp`, keeping equal items in their order (stable),
/// through [`sorted`], the one comparison sort every caller shares.
pub(crate) fn by<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let order = sorted(items.len(), &|a, b| cmp(&items[a], &items[b]));
    permute(items, &order);
}

/// Sorts `items` by `key`, computed once per item, keeping equal keys in
/// their order (as `sort_by_cached_key`), through [`sorted`].
pub(crate) fn by_cached_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let order = sorted(keys.len(), &|a, b| keys[a].cmp(&keys[b]));
    permute(items, &order);
}

/// The positions `0..n` ordered by `cmp` of two positions, equal ones in
/// their order (stable). The one instance of the standard library's sort
/// for every caller that compares more than a key: the comparison is
/// called through a pointer rather than copied into a sort of its own.
#[inline(never)]
pub(crate) fn sorted(n: usize, cmp: &dyn Fn(usize, usize) -> std::cmp::Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Puts `items` in `order`, which names each position once.
pub(crate) fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
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
    fn sorts_by_comparison_and_cached_key_stably() {
        let mut v = vec![("c", 2), ("a", 1), ("b", 2), ("d", 0), ("e", 1)];
        by(&mut v, |x, y| x.1.cmp(&y.1));
        assert_eq!(v, [("d", 0), ("a", 1), ("e", 1), ("c", 2), ("b", 2)]);
        by_cached_key(&mut v, |&(name, _)| std::cmp::Reverse(name));
        assert_eq!(v, [("e", 1), ("d", 0), ("c", 2), ("b", 2), ("a", 1)]);
        assert_eq!(sorted(4, &|a, b| (a % 2).cmp(&(b % 2))), [0, 2, 1, 3]);
    }

    #[test]
    fn permute_follows_the_order() {
        let mut v = vec!['x', 'y', 'z'];
        permute(&mut v, &[2, 0, 1]);
        assert_eq!(v, ['z', 'x', 'y']);
    }
}
