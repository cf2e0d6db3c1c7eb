//! Compression bombs: correct headers, tiny on the wire, valid streams of zeros.

use std::io::Read;
use std::time::Duration;

use sgw_testkit::{Fault, SimWeb};

use crate::support::{client, raw_get};

#[tokio::test]
async fn gzip_bomb_is_small_on_the_wire_and_inflates_to_zeros() {
    let web = SimWeb::start().await;
    let inflated = 16u64 << 20;
    web.route(
        "b.test",
        "/bomb",
        Fault::GzipBomb {
            uncompressed: inflated,
        },
    );
    let r = client(&web)
        .get(web.url("b.test", "/bomb"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-encoding"], "gzip");
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let declared = r.content_length().unwrap();
    let wire = r.bytes().await.unwrap();
    assert_eq!(wire.len() as u64, declared, "Content-Length is exact");
    assert!(
        (wire.len() as u64) < inflated / 500,
        "{} bytes is not a bomb",
        wire.len()
    );
    assert_eq!(&wire[..2], &[0x1f, 0x8b]);
    // The whole stream is valid gzip: GzDecoder checks CRC-32 and ISIZE.
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&wire[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out.len() as u64, inflated);
    assert!(out.iter().all(|&b| b == 0));
}

#[tokio::test]
async fn huge_gzip_bomb_costs_nothing_to_announce_and_its_prefix_gunzips_to_zeros() {
    let web = SimWeb::start().await;
    let inflated = 10u64 << 30; // 10 GiB
    web.route(
        "b.test",
        "/bomb",
        Fault::GzipBomb {
            uncompressed: inflated,
        },
    );
    let raw = raw_get(&web, "b.test", "/bomb", Duration::from_secs(5), 64 * 1024).await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.header("content-encoding").as_deref(), Some("gzip"));
    let declared: u64 = raw.header("content-length").unwrap().parse().unwrap();
    assert!(declared < inflated / 500 && declared > inflated / 100_000);
    let mut first = vec![0u8; 1 << 20];
    let mut dec = flate2::read::GzDecoder::new(&raw.body[..]);
    dec.read_exact(&mut first).unwrap();
    assert!(first.iter().all(|&b| b == 0));
}

#[tokio::test]
async fn brotli_bomb_is_a_valid_brotli_stream_of_zeros() {
    use tokio::io::AsyncReadExt;
    let web = SimWeb::start().await;
    let inflated = 4u64 << 20;
    web.route(
        "b.test",
        "/br",
        Fault::BrotliBomb {
            uncompressed: inflated,
        },
    );
    let r = client(&web)
        .get(web.url("b.test", "/br"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-encoding"], "br");
    assert_eq!(r.headers()["transfer-encoding"], "chunked");
    let wire = r.bytes().await.unwrap();
    assert!((wire.len() as u64) < inflated / 100, "{} bytes", wire.len());
    let mut dec = async_compression::tokio::bufread::BrotliDecoder::new(&wire[..]);
    let mut out = Vec::new();
    dec.read_to_end(&mut out).await.unwrap();
    assert_eq!(out.len() as u64, inflated);
    assert!(out.iter().all(|&b| b == 0));
}
