//! Printing: one JSON document, or text laid out for people, in colour
//! on a terminal and in the terminal's width.

use std::io::Write;
use std::sync::OnceLock;

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
    write_out(&out)
}

/// Writes JSON text made already (the request layer's answer) to stdout
/// in one go, and a newline.
pub fn emit_json_text(mut json: String) -> Result<()> {
    json.push('\n');
    write_out(&json)
}

fn write_out(out: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// How text looks: decided once, in `main`, from `--color`, the
/// environment and whether stdout is a terminal. Process-wide on purpose:
/// the binary owns its stdout (the library never colours anything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Whether to colour text.
    pub color: bool,
    /// The width to lay text out in.
    pub width: usize,
}

/// The width when stdout is not a terminal, and the sane range otherwise.
pub const DEFAULT_WIDTH: usize = 80;
const WIDTHS: std::ops::RangeInclusive<usize> = 40..=200;

static LOOK: OnceLock<Look> = OnceLock::new();

/// `--color`: whether to colour text output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal that wants colour (not with `NO_COLOR` set, or `TERM=dumb`)
    Auto,
    /// Always, even into a pipe or with `NO_COLOR`
    Always,
    /// Never
    Never,
}

impl Look {
    /// The look for stdout: colour by `choice`, width by the terminal.
    pub fn for_stdout(choice: ColorChoice) -> Look {
        use std::io::IsTerminal;
        let terminal = std::io::stdout().is_terminal();
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !anstyle_query::no_color() && anstyle_query::term_supports_color(),
        };
        #[cfg(windows)]
        let color =
            color && (choice == ColorChoice::Always || anstyle_query::windows::enable_ansi_colors() != Some(false));
        // terminal_size asks stdout first, which is the terminal here.
        let width = match terminal_size::terminal_size() {
            Some((terminal_size::Width(w), _)) if terminal => (w as usize).clamp(*WIDTHS.start(), *WIDTHS.end()),
            _ => DEFAULT_WIDTH,
        };
        Look { color, width }
    }
}

/// Sets the look; the first call wins.
pub fn set_look(look: Look) {
    let _ = LOOK.set(look);
}

fn look() -> Look {
    LOOK.get().copied().unwrap_or(Look { color: false, width: DEFAULT_WIDTH })
}

/// True when output is coloured.
pub fn color() -> bool {
    look().color
}

/// The width to lay text out in.
pub fn width() -> usize {
    look().width
}

/// What a piece of text is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A Spelling Bee centre letter.
    Center,
    /// A pangram.
    Pangram,
    /// A word on the common list.
    Common,
    /// A rank's name.
    Rank,
    /// An accepted guess.
    Good,
    /// A rejected guess.
    Bad,
}

impl Paint {
    fn style(self) -> anstyle::Style {
        use anstyle::{AnsiColor, Style};
        let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
        match self {
            Paint::Center => fg(AnsiColor::Yellow).bold(),
            Paint::Pangram => fg(AnsiColor::Magenta).bold(),
            Paint::Common => fg(AnsiColor::Green),
            Paint::Rank => fg(AnsiColor::Cyan).bold(),
            Paint::Good => fg(AnsiColor::Green),
            Paint::Bad => fg(AnsiColor::Red),
        }
    }
}

/// `text` in its colour when colour is on, else as it is.
pub fn paint(what: Paint, text: impl Into<String>) -> String {
    let text = text.into();
    if look().color {
        let style = what.style();
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        // Handed back as it came: hundreds of words, no copy each.
        text
    }
}

/// The characters of `text` a terminal shows: colour codes (`ESC [ ... m`)
/// take no room.
pub fn visible_len(text: &str) -> usize {
    let mut n = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// `text` padded with spaces to `width` visible characters.
pub fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(visible_len(text))))
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

/// Unix seconds as ISO 8601 UTC (the library's, as JSON shows them).
pub use wordhoard_query::json::iso_time as utc_time;

/// `9409668` -> `9.4 MB`.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Lays out items in aligned columns within `width`, each line indented;
/// colour codes in items take no room.
pub fn columns<S: AsRef<str>>(out: &mut String, items: &[S], indent: usize, width: usize) {
    if items.is_empty() {
        return;
    }
    let lens: Vec<usize> = items.iter().map(|s| visible_len(s.as_ref())).collect();
    let cell = lens.iter().max().unwrap_or(&0) + 2;
    let per_line = ((width.saturating_sub(indent)) / cell).max(1);
    // Straight into `out`: hundreds of words, no string a cell.
    for (line, lens) in items.chunks(per_line).zip(lens.chunks(per_line)) {
        out.extend(std::iter::repeat_n(' ', indent));
        for (i, (item, &len)) in line.iter().zip(lens).enumerate() {
            out.push_str(item.as_ref());
            if i + 1 < line.len() {
                out.extend(std::iter::repeat_n(' ', cell - len));
            }
        }
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
    fn colour_codes_take_no_room() {
        let red = anstyle::Style::new().fg_color(Some(anstyle::AnsiColor::Red.into()));
        let word = format!("{}ride{}", red.render(), red.render_reset());
        assert_eq!(visible_len(&word), 4);
        assert_eq!(visible_len("caf\u{e9}"), 4);
        assert_eq!(visible_len(&pad(&word, 6)), 6);
        let mut plain = String::new();
        columns(&mut plain, &["ride", "dire", "ired"], 2, 14);
        let mut coloured = String::new();
        columns(&mut coloured, &[word.clone(), "dire".into(), "ired".into()], 2, 14);
        assert_eq!(coloured.replace(&word, "ride"), plain, "the same layout with and without colour");
    }

    #[test]
    fn columns_align() {
        let mut out = String::new();
        columns(&mut out, &["a", "bbb", "cc"], 2, 12);
        assert_eq!(out, "  a    bbb\n  cc\n");
    }
}
