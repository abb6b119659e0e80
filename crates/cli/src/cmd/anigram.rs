//! `wordhoard anigram ...` (being written).
use anyhow::Result;
use clap::Subcommand;
use super::Context;
/// The Anigrams commands.
#[derive(Subcommand)]
pub enum Command {}
/// Runs an anigram command.
pub fn run(_ctx: &Context, command: Command) -> Result<()> { match command {} }
