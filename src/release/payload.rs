//! The codec of a release record's payload, `data.release`:
//! `base64(gzip(JSON))` as Helm's `encodeRelease` writes it
//! ([`encode_payload`]) and as its `decodeRelease` reads it
//! ([`decode_payload`]), apart from the store that keeps the records
//! ([`super::storage`]).
//!
//! A payload is written again and again by one command: the
//! release is stored before each hook starts and when the operation ends
//! (as Helm's own actions store it, `pkg/action/hooks.go`, `install.go`),
//! and between two writes only its `info` and its hooks' `last_run` change.
//!
//! Under Helm's Wasm runtime, compressing a release with large CRDs cost a
//! third of a second a write (cert-manager's 2.7 MB of JSON: 0.22 s of
//! deflate at level 6 and 0.07 s of serialising, docs/benchmarks.md), where
//! stock Helm pays a few tens of milliseconds natively. So an [`Encoder`] deflates each
//! large top-level field of the release (the chart, the manifest) on its
//! own, keeps what it made, and reuses it while the field is unchanged:
//! each segment is deflated by a fresh compressor and ended with a sync
//! flush (an empty stored block, byte-aligned, no reference to what came
//! before), so the segments laid end to end are one valid deflate stream,
//! whose gzip trailer takes the CRC-32 of the whole JSON, combined from the
//! segments'. Any gzip reader reads it as Helm's own; it is about as large
//! (each segment starts with an empty window).

use std::fmt;
use std::io::{Read, Write};

use flate2::{Compress, Compression, FlushCompress, Status};
use serde_json::Value;

use crate::base::base64;
use crate::base::cause::Cause;

/// A field whose JSON is at least this large is deflated, and kept, alone.
const LARGE: usize = 64 * 1024;

/// A release whose JSON is smaller than this is deflated at level 1: half
/// the time of level 3 for a payload about half again as large (native, on
/// vault's 278 KB of JSON: 1.1 against 2.0 ms, 77 against 52 KB), which at
/// this size stays far below a Secret's 1 MiB.
const FAST_BELOW: u64 = 1024 * 1024;

/// gzip's header as Go's and flate2's writers make it: deflate, no flags, no
/// time, unknown OS.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];

const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The deflate level of the records the plugin writes ([`encode_payload`]).
pub const LEVEL: u32 = 2;

/// Helm's own level (`gzip.BestCompression`), for a record too large at
/// [`LEVEL`].
const HELMS_LEVEL: u32 = 9;

/// The most a record's payload may be: a Secret's data, and a ConfigMap's,
/// hold at most 1 MiB (Kubernetes' `MaxSecretSize`).
const RECORD_LIMIT: usize = 1 << 20;

/// `data.release` as Helm's `encodeRelease` writes it: base64(gzip(JSON)).
/// Helm compresses at level 9; any level reads back the same. This crate's
/// deflate (miniz_oxide) at [`LEVEL`] takes a third of the time of its level
/// 6 for a payload a sixth larger than level 9's (native, rook-ceph's 3.47 MB
/// of release JSON: 15.5 ms against 24.0 at level 3 and 65.7 at level 6;
/// 473 KB against 419, 403 and level 9's; Helm's Wasm runtime runs it about
/// nine times slower). A payload that comes out over a record's 1 MiB is
/// made again at Helm's level, so that whatever Helm can store, the plugin
/// can. The records a command writes after its first go through [`Encoder`].
pub fn encode_payload(json: &[u8]) -> String {
    let payload = gzip_base64(json, LEVEL);
    if payload.len() <= RECORD_LIMIT {
        return payload;
    }
    let helms = gzip_base64(json, HELMS_LEVEL);
    if helms.len() < payload.len() {
        helms
    } else {
        payload
    }
}

fn gzip_base64(json: &[u8], level: u32) -> String {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    gz.write_all(json).expect("writing to memory");
    base64::encode(&gz.finish().expect("writing to memory"))
}

/// Why a record's payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("{0}")]
    Base64(#[from] base64::Base64Error),
    #[error("gzip: {0}")]
    Gzip(#[source] Cause<std::io::Error>),
    /// A record is at most 1 MiB compressed, and gzip can make that a
    /// thousand times more: bounded as piped input is.
    #[error("it decompresses to more than {} MiB, the bound on a release helm-hooks reads", .0 >> 20)]
    TooLarge(usize),
}

/// Helm's `decodeRelease` up to the JSON bytes: base64, then gunzip when
/// the bytes start with `1f 8b 08`; at most the input bound
/// ([`crate::model::input::MAX_INPUT_MIB`]) of JSON.
pub fn decode_payload(data: &[u8]) -> Result<Vec<u8>, PayloadError> {
    decode_payload_within(data, crate::model::input::MAX_INPUT_MIB << 20)
}

fn decode_payload_within(data: &[u8], limit: usize) -> Result<Vec<u8>, PayloadError> {
    let bytes = base64::decode(data)?;
    if bytes.len() > 3 && bytes[..3] == GZIP_MAGIC {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .take(limit as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| PayloadError::Gzip(e.into()))?;
        if out.len() > limit {
            return Err(PayloadError::TooLarge(limit));
        }
        Ok(out)
    } else {
        Ok(bytes)
    }
}

/// One large field as last encoded.
#[derive(Clone)]
struct Segment {
    key: String,
    value: Value,
    deflated: Vec<u8>,
    crc: crc32fast::Hasher,
    len: u64,
}

/// Encodes a release record, reusing the deflated large fields of the
/// previous one (see the module's comment).
#[derive(Clone, Default)]
pub struct Encoder {
    kept: Vec<Segment>,
    /// The release came out over a record's limit once: it is written whole
    /// from then on ([`encode_payload`], at Helm's level when it must be).
    whole: bool,
}

impl fmt::Debug for Encoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept: Vec<(&str, usize)> = self.kept.iter().map(|s| (s.key.as_str(), s.deflated.len())).collect();
        f.debug_struct("Encoder").field("kept", &kept).finish()
    }
}

/// The gzip stream under construction: deflated segments and the CRC-32 and
/// length of what they hold.
struct Stream {
    out: Vec<u8>,
    crc: crc32fast::Hasher,
    len: u64,
}

impl Stream {
    fn push(&mut self, deflated: &[u8], crc: &crc32fast::Hasher, len: u64) {
        self.out.extend_from_slice(deflated);
        self.crc.combine(crc);
        self.len += len;
    }

    fn push_plain(&mut self, json: &[u8], last: bool, level: u32) {
        if json.is_empty() && !last {
            return;
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(json);
        self.push(&deflate(json, last, level), &crc, json.len() as u64);
    }
}

impl Encoder {
    /// `base64(gzip(JSON of release))`: what `encode_payload` makes of the
    /// same JSON, read back byte for byte the same.
    pub fn encode(&mut self, release: &Value) -> String {
        self.encode_within(release, RECORD_LIMIT)
    }

    fn encode_within(&mut self, release: &Value, limit: usize) -> String {
        let whole = |release: &Value| serde_json::to_vec(release).expect("a Value serialises");
        let fields = match release.as_object() {
            Some(fields) if !self.whole => fields,
            _ => return encode_payload(&whole(release)),
        };
        // First the JSON, field by field (kept segments as they are), then the deflating,
        // at a level chosen by the whole size.
        enum Piece {
            Plain(Vec<u8>),
            Kept(Segment),
            Large(String, Value, Vec<u8>),
        }
        let mut pieces = Vec::new();
        let mut total = 0u64;
        // Small fields and the JSON between fields, not deflated yet.
        let mut plain = b"{".to_vec();
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                plain.push(b',');
            }
            serde_json::to_writer(&mut plain, key).expect("a string serialises");
            plain.push(b':');
            if let Some(old) = self.kept.iter().position(|s| &s.key == key && &s.value == value) {
                total += plain.len() as u64;
                pieces.push(Piece::Plain(std::mem::take(&mut plain)));
                let s = self.kept.swap_remove(old);
                total += s.len;
                pieces.push(Piece::Kept(s));
                continue;
            }
            let json = serde_json::to_vec(value).expect("a Value serialises");
            if json.len() < LARGE {
                plain.extend_from_slice(&json);
                continue;
            }
            total += (plain.len() + json.len()) as u64;
            pieces.push(Piece::Plain(std::mem::take(&mut plain)));
            pieces.push(Piece::Large(key.clone(), value.clone(), json));
        }
        plain.push(b'}');
        total += plain.len() as u64;
        pieces.push(Piece::Plain(plain));
        let level = if total < FAST_BELOW { 1 } else { LEVEL };
        let mut stream = Stream { out: GZIP_HEADER.to_vec(), crc: crc32fast::Hasher::new(), len: 0 };
        let mut kept = Vec::new();
        let last = pieces.len() - 1;
        for (i, piece) in pieces.into_iter().enumerate() {
            match piece {
                Piece::Plain(json) => stream.push_plain(&json, i == last, level),
                Piece::Kept(s) => {
                    stream.push(&s.deflated, &s.crc, s.len);
                    kept.push(s);
                }
                Piece::Large(key, value, json) => {
                    let mut crc = crc32fast::Hasher::new();
                    crc.update(&json);
                    let s = Segment { key, value, deflated: deflate(&json, false, level), crc, len: json.len() as u64 };
                    stream.push(&s.deflated, &s.crc, s.len);
                    kept.push(s);
                }
            }
        }
        self.kept = kept;
        let mut out = stream.out;
        out.extend_from_slice(&stream.crc.finalize().to_le_bytes());
        out.extend_from_slice(&(stream.len as u32).to_le_bytes());
        let payload = base64::encode(&out);
        if payload.len() <= limit {
            return payload;
        }
        let helms = gzip_base64(&whole(release), HELMS_LEVEL);
        if helms.len() >= payload.len() {
            return payload;
        }
        self.kept.clear();
        self.whole = true;
        helms
    }
}

/// Raw deflate of `input` by a fresh compressor at `level`: ended with a
/// sync flush, so that more segments may follow, or, `last`, with the final
/// block.
fn deflate(input: &[u8], last: bool, level: u32) -> Vec<u8> {
    deflate_in_steps(input, last, level, input.len() / 4 + 1024, 0)
}

/// [`deflate`] into an output that starts with room for `first` bytes and
/// grows by `step` (0: by as much as it holds) whenever it is full, so that
/// a test can make it fill at any byte.
///
/// miniz_oxide writes what did not fit in the output at the start of the
/// next call, and that call then returns without compressing or flushing,
/// whatever flush it was asked for. So the flush is asked for only once the
/// input is in and a call has stopped short of its room (nothing left
/// over), and it is done once such a call also stops short of its room.
/// Before issue 46 the flush was asked for with the input, and a segment
/// whose output filled the room exactly at that call went out drained but
/// never flushed: its last block unfinished, a stream no gzip reader,
/// Helm's included, could read.
fn deflate_in_steps(input: &[u8], last: bool, level: u32, first: usize, step: usize) -> Vec<u8> {
    let mut c = Compress::new(Compression::new(level), false);
    let mut out = Vec::with_capacity(first.max(1));
    // The flush's calls grow the room by what it holds: each adds an empty block, which a
    // room of a few bytes at a time would never get past.
    let call = |c: &mut Compress, out: &mut Vec<u8>, input: &[u8], flush| {
        if out.len() == out.capacity() {
            let feeding = flush == FlushCompress::None;
            out.reserve_exact(if step == 0 || !feeding { out.capacity() } else { step });
        }
        c.compress_vec(input, out, flush).expect("deflating into memory cannot fail")
    };
    // In, and out until a call leaves room: nothing is held back for the next call.
    loop {
        let done = c.total_in() as usize;
        call(&mut c, &mut out, &input[done..], FlushCompress::None);
        if c.total_in() as usize == input.len() && out.len() < out.capacity() {
            break;
        }
    }
    if last {
        while call(&mut c, &mut out, &[], FlushCompress::Finish) != Status::StreamEnd {}
        return out;
    }
    // A call that starts with nothing held back and ends with room left has flushed all;
    // one that starts by draining may have done nothing else, and another is asked for (a
    // second flush adds an empty stored block, which readers skip).
    let mut clear = true;
    loop {
        call(&mut c, &mut out, &[], FlushCompress::Sync);
        let room_left = out.len() < out.capacity();
        if room_left && clear {
            break;
        }
        clear = room_left;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(hooks: usize, phase: &str) -> Value {
        let big: String = (0..40_000).map(|i| format!("line {i} of a template\n")).collect();
        serde_json::json!({
            "name": "r",
            "chart": {"templates": [{"name": "templates/a.yaml", "data": big}], "metadata": {"name": "c"}},
            "manifest": big.replace("template", "manifest"),
            "info": {"status": "pending-install"},
            "hooks": (0..hooks).map(|i| serde_json::json!({"name": format!("h{i}"), "last_run": {"phase": phase}})).collect::<Vec<_>>(),
            "version": 1,
        })
    }

    fn decoded(payload: &str) -> Vec<u8> {
        decode_payload(payload.as_bytes()).unwrap()
    }

    #[test]
    fn reads_back_as_the_json_whatever_was_kept() {
        let mut e = Encoder::default();
        let first = release(3, "Running");
        assert_eq!(decoded(&e.encode(&first)), serde_json::to_vec(&first).unwrap());
        assert_eq!(e.kept.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), vec!["chart", "manifest"]);
        // Only a hook changed: the large fields are reused, the stream still reads back whole.
        let second = release(3, "Succeeded");
        assert_eq!(decoded(&e.encode(&second)), serde_json::to_vec(&second).unwrap());
        // The chart changed (another command stored the record meanwhile): deflated afresh.
        let mut third = second.clone();
        third["chart"]["metadata"]["name"] = "d".into();
        assert_eq!(decoded(&e.encode(&third)), serde_json::to_vec(&third).unwrap());
        assert_eq!(decoded(&e.encode(&third)), serde_json::to_vec(&third).unwrap());
        // Small releases and no object at all.
        for v in [serde_json::json!({"a": 1}), serde_json::json!({}), serde_json::json!([1, 2])] {
            assert_eq!(decoded(&Encoder::default().encode(&v)), serde_json::to_vec(&v).unwrap());
        }
    }

    #[test]
    fn a_payload_over_a_records_limit_is_made_again_at_helms_level() {
        // Words of a small vocabulary in no order: text that level 9 packs tighter.
        let mut seed = 1u64;
        let words: Vec<String> = (0..120_000)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                format!("w{}", (seed >> 40) % 3000)
            })
            .collect();
        let r = serde_json::json!({"name": "r", "manifest": words.join(" "), "chart": {"x": words[..5000].join(",")}});
        let mut e = Encoder::default();
        let segmented = e.encode(&r).len();
        let limit = segmented - 1;
        let mut e = Encoder::default();
        let payload = e.encode_within(&r, limit);
        assert_eq!(decoded(&payload), serde_json::to_vec(&r).unwrap());
        assert!(payload.len() < segmented, "{} against {segmented}", payload.len());
        assert_eq!(payload, gzip_base64(&serde_json::to_vec(&r).unwrap(), HELMS_LEVEL));
        // And so on for the rest of the command: written whole, nothing kept.
        assert!(e.whole && e.kept.is_empty());
        let next = release(3, "Succeeded");
        assert_eq!(e.encode(&next), encode_payload(&serde_json::to_vec(&next).unwrap()));
    }

    #[test]
    fn is_about_as_small_as_one_stream() {
        let r = release(3, "Running");
        let whole = super::encode_payload(&serde_json::to_vec(&r).unwrap()).len();
        let segmented = Encoder::default().encode(&r).len();
        assert!(segmented <= whole + whole / 50, "{segmented} against {whole}");
    }

    #[test]
    fn large_inputs_deflate_and_flush_whole() {
        // More than the output room of one call, incompressible: several rounds.
        let noise: Vec<u8> = (0u32..300_000).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for last in [false, true] {
            let mut stream = deflate(&noise, last, 6);
            if !last {
                stream.extend(deflate(b"", true, 6));
            }
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::DeflateDecoder::new(stream.as_slice()), &mut out).unwrap();
            assert_eq!(out, noise);
        }
    }

    #[test]
    fn payload_round_trip_and_gzip_detection() {
        let json = br#"{"name":"r","version":3}"#;
        let enc = encode_payload(json);
        let raw = base64::decode(enc.as_bytes()).unwrap();
        assert_eq!(raw[..3], GZIP_MAGIC);
        assert_eq!(decode_payload(enc.as_bytes()).unwrap(), json);
        // Not gzip: the bytes are the JSON itself.
        let plain = base64::encode(json);
        assert_eq!(decode_payload(plain.as_bytes()).unwrap(), json);
        // 1f 8b without the deflate method byte is not gzip either.
        let almost = base64::encode(&[0x1f, 0x8b, 0x00, b'{']);
        assert_eq!(decode_payload(almost.as_bytes()).unwrap(), [0x1f, 0x8b, 0x00, b'{']);
    }

    /// A gzip bomb in a release record is refused at the bound, not
    /// inflated into all of memory (issue 33).
    #[test]
    fn a_payload_past_the_bound_is_refused() {
        let json = vec![b' '; 3 << 20];
        let payload = encode_payload(&json);
        assert!(payload.len() < 20_000, "{}", payload.len());
        assert_eq!(decode_payload_within(payload.as_bytes(), 3 << 20).unwrap().len(), 3 << 20);
        let e = decode_payload_within(payload.as_bytes(), 2 << 20).unwrap_err();
        assert_eq!(e.to_string(), "it decompresses to more than 2 MiB, the bound on a release helm-hooks reads");
        let broken = base64::encode(&[0x1f, 0x8b, 0x08, 0, 0, 0]);
        assert!(decode_payload(broken.as_bytes()).is_err());
    }

    /// Issue 46: a 252,947-character manifest of two letters filled the
    /// output exactly where its segment was to be flushed, and the record
    /// could not be read back (nor by Helm).
    #[test]
    fn a_segment_that_fills_its_room_exactly_is_still_flushed() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let manifest: String = (0..252_947)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if (x >> 32) & 1 == 0 {
                    'a'
                } else {
                    'b'
                }
            })
            .collect();
        let r = serde_json::json!({"name": "r", "manifest": manifest, "info": {"status": "deployed"}});
        assert_eq!(decoded(&Encoder::default().encode(&r)), serde_json::to_vec(&r).unwrap());
    }

    /// The output filled at every byte of a segment's deflating and of its
    /// flush: each segment, laid before a last one, reads back whole. Grown a
    /// byte at a time the room is full after every byte whatever it starts
    /// with, so the first rooms are sampled, but all of them near the end.
    #[test]
    fn segments_read_back_wherever_the_output_fills() {
        let mut x = 7u64;
        let inputs: Vec<Vec<u8>> = vec![
            (0..30_000)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b"ab"[(x >> 40) as usize & 1]
                })
                .collect(),
            (0..9_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect(),
            b"{}".to_vec(),
        ];
        for input in &inputs {
            let whole = deflate(input, false, 1).len();
            for first in
                (1..whole + 8).step_by(if whole > 2_000 { 61 } else { 1 }).chain(whole.saturating_sub(40)..whole + 8)
            {
                for step in [1, 5, 0] {
                    let mut stream = deflate_in_steps(input, false, 1, first, step);
                    stream.extend(deflate(b"}", true, 1));
                    let mut out = Vec::new();
                    flate2::read::DeflateDecoder::new(stream.as_slice())
                        .read_to_end(&mut out)
                        .unwrap_or_else(|e| panic!("{} bytes, room {first} then {step}: {e}", input.len()));
                    assert_eq!(out.len(), input.len() + 1);
                    assert!(out[..input.len()] == input[..]);
                }
            }
        }
    }
}
