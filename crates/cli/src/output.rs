//! Printing: one JSON document, or text laid out for people.

use std::io::Write;

use anyhow::Result;
use serde_json::Value;

/// Writes `text` or `json` to stdout in one go.
pub fn emit(json: bool, value: impl FnOnce() -> Value, text: impl FnOnce(&mut String)) -> Result<()> {
    let mut out = String::new();
    if json {
        out = serde_json::to_string(&value())?;
        out.push('\n');
    } else {
        text(&mut out);
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// `1234567` -> `1,234,567`.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `3 words`, `1 word`.
pub fn plural(n: impl Into<u128> + Copy, thing: &str) -> String {
    let n: u128 = n.into();
    format!("{} {thing}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// Lays out items in aligned columns within `width`, each line indented.
pub fn columns(out: &mut String, items: &[String], indent: usize, width: usize) {
    if items.is_empty() {
        return;
    }
    let cell = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let per_line = ((width.saturating_sub(indent)) / cell).max(1);
    for line in items.chunks(per_line) {
        out.push_str(&" ".repeat(indent));
        let mut row = String::new();
        for item in line {
            row.push_str(&format!("{item:<cell$}"));
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(4_510_515u64), "4,510,515");
        assert_eq!(plural(1u32, "word"), "1 word");
        assert_eq!(plural(2u32, "word"), "2 words");
    }

    #[test]
    fn columns_align() {
        let mut out = String::new();
        columns(&mut out, &["a".into(), "bbb".into(), "cc".into()], 2, 12);
        assert_eq!(out, "  a    bbb\n  cc\n");
    }
}
