//! `attention-workbench` opens the window; `attention-workbench <command>` runs headless.

use clap::Parser;

fn main() -> std::process::ExitCode {
    attention_workbench::app::frame_times::mark_process_start();
    let cli = attention_workbench::cli::Cli::parse();
    match cli.command {
        None => match attention_workbench::app::run() {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: could not open the window: {err}");
                std::process::ExitCode::FAILURE
            }
        },
        Some(command) => attention_workbench::cli::run(command),
    }
}
