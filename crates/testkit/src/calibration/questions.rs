//! The labelled questions of the calibration world.
//!
//! Expected values are written normalized: percents and plain numbers as the
//! number (`25.5`, `5430000`), money as `<amount> <ISO code>` (`12570 EUR`),
//! dates as `YYYY-MM-DD`. Phrasing varies on purpose (keywords, full
//! questions, word order, synonyms the page does not use).

use super::sites::{self, *};
use super::{Expect, Family::*, Level, Must, Prime, Question};

const fn q(
    id: &'static str,
    family: super::Family,
    query: &'static str,
    field: &'static str,
    expect: Expect,
) -> Question {
    Question::new(id, family, query, Some(field), expect)
}

const fn v(values: &'static [&'static str]) -> Expect {
    Expect::Value(values)
}

const NORLAND: Option<&str> = Some("norland");
const ESTMARK: Option<&str> = Some("estmark");
const ALDPORT_SCOPE: Option<&str> = Some("aldport");

/// Every question of the world.
pub fn questions() -> Vec<Question> {
    vec![
        // ── Norland VAT ──
        Question {
            scope: NORLAND,
            note: "standard vs reduced rates in one table; the old 24 % in a 'Changes' paragraph",
            ..q(
                "nr-vat-standard",
                Qualifiers,
                "What is the standard VAT rate in Norland?",
                "rate:percent",
                v(&["25.5"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "reduced rate for food; a blog says 15 %",
            ..q(
                "nr-vat-food",
                Qualifiers,
                "reduced VAT rate on food norland",
                "rate:percent",
                v(&["14"]),
            )
        },
        Question {
            note: "books are in the second reduced rate; no scope given",
            ..q(
                "nr-vat-books",
                Qualifiers,
                "Which VAT rate applies to books in Norland?",
                "rate:percent",
                v(&["10"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "year in the query next to an update line 12.11.2026",
            ..q(
                "nr-vat-2026",
                QuestionNumbers,
                "Norland standard VAT rate 2026",
                "vat:percent",
                v(&["25.5"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2024-06-30"),
            note: "before the 1 September 2024 rise",
            ..q(
                "nr-vat-asof",
                AsOf,
                "standard rate of VAT Norland",
                "rate:percent",
                v(&["24"]),
            )
        },
        // ── Norland deadlines, allowance, corporate tax ──
        Question {
            scope: NORLAND,
            note: "DD.MM.YYYY table cell vs the page's review date; year in the query",
            ..q(
                "nr-deadline-online",
                QuestionNumbers,
                "When is the deadline for filing an online tax return in Norland in 2026?",
                "deadline:date",
                v(&["2026-04-30"]),
            )
        },
        Question {
            hint_urls: &[(REVENUE, "/deadlines/2026")],
            note: "paper vs online; the user points at the page",
            ..q(
                "nr-deadline-paper",
                Qualifiers,
                "norland paper tax return due date",
                "due:date",
                v(&["2026-03-31"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "maximum penalty €400 beside €50 and €5 per day",
            ..q(
                "nr-late-penalty",
                Qualifiers,
                "maximum penalty for filing a tax return late in Norland",
                "penalty:money",
                v(&["400 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "2026 allowance beside the 2025 one and the €100,000 taper",
            ..q(
                "nr-allowance-2026",
                QuestionNumbers,
                "Norland personal allowance 2026",
                "allowance:money",
                v(&["12570 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2025-05-01"),
            note: "the previous year's allowance",
            ..q(
                "nr-allowance-asof",
                AsOf,
                "basic personal allowance in Norland",
                "allowance:money",
                v(&["12100 EUR"]),
            )
        },
        Question {
            note: "higher rate among basic/higher/additional bands",
            ..q(
                "nr-higher-rate",
                Qualifiers,
                "norland higher rate income tax",
                "rate:percent",
                v(&["40"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the taper threshold, not the allowance or the zero point",
            ..q(
                "nr-taper",
                Qualifiers,
                "income above which the Norland personal allowance starts to be reduced",
                "threshold:money",
                v(&["100000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "current 20 % vs the old 22 %; 2026 in the query and 05.01.2026 on the page",
            ..q(
                "nr-cit-2026",
                QuestionNumbers,
                "corporate tax rate Norland 2026",
                "rate:percent",
                v(&["20"]),
            )
        },
        Question {
            scope: NORLAND,
            none_ok: true,
            max_level: Some(Level::Low),
            human: Must::Raise,
            note: "the only page is behind a login; an engine snippet has the figure",
            ..q(
                "nr-company-fee",
                Snippets,
                "Norland company register annual fee limited company",
                "fee:money",
                v(&["85 EUR"]),
            )
        },
        // ── Statistics Norland ──
        Question {
            scope: NORLAND,
            note: "Q3 vs Q2 and the year-on-year change in percentage points",
            ..q(
                "nr-unemp-q3",
                Qualifiers,
                "Norland unemployment rate third quarter 2026",
                "rate:percent",
                v(&["6.8"]),
            )
        },
        Question {
            note: "youth vs overall; a table repeats both quarters",
            ..q(
                "nr-youth-unemp",
                Qualifiers,
                "youth unemployment rate in Norland",
                "rate:percent",
                v(&["17.9"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "'20-64' in the query are numbers of the question",
            ..q(
                "nr-emp-rate",
                QuestionNumbers,
                "employment rate Norland 20-64 year olds",
                "rate:percent",
                v(&["77.2"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the previous quarter's figure, stated once in prose and once in the table",
            ..q(
                "nr-unemp-q2",
                Qualifiers,
                "What was Norland's unemployment rate in the second quarter of 2026?",
                "rate:percent",
                v(&["7.1"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "count of unemployed, not the change of 11,000",
            ..q(
                "nr-unemployed-count",
                Qualifiers,
                "how many people are unemployed in Norland",
                "unemployed:number",
                v(&["212000"]),
            )
        },
        Question {
            as_of: Some("2026-12-01"),
            scope: NORLAND,
            note: "next release date vs publication date",
            ..q(
                "nr-lfs-next",
                Qualifiers,
                "next labour force survey release date norland",
                "release:date",
                v(&["2027-02-13"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "October annual rate beside September's and core",
            ..q(
                "nr-cpi-oct",
                QuestionNumbers,
                "annual inflation rate Norland October 2026",
                "inflation:percent",
                v(&["2.7"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "core vs headline",
            ..q(
                "nr-core",
                Qualifiers,
                "Norland core inflation",
                "core:percent",
                v(&["3.1"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the previous month's figure",
            ..q(
                "nr-cpi-sep",
                Qualifiers,
                "inflation in Norland in September 2026",
                "inflation:percent",
                v(&["2.4"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "month-on-month change, not the annual rate",
            ..q(
                "nr-cpi-mom",
                Qualifiers,
                "monthly change in consumer prices Norland from September to October",
                "change:percent",
                v(&["0.2"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "'5.43 million' vs the year 2026",
            ..q(
                "nr-pop-2026",
                QuestionNumbers,
                "What was the population of Norland in 2026?",
                "population:number",
                v(&["5430000"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "growth in persons, not the 2,900 natural decrease",
            ..q(
                "nr-pop-growth",
                QuestionNumbers,
                "population increase Norland during 2025",
                "increase:number",
                v(&["21400"]),
            )
        },
        Question {
            note: "city vs region figure; no scope",
            ..q(
                "aldport-pop",
                Qualifiers,
                "How many people live in Aldport?",
                "population:number",
                v(&["703800"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "only a 2026 census page exists; the 2028 census does not",
            ..q(
                "nr-census-2028",
                NoAnswerHere,
                "When will the results of the 2028 Norland census be published?",
                "date:date",
                Expect::NoAnswer,
            )
        },
        Question {
            scope: NORLAND,
            note: "publication date among census day and 2036",
            ..q(
                "nr-census-2026",
                QuestionNumbers,
                "publication date of the first 2026 census results in Norland",
                "date:date",
                v(&["2027-06-28"]),
            )
        },
        Question {
            scope: NORLAND,
            hint_urls: &[(STATS, "/gdp/2026-q3")],
            note: "official page behind an Akamai block; the open-data mirror and the archive have it",
            ..q(
                "nr-gdp-qoq",
                Snippets,
                "Norland GDP growth third quarter 2026 compared with the previous quarter",
                "growth:percent",
                v(&["0.5"]),
            )
        },
        Question {
            scope: NORLAND,
            max_level: Some(Level::Medium),
            note: "year-on-year; the official page is blocked and only a newspaper reads",
            ..q(
                "nr-gdp-yoy",
                Qualifiers,
                "Norland GDP growth year on year third quarter 2026",
                "growth:percent",
                v(&["1.6"]),
            )
        },
        Question {
            scope: NORLAND,
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "the statistics page is behind a Cloudflare challenge; its 'latest releases' page only names it; a newspaper reports the figure",
            ..q(
                "nr-house-price",
                NoAnswerHere,
                "average house price Norland third quarter 2026",
                "price:money",
                v(&["312000 EUR"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "the capital's figure beside the national one, in a newspaper",
            ..q(
                "ald-house-price",
                Qualifiers,
                "average home price in Aldport",
                "price:money",
                v(&["468000 EUR"]),
            )
        },
        // ── Central Bank of Norland ──
        Question {
            scope: NORLAND,
            note: "new 3.75 % vs previous 4.00 %, deposit and lending rates",
            ..q(
                "cb-policy-rate",
                Qualifiers,
                "Norland central bank policy rate",
                "rate:percent",
                v(&["3.75"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2026-09-01"),
            note: "before the cut took effect on 29 October",
            ..q(
                "cb-policy-asof",
                AsOf,
                "policy rate of the Central Bank of Norland",
                "rate:percent",
                v(&["4"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "deposit facility among three rates",
            ..q(
                "cb-deposit",
                Qualifiers,
                "deposit facility rate Central Bank of Norland",
                "rate:percent",
                v(&["3.5"]),
            )
        },
        Question {
            as_of: Some("2026-11-20"),
            note: "next decision date vs effect date and press-release date",
            ..q(
                "cb-next",
                Qualifiers,
                "when is the next monetary policy decision of the Central Bank of Norland",
                "date:date",
                v(&["2026-12-10"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "size of the cut in percentage points; October 2026 in the query",
            ..q(
                "cb-cut",
                QuestionNumbers,
                "by how many percentage points did the Central Bank of Norland lower the policy rate in October 2026",
                "cut:number",
                v(&["0.25"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the target beside the policy rate",
            ..q(
                "cb-target",
                Qualifiers,
                "Norland inflation target",
                "target:percent",
                v(&["2"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the third-quarter row of a meeting calendar",
            ..q(
                "cb-q3-meeting",
                Qualifiers,
                "Central Bank of Norland meeting date third quarter 2027",
                "meeting:date",
                v(&["2027-09-23"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "first meeting of the year",
            ..q(
                "cb-first-2027",
                Qualifiers,
                "first monetary policy meeting of 2027 norland",
                "meeting:date",
                v(&["2027-02-04"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "passages only",
            ..Question::new(
                "cb-meetings-count",
                Qualifiers,
                "How many monetary policy meetings does the Central Bank of Norland hold in 2027?",
                None,
                Expect::Passage(&["seven"]),
            )
        },
        Question {
            note: "passages only; the name is in a newspaper and a landing page",
            ..Question::new(
                "cb-governor",
                NoAnswerHere,
                "Who is the governor of the Central Bank of Norland?",
                None,
                Expect::Passage(&["Henrik Aas"]),
            )
        },
        // ── Energy regulator ──
        Question {
            scope: NORLAND,
            note: "cents/kWh from 1 January 2027 beside the 2026 cap and the standing charge",
            ..q(
                "en-cap-2027",
                Qualifiers,
                "Norland electricity price cap 2027 cents per kWh",
                "cap:number",
                v(&["24.5"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2026-08-01"),
            note: "the 2026 cap",
            ..q(
                "en-cap-asof",
                AsOf,
                "household electricity price cap Norland",
                "cap:number",
                v(&["27.9"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "standing charge, not the unit rate",
            ..q(
                "en-standing",
                Qualifiers,
                "daily standing charge cap electricity Norland 2027",
                "charge:number",
                v(&["53"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "passages only",
            ..Question::new(
                "en-review",
                Qualifiers,
                "How often is the Norland electricity price cap reviewed?",
                None,
                Expect::Passage(&["every six months", "1 January and 1 July"]),
            )
        },
        Question {
            scope: NORLAND,
            none_ok: true,
            max_level: Some(Level::Low),
            human: Must::Either,
            note: "the consultation is disallowed by robots.txt; only a snippet has it",
            ..q(
                "en-tariff",
                Snippets,
                "proposed network tariff increase Norland 2027",
                "increase:percent",
                v(&["6.2"]),
            )
        },
        // ── Ministry of Finance ──
        Question {
            scope: NORLAND,
            note: "grant per company vs the programme budget",
            ..q(
                "fin-startup",
                Qualifiers,
                "Norland start-up grant amount per company",
                "grant:money",
                v(&["5000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "€2.4 billion; 2027 in the query",
            ..q(
                "fin-defence",
                QuestionNumbers,
                "Norland defence budget 2027",
                "budget:money",
                v(&["2400000000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "grant per household vs the €1.1 billion programme",
            ..q(
                "fin-renovation",
                Qualifiers,
                "maximum renovation grant per household in Norland",
                "grant:money",
                v(&["12000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "total expenditure vs other budget lines",
            ..q(
                "fin-expenditure",
                Qualifiers,
                "total government expenditure planned in Norland's 2027 budget",
                "total:money",
                v(&["94200000000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "deficit as % of GDP vs the 3.1 % spending growth",
            ..q(
                "fin-deficit",
                Qualifiers,
                "Norland budget deficit forecast 2027 percent of GDP",
                "deficit:percent",
                v(&["2.9"]),
            )
        },
        Question {
            scope: NORLAND,
            hint_urls: &[(FINANCE, "/grants/heat-pump")],
            max_level: Some(Level::Medium),
            conflict: Must::Either,
            human: Must::Either,
            note: "official page CDN-blocked; the archive holds the older €3,500; newer news says €4,000",
            ..q(
                "fin-heat-pump",
                TiesAndTime,
                "How much is the heat pump subsidy in Norland?",
                "subsidy:money",
                v(&["4000 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "one wire story under three bylines; the ministry page is behind a CAPTCHA",
            ..q(
                "fin-fuel",
                Corroboration,
                "petrol fuel duty per litre in Norland from April 2027",
                "duty:number",
                v(&["67"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "diesel vs petrol in the same wire story",
            ..q(
                "fin-diesel",
                Corroboration,
                "diesel duty norland 2027 cents per litre",
                "duty:number",
                v(&["51"]),
            )
        },
        Question {
            hint_domains: &[HERALD],
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "the size of the rise (3 cents) beside the new level (67 cents); the user prefers the Herald",
            ..q(
                "fin-fuel-rise",
                Corroboration,
                "how many cents will petrol duty go up in Norland",
                "rise:number",
                v(&["3"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "'will be announced in January 2027' is not a date",
            ..q(
                "fin-pension-date",
                NoAnswerHere,
                "When will the 2027 pension increase in Norland be announced?",
                "date:date",
                Expect::NoAnswer,
            )
        },
        Question {
            scope: NORLAND,
            note: "the 2026 increase",
            ..q(
                "fin-pension-2026",
                QuestionNumbers,
                "Norland pension increase January 2026",
                "increase:percent",
                v(&["3.2"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "new vs old rate and the youth rate",
            ..q(
                "fin-minwage-2027",
                QuestionNumbers,
                "Norland minimum wage 2027 per hour",
                "wage:money",
                v(&["14.20 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2027-02-01"),
            note: "youth rate after the rise",
            ..q(
                "fin-minwage-youth",
                Qualifiers,
                "youth minimum wage Norland",
                "wage:money",
                v(&["11.40 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            as_of: Some("2026-06-01"),
            note: "before the rise",
            ..q(
                "fin-minwage-asof",
                AsOf,
                "Norland minimum hourly wage",
                "wage:money",
                v(&["13.60 EUR"]),
            )
        },
        Question {
            scope: NORLAND,
            note: "the 2028 rates are not set",
            ..q(
                "fin-minwage-2028",
                NoAnswerHere,
                "Norland minimum wage 2028",
                "wage:money",
                Expect::NoAnswer,
            )
        },
        // ── Ties between equals ──
        Question {
            scope: NORLAND,
            max_level: Some(Level::Medium),
            conflict: Must::Raise,
            human: Must::Either,
            note: "two official sources count differently (412,000 vs 398,500)",
            ..q(
                "ev-count",
                TiesAndTime,
                "number of electric cars in Norland at the end of 2025",
                "cars:number",
                v(&["412000", "398500"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            conflict: Must::Either,
            human: Must::Either,
            note: "an older and a newer article of the same paper",
            ..q(
                "ferry-fare",
                TiesAndTime,
                "Aldport Eastholm ferry adult single fare",
                "fare:money",
                v(&["46 EUR"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            conflict: Must::Raise,
            human: Must::Either,
            note: "two newspapers disagree (4.1 vs 3.9 million); no official figure",
            ..q(
                "airport",
                TiesAndTime,
                "Aldport airport passengers 2025",
                "passengers:number",
                v(&["4100000", "3900000"]),
            )
        },
        // ── Estmark tax ──
        Question {
            scope: ESTMARK,
            note: "current standard rate in a table with validity columns",
            ..q(
                "ee-vat-standard",
                Qualifiers,
                "VAT rate Estmark standard",
                "rate:percent",
                v(&["22"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "reduced vs press rate",
            ..q(
                "ee-vat-reduced",
                Qualifiers,
                "Estmark reduced VAT rate",
                "rate:percent",
                v(&["9"]),
            )
        },
        Question {
            scope: ESTMARK,
            as_of: Some("2024-05-01"),
            note: "'until 31 December 2024' row",
            ..q(
                "ee-vat-asof",
                AsOf,
                "standard VAT rate in Estmark",
                "rate:percent",
                v(&["20"]),
            )
        },
        Question {
            note: "newspapers are 'press publications' on the page",
            ..q(
                "ee-vat-press",
                Qualifiers,
                "what VAT rate do newspapers pay in Estmark",
                "rate:percent",
                v(&["5"]),
            )
        },
        Question {
            scope: ESTMARK,
            as_of: Some("2027-03-01"),
            note: "the threshold from 2027; a forum says 40 000",
            ..q(
                "ee-vat-threshold",
                AsOf,
                "Estmark VAT registration threshold",
                "threshold:money",
                v(&["50000 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "payment date vs filing date; DD.MM.YYYY",
            ..q(
                "ee-tax-payment",
                QuestionNumbers,
                "Estmark deadline to pay income tax for 2026",
                "due:date",
                v(&["2027-10-01"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "third-quarter row",
            ..q(
                "ee-advance-q3",
                Qualifiers,
                "third quarter advance tax payment Estmark 2027",
                "due:date",
                v(&["2027-09-15"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "filing date",
            ..q(
                "ee-tax-return",
                QuestionNumbers,
                "When must the 2026 income tax return be filed in Estmark?",
                "due:date",
                v(&["2027-04-30"]),
            )
        },
        Question {
            scope: ESTMARK,
            none_ok: true,
            max_level: Some(Level::Low),
            human: Must::Raise,
            note: "the only page is behind reCAPTCHA; the engine snippet has the figure",
            ..q(
                "ee-cigarettes",
                Snippets,
                "Estmark excise duty on cigarettes per 1000 cigarettes",
                "duty:money",
                v(&["124 EUR"]),
            )
        },
        // ── Statistics Estmark ──
        Question {
            scope: ESTMARK,
            note: "'1 374 687' with spaces; 2026 in the query",
            ..q(
                "ee-pop",
                QuestionNumbers,
                "How many people lived in Estmark in 2026?",
                "population:number",
                v(&["1374687"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "'0,3 per cent'",
            ..q(
                "ee-pop-growth",
                Qualifiers,
                "population growth rate Estmark 2025 per cent",
                "growth:percent",
                v(&["0.3"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "births vs deaths",
            ..q(
                "ee-births",
                Qualifiers,
                "number of births in Estmark in 2025",
                "births:number",
                v(&["11962"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "average vs median; euros after the number",
            ..q(
                "ee-avg-wage",
                Qualifiers,
                "average gross monthly wage in Estmark",
                "wage:money",
                v(&["2015 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "median",
            ..q(
                "ee-median-wage",
                Qualifiers,
                "Estmark median wage",
                "wage:money",
                v(&["1690 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "nominal growth '7,2 per cent' vs real",
            ..q(
                "ee-wage-growth",
                Qualifiers,
                "nominal wage growth Estmark second quarter 2026",
                "growth:percent",
                v(&["7.2"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "real growth",
            ..q(
                "ee-real-wage",
                Qualifiers,
                "real wage growth Estmark",
                "growth:percent",
                v(&["2.8"]),
            )
        },
        Question {
            scope: ESTMARK,
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "official page is a JavaScript shell; one newspaper",
            ..q(
                "ee-unemp",
                Snippets,
                "Estmark unemployment rate third quarter 2026",
                "rate:percent",
                v(&["7.4"]),
            )
        },
        Question {
            scope: ESTMARK,
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "youth rate in the newspaper",
            ..q(
                "ee-youth-unemp",
                Qualifiers,
                "youth unemployment Estmark",
                "rate:percent",
                v(&["19.1"]),
            )
        },
        // ── Estmark social insurance ──
        Question {
            scope: ESTMARK,
            as_of: Some("2026-11-01"),
            note: "2026 column vs the 1 January 2027 column",
            ..q(
                "ee-child-first-2026",
                AsOf,
                "child allowance first child Estmark",
                "allowance:money",
                v(&["80 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "2027 column",
            ..q(
                "ee-child-first-2027",
                QuestionNumbers,
                "Estmark child allowance 2027 for the first child",
                "allowance:money",
                v(&["90 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            as_of: Some("2026-11-01"),
            note: "third child row",
            ..q(
                "ee-child-third",
                Qualifiers,
                "child allowance for a third child in Estmark",
                "allowance:money",
                v(&["100 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "large-family allowance vs child allowance",
            ..q(
                "ee-large-family",
                Qualifiers,
                "Estmark large family allowance per month",
                "allowance:money",
                v(&["300 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            max_level: Some(Level::Medium),
            conflict: Must::Either,
            human: Must::Either,
            prime: Some(Prime {
                pages: sites::earlier_pension(),
                age_days: 40,
            }),
            note: "stale cache (402 euros, official) vs a fresh newspaper (431 euros); the official page is now CDN-blocked",
            ..q(
                "ee-pension",
                TiesAndTime,
                "Estmark national pension amount per month",
                "pension:money",
                v(&["431 EUR"]),
            )
        },
        Question {
            scope: ESTMARK,
            note: "only the 2026 rise is known; its date must not answer a 2027 question",
            ..q(
                "ee-pension-2027",
                NoAnswerHere,
                "When does the Estmark national pension rise in 2027?",
                "date:date",
                Expect::NoAnswer,
            )
        },
        Question {
            scope: ESTMARK,
            none_ok: true,
            max_level: Some(Level::Low),
            human: Must::Raise,
            note: "the only page is behind a Turnstile CAPTCHA; the engine snippet has the figure",
            ..q(
                "ee-parental-min",
                Snippets,
                "minimum parental benefit Estmark per month",
                "benefit:money",
                v(&["886 EUR"]),
            )
        },
        // ── Aldport ──
        Question {
            scope: ALDPORT_SCOPE,
            note: "a fishing permit page and a pets page exist; no dog licence",
            ..q(
                "ald-dog-licence",
                NoAnswerHere,
                "How much does a dog licence cost in Aldport?",
                "fee:money",
                Expect::NoAnswer,
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            max_level: Some(Level::Medium),
            conflict: Must::Either,
            human: Must::Either,
            prime: Some(Prime {
                pages: sites::earlier_garden_waste(),
                age_days: 40,
            }),
            note: "stale cache (€44, official) vs fresh news (€48); the council page is now a JS shell",
            ..q(
                "ald-garden-waste",
                TiesAndTime,
                "Aldport garden waste subscription cost",
                "fee:money",
                v(&["48 EUR"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            as_of: Some("2026-06-01"),
            note: "first vehicle, current column",
            ..q(
                "ald-permit-first",
                Qualifiers,
                "Aldport residents parking permit price first car",
                "price:money",
                v(&["120 EUR"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            as_of: Some("2026-06-01"),
            note: "second vehicle",
            ..q(
                "ald-permit-second",
                Qualifiers,
                "cost of a residents parking permit for a second vehicle in Aldport",
                "price:money",
                v(&["180 EUR"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            as_of: Some("2026-01-15"),
            note: "'Until 31 March 2026' column",
            ..q(
                "ald-permit-asof",
                AsOf,
                "Aldport residents parking permit first vehicle",
                "price:money",
                v(&["95 EUR"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            note: "a percent among prices",
            ..q(
                "ald-ev-discount",
                Qualifiers,
                "Aldport parking permit discount for electric cars",
                "discount:percent",
                v(&["50"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "council page is a JS shell; two independent newspapers agree",
            ..q(
                "ald-ctax-d",
                Corroboration,
                "Aldport band D council tax 2026/27",
                "tax:money",
                v(&["1942 EUR"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "the rise in percent; two newspapers agree",
            ..q(
                "ald-ctax-rise",
                Corroboration,
                "how much did Aldport council tax go up in percent",
                "rise:percent",
                v(&["4.99"]),
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            note: "no tourist tax anywhere; an occupancy rate on a tourism page",
            ..q(
                "ald-tourist-tax",
                NoAnswerHere,
                "Aldport tourist tax rate",
                "rate:percent",
                Expect::NoAnswer,
            )
        },
        Question {
            scope: ALDPORT_SCOPE,
            note: "2.8 million stays vs 214 cruise calls",
            ..q(
                "ald-overnight",
                QuestionNumbers,
                "hotel overnight stays in Aldport in 2025",
                "stays:number",
                v(&["2800000"]),
            )
        },
        Question {
            max_level: Some(Level::Medium),
            human: Must::Either,
            note: "only a newspaper knows; the council landing page matches the words",
            ..q(
                "ald-marathon",
                NoAnswerHere,
                "date of the 2027 Aldport marathon",
                "date:date",
                v(&["2027-05-09"]),
            )
        },
    ]
}
