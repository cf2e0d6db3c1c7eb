//! `cargo xtask calibrate` runs this: every question of the calibration
//! world through the facade, then the reliability table.
//!
//! `--verbose` lists each wrong answer (level, reason), flag mismatch and bad
//! citation; `--json` prints the whole report as JSON; `--only ID,ID` runs
//! those questions; `--check` exits 1 when a floor of issue 11 is not met
//! (high ≥ 97 %, medium ≥ 80 %, no unread page cited as read).

use sgw_e2e::calibration::{self, HIGH_FLOOR, MEDIUM_FLOOR};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut verbose = false;
    let mut json = false;
    let mut check = false;
    let mut only: Option<Vec<String>> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--verbose" | "-v" => verbose = true,
            "--json" => json = true,
            "--check" => check = true,
            "--only" => {
                only = it
                    .next()
                    .map(|s| s.split(',').map(str::to_string).collect())
            }
            other => {
                eprintln!(
                    "calibrate: unknown argument `{other}` (use --verbose, --json, --check, --only ID,ID)"
                );
                return ExitCode::from(2);
            }
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    let mut questions = sgw_testkit::calibration::questions();
    if let Some(only) = &only {
        questions.retain(|q| only.iter().any(|id| id == q.id));
        if questions.is_empty() {
            eprintln!("calibrate: no question has the ids {only:?}");
            return ExitCode::from(2);
        }
    }
    let report = runtime.block_on(calibration::run_questions(questions, 16));
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("calibrate: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        print!("{}", report.render(verbose));
    }
    let floors_met = report.high_share() >= HIGH_FLOOR
        && report.medium_share() >= MEDIUM_FLOOR
        && report.unread_cited_as_read() == 0;
    if check && !floors_met {
        eprintln!(
            "calibrate: below the floor (high {:.1} % ≥ {:.0} %, medium {:.1} % ≥ {:.0} %, unread cited {} = 0)",
            report.high_share() * 100.0,
            HIGH_FLOOR * 100.0,
            report.medium_share() * 100.0,
            MEDIUM_FLOOR * 100.0,
            report.unread_cited_as_read()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
