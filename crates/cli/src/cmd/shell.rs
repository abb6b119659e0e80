//! `wordhoard completions SHELL` and `wordhoard man`: generated from the
//! clap definitions, so they always match the commands.

use std::io::Write;
use std::path::Path;

use anyhow::{Context as _, Result};

/// Prints `shell`'s completion script for `cli`.
pub fn completions(mut cli: clap::Command, shell: clap_complete::Shell) -> Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cli, "wordhoard", &mut out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(())
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
