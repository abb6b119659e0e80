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

/// Text from an index (or a file name) made safe for a terminal: control
/// characters, and the marks that reorder text on screen, are shown as
/// escapes (`\u{1b}`), so a crafted name cannot move the cursor, rewrite
/// the title or hide what follows it.
pub fn shown(text: &str) -> String {
    let unsafe_char = |c: char| {
        c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.contains(unsafe_char) {
        return text.to_string();
    }
    text.chars().map(|c| if unsafe_char(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
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

/// Unix seconds as `2026-11-23 11:40 UTC`.
pub fn utc_time(unix_secs: u64) -> String {
    let (days, secs) = (unix_secs / 86_400, unix_secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", secs / 3600, secs % 3600 / 60)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`: 400-year eras of 146,097 days).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `9409668` -> `9.4 MB`.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
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

/// A letter in capitals for display; ß, whose capital is two letters,
/// stays itself.
pub fn upper(c: char) -> String {
    if c == 'ß' {
        c.to_string()
    } else {
        c.to_uppercase().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown("enable1"), "enable1");
        assert_eq!(shown("a\u{1b}]0;pwned\u{7}b"), "a\\u{1b}]0;pwned\\u{7}b");
        assert_eq!(shown("x\ny\r\u{202e}z\u{9b}"), "x\\u{a}y\\u{d}\\u{202e}z\\u{9b}");
        assert_eq!(shown("caf\u{e9}"), "caf\u{e9}");
    }

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(4_510_515u64), "4,510,515");
        assert_eq!(plural(1u32, "word"), "1 word");
        assert_eq!(plural(2u32, "word"), "2 words");
    }

    #[test]
    fn formats_times_against_known_dates() {
        assert_eq!(utc_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_time(1_795_433_100), "2026-11-23 11:25 UTC");
        assert_eq!(utc_time(4_107_542_399), "2100-02-28 23:59 UTC");
    }

    #[test]
    fn dates_step_one_day_at_a_time() {
        // Every day from 1970 to 2400 follows the one before: the day of
        // the month goes up by one, or a month or a year turns over.
        let mut last = civil_from_days(0);
        for day in 1..157_000 {
            let now = civil_from_days(day);
            let next_day = now == (last.0, last.1, last.2 + 1);
            let next_month = now == (last.0, last.1 + 1, 1) && last.1 < 12;
            let next_year = now == (last.0 + 1, 1, 1) && (last.1, last.2) == (12, 31);
            assert!(next_day || next_month || next_year, "{last:?} -> {now:?}");
            assert!(now.2 <= 31 && !(now.1 == 2 && now.2 > 29));
            last = now;
        }
    }

    #[test]
    fn columns_align() {
        let mut out = String::new();
        columns(&mut out, &["a".into(), "bbb".into(), "cc".into()], 2, 12);
        assert_eq!(out, "  a    bbb\n  cc\n");
    }
}
