//! Terminal plumbing shared by the `sgw` and `research` binaries: logs on
//! stderr, and a spinner for long work, shown only when stderr is a terminal
//! (never in pipes, CI logs or `--json` captures).

use std::io::IsTerminal;
use std::time::Duration;

/// A running spinner with `message`; hidden when stderr is not a terminal.
/// Call `finish_and_clear()` when the work is done.
pub fn spinner(message: impl Into<String>) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_message(message.into());
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// Logs on stderr: `warn` by default, more with each `-v`; `RUST_LOG` overrides.
pub fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
