//! The sites and pages of the calibration world.

use super::{Archived, Page, PageState, Site, SiteKind};
use crate::{Captcha, Cdn, Challenge, Fault, Login};

// Officials
pub const REVENUE: &str = "revenue.norland.test";
pub const STATS: &str = "stats.norland.test";
pub const CENTRAL_BANK: &str = "centralbank.norland.test";
pub const ENERGY: &str = "energy.norland.test";
pub const FINANCE: &str = "finance.norland.test";
pub const TRANSPORT: &str = "transport.norland.test";
pub const EE_TAX: &str = "emta.estmark.test";
pub const EE_STATS: &str = "stat.estmark.test";
pub const EE_SOCIAL: &str = "sotsiaal.estmark.test";
pub const ALDPORT: &str = "aldport.gov.test";
// Media
pub const HERALD: &str = "norland-herald.test";
pub const ECHO: &str = "northern-echo.test";
pub const BUSINESS: &str = "continental-business.test";
pub const COURIER: &str = "estmark-courier.test";
pub const GAZETTE: &str = "aldport-gazette.test";
// General web
pub const FRUGAL: &str = "frugal-north.test";
pub const WONK: &str = "datawonk.test";
pub const FORUM: &str = "taxtalk-forum.test";
// Mirror
pub const MIRROR: &str = "opendata-mirror.test";

const fn site(
    host: &'static str,
    name: &'static str,
    kind: SiteKind,
    scope: Option<&'static str>,
    nav: &'static [&'static str],
) -> Site {
    Site {
        host,
        name,
        kind,
        scope,
        nav,
        disallow: &[],
        entry: None,
        opensearch: false,
    }
}

const NEWS_NAV: &[&str] = &[
    "News", "Business", "Politics", "Opinion", "Sport", "Culture",
];
const BLOG_NAV: &[&str] = &["Home", "About", "Budgeting", "Taxes", "Contact"];

/// Every site of the world.
pub static SITES: &[Site] = &[
    Site {
        disallow: &["/internal/"],
        entry: Some("/"),
        ..site(
            REVENUE,
            "Norland Revenue Service",
            SiteKind::Official,
            Some("norland"),
            &["Personal tax", "Business tax", "VAT", "Forms", "News"],
        )
    },
    Site {
        disallow: &["/api/"],
        entry: Some("/releases/latest"),
        opensearch: true,
        ..site(
            STATS,
            "Statistics Norland",
            SiteKind::Official,
            Some("norland"),
            &["Statistics by subject", "Releases", "Databases", "About us"],
        )
    },
    Site {
        entry: Some("/"),
        ..site(
            CENTRAL_BANK,
            "Central Bank of Norland",
            SiteKind::Official,
            Some("norland"),
            &[
                "Monetary policy",
                "Financial stability",
                "Banknotes",
                "Statistics",
                "Press",
            ],
        )
    },
    Site {
        disallow: &["/consultations/"],
        entry: Some("/"),
        ..site(
            ENERGY,
            "Norland Energy Regulator",
            SiteKind::Official,
            Some("norland"),
            &["Consumers", "Industry", "Consultations", "News"],
        )
    },
    Site {
        entry: Some("/news"),
        ..site(
            FINANCE,
            "Ministry of Finance of Norland",
            SiteKind::Official,
            Some("norland"),
            &["Budget", "Taxation", "Grants", "News", "The Ministry"],
        )
    },
    Site {
        entry: Some("/"),
        ..site(
            TRANSPORT,
            "Norland Transport Agency",
            SiteKind::Official,
            Some("norland"),
            &["Driving", "Vehicles", "Statistics", "Roads"],
        )
    },
    Site {
        entry: Some("/en"),
        ..site(
            EE_TAX,
            "Estmark Tax and Customs Board",
            SiteKind::Official,
            Some("estmark"),
            &[
                "Private clients",
                "Business clients",
                "Excise",
                "Customs",
                "Contacts",
            ],
        )
    },
    Site {
        entry: Some("/en/latest"),
        ..site(
            EE_STATS,
            "Statistics Estmark",
            SiteKind::Official,
            Some("estmark"),
            &[
                "Find statistics",
                "News releases",
                "Release calendar",
                "Databases",
            ],
        )
    },
    Site {
        entry: Some("/en"),
        ..site(
            EE_SOCIAL,
            "Estmark Social Insurance Board",
            SiteKind::Official,
            Some("estmark"),
            &["Family", "Pension", "Disability", "E-services"],
        )
    },
    Site {
        entry: Some("/"),
        ..site(
            ALDPORT,
            "Aldport City Council",
            SiteKind::Official,
            Some("aldport"),
            &[
                "Bins and recycling",
                "Parking",
                "Council tax",
                "Leisure",
                "Your council",
            ],
        )
    },
    site(HERALD, "The Norland Herald", SiteKind::News, None, NEWS_NAV),
    site(ECHO, "The Northern Echo", SiteKind::News, None, NEWS_NAV),
    site(
        BUSINESS,
        "Continental Business Daily",
        SiteKind::News,
        None,
        &["Markets", "Economy", "Companies", "Energy", "Opinion"],
    ),
    site(
        COURIER,
        "The Estmark Courier",
        SiteKind::News,
        None,
        NEWS_NAV,
    ),
    site(GAZETTE, "Aldport Gazette", SiteKind::News, None, NEWS_NAV),
    site(FRUGAL, "Frugal North", SiteKind::Blog, None, BLOG_NAV),
    site(
        WONK,
        "The Data Wonk",
        SiteKind::Blog,
        None,
        &["Posts", "Charts", "About"],
    ),
    site(
        FORUM,
        "TaxTalk Forum",
        SiteKind::Forum,
        None,
        &["Forums", "Latest", "Search", "Rules"],
    ),
    site(
        MIRROR,
        "Norland Open Data Mirror",
        SiteKind::Mirror,
        None,
        &["Datasets", "About this mirror"],
    ),
];

/// The official host a mirror copies.
pub fn mirror_of(mirror: &str) -> Option<&'static str> {
    (mirror == MIRROR).then_some(STATS)
}

fn p(
    host: &'static str,
    path: &'static str,
    title: &'static str,
    body: &'static [&'static str],
) -> Page {
    Page {
        host,
        path,
        title,
        date: None,
        updated: None,
        byline: None,
        standfirst: None,
        body,
        related: &[],
        state: PageState::Ok,
        indexed: true,
    }
}

impl Page {
    fn date(mut self, d: &'static str) -> Page {
        self.date = Some(d);
        self
    }
    fn updated(mut self, u: &'static str) -> Page {
        self.updated = Some(u);
        self
    }
    fn by(mut self, b: &'static str) -> Page {
        self.byline = Some(b);
        self
    }
    fn lead(mut self, s: &'static str) -> Page {
        self.standfirst = Some(s);
        self
    }
    fn rel(mut self, r: &'static [(&'static str, &'static str)]) -> Page {
        self.related = r;
        self
    }
    pub(super) fn blocked(mut self, f: Fault) -> Page {
        self.state = PageState::Blocked(f);
        self
    }
    pub(super) fn unindexed(mut self) -> Page {
        self.indexed = false;
        self
    }
}

/// The wire story on fuel duty, as the agency filed it.
const FUEL_WIRE: &[&str] = &[
    "ALDPORT (CPA) — Norland will raise fuel duty on petrol by 3 cents to 67 cents per litre from 1 April 2027, the finance ministry said on Monday.",
    "Duty on diesel will rise by 2 cents to 51 cents per litre.",
    "The ministry expects the change to raise about €180 million a year. Motoring organisations criticised the increase, saying rural drivers would be hit hardest.",
];

/// Every page of the world (the mirror's copies included).
pub fn pages() -> Vec<Page> {
    let mut v = vec![
        // ───────────── Norland Revenue Service ─────────────
        p(REVENUE, "/", "Norland Revenue Service", &[
            "## Latest news",
            "- New VAT rate tables published (12.11.2026)",
            "- Filing season for the 2025 income year: what you need to know",
            "- Beware of phone scams using our name",
            "## Popular tasks",
            "- Check VAT rates",
            "- File your tax return",
            "- Pay a tax bill",
            "- Change your address",
            "Opening hours of our service points change over the holidays.",
        ]).updated("Updated 28.11.2026"),
        p(REVENUE, "/vat/rates", "VAT rates", &[
            "VAT is charged on most goods and services sold in Norland. The rate depends on what is sold.",
            "## Current rates",
            "| Rate | % | What it applies to |",
            "| Standard rate | 25.5 % | Most goods and services |",
            "| Reduced rate | 14 % | Food, non-alcoholic drinks and restaurant services |",
            "| Second reduced rate | 10 % | Books, medicines, passenger transport, accommodation, cultural events |",
            "| Zero rate | 0 % | Exports and intra-community supplies |",
            "## Changes",
            "The standard rate rose from 24 % to 25.5 % on 1 September 2024. The reduced rates did not change.",
            "Businesses must apply the rate in force on the date of supply.",
        ]).updated("Page last updated: 12.11.2026")
            .rel(&[("/vat/registration", "Registering for VAT"), ("/vat/returns", "Filing a VAT return")]),
        p(REVENUE, "/deadlines/2026", "Tax return deadlines 2026", &[
            "Deadlines for returns for the 2025 income year.",
            "| Who | Deadline |",
            "| Individuals filing online | 30.04.2026 |",
            "| Individuals filing on paper | 31.03.2026 |",
            "| Self-employed people and partnerships | 31.05.2026 |",
            "| Companies with a financial year ending 31 December | 30.06.2026 |",
            "If a deadline falls on a weekend or a public holiday, you can file on the next working day.",
            "A late return costs €50 plus €5 for each day it is late, up to a maximum penalty of €400.",
        ]).updated("Page last reviewed: 03.02.2026")
            .rel(&[("/personal/allowance", "Personal allowance and tax bands"), ("/forms", "Forms")]),
        p(REVENUE, "/personal/allowance", "Personal allowance and tax bands", &[
            "Everyone resident in Norland gets a personal allowance: income up to this amount is not taxed.",
            "## Personal allowance",
            "For the 2026 tax year the basic personal allowance is €12,570. In 2025 it was €12,100.",
            "The allowance is reduced by €1 for every €2 of income above €100,000, so it reaches zero at €125,140.",
            "## Tax bands 2026",
            "| Band | Taxable income | Rate |",
            "| Basic rate | €12,571 to €50,270 | 20 % |",
            "| Higher rate | €50,271 to €125,140 | 40 % |",
            "| Additional rate | over €125,140 | 45 % |",
        ]).updated("Last updated 5 January 2026"),
        p(REVENUE, "/business/corporate-tax", "Corporate income tax", &[
            "Companies resident in Norland pay corporate income tax on their worldwide profits.",
            "The corporate income tax rate is 20 %. It has been unchanged since 1 January 2019, when it was lowered from 22 %.",
            "Small companies with profits below €50,000 may use the simplified return.",
            "Tax is paid in two instalments, in May and in November of the income year.",
        ]).updated("Last updated: 05.01.2026"),
        p(REVENUE, "/account/company-register-fees", "Company register: annual fees", &[
            "The annual fee for keeping a limited company on the register is €85. Sole traders pay €25.",
            "Fees are invoiced in February.",
        ]).blocked(Fault::Login(Login::RedirectToLogin)),
        // ───────────── Statistics Norland ─────────────
        p(STATS, "/releases/latest", "Latest releases", &[
            "- 14.11.2026 Labour force survey, third quarter 2026",
            "- 12.11.2026 Consumer prices, October 2026",
            "- 05.11.2026 House prices, third quarter 2026",
            "- 30.10.2026 Gross domestic product, third quarter 2026 (flash estimate)",
            "- 02.04.2026 Electric cars in the vehicle stock, 2025",
            "- 15.03.2026 Population on 1 January 2026",
            "Upcoming publications are announced in the release calendar at least four weeks in advance.",
            "Subscribe to release notifications by email.",
        ]).unindexed(),
        p(STATS, "/labour/lfs-2026-q3", "Labour force survey, third quarter 2026", &[
            "## Unemployment fell in the third quarter",
            "The unemployment rate was 6.8 % in the third quarter of 2026, down from 7.1 % in the second quarter and 0.3 percentage points lower than a year earlier.",
            "Youth unemployment (persons aged 15–24) was 17.9 %.",
            "The employment rate of persons aged 20–64 was 77.2 %, the highest third-quarter figure since the series began in 2009.",
            "There were 212,000 unemployed persons, 11,000 fewer than a year earlier.",
            "| Indicator | Q2 2026 | Q3 2026 |",
            "| Unemployment rate, % | 7.1 | 6.8 |",
            "| Youth unemployment rate (15–24), % | 18.6 | 17.9 |",
            "| Employment rate (20–64), % | 76.8 | 77.2 |",
            "Next release: labour force survey, fourth quarter 2026, on 13.02.2027.",
        ]).date("2026-11-14").updated("Published 14.11.2026 at 8:00")
            .rel(&[("/releases/latest", "Latest releases"), ("/prices/cpi-2026-10", "Consumer prices, October 2026")]),
        p(STATS, "/prices/cpi-2026-10", "Consumer prices, October 2026", &[
            "Annual inflation was 2.7 % in October 2026, up from 2.4 % in September.",
            "Core inflation, which excludes energy and unprocessed food, was 3.1 %.",
            "Consumer prices rose by 0.2 % from September to October.",
            "Electricity prices were 9.8 % higher than a year earlier, while food prices rose 1.9 %.",
        ]).date("2026-11-12").updated("Published 12.11.2026"),
        p(STATS, "/population/2026", "Population on 1 January 2026", &[
            "Norland had 5.43 million inhabitants on 1 January 2026, 21,400 more than a year earlier.",
            "Growth came almost entirely from immigration: there were 2,900 more deaths than births in 2025.",
            "| Region | Population 1.1.2026 | Change |",
            "| Aldport region | 1,702,350 | +14,870 |",
            "| Northern region | 1,188,410 | +2,030 |",
            "| Western region | 2,539,240 | +4,500 |",
            "Aldport, the capital, had 703,800 inhabitants.",
        ]).date("2026-03-15").updated("Updated 15.03.2026"),
        p(STATS, "/census/2026-first-results", "Census 2026: when results are published", &[
            "The census was held on 31 May 2026.",
            "The first results of the 2026 census will be published on 28 June 2027. Detailed tables on households and housing follow in the autumn of 2027.",
            "The census is held every ten years; the next one after 2026 is planned for 2036.",
        ]).date("2026-06-01").updated("Updated 01.06.2026"),
        p(STATS, "/gdp/2026-q3", "Gross domestic product, third quarter 2026 (flash estimate)", &[
            "Gross domestic product grew by 0.5 % in the third quarter of 2026 compared with the previous quarter, according to the flash estimate.",
            "Compared with the third quarter of 2025, GDP was 1.6 % higher.",
            "Household consumption rose by 0.4 % and investment fell by 1.2 %.",
        ]).date("2026-10-30").updated("Published 30.10.2026").blocked(Fault::CdnBlock(Cdn::Akamai)),
        p(STATS, "/prices/house-prices-2026-q3", "House prices, third quarter 2026", &[
            "The average price of a dwelling was €312,000 in the third quarter of 2026, 4.1 % more than a year earlier.",
            "Prices of new dwellings rose 2.2 %.",
        ]).date("2026-11-05").blocked(Fault::Challenge(Challenge::CloudflareManaged)),
        p(STATS, "/transport/ev-fleet-2025", "Electric cars in the vehicle stock, 2025", &[
            "The number of electric passenger cars in use in Norland was 412,000 at the end of 2025.",
            "The figure counts battery-electric cars in use; plug-in hybrids are reported separately (151,000).",
            "Electric cars made up 17.6 % of all passenger cars in use.",
        ]).date("2026-04-02").updated("Published 02.04.2026"),
        // ───────────── Central Bank of Norland ─────────────
        p(CENTRAL_BANK, "/", "Central Bank of Norland", &[
            "## Latest",
            "- Monetary policy decision (22.10.2026)",
            "- Financial Stability Report, autumn 2026",
            "- Consultation on access to cash",
            "- Speech by Governor Henrik Aas at the Aldport Finance Forum",
            "## Key figures",
            "| Key figure | Value |",
            "| Policy rate | 3.75 % |",
            "| Inflation target | 2 % |",
        ]),
        p(CENTRAL_BANK, "/monetary-policy/decisions/2026-10-22", "Policy rate lowered to 3.75 %", &[
            "The Executive Board of the Central Bank of Norland has decided to lower the policy rate by 0.25 percentage points to 3.75 %, with effect from 29 October 2026.",
            "The previous rate, 4.00 %, had applied since 12 June 2025.",
            "The deposit facility rate will be 3.50 % and the marginal lending facility rate 4.25 %.",
            "Inflation is expected to return to the 2 % target in the second half of 2027.",
            "The next monetary policy decision will be announced on 10 December 2026.",
        ]).date("2026-10-22").updated("Press release 22.10.2026, 14:00")
            .rel(&[("/monetary-policy/calendar-2027", "Monetary policy meetings 2027")]),
        p(CENTRAL_BANK, "/monetary-policy/calendar-2027", "Monetary policy meetings 2027", &[
            "The Executive Board holds seven monetary policy meetings in 2027. Decisions are published at 14:00 on the day of the meeting.",
            "| Quarter | Meeting dates |",
            "| First quarter | 4 February 2027, 18 March 2027 |",
            "| Second quarter | 6 May 2027, 17 June 2027 |",
            "| Third quarter | 23 September 2027 |",
            "| Fourth quarter | 4 November 2027, 16 December 2027 |",
        ]).date("2026-09-30").updated("Published 30.09.2026"),
        // ───────────── Energy regulator ─────────────
        p(ENERGY, "/", "Norland Energy Regulator", &[
            "## News",
            "- Price cap for 2027 confirmed (28.11.2026)",
            "- Network tariffs: methodology update",
            "- Switching supplier: your rights",
            "## For consumers",
            "- Compare electricity contracts",
            "- Complain about your supplier",
        ]),
        p(ENERGY, "/consumers/price-cap", "Household electricity price cap", &[
            "The price cap limits what suppliers may charge households on standard variable tariffs.",
            "From 1 January 2027 the cap will be 24.5 cents/kWh, down from 27.9 cents/kWh in 2026.",
            "The daily standing charge cap rises to 53 cents from 49 cents.",
            "The cap is reviewed every six months, on 1 January and 1 July.",
            "| Period | Unit rate cap | Standing charge cap |",
            "| 1 January – 31 December 2026 | 27.9 cents/kWh | 49 cents/day |",
            "| From 1 January 2027 | 24.5 cents/kWh | 53 cents/day |",
        ]).updated("Last updated 28 November 2026"),
        p(ENERGY, "/consultations/network-tariffs-2027", "Consultation: network tariffs 2027", &[
            "We propose to raise the average electricity network tariff by 6.2 % from 1 July 2027.",
            "Responses are due by 15 January 2027.",
        ]).date("2026-11-20"),
        // ───────────── Ministry of Finance ─────────────
        p(FINANCE, "/news", "News", &[
            "- 30.11.2026 Fuel duty to rise on 1 April 2027",
            "- 02.10.2026 Budget 2027 presented to Parliament",
            "- 20.09.2026 Minimum wage to rise in 2027",
            "- 15.09.2026 Heat pump subsidy raised",
            "- 01.07.2026 Pension indexation: timetable",
            "Press enquiries: press office, weekdays 9:00–16:00.",
        ]).unindexed(),
        p(FINANCE, "/budget/2027", "Budget 2027 at a glance", &[
            "The government's budget proposal for 2027 was presented to Parliament on 2 October 2026.",
            "Total expenditure is planned at €94.2 billion, 3.1 % more than in 2026.",
            "The defence budget rises to €2.4 billion.",
            "A start-up grant of €5,000 per new company will be available from 1 March 2027; the programme has a budget of €60 million.",
            "The housing renovation programme has a budget of €1.1 billion. Households can receive a renovation grant of up to €12,000.",
            "The budget deficit is forecast at 2.9 % of GDP.",
        ]).date("2026-10-02").updated("Published 02.10.2026"),
        p(FINANCE, "/grants/heat-pump", "Heat pump subsidy", &[
            "Households replacing an oil or gas boiler with a heat pump can receive a subsidy of up to €4,000.",
            "The subsidy was raised from €3,500 on 15 September 2026.",
        ]).updated("Updated 15.09.2026").blocked(Fault::CdnBlock(Cdn::Cloudflare)),
        p(FINANCE, "/news/2026-11-30-fuel-duty", "Fuel duty to rise on 1 April 2027", &[
            "Fuel duty on petrol will rise by 3 cents to 67 cents per litre from 1 April 2027.",
            "Diesel duty rises by 2 cents to 51 cents per litre.",
        ]).date("2026-11-30").blocked(Fault::Captcha(Captcha::Hcaptcha)),
        p(FINANCE, "/news/2026-07-01-pension-indexation", "Pension indexation: timetable", &[
            "The pension increase for 2027 will be announced in January 2027, once the consumer price index for December is available.",
            "Pensions were raised by 3.2 % in January 2026.",
        ]).date("2026-07-01"),
        p(FINANCE, "/news/2026-09-20-minimum-wage", "Minimum wage to rise in 2027", &[
            "The statutory minimum wage will rise from €13.60 to €14.20 per hour on 1 January 2027.",
            "For workers aged 18–20 the youth rate rises from €10.90 to €11.40 per hour.",
            "The rates for 2028 will be set in the autumn of 2027.",
        ]).date("2026-09-20"),
        // ───────────── Transport agency ─────────────
        p(TRANSPORT, "/", "Norland Transport Agency", &[
            "## Services",
            "- Renew your driving licence",
            "- Vehicle registration and tax",
            "- Road conditions",
            "## Statistics",
            "- Registered vehicles 2026",
        ]),
        p(TRANSPORT, "/statistics/registered-vehicles-2026", "Registered vehicles 2026", &[
            "At the end of 2025 there were 398,500 registered battery-electric passenger cars in Norland, 17 % of the passenger car fleet.",
            "The register counts every car with a valid registration, including cars temporarily off the road.",
        ]).date("2026-02-10").updated("Published 10.02.2026"),
        // ───────────── Estmark Tax and Customs Board ─────────────
        p(EE_TAX, "/en", "Estmark Tax and Customs Board", &[
            "## Top tasks",
            "- Declare income",
            "- VAT rates and registration",
            "- Excise duties",
            "## News",
            "- 02.10.2026 New VAT registration threshold from 2027",
            "- 15.09.2026 e-services maintenance break",
        ]),
        p(EE_TAX, "/en/business/vat-rates", "VAT rates", &[
            "| Rate | Applies to | Valid |",
            "| 22 % | Standard rate | from 1 January 2025 |",
            "| 20 % | Standard rate | until 31 December 2024 |",
            "| 9 % | Reduced rate: books, pharmaceuticals, accommodation | from 1 January 2025 |",
            "| 5 % | Press publications | from 1 January 2025 |",
            "The VAT registration threshold is 40 000 euros of annual turnover; from 1 January 2027 it rises to 50 000 euros.",
        ]).updated("Last updated 02.10.2026"),
        p(EE_TAX, "/en/individuals/tax-calendar-2027", "Tax calendar 2027", &[
            "| Obligation | Due date |",
            "| Income tax return for 2026 | 30.04.2027 |",
            "| Payment of income tax for 2026 | 01.10.2027 |",
            "| Advance payment, 1st quarter | 15.03.2027 |",
            "| Advance payment, 2nd quarter | 15.06.2027 |",
            "| Advance payment, 3rd quarter | 15.09.2027 |",
            "| Advance payment, 4th quarter | 15.12.2027 |",
        ]).updated("Last updated 14.11.2026"),
        p(EE_TAX, "/en/excise/tobacco", "Excise duty on tobacco", &[
            "Excise duty on cigarettes is 124 euros per 1 000 cigarettes plus 42 % of the retail price.",
        ]).blocked(Fault::Captcha(Captcha::Recaptcha)),
        // ───────────── Statistics Estmark ─────────────
        p(EE_STATS, "/en/latest", "News releases", &[
            "- 17.11.2026 Unemployment rate, 3rd quarter 2026",
            "- 05.09.2026 Average wages, 2nd quarter 2026",
            "- 16.01.2026 Population on 1 January 2026",
            "All releases are published at 8:00.",
        ]).unindexed(),
        p(EE_STATS, "/en/news/population-1-january-2026", "Population on 1 January 2026", &[
            "On 1 January 2026 Estmark had 1 374 687 inhabitants, 4 120 more than a year earlier.",
            "The population grew by 0,3 per cent. Natural increase was negative: 11 962 children were born and 15 240 people died in 2025.",
        ]).date("2026-01-15").updated("Updated 16.01.2026"),
        p(EE_STATS, "/en/news/wages-2026-q2", "Average wages, 2nd quarter 2026", &[
            "In the second quarter of 2026 the average gross monthly wage was 2 015 euros, 7,2 per cent more than a year earlier.",
            "The median gross monthly wage was 1 690 euros.",
            "Real wages, adjusted for the consumer price index, rose by 2,8 per cent.",
        ]).date("2026-09-05"),
        p(EE_STATS, "/en/news/unemployment-2026-q3", "Unemployment rate, 3rd quarter 2026", &[
            "The unemployment rate was 7.4 % in the third quarter of 2026.",
        ]).date("2026-11-17").blocked(Fault::JsShell),
        // ───────────── Estmark Social Insurance Board ─────────────
        p(EE_SOCIAL, "/en", "Estmark Social Insurance Board", &[
            "## Popular",
            "- Family benefits",
            "- National pension",
            "- Apply for a benefit in the self-service",
        ]),
        p(EE_SOCIAL, "/en/family/child-allowance", "Child allowance", &[
            "Child allowance is paid for every child from birth until the age of 16, or 19 if the child is in school.",
            "| Child | Monthly amount in 2026 | From 1 January 2027 |",
            "| First and second child | 80 euros | 90 euros |",
            "| Third and each subsequent child | 100 euros | 100 euros |",
            "Families with three or more children also receive a large-family allowance of 300 euros per month.",
        ]).updated("Last updated 01.10.2026"),
        p(EE_SOCIAL, "/en/family/parental-benefit", "Parental benefit", &[
            "Parental benefit replaces 100 % of the parent's average monthly income.",
            "The minimum parental benefit is 886 euros per month and the maximum three times the average wage.",
        ]).blocked(Fault::Captcha(Captcha::Turnstile)),
        p(EE_SOCIAL, "/en/pension/national-pension", "National pension", &[
            "The national pension is 431 euros per month from 1 October 2026.",
        ]).blocked(Fault::CdnBlock(Cdn::Fastly)),
        // ───────────── Aldport City Council ─────────────
        p(ALDPORT, "/", "Aldport City Council", &[
            "## Latest news",
            "- Winter gritting routes published",
            "- Council budget 2027 agreed",
            "- Consultation: new cycle lanes on Harbour Street",
            "## Popular",
            "- Bins and recycling",
            "- Parking permits",
            "- Council tax",
            "- Leisure and fishing permits",
            "- Pets and animals",
        ]),
        p(ALDPORT, "/leisure/fishing-permits", "Fishing permits", &[
            "You need a permit to fish in the city's lakes and in the River Ald.",
            "An annual fishing permit costs €35. A day permit costs €8 and a week permit €20.",
            "Children under 16 fish for free.",
        ]).updated("Page updated 3 March 2026"),
        p(ALDPORT, "/pets", "Pets and animals", &[
            "Dogs must be kept on a lead in parks between 1 April and 31 August.",
            "All dogs must be microchipped and registered in the national pet register.",
            "Report a stray or injured animal to the animal warden on 0800 400 400.",
            "Dog waste bins are emptied twice a week.",
        ]).updated("Page updated 12 May 2026"),
        p(ALDPORT, "/bins/garden-waste", "Garden waste collection", &[
            "The garden waste subscription costs €48 a year.",
        ]).blocked(Fault::JsShell),
        p(ALDPORT, "/parking/residents-permits", "Residents' parking permits", &[
            "Residents of controlled parking zones can buy a permit for up to two vehicles.",
            "| Vehicle | Annual price from 1 April 2026 | Until 31 March 2026 |",
            "| First vehicle | €120 | €95 |",
            "| Second vehicle | €180 | €150 |",
            "Electric vehicles get a 50 % discount on the first-vehicle permit.",
        ]).updated("Last reviewed 2 April 2026"),
        p(ALDPORT, "/council-tax/bands", "Council tax bands 2026/27", &[
            "Band D: €1,942.",
        ]).blocked(Fault::JsShell),
        p(ALDPORT, "/tourism/statistics-2025", "Tourism in Aldport 2025", &[
            "Hotels in Aldport recorded 2.8 million overnight stays in 2025.",
            "The average hotel occupancy rate was 78 %.",
            "Cruise ships made 214 calls at the port.",
        ]).updated("Published 20.02.2026"),
        // ───────────── The Norland Herald ─────────────
        p(HERALD, "/economy/2026/11/14/unemployment-falls", "Unemployment falls to 6.8% as jobs market stays tight", &[
            "Norland's unemployment rate fell to 6.8 per cent in the third quarter from 7.1 per cent, Statistics Norland said on Friday.",
            "Youth unemployment remained stubbornly high at 17.9 per cent.",
            "Economists polled by the Herald had expected 7.0 per cent.",
        ]).date("2026-11-14").by("By Jonas Lind"),
        p(HERALD, "/business/2026/10/22/central-bank-cuts", "Central bank cuts rate to 3.75% and signals more to come", &[
            "The Central Bank of Norland cut its policy rate by a quarter point to 3.75 per cent on Thursday, the first cut since June 2025, when the rate was raised to 4 per cent.",
            "Governor Henrik Aas said further cuts were possible if inflation kept falling.",
            "Mortgage lenders are expected to pass on the cut within weeks.",
        ]).date("2026-10-22").by("By Sara Holm").lead("First cut in more than a year"),
        p(HERALD, "/property/2026/11/05/house-prices", "House prices up 4.1% on the year", &[
            "The average home in Norland sold for €312,000 in the third quarter, 4.1 per cent more than a year earlier, Statistics Norland said on Thursday.",
            "In Aldport the average was €468,000, and prices in the capital rose faster than elsewhere.",
            "Estate agents reported shorter selling times after the central bank's rate cut.",
        ]).date("2026-11-05").by("By Erik Solheim"),
        p(HERALD, "/home/2026/09/15/heat-pump-subsidy", "Heat pump subsidy raised to €4,000", &[
            "The government raised the subsidy for heat pumps to €4,000 from €3,500 on Tuesday, the finance ministry said.",
            "The subsidy covers air-to-water and ground-source heat pumps installed after 15 September.",
            "Installers expect demand to rise before winter.",
        ]).date("2026-09-15").by("By Ola Vik"),
        p(HERALD, "/business/2026/11/30/fuel-duty-rise", "Fuel duty to rise to 67 cents a litre", FUEL_WIRE)
            .date("2026-11-30").by("By Kari Dahl, CPA"),
        // ───────────── The Northern Echo ─────────────
        p(ECHO, "/news/2026/11/30/petrol-duty-up", "Petrol duty up 3 cents from April", &[
            "ALDPORT (CPA) — Norland will raise fuel duty on petrol by 3 cents to 67 cents per litre from 1 April 2027, the finance ministry said on Monday.",
            "Duty on diesel will rise by 2 cents to 51 cents per litre.",
            "The ministry expects the change to raise about €180 million a year. Motoring organisations criticised the increase, saying rural drivers would be hit hardest.",
            "Petrol averaged €1.89 a litre at northern filling stations in November.",
        ]).date("2026-11-30").by("CPA reporters"),
        p(ECHO, "/news/2026/03/02/aldport-council-tax", "Aldport sets council tax for 2026/27", &[
            "Aldport City Council approved a Band D charge of €1,942 for 2026/27, a 4.99% rise, with opposition councillors voting against.",
            "The council said the rise would protect adult social care.",
        ]).date("2026-03-02").by("By Emma Strand"),
        // ───────────── Continental Business Daily ─────────────
        p(BUSINESS, "/markets/2026-11-30/norland-fuel-duty", "Norland to raise fuel duty to 67 cents per litre", FUEL_WIRE)
            .date("2026-11-30").by("By Continental Press Agency"),
        p(BUSINESS, "/economy/2026-10-31/norland-gdp-flash", "Norland economy grows 1.6% on the year", &[
            "Norland's gross domestic product rose 1.6 per cent in the third quarter from a year earlier and 0.5 per cent from the previous quarter, according to a flash estimate from Statistics Norland.",
            "Household consumption held up, while investment fell.",
        ]).date("2026-10-31").by("By Mark Olsen"),
        p(BUSINESS, "/companies/2026-02-06/aldport-airport", "Aldport Airport traffic grows", &[
            "Aldport Airport served 3.9 million passengers last year, up 6 per cent, the operator said in its annual results.",
            "Revenue rose to €212 million.",
        ]).date("2026-02-06").by("By Lisa Berg"),
        // ───────────── The Estmark Courier ─────────────
        p(COURIER, "/economy/2026/11/17/jobless-rate", "Jobless rate edges up to 7.4%", &[
            "Estmark's unemployment rate rose to 7.4 per cent in the third quarter from 6.9 per cent in the second quarter, Statistics Estmark said on Tuesday.",
            "Among young people aged 15–24 the rate was 19.1 per cent.",
        ]).date("2026-11-17").by("By Maarja Tamm"),
        p(COURIER, "/society/2026/10/02/national-pension", "National pension raised to 431 euros", &[
            "The national pension was raised from 402 to 431 euros a month on 1 October 2026, the Social Insurance Board said.",
            "About 23 000 people receive the national pension.",
        ]).date("2026-10-02").by("By Kadri Sepp"),
        // ───────────── Aldport Gazette ─────────────
        p(GAZETTE, "/news/2026/03/01/council-tax-set", "Council tax to rise 4.99%", &[
            "Band D council tax in Aldport will be €1,942 for 2026/27, an increase of 4.99 per cent, after the budget was approved on Thursday.",
            "Band A households will pay €1,295.",
        ]).date("2026-03-01").by("By Peter Moss"),
        p(GAZETTE, "/news/2026/11/03/garden-waste-charge", "Garden waste charge rises to €48", &[
            "Aldport's garden waste subscription now costs €48 a year, up from €44, after councillors approved the new charge on Monday.",
            "Collections continue fortnightly until the end of November.",
        ]).date("2026-11-03").by("By Peter Moss"),
        p(GAZETTE, "/travel/2026/03/12/ferry-fares", "Ferry fares frozen for the summer", &[
            "A single adult ticket on the Aldport–Eastholm ferry costs €42 this summer, the operator Harbour Lines said.",
            "Children travel for half price.",
        ]).date("2026-03-12").by("By Nina Lund"),
        p(GAZETTE, "/travel/2026/10/20/ferry-fare-rise", "Eastholm ferry fare to rise to €46", &[
            "Harbour Lines will raise the adult single fare between Aldport and Eastholm from €42 to €46 on 1 November, citing fuel costs.",
            "Season tickets are not affected.",
        ]).date("2026-10-20").by("By Nina Lund"),
        p(GAZETTE, "/business/2026/02/05/airport-record", "Record year for Aldport Airport", &[
            "Aldport Airport handled 4.1 million passengers in 2025, a record, according to figures released by the airport on Wednesday.",
            "New routes to the south drove the growth.",
        ]).date("2026-02-05").by("By Lisa Berg"),
        p(GAZETTE, "/sport/2026/11/20/marathon-date", "Aldport Marathon moves to May", &[
            "The 2027 Aldport Marathon will be run on 9 May 2027, three weeks earlier than this year, the organisers announced.",
            "Registration opens on 1 December.",
        ]).date("2026-11-20").by("By Jon Aas"),
        // ───────────── Blogs and forum ─────────────
        p(FRUGAL, "/2026/10/vat-on-groceries", "Why your groceries cost more than you think", &[
            "Groceries in Norland carry 15 % VAT — one of the highest food rates in Europe.",
            "Buying in bulk and cooking at home still beats eating out, where the same rate applies.",
        ]).date("2026-10-05").by("Anna"),
        p(FRUGAL, "/2026/11/heat-pump-grant", "I got the heat pump grant — here's how", &[
            "The government grant is now €4,000 (it was €3,500 until September), and the paperwork took me about an hour.",
            "My installer handled the application.",
        ]).date("2026-11-10").by("Anna"),
        p(WONK, "/posts/norland-unemployment-q3", "Norland's jobless rate: the numbers behind the numbers", &[
            "Statistics Norland put the unemployment rate at 6.8 % for the third quarter, but seasonally adjusted it is 7.0 %.",
            "The youth figure is noisy from quarter to quarter.",
        ]).date("2026-11-15").by("The Data Wonk"),
        p(FORUM, "/t/4821/estmark-vat-threshold", "Estmark VAT threshold?", &[
            "As far as I know the VAT registration threshold in Estmark is still 40 000 euros; my accountant says it goes up next year.",
        ]).date("2026-08-02").by("jaan_k"),
    ];
    let copies: Vec<Page> = v
        .iter()
        .filter(|p| p.host == STATS)
        .map(|p| Page {
            host: MIRROR,
            state: PageState::Ok,
            indexed: false,
            ..p.clone()
        })
        .collect();
    v.extend(copies);
    v
}

/// The archive's snapshots.
pub fn archived() -> Vec<Archived> {
    vec![
        Archived {
            page: p(FINANCE, "/grants/heat-pump", "Heat pump subsidy", &[
                "Households replacing an oil or gas boiler with a heat pump can receive a subsidy of up to €3,500.",
                "Applications are handled by the energy agency.",
            ])
            .updated("Updated 10.01.2026"),
            timestamp: "20260510093000",
        },
        Archived {
            page: p(STATS, "/gdp/2026-q3", "Gross domestic product, third quarter 2026 (flash estimate)", &[
                "Gross domestic product grew by 0.5 % in the third quarter of 2026 compared with the previous quarter, according to the flash estimate.",
                "Compared with the third quarter of 2025, GDP was 1.6 % higher.",
                "Household consumption rose by 0.4 % and investment fell by 1.2 %.",
            ])
            .updated("Published 30.10.2026"),
            timestamp: "20261101120000",
        },
        Archived {
            page: p(REVENUE, "/", "Norland Revenue Service", &[
                "## Latest news",
                "- Filing season for the 2025 income year opens on 1 February",
                "- Check VAT rates",
            ]),
            timestamp: "20260301000000",
        },
    ]
}

/// Pages as they were before: the earlier web a stale-cache question was
/// first answered from (an official page since blocked, news not yet out).
pub fn earlier_pension() -> Vec<Page> {
    vec![
        p(EE_SOCIAL, "/en/pension/national-pension", "National pension", &[
            "The national pension is 402 euros per month from 1 April 2025.",
            "It is paid to people of pensionable age who do not qualify for an old-age pension.",
        ])
        .updated("Last updated 01.04.2025"),
        p(COURIER, "/society/2026/10/02/national-pension", "National pension raised to 431 euros", &[])
            .blocked(Fault::NotFound)
            .unindexed(),
    ]
}

/// The garden waste page before the council's new site (and before the news).
pub fn earlier_garden_waste() -> Vec<Page> {
    vec![
        p(
            ALDPORT,
            "/bins/garden-waste",
            "Garden waste collection",
            &[
                "Garden waste is collected every two weeks from April to November.",
                "The garden waste subscription costs €44 a year.",
            ],
        )
        .updated("Updated 15.02.2026"),
        p(
            GAZETTE,
            "/news/2026/11/03/garden-waste-charge",
            "Garden waste charge rises to €48",
            &[],
        )
        .blocked(Fault::NotFound)
        .unindexed(),
    ]
}
