//! `wordhoard info` and `wordhoard verify`.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use serde_json::json;

use super::Context;
use crate::output::{emit, thousands};

/// Prints the header, metadata and section table.
pub fn info(ctx: &Context) -> Result<()> {
    let index = ctx.open()?;
    let meta = index.metadata();
    let path = ctx.index_path();
    let sections: Vec<_> = index.header().sections.iter().map(|s| (s.name(), s.offset, s.len, s.crc)).collect();
    let json = || {
        json!({
            "path": path.display().to_string(),
            "format_version": index.header().version,
            "name": meta.name,
            "words": meta.word_count,
            "alphabet": meta.alphabet,
            "sources": meta.sources,
            "source_sha256": meta.source_sha256,
            "lines_read": meta.lines_read,
            "lines_skipped": meta.lines_skipped,
            "common_source": meta.common_source,
            "common_words": meta.common_count,
            "tool_version": meta.tool_version,
            "built_at_unix": meta.built_at_unix,
            "bytes": index.as_bytes().len(),
            "sections": sections.iter().map(|(n, o, l, c)| json!({"name": n, "offset": o, "bytes": l, "crc32": format!("{c:08x}")})).collect::<Vec<_>>(),
        })
    };
    emit(ctx.json, json, |s| {
        let _ = writeln!(s, "{}  (wordhoard index, format {})", path.display(), index.header().version);
        let rows = [
            ("name", meta.name.clone()),
            ("words", thousands(meta.word_count)),
            ("alphabet", meta.alphabet.clone()),
            ("sources", meta.sources.join(", ")),
            ("source sha256", meta.source_sha256.clone()),
            ("lines read", format!("{} ({} skipped)", thousands(meta.lines_read), thousands(meta.lines_skipped))),
            (
                "common list",
                meta.common_source
                    .as_ref()
                    .map_or("none".into(), |c| format!("{c} ({} words)", thousands(meta.common_count))),
            ),
            ("built by", format!("wordhoard {} at unix time {}", meta.tool_version, meta.built_at_unix)),
            ("size", format!("{} bytes", thousands(index.as_bytes().len() as u64))),
        ];
        for (k, v) in rows {
            let _ = writeln!(s, "  {k:<14} {v}");
        }
        let _ = writeln!(s, "Sections:");
        for (name, offset, len, crc) in &sections {
            let _ = writeln!(s, "  {name:<14} {:>12} bytes at {offset:>9}  crc32 {crc:08x}", thousands(*len));
        }
    })
}

/// Checks every section; exits 1 naming the first bad one.
pub fn verify(ctx: &Context) -> Result<()> {
    let index = ctx.open()?;
    let checks = index.verify();
    let bad = checks.iter().find(|c| !c.ok);
    let path = ctx.index_path();
    emit(
        ctx.json,
        || {
            json!({
                "path": path.display().to_string(),
                "ok": bad.is_none(),
                "sections": checks.iter().map(|c| json!({"name": c.name, "bytes": c.len, "ok": c.ok, "problem": c.problem})).collect::<Vec<_>>(),
            })
        },
        |s| {
            for c in &checks {
                let status =
                    if c.ok { "ok".to_string() } else { format!("BAD: {}", c.problem.as_deref().unwrap_or("")) };
                let _ = writeln!(s, "  {:<14} {:>12} bytes  {status}", c.name, thousands(c.len));
            }
            if bad.is_none() {
                let _ = writeln!(s, "{}: all {} sections verified", path.display(), checks.len());
            }
        },
    )?;
    match bad {
        Some(c) => Err(anyhow!(
            "{}: section `{}` is corrupt ({}); rebuild it with `wordhoard build`",
            path.display(),
            c.name,
            c.problem.as_deref().unwrap_or("unknown problem")
        )),
        None => Ok(()),
    }
}
