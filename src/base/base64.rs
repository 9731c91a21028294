//! Base64 with the standard alphabet and padding (Go's `StdEncoding`):
//! Helm's release payload, Secret data. A few lines of our own rather than a crate.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(crate) fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether the base64 `encoded` may decode to bytes that contain `plain`:
/// `false` only when they cannot, read without decoding. Wherever `plain`
/// sits in the decoded bytes, the 3-byte groups wholly inside it encode to
/// the same characters at a 4-character boundary, one string for each of
/// the three places it can start in a group; a line break could split
/// them, so text with one may contain anything.
pub(crate) fn may_contain(encoded: &[u8], plain: &[u8]) -> bool {
    if crate::base::bytes::find_either(encoded, b'\n', b'\r').is_some() {
        return true;
    }
    // Too short for a whole group at each of the three starts: no telling.
    plain.len() < 5
        || (0..3).any(|start| {
            let whole = &plain[start..];
            crate::base::bytes::contains(encoded, encode(&whole[..whole.len() / 3 * 3]).as_bytes())
        })
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid base64 at byte {0}")]
pub struct Base64Error(usize);

/// Decodes padded standard base64; line breaks are skipped (as Go
/// skips them).
pub(crate) fn decode(text: &[u8]) -> Result<Vec<u8>, Base64Error> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut quad = [0u8; 4];
    let mut n = 0;
    let mut pad = 0;
    for (i, &c) in text.iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'\r' | b'\n' => continue,
            b'=' if n >= 2 => {
                pad += 1;
                0
            }
            _ => return Err(Base64Error(i)),
        };
        if pad > 0 && c != b'=' {
            return Err(Base64Error(i));
        }
        quad[n] = v;
        n += 1;
        if n == 4 {
            let x = (u32::from(quad[0]) << 18)
                | (u32::from(quad[1]) << 12)
                | (u32::from(quad[2]) << 6)
                | u32::from(quad[3]);
            let bytes = [(x >> 16) as u8, (x >> 8) as u8, x as u8];
            if pad > 2 {
                return Err(Base64Error(i));
            }
            out.extend_from_slice(&bytes[..3 - pad]);
            n = 0;
            if pad > 0 {
                // Padding ends the data; only line breaks may follow.
                if let Some(j) = text[i + 1..].iter().position(|&b| b != b'\r' && b != b'\n') {
                    return Err(Base64Error(i + 1 + j));
                }
                return Ok(out);
            }
        }
    }
    if n != 0 {
        return Err(Base64Error(text.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_may_contain_a_text_is_told_without_decoding() {
        let key = b"helm.sh/hook";
        for before in 0..7 {
            for after in 0..4 {
                let plain = [&b"xyzzy!!"[..before], key, &b"abc"[..after]].concat();
                assert!(may_contain(encode(&plain).as_bytes(), key), "{before} {after}");
                let other = [&b"xyzzy!!"[..before], b"helm.sh/resource-policy", &b"abc"[..after]].concat();
                assert!(!may_contain(encode(&other).as_bytes(), key), "{before} {after}");
            }
        }
        // Never a miss, wherever the text sits in what is encoded.
        let mut seed = 7u64;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (before, after) = ((seed >> 33) as usize % 40, (seed >> 13) as usize % 40);
            let plain: Vec<u8> = (0..before + after).map(|i| (seed >> (i % 50)) as u8).collect();
            let plain = [&plain[..before], key, &plain[before..]].concat();
            assert!(may_contain(encode(&plain).as_bytes(), key));
        }
        assert!(may_contain(b"aGVs\nbG8=", key), "a line break may split anything");
        assert!(may_contain(b"", b"ab"), "too short to tell");
    }

    #[test]
    fn base64_round_trips_and_matches_known_values() {
        for (plain, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), enc);
            assert_eq!(decode(enc.as_bytes()).unwrap(), plain.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        let e = encode(&all);
        assert!(e.contains('+') && e.contains('/'));
        assert_eq!(decode(e.as_bytes()).unwrap(), all);
        assert_eq!(decode(b"Zm9v\r\nYmFy").unwrap(), b"foobar");
        for bad in [&b"Zm9"[..], b"Z===", b"Zg==Zg==", b"Zm9v!", b"Zg=a"] {
            assert!(decode(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
    }
}
