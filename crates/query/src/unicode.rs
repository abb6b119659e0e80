//! The two Unicode primitives the alphabet's rule needs: NFC, and a
//! character decomposed (NFD) without its combining marks (for folding
//! accents). By default from the `unicode-normalization` crate's tables
//! (feature `unicode-tables`); in a JavaScript host (feature `js-unicode`,
//! wasm32) from the platform's own `String.prototype.normalize`, which
//! implements the same Unicode algorithm and saves the engine 138 KB of
//! tables. The rule that uses them lives in `alphabet`, once.

#[cfg(feature = "unicode-tables")]
mod imp {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;

    /// `text` in Normalization Form C.
    pub fn nfc(text: &str) -> String {
        text.nfc().collect()
    }

    /// `c` decomposed (NFD), its combining marks dropped: `é` -> `e`.
    pub fn without_marks(c: char) -> String {
        std::iter::once(c).nfd().filter(|&m| !is_combining_mark(m)).collect()
    }
}

#[cfg(all(feature = "js-unicode", not(feature = "unicode-tables")))]
#[allow(unsafe_code)] // wasm-bindgen's generated import glue
mod imp {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen(inline_js = "export function nfc(s) { return s.normalize('NFC'); }\n\
        export function without_marks(s) { return s.normalize('NFD').replace(/\\p{M}/gu, ''); }")]
    extern "C" {
        /// `text` in Normalization Form C, by the JavaScript host.
        pub fn nfc(text: &str) -> String;
        #[wasm_bindgen(js_name = without_marks)]
        fn without_marks_str(text: &str) -> String;
    }

    /// `c` decomposed (NFD), its combining marks dropped, by the host.
    pub fn without_marks(c: char) -> String {
        without_marks_str(c.encode_utf8(&mut [0; 4]))
    }
}

#[cfg(not(any(feature = "unicode-tables", feature = "js-unicode")))]
compile_error!("wordhoard-query needs feature `unicode-tables` (the default) or `js-unicode` (a JavaScript host)");

pub(crate) use imp::{nfc, without_marks};
