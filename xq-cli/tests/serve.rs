//! `xq serve`: the server of `xq_cli::serve` over real sockets on 127.0.0.1 (each file
//! type, 404, traversal attempts, methods, the isolation headers, the endgame tables of a
//! directory), and the binary, which serves the board when it was built with it and says
//! how to build it when not.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

static SITE: &[(&str, &[u8])] = &[
    ("index.html", b"<!doctype html><title>xq</title>"),
    ("app.js", b"export const x = 1;\n"),
    ("style.css", b"body { margin: 0 }\n"),
    ("pkg/xq_wasm_bg.wasm", b"\0asm\x01\0\0\0"),
    ("pkg/xq_wasm.js", b"export default function init() {}\n"),
    ("board.svg", b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
    ("pkg/package.json", b"{}"),
    ("fonts/xq-board-700.woff2", b"wOF2\0\x01\0\0"),
    (
        "fonts/LICENSE-OFL.txt",
        b"SIL OPEN FONT LICENSE Version 1.1\n",
    ),
];

fn server() -> SocketAddr {
    server_with(None)
}

fn server_with(tables: Option<&Path>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let tables = tables.map(Arc::from);
    std::thread::spawn(move || xq_cli::serve::serve(listener, SITE, tables));
    addr
}

/// Sends `request` as it is and returns (status, headers, body).
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8(answer[..end].to_vec()).unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head, answer[end + 4..].to_vec())
}

fn get(addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes(),
    )
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(": ")?;
        n.eq_ignore_ascii_case(name).then_some(v)
    })
}

#[test]
fn each_file_type_with_its_content_type_and_the_isolation_headers() {
    let addr = server();
    for (path, ty) in [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/pkg/xq_wasm.js?v=2", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/pkg/xq_wasm_bg.wasm", "application/wasm"),
        ("/board.svg", "image/svg+xml"),
        ("/pkg/package.json", "application/json"),
        ("/fonts/xq-board-700.woff2", "font/woff2"),
        ("/fonts/LICENSE-OFL.txt", "text/plain; charset=utf-8"),
    ] {
        let (status, head, body) = get(addr, path);
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&head, "Content-Type"), Some(ty), "{path}");
        assert_eq!(
            header(&head, "Content-Length"),
            Some(body.len().to_string().as_str())
        );
        assert_eq!(
            header(&head, "Cross-Origin-Opener-Policy"),
            Some("same-origin")
        );
        assert_eq!(
            header(&head, "Cross-Origin-Embedder-Policy"),
            Some("require-corp")
        );
        let name = path
            .trim_start_matches('/')
            .split('?')
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or("index.html");
        let expected = SITE.iter().find(|(n, _)| *n == name).unwrap().1;
        assert_eq!(body, expected, "{path}");
    }
}

#[test]
fn anything_else_is_404_and_no_path_leaves_the_table() {
    let addr = server();
    for path in [
        "/nothing.html",
        "/pkg",
        "/pkg/",
        "/../Cargo.toml",
        "/pkg/../../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/..%2fCargo.toml",
        "/pkg/..\\..\\Cargo.toml",
        "//etc/passwd",
        "/./index.html",
        "/etc/passwd",
    ] {
        let (status, head, body) = get(addr, path);
        assert_eq!(status, 404, "{path}");
        assert_eq!(body, b"not found\n", "{path}");
        assert_eq!(
            header(&head, "Cross-Origin-Embedder-Policy"),
            Some("require-corp")
        );
    }
}

#[test]
fn head_post_and_malformed_requests() {
    let addr = server();
    let (status, head, body) = raw(addr, b"HEAD /app.js HTTP/1.1\r\n\r\n");
    assert_eq!(status, 200);
    assert_eq!(header(&head, "Content-Length"), Some("20"));
    assert!(body.is_empty());
    let (status, head, _) = raw(addr, b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(status, 405);
    assert_eq!(header(&head, "Allow"), Some("GET, HEAD"));
    assert_eq!(raw(addr, b"GARBAGE\r\n\r\n").0, 400);
    assert_eq!(raw(addr, b"GET index.html HTTP/1.1\r\n\r\n").0, 400);
    let mut huge = b"GET / HTTP/1.1\r\nX: ".to_vec();
    huge.extend(vec![b'a'; 40_000]);
    assert_eq!(raw(addr, &huge).0, 431);
    // The server is still there.
    assert_eq!(get(addr, "/").0, 200);
}

#[test]
fn the_tables_of_a_directory_under_tables_and_no_other_file() {
    let dir = std::env::temp_dir().join(format!("xq-serve-tables-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("KRKN.xqtb.d")).unwrap();
    let wdl = b"xq WDL bytes \0\x01\x02".as_slice();
    std::fs::write(dir.join("KRKN.xqwdl"), wdl).unwrap();
    std::fs::write(dir.join("KRKN.xqtb"), b"distances").unwrap();
    std::fs::write(dir.join("endings.csv"), b"ending,status\n").unwrap();
    std::fs::write(dir.join("krkn.xqwdl"), b"lower case").unwrap();
    let addr = server_with(Some(&dir));
    let (status, head, body) = get(addr, "/tables/KRKN.xqwdl");
    assert_eq!(status, 200);
    assert_eq!(body, wdl);
    assert_eq!(
        header(&head, "Content-Type"),
        Some("application/octet-stream")
    );
    assert_eq!(
        header(&head, "Cross-Origin-Resource-Policy"),
        Some("same-origin")
    );
    assert_eq!(get(addr, "/tables/KRKN.xqtb?x").2, b"distances");
    let (status, head, body) = raw(addr, b"HEAD /tables/KRKN.xqtb HTTP/1.1\r\n\r\n");
    assert_eq!((status, header(&head, "Content-Length")), (200, Some("9")));
    assert!(body.is_empty());
    // The board's own files are still there.
    assert_eq!(get(addr, "/app.js").0, 200);
    for path in [
        "/tables/KRKP.xqwdl",    // not in the directory
        "/tables/endings.csv",   // a file there, but no table
        "/tables/krkn.xqwdl",    // not piece letters
        "/tables/KRKN.xqtb.d",   // a directory
        "/tables/KRKN.xqtb.d/x", // below it
        "/tables/../KRKN.xqwdl", // out of it
        "/tables/%2e%2e/etc",    // escaped
        "/tables/",              // the directory itself
        "/tables/.xqwdl",        // no ending
        "/tables/KRKN.XQWDL",    // not the extension
        "/KRKN.xqwdl",           // not under tables/
    ] {
        let (status, _, body) = get(addr, path);
        assert_eq!(
            (status, body.as_slice()),
            (404, b"not found\n".as_slice()),
            "{path}"
        );
    }
    // A server without tables answers 404 for them.
    assert_eq!(get(server(), "/tables/KRKN.xqwdl").0, 404);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The binary: with the board built in (after web/build.sh), `xq serve --port 0` prints
/// its address and serves the page; without, it says how to build the board and exits
/// with code 2.
#[test]
fn the_binary_serves_the_board_or_says_how_to_build_it() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    if line.is_empty() {
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(2));
        assert!(err.contains("web/build.sh"), "{err}");
        return;
    }
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .expect("the address");
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let (status, _, body) = get(addr, "/");
    let (wasm, head, _) = get(addr, "/pkg/xq_wasm_bg.wasm");
    let missing = Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["serve", "--port", "0", "--tablebases", "no/such/directory"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "xq: --tablebases no/such/directory: not a directory\n"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("analysis board"));
    assert_eq!(wasm, 200);
    assert_eq!(header(&head, "Content-Type"), Some("application/wasm"));
}
