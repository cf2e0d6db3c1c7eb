//! A spinner on stderr for long work, shown only when stderr is a terminal
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
