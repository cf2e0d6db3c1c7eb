use sgw_extract::{FieldKind, FieldSpec, extract};

#[test]
fn fields_come_with_spans_and_passages() {
    let page = "<html><body><article><p>The weather was fine and the sky was blue on that day, with 20 birds.</p>\
<p>The museum's new entry price is €12.50 since 1 April 2024, a rise of 25% over last year's ticket price.</p></article></body></html>";
    let doc = extract(page.as_bytes(), None, None).unwrap();
    let specs = [
        FieldSpec {
            name: "price".into(),
            kind: FieldKind::Money,
        },
        FieldSpec {
            name: "since".into(),
            kind: FieldKind::Date,
        },
        FieldSpec {
            name: "rise".into(),
            kind: FieldKind::Percent,
        },
        FieldSpec {
            name: "n".into(),
            kind: FieldKind::Number,
        },
    ];
    let f = doc.fields("museum entry price", &specs);
    assert_eq!(f.len(), 4, "{f:?}");
    assert_eq!(f[0].value, "EUR 12.50");
    assert_eq!(f[1].value, "2024-04-01");
    assert_eq!(f[2].value, "25");
    let passages = doc.passages("museum entry price", 10);
    for v in &f {
        assert_eq!(&doc.text[v.start..v.end], v.raw);
        let p = passages
            .iter()
            .find(|p| Some(p.index) == v.passage_index)
            .unwrap();
        assert!(p.start <= v.start && v.end <= p.end);
    }
    let json = serde_json::to_value(&f[0]).unwrap();
    assert_eq!(json["kind"], "money");
    assert_eq!(json["passage_index"], serde_json::json!(f[0].passage_index));
}

#[test]
fn bad_pattern_yields_nothing() {
    let doc = extract(
        b"<p>some text here, long enough for a paragraph of the page.</p>",
        None,
        None,
    )
    .unwrap();
    let f = doc.fields(
        "text",
        &[FieldSpec {
            name: "x".into(),
            kind: FieldKind::Pattern("(".into()),
        }],
    );
    assert!(f.is_empty());
}

mod question_aware {
    use jiff::civil::Date;
    use proptest::prelude::*;
    use sgw_extract::{FieldCandidate, FieldKind, FieldSpec, field_candidates};

    fn spec(kind: FieldKind) -> FieldSpec {
        FieldSpec {
            name: "f".into(),
            kind,
        }
    }

    fn cands(text: &str, query: &str, kind: FieldKind, as_of: Option<Date>) -> Vec<FieldCandidate> {
        let c = field_candidates(text, query, &[spec(kind)], as_of);
        for f in &c {
            assert_eq!(&text[f.start..f.end], f.raw, "{f:?}");
            assert!((0.0..=1.0).contains(&f.score), "{f:?}");
        }
        for w in c.windows(2) {
            assert!(w[0].score >= w[1].score, "best first: {c:?}");
            assert_ne!(w[0].value, w[1].value, "distinct values: {c:?}");
        }
        c
    }

    fn top(text: &str, query: &str, kind: FieldKind, as_of: Option<Date>) -> String {
        let c = cands(text, query, kind, as_of);
        assert!(!c.is_empty(), "no candidate for {query:?}");
        c[0].value.clone()
    }

    fn best_score(text: &str, query: &str, kind: FieldKind) -> f64 {
        cands(text, query, kind, None)
            .first()
            .map_or(0.0, |c| c.score)
    }

    fn day(s: &str) -> Option<Date> {
        Some(s.parse().unwrap())
    }

    // Family 1: the question's numbers and the page's furniture are not answers.
    #[test]
    fn question_years_and_update_lines_are_not_answers() {
        let page = "Last updated: 3 March 2026\n\nPopulation\n\nThe population of Examplia was 5.43 million at the end of the year, up 0.4 %.";
        let q = "What is the population of Examplia in 2026?";
        assert_eq!(top(page, q, FieldKind::Number, None), "5430000");
        let all = cands(page, q, FieldKind::Number, None);
        assert!(
            all.iter().all(|c| c.value != "2026" && c.value != "3"),
            "{all:?}"
        );
        let page = "Page last updated 02.01.2026\n\nIncome tax\n\nThe income tax return for 2025 is due on 31.05.2026 at the latest.";
        assert_eq!(
            top(
                page,
                "When is the 2025 income tax return deadline?",
                FieldKind::Date,
                None
            ),
            "2026-05-31"
        );
        let page = "By Jane Doe, 4 February 2026\n\nThe festival opens on 12 June 2026 in the old harbour.";
        assert_eq!(
            top(page, "When does the festival open?", FieldKind::Date, None),
            "2026-06-12"
        );
    }

    // Family 2: the question's qualifiers, units and temporal cues pick the candidate.
    #[test]
    fn qualifiers_decide_between_rates() {
        let page = "VAT in Examplia\n\nThe standard rate is 21 %, the reduced rate 9 %.";
        assert_eq!(
            top(page, "standard VAT rate", FieldKind::Percent, None),
            "21"
        );
        assert_eq!(top(page, "reduced VAT rate", FieldKind::Percent, None), "9");
        // Neither qualifier asked: both come back with close scores (ambiguous).
        let c = cands(page, "VAT rate in Examplia", FieldKind::Percent, None);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(c[0].score - c[1].score < 0.1, "{c:?}");
        // A table: label cells on their own lines.
        let table = "Rates\n\nStandard rate\n21 %\nReduced rate\n9 %\n";
        assert_eq!(
            top(
                table,
                "What is the reduced VAT rate?",
                FieldKind::Percent,
                None
            ),
            "9"
        );
        let quarters = "Payments are due on 15 April 2026 for the first quarter and on 15 October 2026 for the third quarter.";
        assert_eq!(
            top(
                quarters,
                "third quarter payment due date",
                FieldKind::Date,
                None
            ),
            "2026-10-15"
        );
        let youth = "Unemployment stood at 6,1 per cent overall, while youth unemployment reached 14,8 per cent.";
        assert_eq!(
            top(youth, "youth unemployment rate", FieldKind::Percent, None),
            "14.8"
        );
        assert_eq!(
            top(youth, "overall unemployment rate", FieldKind::Percent, None),
            "6.1"
        );
        let grant = "The programme has a budget of €2.4 billion; each household can receive a grant of €5,000.";
        assert_eq!(
            top(
                grant,
                "How much is the grant per household?",
                FieldKind::Money,
                None
            ),
            "EUR 5000"
        );
        assert_eq!(
            top(
                grant,
                "What is the total budget of the programme?",
                FieldKind::Money,
                None
            ),
            "EUR 2400000000"
        );
    }

    #[test]
    fn units_and_changes_fit_the_kind() {
        let page = "The central bank raised its key rate by 0.5 % to 4.5 %.";
        assert_eq!(
            top(page, "key interest rate", FieldKind::Percent, None),
            "4.5"
        );
        let page = "The key rate rose by 0.25 percentage points to 4.25 per cent.";
        let c = cands(page, "key rate", FieldKind::Percent, None);
        assert_eq!(c.len(), 1, "percentage points are not a rate: {c:?}");
        assert_eq!(c[0].value, "4.25");
        let page = "From 1 January 2026 the regulated electricity price is 24.5 cents/kWh.";
        assert_eq!(
            top(page, "electricity price per kWh", FieldKind::Number, None),
            "24.5"
        );
        assert_eq!(
            top(page, "electricity price per kWh", FieldKind::Money, None),
            "0.245"
        );
        let page = "Over 2,400 people took part. The museum counts 1.2 million visitors a year.";
        assert_eq!(
            top(
                page,
                "How many visitors does the museum count?",
                FieldKind::Number,
                None
            ),
            "1200000"
        );
    }

    #[test]
    fn temporal_cues_mark_earlier_values() {
        let page = "The old fee of €30 was replaced by a new application fee of €35.";
        assert_eq!(
            top(page, "What is the application fee?", FieldKind::Money, None),
            "EUR 35"
        );
        let page = "The standard rate rose from 20 % to 21 % on 1 January 2026.";
        assert_eq!(top(page, "standard rate", FieldKind::Percent, None), "21");
        assert_eq!(
            top(
                page,
                "What was the previous standard rate?",
                FieldKind::Percent,
                None
            ),
            "20"
        );
    }

    // Family 4: a validity window read from the clause decides at `as_of`.
    #[test]
    fn as_of_picks_the_value_valid_then() {
        let page = "The standard VAT rate is 21 % from 1 January 2026; 20 % before.";
        let q = "standard VAT rate";
        assert_eq!(top(page, q, FieldKind::Percent, day("2025-06-01")), "20");
        assert_eq!(top(page, q, FieldKind::Percent, day("2026-03-01")), "21");
        assert_eq!(top(page, q, FieldKind::Percent, None), "21");
        let page = "The toll is €12 until 30 June 2026. From 1 July 2026 the toll is €15.";
        assert_eq!(
            top(page, "toll", FieldKind::Money, day("2026-05-01")),
            "EUR 12"
        );
        assert_eq!(
            top(page, "toll", FieldKind::Money, day("2026-08-01")),
            "EUR 15"
        );
    }

    // Family 3: a page that does not answer yields no confident value.
    #[test]
    fn pages_that_do_not_answer_score_low() {
        let fishing = "Fishing licences\n\nAn annual fishing licence costs €25. Apply online.";
        let dog = "Dog licences\n\nAn annual dog licence costs €25. Apply online.";
        let q = "How much does a dog licence cost?";
        assert!(best_score(dog, q, FieldKind::Money) >= 0.75);
        assert!(best_score(fishing, q, FieldKind::Money) < 0.5);
        let census = "Census\n\nThe 2026 census takes place on 15 May 2026.";
        assert!(best_score(census, "When is the 2026 census?", FieldKind::Date) >= 0.75);
        assert!(best_score(census, "When is the 2028 census?", FieldKind::Date) < 0.5);
        let exam = "Exams\n\nThe exam date will be announced on 1 December 2025 by the board.";
        assert!(best_score(exam, "When is the exam?", FieldKind::Date) < 0.5);
    }

    #[test]
    fn locale_formats() {
        let t = |text: &str, kind| top(text, "fee", kind, None);
        assert_eq!(
            t("The fee is 4,5 % of the price.", FieldKind::Percent),
            "4.5"
        );
        assert_eq!(t("The fee is 4.5 per cent.", FieldKind::Percent), "4.5");
        assert_eq!(
            t("The fee is €1.234,56 per year.", FieldKind::Money),
            "EUR 1234.56"
        );
        assert_eq!(t("The fee is EUR 12,50.", FieldKind::Money), "EUR 12.50");
        assert_eq!(
            t("The fee is due on March 3, 2026.", FieldKind::Date),
            "2026-03-03"
        );
        assert_eq!(
            t("The fee is due on 3 March 2026.", FieldKind::Date),
            "2026-03-03"
        );
        assert_eq!(
            t("The fee is due on 2026-03-03.", FieldKind::Date),
            "2026-03-03"
        );
        assert_eq!(
            t("The fee is due on 03.03.2026.", FieldKind::Date),
            "2026-03-03"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Never panics; every candidate is a verbatim span inside its sentence, scored in [0, 1].
        #[test]
        fn candidates_are_valid_spans(
            text in "([a-zA-Z€$%.,;:()/ 0-9\n–é日]{0,40}){0,30}",
            query in "[a-zA-Z0-9 ]{0,30}",
            as_of in proptest::option::of(0i16..400),
        ) {
            let as_of = as_of.map(|d| Date::new(2024, 1, 1).unwrap() + jiff::Span::new().days(d));
            let specs = [
                FieldSpec { name: "d".into(), kind: FieldKind::Date },
                FieldSpec { name: "n".into(), kind: FieldKind::Number },
                FieldSpec { name: "m".into(), kind: FieldKind::Money },
                FieldSpec { name: "p".into(), kind: FieldKind::Percent },
                FieldSpec { name: "t".into(), kind: FieldKind::Pattern("[0-9]+".into()) },
            ];
            for c in field_candidates(&text, &query, &specs, as_of) {
                prop_assert_eq!(&text[c.start..c.end], c.raw.as_str());
                prop_assert!(c.sentence_start <= c.start && c.start < c.sentence_end.max(c.start + 1));
                prop_assert!((0.0..=1.0).contains(&c.score));
            }
        }
    }
}

mod question_aware_more {
    use sgw_extract::{FieldKind, FieldSpec, field_candidates};

    fn top(text: &str, query: &str, kind: FieldKind) -> String {
        let c = field_candidates(
            text,
            query,
            &[FieldSpec {
                name: "f".into(),
                kind,
            }],
            None,
        );
        assert!(!c.is_empty(), "no candidate for {query:?}");
        c[0].value.clone()
    }

    #[test]
    fn the_year_next_to_the_value_decides() {
        let page = "In 2024 the unemployment rate was 5.8 %, in 2025 it was 6.1 %.";
        assert_eq!(
            top(page, "unemployment rate 2025", FieldKind::Percent),
            "6.1"
        );
        assert_eq!(
            top(page, "unemployment rate in 2024", FieldKind::Percent),
            "5.8"
        );
    }

    #[test]
    fn start_and_end_of_a_period() {
        let page = "Applications open on 1 March 2026 and close on 30 April 2026.";
        assert_eq!(
            top(page, "application deadline", FieldKind::Date),
            "2026-04-30"
        );
        assert_eq!(
            top(page, "When do applications open?", FieldKind::Date),
            "2026-03-01"
        );
    }
}

mod question_aware_world {
    use jiff::civil::Date;
    use sgw_extract::{FieldKind, FieldSpec, field_candidates};

    fn top(text: &str, query: &str, kind: FieldKind, as_of: Option<&str>) -> (String, f64) {
        let as_of = as_of.map(|d| d.parse::<Date>().unwrap());
        let c = field_candidates(
            text,
            query,
            &[FieldSpec {
                name: "f".into(),
                kind,
            }],
            as_of,
        );
        assert!(!c.is_empty(), "no candidate for {query:?}");
        (c[0].value.clone(), c[0].score)
    }

    #[test]
    fn space_grouped_thousands_and_subjects() {
        let page = "On 1 January 2031 Ostria had 2 481 230 inhabitants, 3 050 more than a year earlier.\n\nIn 2030, 21 004 children were born and 26 118 people died.";
        assert_eq!(
            top(
                page,
                "How many people live in Ostria?",
                FieldKind::Number,
                None
            )
            .0,
            "2481230"
        );
        assert_eq!(
            top(page, "births in Ostria in 2030", FieldKind::Number, None).0,
            "21004"
        );
        let wages =
            "The average monthly wage was 3 120 euros. The median monthly wage was 2 640 euros.";
        assert_eq!(
            top(wages, "average wage", FieldKind::Money, None).0,
            "EUR 3120"
        );
        assert_eq!(
            top(wages, "median wage", FieldKind::Money, None).0,
            "EUR 2640"
        );
    }

    #[test]
    fn change_dates_and_tax_years_bound_values() {
        let page = "The reduced rate went up from 9 % to 11 % on 1 July 2030.";
        assert_eq!(
            top(page, "reduced rate", FieldKind::Percent, Some("2030-03-01")).0,
            "9"
        );
        assert_eq!(
            top(page, "reduced rate", FieldKind::Percent, Some("2030-09-01")).0,
            "11"
        );
        let page = "For the 2031 tax year the tax-free allowance is €9,800. In 2030 it was €9,400.";
        assert_eq!(
            top(
                page,
                "tax-free allowance",
                FieldKind::Money,
                Some("2030-06-01")
            )
            .0,
            "EUR 9400"
        );
        assert_eq!(
            top(
                page,
                "tax-free allowance",
                FieldKind::Money,
                Some("2031-06-01")
            )
            .0,
            "EUR 9800"
        );
    }

    #[test]
    fn the_month_of_the_question_picks_the_figure() {
        let page =
            "Consumer prices\n\nAnnual inflation was 3.1 % in April 2031, up from 2.9 % in March.";
        assert_eq!(
            top(
                page,
                "inflation in Ostria in March 2031",
                FieldKind::Percent,
                None
            )
            .0,
            "2.9"
        );
        assert_eq!(
            top(
                page,
                "inflation in Ostria in April 2031",
                FieldKind::Percent,
                None
            )
            .0,
            "3.1"
        );
        // A page about something else that matches the name and the kind only: weak.
        let other = "About 41 000 people receive the basic pension.";
        let (_, score) = top(
            other,
            "How many people live in Ostria?",
            FieldKind::Number,
            None,
        );
        assert!(score < 0.5, "{score}");
    }

    #[test]
    fn table_rows_take_their_label_cell() {
        let table = "Bands\n\nBand\nIncome\nRate\nLower band\n€0 to €20,000\n12 %\nUpper band\n€20,001 to €80,000\n33 %\n";
        let (v, score) = top(table, "upper band rate", FieldKind::Percent, None);
        assert_eq!(v, "33");
        assert!(score >= 0.65, "{score}");
    }
}
