//! The `xq` binary's one library part: the analysis board's web server (`xq serve`),
//! kept here so that its tests can drive it over real sockets. The engine protocols are
//! `xq-protocol`'s; the commands live in the binary.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod serve;
