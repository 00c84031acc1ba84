//! `attention-workbench` opens the window; `attention-workbench <command>` runs headless.

use clap::Parser;

fn main() -> std::process::ExitCode {
    attention_workbench::app::frame_times::mark_process_start();
    let cli = attention_workbench::cli::Cli::parse();
    if let Some(lang) = cli.lang.as_deref().and_then(attention_workbench::i18n::Lang::from_code) {
        attention_workbench::i18n::set_lang(lang);
    } else if cli.command.is_some() {
        attention_workbench::i18n::set_lang(attention_workbench::i18n::Lang::system());
    }
    match cli.command {
        None => match attention_workbench::app::run(cli.pack) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: could not open the window: {err}");
                std::process::ExitCode::FAILURE
            }
        },
        Some(command) => {
            quiet_on_closed_pipe();
            let code = attention_workbench::cli::run(command);
            if attention_workbench::training::backend::gpu_started() {
                exit_without_driver_teardown(code == std::process::ExitCode::SUCCESS);
            }
            code
        }
    }
}

/// `attention-workbench lesson check … | head` ends quietly when `head` has read
/// enough, as command-line tools do, instead of panicking on the closed pipe.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        const SIGPIPE: i32 = 13;
        const SIG_DFL: usize = 0;
        // SAFETY: restores the default action for SIGPIPE (end the process), which
        // the Rust runtime set to "ignore"; no handler code runs.
        unsafe {
            signal(SIGPIPE, SIG_DFL);
        }
    }
}

/// Everything is printed and written; leave without the GPU driver's exit-time
/// teardown, which crashes now and then on software Vulkan (lavapipe).
fn exit_without_driver_teardown(success: bool) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    unsafe extern "C" {
        fn _exit(status: i32) -> !;
    }
    // SAFETY: _exit ends the process at once; every output has been flushed above.
    unsafe { _exit(if success { 0 } else { 1 }) }
}
