//! The calibration world: its labels are grounded in its pages, and it
//! serves what it says (pages, blocks, robots.txt, engine, site search, archive).

use std::collections::HashSet;

use sgw_testkit::calibration::{
    self, CalibrationWorld, Expect, Family, PageState, Readable, SiteKind,
};

use crate::support::client;

#[test]
fn the_world_has_enough_questions_over_every_family() {
    let qs = calibration::questions();
    assert!(qs.len() >= 80, "{} questions", qs.len());
    let ids: HashSet<_> = qs.iter().map(|q| q.id).collect();
    assert_eq!(ids.len(), qs.len(), "question ids are unique");
    for family in [
        Family::QuestionNumbers,
        Family::Qualifiers,
        Family::NoAnswerHere,
        Family::AsOf,
        Family::Corroboration,
        Family::TiesAndTime,
        Family::Snippets,
    ] {
        let n = qs.iter().filter(|q| q.family == family).count();
        assert!(n >= 2, "family {family:?} has {n} questions");
    }
    for q in &qs {
        if let Some(f) = q.field {
            let (name, kind) = f.split_once(':').expect("NAME:KIND");
            assert!(!name.is_empty(), "{}", q.id);
            assert!(
                ["date", "number", "money", "percent"].contains(&kind) || kind.starts_with("text="),
                "{}: {f}",
                q.id
            );
        }
        if let Some(d) = q.as_of {
            assert!(d.len() == 10 && d.as_bytes()[4] == b'-', "{}: {d}", q.id);
        }
    }
}

#[test]
fn every_expected_value_is_stated_on_some_page() {
    let mut texts: Vec<String> = calibration::pages()
        .iter()
        .map(|p| format!("{} {}", p.title, p.plain_text()))
        .collect();
    for q in calibration::questions() {
        if let Some(prime) = &q.prime {
            texts.extend(prime.pages.iter().map(|p| p.plain_text()));
        }
    }
    for q in calibration::questions() {
        match q.expect {
            Expect::Value(values) => {
                for v in values {
                    let f = calibration::surface_forms(v);
                    assert!(
                        texts
                            .iter()
                            .any(|t| f.iter().any(|x| t.contains(x.as_str()))),
                        "{}: no page states {v} (looked for {f:?})",
                        q.id
                    );
                }
            }
            Expect::Passage(phrases) => assert!(
                texts.iter().any(|t| phrases.iter().any(|p| t.contains(p))),
                "{}",
                q.id
            ),
            Expect::NoAnswer => {}
        }
    }
}

#[test]
fn every_page_belongs_to_a_site_once() {
    let mut seen = HashSet::new();
    for p in calibration::pages() {
        assert!(
            calibration::SITES.iter().any(|s| s.host == p.host),
            "{}",
            p.host
        );
        assert!(seen.insert((p.host, p.path)), "{}{} twice", p.host, p.path);
    }
    assert!(
        calibration::SITES
            .iter()
            .filter(|s| s.kind == SiteKind::Official)
            .all(|s| s.entry.is_some() && s.scope.is_some())
    );
}

#[tokio::test]
async fn the_world_serves_pages_blocks_robots_engine_site_search_and_archive() {
    let world = CalibrationWorld::start().await;
    let c = client(&world.web);
    let get = |host: &str, path: &str| c.get(world.url(host, path)).send();

    let page = get("revenue.norland.test", "/vat/rates").await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<nav aria-label=\"Main menu\">")
            && html.contains("Page last updated: 12.11.2026")
    );
    assert_eq!(
        world.readable(&world.url("revenue.norland.test", "/vat/rates")),
        Readable::Yes
    );

    let blocked = calibration::pages()
        .into_iter()
        .find(|p| matches!(p.state, PageState::Blocked(sgw_testkit::Fault::CdnBlock(_))))
        .unwrap();
    let r = get(blocked.host, blocked.path).await.unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(
        world.readable(&world.url(blocked.host, blocked.path)),
        Readable::Blocked
    );

    let robots = get("energy.norland.test", "/robots.txt")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(robots.contains("Disallow: /consultations/"), "{robots}");
    assert_eq!(
        world.readable(&world.url("energy.norland.test", "/consultations/network-tariffs-2027")),
        Readable::RobotsDisallowed
    );

    let engine: serde_json::Value = c
        .get(format!(
            "{}?q=Norland+VAT+rate&format=json",
            world.url(calibration::ENGINE, "/search")
        ))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap();
    let urls: Vec<&str> = engine["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["url"].as_str().unwrap())
        .collect();
    assert!(
        urls[0].contains("revenue.norland.test") && urls[0].ends_with("/vat/rates"),
        "{urls:?}"
    );

    let search = get("aldport.gov.test", "/search?q=parking+permit")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(search.contains("/parking/residents-permits"), "{search}");

    let available: serde_json::Value = c
        .get(format!(
            "{}?url={}",
            world.url(calibration::ARCHIVE, "/wayback/available"),
            world.url("finance.norland.test", "/grants/heat-pump")
        ))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap();
    let snap = available["archived_snapshots"]["closest"]["url"]
        .as_str()
        .unwrap();
    let old = c.get(snap).send().await.unwrap().text().await.unwrap();
    assert!(old.contains("€3,500") && old.contains("The Web Archive captured this page"));
}
