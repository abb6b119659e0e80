//! `wordhoard boxed ...` (being written).
use anyhow::Result;
use clap::Subcommand;
use super::Context;
/// The Letter Boxed commands.
#[derive(Subcommand)]
pub enum Command {}
/// Runs a boxed command.
pub fn run(_ctx: &Context, command: Command) -> Result<()> { match command {} }
