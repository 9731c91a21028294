//! Every annotation value parser: depends-on references, JSON string
//! arrays, weights, strict booleans, policy lists, hook events, external
//! references.
#![no_main]

use helm_hooks::model::annotation as a;
use helm_hooks::model::event::parse_events;
use helm_hooks::model::reference::ObjectRef;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|value: &str| {
    if let Ok(refs) = a::parse_depends_on(value) {
        // What was parsed prints back to something that parses the same.
        for r in refs {
            let again: ObjectRef = r.to_string().parse().expect("a parsed reference round-trips");
            assert_eq!(again, r);
        }
    }
    let _ = a::parse_string_array(value);
    if let Some(w) = a::parse_weight(value) {
        assert_eq!(value.trim_start_matches('+').parse::<i64>().ok(), Some(w));
    }
    let _ = a::parse_bool(value);
    let _ = a::parse_policy_list(value);
    let _ = parse_events(value);
    // External references print back to what parses the same.
    if let Ok(list) = helm_hooks::model::external::parse_list(value) {
        for e in list {
            assert_eq!(e.to_string().parse::<helm_hooks::model::external::External>().ok(), Some(e));
        }
    }
    let _ = value.parse::<ObjectRef>();
    // Kubernetes' qualified-name rule for annotation keys, written the plain way.
    let lower = value.to_ascii_lowercase();
    let edges = |s: &str| {
        s.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && s.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric())
    };
    let name_ok = |n: &str| {
        n.len() <= 63 && edges(n) && n.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    let label_ok = |l: &str| edges(l) && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let valid = match lower.split('/').collect::<Vec<_>>()[..] {
        [name] => name_ok(name),
        [prefix, name] => prefix.len() <= 253 && prefix.split('.').all(label_ok) && name_ok(name),
        _ => false,
    };
    assert_eq!(a::key_problem(value).is_none(), valid, "{value:?}");
});
