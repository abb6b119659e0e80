//! `wordhoard completions SHELL` and `wordhoard man`: generated from the
//! clap definitions, so they always match the commands.

use std::io::Write;
use std::path::Path;

use anyhow::{Context as _, Result};

/// Prints `shell`'s completion script for `cli`. In bash, zsh and fish,
/// `--index` completes the names of the indexes in the index folder
/// (`wordhoard list --names`, asked at completion time) as well as files.
pub fn completions(mut cli: clap::Command, shell: clap_complete::Shell) -> Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cli, "wordhoard", &mut out);
    let script = with_index_names(shell, &String::from_utf8_lossy(&out));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(script.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// The command each shell runs for the index names.
const NAMES: &str = "wordhoard list --names 2>/dev/null";

/// clap_complete's script with `--index` completing index names: clap
/// knows only that the value is a path or a name, so each shell's file
/// completion for it gets the names beside it.
fn with_index_names(shell: clap_complete::Shell, script: &str) -> String {
    use clap_complete::Shell;
    let mut out = String::new();
    match shell {
        Shell::Bash => {
            // `--index)` is followed by its file completion, in every
            // command's case.
            let mut after_index = false;
            for line in script.lines() {
                if after_index && line.trim() == r#"COMPREPLY=($(compgen -f "${cur}"))"# {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    out.push_str(&format!(
                        r#"{indent}COMPREPLY=($(compgen -W "$({NAMES})" -- "${{cur}}") $(compgen -f "${{cur}}"))"#
                    ));
                } else {
                    out.push_str(line);
                }
                out.push('\n');
                after_index = line.trim() == "--index)";
            }
        }
        Shell::Zsh => {
            let script = script.replace("]:PATH|NAME:_default'", "]:PATH|NAME:_wordhoard_index_names'");
            let (compdef, rest) = script.split_once('\n').unwrap_or(("", &script));
            out.push_str(compdef);
            out.push('\n');
            out.push_str("_wordhoard_index_names() {\n    local -a names\n");
            out.push_str(&format!("    names=(${{(f)\"$({NAMES})\"}})\n"));
            out.push_str("    _alternative 'names:index name:compadd -a names' 'files:index file:_files'\n}\n");
            out.push_str(rest);
        }
        Shell::Fish => {
            for line in script.lines() {
                out.push_str(line);
                if line.contains(" -l index ") && line.ends_with(" -r") {
                    out.push_str(&format!(" -a \"({NAMES})\""));
                }
                out.push('\n');
            }
        }
        _ => out.push_str(script),
    }
    out
}

/// Prints the man page (`wordhoard.1`), or writes it and one page per
/// command (`wordhoard-bee-solve.1`, ...) into `dir`.
pub fn man(cli: clap::Command, dir: Option<&Path>) -> Result<()> {
    match dir {
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cli).render(&mut out)?;
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&out)?;
            stdout.flush()?;
        }
        Some(dir) => {
            if !dir.is_dir() {
                return Err(super::usage(format!(
                    "--dir {}: no such folder (create it first: mkdir -p {})",
                    dir.display(),
                    dir.display()
                )));
            }
            clap_mangen::generate_to(cli, dir)
                .with_context(|| format!("cannot write man pages into {}", dir.display()))?;
        }
    }
    Ok(())
}
