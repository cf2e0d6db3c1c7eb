//! Reading a body under caps: wire bytes are counted against
//! `max_body_bytes`, content decoding (gzip, deflate, br) is done here, chunk by
//! chunk, into a buffer that refuses to grow past `max_decompressed_bytes`. A
//! request never holds more than the two caps in memory.

use bytes::Bytes;
use futures::StreamExt;
use std::io::{self, Write};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncWrite, AsyncWriteExt};

/// The `Accept-Encoding` this module can decode.
pub(crate) const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// Why reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// More wire bytes than `max_body_bytes` (declared or received).
    WireCap { limit: u64, declared: Option<u64> },
    /// Decoding produced more than `max_decompressed_bytes`.
    DecodedCap { limit: u64, encoding: String },
    /// The body ended before its declared length, or the connection broke.
    Truncated {
        received: u64,
        expected: Option<u64>,
        detail: String,
    },
    /// The content encoding is not supported or its data is corrupt.
    Decode(String),
}

/// Marker inside an `io::Error`: the decoded buffer is full.
#[derive(Debug)]
struct CapHit;

impl std::fmt::Display for CapHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("decoded size cap reached")
    }
}

impl std::error::Error for CapHit {}

fn is_cap_hit(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<CapHit>())
}

/// A `Vec` that refuses to grow past `limit`.
#[derive(Debug)]
struct Capped {
    buf: Vec<u8>,
    limit: usize,
}

impl Capped {
    fn push(&mut self, data: &[u8]) -> io::Result<usize> {
        let room = self.limit.saturating_sub(self.buf.len());
        if data.len() > room {
            self.buf.extend_from_slice(&data[..room]);
            return Err(io::Error::other(CapHit));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }
}

impl Write for Capped {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.push(data)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl AsyncWrite for Capped {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(self.get_mut().push(data))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A content decoder writing into a [`Capped`] buffer.
enum Decoder {
    Identity(Capped),
    Gzip(flate2::write::MultiGzDecoder<Capped>),
    /// `deflate` is zlib-wrapped per HTTP; some servers send raw deflate, so
    /// the choice waits for the first bytes.
    DeflatePending(Capped, Vec<u8>),
    Zlib(flate2::write::ZlibDecoder<Capped>),
    RawDeflate(flate2::write::DeflateDecoder<Capped>),
    Brotli(Box<async_compression::tokio::write::BrotliDecoder<Capped>>),
}

impl Decoder {
    fn new(encoding: &str, out: Capped) -> Result<Decoder, BodyError> {
        Ok(match encoding {
            "" | "identity" => Decoder::Identity(out),
            "gzip" | "x-gzip" => Decoder::Gzip(flate2::write::MultiGzDecoder::new(out)),
            "deflate" => Decoder::DeflatePending(out, Vec::new()),
            "br" => Decoder::Brotli(Box::new(
                async_compression::tokio::write::BrotliDecoder::new(out),
            )),
            other => {
                return Err(BodyError::Decode(format!(
                    "unsupported Content-Encoding `{other}` (we accept {ACCEPT_ENCODING})"
                )));
            }
        })
    }

    async fn write(&mut self, chunk: &[u8]) -> io::Result<()> {
        match self {
            Decoder::Identity(c) => c.push(chunk).map(|_| ()),
            Decoder::Gzip(d) => d.write_all(chunk),
            Decoder::Zlib(d) => d.write_all(chunk),
            Decoder::RawDeflate(d) => d.write_all(chunk),
            Decoder::Brotli(d) => d.write_all(chunk).await,
            Decoder::DeflatePending(out, head) => {
                head.extend_from_slice(chunk);
                if head.len() < 2 {
                    return Ok(());
                }
                let zlib =
                    head[0] & 0x0f == 8 && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0;
                let out = std::mem::replace(
                    out,
                    Capped {
                        buf: Vec::new(),
                        limit: 0,
                    },
                );
                let head = std::mem::take(head);
                *self = if zlib {
                    Decoder::Zlib(flate2::write::ZlibDecoder::new(out))
                } else {
                    Decoder::RawDeflate(flate2::write::DeflateDecoder::new(out))
                };
                Box::pin(self.write(&head)).await
            }
        }
    }

    async fn finish(self) -> io::Result<Vec<u8>> {
        Ok(match self {
            Decoder::Identity(c) => c.buf,
            Decoder::Gzip(d) => d.finish()?.buf,
            Decoder::Zlib(d) => d.finish()?.buf,
            Decoder::RawDeflate(d) => d.finish()?.buf,
            Decoder::DeflatePending(c, head) if head.is_empty() => c.buf,
            Decoder::DeflatePending(..) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "deflate stream of one byte",
                ));
            }
            Decoder::Brotli(mut d) => {
                d.shutdown().await?;
                d.into_inner().buf
            }
        })
    }
}

/// Reads `resp`'s body: at most `max_wire` bytes from the wire, at most
/// `max_decoded` after content decoding.
pub(crate) async fn read_body(
    resp: reqwest::Response,
    content_encoding: &str,
    max_wire: u64,
    max_decoded: u64,
) -> Result<Bytes, BodyError> {
    let declared = resp.content_length();
    if let Some(len) = declared
        && len > max_wire
    {
        return Err(BodyError::WireCap {
            limit: max_wire,
            declared: Some(len),
        });
    }
    let identity = matches!(content_encoding, "" | "identity");
    let decoded_limit = if identity {
        max_decoded.min(max_wire)
    } else {
        max_decoded
    };
    // The declared length (already within the cap) sizes the buffer: growing
    // a page's buffer by doubling copies it and leaves up to half unused.
    // Capacity that a lying server does not fill is never touched.
    let initial = declared.unwrap_or(16 * 1024).min(decoded_limit) as usize;
    let out = Capped {
        buf: Vec::with_capacity(initial),
        limit: usize::try_from(decoded_limit).unwrap_or(usize::MAX),
    };
    let mut decoder = Decoder::new(content_encoding, out)?;
    let decode_err = |e: io::Error, received: u64| -> BodyError {
        if is_cap_hit(&e) {
            if identity {
                BodyError::WireCap {
                    limit: max_wire.min(max_decoded),
                    declared,
                }
            } else {
                BodyError::DecodedCap {
                    limit: max_decoded,
                    encoding: content_encoding.to_string(),
                }
            }
        } else if e.kind() == io::ErrorKind::UnexpectedEof {
            BodyError::Truncated {
                received,
                expected: declared,
                detail: format!("{content_encoding} stream ended early: {e}"),
            }
        } else {
            BodyError::Decode(format!("corrupt {content_encoding} data: {e}"))
        }
    };
    let mut received: u64 = 0;
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                return Err(BodyError::Truncated {
                    received,
                    expected: declared,
                    detail: crate::fetcher::error_chain(&e),
                });
            }
        };
        received += chunk.len() as u64;
        if received > max_wire {
            return Err(BodyError::WireCap {
                limit: max_wire,
                declared,
            });
        }
        decoder
            .write(&chunk)
            .await
            .map_err(|e| decode_err(e, received))?;
    }
    if let Some(len) = declared
        && received < len
    {
        return Err(BodyError::Truncated {
            received,
            expected: declared,
            detail: "connection closed before Content-Length was reached".into(),
        });
    }
    let buf = decoder
        .finish()
        .await
        .map_err(|e| decode_err(e, received))?;
    Ok(Bytes::from(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn decode_all(enc: &str, data: &[u8], cap: usize) -> Result<Vec<u8>, io::Error> {
        let mut d = Decoder::new(
            enc,
            Capped {
                buf: Vec::new(),
                limit: cap,
            },
        )
        .unwrap();
        for chunk in data.chunks(7) {
            d.write(chunk).await?;
        }
        d.finish().await
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[tokio::test]
    async fn decoders_round_trip() {
        let text = b"hello hello hello world".repeat(50);
        assert_eq!(
            decode_all("gzip", &gzip(&text), 1 << 20).await.unwrap(),
            text
        );
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&text).unwrap();
        assert_eq!(
            decode_all("deflate", &z.finish().unwrap(), 1 << 20)
                .await
                .unwrap(),
            text
        );
        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        r.write_all(&text).unwrap();
        assert_eq!(
            decode_all("deflate", &r.finish().unwrap(), 1 << 20)
                .await
                .unwrap(),
            text
        );
        let mut b = async_compression::tokio::write::BrotliEncoder::new(Vec::new());
        b.write_all(&text).await.unwrap();
        b.shutdown().await.unwrap();
        assert_eq!(
            decode_all("br", &b.into_inner(), 1 << 20).await.unwrap(),
            text
        );
    }

    #[tokio::test]
    async fn bomb_stops_at_cap() {
        let bomb = gzip(&vec![0u8; 8 << 20]);
        let e = decode_all("gzip", &bomb, 64 * 1024).await.unwrap_err();
        assert!(is_cap_hit(&e), "{e}");
    }

    #[tokio::test]
    async fn garbage_is_an_error_not_a_panic() {
        for enc in ["gzip", "deflate", "br"] {
            let _ = decode_all(enc, b"\x1f\x8b\x08garbage-garbage-garbage", 1024).await;
            let _ = decode_all(enc, &[0xff; 3000], 1024).await;
        }
        assert!(
            Decoder::new(
                "zstd",
                Capped {
                    buf: Vec::new(),
                    limit: 1
                }
            )
            .is_err()
        );
    }
}
