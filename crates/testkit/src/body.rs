//! Turning a [`Body`] into bytes on the wire: streams for drips, truncation,
//! filler and compression bombs.

use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use flate2::{Compress, Compression, Crc, FlushCompress};
use futures::StreamExt;
use futures::stream::{self, BoxStream};

use crate::response::Body;

/// The stream type handed to hyper.
pub(crate) type ByteStream = BoxStream<'static, Result<Bytes, std::io::Error>>;

/// How the server must frame a body.
pub(crate) enum Framing {
    /// Exact `Content-Length` (may be a lie for truncation).
    Length(u64),
    /// Chunked transfer encoding.
    Chunked,
}

/// A body ready to send: its framing and its byte stream.
pub(crate) struct WireBody {
    pub(crate) framing: Framing,
    pub(crate) stream: ByteStream,
}

const FILLER_CHUNK: usize = 64 * 1024;

/// `len` bytes of repeating, valid-looking HTML text.
pub(crate) fn filler(len: usize) -> Vec<u8> {
    const UNIT: &[u8] =
        b"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n";
    UNIT.iter().copied().cycle().take(len).collect()
}

fn filler_chunk() -> Bytes {
    static CHUNK: OnceLock<Bytes> = OnceLock::new();
    CHUNK
        .get_or_init(|| Bytes::from(filler(FILLER_CHUNK)))
        .clone()
}

/// A stream of `total` filler bytes taken from a shared 64 KiB chunk.
fn filler_stream(total: u64) -> ByteStream {
    let chunk = filler_chunk();
    stream::unfold(total, move |left| {
        let chunk = chunk.clone();
        async move {
            if left == 0 {
                return None;
            }
            let n = usize::try_from(left).unwrap_or(usize::MAX).min(chunk.len());
            Some((Ok(chunk.slice(..n)), left - n as u64))
        }
    })
    .boxed()
}

pub(crate) fn wire(body: Body) -> WireBody {
    match body {
        Body::Full(b) => WireBody {
            framing: Framing::Length(b.len() as u64),
            stream: stream::once(async move { Ok(b) }).boxed(),
        },
        // Never reached: the server never builds a response for Hang.
        Body::Hang => WireBody {
            framing: Framing::Chunked,
            stream: stream::pending().boxed(),
        },
        // Never reached: the server closes the connection instead.
        Body::Close => WireBody {
            framing: Framing::Length(0),
            stream: stream::empty().boxed(),
        },
        Body::Stall { declared } => WireBody {
            framing: Framing::Length(declared),
            stream: stream::pending().boxed(),
        },
        Body::Drip {
            chunk,
            every,
            total,
        } => {
            let data = Bytes::from(filler(chunk.max(1)));
            let s = stream::unfold((total, true), move |(left, first)| {
                let data = data.clone();
                async move {
                    if left == 0 {
                        return None;
                    }
                    if !first {
                        tokio::time::sleep(every).await;
                    }
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(data.len());
                    Some((Ok(data.slice(..n)), (left - n as u64, false)))
                }
            });
            WireBody {
                framing: Framing::Length(total),
                stream: s.boxed(),
            }
        }
        Body::Truncated { declared, bytes } => {
            // Send the bytes, give hyper a moment to flush them, then end the
            // stream early: hyper sees the unmet Content-Length and closes.
            let s = stream::unfold(Some(bytes), |pending| async move {
                match pending {
                    Some(b) => Some((Ok(b), None)),
                    None => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        None
                    }
                }
            });
            WireBody {
                framing: Framing::Length(declared),
                stream: s.boxed(),
            }
        }
        Body::Filler {
            total,
            declare_length,
        } => WireBody {
            framing: if declare_length {
                Framing::Length(total)
            } else {
                Framing::Chunked
            },
            stream: filler_stream(total),
        },
        Body::GzipZeros { uncompressed } => {
            let bomb = GzipBomb::new(uncompressed);
            WireBody {
                framing: Framing::Length(bomb.compressed_len()),
                stream: bomb.stream(),
            }
        }
        Body::BrotliZeros { uncompressed } => WireBody {
            framing: Framing::Chunked,
            stream: brotli_zeros(uncompressed),
        },
    }
}

/// One MiB of zeros, compressed once with a full flush, is byte-identical
/// every time (a full flush resets the deflate history), so a gzip bomb of
/// N MiB is: header, the same block N times, a final empty block, trailer.
const BOMB_BLOCK: usize = 1 << 20;

struct DeflateParts {
    /// Raw deflate of BOMB_BLOCK zeros ending in a full flush.
    block: Bytes,
    /// The final (BFINAL) empty block.
    end: Bytes,
    /// CRC-32 of one block of zeros.
    block_crc: u32,
}

fn deflate_parts() -> &'static DeflateParts {
    static PARTS: OnceLock<DeflateParts> = OnceLock::new();
    PARTS.get_or_init(|| {
        let zeros = vec![0u8; BOMB_BLOCK];
        let mut c = Compress::new(Compression::best(), false);
        let mut out = Vec::with_capacity(BOMB_BLOCK / 256);
        loop {
            let consumed = c.total_in() as usize;
            out.reserve(4096);
            c.compress_vec(&zeros[consumed..], &mut out, FlushCompress::Full)
                .expect("deflate of zeros cannot fail");
            if c.total_in() as usize == BOMB_BLOCK && out.len() < out.capacity() {
                break;
            }
        }
        let block = Bytes::from(out);
        let mut end = Vec::with_capacity(64);
        loop {
            c.compress_vec(&[], &mut end, FlushCompress::Finish)
                .expect("deflate finish cannot fail");
            if end.len() < end.capacity() {
                break;
            }
            end.reserve(64);
        }
        let mut crc = Crc::new();
        crc.update(&zeros);
        let block_crc = crc.sum();
        DeflateParts {
            block,
            end: Bytes::from(end),
            block_crc,
        }
    })
}

struct GzipBomb {
    blocks: u64,
}

impl GzipBomb {
    fn new(uncompressed: u64) -> Self {
        Self {
            blocks: uncompressed.div_ceil(BOMB_BLOCK as u64).max(1),
        }
    }

    fn compressed_len(&self) -> u64 {
        let p = deflate_parts();
        10 + self.blocks * p.block.len() as u64 + p.end.len() as u64 + 8
    }

    fn trailer(&self) -> Bytes {
        let p = deflate_parts();
        // CRC of `blocks` copies of the block, by doubling.
        let (mut acc, mut acc_len) = (0u32, 0u64);
        let (mut pow, mut pow_len) = (p.block_crc, BOMB_BLOCK as u64);
        let mut n = self.blocks;
        while n > 0 {
            if n & 1 == 1 {
                acc = crc32_combine(acc, pow, pow_len);
                acc_len += pow_len;
            }
            pow = crc32_combine(pow, pow, pow_len);
            pow_len *= 2;
            n >>= 1;
        }
        debug_assert_eq!(acc_len, self.blocks * BOMB_BLOCK as u64);
        let crc = acc;
        let isize = (self.blocks.wrapping_mul(BOMB_BLOCK as u64) & 0xffff_ffff) as u32;
        let mut t = Vec::with_capacity(p.end.len() + 8);
        t.extend_from_slice(&p.end);
        t.extend_from_slice(&crc.to_le_bytes());
        t.extend_from_slice(&isize.to_le_bytes());
        Bytes::from(t)
    }

    fn stream(self) -> ByteStream {
        const HEADER: [u8; 10] = [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0x02, 0xff];
        const PER_FRAME: u64 = 32;
        let p = deflate_parts();
        let frame = Bytes::from(p.block.repeat(PER_FRAME as usize));
        let block_len = p.block.len();
        let trailer = self.trailer();
        let body = stream::unfold(self.blocks, move |left| {
            let frame = frame.clone();
            async move {
                if left == 0 {
                    return None;
                }
                let n = left.min(PER_FRAME);
                Some((
                    Ok::<_, std::io::Error>(frame.slice(..n as usize * block_len)),
                    left - n,
                ))
            }
        });
        stream::once(async { Ok(Bytes::from_static(&HEADER)) })
            .chain(body)
            .chain(stream::once(async move { Ok(trailer) }))
            .boxed()
    }
}

fn gf2_times(mat: &[u32; 32], mut vec: u32) -> u32 {
    let mut sum = 0;
    let mut i = 0;
    while vec != 0 {
        if vec & 1 != 0 {
            sum ^= mat[i];
        }
        vec >>= 1;
        i += 1;
    }
    sum
}

fn gf2_square(square: &mut [u32; 32], mat: &[u32; 32]) {
    for n in 0..32 {
        square[n] = gf2_times(mat, mat[n]);
    }
}

/// zlib's `crc32_combine`: the CRC-32 of A‖B from crc(A), crc(B), len(B).
fn crc32_combine(mut crc1: u32, crc2: u32, mut len2: u64) -> u32 {
    if len2 == 0 {
        return crc1;
    }
    let mut even = [0u32; 32];
    let mut odd = [0u32; 32];
    odd[0] = 0xedb8_8320;
    let mut row = 1u32;
    for slot in odd.iter_mut().skip(1) {
        *slot = row;
        row <<= 1;
    }
    gf2_square(&mut even, &odd);
    gf2_square(&mut odd, &even);
    loop {
        gf2_square(&mut even, &odd);
        if len2 & 1 != 0 {
            crc1 = gf2_times(&even, crc1);
        }
        len2 >>= 1;
        if len2 == 0 {
            break;
        }
        gf2_square(&mut odd, &even);
        if len2 & 1 != 0 {
            crc1 = gf2_times(&odd, crc1);
        }
        len2 >>= 1;
        if len2 == 0 {
            break;
        }
    }
    crc1 ^ crc2
}

/// Brotli of `uncompressed` zeros, encoded lazily as the client reads: the
/// encoder is flushed after every chunk of input, so the first bytes leave
/// after one chunk is compressed (not after the whole input, which a slow
/// debug build under load could make take longer than a first-byte timeout).
fn brotli_zeros(uncompressed: u64) -> ByteStream {
    use async_compression::Level;
    use async_compression::tokio::write::BrotliEncoder;
    use tokio::io::AsyncWriteExt;
    const CHUNK: u64 = 256 * 1024;
    let enc = BrotliEncoder::with_quality(Vec::new(), Level::Fastest);
    stream::unfold(Some((Box::pin(enc), uncompressed)), |state| async move {
        let (mut enc, left) = state?;
        let step = async {
            if left == 0 {
                enc.shutdown().await?;
            } else {
                let n = left.min(CHUNK) as usize;
                enc.write_all(&vec![0u8; n]).await?;
                enc.flush().await?;
            }
            Ok::<_, std::io::Error>(Bytes::from(std::mem::take(enc.get_mut())))
        };
        match step.await {
            Ok(bytes) if left == 0 => (!bytes.is_empty()).then_some((Ok(bytes), None)),
            Ok(bytes) => Some((Ok(bytes), Some((enc, left - left.min(CHUNK))))),
            Err(e) => Some((Err(e), None)),
        }
    })
    .boxed()
}

#[cfg(test)]
mod unit {
    use super::*;

    fn crc(data: &[u8]) -> u32 {
        let mut c = Crc::new();
        c.update(data);
        c.sum()
    }

    #[test]
    fn crc32_combine_matches_a_direct_crc() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 31 % 251) as u8).collect();
        for split in [0, 1, 7, 4096, 9_999, 10_000] {
            let (a, b) = data.split_at(split);
            assert_eq!(
                crc32_combine(crc(a), crc(b), b.len() as u64),
                crc(&data),
                "split at {split}"
            );
        }
    }

    #[test]
    fn gzip_trailer_has_isize_mod_2_32_and_the_crc_of_all_blocks() {
        let bomb = GzipBomb::new(5 << 30); // 5 GiB: ISIZE wraps
        let t = bomb.trailer();
        let n = t.len();
        let isize = u32::from_le_bytes(t[n - 4..].try_into().unwrap());
        assert_eq!(u64::from(isize), (5u64 << 30) % (1 << 32));
        // 3 blocks: compare with a direct CRC of 3 MiB of zeros.
        let t3 = GzipBomb::new(3 << 20).trailer();
        let m = t3.len();
        let crc3 = u32::from_le_bytes(t3[m - 8..m - 4].try_into().unwrap());
        assert_eq!(crc3, crc(&vec![0u8; 3 << 20]));
    }
}
