//! Benchmarks only.
