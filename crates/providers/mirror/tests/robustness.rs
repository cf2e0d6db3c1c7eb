//! The availability parser and the timestamp reader survive arbitrary input.

use proptest::prelude::*;
use sgw_provider_mirror::wayback::{parse_availability, timestamp_to_rfc3339};

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,400}") {
        let _ = parse_availability(&s);
        let _ = timestamp_to_rfc3339(&s);
    }

    #[test]
    fn valid_timestamps_round_trip(y in 1996i16..2100, mo in 1i8..=12, d in 1i8..=28, h in 0i8..24, mi in 0i8..60, s in 0i8..60) {
        let ts = format!("{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}");
        let rfc = timestamp_to_rfc3339(&ts).unwrap();
        prop_assert_eq!(rfc, format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"));
    }

    #[test]
    fn snapshot_answers_parse(ts in "[0-9]{0,16}", available in any::<bool>(), status in "200|404|302") {
        let body = serde_json::json!({"archived_snapshots": {"closest": {
            "available": available, "status": status, "url": "http://archive.test/web/x", "timestamp": ts}}})
        .to_string();
        let snap = parse_availability(&body).unwrap();
        prop_assert_eq!(snap.is_some(), available && status == "200");
        if let Some(s) = snap {
            prop_assert_eq!(s.snapshot_at.is_some(), timestamp_to_rfc3339(&ts).is_some());
        }
    }
}
