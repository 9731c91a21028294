//! Plain-text layout shared by the drivers' progress lines and the renderers:
//! columns, counted nouns, wrapped lists.

/// The width text output wraps at.
const WIDTH: usize = 100;

/// Aligns rows into columns two spaces apart (the last column unpadded),
/// each line prefixed with `indent` and without trailing blanks.
pub(crate) fn table(rows: &[Vec<String>], indent: &str) -> String {
    // Few loops per row (Helm's Wasm runtime charges every iteration): each
    // cell's width counted once, padding copied from a run of blanks, each
    // line built in place in the output and its trailing blanks cut there.
    let widths_of: Vec<Vec<usize>> = rows.iter().map(|r| r.iter().map(|s| width(s)).collect()).collect();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for row in &widths_of {
        for (w, &cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell);
        }
    }
    let bytes: usize = rows.iter().flatten().map(String::len).sum();
    let mut out = String::with_capacity(bytes + rows.len() * (indent.len() + 2 * columns + 1));
    for (row, cells) in rows.iter().zip(&widths_of) {
        let start = out.len();
        out.push_str(indent);
        for (c, cell) in row.iter().enumerate() {
            out.push_str(cell);
            if c + 1 < row.len() {
                blanks(&mut out, widths[c] - cells[c] + 2);
            }
        }
        let kept = start + out[start..].trim_end().len();
        out.truncate(kept);
        out.push('\n');
    }
    out
}

/// The characters of `s`: its length when it is ASCII (one check a word).
fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// `n` blanks, copied from a run of them rather than pushed one at a time.
fn blanks(out: &mut String, mut n: usize) {
    const RUN: &str = "                                                                ";
    while n > RUN.len() {
        out.push_str(RUN);
        n -= RUN.len();
    }
    out.push_str(&RUN[..n]);
}

/// How many members a message about a cycle or a list of names names
/// before it says "and N more": a cycle of 10,000 hooks was one line of
/// 410 KB (issue 33).
pub(crate) const NAMED: usize = 8;

/// `items` joined with `sep`, the first [`NAMED`] of them and then `and N
/// more` when there are more.
pub(crate) fn first_few(items: &[String], sep: &str) -> String {
    if items.len() <= NAMED {
        return items.join(sep);
    }
    format!("{}{sep}and {} more", items[..NAMED].join(sep), items.len() - NAMED)
}

/// `1 hook`, `2 hooks`, `1 batch`, `3 batches`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ if noun.ends_with("ch") || noun.ends_with('s') => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

/// `41 API requests`, or `41 API requests, 3 repeated after 429/5xx or a
/// lost connection` when the API server throttled or failed some of them.
pub(crate) fn api_requests(sent: u64, repeated: u64) -> String {
    match repeated {
        0 => format!("{sent} API requests"),
        _ => format!("{sent} API requests, {repeated} repeated after 429/5xx or a lost connection"),
    }
}

/// Lines of text no wider than [`WIDTH`] (a long word stays whole): the
/// first prefixed with `first`, the rest with `rest`. Lists of hundreds of
/// resources stay readable in a terminal.
pub(crate) fn wrap(text: &str, first: &str, rest: &str) -> String {
    // What fits in bytes fits in characters: one line, copied whole (a plan
    // prints one such line per wave, 10,000 for a chain).
    if first.len() + text.len() <= WIDTH {
        let mut out = String::with_capacity(first.len() + text.len() + 1);
        out.push_str(first);
        out.push_str(text);
        out.truncate(out.trim_end().len());
        out.push('\n');
        return out;
    }
    let mut out = String::new();
    let mut line = String::from(first);
    let mut empty = true;
    for word in text.split(' ') {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(rest);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}
