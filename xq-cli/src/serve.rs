//! `xq serve`: a small HTTP/1.1 server of the analysis board on the local machine, for
//! people who run no web server of their own.
//!
//! It serves a fixed table of files (the binary embeds `web/dist` at build time) and,
//! when given a directory of endgame tables, `tables/KRKN.xqwdl` and `tables/KRKN.xqtb`
//! from it (the files the board fetches for its ending): `GET` and `HEAD` only, `/` for
//! `index.html`, 404 for any other path (so no other path can reach the file system),
//! one thread per connection, `Connection: close`.
//! Every answer carries `Cross-Origin-Opener-Policy: same-origin` and
//! `Cross-Origin-Embedder-Policy: require-corp`: the page is then cross-origin isolated,
//! which lets the engine's worker share memory with its search and stop it at once.
//!
//! ```
//! use std::io::{Read, Write};
//! use std::net::{TcpListener, TcpStream};
//! static FILES: &[(&str, &[u8])] = &[("index.html", b"<!doctype html>")];
//! let listener = TcpListener::bind("127.0.0.1:0").unwrap();
//! let addr = listener.local_addr().unwrap();
//! std::thread::spawn(move || xq_cli::serve::serve(listener, FILES, None));
//! let mut stream = TcpStream::connect(addr).unwrap();
//! stream.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
//! let mut answer = String::new();
//! stream.read_to_string(&mut answer).unwrap();
//! assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"));
//! assert!(answer.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"));
//! assert!(answer.ends_with("\r\n\r\n<!doctype html>"));
//! ```

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The files served: a path relative to the site's root (`"pkg/xq_wasm.js"`) and the
/// contents.
pub type Assets = &'static [(&'static str, &'static [u8])];

/// The longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// The `Content-Type` of a file by its extension.
///
/// ```
/// use xq_cli::serve::content_type;
/// assert_eq!(content_type("pkg/xq_wasm_bg.wasm"), "application/wasm");
/// assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
/// assert_eq!(content_type("fonts/xq-board-700.woff2"), "font/woff2");
/// assert_eq!(content_type("LICENSE-MIT"), "application/octet-stream");
/// ```
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "png" => "image/png",
        "woff2" => "font/woff2",
        "ico" => "image/x-icon",
        "md" | "txt" | "ts" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// An answer: status line, headers and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body (sent only for `GET`).
    pub body: Vec<u8>,
    /// Whether the body is sent (`false` for `HEAD`).
    pub with_body: bool,
}

impl Response {
    fn text(status: u16, text: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: text.as_bytes().to_vec(),
            with_body: true,
        }
    }

    /// The bytes sent: status line, headers, blank line, body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let reason = match self.status {
            200 => "OK",
            400 => "Bad Request",
            404 => "Not Found",
            405 => "Method Not Allowed",
            431 => "Request Header Fields Too Large",
            _ => "Error",
        };
        let mut out = format!(
            "HTTP/1.1 {} {reason}\r\n\
             Content-Type: {}\r\n\
             Content-Length: {}\r\n\
             Cross-Origin-Opener-Policy: same-origin\r\n\
             Cross-Origin-Embedder-Policy: require-corp\r\n\
             Cross-Origin-Resource-Policy: same-origin\r\n\
             X-Content-Type-Options: nosniff\r\n\
             Cache-Control: no-cache\r\n\
             {}Connection: close\r\n\r\n",
            self.status,
            self.content_type,
            self.body.len(),
            if self.status == 405 {
                "Allow: GET, HEAD\r\n"
            } else {
                ""
            },
        )
        .into_bytes();
        if self.with_body {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

/// The answer to a request whose head (request line and headers) is `head`, with the
/// endgame tables of `tables` under `tables/` when it is given.
///
/// ```
/// use xq_cli::serve::respond;
/// static FILES: &[(&str, &[u8])] = &[("index.html", b"hi"), ("pkg/a.wasm", b"\0asm")];
/// let get = |head| respond(FILES, None, head);
/// assert_eq!(get("GET /pkg/a.wasm HTTP/1.1\r\n").content_type, "application/wasm");
/// assert_eq!(get("GET /?x=1 HTTP/1.1\r\n").body, b"hi");
/// assert_eq!(get("GET /../Cargo.toml HTTP/1.1\r\n").status, 404);
/// assert_eq!(get("POST / HTTP/1.1\r\n").status, 405);
/// let dir = std::path::Path::new("no such directory");
/// assert_eq!(respond(FILES, Some(dir), "GET /tables/KRKN.xqwdl HTTP/1.1\r\n").status, 404);
/// ```
pub fn respond(assets: Assets, tables: Option<&Path>, head: &str) -> Response {
    let line = head.lines().next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Response::text(400, "bad request\n");
    };
    if parts.next().is_some() || !version.starts_with("HTTP/1.") {
        return Response::text(400, "bad request\n");
    }
    let with_body = match method {
        "GET" => true,
        "HEAD" => false,
        _ => return Response::text(405, "only GET and HEAD\n"),
    };
    let path = target.split(['?', '#']).next().unwrap_or("");
    let Some(path) = path.strip_prefix('/') else {
        return Response::text(400, "bad request\n");
    };
    let path = if path.is_empty() { "index.html" } else { path };
    // The table is the whole site: a name is found in it or not at all, so `..`, `%2e`
    // or a backslash reach nothing (they are refused before the look-up all the same).
    let safe = !path
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
        && !path.contains(['\\', '%', '\0']);
    // A table: its name is piece letters and the extension of a table file, nothing else.
    let table = |name: &str| {
        let (ending, ext) = name.split_once('.')?;
        let named = !ending.is_empty() && ending.bytes().all(|b| b"KABNRCP".contains(&b));
        (named && (ext == "xqwdl" || ext == "xqtb")).then_some(())?;
        std::fs::read(tables?.join(name)).ok()
    };
    let body = match path.strip_prefix("tables/") {
        Some(name) => table(name),
        None => assets
            .iter()
            .find(|(name, _)| safe && *name == path)
            .map(|f| f.1.to_vec()),
    };
    match body {
        Some(body) => Response {
            status: 200,
            content_type: content_type(path),
            body,
            with_body,
        },
        None => Response {
            with_body,
            ..Response::text(404, "not found\n")
        },
    }
}

/// Reads one request from `stream` and answers it, with the tables of `tables`.
///
/// # Errors
/// The connection's errors.
pub fn handle(mut stream: TcpStream, assets: Assets, tables: Option<&Path>) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    let response = loop {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Ok(()); // closed before a whole request
        }
        head.extend_from_slice(&buf[..n]);
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break respond(assets, tables, &String::from_utf8_lossy(&head[..end + 2]));
        }
        if head.len() > MAX_HEAD {
            break Response::text(431, "request head too large\n");
        }
    };
    stream.write_all(&response.to_bytes())?;
    stream.flush()?;
    if response.status == 431 {
        // Closing with unread input would reset the connection before the client reads
        // the answer: stop writing, then read what is left (a little, for a little while).
        stream.shutdown(std::net::Shutdown::Write)?;
        stream.set_read_timeout(Some(Duration::from_secs(1)))?;
        let _ = io::copy(&mut (&mut stream).take(1 << 20), &mut io::sink());
    }
    Ok(())
}

/// Serves `assets`, and the endgame tables of the directory `tables` when given, on
/// `listener` until the process ends, each connection on its own thread.
///
/// # Errors
/// None in practice: a failed connection is dropped and the server goes on.
pub fn serve(listener: TcpListener, assets: Assets, tables: Option<Arc<Path>>) -> io::Result<()> {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let tables = tables.clone();
        // A connection's failure (a closed browser tab) is its own business.
        let _ = std::thread::Builder::new()
            .name("http".into())
            .spawn(move || handle(stream, assets, tables.as_deref()));
    }
    Ok(())
}
