#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| xq_fuzz::composed(data));
