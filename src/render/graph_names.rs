//! Names the graph formats (`dot`, `mermaid`, the picture) can read:
//! stable node ids, and labels with control characters made visible.

use crate::model::reference::ObjectRef;

/// A stable identifier for graph formats: letters, digits and underscores.
pub(super) fn node_id(target: &str, r: &ObjectRef) -> String {
    let raw = format!("{target}_{r}");
    raw.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>()
        + &format!("_{:x}", fnv(&raw))
}

fn fnv(s: &str) -> u32 {
    s.bytes().fold(0x811c9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x01000193))
}

/// `s` with every control character but the line break shown as its
/// Unicode control picture (NUL as ␀): Graphviz reads its input as C
/// strings, so a NUL in a name cut the graph short, and Mermaid takes
/// other control characters as the end of a label (issue 33).
pub(super) fn visible_controls(s: &str) -> std::borrow::Cow<'_, str> {
    let picture = |c: char| match c {
        '\n' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if c.is_control() => '\u{fffd}',
        c => c,
    };
    if s.chars().any(|c| c != '\n' && c.is_control()) {
        s.chars().map(picture).collect::<String>().into()
    } else {
        s.into()
    }
}
