//! `wordhoard list`, `wordhoard info` and `wordhoard verify`.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use serde_json::json;

use wordhoard_query::request;
use wordhoard_query::Index;

use super::Context;
use crate::locate::IndexFolder;
use crate::output::{emit, megabytes, shown, thousands, utc_time};

/// One index in the index folder, as `list` shows it.
struct Listed {
    name: String,
    path: std::path::PathBuf,
    bytes: u64,
    /// Words and build time, or why the file does not open.
    opened: std::result::Result<(u64, u64), String>,
}

/// `wordhoard list`'s flags.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Only the names, one a line, without opening the files (what shell
    /// completion offers for --index)
    #[arg(long)]
    names: bool,
}

/// Lists the indexes in the index folder: name, words, size, built; with
/// `--names`, the names only.
pub fn list(ctx: &Context, args: ListArgs) -> Result<()> {
    let folder = IndexFolder::find()?;
    if args.names {
        let names = folder.names();
        return emit(ctx.json, || json!(names), |s| names.iter().for_each(|n| s.push_str(&format!("{}\n", shown(n)))));
    }
    let listed: Vec<Listed> = folder
        .names()
        .into_iter()
        .map(|name| {
            let path = folder.index(&name);
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            let opened = Index::open(&path)
                .map(|i| (i.metadata().word_count, i.metadata().built_at_unix))
                .map_err(|e| e.to_string());
            Listed { name, path, bytes, opened }
        })
        .collect();
    let json = || {
        json!({
            "folder": folder.path.display().to_string(),
            "indexes": listed.iter().map(|l| json!({
                "name": l.name,
                "path": l.path.display().to_string(),
                "bytes": l.bytes,
                "words": l.opened.as_ref().ok().map(|o| o.0),
                "built_at_unix": l.opened.as_ref().ok().map(|o| o.1),
                "built_at": l.opened.as_ref().ok().map(|o| utc_time(o.1)),
                "error": l.opened.as_ref().err(),
            })).collect::<Vec<_>>(),
        })
    };
    emit(ctx.json, json, |s| list_text(s, &folder, &listed))
}

fn list_text(s: &mut String, folder: &IndexFolder, listed: &[Listed]) {
    if listed.is_empty() {
        let _ = writeln!(
            s,
            "No indexes in {} (from {}). Build one with: wordhoard build WORDLIST",
            folder.path.display(),
            folder.from
        );
        return;
    }
    let _ = writeln!(s, "Indexes in {} (from {}):", folder.path.display(), folder.from);
    // Each column as wide as its widest value: names, word counts and
    // sizes from someone else's files can be any length.
    let rows: Vec<[String; 4]> = listed
        .iter()
        .map(|l| {
            let (words, built) = match &l.opened {
                Ok((words, at)) => (thousands(*words), utc_time(*at)),
                Err(e) => ("-".into(), format!("does not open: {}", shown(e))),
            };
            [shown(&l.name), words, megabytes(l.bytes), built]
        })
        .collect();
    let head = ["name", "words", "size", "built"].map(String::from);
    let w: Vec<usize> =
        (0..3).map(|c| rows.iter().chain([&head]).map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for [name, words, size, built] in std::iter::once(&head).chain(&rows) {
        let _ = writeln!(s, "  {name:<w0$}  {words:>w1$}  {size:>w2$}  {built}", w0 = w[0], w1 = w[1], w2 = w[2]);
    }
}

/// Prints the header, metadata and section table.
pub fn info(ctx: &Context) -> Result<()> {
    let index = ctx.open()?;
    let meta = index.metadata();
    let path = ctx.index_path()?;
    let sections: Vec<_> = index.header().sections.iter().map(|s| (s.name(), s.offset, s.len, s.crc)).collect();
    let json = || request::Info {}.json(&index, Some(&path.display().to_string()));
    emit(ctx.json, json, |s| {
        let _ =
            writeln!(s, "{}  (wordhoard index, format {})", shown(&path.display().to_string()), index.header().version);
        // Every string of the metadata is the index's word, not ours.
        let rows = [
            ("name", shown(&meta.name)),
            ("words", thousands(meta.word_count)),
            (
                "alphabet",
                format!(
                    "{} ({} letters{})",
                    shown(&meta.alphabet),
                    meta.alphabet.chars().count(),
                    match (meta.fold_accents, meta.kept_letters.is_empty()) {
                        (false, _) => String::new(),
                        (true, true) => ", accents folded".into(),
                        (true, false) => format!(", accents folded but for {}", shown(&meta.kept_letters)),
                    }
                ),
            ),
            (
                "proper nouns",
                index.proper_nouns().filter(|p| p.skipped).map_or("none skipped".into(), |p| {
                    format!(
                        "{} skipped ({})",
                        thousands(p.capitalised),
                        if p.auto { "3 in 4 words or more have no capital" } else { "--proper-nouns skip" }
                    )
                }),
            ),
            ("sources", shown(&meta.sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "))),
            ("source sha256", meta.source_sha256.to_string()),
            ("lines read", format!("{} ({} skipped)", thousands(meta.lines_read), thousands(meta.lines_skipped))),
            (
                "common list",
                meta.common_source
                    .as_ref()
                    .map_or("none".into(), |c| format!("{} ({} words)", shown(&c.name), thousands(meta.common_count))),
            ),
            (
                "excluded",
                if meta.exclude_sources.is_empty() {
                    "none".into()
                } else {
                    let lists: Vec<&str> = meta.exclude_sources.iter().map(|s| s.name.as_str()).collect();
                    format!("{} words (by {})", thousands(meta.excluded_count), shown(&lists.join(", ")))
                },
            ),
            ("built by", format!("wordhoard {} on {}", shown(&meta.tool_version), utc_time(meta.built_at_unix))),
            ("size", format!("{} bytes", thousands(index.as_bytes().len() as u64))),
        ];
        let label = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (k, v) in rows {
            let _ = writeln!(s, "  {k:<label$}  {v}");
        }
        let _ = writeln!(s, "Sections:");
        let name_width = sections.iter().map(|(n, ..)| n.chars().count()).max().unwrap_or(0);
        let bytes_width = sections.iter().map(|(_, _, l, _)| thousands(*l).len()).max().unwrap_or(0);
        let offset_width = sections.iter().map(|(_, o, ..)| thousands(*o).len()).max().unwrap_or(0);
        for (name, offset, len, crc) in &sections {
            let _ = writeln!(
                s,
                "  {:<name_width$}  {:>bytes_width$} bytes at {:>offset_width$}  crc32 {crc:08x}",
                shown(name),
                thousands(*len),
                thousands(*offset)
            );
        }
    })
}

/// `wordhoard verify`'s flags.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Also rebuild every table from the words and the common flags and
    /// compare it with the file's, naming the first difference (as long
    /// as a build takes)
    #[arg(long)]
    deep: bool,
}

/// Checks every section; exits 1 naming the first bad one. With `--deep`,
/// a file that passes is then rebuilt table by table and compared.
pub fn verify(ctx: &Context, args: VerifyArgs) -> Result<()> {
    let index = ctx.open()?;
    let (checks, deep) = wordhoard_builder::verify_all(&index, args.deep)?;
    let bad = checks.iter().find(|c| !c.ok);
    let deep_bad = deep.iter().flatten().find(|c| c.problem.is_some());
    let path = ctx.index_path()?;
    emit(
        ctx.json,
        || wordhoard_builder::verify_json(&checks, deep.as_deref(), Some(&path.display().to_string())),
        |s| {
            let name_width = checks.iter().map(|c| c.name.chars().count()).max().unwrap_or(0);
            let bytes_width = checks.iter().map(|c| thousands(c.len).len()).max().unwrap_or(0);
            for c in &checks {
                let status =
                    if c.ok { "ok".to_string() } else { format!("BAD: {}", c.problem.as_deref().unwrap_or("")) };
                let _ = writeln!(
                    s,
                    "  {:<name_width$}  {:>bytes_width$} bytes  {status}",
                    shown(&c.name),
                    thousands(c.len)
                );
            }
            if let Some(deep) = &deep {
                let _ = writeln!(s, "rebuilt and compared:");
                for c in deep {
                    let status = c.problem.as_ref().map_or("same as a build".to_string(), |p| format!("BAD: {p}"));
                    let _ = writeln!(s, "  {:<name_width$}  {status}", c.section);
                }
            }
            if bad.is_none() && deep_bad.is_none() {
                let deep = if deep.is_some() { ", every table as a build makes it" } else { "" };
                let _ = writeln!(s, "{}: all {} sections verified{deep}", path.display(), checks.len());
            }
        },
    )?;
    // The JSON answer above says what failed: `--json` prints no error
    // document after it.
    let answered = |e: anyhow::Error| e.context(super::AnswerShown);
    if let Some(c) = bad {
        return Err(answered(anyhow!(
            "{}: section `{}` is corrupt ({}); rebuild it with `wordhoard build`",
            path.display(),
            c.name,
            c.problem.as_deref().unwrap_or("unknown problem")
        )));
    }
    if let Some(c) = deep_bad {
        return Err(answered(anyhow!(
            "{}: section `{}` is not what a build of its words makes ({}); rebuild it with `wordhoard build`",
            path.display(),
            c.section,
            c.problem.as_deref().unwrap_or("")
        )));
    }
    Ok(())
}
