//! Arbitrary input never panics: the classifier, the SSRF guard's URL check
//! and its address check.

use http::{HeaderMap, HeaderValue};
use proptest::prelude::*;
use sgw_fetch::diagnose::{Observation, diagnose, is_login_url, retry_after};
use sgw_fetch::{FetchKind, Guard, Url};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

proptest! {
    #[test]
    fn diagnose_survives_anything(status in 0u16..1000, body in ".{0,400}", ct in "[a-z/+-]{0,20}", header in "[ -~]{0,40}") {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(&header) {
            h.insert("server", v.clone());
            h.insert("retry-after", v);
        }
        for kind in [FetchKind::Page, FetchKind::Api] {
            let _ = diagnose(&Observation { status, headers: &h, content_type: &ct, text: Some(&body), kind });
        }
        let _ = retry_after(&h, 0);
    }

    #[test]
    fn url_checks_survive_anything(s in "[ -~]{0,60}") {
        let g = Guard::default();
        for candidate in [s.clone(), format!("http://{s}/"), format!("https://{s}")] {
            if let Ok(u) = Url::parse(&candidate) {
                let _ = g.check_url(&u);
                let _ = is_login_url(&u);
            }
        }
    }

    #[test]
    fn every_v4_mapped_form_agrees_with_v4(a in any::<u32>()) {
        let v4 = Ipv4Addr::from(a);
        let g = Guard::default();
        let direct = g.check_addr("h", IpAddr::V4(v4)).is_ok();
        let mapped = g.check_addr("h", IpAddr::V6(v4.to_ipv6_mapped())).is_ok();
        prop_assert_eq!(direct, mapped, "{}", v4);
        let nat64 = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, (a >> 16) as u16, a as u16);
        prop_assert_eq!(direct, g.check_addr("h", IpAddr::V6(nat64)).is_ok(), "{}", nat64);
    }
}
