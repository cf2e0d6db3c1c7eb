//! The floor of the calibration world (`cargo xtask calibrate` prints the
//! full table): `high` answers right at least 97 % of the time, `medium`
//! answers at least 80 %, and no page presented as read that was not read.

use sgw_e2e::calibration;

/// The promise of the levels (issue 11's floor).
const HIGH_AT_LEAST: f64 = calibration::HIGH_FLOOR;
const MEDIUM_AT_LEAST: f64 = calibration::MEDIUM_FLOOR;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_calibration_world_keeps_its_floor() {
    let report = calibration::run(16).await;
    let table = report.render(true);
    assert!(report.questions >= 80, "{table}");
    assert_eq!(
        report.unread_cited_as_read(),
        0,
        "pages presented as read that were not read:\n{table}"
    );
    assert!(
        report.high_share() >= HIGH_AT_LEAST,
        "high right {:.1} % < {:.0} %:\n{table}",
        report.high_share() * 100.0,
        HIGH_AT_LEAST * 100.0
    );
    assert!(
        report.medium_share() >= MEDIUM_AT_LEAST,
        "medium right {:.1} % < {:.0} %:\n{table}",
        report.medium_share() * 100.0,
        MEDIUM_AT_LEAST * 100.0
    );
}
