//! A minimal HTTP/1.1 client over `std::net::TcpStream`, for plain `http://`
//! URLs: `kubectl proxy` on loopback. The native binary and the end-to-end
//! tests use it; plugin.wasm uses Extism's `http_request` instead. https is
//! out of scope natively (no TLS stack here): use `kubectl proxy`.
//!
//! One connection per request (`Connection: close`); the response is read
//! whole, as Helm's host reads it. Chunked bodies are decoded.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::transport::{Request, Response, Transport, TransportError};

#[derive(Debug, Clone)]
pub struct TcpTransport {
    connect_timeout: Duration,
    /// Longest silence while reading a response.
    read_timeout: Duration,
}

impl Default for TcpTransport {
    fn default() -> Self {
        TcpTransport { connect_timeout: Duration::from_secs(10), read_timeout: Duration::from_secs(120) }
    }
}

/// `http://host:port/path?query` → (host, port, path and query).
fn split_url(url: &str) -> Result<(String, u16, String), TransportError> {
    let unsupported = |why: &str| {
        TransportError::Unsupported(format!(
        "{url}: {why}; the native client speaks plain http only (https is out of scope outside the Wasm plugin): start `kubectl proxy --port 8001` and use http://127.0.0.1:8001"
    ))
    };
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("http://") {
        &url[7..]
    } else if lower.starts_with("https://") {
        return Err(unsupported("an https URL"));
    } else {
        return Err(unsupported("not an http URL"));
    };
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) if rest.as_bytes()[i] == b'/' => (&rest[..i], rest[i..].to_string()),
        Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
        None => (rest, "/".to_string()),
    };
    if authority.contains('@') {
        return Err(unsupported("credentials in the URL"));
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6.split_once(']').ok_or_else(|| unsupported("a malformed IPv6 address"))?;
        let port = match after.strip_prefix(':') {
            Some(p) => p.parse().map_err(|_| unsupported("a bad port"))?,
            None => 80,
        };
        (h.to_string(), port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), p.parse().map_err(|_| unsupported("a bad port"))?),
            None => (authority.to_string(), 80),
        }
    };
    if host.is_empty() {
        return Err(unsupported("no host"));
    }
    Ok((host, port, path))
}

impl Transport for TcpTransport {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        let (host, port, path) = split_url(&req.url)?;
        let io = |e: std::io::Error| TransportError::Io { url: req.url.clone(), message: e.to_string() };
        let addrs: Vec<_> = (host.as_str(), port).to_socket_addrs().map_err(io)?.collect();
        let mut last = None;
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, self.connect_timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let mut stream =
            stream.ok_or_else(|| io(last.unwrap_or_else(|| std::io::Error::other("no address for the host"))))?;
        stream.set_read_timeout(Some(self.read_timeout)).map_err(io)?;
        stream.set_nodelay(true).map_err(io)?;

        let host_header = if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") };
        let mut head = format!(
            "{} {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\nUser-Agent: helm-hooks\r\n",
            req.method.as_str()
        );
        for (k, v) in &req.headers {
            if k.contains(['\r', '\n']) || v.contains(['\r', '\n']) {
                return Err(TransportError::Unsupported(format!("header {k:?} contains a line break")));
            }
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = req.body.as_deref().unwrap_or_default();
        if req.body.is_some() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(body);
        stream.write_all(&out).map_err(io)?;
        stream.flush().map_err(io)?;

        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).map_err(io)?;
        parse_response(&raw).map_err(|message| TransportError::Protocol { url: req.url.clone(), message })
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Parses a whole HTTP/1.1 response (the connection closed after it).
fn parse_response(raw: &[u8]) -> Result<Response, String> {
    let end = find(raw, b"\r\n\r\n").ok_or("no end of headers")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "headers are not UTF-8")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(format!("bad status line {status_line:?}"));
    }
    let status: u16 =
        parts.next().and_then(|s| s.parse().ok()).ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut headers = BTreeMap::new();
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            let k = k.trim().to_ascii_lowercase();
            let v = v.trim().to_string();
            headers
                .entry(k)
                .and_modify(|old: &mut String| {
                    old.push(',');
                    old.push_str(&v)
                })
                .or_insert(v);
        }
    }
    let rest = &raw[end + 4..];
    let chunked = headers.get("transfer-encoding").is_some_and(|te| te.to_ascii_lowercase().contains("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(len) = headers.get("content-length") {
        let len: usize = len.parse().map_err(|_| "bad Content-Length")?;
        if rest.len() < len {
            return Err(format!("the body ended after {} of {len} bytes", rest.len()));
        }
        rest[..len].to_vec()
    } else {
        rest.to_vec()
    };
    Ok(Response { status, headers, body })
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = find(data, b"\r\n").ok_or("a chunk size line has no end")?;
        let line = std::str::from_utf8(&data[..eol]).map_err(|_| "bad chunk size")?;
        let size_hex = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_hex, 16).map_err(|_| format!("bad chunk size {size_hex:?}"))?;
        data = &data[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size + 2 {
            return Err("the body ended inside a chunk".into());
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            split_url("http://127.0.0.1:8001/api/v1?x=1").unwrap(),
            ("127.0.0.1".into(), 8001, "/api/v1?x=1".into())
        );
        assert_eq!(split_url("http://[::1]:8001").unwrap(), ("::1".into(), 8001, "/".into()));
        assert_eq!(split_url("http://localhost?watch=1").unwrap(), ("localhost".into(), 80, "/?watch=1".into()));
        let e = split_url("https://10.0.0.1:6443/api").unwrap_err();
        assert!(e.to_string().contains("kubectl proxy"), "{e}");
    }

    #[test]
    fn responses() {
        let r = parse_response(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;x=y\r\n, world\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!((r.status, r.body.as_slice()), (200, &b"hello, world"[..]));
        assert_eq!(r.headers["content-type"], "application/json");
        let r = parse_response(b"HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabcdef").unwrap();
        assert_eq!((r.status, r.body.as_slice()), (404, &b"abc"[..]));
        let r = parse_response(b"HTTP/1.0 200 OK\r\n\r\nuntil eof").unwrap();
        assert_eq!(r.body, b"until eof");
        assert!(parse_response(b"garbage").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab").is_err());
    }

    #[test]
    fn refused_connection_is_an_error_not_a_panic() {
        // A port nothing listens on: bind one, note it, close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let req = Request {
            method: crate::kube::transport::Method::Get,
            url: format!("http://127.0.0.1:{port}/api"),
            headers: vec![],
            body: None,
        };
        let e = TcpTransport::default().send(&req).unwrap_err();
        assert!(matches!(e, TransportError::Io { .. }), "{e}");
    }

    #[test]
    fn round_trip_against_a_local_server() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 1024];
            // Read the head and the 4-byte body.
            while find(&buf, b"\r\n\r\n").is_none_or(|i| buf.len() < i + 8) {
                let n = s.read(&mut chunk).unwrap();
                assert!(n > 0);
                buf.extend_from_slice(&chunk[..n]);
            }
            s.write_all(b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n").unwrap();
            String::from_utf8(buf).unwrap()
        });
        let req = Request {
            method: crate::kube::transport::Method::Patch,
            url: format!("http://127.0.0.1:{port}/apis/x?y=1"),
            headers: vec![("Content-Type".into(), "application/apply-patch+yaml".into())],
            body: Some(b"{}\n\n".to_vec()),
        };
        let r = TcpTransport::default().send(&req).unwrap();
        assert_eq!((r.status, r.body.as_slice()), (201, &b"ok"[..]));
        let seen = server.join().unwrap();
        assert!(seen.starts_with("PATCH /apis/x?y=1 HTTP/1.1\r\n"), "{seen}");
        assert!(seen.contains("Content-Length: 4\r\n"), "{seen}");
        assert!(seen.ends_with("\r\n\r\n{}\n\n"), "{seen}");
    }
}
