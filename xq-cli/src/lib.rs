//! The `xq` binary's one library part: the analysis board's web server (`xq serve`), kept
//! here so that its tests can drive it over real sockets (the protocols are xq-protocol's).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod serve;
