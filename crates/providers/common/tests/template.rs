use sgw_provider_common::{TemplateError, encode_component, expand_template, expand_url};

#[test]
fn query_is_percent_encoded_everywhere() {
    let u = expand_template("http://docs.test/search?q={query}", "rust & c++ 2/3 é").unwrap();
    assert_eq!(
        u.as_str(),
        "http://docs.test/search?q=rust%20%26%20c%2B%2B%202%2F3%20%C3%A9"
    );
    let u = expand_template("http://docs.test/find/{searchTerms}", "a b").unwrap();
    assert_eq!(u.path(), "/find/a%20b");
    assert_eq!(encode_component("a-b_c.d~e"), "a-b_c.d~e");
}

#[test]
fn opensearch_parameters_get_neutral_values() {
    let u = expand_template(
        "http://docs.test/s?q={searchTerms}&n={count}&p={startPage?}&l={language}&e={inputEncoding}&x={geo:box?}",
        "x",
    )
    .unwrap();
    assert_eq!(u.query(), Some("q=x&n=10&p=1&l=*&e=UTF-8&x="));
}

#[test]
fn bad_templates_are_named() {
    assert!(matches!(
        expand_template("http://docs.test/s", "x"),
        Err(TemplateError::NoPlaceholder { .. })
    ));
    let e = expand_template("http://docs.test/s?q={searchTerms}&k={apiKey}", "x").unwrap_err();
    assert!(e.to_string().contains("apiKey"), "{e}");
    assert!(matches!(
        expand_template("http://docs.test/s?q={query", "x"),
        Err(TemplateError::Unclosed { .. })
    ));
    assert!(matches!(
        expand_template("file:///etc/{query}", "x"),
        Err(TemplateError::BadUrl { .. })
    ));
    // A fixed page is fine for expand_url, not for a search template.
    assert_eq!(
        expand_url("http://docs.test/rates", "x").unwrap().as_str(),
        "http://docs.test/rates"
    );
}

#[test]
fn arbitrary_templates_never_panic() {
    for t in [
        "{",
        "}",
        "{}",
        "{{query}}",
        "http://{query}",
        "{?}",
        "\u{0}{query}",
        "http://x/{é?}",
    ] {
        let _ = expand_template(t, "q{}%");
        let _ = expand_url(t, "");
    }
}
